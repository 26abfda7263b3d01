// Every handler of the site. Each speaks only HTTP: it parses and guards the request, makes
// one or two store calls, and renders a page or redirects. handlers/routes.cpp maps URLs here.
#pragma once

#include <httplib.h>

#include <string_view>

#include "middleware/app.h"
#include "middleware/url_captures.h"

namespace verdict::handlers {

using httplib::Request;
using httplib::Response;

// Pages (handlers/pages.cpp)
void show_home(App &app, StoreReads &site, const Request &req, Response &res,
               const UrlCaptures &url);
void show_comparisons(App &app, StoreReads &site, const Request &req, Response &res,
                      const UrlCaptures &url);
// The comparison and tool pages show the reader's own votes: each returns the page with those
// places cut out (pages::PersonalPage), or nothing when it answered otherwise (404, 301).
std::optional<pages::PersonalPage> show_comparison(App &app, StoreReads &site, const Request &req,
                                                   Response &res, const UrlCaptures &url);
void pick_comparison(App &app, StoreReads &site, const Request &req, Response &res,
                     const UrlCaptures &url);
void show_tools(App &app, StoreReads &site, const Request &req, Response &res,
                const UrlCaptures &url);
std::optional<pages::PersonalPage> show_tool(App &app, StoreReads &site, const Request &req,
                                             Response &res, const UrlCaptures &url);
void show_reviewers(App &app, StoreReads &site, const Request &req, Response &res,
                    const UrlCaptures &url);
void show_categories_page(App &app, StoreReads &site, const Request &req, Response &res,
                          const UrlCaptures &url);
void show_methodology(App &app, StoreReads &site, const Request &req, Response &res,
                      const UrlCaptures &url);
void show_category(App &app, StoreReads &site, const Request &req, Response &res,
                   const UrlCaptures &url);
void show_reviewer(App &app, StoreReads &site, const Request &req, Response &res,
                   const UrlCaptures &url);
void show_search(App &app, StoreReads &site, const Request &req, Response &res,
                 const UrlCaptures &url);
void show_subscribe_form(App &app, StoreReads &site, const Request &req, Response &res,
                         const UrlCaptures &url);
void show_health(App &app, StoreReads &site, const Request &req, Response &res,
                 const UrlCaptures &url);
void show_static(App &app, StoreReads &site, const Request &req, Response &res,
                 const UrlCaptures &url);
void show_robots(App &app, StoreReads &site, const Request &req, Response &res,
                 const UrlCaptures &url);
void show_metrics(App &app, StoreReads &site, const Request &req, Response &res,
                  const UrlCaptures &url);
void show_sitemap(App &app, StoreReads &site, const Request &req, Response &res,
                  const UrlCaptures &url);
// Atom feeds: the site's, a tool's and a reviewer's.
void show_feed(App &app, StoreReads &site, const Request &req, Response &res,
               const UrlCaptures &url);
void show_tool_feed(App &app, StoreReads &site, const Request &req, Response &res,
                    const UrlCaptures &url);
void show_alternatives(App &app, StoreReads &site, const Request &req, Response &res,
                       const UrlCaptures &url);
void show_reviewer_feed(App &app, StoreReads &site, const Request &req, Response &res,
                        const UrlCaptures &url);
void show_favicon(App &app, StoreReads &site, const Request &req, Response &res,
                  const UrlCaptures &url);

// The read-only JSON API (handlers/api.cpp)
void api_tools(App &app, StoreReads &site, const Request &req, Response &res,
               const UrlCaptures &url);
void api_comparisons(App &app, StoreReads &site, const Request &req, Response &res,
                     const UrlCaptures &url);
void api_tool(App &app, StoreReads &site, const Request &req, Response &res,
              const UrlCaptures &url);
void api_alternatives(App &app, StoreReads &site, const Request &req, Response &res,
                      const UrlCaptures &url);
void api_comparison(App &app, StoreReads &site, const Request &req, Response &res,
                    const UrlCaptures &url);

// The vote log and its checkpoints, as JSON (handlers/transparency.cpp)
void show_transparency(App &app, StoreReads &site, const Request &req, Response &res,
                       const UrlCaptures &url);
void show_receipts(App &app, StoreReads &site, const Request &req, Response &res,
                   const UrlCaptures &url);
void show_checkpoint_feed(App &app, StoreReads &site, const Request &req, Response &res,
                          const UrlCaptures &url);
void transparency_checkpoint(App &app, StoreReads &site, const Request &req, Response &res,
                             const UrlCaptures &url);
void transparency_log(App &app, StoreReads &site, const Request &req, Response &res,
                      const UrlCaptures &url);
void transparency_proof(App &app, StoreReads &site, const Request &req, Response &res,
                        const UrlCaptures &url);
// Open data (handlers/data.cpp): the vote log's tallies per target per day.
void data_tallies_csv(App &app, StoreReads &site, const Request &req, Response &res,
                      const UrlCaptures &url);
void data_tallies_json(App &app, StoreReads &site, const Request &req, Response &res,
                       const UrlCaptures &url);

// Images: share cards and badges (handlers/cards.cpp)
void show_comparison_card(App &app, StoreReads &site, const Request &req, Response &res,
                          const UrlCaptures &url);
void show_comparison_card_png(App &app, StoreReads &site, const Request &req, Response &res,
                              const UrlCaptures &url);
void show_tool_badge(App &app, StoreReads &site, const Request &req, Response &res,
                     const UrlCaptures &url);
void show_pair_badge(App &app, StoreReads &site, const Request &req, Response &res,
                     const UrlCaptures &url);

// Votes (handlers/votes.cpp)
std::optional<Write> vote_on_tool(App &app, StoreReads &site, const Request &req, Response &res,
                                  const UrlCaptures &url);
std::optional<Write> vote_on_pair(App &app, StoreReads &site, const Request &req, Response &res,
                                  const UrlCaptures &url);

// The weekly digest's sign-up, confirmation and unsubscribe (handlers/newsletter.cpp)
void subscribe(App &app, StoreReads &site, const Request &req, Response &res,
               const UrlCaptures &url);
void show_subscribed(App &app, StoreReads &site, const Request &req, Response &res,
                     const UrlCaptures &url);
void show_confirmation(App &app, StoreReads &site, const Request &req, Response &res,
                       const UrlCaptures &url);
void confirm_subscription(App &app, StoreReads &site, const Request &req, Response &res,
                          const UrlCaptures &url);
void unsubscribe_by_link(App &app, StoreReads &site, const Request &req, Response &res,
                         const UrlCaptures &url);
void unsubscribe_one_click(App &app, StoreReads &site, const Request &req, Response &res,
                           const UrlCaptures &url);
void undo_unsubscribe(App &app, StoreReads &site, const Request &req, Response &res,
                      const UrlCaptures &url);

// The editor's desk (handlers/desk_*.cpp, a file per section; handlers/desk_forms.h holds what
// the sections share). Sign-in is open to all; the rest are for a signed-in editor, whom the
// guards pass in.
void show_sign_in(App &app, StoreReads &site, const Request &req, Response &res,
                  const UrlCaptures &url);
void sign_in(App &app, StoreReads &site, const Request &req, Response &res, const UrlCaptures &url);
void sign_out(App &app, StoreReads &site, const Request &req, Response &res, const UrlCaptures &url,
              const EditorSession &session);
void show_desk(App &app, StoreReads &site, const Request &req, Response &res,
               const UrlCaptures &url, const EditorSession &session);
void show_edit_log(App &app, StoreReads &site, const Request &req, Response &res,
                   const UrlCaptures &url, const EditorSession &session);
void show_categories(App &app, StoreReads &site, const Request &req, Response &res,
                     const UrlCaptures &url, const EditorSession &session);
void new_category(App &app, StoreReads &site, const Request &req, Response &res,
                  const UrlCaptures &url, const EditorSession &session);
void edit_category(App &app, StoreReads &site, const Request &req, Response &res,
                   const UrlCaptures &url, const EditorSession &session);
void save_category(App &app, StoreReads &site, const Request &req, Response &res,
                   const UrlCaptures &url, const EditorSession &session);
void confirm_category_deletion(App &app, StoreReads &site, const Request &req, Response &res,
                               const UrlCaptures &url, const EditorSession &session);
void delete_category(App &app, StoreReads &site, const Request &req, Response &res,
                     const UrlCaptures &url, const EditorSession &session);
void show_tools_at_desk(App &app, StoreReads &site, const Request &req, Response &res,
                        const UrlCaptures &url, const EditorSession &session);
void new_tool(App &app, StoreReads &site, const Request &req, Response &res, const UrlCaptures &url,
              const EditorSession &session);
void edit_tool(App &app, StoreReads &site, const Request &req, Response &res,
               const UrlCaptures &url, const EditorSession &session);
void save_tool(App &app, StoreReads &site, const Request &req, Response &res,
               const UrlCaptures &url, const EditorSession &session);
void confirm_tool_deletion(App &app, StoreReads &site, const Request &req, Response &res,
                           const UrlCaptures &url, const EditorSession &session);
void delete_tool(App &app, StoreReads &site, const Request &req, Response &res,
                 const UrlCaptures &url, const EditorSession &session);
void show_reviewers_at_desk(App &app, StoreReads &site, const Request &req, Response &res,
                            const UrlCaptures &url, const EditorSession &session);
void new_reviewer(App &app, StoreReads &site, const Request &req, Response &res,
                  const UrlCaptures &url, const EditorSession &session);
void edit_reviewer(App &app, StoreReads &site, const Request &req, Response &res,
                   const UrlCaptures &url, const EditorSession &session);
void save_reviewer(App &app, StoreReads &site, const Request &req, Response &res,
                   const UrlCaptures &url, const EditorSession &session);
void confirm_reviewer_deletion(App &app, StoreReads &site, const Request &req, Response &res,
                               const UrlCaptures &url, const EditorSession &session);
void delete_reviewer(App &app, StoreReads &site, const Request &req, Response &res,
                     const UrlCaptures &url, const EditorSession &session);
void show_reviews_at_desk(App &app, StoreReads &site, const Request &req, Response &res,
                          const UrlCaptures &url, const EditorSession &session);
void new_review(App &app, StoreReads &site, const Request &req, Response &res,
                const UrlCaptures &url, const EditorSession &session);
void edit_review(App &app, StoreReads &site, const Request &req, Response &res,
                 const UrlCaptures &url, const EditorSession &session);
void save_review(App &app, StoreReads &site, const Request &req, Response &res,
                 const UrlCaptures &url, const EditorSession &session);
void confirm_review_deletion(App &app, StoreReads &site, const Request &req, Response &res,
                             const UrlCaptures &url, const EditorSession &session);
void delete_review(App &app, StoreReads &site, const Request &req, Response &res,
                   const UrlCaptures &url, const EditorSession &session);
void show_comparisons_at_desk(App &app, StoreReads &site, const Request &req, Response &res,
                              const UrlCaptures &url, const EditorSession &session);
void new_comparison(App &app, StoreReads &site, const Request &req, Response &res,
                    const UrlCaptures &url, const EditorSession &session);
void edit_comparison(App &app, StoreReads &site, const Request &req, Response &res,
                     const UrlCaptures &url, const EditorSession &session);
void save_comparison(App &app, StoreReads &site, const Request &req, Response &res,
                     const UrlCaptures &url, const EditorSession &session);
void confirm_comparison_deletion(App &app, StoreReads &site, const Request &req, Response &res,
                                 const UrlCaptures &url, const EditorSession &session);
void delete_comparison(App &app, StoreReads &site, const Request &req, Response &res,
                       const UrlCaptures &url, const EditorSession &session);
void preview_comparison(App &app, StoreReads &site, const Request &req, Response &res,
                        const UrlCaptures &url, const EditorSession &session);
void preview_unsaved_comparison(App &app, StoreReads &site, const Request &req, Response &res,
                                const UrlCaptures &url, const EditorSession &session);
void show_subscribers(App &app, StoreReads &site, const Request &req, Response &res,
                      const UrlCaptures &url, const EditorSession &session);
void export_subscribers(App &app, StoreReads &site, const Request &req, Response &res,
                        const UrlCaptures &url, const EditorSession &session);
void confirm_subscriber_erasure(App &app, StoreReads &site, const Request &req, Response &res,
                                const UrlCaptures &url, const EditorSession &session);
void erase_subscriber(App &app, StoreReads &site, const Request &req, Response &res,
                      const UrlCaptures &url, const EditorSession &session);

} // namespace verdict::handlers
