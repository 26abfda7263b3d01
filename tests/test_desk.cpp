// The editor's desk over HTTP, as an editor's browser and an attacker's script use it.
#include <catch2/catch.hpp>

#include <atomic>
#include <fstream>
#include <regex>
#include <thread>

#include "auth/secrets.h"
#include "middleware/request_parsing.h"
#include "store/sqlite.h"
#include "test_support.h"

using namespace verdict;

namespace {

void add_editor(Store &store, const std::string &email = test::kEditorEmail,
                const std::string &password = test::kEditorPassword) {
  test::add_editor(store, email, auth::hash_password(password));
}

// The site's budgets with smaller sign-in limits (within 15 minutes): failures of one account
// from one network, of one network, and of one account from everywhere.
App::Budgets sign_in_limits(size_t account_from_network, size_t network, size_t account) {
  return {.costly = CostBudget::kDefaultRates,
          .sign_ins = {.per_account_from_network = account_from_network,
                       .per_network = network,
                       .per_account = account,
                       .window = std::chrono::minutes(15)}};
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

  const auto signed_in = try_sign_in(client, test::kEditorEmail, test::kEditorPassword);
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
  const auto wrong = try_sign_in(client, test::kEditorEmail, "not the password");
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
  CHECK(unknown_body.replace(typed, 26, "value=\"" + test::kEditorEmail + "\"") == wrong->body);
  CHECK(wrong->body.find("not the password") == std::string::npos);
}

TEST_CASE("desk: the session cookie is for /admin only, HttpOnly, SameSite=Strict and "
          "expiring, Secure behind HTTPS, and only its hash is kept") {
  test::SiteServer site(":memory:", 0, "127.0.0.1"); // the test plays the trusted proxy
  add_editor(site.store());
  auto client = site.client();
  const auto plain = try_sign_in(client, test::kEditorEmail, test::kEditorPassword);
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

  const auto over_https = try_sign_in(client, test::kEditorEmail, test::kEditorPassword,
                                      {{"X-Forwarded-Proto", "https"}});
  CHECK(over_https->get_header_value("Set-Cookie").find("; Secure") != std::string::npos);
}

TEST_CASE("desk: failed sign-ins are slowed per account and network, and per network") {
  test::SiteServer site(sign_in_limits(3, 5, 50));
  add_editor(site.store());
  add_editor(site.store(), "second@example.com", test::kEditorPassword);
  auto client = site.client();
  for (int i = 0; i < 3; ++i)
    CHECK(try_sign_in(client, test::kEditorEmail, "wrong password " + std::to_string(i))->status ==
          401);
  // The account now waits, even for its right password, and says so.
  const auto slowed = try_sign_in(client, test::kEditorEmail, test::kEditorPassword);
  CHECK(slowed->status == 429);
  CHECK(slowed->has_header("Retry-After"));
  CHECK(slowed->body.find("Too many failed sign-ins") != std::string::npos);
  CHECK_FALSE(slowed->has_header("Set-Cookie"));
  // So does an address that does not exist, told apart by nothing.
  for (int i = 0; i < 3; ++i)
    try_sign_in(client, "ghost@example.com", "wrong");
  CHECK(try_sign_in(client, "ghost@example.com", "wrong")->status == 429);
  // This network has failed six times: past its own limit, every account waits.
  const auto network = try_sign_in(client, "second@example.com", test::kEditorPassword);
  CHECK(network->status == 429);
  CHECK(network->body.find("Too many failed sign-ins from your network") != std::string::npos);
}

TEST_CASE("desk: a sign-in turned away because too many passwords are being checked at once "
          "spends no failure of the network or the account") {
  test::SiteServer site(sign_in_limits(2, 2, 2));
  add_editor(site.store());
  auto client = site.client();
  // Every place for checking a password taken, as by a burst of other sign-ins.
  auto &checks = site.app().password_checks;
  int held = 0;
  while (checks.try_acquire())
    ++held;
  REQUIRE(held > 0);
  // Twice each limit: were the turned-away tries counted, the account, the network and the
  // account from this network would all be held back by now.
  for (int i = 0; i < 4; ++i) {
    const auto turned_away = try_sign_in(client, test::kEditorEmail, test::kEditorPassword);
    REQUIRE(turned_away);
    CHECK(turned_away->status == 429);
    CHECK(turned_away->body.find("Too many sign-ins are being checked at this moment") !=
          std::string::npos);
    CHECK_FALSE(turned_away->has_header("Set-Cookie"));
  }
  checks.release(held);
  const auto editor = try_sign_in(client, test::kEditorEmail, test::kEditorPassword);
  CHECK(editor->status == 303);
  CHECK(editor->get_header_value("Set-Cookie").rfind("verdict_session=", 0) == 0);
}

// The value of cookie `name` among a response's Set-Cookie lines, or empty.
std::string set_cookie(const httplib::Result &res, const std::string &name) {
  for (size_t i = 0; i < res->get_header_value_count("Set-Cookie"); ++i) {
    const auto line = res->get_header_value("Set-Cookie", i);
    if (line.rfind(name + "=", 0) == 0)
      return line.substr(name.size() + 1, line.find(';') - name.size() - 1);
  }
  return {};
}

TEST_CASE("desk: fifty wrong passwords for the editor from one network do not keep the editor "
          "out from another, and that network stays held back") {
  test::SiteServer site; // the limits an installed site has
  add_editor(site.store());
  auto client = site.client();
  int refused = 0;
  for (int i = 0; i < 50; ++i) {
    // Anywhere in one /24 is one network.
    const auto from = "203.0.113." + std::to_string(10 + i);
    const auto guess = try_sign_in(client, test::kEditorEmail, "guess " + std::to_string(i),
                                   {{"X-Forwarded-For", from}});
    REQUIRE(guess);
    CHECK((guess->status == 401 || guess->status == 429));
    refused += guess->status == 429;
  }
  CHECK(refused == 45); // five guesses, then none
  const auto editor = try_sign_in(client, test::kEditorEmail, test::kEditorPassword,
                                  {{"X-Forwarded-For", "198.51.100.7"}});
  CHECK(editor->status == 303);
  CHECK(editor->get_header_value("Location") == "/admin");
  CHECK(editor->get_header_value("Set-Cookie").rfind("verdict_session=", 0) == 0);
  // The attacker's network is still held back, even with the right password, and told why.
  const auto attacker = try_sign_in(client, test::kEditorEmail, test::kEditorPassword,
                                    {{"X-Forwarded-For", "203.0.113.250"}});
  CHECK(attacker->status == 429);
  CHECK(attacker->has_header("Retry-After"));
  CHECK(attacker->body.find("Too many failed sign-ins for this address from your network") !=
        std::string::npos);
  CHECK_FALSE(attacker->has_header("Set-Cookie"));
}

TEST_CASE("desk: an account guessed at from many networks still signs in on a browser it signed "
          "in on before, and on no other") {
  test::SiteServer site(sign_in_limits(3, 20, 6));
  add_editor(site.store());
  auto client = site.client();
  const auto first = try_sign_in(client, test::kEditorEmail, test::kEditorPassword,
                                 {{"X-Forwarded-For", "198.51.100.7"}});
  REQUIRE(first->status == 303);
  const auto device = set_cookie(first, "verdict_device");
  REQUIRE(device.size() == 48);
  bool found = false;
  for (size_t i = 0; i < first->get_header_value_count("Set-Cookie"); ++i) {
    const auto line = first->get_header_value("Set-Cookie", i);
    if (line.rfind("verdict_device=", 0) != 0) continue;
    found = true;
    CHECK(line.find("; Path=/admin/login;") != std::string::npos);
    CHECK(line.find("; HttpOnly") != std::string::npos);
    CHECK(line.find("; SameSite=Strict") != std::string::npos);
  }
  CHECK(found);
  // Six wrong passwords from three networks: the account's ceiling.
  for (const auto *from : {"192.0.2.1", "192.0.3.1", "192.0.4.1"})
    for (int i = 0; i < 2; ++i)
      REQUIRE(
          try_sign_in(client, test::kEditorEmail, "guess", {{"X-Forwarded-For", from}})->status ==
          401);
  const auto elsewhere = try_sign_in(client, test::kEditorEmail, test::kEditorPassword,
                                     {{"X-Forwarded-For", "198.18.0.1"}});
  CHECK(elsewhere->status == 429);
  CHECK(elsewhere->body.find("from many networks") != std::string::npos);
  // A forged or altered cookie is no known device.
  auto altered = device;
  altered[47] = altered[47] == '0' ? '1' : '0';
  CHECK(try_sign_in(client, test::kEditorEmail, test::kEditorPassword,
                    {{"X-Forwarded-For", "198.18.0.1"}, {"Cookie", "verdict_device=" + altered}})
            ->status == 429);
  // The editor's own browser, from anywhere, signs in at once.
  const auto known =
      try_sign_in(client, test::kEditorEmail, test::kEditorPassword,
                  {{"X-Forwarded-For", "198.18.0.1"}, {"Cookie", "verdict_device=" + device}});
  CHECK(known->status == 303);
  // The cookie is the account's, not the browser's for any account.
  add_editor(site.store(), "second@example.com", test::kEditorPassword);
  for (const auto *from : {"192.0.2.1", "192.0.3.1", "192.0.4.1"})
    for (int i = 0; i < 2; ++i)
      try_sign_in(client, "second@example.com", "guess", {{"X-Forwarded-For", from}});
  CHECK(try_sign_in(client, "second@example.com", test::kEditorPassword,
                    {{"X-Forwarded-For", "198.18.0.1"}, {"Cookie", "verdict_device=" + device}})
            ->status == 429);
}

TEST_CASE("desk: signing out ends the session on the server, not just in the browser") {
  test::SiteServer site;
  add_editor(site.store());
  auto client = site.client();
  const auto session = test::sign_in_at_desk(client, test::kEditorEmail, test::kEditorPassword);
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
  const auto session = test::sign_in_at_desk(client, test::kEditorEmail, test::kEditorPassword);
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
  const auto session = test::sign_in_at_desk(client, test::kEditorEmail, test::kEditorPassword);
  const auto categories_before = site.store().categories_with_tool_counts().size();
  const auto res =
      test::post_at_desk(client, session, "/admin/categories", "name=&slug=Not+A+Slug");
  REQUIRE(res);
  CHECK(res->status == 400);
  const auto text = test::visible_text(res->body);
  CHECK(text.find("Name must not be empty.") != std::string::npos);
  CHECK(
      text.find("Address must be a slug (lowercase letters, digits and single hyphens, at most 120 "
                "characters).") != std::string::npos);
  CHECK(res->body.find("value=\"Not A Slug\"") != std::string::npos);
  // The top says it was not saved and links to both fields, in the form's order.
  CHECK(text.find("Not saved: 2 fields need a change, said beside each: Name Address") !=
        std::string::npos);
  CHECK(res->body.find("<li><a href=\"#field-name\">Name</a></li><li><a "
                       "href=\"#field-slug\">Address</a></li>") != std::string::npos);
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
  const auto session = test::sign_in_at_desk(client, test::kEditorEmail, test::kEditorPassword);
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
  CHECK(test::visible_text(listed->body).find("Saved the category Desk Agents.") !=
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
  CHECK(log[1].editor == test::kEditorEmail);
  CHECK(log[1].before.find(before->name) != std::string::npos);
  CHECK(log[1].after.find("Renamed At The Desk") != std::string::npos);
  CHECK(log[2].action == "created");
  CHECK(log[2].before.empty());
  const auto page = test::visible_text(test::get_at_desk(client, session, "/admin/log")->body);
  // Said by the item's name, and field by field.
  CHECK(page.find(test::kEditorEmail + " updated category Renamed At The Desk Name was: " +
                  before->name + " now: Renamed At The Desk") != std::string::npos);
}

namespace {

std::string tool_form(const std::string &slug, const std::string &name) {
  return "name=" + httplib::detail::encode_query_param(name) + "&slug=" + slug +
         "&category=developer-tools&tagline=Writes+the+tests+first.&description=A+careful+"
         "agent.&entry=Freemium&vendor=Careful+Labs&url=https%3A%2F%2Fcareful.example%2F"
         "&pricing_notes=Free+for+one+repository%3B+%2419+a+month+after.&pricing_checked_on="
         "2026-11-20&pricing_source=https%3A%2F%2Fcareful.example%2Fpricing";
}

} // namespace

TEST_CASE("desk: an editor writes a new tool with every field, the dated pricing read too, "
          "and readers see it at once") {
  test::SiteServer site([](App &app) { app.page_epoch.set_max_lag(std::chrono::seconds(60)); });
  add_editor(site.store());
  auto client = site.client();
  const auto session = test::sign_in_at_desk(client, test::kEditorEmail, test::kEditorPassword);
  const auto blank = test::get_at_desk(client, session, "/admin/tools/new");
  REQUIRE(blank->status == 200);
  CHECK(blank->body.find("<option value=\"developer-tools\"") != std::string::npos);
  CHECK(blank->body.find("<option value=\"Open weights\"") != std::string::npos);
  REQUIRE(client.Get("/tools")->status == 200); // the directory is now kept for the lag

  const auto created = test::post_at_desk(client, session, "/admin/tools",
                                          tool_form("careful-agent", "Careful Agent"));
  REQUIRE(created->status == 303);
  const auto page = client.Get("/tools/careful-agent");
  REQUIRE(page->status == 200);
  const auto text = test::visible_text(page->body);
  CHECK(text.find("Careful Agent") != std::string::npos);
  CHECK(text.find("Writes the tests first.") != std::string::npos);
  CHECK(text.find("Free for one repository; $19 a month after.") != std::string::npos);
  CHECK(text.find("2026-11-20") != std::string::npos);
  CHECK(test::visible_text(client.Get("/tools")->body).find("Careful Agent") != std::string::npos);
  const auto stored = site.store().tool_content("careful-agent");
  REQUIRE(stored);
  CHECK(stored->pricing_source == "https://careful.example/pricing");
  CHECK(stored->vendor == "Careful Labs");
  const auto log = site.store().edit_log({1, 1}).items;
  REQUIRE(log.size() == 1);
  CHECK(log[0].action == "created");
  CHECK(log[0].after.find("\"pricing_checked_on\":\"2026-11-20\"") != std::string::npos);
}

TEST_CASE("desk: a tool form with faults names each beside its field, keeps what was typed and "
          "writes nothing") {
  test::SiteServer site;
  add_editor(site.store());
  auto client = site.client();
  const auto session = test::sign_in_at_desk(client, test::kEditorEmail, test::kEditorPassword);
  const auto tools_before = site.store().tools_by_name().size();
  auto form = tool_form("careful-agent", "");
  form.replace(form.find("entry=Freemium"), 14, "entry=Cheap");
  form.replace(form.find("url=https%3A%2F%2Fcareful.example%2F"), 36, "url=javascript%3Aalert(1)");
  form.replace(form.find("2026-11-20"), 10, "2026-13-40");
  const auto res = test::post_at_desk(client, session, "/admin/tools", form);
  REQUIRE(res);
  CHECK(res->status == 400);
  const auto text = test::visible_text(res->body);
  CHECK(text.find("Name must not be empty.") != std::string::npos);
  CHECK(text.find("Pricing model must be one of Free, Paid, Freemium, Open weights.") !=
        std::string::npos);
  CHECK(text.find("Website must be an http:// or https:// address without spaces.") !=
        std::string::npos);
  CHECK(text.find("Pricing checked on must be a date YYYY-MM-DD.") != std::string::npos);
  CHECK(res->body.find("value=\"javascript:alert(1)\"") != std::string::npos);
  CHECK(res->body.find("Free for one repository; $19 a month after.") != std::string::npos);
  CHECK(site.store().tools_by_name().size() == tools_before);
  CHECK(log_entries(site.store()) == 0);
  // A category that is not the site's is a fault of the form, not a crash.
  auto elsewhere = tool_form("careful-agent", "Careful Agent");
  elsewhere.replace(elsewhere.find("developer-tools"), 15, "no-such-category");
  const auto refused = test::post_at_desk(client, session, "/admin/tools", elsewhere);
  CHECK(refused->status == 409);
  CHECK(test::visible_text(refused->body).find("no category has the address no-such-category") !=
        std::string::npos);
  CHECK(site.store().tools_by_name().size() == tools_before);
}

TEST_CASE("desk: a renamed tool's old addresses, its comparisons' too, lead to the new ones") {
  test::SiteServer site;
  add_editor(site.store());
  auto client = site.client();
  const auto session = test::sign_in_at_desk(client, test::kEditorEmail, test::kEditorPassword);
  const auto rename = [&](const std::string &from, const std::string &to) {
    auto values = site.store().tool_content(from);
    REQUIRE(values);
    const auto res = test::post_at_desk(
        client, session, "/admin/tools/" + from,
        "name=" + httplib::detail::encode_query_param(values->name) + "&slug=" + to + "&category=" +
            values->category + "&tagline=" + httplib::detail::encode_query_param(values->tagline) +
            "&description=" + httplib::detail::encode_query_param(values->description) +
            "&entry=" + httplib::detail::encode_query_param(values->entry));
    REQUIRE(res->status == 303);
  };
  rename("codestral-2-1", "codestral-3");
  const auto moved = client.Get("/tools/codestral-2-1");
  CHECK(moved->status == 301);
  CHECK(moved->get_header_value("Location") == "/tools/codestral-3");
  const auto pair = client.Get("/compare/cursor-background-agent-vs-codestral-2-1");
  CHECK(pair->status == 301);
  CHECK(pair->get_header_value("Location") == "/compare/cursor-background-agent-vs-codestral-3");
  CHECK(client.Get("/compare/cursor-background-agent-vs-codestral-3")->status == 200);

  rename("codestral-3", "codestral-4"); // the first address goes straight to the last
  CHECK(client.Get("/tools/codestral-2-1")->get_header_value("Location") == "/tools/codestral-4");
  CHECK(client.Get("/tools/codestral-3")->get_header_value("Location") == "/tools/codestral-4");
  rename("codestral-4", "codestral-2-1"); // and an address taken back is a page again
  CHECK(client.Get("/tools/codestral-2-1")->status == 200);
  CHECK(client.Get("/tools/codestral-4")->get_header_value("Location") == "/tools/codestral-2-1");
}

TEST_CASE("desk: a vote sent to a renamed tool's old address counts for the tool, and its "
          "old API addresses follow it") {
  test::SiteServer site;
  add_editor(site.store());
  auto client = site.client();
  const std::string tool_vote = "/tools/codestral-2-1/vote";
  const std::string pair_vote = "/compare/cursor-background-agent-vs-codestral-2-1/vote";
  const auto voter = new_voter_id(unix_now_ms());
  // The reader's pages were read before the rename; their forms post to the old addresses.
  const auto tool_token = test::vote_token_for(client, tool_vote, voter);
  const auto pair_token = test::vote_token_for(client, pair_vote, voter);
  REQUIRE_FALSE(tool_token.empty());
  REQUIRE_FALSE(pair_token.empty());
  // Another reader votes before the rename, so the tool at the old address was looked up.
  REQUIRE(test::post_form(client, tool_vote, "verdict=skip")->status == 303);

  const auto session = test::sign_in_at_desk(client, test::kEditorEmail, test::kEditorPassword);
  auto values = site.store().tool_content("codestral-2-1");
  REQUIRE(values);
  REQUIRE(test::post_at_desk(
              client, session, "/admin/tools/codestral-2-1",
              "name=" + httplib::detail::encode_query_param(values->name) +
                  "&slug=codestral-3&category=" + values->category +
                  "&tagline=" + httplib::detail::encode_query_param(values->tagline) +
                  "&description=" + httplib::detail::encode_query_param(values->description) +
                  "&entry=" + httplib::detail::encode_query_param(values->entry))
              ->status == 303);

  const httplib::Headers as_reader = {{"Sec-Fetch-Site", "same-origin"},
                                      {"Cookie", "verdict_voter=" + voter},
                                      {"X-Forwarded-For", "10.77.1.7"}};
  const auto tool_res =
      client.Post(tool_vote.c_str(), as_reader, "verdict=ship&token=" + tool_token,
                  "application/x-www-form-urlencoded");
  REQUIRE(tool_res);
  CHECK(tool_res->status == 303);
  CHECK(tool_res->get_header_value("Location") == "/tools/codestral-3#tool-codestral-3");
  const auto pair_res = client.Post(pair_vote.c_str(), as_reader, "pick=b&token=" + pair_token,
                                    "application/x-www-form-urlencoded");
  REQUIRE(pair_res);
  CHECK(pair_res->status == 303);
  CHECK(pair_res->get_header_value("Location")
            .rfind("/compare/cursor-background-agent-vs-codestral-3", 0) == 0);
  const auto tool = site.store().tool_by_slug("codestral-3");
  REQUIRE(tool);
  CHECK(tool->community.ships == 1);
  const auto a = site.store().tool_by_slug("cursor-background-agent");
  REQUIRE(a);
  const auto tally = test::pair_tally(site.store(), a->id, tool->id);
  CHECK(tally.a + tally.b == 1);

  const auto api_tool = client.Get("/api/tools/codestral-2-1");
  CHECK(api_tool->status == 301);
  CHECK(api_tool->get_header_value("Location") == "/api/tools/codestral-3");
  CHECK(client.Get("/api/tools/codestral-3")->status == 200);
  const auto api_pair = client.Get("/api/compare/cursor-background-agent-vs-codestral-2-1");
  CHECK(api_pair->status == 301);
  CHECK(api_pair->get_header_value("Location") ==
        "/api/compare/cursor-background-agent-vs-codestral-3");
  CHECK(client.Get("/api/tools/never-a-tool")->status == 404);
}

TEST_CASE("desk: deleting a tool after its confirm page takes its reviews and votes with it, "
          "and the log keeps what it was") {
  test::SiteServer site;
  add_editor(site.store());
  auto client = site.client();
  REQUIRE(test::post_form(client, "/tools/codestral-2-1/vote", "verdict=ship")->status == 303);
  const auto session = test::sign_in_at_desk(client, test::kEditorEmail, test::kEditorPassword);
  const auto confirm = test::get_at_desk(client, session, "/admin/tools/codestral-2-1/delete");
  REQUIRE(confirm->status == 200);
  const auto tool = site.store().tool_by_slug("codestral-2-1");
  REQUIRE(tool);
  CHECK(test::visible_text(confirm->body)
            .find("with its " + std::to_string(tool->panel.total) +
                  " panel reviews, 1 reader "
                  "votes and every comparison it is in") != std::string::npos);
  CHECK(client.Get("/tools/codestral-2-1")->status == 200); // nothing happens on the GET
  const auto deleted = test::post_at_desk(client, session, "/admin/tools/codestral-2-1/delete", "");
  CHECK(deleted->status == 303);
  CHECK(client.Get("/tools/codestral-2-1")->status == 404);
  CHECK(client.Get("/compare/cursor-background-agent-vs-codestral-2-1")->status == 404);
  // A vote sent after, from a page read before, finds no tool (it was looked up for the vote
  // above): not found, and nothing written.
  CHECK(test::post_form(client, "/tools/codestral-2-1/vote", "verdict=ship")->status == 404);
  const auto log = site.store().edit_log({1, 1}).items;
  REQUIRE(log.size() == 1);
  CHECK(log[0].action == "deleted");
  CHECK(log[0].before.find("\"name\":\"Codestral 2.1\"") != std::string::npos);
}

TEST_CASE("desk: a new reviewer joins the end of the panel, and a renamed one's old address "
          "leads to the new") {
  test::SiteServer site;
  add_editor(site.store());
  auto client = site.client();
  const auto session = test::sign_in_at_desk(client, test::kEditorEmail, test::kEditorPassword);
  const auto created = test::post_at_desk(client, session, "/admin/reviewers",
                                          "name=The+Auditor&slug=auditor&lens=Reads+the+licence"
                                          "&bio=Checks+what+a+tool+may+do+with+your+code.");
  REQUIRE(created->status == 303);
  const auto panel = site.store().reviewers();
  REQUIRE(!panel.empty());
  CHECK(panel.back().slug == "auditor");
  CHECK(test::visible_text(client.Get("/reviewers")->body).find("The Auditor") !=
        std::string::npos);

  const auto renamed = test::post_at_desk(client, session, "/admin/reviewers/auditor",
                                          "name=The+Auditor&slug=licence-auditor&lens=Reads+the"
                                          "+licence&bio=");
  REQUIRE(renamed->status == 303);
  const auto moved = client.Get("/reviewers/auditor");
  CHECK(moved->status == 301);
  CHECK(moved->get_header_value("Location") == "/reviewers/licence-auditor");
  const auto missing_lens = test::post_at_desk(client, session, "/admin/reviewers/licence-auditor",
                                               "name=The+Auditor&slug=licence-auditor&lens=&bio=");
  CHECK(missing_lens->status == 400);
  CHECK(test::visible_text(missing_lens->body).find("Lens must not be empty.") !=
        std::string::npos);
}

TEST_CASE("desk: an editor writes, changes and deletes a review, and the tool's panel counts "
          "follow at once") {
  test::SiteServer site([](App &app) { app.page_epoch.set_max_lag(std::chrono::seconds(60)); });
  add_editor(site.store());
  auto client = site.client();
  const auto session = test::sign_in_at_desk(client, test::kEditorEmail, test::kEditorPassword);
  REQUIRE(test::post_at_desk(client, session, "/admin/reviewers",
                             "name=The+Auditor&slug=auditor&lens=Reads+the+licence&bio=")
              ->status == 303);
  const auto before = site.store().tool_by_slug("codestral-2-1")->panel;
  REQUIRE(client.Get("/tools/codestral-2-1")->status == 200); // kept for the lag

  const auto form = test::get_at_desk(client, session, "/admin/reviews/new");
  CHECK(form->body.find("<option value=\"codestral-2-1\">Codestral 2.1</option>") !=
        std::string::npos);
  const auto created = test::post_at_desk(
      client, session, "/admin/reviews",
      "tool=codestral-2-1&reviewer=auditor&verdict=ship&quote=Licence+reads+clean.");
  REQUIRE(created->status == 303);
  CHECK(created->get_header_value("Location") == "/admin/reviews?saved=codestral-2-1--auditor");
  auto panel = site.store().tool_by_slug("codestral-2-1")->panel;
  CHECK(panel.total == before.total + 1);
  CHECK(panel.ships == before.ships + 1);
  CHECK(test::visible_text(client.Get("/tools/codestral-2-1")->body).find("Licence reads clean.") !=
        std::string::npos);
  // The same reviewer cannot review the same tool twice.
  const auto twice =
      test::post_at_desk(client, session, "/admin/reviews",
                         "tool=codestral-2-1&reviewer=auditor&verdict=skip&quote=Again.");
  CHECK(twice->status == 409);
  // It says so at the top of the form, with what to do, and keeps what was typed.
  const auto twice_text = test::visible_text(twice->body);
  CHECK(twice_text.find("Not saved: The Auditor has already reviewed Codestral 2.1.") !=
        std::string::npos);
  CHECK(twice_text.find("edit that one from the list") != std::string::npos);
  CHECK(twice->body.find("class=\"form-problem\" role=\"alert\"") != std::string::npos);
  CHECK(twice->body.find("class=\"field-problem\"") == std::string::npos); // said once, on top
  CHECK(twice->body.find("aria-invalid") == std::string::npos);
  CHECK(twice->body.find(">Again.</textarea>") != std::string::npos);

  REQUIRE(test::post_at_desk(client, session, "/admin/reviews/codestral-2-1--auditor",
                             "tool=codestral-2-1&reviewer=auditor&verdict=skip&quote=On+second+"
                             "reading%2C+no.")
              ->status == 303);
  panel = site.store().tool_by_slug("codestral-2-1")->panel;
  CHECK(panel.total == before.total + 1);
  CHECK(panel.ships == before.ships);
  REQUIRE(test::post_at_desk(client, session, "/admin/reviews/codestral-2-1--auditor/delete", "")
              ->status == 303);
  panel = site.store().tool_by_slug("codestral-2-1")->panel;
  CHECK(panel.total == before.total);
  CHECK(test::get_at_desk(client, session, "/admin/reviews/codestral-2-1--auditor")->status == 404);
  const auto log = site.store().edit_log({1, 3}).items;
  REQUIRE(log.size() == 3);
  CHECK(log[0].action == "deleted");
  CHECK(log[1].action == "updated");
  CHECK(log[1].subject == "auditor on codestral-2-1");
  CHECK(log[2].action == "created");
}

TEST_CASE("desk: the subscriber list counts, exports as CSV a spreadsheet cannot run, and "
          "erases an address without the log keeping it") {
  test::SiteServer site;
  add_editor(site.store());
  auto client = site.client();
  for (const auto *email : {"ada@example.com", "=cmd@example.com", "bob@example.com"})
    REQUIRE(
        test::post_form(client, "/subscribe", "email=" + httplib::detail::encode_query_param(email))
            ->status == 303);
  const auto session = test::sign_in_at_desk(client, test::kEditorEmail, test::kEditorPassword);
  const auto list = test::get_at_desk(client, session, "/admin/subscribers");
  REQUIRE(list->status == 200);
  const auto text = test::visible_text(list->body);
  CHECK(text.find("3 addresses are on the weekly digest's list: 0 confirmed (they get the "
                  "digest), 3 waiting for confirmation, 0 unsubscribed.") != std::string::npos);
  CHECK(text.find("pending", text.find("ada@example.com")) != std::string::npos); // its status
  CHECK(text.find("bob@example.com") < text.find("ada@example.com"));             // newest first

  const auto csv = test::get_at_desk(client, session, "/admin/subscribers.csv");
  REQUIRE(csv->status == 200);
  CHECK(csv->get_header_value("Content-Type") == "text/csv; charset=utf-8");
  CHECK(csv->get_header_value("Content-Disposition").find("attachment") != std::string::npos);
  CHECK(csv->get_header_value("Cache-Control") == "no-store");
  CHECK(csv->body.starts_with("\"email\",\"subscribed_at\",\"status\"\r\n\"ada@example.com\","));
  CHECK(csv->body.find("\",\"pending\"\r\n") != std::string::npos);
  CHECK(csv->body.find("\"'=cmd@example.com\"") != std::string::npos);
  CHECK(client.Get("/admin/subscribers.csv")->status == 303); // signed out: sign in first

  const auto ada = site.store().all_subscribers().front();
  const auto path = "/admin/subscribers/" + std::to_string(ada.id) + "/delete";
  CHECK(test::visible_text(test::get_at_desk(client, session, path)->body)
            .find("will be taken off the list and forgotten") != std::string::npos);
  const auto erased = test::post_at_desk(client, session, path, "");
  CHECK(erased->status == 303);
  CHECK(site.store().subscriber_counts().total() == 2);
  const auto log = site.store().edit_log({1, 1}).items;
  REQUIRE(log.size() == 1);
  CHECK(log[0].kind == "subscriber");
  CHECK(log[0].subject.find("ada") == std::string::npos);
  CHECK(log[0].before.empty());
  CHECK(test::get_at_desk(client, session, path)->status == 404);
}

TEST_CASE("desk: a draft comparison is previewed as it will appear, from the list and from its "
          "form unsaved, then published onto the home page at once with its bottom line, "
          "unpublished, and logged each time") {
  test::SiteServer site([](App &app) { app.page_epoch.set_max_lag(std::chrono::seconds(60)); });
  site.store().set_today([] { return std::string("2026-11-22"); });
  add_editor(site.store());
  auto client = site.client();
  const auto session = test::sign_in_at_desk(client, test::kEditorEmail, test::kEditorPassword);
  const auto home = [&] { return test::visible_text(client.Get("/")->body); };
  REQUIRE(home().find("Codestral 2.1 vs Code Llama 4") == std::string::npos); // kept for the lag

  const auto draft = test::post_at_desk(
      client, session, "/admin/comparisons",
      "a=codestral-2-1&b=code-llama-4&published_on=&intro=Two+open+models.&bottom_line=Ship+"
      "Codestral+for+code%3B+keep+Code+Llama+for+long+files.");
  REQUIRE(draft->status == 303);
  CHECK(draft->get_header_value("Location") ==
        "/admin/comparisons?saved=codestral-2-1-vs-code-llama-4");
  CHECK(home().find("Codestral 2.1 vs Code Llama 4") == std::string::npos); // a draft
  const auto page = test::visible_text(client.Get("/compare/codestral-2-1-vs-code-llama-4")->body);
  CHECK(page.find("Not an editor's pick") != std::string::npos);

  // One click from the list...
  const auto list = test::get_at_desk(client, session, "/admin/comparisons");
  CHECK(list->body.find("href=\"/admin/comparisons/codestral-2-1-vs-code-llama-4/preview\"") !=
        std::string::npos);
  const auto preview = test::get_at_desk(
      client, session, "/admin/comparisons/codestral-2-1-vs-code-llama-4/preview");
  REQUIRE(preview->status == 200);
  CHECK(preview->get_header_value("X-Robots-Tag") == "noindex");
  const auto previewed = test::visible_text(preview->body);
  CHECK(previewed.find("Draft — not published.") != std::string::npos);
  CHECK(previewed.find("Draft: no publication date yet") != std::string::npos);
  CHECK(previewed.find("Published 2026") == std::string::npos); // no date made up
  CHECK(previewed.find("Not an editor's pick") == std::string::npos);
  CHECK(previewed.find("The editor's bottom line") != std::string::npos);
  CHECK(previewed.find("Ship Codestral for code; keep Code Llama for long files.") !=
        std::string::npos);
  CHECK(preview->body.find("<a href=\"/admin/comparisons/codestral-2-1-vs-code-llama-4\">Back to "
                           "the desk</a>") != std::string::npos);
  // A preview casts no vote: its vote buttons are replaced by a note.
  CHECK(preview->body.find("/vote\"") == std::string::npos);
  CHECK(preview->body.find("name=\"token\"") == std::string::npos);
  CHECK(previewed.find("Voting is off in a preview: readers pick between the two here") !=
        std::string::npos);

  // ...and from the form, with the text as it is there, saved or not: nothing is written.
  const auto edit =
      test::get_at_desk(client, session, "/admin/comparisons/codestral-2-1-vs-code-llama-4");
  REQUIRE(edit->status == 200);
  CHECK(edit->body.find("formaction=\"/admin/preview/comparison\"") != std::string::npos);
  CHECK(test::get_at_desk(client, session, "/admin/comparisons/new")
            ->body.find("formaction=\"/admin/preview/comparison\"") != std::string::npos);
  const auto unsaved = test::post_at_desk(
      client, session, "/admin/preview/comparison",
      "a=codestral-2-1&b=code-llama-4&published_on=2026-12-01&intro=Two+open+models.&bottom_"
      "line=Words+not+saved+yet.");
  REQUIRE(unsaved->status == 200);
  const auto unsaved_text = test::visible_text(unsaved->body);
  CHECK(unsaved_text.find("Words not saved yet.") != std::string::npos);
  CHECK(unsaved_text.find("Scheduled — not published until 2026-12-01.") != std::string::npos);
  CHECK(unsaved_text.find("not saved yet: save the form to keep it") != std::string::npos);
  CHECK(site.store().comparison_content("codestral-2-1-vs-code-llama-4")->bottom_line ==
        "Ship Codestral for code; keep Code Llama for long files.");
  const auto faulty = test::post_at_desk(client, session, "/admin/preview/comparison",
                                         "a=code-llama-4&b=code-llama-4&published_on=&intro="
                                         "&bottom_line=");
  CHECK(faulty->status == 400);
  CHECK(test::visible_text(faulty->body).find("Second tool must differ") != std::string::npos);

  // Published or scheduled, a comparison answers its question: without a bottom line the desk
  // asks for it and saves nothing.
  const auto unanswered = test::post_at_desk(
      client, session, "/admin/comparisons/codestral-2-1-vs-code-llama-4",
      "a=codestral-2-1&b=code-llama-4&published_on=2026-12-01&intro=Two+open+models.&bottom_"
      "line=+%0D%0A+");
  CHECK(unanswered->status == 400);
  CHECK(test::visible_text(unanswered->body).find("Bottom line is needed to publish") !=
        std::string::npos);
  CHECK(site.store().comparison_content("codestral-2-1-vs-code-llama-4")->published_on.empty());

  REQUIRE(test::post_at_desk(client, session, "/admin/comparisons/codestral-2-1-vs-code-llama-4",
                             "a=codestral-2-1&b=code-llama-4&published_on=2026-11-22&intro=Two+"
                             "open+models.&bottom_line=Ship+Codestral+for+code%3B+keep+Code+"
                             "Llama+for+long+files.")
              ->status == 303);
  CHECK(home().find("Codestral 2.1 vs Code Llama 4") != std::string::npos);
  const auto published =
      test::visible_text(client.Get("/compare/codestral-2-1-vs-code-llama-4")->body);
  CHECK(published.find("Ship Codestral for code; keep Code Llama for long files.") !=
        std::string::npos);

  REQUIRE(test::post_at_desk(client, session, "/admin/comparisons/codestral-2-1-vs-code-llama-4",
                             "a=codestral-2-1&b=code-llama-4&published_on=&intro=Two+open+"
                             "models.&bottom_line=")
              ->status == 303);
  CHECK(home().find("Codestral 2.1 vs Code Llama 4") == std::string::npos);
  std::vector<std::string> actions;
  for (const auto &entry : site.store().edit_log({1, 10}).items)
    actions.push_back(entry.action);
  CHECK(actions ==
        std::vector<std::string>{"unpublished", "updated", "published", "updated", "created"});
  // The same pair, either way round, is one comparison.
  const auto again = test::post_at_desk(client, session, "/admin/comparisons",
                                        "a=code-llama-4&b=codestral-2-1&published_on=&intro="
                                        "&bottom_line=");
  CHECK(again->status == 409);
  const auto again_text = test::visible_text(again->body);
  CHECK(again_text.find("Not saved: Code Llama 4 and Codestral 2.1 are already compared.") !=
        std::string::npos);
  CHECK(again_text.find("A pair has one comparison, in either order") != std::string::npos);
  const auto same = test::post_at_desk(client, session, "/admin/comparisons",
                                       "a=code-llama-4&b=code-llama-4&published_on=&intro="
                                       "&bottom_line=");
  CHECK(same->status == 400);
  CHECK(test::visible_text(same->body).find("Second tool must differ from the first tool (a).") !=
        std::string::npos);
}

TEST_CASE("desk: every desk answer says Cache-Control and X-Robots-Tag once each") {
  test::SiteServer site;
  add_editor(site.store());
  auto client = site.client();
  const auto session = test::sign_in_at_desk(client, test::kEditorEmail, test::kEditorPassword);
  const auto once = [](const httplib::Result &res, const char *name, const std::string &value) {
    REQUIRE(res);
    INFO(res->status << " " << name);
    CHECK(res->get_header_value_count(name) == 1);
    CHECK(res->get_header_value(name) == value);
  };
  for (const auto &res :
       {client.Get("/admin"), test::get_at_desk(client, session, "/admin"),
        test::get_at_desk(client, session, "/admin/categories/new"),
        test::get_at_desk(client, session, "/admin/categories/no-such-category"),
        test::post_at_desk(client, session, "/admin/categories", "slug=&name="),
        test::post_at_desk(client, session, "/admin/categories", "slug=kept&name=Kept")}) {
    once(res, "Cache-Control", "no-store");
    once(res, "X-Robots-Tag", "noindex");
  }
  once(client.Get("/admin/login"), "Cache-Control", "no-store");
}

namespace {

// A test server with the editor signed in at its desk.
struct SignedInDesk {
  test::SiteServer site;
  httplib::Client client = site.client();
  test::DeskSession session =
      (add_editor(site.store()),
       test::sign_in_at_desk(client, test::kEditorEmail, test::kEditorPassword));
};

} // namespace

TEST_CASE("desk: a description's line breaks, sent as CR LF or LF, are saved as LF and shown as "
          "separate lines") {
  SignedInDesk desk;
  auto form = tool_form("careful-agent", "Careful Agent");
  form.replace(form.find("description=A+careful+agent."), 28,
               "description=First+line.%0D%0ASecond+line.%0A%0AA+new+paragraph.");
  form.replace(form.find("pricing_notes="), 14, "pricing_notes=Free+tier.%0D%0APaid+tier.%0D%0A");
  const auto created = test::post_at_desk(desk.client, desk.session, "/admin/tools", form);
  REQUIRE(created);
  REQUIRE(created->status == 303);
  const auto stored = desk.site.store().tool_content("careful-agent");
  REQUIRE(stored);
  CHECK(stored->description == "First line.\nSecond line.\n\nA new paragraph.");
  CHECK(stored->pricing_notes.starts_with("Free tier.\nPaid tier.\n"));

  // The page keeps each line break, and its stylesheet shows them as breaks.
  const auto page = desk.client.Get("/tools/careful-agent");
  REQUIRE(page->status == 200);
  CHECK(page->body.find("<p class=\"description lines\">First line.\nSecond line.\n\nA new "
                        "paragraph.</p>") != std::string::npos);
  CHECK(page->body.find("<p class=\"lines\">Free tier.\nPaid tier.") != std::string::npos);
  const auto link = page->body.find("<link rel=\"stylesheet\" href=\"");
  REQUIRE(link != std::string::npos);
  const auto href_at = link + 29;
  const auto css =
      desk.client.Get(page->body.substr(href_at, page->body.find('"', href_at) - href_at));
  REQUIRE(css->status == 200);
  CHECK(css->body.find(".lines, .quote blockquote p { white-space: pre-line; }") !=
        std::string::npos);

  // As the edit form shows it, and a browser sends it back (CR LF), it saves unchanged.
  const auto edit = test::get_at_desk(desk.client, desk.session, "/admin/tools/careful-agent");
  REQUIRE(edit->status == 200);
  CHECK(edit->body.find(">First line.\nSecond line.\n\nA new paragraph.</textarea>") !=
        std::string::npos);
  auto again = tool_form("careful-agent", "Careful Agent");
  again.replace(again.find("description=A+careful+agent."), 28,
                "description=First+line.%0D%0ASecond+line.%0D%0A%0D%0AA+new+paragraph.");
  const auto saved =
      test::post_at_desk(desk.client, desk.session, "/admin/tools/careful-agent", again);
  REQUIRE(saved->status == 303);
  CHECK(desk.site.store().tool_content("careful-agent")->description ==
        "First line.\nSecond line.\n\nA new paragraph.");
}

TEST_CASE("desk: a line break in a one-line field, or a control character in any, is a fault "
          "beside that field, shown as a space, and nothing is written") {
  SignedInDesk desk;
  const auto tools_before = desk.site.store().tools_by_name().size();
  const std::string one_line = " can hold no line break, tab or other invisible character: each "
                               "was made a space here; check it and save again.";
  const std::string paragraphs = " can hold no tab or other invisible character: each was made a "
                                 "space here; check it and save again.";
  struct Case {
    const char *field, *label, *sent, *shown, *says;
  };
  for (const auto &c : {
           Case{"tagline", "Tagline", "Writes+the%0D%0Atests+first.", "Writes the  tests first.",
                one_line.c_str()},
           Case{"tagline", "Tagline", "Writes+the%0Atests+first.", "Writes the tests first.",
                one_line.c_str()},
           Case{"name", "Name", "Careful%0DAgent", "Careful Agent", one_line.c_str()},
           Case{"slug", "Address", "careful-agent%0A", "careful-agent ", one_line.c_str()},
           Case{"vendor", "Vendor", "Careful%09Labs", "Careful Labs", one_line.c_str()},
           // A paragraph field takes line breaks, and no other control character.
           Case{"description", "Description", "A%07careful+agent.", "A careful agent.",
                paragraphs.c_str()},
       }) {
    INFO(c.field << "=" << c.sent);
    auto form = tool_form("careful-agent", "Careful Agent");
    const std::string key = std::string(c.field) + "=";
    const auto at = form.find(key);
    form.replace(at, form.find('&', at) - at, key + c.sent);
    const auto res = test::post_at_desk(desk.client, desk.session, "/admin/tools", form);
    REQUIRE(res);
    CHECK(res->status == 400);
    CHECK(res->body.find("id=\"problem-" + std::string(c.field) + "\">" + c.label + c.says) !=
          std::string::npos);
    CHECK(test::decode_entities(res->body).find(c.shown) != std::string::npos);
  }
  CHECK(desk.site.store().tools_by_name().size() == tools_before);
  CHECK(log_entries(desk.site.store()) == 0);
}

TEST_CASE("desk: two tools with the same name are told apart in the tool pickers by their "
          "taglines") {
  SignedInDesk desk;
  const auto form = test::get_at_desk(desk.client, desk.session, "/admin/comparisons/new");
  REQUIRE(form->status == 200);
  // The bundled content has two tools named Code Llama 4.
  std::vector<std::string> labels;
  const std::regex option(R"re(<option value="[a-z0-9-]+">(Code Llama 4[^<]*)</option>)re");
  const auto html = test::decode_entities(form->body);
  for (auto it = std::sregex_iterator(html.begin(), html.end(), option);
       it != std::sregex_iterator(); ++it)
    labels.push_back((*it)[1].str());
  REQUIRE(labels.size() == 4); // two in each of the two pickers
  CHECK(labels[0] != labels[1]);
  CHECK(labels[0].starts_with("Code Llama 4 — "));
  CHECK(labels[1].starts_with("Code Llama 4 — "));
  // A name no other tool has stays as it is.
  CHECK(html.find(">Codestral 2.1</option>") != std::string::npos);
}

TEST_CASE("desk: a new tool's address is made from its name when left empty, shown when the form "
          "comes back, and the list names what was saved") {
  SignedInDesk desk;
  // A fault elsewhere: the form comes back with the address the name makes, to keep or change.
  auto faulty = tool_form("", "Quiet Agent 2.0");
  faulty.replace(faulty.find("tagline=Writes+the+tests+first."), 31, "tagline=");
  const auto back = test::post_at_desk(desk.client, desk.session, "/admin/tools", faulty);
  REQUIRE(back->status == 400);
  CHECK(back->body.find("name=\"slug\" value=\"quiet-agent-2-0\"") != std::string::npos);
  CHECK_FALSE(desk.site.store().tool_content("quiet-agent-2-0"));

  const auto created = test::post_at_desk(desk.client, desk.session, "/admin/tools",
                                          tool_form("", "Quiet Agent 2.0"));
  REQUIRE(created->status == 303);
  CHECK(created->get_header_value("Location") == "/admin/tools?saved=quiet-agent-2-0");
  REQUIRE(desk.site.store().tool_content("quiet-agent-2-0"));
  CHECK(desk.site.store().tool_content("quiet-agent-2-0")->name == "Quiet Agent 2.0");
  const auto listed =
      test::get_at_desk(desk.client, desk.session, "/admin/tools?saved=quiet-agent-2-0");
  CHECK(test::visible_text(listed->body).find("Saved the tool Quiet Agent 2.0.") !=
        std::string::npos);
  // An address typed is kept as typed.
  const auto typed = test::post_at_desk(desk.client, desk.session, "/admin/tools",
                                        tool_form("hush", "Quiet Agent 3"));
  REQUIRE(typed->status == 303);
  CHECK(desk.site.store().tool_content("hush"));
}

TEST_CASE("desk: a new tool named as one that exists is saved only once the editor says so, "
          "and the form says which tool has the name") {
  SignedInDesk desk;
  const auto existing = desk.site.store().tool_content("codestral-2-1");
  REQUIRE(existing);
  const auto tools_before = desk.site.store().tools_by_name().size();
  const auto form = tool_form("codestral-fork", existing->name);
  const auto warned = test::post_at_desk(desk.client, desk.session, "/admin/tools", form);
  REQUIRE(warned->status == 409);
  const auto text = test::visible_text(warned->body);
  CHECK(text.find("Not saved yet: another tool has this name already (codestral-2-1: \u201c" +
                  existing->tagline + "\u201d).") != std::string::npos);
  CHECK(text.find("give it a tagline that says how it differs, then save again") !=
        std::string::npos);
  CHECK(warned->body.find("class=\"form-problem\" role=\"alert\"") != std::string::npos);
  CHECK(warned->body.find("name=\"same_name\" value=\"yes\"") != std::string::npos);
  CHECK(warned->body.find("value=\"codestral-fork\"") != std::string::npos); // kept as typed
  CHECK(desk.site.store().tools_by_name().size() == tools_before);

  // Sent again with the form's answer, it is saved under the shared name.
  const auto saved =
      test::post_at_desk(desk.client, desk.session, "/admin/tools", form + "&same_name=yes");
  REQUIRE(saved->status == 303);
  CHECK(desk.site.store().tools_by_name().size() == tools_before + 1);
  // A tool keeps its own name on an edit without being warned about itself.
  auto same = tool_form("codestral-fork", existing->name);
  same.replace(same.find("Writes+the+tests+first."), 23, "Forked+for+offline+use.");
  CHECK(
      test::post_at_desk(desk.client, desk.session, "/admin/tools/codestral-fork", same)->status ==
      409); // codestral-2-1 still has the name
  CHECK(test::post_at_desk(desk.client, desk.session, "/admin/tools/codestral-fork",
                           same + "&same_name=yes")
            ->status == 303);
  const auto renamed = tool_form("codestral-fork", "Codestral Offline");
  CHECK(test::post_at_desk(desk.client, desk.session, "/admin/tools/codestral-fork", renamed)
            ->status == 303);
  CHECK(test::post_at_desk(desk.client, desk.session, "/admin/tools/codestral-fork", renamed)
            ->status == 303); // its own name is no namesake
}

TEST_CASE("desk: a form marks the fields that must be filled in, and only those") {
  SignedInDesk desk;
  const auto form = test::get_at_desk(desk.client, desk.session, "/admin/tools/new");
  REQUIRE(form->status == 200);
  const auto label_of = [&](const std::string &field) {
    const auto at = form->body.find("<p class=\"field-label\"><label for=\"field-" + field + "\">");
    REQUIRE(at != std::string::npos);
    return form->body.substr(at, form->body.find("</p>", at) - at);
  };
  CHECK(label_of("name").find("required-mark") != std::string::npos);
  CHECK(label_of("tagline").find("required-mark") != std::string::npos);
  CHECK(label_of("vendor").find("required-mark") == std::string::npos);
  CHECK(label_of("slug").find("required-mark") == std::string::npos); // made from the name
  CHECK(test::visible_text(form->body).find("Fields marked required must be filled in") !=
        std::string::npos);
}

TEST_CASE("desk: a tool's description as long as the content rules allow is saved from the form, "
          "and one longer is a fault beside its field") {
  SignedInDesk desk;
  const auto with_description = [](const std::string &description) {
    auto form = tool_form("long-read", "Long Read");
    form.replace(form.find("description=A+careful+agent."), 28, "description=" + description);
    return form;
  };
  // 20,000 characters, past the 8 KiB any other form of the site may send.
  const auto saved = test::post_at_desk(desk.client, desk.session, "/admin/tools",
                                        with_description(std::string(20000, 'a')));
  REQUIRE(saved);
  CHECK(saved->status == 303);
  REQUIRE(desk.site.store().tool_content("long-read"));
  CHECK(desk.site.store().tool_content("long-read")->description.size() == 20000);

  const auto refused = test::post_at_desk(desk.client, desk.session, "/admin/tools/long-read",
                                          with_description(std::string(20001, 'b')));
  REQUIRE(refused);
  CHECK(refused->status == 400);
  CHECK(refused->body.find("id=\"problem-description\">Description is longer than 20000") !=
        std::string::npos);
  CHECK(desk.site.store().tool_content("long-read")->description == std::string(20000, 'a'));
}

TEST_CASE("desk: saving a tool deleted after its form was opened says so and keeps the form, "
          "to create it again") {
  SignedInDesk desk;
  REQUIRE(test::post_at_desk(desk.client, desk.session, "/admin/tools",
                             tool_form("doomed", "Doomed Agent"))
              ->status == 303);
  REQUIRE(test::post_at_desk(desk.client, desk.session, "/admin/tools/doomed/delete", "")->status ==
          303);
  auto changed = tool_form("doomed", "Doomed Agent");
  changed.replace(changed.find("Writes+the+tests+first."), 23, "A+tagline+worth+keeping.");
  const auto late = test::post_at_desk(desk.client, desk.session, "/admin/tools/doomed", changed);
  REQUIRE(late);
  CHECK(late->status == 404);
  const auto text = test::visible_text(late->body);
  CHECK(text.find("Not saved: this tool was deleted after the form was opened") !=
        std::string::npos);
  CHECK(late->body.find("value=\"A tagline worth keeping.\"") != std::string::npos);
  CHECK(late->body.find("action=\"/admin/tools\"") != std::string::npos); // creates anew
  CHECK_FALSE(desk.site.store().tool_content("doomed"));
}

TEST_CASE("desk: the edit log shows each change field by field, by the form's labels and the "
          "names the form offers, and nothing that did not change") {
  SignedInDesk desk;
  REQUIRE(test::post_at_desk(desk.client, desk.session, "/admin/categories",
                             "name=Research+Tools&slug=research-tools")
              ->status == 303);
  REQUIRE(test::post_at_desk(desk.client, desk.session, "/admin/tools",
                             tool_form("careful-agent", "Careful Agent"))
              ->status == 303);
  auto changed = tool_form("careful-agent", "Careful Agent");
  changed.replace(changed.find("Writes+the+tests+first."), 23, "Reads+before+it+writes.");
  changed.replace(changed.find("category=developer-tools"), 24, "category=research-tools");
  changed.replace(changed.find("vendor=Careful+Labs"), 19, "vendor=");
  REQUIRE(test::post_at_desk(desk.client, desk.session, "/admin/tools/careful-agent", changed)
              ->status == 303);

  const auto log = test::get_at_desk(desk.client, desk.session, "/admin/log");
  REQUIRE(log);
  REQUIRE(log->status == 200);
  const auto text = test::visible_text(log->body);
  const auto update = text.find(test::kEditorEmail + " updated tool Careful Agent");
  const auto creation = text.find(test::kEditorEmail + " created tool Careful Agent");
  REQUIRE(update != std::string::npos);
  REQUIRE(creation != std::string::npos);
  REQUIRE(update < creation); // newest first
  const auto updated = text.substr(update, creation - update);
  // The category by its name, as the form's choice says it, never its address.
  CHECK(updated.find("Category was: Developer Tools now: Research Tools") != std::string::npos);
  CHECK(updated.find("Tagline was: Writes the tests first. now: Reads before it writes.") !=
        std::string::npos);
  CHECK(updated.find("Vendor was: Careful Labs now: (empty)") != std::string::npos);
  CHECK(updated.find("Description") == std::string::npos); // unchanged, so not said
  CHECK(updated.find("Website") == std::string::npos);
  // A creation says what each field was set to, with nothing before.
  const auto created =
      text.substr(creation, text.find(test::kEditorEmail, creation + 1) - creation);
  CHECK(created.find("Website now: https://careful.example/") != std::string::npos);
  CHECK(created.find("was:") == std::string::npos);
  CHECK(log->body.find("{&quot;slug&quot;") == std::string::npos); // no JSON
  // Times as readers read them; the machine's form only in the time element's datetime.
  const std::regex shown_time(
      R"(<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ">\d{4}-\d\d-\d\d \d\d:\d\d UTC</time>)");
  CHECK(std::regex_search(log->body, shown_time));
  CHECK(text.find("Z ") == std::string::npos);
  CHECK(log->body.find("{\"slug\"") == std::string::npos);

  // The desk's front page names the items its latest changes touched.
  const auto front =
      test::visible_text(test::get_at_desk(desk.client, desk.session, "/admin")->body);
  CHECK(front.find("updated tool Careful Agent") != std::string::npos);
  CHECK(front.find("created category Research Tools") != std::string::npos);
}

TEST_CASE("desk: each long list narrows to the words typed in its box, pages keep them, and words "
          "that cannot be used are refused") {
  SignedInDesk desk;
  const auto listed = [&](const std::string &path) {
    const auto res = test::get_at_desk(desk.client, desk.session, path);
    REQUIRE(res);
    REQUIRE(res->status == 200);
    return test::visible_text(res->body);
  };
  // Tools: by name, address, tagline or vendor, in any case.
  const auto tools = listed("/admin/tools?q=codestral");
  CHECK(tools.find("Codestral 2.1") != std::string::npos);
  CHECK(tools.find("Cursor Background Agent") == std::string::npos);
  CHECK(tools.find("Only those holding “codestral”.") != std::string::npos);
  CHECK(listed("/admin/tools?q=CODESTRAL").find("Codestral 2.1") != std::string::npos);
  // A % or _ typed is only a character, not a wildcard.
  CHECK(listed("/admin/tools?q=%25").find("None holds “%”.") != std::string::npos);
  CHECK(listed("/admin/tools").find("Cursor Background Agent") != std::string::npos);

  // Reviews: by the tool's or reviewer's name.
  const auto reviews = listed("/admin/reviews?q=Codestral");
  CHECK(reviews.find("on Codestral 2.1") != std::string::npos);
  CHECK(reviews.find("on Cursor Background Agent") == std::string::npos);

  // Comparisons: by either tool's name.
  const auto comparisons = listed("/admin/comparisons?q=codestral");
  CHECK(comparisons.find("Cursor Background Agent vs Codestral 2.1") != std::string::npos);
  const auto all_comparisons = listed("/admin/comparisons");
  size_t shown = 0, all = 0;
  for (auto at = comparisons.find(" vs "); at != std::string::npos;
       at = comparisons.find(" vs ", at + 1))
    ++shown;
  for (auto at = all_comparisons.find(" vs "); at != std::string::npos;
       at = all_comparisons.find(" vs ", at + 1))
    ++all;
  CHECK(shown < all);

  // Subscribers: by address.
  test::request_subscription(desk.site.store(), "first@example.com", 1'800'000'000);
  test::request_subscription(desk.site.store(), "second@example.org", 1'800'000'000);
  const auto subscribers = listed("/admin/subscribers?q=example.org");
  CHECK(subscribers.find("second@example.org") != std::string::npos);
  CHECK(subscribers.find("first@example.com") == std::string::npos);

  // The log: by any word a change holds.
  REQUIRE(test::post_at_desk(desk.client, desk.session, "/admin/categories",
                             "name=Research+Tools&slug=research-tools")
              ->status == 303);
  REQUIRE(test::post_at_desk(desk.client, desk.session, "/admin/categories",
                             "name=Writing+Tools&slug=writing-tools")
              ->status == 303);
  const auto log = listed("/admin/log?q=research");
  CHECK(log.find("created category Research Tools") != std::string::npos);
  CHECK(log.find("Writing Tools") == std::string::npos);
  CHECK(listed("/admin/log?q=nothing-like-this").find("No change holds “nothing-like-this”.") !=
        std::string::npos);

  // Pages of a narrowed list keep the words.
  for (int i = 0; i < 51; ++i)
    REQUIRE(
        test::post_at_desk(desk.client, desk.session, "/admin/categories",
                           "name=Shelf+" + std::to_string(i) + "&slug=shelf-" + std::to_string(i))
            ->status == 303);
  const auto first = test::get_at_desk(desk.client, desk.session, "/admin/log?q=shelf");
  REQUIRE(first->status == 200);
  CHECK(first->body.find("href=\"/admin/log?q=shelf&amp;page=2\"") != std::string::npos);
  const auto second = listed("/admin/log?q=shelf&page=2");
  CHECK(second.find("created category Shelf 0 ") != std::string::npos);
  CHECK(second.find("Research Tools") == std::string::npos);

  // Words that are not text, or too many, are a 400 that says so.
  const auto broken = test::get_at_desk(desk.client, desk.session, "/admin/tools?q=%FF");
  REQUIRE(broken);
  CHECK(broken->status == 400);
  CHECK(test::visible_text(broken->body).find("Those words cannot narrow the list") !=
        std::string::npos);
  const auto long_words =
      test::get_at_desk(desk.client, desk.session, "/admin/reviews?q=" + std::string(201, 'a'));
  CHECK(long_words->status == 400);
}

TEST_CASE("desk: two tools with the same name are told apart by their taglines in lists, names "
          "and the log, and a tool whose name is its own is said by its name alone") {
  SignedInDesk desk;
  const auto text_of = [&](const std::string &path) {
    return test::decode_entities(
        test::visible_text(test::get_at_desk(desk.client, desk.session, path)->body));
  };
  const std::string first = "Code Llama 4 (Meta's open-weight coding model: 7B to 200B, free to "
                            "download)";
  const std::string second = "Code Llama 4 (Meta's open-weight code model fine-tuned for "
                             "agentic, multi-step workflows)";
  const auto tools = text_of("/admin/tools");
  CHECK(tools.find(first) != std::string::npos);
  CHECK(tools.find(second) != std::string::npos);
  CHECK(tools.find("Codestral 2.1 (") == std::string::npos);
  CHECK(tools.find("Pricing model") != std::string::npos);
  CHECK(tools.find("Way in") == std::string::npos);
  const auto comparisons = text_of("/admin/comparisons");
  CHECK(comparisons.find("Cursor Background Agents vs " + first) != std::string::npos);
  CHECK(comparisons.find("Cursor v0.50 – Background Agent & Codebase Refactoring vs " + second) !=
        std::string::npos);
  CHECK(text_of("/admin/reviews").find(" on " + second) != std::string::npos);
  CHECK(text_of("/admin/tools/code-llama-4-70b").find(second) != std::string::npos); // heading

  // Once the name is its own again, the tagline is no longer said.
  auto renamed = tool_form("code-llama-4-70b", "Code Llama 4 70B");
  REQUIRE(test::post_at_desk(desk.client, desk.session, "/admin/tools/code-llama-4-70b", renamed)
              ->status == 303);
  const auto after = text_of("/admin/tools");
  CHECK(after.find("Code Llama 4 (") == std::string::npos);
  CHECK(after.find("Code Llama 4 70B") != std::string::npos);
}

namespace {

// This process's peak resident memory so far, in KiB.
long peak_memory_kib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::atol(line.c_str() + 6);
  return 0;
}

} // namespace

TEST_CASE("desk: a burst of simultaneous sign-in guesses checks no more passwords than the "
          "rules allow, per network and per account, and hashes few at once") {
  test::SiteServer site(":memory:", 0, "127.0.0.1"); // the test plays the trusted proxy
  add_editor(site.store());
  std::atomic<int> checked{0}, held_back{0}, other{0};
  const auto burst = [&](int guesses, const std::function<std::string(int)> &address) {
    std::vector<std::thread> guessers;
    for (int i = 0; i < guesses; ++i)
      guessers.emplace_back([&, i] {
        auto client = site.client();
        client.set_read_timeout(60);
        const auto answer =
            try_sign_in(client, test::kEditorEmail, "wrong guess " + std::to_string(i),
                        {{"X-Forwarded-For", address(i)}});
        if (answer && answer->status == 401)
          ++checked;
        else if (answer && answer->status == 429 && answer->has_header("Retry-After"))
          ++held_back;
        else
          ++other;
      });
    for (auto &guesser : guessers)
      guesser.join();
  };
  // 64 at once from one address: the rule checks 5 tries of one account from one network.
  // (A guess may also be held back because too many are being hashed at that moment: then it
  // was not checked either, and its charge is taken back.)
  const auto peak_before = peak_memory_kib();
  burst(64, [](int) { return std::string("203.0.113.9"); });
  CHECK(checked >= 1);
  CHECK(checked <= 5);
  CHECK(checked + held_back == 64);
  CHECK(other == 0);
  const int first_checked = checked;
  // 200 at once from ten other networks: at most 5 from each, and never past the account's
  // ceiling of 50.
  checked = held_back = other = 0;
  burst(200, [](int i) { return "198.51." + std::to_string(i % 10) + ".7"; });
  CHECK(checked >= 1);
  CHECK(first_checked + checked <= 50);
  CHECK(checked + held_back == 200);
  CHECK(other == 0);
#ifndef VERDICT_SANITIZED
  // Two hashes of 64 MiB at a time at most, whatever the burst (a sanitizer keeps shadow
  // memory, so only the shipped build is held to it).
  CHECK(peak_memory_kib() - peak_before < 256 * 1024);
#else
  (void)peak_before;
#endif
  std::cerr << "sign-in burst: " << first_checked << " of 64 and " << checked
            << " of 200 checked\n";
}

TEST_CASE("desk: a save or a deletion the site's file cannot take is a 503 that says nothing was "
          "saved, and writes nothing") {
  test::TempDir dir;
  const auto db = (dir.path / "site.db").string();
  test::SiteServer site(db);
  add_editor(site.store());
  auto client = site.client();
  const auto session = test::sign_in_at_desk(client, test::kEditorEmail, test::kEditorPassword);
  REQUIRE(site.store().category("developer-tools"));
  const auto edits_before = site.store().edit_log(PageSpan{1, 100}).items.size();
  std::filesystem::remove(db); // deleted under the running site, as an owner's tool might
  for (const auto &[path, body] :
       {std::pair<std::string, std::string>{"/admin/categories", "name=Agents&slug=agents"},
        {"/admin/categories/developer-tools/delete", ""}}) {
    INFO(path);
    const auto answer = test::post_at_desk(client, session, path, body);
    REQUIRE(answer);
    CHECK(answer->status == 503);
    CHECK(answer->get_header_value("Retry-After") == "60");
    CHECK_THAT(test::visible_text(answer->body), Catch::Contains("Nothing was changed"));
  }
  CHECK_FALSE(site.store().category("agents"));
  CHECK(site.store().category("developer-tools"));
  CHECK(site.store().edit_log(PageSpan{1, 100}).items.size() == edits_before);
}
