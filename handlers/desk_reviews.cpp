// The editor's desk's reviews, one reviewer's verdict on one tool: their list, newest first,
// their desk address (tool--reviewer), and the section table (handlers/desk_forms.h) that gives
// their form, checks and store calls.
#include "domain/counting.h"
#include "domain/slugs.h"
#include "handlers/desk_forms.h"
#include "render/pages.h"

namespace verdict::handlers {

namespace {

// A review's part of its desk address: its tool's and reviewer's slugs, joined by
// kReviewKeySeparator, which no slug holds.
std::string review_key(const ContentReview &review) {
  return review.tool + std::string(kReviewKeySeparator) + review.reviewer;
}

std::optional<std::pair<std::string, std::string>> review_of_key(const std::string &key) {
  const auto join = key.find(kReviewKeySeparator);
  if (join == std::string::npos) return std::nullopt;
  return std::pair{key.substr(0, join), key.substr(join + kReviewKeySeparator.size())};
}

// A review as the desk names it: "Skeptical Staff Engineer on Codestral 2.1".
std::string review_name(StoreReads &site, const ContentReview &review) {
  return reviewer_name(site, review.reviewer) + " on " + tool_name(site, review.tool);
}

const Section<ContentReview> &reviews() {
  using Kind = desk::FormField::Kind;
  static const Section<ContentReview> section{
      "review",
      "Reviews",
      "/admin/reviews",
      [](StoreReads &site) {
        const auto tool = tool_field(site, "tool", "Tool");
        desk::FormField reviewer{"reviewer", "Reviewer", Kind::choice};
        for (const auto &r : site.reviewers())
          reviewer.choices.emplace_back(r.slug, r.name + " (" + r.lens + ")");
        desk::FormField verdict{"verdict", "Verdict", Kind::choice};
        verdict.choices = {{verdict_word(Verdict::ship), "Ship"},
                           {verdict_word(Verdict::skip), "Skip"}};
        return std::vector<desk::FormField>{
            tool,
            reviewer,
            verdict,
            {"quote", "Quote", Kind::text, true, "The reviewer's words, as the page shows them."}};
      },
      [](const Values &v) {
        return ContentReview{field_of(v, "tool"), field_of(v, "reviewer"), field_of(v, "verdict"),
                             field_of(v, "quote")};
      },
      review_faults,
      review_name,
      [](StoreReads &site, const std::string &key) -> std::optional<ContentReview> {
        const auto parts = review_of_key(key);
        if (!parts) return std::nullopt;
        return site.review_content(parts->first, parts->second);
      },
      [](const ContentReview &r, const std::string &editor) -> Write {
        return CreateReview{r, editor};
      },
      // A key that names no tool and reviewer names no review: the store finds none.
      [](const std::string &key, const ContentReview &r, const std::string &editor) -> Write {
        const auto parts = review_of_key(key).value_or(std::pair{key, std::string()});
        return UpdateReview{parts.first, parts.second, r, editor};
      },
      [](const std::string &key, const std::string &editor) -> Write {
        const auto parts = review_of_key(key).value_or(std::pair{key, std::string()});
        return DeleteReview{parts.first, parts.second, editor};
      },
      [](StoreReads &, const ContentReview &) { return std::string(); },
      review_key,
      {},
      "A reviewer has one review of a tool: edit that one from the list, or pick another tool "
      "or reviewer."};
  return section;
}

} // namespace

const Section<ContentReview> &review_section() {
  return reviews();
}

// GET /admin/reviews — every review, newest first, a page at a time.   page=N   q=words to
// narrow to
void show_reviews_at_desk(App &app, StoreReads &site, const Request &req, Response &res,
                          const UrlCaptures &, const EditorSession &session) {
  const auto span = list_page(app, req, res, kDeskListPageSize);
  if (!span) return;
  const auto filter = list_filter(app, req, res);
  if (!filter) return;
  const auto page = site.reviews_at_desk(*span, *filter);
  desk::ItemList list;
  list.plural = "Reviews";
  list.list_path = "/admin/reviews";
  list.find_label = "Find reviews by tool, reviewer, verdict or words of the quote";
  list.filter = *filter;
  list.new_label = "New review";
  list.columns = {"Verdict", "Quote"};
  list.saved = saved_note(site, req, reviews());
  list.pagination = pages::pagination(app.views, desk::list_address(list.list_path, *filter),
                                      page.number, page.has_next);
  for (const auto &review : page.items)
    list.rows.push_back(
        {review_key(review), review_name(site, review), {review.verdict, review.quote}});
  send_html(res, desk::item_list(app.views, site.site_copy(), bar_for(session, "review"), list));
}

// GET /admin/reviews/new, /admin/reviews/:tool--:reviewer; POST /admin/reviews (create),
// /admin/reviews/:tool--:reviewer (save)   tool, reviewer, verdict, quote   csrf
// GET and POST /admin/reviews/:tool--:reviewer/delete   csrf
void new_review(App &app, StoreReads &site, const Request &, Response &res, const UrlCaptures &,
                const EditorSession &session) {
  show_new_item(app, site, res, session, reviews());
}
void edit_review(App &app, StoreReads &site, const Request &, Response &res, const UrlCaptures &url,
                 const EditorSession &session) {
  show_item(app, site, res, url, session, reviews());
}
void save_review(App &app, StoreReads &site, const Request &req, Response &res,
                 const UrlCaptures &url, const EditorSession &session) {
  save_item(app, site, req, res, url, session, reviews());
}
void confirm_review_deletion(App &app, StoreReads &site, const Request &, Response &res,
                             const UrlCaptures &url, const EditorSession &session) {
  confirm_item_deletion(app, site, res, url, session, reviews());
}
void delete_review(App &app, StoreReads &site, const Request &req, Response &res,
                   const UrlCaptures &url, const EditorSession &session) {
  delete_item(app, site, req, res, url, session, reviews());
}

} // namespace verdict::handlers
