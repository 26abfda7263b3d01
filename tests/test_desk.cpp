// The editor's desk over HTTP, as an editor's browser and an attacker's script use it.
#include <catch2/catch.hpp>

#include "auth/secrets.h"
#include "store/sqlite.h"
#include "test_support.h"

using namespace verdict;

namespace {

const std::string kEmail = "editor@example.com";
const std::string kPassword = "a long desk password";

void add_editor(Store &store, const std::string &email = kEmail,
                const std::string &password = kPassword) {
  store.add_editor(email, auth::hash_password(password));
}

httplib::Result try_sign_in(httplib::Client &client, const std::string &email,
                            const std::string &password, const httplib::Headers &extra = {}) {
  httplib::Headers headers{{"Sec-Fetch-Site", "same-origin"}};
  headers.insert(extra.begin(), extra.end());
  return client.Post("/admin/login", headers,
                     "email=" + httplib::detail::encode_query_param(email) +
                         "&password=" + httplib::detail::encode_query_param(password),
                     "application/x-www-form-urlencoded");
}

size_t log_entries(Store &store) {
  return store.edit_log({1, 1000}).items.size();
}

} // namespace

TEST_CASE("desk: every desk page sends a signed-out browser to sign in, and back there after") {
  test::SiteServer site;
  add_editor(site.store());
  auto client = site.client();
  for (const auto &[path, sign_in] :
       {std::pair{"/admin", "/admin/login"},
        std::pair{"/admin/categories", "/admin/login?next=/admin/categories"},
        std::pair{"/admin/categories/new", "/admin/login?next=/admin/categories/new"},
        std::pair{"/admin/log", "/admin/login?next=/admin/log"}}) {
    INFO(path);
    const auto res = client.Get(path);
    REQUIRE(res);
    CHECK(res->status == 303);
    CHECK(res->get_header_value("Location") == sign_in);
    CHECK(res->get_header_value("Cache-Control") == "no-store");
    // A made-up session cookie is no better than none.
    const auto forged = client.Get(path, {{"Cookie", "verdict_session=" + auth::random_secret()}});
    CHECK(forged->status == 303);
  }
  const auto page = client.Get("/admin/login?next=/admin/categories");
  REQUIRE(page->status == 200);
  CHECK(page->body.find("name=\"next\" value=\"/admin/categories\"") != std::string::npos);
  // Only a desk page is a place to be sent back to.
  CHECK(client.Get("/admin/login?next=https://evil.example/")->body.find("evil") ==
        std::string::npos);

  const auto signed_in = try_sign_in(client, kEmail, kPassword);
  REQUIRE(signed_in->status == 303);
  CHECK(signed_in->get_header_value("Location") == "/admin");
  // Signed in, the sign-in page sends the editor to the desk.
  const auto cookie = signed_in->get_header_value("Set-Cookie");
  CHECK(client.Get("/admin/login", {{"Cookie", cookie.substr(0, cookie.find(';'))}})->status ==
        303);
}

TEST_CASE("desk: a wrong password and an unknown address get the same answer, keep what was "
          "typed, and set no cookie") {
  test::SiteServer site;
  add_editor(site.store());
  auto client = site.client();
  const auto wrong = try_sign_in(client, kEmail, "not the password");
  const auto unknown = try_sign_in(client, "nobody@example.com", "not the password");
  REQUIRE(wrong);
  REQUIRE(unknown);
  CHECK(wrong->status == 401);
  CHECK(unknown->status == 401);
  CHECK_FALSE(wrong->has_header("Set-Cookie"));
  CHECK_FALSE(unknown->has_header("Set-Cookie"));
  const auto said = "That email address and password do not match an editor.";
  CHECK(wrong->body.find(said) != std::string::npos);
  auto unknown_body = unknown->body;
  const auto typed = unknown_body.find("value=\"nobody@example.com\"");
  REQUIRE(typed != std::string::npos);
  CHECK(unknown_body.replace(typed, 26, "value=\"" + kEmail + "\"") == wrong->body);
  CHECK(wrong->body.find("not the password") == std::string::npos);
}

TEST_CASE("desk: the session cookie is for /admin only, HttpOnly, SameSite=Strict and "
          "expiring, Secure behind HTTPS, and only its hash is kept") {
  test::SiteServer site(":memory:", 0, "127.0.0.1"); // the test plays the trusted proxy
  add_editor(site.store());
  auto client = site.client();
  const auto plain = try_sign_in(client, kEmail, kPassword);
  REQUIRE(plain->status == 303);
  const auto cookie = plain->get_header_value("Set-Cookie");
  CHECK(cookie.find("; Path=/admin;") != std::string::npos);
  CHECK(cookie.find("; HttpOnly") != std::string::npos);
  CHECK(cookie.find("; SameSite=Strict") != std::string::npos);
  CHECK(cookie.find("; Max-Age=43200") != std::string::npos);
  CHECK(cookie.find("Secure") == std::string::npos);
  const auto secret = cookie.substr(16, 64);
  CHECK_FALSE(site.store().session(secret, 0)); // the secret itself is not a key
  CHECK(site.store().session(auth::secret_hash(secret), 0));

  const auto over_https = try_sign_in(client, kEmail, kPassword, {{"X-Forwarded-Proto", "https"}});
  CHECK(over_https->get_header_value("Set-Cookie").find("; Secure") != std::string::npos);
}

TEST_CASE("desk: failed sign-ins are slowed per account and per address") {
  test::SiteServer site([](App &app) {
    app.sign_in_throttle.set_limits({3, 5, std::chrono::minutes(15)});
  });
  add_editor(site.store());
  add_editor(site.store(), "second@example.com", kPassword);
  auto client = site.client();
  for (int i = 0; i < 3; ++i)
    CHECK(try_sign_in(client, kEmail, "wrong password " + std::to_string(i))->status == 401);
  // The account now waits, even for its right password, and says so.
  const auto slowed = try_sign_in(client, kEmail, kPassword);
  CHECK(slowed->status == 429);
  CHECK(slowed->has_header("Retry-After"));
  CHECK(slowed->body.find("Too many failed sign-ins") != std::string::npos);
  CHECK_FALSE(slowed->has_header("Set-Cookie"));
  // So does an address that does not exist, told apart by nothing.
  for (int i = 0; i < 3; ++i)
    try_sign_in(client, "ghost@example.com", "wrong");
  CHECK(try_sign_in(client, "ghost@example.com", "wrong")->status == 429);
  // This address has failed six times: past its own limit, every account waits.
  CHECK(try_sign_in(client, "second@example.com", kPassword)->status == 429);
}

TEST_CASE("desk: signing out ends the session on the server, not just in the browser") {
  test::SiteServer site;
  add_editor(site.store());
  auto client = site.client();
  const auto session = test::sign_in_at_desk(client, kEmail, kPassword);
  const auto out = test::post_at_desk(client, session, "/admin/logout", "");
  REQUIRE(out);
  CHECK(out->status == 303);
  CHECK(out->get_header_value("Set-Cookie").find("Max-Age=0") != std::string::npos);
  // The old cookie, replayed, opens nothing.
  CHECK(test::get_at_desk(client, session, "/admin")->status == 303);
}

TEST_CASE("desk: a desk form without the session's token, from another site or signed out "
          "writes nothing") {
  test::SiteServer site;
  add_editor(site.store());
  auto client = site.client();
  const auto session = test::sign_in_at_desk(client, kEmail, kPassword);
  const auto form = std::string("name=Forged&slug=forged");
  const auto post = [&](const httplib::Headers &headers, const std::string &body) {
    return client.Post("/admin/categories", headers, body, "application/x-www-form-urlencoded");
  };
  const auto no_token = post({{"Sec-Fetch-Site", "same-origin"}, {"Cookie", session.cookie}}, form);
  CHECK(no_token->status == 403);
  const auto wrong_token = post({{"Sec-Fetch-Site", "same-origin"}, {"Cookie", session.cookie}},
                                form + "&csrf=" + auth::random_secret(16));
  CHECK(wrong_token->status == 403);
  CHECK(wrong_token->body.find("security token") != std::string::npos);
  const auto cross_site = post({{"Sec-Fetch-Site", "cross-site"}, {"Cookie", session.cookie}},
                               form + "&csrf=" + session.csrf);
  CHECK(cross_site->status == 403);
  const auto signed_out = post({{"Sec-Fetch-Site", "same-origin"}}, form + "&csrf=" + session.csrf);
  CHECK(signed_out->status == 403);
  CHECK_FALSE(site.store().category("forged"));
  CHECK(log_entries(site.store()) == 0);
  // The same form with the token is taken.
  CHECK(test::post_at_desk(client, session, "/admin/categories", form)->status == 303);
  CHECK(site.store().category("forged"));
}

TEST_CASE("desk: a category form with faults shows each beside its field, keeps what was typed "
          "and writes nothing") {
  test::SiteServer site;
  add_editor(site.store());
  auto client = site.client();
  const auto session = test::sign_in_at_desk(client, kEmail, kPassword);
  const auto categories_before = site.store().categories_with_tool_counts().size();
  const auto res =
      test::post_at_desk(client, session, "/admin/categories", "name=&slug=Not+A+Slug");
  REQUIRE(res);
  CHECK(res->status == 400);
  const auto text = test::visible_text(res->body);
  CHECK(text.find("Name must not be empty.") != std::string::npos);
  CHECK(text.find("Address must be a slug (lowercase letters, digits and single hyphens).") !=
        std::string::npos);
  CHECK(res->body.find("value=\"Not A Slug\"") != std::string::npos);
  CHECK(res->body.find("aria-invalid=\"true\" aria-describedby=\"problem-slug\"") !=
        std::string::npos);
  // A slug another category has is a fault of that field too.
  const auto taken =
      test::post_at_desk(client, session, "/admin/categories", "name=Again&slug=developer-tools");
  CHECK(taken->status == 409);
  CHECK(test::visible_text(taken->body).find("Address is taken") != std::string::npos);
  CHECK(site.store().categories_with_tool_counts().size() == categories_before);
  CHECK(log_entries(site.store()) == 0);
}

TEST_CASE("desk: an editor creates, renames and deletes a category, readers see a change at "
          "once, and the log keeps who, when, before and after") {
  test::SiteServer site([](App &app) {
    // Anonymous pages may lag votes by a minute; an editor's save must not wait for it.
    app.page_epoch.set_max_lag(std::chrono::seconds(60));
  });
  add_editor(site.store());
  auto client = site.client();
  const auto session = test::sign_in_at_desk(client, kEmail, kPassword);
  const auto tool_page = [&] {
    return test::visible_text(client.Get("/tools/codestral-2-1")->body);
  };
  const auto tool = site.store().tool_by_slug("codestral-2-1");
  REQUIRE(tool);
  const auto category = tool->category.slug;
  const auto before = site.store().category(category);
  REQUIRE(before);
  REQUIRE(tool_page().find(before->name) != std::string::npos); // kept for the lag

  const auto created =
      test::post_at_desk(client, session, "/admin/categories", "name=Desk+Agents&slug=desk-agents");
  REQUIRE(created->status == 303);
  CHECK(created->get_header_value("Location") == "/admin/categories?saved=desk-agents");
  const auto listed = test::get_at_desk(client, session, "/admin/categories?saved=desk-agents");
  CHECK(test::visible_text(listed->body).find("Saved the category desk-agents.") !=
        std::string::npos);
  CHECK(listed->body.find("Desk Agents") != std::string::npos);

  // Renaming the tool's category shows on the tool's page at once.
  const auto renamed = test::post_at_desk(client, session, "/admin/categories/" + category,
                                          "name=Renamed+At+The+Desk&slug=" + category);
  REQUIRE(renamed->status == 303);
  CHECK(tool_page().find("Renamed At The Desk") != std::string::npos);

  // A category with tools is not deleted; an empty one is, after its confirm page.
  const auto confirm =
      test::get_at_desk(client, session, "/admin/categories/" + category + "/delete");
  CHECK(confirm->status == 200);
  CHECK(test::visible_text(confirm->body).find("will be deleted") != std::string::npos);
  const auto refused =
      test::post_at_desk(client, session, "/admin/categories/" + category + "/delete", "");
  CHECK(refused->status == 409);
  CHECK(test::visible_text(refused->body).find("in this category: move") != std::string::npos);
  CHECK(site.store().category(category));
  const auto deleted =
      test::post_at_desk(client, session, "/admin/categories/desk-agents/delete", "");
  CHECK(deleted->status == 303);
  CHECK_FALSE(site.store().category("desk-agents"));

  const auto log = site.store().edit_log({1, 10}).items;
  REQUIRE(log.size() == 3);
  CHECK(log[0].action == "deleted");
  CHECK(log[0].after.empty());
  CHECK(log[1].action == "updated");
  CHECK(log[1].editor == kEmail);
  CHECK(log[1].before.find(before->name) != std::string::npos);
  CHECK(log[1].after.find("Renamed At The Desk") != std::string::npos);
  CHECK(log[2].action == "created");
  CHECK(log[2].before.empty());
  const auto page = test::visible_text(test::get_at_desk(client, session, "/admin/log")->body);
  CHECK(page.find(kEmail + " updated category " + category) != std::string::npos);
  CHECK(page.find("Renamed At The Desk") != std::string::npos);
}
