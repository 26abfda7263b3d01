// The site's images (render/cards.h): a comparison's share card as SVG and as PNG, and the
// badges of a tool and of a pair. They are kept and answered like pages (transport's page
// cache for the page epoch, ETags from their bytes, 304s, public caching); the PNG is drawn
// again only when the card's SVG changes (render/png.h).
//
// Share cards are made for published comparisons only: they are what a published page names
// as its og:image. A pair nobody published still has its page (noindex) and its badge, but no
// card, so the drawing work a stranger can ask for is bounded by what the editor publishes,
// not by every pair of tools.
#include "render/cards.h"
#include "domain/slugs.h"
#include "handlers/handlers.h"
#include "middleware/responses.h"

namespace verdict::handlers {

namespace {

constexpr const char *kSvg = "image/svg+xml";

// The pair an image address names, in its one order; nothing when it answered instead: 404
// for no pair, 301 (keeping `rest`, the image's name) for a renamed tool or the other order.
std::optional<Comparison> pair_of_image(App &app, StoreReads &site, const Request &req,
                                        Response &res, std::string_view pair,
                                        const std::string &rest) {
  if (refuse_other_pages(app, req, res)) return std::nullopt;
  bool canonical_order = true;
  auto comparison = site.resolve_pair(pair, canonical_order);
  if (!comparison) {
    answer_unknown_pair(app, res, pair, rest);
    return std::nullopt;
  }
  if (!canonical_order) {
    moved_permanently(res, "/compare/" + pair_slug(comparison->b.slug, comparison->a.slug) + rest);
    return std::nullopt;
  }
  return comparison;
}

// The same for a share card, which only a published comparison has.
std::optional<Comparison> comparison_of_card(App &app, StoreReads &site, const Request &req,
                                             Response &res, std::string_view pair,
                                             const std::string &rest) {
  auto comparison = pair_of_image(app, site, req, res, pair, rest);
  if (comparison && !comparison->published) {
    page_not_found(app, res,
                   "Share cards are made for published comparisons, and this pair has not been "
                   "published. Its page is at /compare/" +
                       std::string(pair) + ".");
    return std::nullopt;
  }
  return comparison;
}

} // namespace

// GET /compare/:pair/card.svg — a published comparison's share card, 1200×630.
void show_comparison_card(App &app, StoreReads &site, const Request &req, Response &res,
                          const UrlCaptures &url) {
  const std::string &pair = url[0];
  const auto comparison = comparison_of_card(app, site, req, res, pair, "/card.svg");
  if (!comparison) return;
  res.set_content(cards::comparison_card(app.views, *comparison, site.site_copy()), kSvg);
}

// GET /compare/:pair/card.png — the same card drawn as PNG: the page's og:image.
void show_comparison_card_png(App &app, StoreReads &site, const Request &req, Response &res,
                              const UrlCaptures &url) {
  const std::string &pair = url[0];
  const auto comparison = comparison_of_card(app, site, req, res, pair, "/card.png");
  if (!comparison) return;
  const auto svg = cards::comparison_card(app.views, *comparison, site.site_copy());
  res.set_content(app.card_images.png_of(svg, cards::kCardWidth, cards::kCardHeight), "image/png");
}

// GET /tools/:slug/badge.svg — the tool's panel ship rate as a badge to embed.
void show_tool_badge(App &app, StoreReads &site, const Request &req, Response &res,
                     const UrlCaptures &url) {
  const std::string &slug = url[0];
  if (refuse_other_pages(app, req, res)) return;
  const auto tool = site.tool_by_slug(slug);
  if (!tool) return answer_unknown_tool(app, res, slug, "/badge.svg");
  res.set_content(cards::badge_svg(app.views, cards::tool_badge(*tool, site.site_copy())), kSvg);
}

// GET /compare/:pair/badge.svg — whom the panel and the readers favour, as a badge to embed.
void show_pair_badge(App &app, StoreReads &site, const Request &req, Response &res,
                     const UrlCaptures &url) {
  const std::string &pair = url[0];
  const auto comparison = pair_of_image(app, site, req, res, pair, "/badge.svg");
  if (!comparison) return;
  res.set_content(cards::badge_svg(app.views, cards::pair_badge(*comparison)), kSvg);
}

} // namespace verdict::handlers
