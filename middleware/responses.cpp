#include "middleware/responses.h"

#include <chrono>
#include <future>
#include <iostream>

#include "middleware/request_reading.h"
#include "render/pages.h"
#include "transport/answer_hold.h"
#include "transport/cache_policy.h"

namespace verdict {

void send_html(httplib::Response &res, std::string html, int status) {
  res.status = status;
  res.set_content(std::move(html), "text/html; charset=utf-8");
}

void send_kept_html(App &app, PageCache &kept, const std::string &key, httplib::Response &res,
                    const std::function<std::optional<std::string>()> &render) {
  const auto epoch = app.page_epoch.current();
  if (const auto page = kept.find(key, epoch)) return send_html(res, page->body, page->status);
  auto html = render();
  if (!html) return;
  auto page = std::make_shared<CachedPage>();
  page->body = std::move(*html);
  send_html(res, page->body);
  kept.put(key, epoch, std::move(page));
}

void set_single_header(httplib::Response &res, const std::string &name, const std::string &value) {
  res.headers.erase(name);
  res.set_header(name, value);
}

void send_error(const App &app, httplib::Response &res, int status, const std::string &heading,
                const std::string &message) {
  std::string eyebrow = "Error " + std::to_string(status);
  send_html(res, pages::message(app.views, app.store.site_copy(), eyebrow, heading, message),
            status);
  set_cache_policy(res, CachePolicy::never_kept);
}

void send_error_without_fail(const App &app, httplib::Response &res, int status,
                             const std::string &heading, const std::string &message) noexcept {
  try {
    send_error(app, res, status, heading, message);
  } catch (...) {
    try {
      res.status = status;
      res.set_content(heading + "\n\n" + message + "\n", "text/plain; charset=utf-8");
      set_cache_policy(res, CachePolicy::never_kept);
    } catch (...) {
      res.status = status; // out of memory: the status alone
    }
  }
}

void send_error(const App &app, httplib::Response &res, int status, const std::string &heading,
                const std::string &message, const std::string &link,
                const std::string &link_label) {
  std::string eyebrow = "Error " + std::to_string(status);
  send_html(
      res,
      pages::message(app.views, app.store.site_copy(), eyebrow, heading, message, link, link_label),
      status);
  set_cache_policy(res, CachePolicy::never_kept);
}

namespace {
std::string refusal_page_in_layout(const App &app, int status, const std::string &reason);
}

std::string refusal_page(const App &app, int status, const std::string &reason) {
  try {
    return refusal_page_in_layout(app, status, reason);
  } catch (const std::exception &) {
    return reason + "\n"; // the site's name cannot be read: the reason alone
  }
}

namespace {
std::string refusal_page_in_layout(const App &app, int status, const std::string &reason) {
  const char *heading = status == 413   ? "Too large"
                        : status == 414 ? "Address too long"
                        : status == 431 ? "Headers too large"
                        : status == 503 ? "Nothing was saved"
                        : status >= 500 ? "Not supported"
                                        : "That request could not be used";
  return pages::message(app.views, app.store.site_copy(), "Error " + std::to_string(status),
                        heading, reason);
}
} // namespace

// What a reader is told of a write the site could not take, whichever way it failed.
constexpr auto kNothingSaved =
    "The site cannot save anything at the moment. Nothing was changed; please try again later.";

void write_not_taken(const App &app, httplib::Response &res, const std::string &why) {
  std::cerr << "refused: a write: " << why << "\n";
  res.headers.clear();
  send_error_without_fail(app, res, 503, "Not saved right now", kNothingSaved);
  res.set_header("Retry-After", "60");
}

namespace {
// What a reader is told of a write not written: the site's own words when it takes no writes
// now, else that nothing was saved (a refusal's or an error's words are the owner's).
std::string words_for_the_reader(const WriteResult &ended) {
  return ended.ended == WriteResult::Ended::unavailable ? ended.words : kNothingSaved;
}
} // namespace

void answer_once_written(const httplib::Request &req, SiteWrites &writes, const Write &write) {
  const bool held =
      transport::answer_after(req, [&writes, write](transport::AnswerRelease release) {
        writes.submit_queued(write, [release = std::move(release)](const WriteResult &ended) {
          if (ended.done()) return release(std::nullopt);
          std::cerr << "refused: a write: " << ended.words << "\n";
          release(words_for_the_reader(ended));
        });
      });
  if (held) return;
  std::promise<WriteResult> told;
  writes.submit_queued(write, [&told](const WriteResult &ended) { told.set_value(ended); });
  if (const auto ended = told.get_future().get(); !ended.done())
    throw StoreUnavailable(words_for_the_reader(ended));
}

void see_other(httplib::Response &res, const std::string &location) {
  res.status = 303;
  res.set_header("Location", location);
  set_cache_policy(res, CachePolicy::never_kept);
}

void moved_permanently(httplib::Response &res, const std::string &location) {
  res.status = 301;
  res.set_header("Location", location);
  set_cache_policy(res, CachePolicy::moved_for_a_day);
}

void send_json(httplib::Response &res, std::string json, int status) {
  res.status = status;
  res.set_content(std::move(json), "application/json; charset=utf-8");
}

std::optional<PageSpan> list_page(const App &app, const httplib::Request &req,
                                  httplib::Response &res, int size) {
  const auto number = requested_page(req);
  if (!number) {
    send_error(app, res, 400, "Not a page number",
               "The page parameter must be a whole number from 1, like ?page=2.");
    return std::nullopt;
  }
  return PageSpan{*number, size};
}

void page_not_found(const App &app, httplib::Response &res, const std::string &what) {
  send_error(app, res, 404, "Not found", what);
}

void address_not_found(const App &app, httplib::Response &res) {
  page_not_found(app, res,
                 "Nothing lives at this address. The comparisons, tools and reviewers "
                 "are linked from the front page.");
}

bool past_the_end(const App &app, httplib::Response &res, const PageSpan &span,
                  bool nothing_on_it) {
  if (span.number == 1 || !nothing_on_it) return false;
  page_not_found(app, res,
                 "This list has fewer pages. Page 1 is at the same address without ?page=.");
  return true;
}

bool refuse_other_pages(const App &app, const httplib::Request &req, httplib::Response &res) {
  const auto span = list_page(app, req, res, 1);
  return !span || past_the_end(app, res, *span, true);
}

void answer_unknown_pair(App &app, httplib::Response &res, std::string_view pair,
                         const std::string &rest) {
  if (const auto renamed = app.store.pair_after_renames(pair))
    return moved_permanently(res, "/compare/" + *renamed + rest);
  page_not_found(app, res,
                 "There is no comparison at this address: it does not name two different tools "
                 "of this site.");
}

void answer_unknown_slug(App &app, httplib::Response &res, std::string_view kind,
                         std::string_view slug, const std::string &section, const std::string &rest,
                         const std::string &what) {
  if (const auto renamed = app.store.renamed_slug(kind, slug))
    return moved_permanently(res, section + *renamed + rest);
  page_not_found(app, res, what);
}

void answer_unknown_tool(App &app, httplib::Response &res, std::string_view slug,
                         const std::string &rest) {
  answer_unknown_slug(app, res, "tool", slug, "/tools/", rest,
                      "There is no tool with this address.");
}

void answer_unknown_reviewer(App &app, httplib::Response &res, std::string_view slug,
                             const std::string &rest) {
  answer_unknown_slug(app, res, "reviewer", slug, "/reviewers/", rest,
                      "There is no reviewer with this address.");
}

} // namespace verdict
