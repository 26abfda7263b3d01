// The weekly digest: the mail format, the links that confirm and unsubscribe, the sign-up's
// pages, and sending for real to an SMTP server each test starts on loopback
// (tests/smtp/sink.py), both from the server (confirmation mails) and from `verdict digest`.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <set>

#include "app/options.h"
#include "app/server.h"
#include "auth/mail_tokens.h"
#include "auth/secrets.h"
#include "domain/clock.h"
#include "domain/mail_message.h"
#include "domain/subscription.h"
#include "store/sqlite.h"
#include "test_support.h"

using namespace verdict;
namespace fs = std::filesystem;

namespace {

const char *kFrom = "news@verdict.example";

MailMessage sample_message() {
  MailMessage m;
  m.from_name = "Verdict";
  m.from_address = kFrom;
  m.to_address = "reader@example.com";
  m.subject = "Weekly AI Tool Verdicts — 2 new comparisons";
  m.date = 1795350201;
  m.message_id = "abc@verdict.example";
  m.text = "Hello\nA line with = and trailing space \n" + std::string(200, 'x') + "\nÉté\n";
  m.html = "<p>Hello</p>";
  m.unsubscribe_url = "https://verdict.example/unsubscribe/1-" + std::string(32, 'a');
  m.unsubscribe_mailto =
      "mailto:news@verdict.example?subject=unsubscribe%201-" + std::string(32, 'a');
  return m;
}

// Every line of a message, without its CRLF; fails on a bare LF or CR.
std::vector<std::string> lines_of(const std::string &message) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (;;) {
    const auto end = message.find("\r\n", start);
    const auto line =
        message.substr(start, end == std::string::npos ? std::string::npos : end - start);
    CHECK(line.find('\n') == std::string::npos);
    CHECK(line.find('\r') == std::string::npos);
    if (end == std::string::npos) {
      if (!line.empty()) lines.push_back(line);
      return lines;
    }
    lines.push_back(line);
    start = end + 2;
  }
}

// A subscriber's status, read the way the desk does.
std::string status_of(Store &store, const std::string &email) {
  for (const auto &subscriber : store.all_subscribers())
    if (subscriber.email == email) return subscriber.status;
  return "absent";
}

MailSetup mail_through(const test::SmtpSink &sink) {
  MailSetup mail;
  mail.smtp.url = sink.url();
  mail.from = kFrom;
  return mail;
}

// A site that sends its confirmation mails to a mail server of its own.
struct MailingSite {
  test::TempDir dir;
  test::SmtpSink sink{dir.path / "mail"};
  test::SiteServer site{mail_through(sink)};
};

// A form as a browser sends it from this site's own page.
httplib::Result post_same_origin(httplib::Client &client, const std::string &path,
                                 const std::string &body = "") {
  return test::post_form(client, path, body);
}

std::string path_of(const std::string &url) {
  const auto scheme = url.find("://");
  return url.substr(url.find('/', scheme + 3));
}

Options parsed_options(const std::vector<std::string> &args,
                       const std::map<std::string, std::string> &env = {}) {
  return parse_options(args, [&](const char *name) -> const char * {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

} // namespace

TEST_CASE("digest: a message is CRLF throughout, no line over 78, with both parts and the list "
          "headers") {
  const auto sample = sample_message();
  const auto message = compose_mail(sample);
  for (const auto &line : lines_of(message)) {
    INFO(line);
    CHECK(line.size() <= 998);
    // An address is never folded, so only a line holding one address alone, as
    // List-Unsubscribe folds them, may be longer: by the address itself.
    if (line.size() > 78)
      CHECK((line == " <" + sample.unsubscribe_mailto + ">" ||
             line == " <" + sample.unsubscribe_url + ">,"));
  }
  CHECK(message.find("\r\nList-Unsubscribe:\r\n <" + sample.unsubscribe_url + ">,\r\n <" +
                     sample.unsubscribe_mailto + ">\r\n") != std::string::npos);
  CHECK(test::mail_header(message, "MIME-Version") == "1.0");
  CHECK(test::mail_header(message, "From") == "\"Verdict\" <news@verdict.example>");
  CHECK(test::mail_header(message, "To") == "<reader@example.com>");
  CHECK(test::mail_header(message, "Date") == "Sun, 22 Nov 2026 12:23:21 +0000");
  CHECK(test::mail_header(message, "Message-ID") == "<abc@verdict.example>");
  CHECK(test::mail_header(message, "List-Unsubscribe") ==
        "<https://verdict.example/unsubscribe/1-" + std::string(32, 'a') +
            ">, <mailto:news@verdict.example?subject=unsubscribe%201-" + std::string(32, 'a') +
            ">");
  CHECK(test::mail_header(message, "List-Unsubscribe-Post") == "List-Unsubscribe=One-Click");
  CHECK(test::mail_header(message, "Content-Type").rfind("multipart/alternative; boundary=", 0) ==
        0);
  // Each part decodes back to what was written, line ends made CRLF.
  CHECK(test::mail_part(message, "text/plain") ==
        "Hello\r\nA line with = and trailing space \r\n" + std::string(200, 'x') + "\r\nÉté\r\n");
  CHECK(test::mail_part(message, "text/html") == "<p>Hello</p>\r\n");
}

TEST_CASE("digest: a subject that is not ASCII goes as encoded words, never split inside a "
          "character") {
  CHECK(encoded_header_text("Plain subject") == "Plain subject");
  const std::string subject = "Weekly AI Tool Verdicts — " + std::string(30, 'x') + "é€😀";
  const auto encoded = encoded_header_text(subject);
  std::string decoded;
  size_t at = 0;
  while ((at = encoded.find("=?UTF-8?B?", at)) != std::string::npos) {
    const auto end = encoded.find("?=", at + 10);
    const auto word = encoded.substr(at, end + 2 - at);
    CHECK(word.size() <= 75);
    // Each word is whole UTF-8 on its own: it does not start with a continuation byte.
    const auto payload = encoded.substr(at + 10, end - at - 10);
    std::string bytes;
    // base64 decode
    int bits = 0, value = 0;
    for (const char c : payload) {
      if (c == '=') break;
      const auto index =
          std::string("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/").find(c);
      value = (value << 6) | static_cast<int>(index);
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        bytes += static_cast<char>((value >> bits) & 0xff);
      }
    }
    CHECK((static_cast<unsigned char>(bytes.front()) & 0xC0) != 0x80);
    decoded += bytes;
    at = end;
  }
  CHECK(decoded == subject);
  CHECK(encoded.find("\r\n ") != std::string::npos); // long enough to take two words
}

TEST_CASE("digest: a header made from data that holds a line break is refused, never sent") {
  const auto refused = [](void (*spoil)(MailMessage &)) {
    auto message = sample_message();
    spoil(message);
    CHECK_THROWS_AS(compose_mail(message), MailRefused);
  };
  refused([](MailMessage &m) { m.subject = "Hello\r\nBcc: victim@example.com"; });
  refused([](MailMessage &m) { m.subject = "Hello\nBcc: victim@example.com"; });
  refused([](MailMessage &m) { m.to_address = "reader@example.com\r\nBcc: victim@example.com"; });
  refused([](MailMessage &m) { m.to_address = "reader@example.com>, <victim@example.com"; });
  refused([](MailMessage &m) { m.from_name = "Verdict\r\nBcc: victim@example.com"; });
  refused([](MailMessage &m) { m.from_address = "news@verdict.example\r\nX: y"; });
  refused([](MailMessage &m) { m.message_id = "a@b>\r\nBcc: victim@example.com"; });
  refused([](MailMessage &m) { m.unsubscribe_url += ">, <https://evil.example/"; });
  refused([](MailMessage &m) { m.unsubscribe_mailto += "\r\nBcc: victim@example.com"; });
  // A body is encoded, so a line break there is only text.
  auto message = sample_message();
  message.text = "Hello\r\nBcc: victim@example.com\r\n";
  const auto sent = compose_mail(message);
  CHECK(sent.substr(0, sent.find("\r\n\r\n")).find("Bcc:") == std::string::npos);
  CHECK(test::mail_part(sent, "text/plain") == message.text);
  // The command line refuses a From with a line break before anything is sent.
  CHECK(parsed_options({"digest", "--db", "x.db", "--since", "7d", "--base-url", test::kSiteBase,
                        "--from", "news@verdict.example\r\nBcc: victim@example.com", "--dry-run",
                        "out"})
            .error == "--from must be an email address");
}

TEST_CASE("digest: --since takes days or hours as whole days, and resends are rationed") {
  CHECK(digest_days("7d") == 7);
  CHECK(digest_days("1d") == 1);
  CHECK(digest_days("24h") == 1);
  CHECK(digest_days("25h") == 2);
  CHECK(digest_days("48h") == 2);
  CHECK(digest_days("366d") == 366);
  for (const auto *bad :
       {"", "7", "d", "0d", "07d", "-1d", "7w", "367d", "1.5d", "7 d", "99999h"}) {
    INFO(bad);
    CHECK_FALSE(digest_days(bad));
  }
  CHECK(confirmation_resend_wait(0) == 0);
  CHECK(confirmation_resend_wait(1) == 300);
  CHECK(confirmation_resend_wait(2) == 600);
  CHECK(confirmation_resend_wait(3) == 1200);
  CHECK(confirmation_resend_wait(20) == 86400);
  CHECK(confirmation_resend_wait(1000) == 86400);
}

TEST_CASE("digest: a mailbox is its address in lower case without a +tag, and Gmail's without "
          "dots under gmail.com") {
  CHECK(mailbox_of("Victim+1@Example.com") == "victim@example.com");
  CHECK(mailbox_of("victim+a+b@example.com") == "victim@example.com");
  CHECK(mailbox_of("v.ictim@example.com") == "v.ictim@example.com"); // dots matter elsewhere
  CHECK(mailbox_of("V.I.Ctim+news@GoogleMail.com") == "victim@gmail.com");
  CHECK(mailbox_of("victim@gmail.com") == "victim@gmail.com");
  CHECK(mailbox_of("+44@example.com") == "+44@example.com"); // all name, no tag
  CHECK(mailbox_domain_of("a@GoogleMail.COM") == "gmail.com");
  CHECK(mailbox_domain_of("a@Example.com") == "example.com");
}

TEST_CASE("digest: an unsubscribe link names its subscriber and no other, and a marker expires") {
  const auto key = auth::random_secret();
  const auto token = auth::unsubscribe_token(key, 12, "Reader@Example.com");
  CHECK(auth::unsubscribe_token_id(token) == 12);
  CHECK(auth::unsubscribe_token_matches(key, token, 12, "reader@example.com"));
  CHECK_FALSE(auth::unsubscribe_token_matches(key, token, 12, "other@example.com"));
  CHECK_FALSE(auth::unsubscribe_token_matches(key, token, 13, "reader@example.com"));
  CHECK_FALSE(
      auth::unsubscribe_token_matches(auth::random_secret(), token, 12, "reader@example.com"));
  auto forged = token;
  forged.back() = forged.back() == 'a' ? 'b' : 'a';
  CHECK_FALSE(auth::unsubscribe_token_matches(key, forged, 12, "reader@example.com"));
  for (const auto *bad : {"", "12", "-abc",
                          "012-"
                          "00000000000000000000000000000000",
                          "x-y"})
    CHECK_FALSE(auth::unsubscribe_token_id(bad));

  const auto marker = auth::subscribed_marker(key, 1000);
  CHECK(auth::subscribed_marker_holds(key, marker, 999));
  CHECK(auth::subscribed_marker_holds(key, marker, 1000));
  CHECK_FALSE(auth::subscribed_marker_holds(key, marker, 1001));
  CHECK_FALSE(auth::subscribed_marker_holds(auth::random_secret(), marker, 999));
  CHECK_FALSE(auth::subscribed_marker_holds(key, "99999999999-" + marker.substr(5), 999));
}

TEST_CASE("digest: the command line asks for what a digest needs, and the password only from "
          "the environment") {
  const std::vector<std::string> base = {"digest", "--db", "x.db", "--base-url", test::kSiteBase};
  const auto with = [&](std::vector<std::string> more) {
    auto args = base;
    args.insert(args.end(), more.begin(), more.end());
    return parsed_options(args);
  };
  CHECK(with({"--from", kFrom, "--smtp", "smtp://127.0.0.1:2525"}).error ==
        "digest needs --since, like --since 7d");
  CHECK(with({"--since", "7x", "--from", kFrom}).error ==
        "--since must be days or hours, like 7d or 48h (at most 366 days)");
  CHECK(with({"--since", "7d", "--smtp", "smtp://127.0.0.1:2525"}).error.find("--from") !=
        std::string::npos);
  CHECK(with({"--since", "7d", "--from", kFrom}).error.find("--smtp") != std::string::npos);
  CHECK(parsed_options(
            {"digest", "--db", "x.db", "--since", "7d", "--from", kFrom, "--dry-run", "out"})
            .error.find("--base-url") != std::string::npos);
  CHECK(with({"--since", "7d", "--from", kFrom, "--smtp", "http://127.0.0.1"})
            .error.find("must be the mail server's address") != std::string::npos);
  // Every option missing is said at once.
  const auto bare = parsed_options({"digest", "--db", "x.db"}).error;
  for (const auto *needed : {"--since", "--base-url", "--from", "--smtp"}) {
    INFO(needed);
    CHECK(bare.find(needed) != std::string::npos);
  }
  const auto good = with({"--since", "48h", "--from", kFrom, "--smtp", "smtp://127.0.0.1:2525"});
  CHECK(good.error.empty());
  CHECK(good.since_days == 2);
  CHECK(good.smtp_url == "smtp://127.0.0.1:2525");
  // There is no password flag; a login needs the environment's, and TLS unless on this machine.
  CHECK(with({"--since", "7d", "--from", kFrom, "--smtp", "smtp://127.0.0.1:2525",
              "--smtp-password", "x"})
            .error == "unknown flag --smtp-password");
  CHECK(with({"--since", "7d", "--from", kFrom, "--smtp", "smtp://127.0.0.1:2525", "--smtp-user",
              "me"})
            .error.find("VERDICT_SMTP_PASSWORD") != std::string::npos);
  const auto remote = std::vector<std::string>{
      "digest", "--db",   "x.db", "--base-url", test::kSiteBase,          "--since",
      "7d",     "--from", kFrom,  "--smtp",     "smtp://mail.example:25", "--smtp-user",
      "me"};
  CHECK(parsed_options(remote, {{"VERDICT_SMTP_PASSWORD", "secret"}}).error.find("unencrypted") !=
        std::string::npos);
  auto starttls = remote;
  starttls.push_back("--smtp-starttls");
  const auto tls = parsed_options(starttls, {{"VERDICT_SMTP_PASSWORD", "secret"}});
  CHECK(tls.error.empty());
  CHECK(tls.smtp_password == "secret");
  // The server: --smtp needs a sender and absolute links; the flags belong to serve and digest.
  // Both missing: both said at once.
  CHECK(parsed_options({"--smtp", "smtp://127.0.0.1:25"}).error ==
        "--smtp needs --smtp-from ADDR (or VERDICT_SMTP_FROM), the address confirmation mails "
        "come from; and --base-url (or VERDICT_BASE_URL): the link in a confirmation mail must "
        "be absolute");
  CHECK(parsed_options({"--smtp", "smtp://127.0.0.1:25", "--smtp-from", kFrom})
            .error.find("--base-url") != std::string::npos);
  CHECK(parsed_options({}, {{"VERDICT_SMTP", "smtp://127.0.0.1:25"},
                            {"VERDICT_SMTP_FROM", kFrom},
                            {"VERDICT_BASE_URL", test::kSiteBase}})
            .smtp_url == "smtp://127.0.0.1:25");
  CHECK(parsed_options({"check", "--db", "x.db", "--smtp", "smtp://127.0.0.1:25"}).error ==
        "--smtp is only for serve and digest");
  CHECK(parsed_options({"serve", "--since", "7d"}).error == "--since is only for digest");
}

TEST_CASE("digest: a sign-up is pending and owed one confirmation mail, another only after the "
          "wait, a confirmed address is left as it is, and one that left is mailed nothing "
          "more") {
  auto store = test::seeded_store();
  const int64_t now = 1'800'000'000;
  CHECK(test::request_subscription(*store, "reader@example.com", now) ==
        SubscriptionRequest::mail_queued);
  CHECK(status_of(*store, "reader@example.com") == "pending");
  CHECK(test::confirmations_waiting(*store) == 1);
  const auto due = store->confirmations_due(now, 10);
  REQUIRE(due.size() == 1);
  CHECK(due[0].email == "reader@example.com");
  CHECK(store->confirmations_due(now - 1, 10).empty()); // not before its time
  test::confirmation_mailed(*store, due[0].subscriber_id);
  // Asking again at once is held back; after the wait it is owed again.
  CHECK(test::request_subscription(*store, "Reader@Example.com", now + 10) ==
        SubscriptionRequest::mail_held_back);
  CHECK(test::confirmations_waiting(*store) == 0);
  CHECK(test::request_subscription(*store, "reader@example.com", now + 300) ==
        SubscriptionRequest::mail_queued);
  CHECK(test::request_subscription(*store, "reader@example.com", now + 301) ==
        SubscriptionRequest::mail_held_back); // the second wait is longer
  CHECK(test::confirmations_waiting(*store) == 1);
  CHECK(store->subscriber_counts().total() == 1);

  // Confirmed through its link: asking again changes nothing and owes nothing.
  const auto token = auth::random_secret();
  REQUIRE(
      test::start_confirmation(*store, due[0].subscriber_id, auth::secret_hash(token), now + 1000));
  CHECK(test::confirm_subscription(*store, auth::secret_hash(token), now + 400) ==
        ConfirmationCheck::confirmable);
  CHECK(status_of(*store, "reader@example.com") == "confirmed");
  CHECK(test::confirmations_waiting(*store) == 0);
  CHECK(test::request_subscription(*store, "reader@example.com", now + 99999) ==
        SubscriptionRequest::already_confirmed);
  CHECK(test::confirmations_waiting(*store) == 0);
  // "Never mail this address again" holds: after leaving, the form owes it no mail, however
  // long after, and the address stays unsubscribed.
  CHECK(test::unsubscribe(*store, due[0].subscriber_id));
  for (const int64_t later : {99999, 10 * 86400, 400 * 86400})
    CHECK(test::request_subscription(*store, "reader@example.com", now + later) ==
          SubscriptionRequest::left_the_list);
  CHECK(test::confirmations_waiting(*store) == 0);
  CHECK(status_of(*store, "reader@example.com") == "unsubscribed");
  // Coming back is the undo's: it was confirmed, so it is confirmed again.
  CHECK(test::resubscribe(*store, due[0].subscriber_id) == Resubscription::confirmed);
  const auto counts = store->subscriber_counts();
  CHECK(counts.confirmed == 1);
  CHECK(counts.total() == 1);
}

TEST_CASE("digest: a confirmation link confirms once, and an expired, replaced or unknown one is "
          "refused") {
  auto store = test::seeded_store();
  const int64_t now = 1'800'000'000;
  test::request_subscription(*store, "reader@example.com", now);
  const auto id = store->confirmations_due(now, 1).at(0).subscriber_id;
  const auto first = auth::random_secret(), second = auth::random_secret();
  REQUIRE(test::start_confirmation(*store, id, auth::secret_hash(first),
                                   now + kConfirmationLifetimeSeconds));
  // A newer mail's link replaces the older one's.
  REQUIRE(test::start_confirmation(*store, id, auth::secret_hash(second),
                                   now + kConfirmationLifetimeSeconds));
  CHECK(store->confirmation(auth::secret_hash(first), now) == ConfirmationCheck::unknown);
  CHECK(store->confirmation(auth::secret_hash(second), now + kConfirmationLifetimeSeconds + 1) ==
        ConfirmationCheck::expired);
  CHECK(test::confirm_subscription(*store, auth::secret_hash(second),
                                   now + kConfirmationLifetimeSeconds + 1) ==
        ConfirmationCheck::expired);
  CHECK(status_of(*store, "reader@example.com") == "pending");
  CHECK(test::confirm_subscription(*store, auth::secret_hash(second), now + 60) ==
        ConfirmationCheck::confirmable);
  CHECK(test::confirm_subscription(*store, auth::secret_hash(second), now + 61) ==
        ConfirmationCheck::used);
  CHECK(store->confirmation(auth::secret_hash(auth::random_secret()), now) ==
        ConfirmationCheck::unknown);
  CHECK(status_of(*store, "reader@example.com") == "confirmed");
  // No mail is started for an address that is no longer pending.
  CHECK_FALSE(test::start_confirmation(*store, id, auth::secret_hash(first), now));
}

TEST_CASE("digest: a mistyped address comes back in the form with the fault beside it, kept as "
          "typed, and nothing is kept (400)") {
  test::SiteServer site;
  auto client = site.client();
  const auto res = post_same_origin(client, "/subscribe", "email=reader%40example%3Cx%3E");
  REQUIRE(res);
  CHECK(res->status == 400);
  CHECK(res->get_header_value("Cache-Control") == "no-store");
  CHECK(res->body.find("value=\"reader@example&lt;x&gt;\"") != std::string::npos);
  CHECK(res->body.find("<x>") == std::string::npos);
  const auto text = test::visible_text(res->body);
  CHECK(text.find("That email address does not look right") != std::string::npos);
  CHECK(res->body.find("aria-describedby=\"subscribe-problem\"") != std::string::npos);
  CHECK(site.store().subscriber_counts().total() == 0);
  // The form has a page of its own, where it comes back.
  const auto form = client.Get("/subscribe");
  REQUIRE(form->status == 200);
  CHECK(form->body.find("action=\"/subscribe\"") != std::string::npos);
  CHECK(form->body.find("aria-invalid") == std::string::npos);
}

TEST_CASE("digest: /subscribed opens only right after a sign-up, and without mail says that no "
          "mail went out") {
  std::atomic<int64_t> later{0}; // seconds the site's clock is ahead
  test::SiteServer site([&later](App &app) {
    app.clock = Clock::in_seconds([&later] { return unix_now() + later; });
  });
  auto client = site.client(); // no SMTP server
  for (const auto *typed : {"/subscribed", "/subscribed?m=", "/subscribed?m=9999999999-abc",
                            "/subscribed?m=1-00000000000000000000000000000000"}) {
    INFO(typed);
    const auto res = client.Get(typed);
    CHECK(res->status == 404);
    CHECK(test::visible_text(res->body).find("right after signing up") != std::string::npos);
  }
  const auto signed_up = post_same_origin(client, "/subscribe", "email=reader%40example.com");
  REQUIRE(signed_up->status == 303);
  const auto landing = signed_up->get_header_value("Location");
  CHECK(landing.rfind("/subscribed?m=", 0) == 0);
  const auto page = client.Get(landing.c_str());
  CHECK(page->status == 200);
  CHECK(page->get_header_value("Cache-Control") == "no-store");
  const auto text = test::visible_text(page->body);
  CHECK(text.find("no confirmation mail went out") != std::string::npos);
  CHECK(text.find("pending") != std::string::npos);
  CHECK(status_of(site.store(), "reader@example.com") == "pending");
  CHECK(test::confirmations_waiting(site.store()) == 1); // kept until mail can be sent
  // The marker does not outlive its minutes.
  later = 3600;
  CHECK(client.Get(landing.c_str())->status == 404);
}

TEST_CASE("digest: a sign-up through the form is kept at the time of the site's clock, whatever "
          "the system's") {
  // The site's one clock, given to its App: the writes it takes are stamped by it.
  constexpr int64_t kSiteNow = 1906545600; // 2030-06-01T12:00:00Z
  test::SiteServer site([](App &app) { app.clock = Clock::in_seconds([] { return kSiteNow; }); });
  auto client = site.client();
  REQUIRE(post_same_origin(client, "/subscribe", "email=reader%40example.com")->status == 303);
  const auto kept = site.store().all_subscribers();
  REQUIRE(kept.size() == 1);
  CHECK(kept[0].subscribed_at == "2030-06-01T12:00:00Z");
  // Its confirmation mail is owed from that moment, not before.
  CHECK(site.store().confirmations_due(kSiteNow - 1, 10).empty());
  CHECK(site.store().confirmations_due(kSiteNow, 10).size() == 1);
}

TEST_CASE("digest: the confirmation mail arrives over SMTP and its link confirms the address "
          "once, and an expired link is refused") {
  MailingSite mailing;
  auto &sink = mailing.sink;
  auto &site = mailing.site;
  auto client = site.client();
  const auto signed_up = post_same_origin(client, "/subscribe", "email=reader%40example.com");
  REQUIRE(signed_up->status == 303);
  const auto landing = client.Get(signed_up->get_header_value("Location").c_str());
  CHECK(test::visible_text(landing->body).find("Check your inbox") != std::string::npos);

  const auto mails = sink.wait_for(1);
  REQUIRE(mails.size() == 1);
  CHECK(sink.recipients() == std::vector<std::string>{"reader@example.com"});
  CHECK(test::mail_header(mails[0], "Subject") ==
        "Confirm your subscription to Weekly AI Tool Verdicts");
  CHECK(test::mail_header(mails[0], "List-Unsubscribe-Post") == "List-Unsubscribe=One-Click");
  const auto base = "http://127.0.0.1:" + std::to_string(site.port());
  const auto text = test::mail_part(mails[0], "text/plain");
  const auto html = test::mail_part(mails[0], "text/html");
  CHECK(text.rfind("Weekly AI Tool Verdicts\r\n\r\nSomeone", 0) == 0); // no blank line first
  const auto link = test::link_starting(text, base + "/confirm/");
  REQUIRE(!link.empty());
  CHECK(html.find("href=\"" + link + "\"") != std::string::npos);
  // The mail and the page say how long the link works, as the rule has it.
  const auto lifetime = std::to_string(kConfirmationLifetimeSeconds / 3600) + " hours";
  CHECK(text.find("within " + lifetime + ":") != std::string::npos);
  CHECK(html.find("works for " + lifetime) != std::string::npos);
  CHECK(test::visible_text(landing->body).find("works for " + lifetime) != std::string::npos);

  // A link scanner opens every link in the mail's body, as mail providers' do: none of them
  // unsubscribes, so the confirmation link still works after. (Leaving is the
  // List-Unsubscribe header's, a POST no scanner sends.)
  CHECK(text.find("/unsubscribe/") == std::string::npos);
  CHECK(html.find("/unsubscribe/") == std::string::npos);
  for (const auto *body : {&text, &html})
    for (auto rest = *body; !test::link_starting(rest, base).empty();) {
      const auto scanned = test::link_starting(rest, base);
      CHECK(client.Get(path_of(scanned).c_str())->status == 200);
      rest = rest.substr(rest.find(scanned) + scanned.size());
    }
  CHECK(status_of(site.store(), "reader@example.com") == "pending");

  // The link opens a page whose one button confirms; opening it changes nothing.
  const auto page = client.Get(path_of(link).c_str());
  REQUIRE(page->status == 200);
  CHECK(page->body.find("action=\"" + path_of(link) + "\"") != std::string::npos);
  CHECK(status_of(site.store(), "reader@example.com") == "pending");
  const auto confirmed = post_same_origin(client, path_of(link));
  CHECK(confirmed->status == 200);
  CHECK(test::visible_text(confirmed->body).find("You're on the list") != std::string::npos);
  CHECK(status_of(site.store(), "reader@example.com") == "confirmed");
  // Single use: a second click is told so.
  const auto again = client.Get(path_of(link).c_str());
  CHECK(again->status == 410);
  CHECK(test::visible_text(again->body).find("used already") != std::string::npos);
  CHECK(post_same_origin(client, path_of(link))->status == 410);
  // A link nobody made, or a made-up one, is not known.
  CHECK(client.Get(("/confirm/" + auth::random_secret()).c_str())->status == 404);

  // Another address lets its link expire: it is refused and offers to sign up again.
  REQUIRE(post_same_origin(client, "/subscribe", "email=late%40example.com")->status == 303);
  const auto both = sink.wait_for(2);
  REQUIRE(both.size() == 2);
  const auto late = test::link_starting(test::mail_part(both[1], "text/plain"), base + "/confirm/");
  site.store().write([](sql::Db &db) {
    db.exec("UPDATE subscribers SET confirm_expires_at = 0 WHERE email = 'late@example.com'");
  });
  const auto expired = client.Get(path_of(late).c_str());
  CHECK(expired->status == 410);
  CHECK(test::visible_text(expired->body).find("expired") != std::string::npos);
  CHECK(expired->body.find("href=\"/subscribe\"") != std::string::npos);
  CHECK(post_same_origin(client, path_of(late))->status == 410);
  CHECK(status_of(site.store(), "late@example.com") == "pending");

  // A confirmed address signing up again hears the same and is sent nothing.
  const auto repeat = post_same_origin(client, "/subscribe", "email=reader%40example.com");
  CHECK(repeat->status == 303);
  CHECK(repeat->get_header_value("Location").rfind("/subscribed?m=", 0) == 0);
  CHECK(test::confirmations_waiting(site.store()) == 0);
}

TEST_CASE("digest: one click on the List-Unsubscribe header of a received mail unsubscribes, "
          "and the link's page can undo it") {
  MailingSite mailing;
  auto &sink = mailing.sink;
  auto &site = mailing.site;
  auto client = site.client();
  REQUIRE(post_same_origin(client, "/subscribe", "email=reader%40example.com")->status == 303);
  const auto mails = sink.wait_for(1);
  REQUIRE(mails.size() == 1);
  const auto header = test::mail_header(mails[0], "List-Unsubscribe");
  const auto base = "http://127.0.0.1:" + std::to_string(site.port());
  const auto url = header.substr(1, header.find('>') - 1);
  REQUIRE(url.rfind(base + "/unsubscribe/", 0) == 0);
  CHECK(header.find("<mailto:" + std::string(kFrom) + "?subject=unsubscribe%20" +
                    url.substr(url.rfind('/') + 1) + ">") != std::string::npos);
  const auto path = path_of(url);
  const auto confirm =
      path_of(test::link_starting(test::mail_part(mails[0], "text/plain"), base + "/confirm/"));
  REQUIRE(post_same_origin(client, confirm)->status == 200);
  CHECK(status_of(site.store(), "reader@example.com") == "confirmed");

  // As a mail provider sends it (RFC 8058): from no page of this site.
  const httplib::Headers foreign{{"Origin", "https://mail.example"},
                                 {"Sec-Fetch-Site", "cross-site"}};
  const auto wrong = client.Post(path.c_str(), foreign, "List-Unsubscribe=Please",
                                 "application/x-www-form-urlencoded");
  CHECK(wrong->status == 400);
  CHECK(status_of(site.store(), "reader@example.com") == "confirmed");
  const auto clicked = client.Post(path.c_str(), foreign, "List-Unsubscribe=One-Click",
                                   "application/x-www-form-urlencoded");
  REQUIRE(clicked);
  CHECK(clicked->status == 200);
  CHECK(status_of(site.store(), "reader@example.com") == "unsubscribed");
  CHECK(test::confirmations_waiting(site.store()) == 0);

  // Whoever types the address into the form gets the usual answer, and no mail goes to it.
  const auto again = post_same_origin(client, "/subscribe", "email=reader%40example.com");
  CHECK(again->status == 303);
  CHECK(again->get_header_value("Location").rfind("/subscribed?m=", 0) == 0);
  CHECK(test::confirmations_waiting(site.store()) == 0);
  CHECK(status_of(site.store(), "reader@example.com") == "unsubscribed");

  // The link in the body unsubscribes in one request too, and its page offers the undo.
  REQUIRE(test::resubscribe(site.store(), site.store().all_subscribers().at(0).id) ==
          Resubscription::confirmed);
  const auto opened = client.Get(path.c_str());
  CHECK(opened->status == 200);
  CHECK(opened->get_header_value("Cache-Control") == "no-store");
  CHECK(test::visible_text(opened->body).find("You are unsubscribed") != std::string::npos);
  CHECK(status_of(site.store(), "reader@example.com") == "unsubscribed");
  REQUIRE(opened->body.find("action=\"" + path + "/undo\"") != std::string::npos);
  const auto undone = post_same_origin(client, path + "/undo");
  CHECK(undone->status == 200);
  CHECK(test::visible_text(undone->body).find("You're back on the list") != std::string::npos);
  CHECK(status_of(site.store(), "reader@example.com") == "confirmed");
  // A HEAD (a link checker) changes nothing.
  CHECK(client.Head(path.c_str())->status == 200);
  CHECK(status_of(site.store(), "reader@example.com") == "confirmed");
  // multipart/form-data, as RFC 8058 prefers.
  const httplib::MultipartFormDataItems items = {{"List-Unsubscribe", "One-Click", "", ""}};
  const auto multipart = client.Post(path.c_str(), foreign, items);
  CHECK(multipart->status == 200);
  CHECK(status_of(site.store(), "reader@example.com") == "unsubscribed");

  // A forged or shortened token unsubscribes nobody.
  auto forged = path;
  forged.back() = forged.back() == 'a' ? 'b' : 'a';
  REQUIRE(test::resubscribe(site.store(), site.store().all_subscribers().at(0).id) ==
          Resubscription::confirmed);
  CHECK(client.Get(forged.c_str())->status == 404);
  CHECK(client
            .Post(forged.c_str(), foreign, "List-Unsubscribe=One-Click",
                  "application/x-www-form-urlencoded")
            ->status == 404);
  CHECK(client.Get("/unsubscribe/1-abc")->status == 404);
  CHECK(status_of(site.store(), "reader@example.com") == "confirmed");
}

namespace {

// A site file with the bundled content, every comparison published today, and subscribers
// in each status; returns its path.
std::string digest_site(const test::TempDir &dir, const std::vector<std::string> &confirmed,
                        const std::vector<std::string> &others = {"pending@example.com",
                                                                  "left@example.com"}) {
  const auto path = (dir.path / "site.db").string();
  auto store = open_site_database(path);
  for (const auto &email : confirmed)
    test::request_subscription(*store, email, unix_now());
  for (const auto &email : others)
    test::request_subscription(*store, email, unix_now());
  const auto list = [](const std::vector<std::string> &emails) {
    std::string quoted;
    for (const auto &email : emails)
      quoted += (quoted.empty() ? "'" : ", '") + email + "'";
    return quoted;
  };
  store->write([&](sql::Db &db) {
    db.exec("UPDATE comparisons SET published_on = date('now'), bottom_line = 'Ship <A> & B''s' "
            "WHERE published_on IS NOT NULL");
    db.exec("UPDATE subscribers SET status = 'confirmed' WHERE email IN (" + list(confirmed) + ")");
    db.exec("UPDATE subscribers SET status = 'unsubscribed' WHERE email = 'left@example.com'");
  });
  return path;
}

std::vector<std::string> digest_args(const std::string &db, const std::string &smtp) {
  return {"digest", "--db",   db,    "--since",    "7d",           "--smtp",
          smtp,     "--from", kFrom, "--base-url", test::kSiteBase};
}

std::vector<std::string> addresses(int n) {
  std::vector<std::string> all;
  for (int i = 1; i <= n; ++i)
    all.push_back("reader" + std::to_string(i) + "@example.com");
  return all;
}

} // namespace

TEST_CASE("digest: verdict digest reaches confirmed addresses only, once, with the comparisons "
          "and a working one-click unsubscribe") {
  test::TempDir dir;
  const auto db = digest_site(dir, {"ada@example.com", "bob@example.com"});
  test::SmtpSink sink(dir.path / "mail");
  std::string said;
  REQUIRE(test::run_binary(digest_args(db, sink.url()), &said) == 0);
  INFO(said);
  CHECK(said.find("5 comparisons") != std::string::npos);
  CHECK(said.find("sent 2/2") != std::string::npos); // the progress line
  CHECK(said.find("Sent 2 of 2.") != std::string::npos);
  const auto mails = sink.messages();
  REQUIRE(mails.size() == 2);
  CHECK(sink.recipients() == std::vector<std::string>{"ada@example.com", "bob@example.com"});
  const auto text = test::mail_part(mails[0], "text/plain");
  const auto html = test::mail_part(mails[0], "text/html");
  CHECK(test::mail_header(mails[0], "To") == "<ada@example.com>");
  CHECK(test::mail_header(mails[0], "Subject") ==
        "=?UTF-8?B?V2Vla2x5IEFJIFRvb2wgVmVyZGljdHMg4oCUIDUgbmV3IGNv?= =?UTF-8?B?bXBhcmlzb25z?=");
  CHECK(text.find("Cursor Background Agent vs Codestral 2.1") != std::string::npos);
  CHECK(text.find(test::kSiteBase + "/compare/cursor-background-agent-vs-codestral-2-1") !=
        std::string::npos);
  CHECK(text.find("Too few reader votes to say") != std::string::npos); // the verdict at a glance
  CHECK(html.find("href=\"" + test::kSiteBase + "/compare/") != std::string::npos);
  // The editor's words as they are in the text, escaped in the HTML.
  CHECK(text.find("Editor's bottom line: Ship <A> & B's") != std::string::npos);
  CHECK(html.find("Ship &lt;A&gt; &amp; B&apos;s") != std::string::npos);
  CHECK(html.find("<A>") == std::string::npos);

  // Run again: everyone has this digest, and nothing new was published; nothing is sent.
  REQUIRE(test::run_binary(digest_args(db, sink.url()), &said) == 0);
  CHECK(said.find("Nothing new was published in the last 7 days") != std::string::npos);
  CHECK(sink.messages().size() == 2);

  // The mail's one-click header works on the site that serves the same database.
  const auto header = test::mail_header(mails[1], "List-Unsubscribe");
  const auto path = path_of(header.substr(1, header.find('>') - 1));
  test::SiteServer site(db);
  auto client = site.client();
  const auto clicked =
      client.Post(path.c_str(), {{"Sec-Fetch-Site", "cross-site"}}, "List-Unsubscribe=One-Click",
                  "application/x-www-form-urlencoded");
  CHECK(clicked->status == 200);
  CHECK(status_of(site.store(), "bob@example.com") == "unsubscribed");
  CHECK(status_of(site.store(), "ada@example.com") == "confirmed");
}

TEST_CASE("digest: a mail server that fails midway, then a rerun, delivers each address exactly "
          "once") {
  // Failures that certainly delivered nothing: a refusal, a connection dropped before the
  // message went out.
  const auto failure = GENERATE(as<std::string>{}, "4xx", "drop-before-data");
  INFO(failure);
  test::TempDir dir;
  const auto everyone = addresses(7);
  const auto db = digest_site(dir, everyone);
  std::string said;
  {
    test::SmtpSink failing(dir.path / "first", {"--fail-after", "3", "--fail-with", failure});
    CHECK(test::run_binary(digest_args(db, failing.url()), &said) == 1);
    INFO(said);
    CHECK(said.find("Sent 3 of 7.") != std::string::npos);
    CHECK(said.find("4 sends failed") != std::string::npos);
    CHECK(said.find("Run the same command again") != std::string::npos);
    CHECK(failing.messages().size() == 3);
  }
  test::SmtpSink working(dir.path / "second");
  REQUIRE(test::run_binary(digest_args(db, working.url()), &said) == 0);
  INFO(said);
  CHECK(said.find("Sent 4 of 4.") != std::string::npos);
  std::vector<std::string> delivered;
  for (const auto &folder : {dir.path / "first", dir.path / "second"}) {
    std::ifstream log(folder / "envelopes.log");
    for (std::string line; std::getline(log, line);)
      delivered.push_back(line.substr(line.rfind(' ') + 1));
  }
  std::sort(delivered.begin(), delivered.end());
  auto expected = everyone;
  std::sort(expected.begin(), expected.end());
  CHECK(delivered == expected); // each once: none missing, none twice
  CHECK(test::run_binary(digest_args(db, working.url()), &said) == 0);
  CHECK(working.messages().size() == 4);
}

TEST_CASE("digest: a send interrupted by a run that died is not repeated") {
  test::TempDir dir;
  const auto db = digest_site(dir, {"ada@example.com", "bob@example.com"});
  {
    // A run made the digest and claimed ada's send, then died before it knew the outcome.
    Store store(db);
    const auto digest = test::record_digest(store, utc_today(), 7);
    const auto ada = digest.recipients.at(0);
    REQUIRE(ada.email == "ada@example.com");
    REQUIRE(test::claim_digest_send(store, digest.id, ada.id));
    CHECK_FALSE(test::claim_digest_send(store, digest.id, ada.id)); // one claim stands
  }
  test::SmtpSink sink(dir.path / "mail");
  std::string said;
  REQUIRE(test::run_binary(digest_args(db, sink.url()), &said) == 0);
  INFO(said);
  CHECK(said.find("1 send of this digest stopped midway") != std::string::npos);
  CHECK(sink.recipients() == std::vector<std::string>{"bob@example.com"});
}

TEST_CASE("digest: --dry-run writes one valid multipart .eml per recipient and records nothing") {
  test::TempDir dir;
  const auto db = digest_site(dir, {"ada@example.com", "bob@example.com"});
  const auto out = (dir.path / "out").string();
  std::string said;
  REQUIRE(test::run_binary({"digest", "--db", db, "--since", "7d", "--from", kFrom, "--base-url",
                            test::kSiteBase, "--dry-run", out},
                           &said) == 0);
  INFO(said);
  CHECK(said.find("wrote 2 mails") != std::string::npos);
  std::vector<fs::path> files;
  for (const auto &entry : fs::directory_iterator(out))
    files.push_back(entry.path());
  REQUIRE(files.size() == 2);
  for (const auto &file : files) {
    INFO(file);
    CHECK(file.extension() == ".eml");
    const auto message = test::read_file(file.string());
    for (const auto &line : lines_of(message))
      CHECK(line.size() <= 998);
    for (const auto *header : {"Date", "Message-ID", "From", "To", "Subject", "MIME-Version",
                               "List-Unsubscribe", "List-Unsubscribe-Post", "Content-Type"})
      CHECK(!test::mail_header(message, header).empty());
    const auto type = test::mail_header(message, "Content-Type");
    REQUIRE(type.rfind("multipart/alternative; boundary=\"", 0) == 0);
    const auto boundary = type.substr(type.find('"') + 1, type.rfind('"') - type.find('"') - 1);
    CHECK(message.find("\r\n--" + boundary + "\r\nContent-Type: text/plain; charset=utf-8") !=
          std::string::npos);
    CHECK(message.find("\r\n--" + boundary + "\r\nContent-Type: text/html; charset=utf-8") !=
          std::string::npos);
    CHECK(message.find("\r\n--" + boundary + "--\r\n") != std::string::npos);
    const auto text = test::mail_part(message, "text/plain");
    CHECK(text.rfind("Weekly AI Tool Verdicts\r\nPublished in the last 7 days", 0) == 0);
    // The signature's separator is "-- " with its space, as mail programs look for it.
    CHECK(text.find("\r\n-- \r\nYou get this because") != std::string::npos);
    CHECK(text.find("Unsubscribe in one click: " + test::kSiteBase + "/unsubscribe/") !=
          std::string::npos);
  }
  // Nothing was recorded: a real run still sends to both.
  test::SmtpSink sink(dir.path / "mail");
  REQUIRE(test::run_binary(digest_args(db, sink.url()), &said) == 0);
  CHECK(sink.messages().size() == 2);
}

TEST_CASE("digest: with nothing published in the window it says so and sends nothing") {
  test::TempDir dir;
  const auto db = digest_site(dir, {"ada@example.com"});
  {
    Store store(db);
    store.write([](sql::Db &db_) {
      db_.exec("UPDATE comparisons SET published_on = date('now', '-10 days') "
               "WHERE published_on IS NOT NULL");
    });
  }
  test::SmtpSink sink(dir.path / "mail");
  std::string said;
  REQUIRE(test::run_binary(digest_args(db, sink.url()), &said) == 0);
  CHECK(said.find("Nothing new was published in the last 7 days (a comparison goes out in one "
                  "digest only); no digest was sent.") != std::string::npos);
  CHECK(sink.messages().empty());
  // A longer window finds them.
  auto args = digest_args(db, sink.url());
  args[4] = "11d";
  REQUIRE(test::run_binary(args, &said) == 0);
  CHECK(sink.messages().size() == 1);
}

TEST_CASE("digest: the SMTP login's password comes from the environment") {
  test::TempDir dir;
  const auto db = digest_site(dir, {"ada@example.com"});
  test::SmtpSink sink(dir.path / "mail", {"--login", "mailer:a long secret"});
  auto args = digest_args(db, sink.url());
  args.insert(args.end(), {"--smtp-user", "mailer"});
  std::string said;
  CHECK(test::run_binary(args, &said, "/dev/null", {"VERDICT_SMTP_PASSWORD=wrong"}) == 1);
  CHECK(sink.messages().empty());
  CHECK(test::run_binary(args, &said) == 2); // no password at all: refused before sending
  CHECK(said.find("VERDICT_SMTP_PASSWORD") != std::string::npos);
  REQUIRE(test::run_binary(args, &said, "/dev/null", {"VERDICT_SMTP_PASSWORD=a long secret"}) == 0);
  CHECK(sink.recipients() == std::vector<std::string>{"ada@example.com"});
}

namespace {

// Publishes today a pair of tools no comparison held yet; returns its title as mails write it
// ("A vs B").
std::string publish_another_comparison(const std::string &db) {
  Store store(db);
  std::string title;
  store.write([&](sql::Db &db_) {
    db_.exec("INSERT INTO comparisons (tool_a_id, tool_b_id, published_on) "
             "SELECT a.id, b.id, date('now') FROM tools a JOIN tools b ON a.id < b.id "
             "WHERE NOT EXISTS (SELECT 1 FROM comparisons c WHERE min(c.tool_a_id, c.tool_b_id) "
             "= a.id AND max(c.tool_a_id, c.tool_b_id) = b.id) ORDER BY a.id, b.id LIMIT 1");
    auto added =
        db_.prepare("SELECT a.name || ' vs ' || b.name FROM comparisons c "
                    "JOIN tools a ON a.id = c.tool_a_id JOIN tools b ON b.id = c.tool_b_id "
                    "ORDER BY c.id DESC LIMIT 1");
    REQUIRE(added.step());
    title = added.text(0);
  });
  return title;
}

void set_newsletter_title(const std::string &db, const std::string &title) {
  Store store(db);
  store.write([&](sql::Db &db_) {
    db_.prepare("UPDATE settings SET value = :title WHERE key = 'newsletter_title'")
        .bind(":title", title)
        .run();
  });
}

const char *kFirstComparison = "Cursor Background Agent vs Codestral 2.1";

} // namespace

TEST_CASE("digest: a rerun sends the digest as it was first made: nothing more to those who got "
          "it, the same comparisons to the rest, and what was published since in the next one") {
  test::TempDir dir;
  const auto everyone = addresses(5);
  const auto db = digest_site(dir, everyone);
  std::string said, subject;
  {
    test::SmtpSink failing(dir.path / "first", {"--fail-after", "2"});
    CHECK(test::run_binary(digest_args(db, failing.url()), &said) == 1);
    INFO(said);
    CHECK(said.find("Sent 2 of 5.") != std::string::npos);
    REQUIRE(failing.messages().size() == 2);
    subject = test::mail_header(failing.messages()[0], "Subject");
  }
  // Published between the run that failed and its rerun, which the next day's date could
  // also bring into or out of the window.
  const auto added = publish_another_comparison(db);

  test::SmtpSink rerun(dir.path / "second");
  REQUIRE(test::run_binary(digest_args(db, rerun.url()), &said) == 0);
  INFO(said);
  CHECK(said.find("made by an earlier run") != std::string::npos);
  CHECK(rerun.recipients() == std::vector<std::string>(everyone.begin() + 2, everyone.end()));
  for (const auto &mail : rerun.messages()) {
    CHECK(test::mail_header(mail, "Subject") == subject); // "… — 5 new comparisons"
    const auto text = test::mail_part(mail, "text/plain");
    CHECK(text.find(kFirstComparison) != std::string::npos);
    CHECK(text.find(added) == std::string::npos);
  }

  // The next run makes a new digest of what no digest held: the new comparison alone, for
  // everyone.
  test::SmtpSink next(dir.path / "third");
  REQUIRE(test::run_binary(digest_args(db, next.url()), &said) == 0);
  CHECK(said.find("1 comparison from the last 7 days, for 5 subscribers") != std::string::npos);
  CHECK(next.recipients() == everyone);
  for (const auto &mail : next.messages()) {
    const auto text = test::mail_part(mail, "text/plain");
    CHECK(text.find(added) != std::string::npos);
    CHECK(text.find(kFirstComparison) == std::string::npos);
  }
  // And then nothing is new.
  REQUIRE(test::run_binary(digest_args(db, next.url()), &said) == 0);
  CHECK(said.find("Nothing new was published") != std::string::npos);
  CHECK(next.messages().size() == 5);
}

TEST_CASE("digest: a send the server may have taken (the connection dropped after the whole "
          "message) is never sent again") {
  test::TempDir dir;
  const auto db = digest_site(dir, addresses(4));
  std::string said;
  {
    test::SmtpSink lost(dir.path / "first",
                        {"--fail-after", "2", "--fail-with", "drop-after-data"});
    CHECK(test::run_binary(digest_args(db, lost.url()), &said) == 1);
    INFO(said);
    CHECK(said.find("Sent 2 of 4.") != std::string::npos);
    CHECK(said.find("2 sends went out whole but the server never said whether it took them") !=
          std::string::npos);
    CHECK(said.find("none of them is sent again") != std::string::npos);
  }
  test::SmtpSink working(dir.path / "second");
  REQUIRE(test::run_binary(digest_args(db, working.url()), &said) == 0);
  INFO(said);
  CHECK(working.messages().empty());
}

TEST_CASE("digest: a send refused for good (5xx) is given up, so it holds back neither the rerun "
          "nor the next digest") {
  test::TempDir dir;
  const auto everyone = addresses(3);
  const auto db = digest_site(dir, everyone);
  std::string said;
  {
    test::SmtpSink refusing(dir.path / "first", {"--fail-after", "1", "--fail-with", "5xx"});
    CHECK(test::run_binary(digest_args(db, refusing.url()), &said) == 1);
    INFO(said);
    CHECK(said.find("Sent 1 of 3.") != std::string::npos);
    CHECK(said.find("2 sends failed") != std::string::npos);
    CHECK(said.find("550") != std::string::npos);
  }
  test::SmtpSink working(dir.path / "second");
  REQUIRE(test::run_binary(digest_args(db, working.url()), &said) == 0);
  CHECK(working.messages().empty());
  publish_another_comparison(db);
  REQUIRE(test::run_binary(digest_args(db, working.url()), &said) == 0);
  INFO(said);
  CHECK(working.recipients() == everyone);
}

TEST_CASE("digest: a send refused for now is owed to the next run and given up after five "
          "refusals, while a server that cannot be reached counts for nothing") {
  test::TempDir dir;
  const auto db = digest_site(dir, {"ada@example.com"});
  Store store(db);
  const auto digest = test::record_digest(store, utc_today(), 7);
  REQUIRE(digest.recipients.size() == 1);
  const auto ada = digest.recipients[0].id;
  for (int run = 0; run < 10; ++run) {
    REQUIRE(test::claim_digest_send(store, digest.id, ada));
    test::digest_send_failed(store, digest.id, ada, SendFailure::unreached, "could not connect");
  }
  for (int refusals = 1; refusals <= kDigestSendAttempts; ++refusals) {
    INFO(refusals);
    const auto again = test::record_digest(store, utc_today(), 7);
    CHECK(again.resumed);
    CHECK(again.id == digest.id);
    REQUIRE(again.recipients.size() == 1);
    REQUIRE(test::claim_digest_send(store, digest.id, ada));
    test::digest_send_failed(store, digest.id, ada, SendFailure::refused, "451 try again later");
  }
  // Given up: the digest is done, and nothing new was published for another.
  const auto after = test::record_digest(store, utc_today(), 7);
  CHECK_FALSE(after.resumed);
  CHECK(after.items.empty());
  CHECK_FALSE(test::claim_digest_send(store, digest.id, ada));
}

TEST_CASE("digest: a mail that cannot be made fails that send alone, claims nothing, and the "
          "rerun sends it") {
  test::TempDir dir;
  const auto db = digest_site(dir, {"ada@example.com", "bob@example.com"});
  // A title a content import of old could bring in, which no Subject may carry.
  set_newsletter_title(db, "Weekly\nVerdicts");
  test::SmtpSink sink(dir.path / "mail");
  std::string said;
  CHECK(test::run_binary(digest_args(db, sink.url()), &said) == 1);
  INFO(said);
  CHECK(said.find("2 sends failed (last: the mail could not be made: the subject holds a line "
                  "break or control character)") != std::string::npos);
  CHECK(sink.messages().empty());
  set_newsletter_title(db, "Weekly AI Tool Verdicts");
  REQUIRE(test::run_binary(digest_args(db, sink.url()), &said) == 0);
  CHECK(said.find("stopped midway") == std::string::npos);
  CHECK(sink.recipients() == std::vector<std::string>{"ada@example.com", "bob@example.com"});
}

TEST_CASE("digest: a confirmation mail that cannot be made waits its turn again and holds up "
          "none of the mails behind it") {
  MailingSite mailing;
  auto &site = mailing.site;
  auto client = site.client();
  // An address kept before addresses were checked, which no mail header can carry, owed its
  // mail first.
  test::request_subscription(site.store(), "old,list@example.com", unix_now() - 60);
  REQUIRE(post_same_origin(client, "/subscribe", "email=reader%40example.com")->status == 303);
  const auto mails = mailing.sink.wait_for(1);
  REQUIRE(mails.size() == 1);
  CHECK(mailing.sink.recipients() == std::vector<std::string>{"reader@example.com"});
  // The one that could not be made is owed still, a minute later, its failure counted.
  std::optional<ConfirmationDue> held;
  for (const auto &due : site.store().confirmations_due(unix_now() + 3600, 10))
    if (due.email == "old,list@example.com") held = due;
  REQUIRE(held);
  CHECK(held->attempts == 1);
  for (const auto &due : site.store().confirmations_due(unix_now(), 10))
    CHECK(due.email != "old,list@example.com");
}

TEST_CASE("digest: an import refuses a site title with a line break, so no mail header can carry "
          "one") {
  const auto refused = parse_content(
      R"({"site": {"newsletter_title": "Weekly\r\nBcc: victim@example.com",
                   "newsletter_lead": "Two lines\nare fine in a paragraph"}})");
  REQUIRE(refused.errors.size() == 1);
  CHECK(refused.errors[0] ==
        "site.newsletter_title: must be one line, without line breaks or control characters");
  CHECK(parse_content(R"({"site": {"site_name": "Verdict\u0007"}})").errors.size() == 1);
  CHECK(parse_content(R"({"site": {"site_name": "Verdict — é"}})").errors.empty());
}

TEST_CASE("digest: undoing an unsubscription gives back what the address was: one never "
          "confirmed stays unconfirmed, and an undo with nothing to undo says so") {
  MailingSite mailing;
  auto &site = mailing.site;
  auto client = site.client();
  REQUIRE(post_same_origin(client, "/subscribe", "email=reader%40example.com")->status == 303);
  const auto mails = mailing.sink.wait_for(1);
  REQUIRE(mails.size() == 1);
  const auto header = test::mail_header(mails[0], "List-Unsubscribe");
  const auto path = path_of(header.substr(1, header.find('>') - 1));
  const auto clicked =
      client.Post(path.c_str(), {{"Sec-Fetch-Site", "cross-site"}}, "List-Unsubscribe=One-Click",
                  "application/x-www-form-urlencoded");
  REQUIRE(clicked->status == 200);
  CHECK(status_of(site.store(), "reader@example.com") == "unsubscribed");

  const auto undone = post_same_origin(client, path + "/undo");
  CHECK(undone->status == 200);
  const auto said = test::visible_text(undone->body);
  CHECK(said.find("Waiting for confirmation again") != std::string::npos);
  CHECK(said.find("back on the list") == std::string::npos);
  CHECK(status_of(site.store(), "reader@example.com") == "pending");
  CHECK(undone->body.find("href=\"/subscribe\"") != std::string::npos);

  const auto twice = post_same_origin(client, path + "/undo");
  CHECK(twice->status == 200);
  CHECK(test::visible_text(twice->body).find("Nothing to undo") != std::string::npos);
  CHECK(status_of(site.store(), "reader@example.com") == "pending");
}

TEST_CASE("digest: one-click unsubscribe reads its body as a form: a line end after the value or "
          "another field does not matter") {
  test::SiteServer site;
  auto client = site.client();
  test::request_subscription(site.store(), "reader@example.com", unix_now());
  const auto id = site.store().all_subscribers().at(0).id;
  const auto path =
      "/unsubscribe/" +
      auth::unsubscribe_token(site.store().site_secret("unsubscribe", auth::random_secret()), id,
                              "reader@example.com");
  const httplib::Headers foreign{{"Sec-Fetch-Site", "cross-site"}};
  for (const auto *body :
       {"List-Unsubscribe=One-Click\r\n", "List-Unsubscribe=One-Click\n",
        "List-Unsubscribe=One-Click&utm=mail", "x=1&List-Unsubscribe=One-Click"}) {
    INFO(body);
    const auto res = client.Post(path.c_str(), foreign, body, "application/x-www-form-urlencoded");
    CHECK(res->status == 200);
    CHECK(status_of(site.store(), "reader@example.com") == "unsubscribed");
    test::resubscribe(site.store(), id);
  }
  const auto wrong = client.Post(path.c_str(), foreign, "List-Unsubscribe=Please\r\n",
                                 "application/x-www-form-urlencoded");
  CHECK(wrong->status == 400);
  CHECK(status_of(site.store(), "reader@example.com") == "pending");
}

TEST_CASE("digest: links in mails must be https, but for a site on this machine") {
  const auto digest_with = [](const std::string &base) {
    return parsed_options({"digest", "--db", "x.db", "--since", "7d", "--from", kFrom, "--dry-run",
                           "out", "--base-url", base});
  };
  CHECK(digest_with("http://verdict.example").error.find("must be https://") != std::string::npos);
  CHECK(digest_with("http://localhost.verdict.example").error.find("must be https://") !=
        std::string::npos);
  for (const auto *allowed : {"https://verdict.example", "http://127.0.0.1:8080",
                              "http://localhost", "http://[::1]:8080"}) {
    INFO(allowed);
    CHECK(digest_with(allowed).error.empty());
  }
  // The server that mails, the same; one that does not may name any address.
  CHECK(parsed_options({"--smtp", "smtp://127.0.0.1:25", "--smtp-from", kFrom, "--base-url",
                        "http://verdict.example"})
            .error.find("must be https://") != std::string::npos);
  CHECK(parsed_options({"--base-url", "http://verdict.example"}).error.empty());
}

TEST_CASE("digest: header text that is not UTF-8 is encoded whole, in words of bounded size") {
  for (const auto &text : {std::string(40, '\x80'), "Verdicts " + std::string(100, '\xBF'),
                           std::string(3, '\xE2') + std::string(70, '\x82')}) {
    const auto encoded = encoded_header_text(text);
    size_t words = 0, at = 0;
    while ((at = encoded.find("=?UTF-8?B?", at)) != std::string::npos) {
      const auto end = encoded.find("?=", at + 10);
      REQUIRE(end != std::string::npos);
      CHECK(end + 2 - at <= 75);
      ++words;
      at = end;
    }
    CHECK(words == (text.size() + 35) / 36);
  }
}

TEST_CASE("digest: a confirmation mail refused for good, or too often, is given up, and the "
          "desk's list says why") {
  const auto how = GENERATE(as<std::string>{}, "5xx", "4xx");
  INFO(how);
  test::TempDir dir;
  test::SmtpSink sink(dir.path / "mail", {"--fail-after", "0", "--fail-with", how});
  test::SiteServer site(mail_through(sink));
  auto client = site.client();
  if (how == "4xx") { // tried every time but once already; another sign-up wakes the mailer
    site.store().write([](sql::Db &db) {
      db.exec("INSERT INTO subscribers (email) VALUES ('reader@example.com');"
              "INSERT INTO confirmation_outbox (subscriber_id, attempts, next_attempt_at) "
              "VALUES (last_insert_rowid(), " +
              std::to_string(kConfirmationAttempts - 1) + ", 0);");
    });
    REQUIRE(post_same_origin(client, "/subscribe", "email=other%40example.com")->status == 303);
  } else {
    REQUIRE(post_same_origin(client, "/subscribe", "email=reader%40example.com")->status == 303);
  }
  // The first try fails, and is the last.
  std::string problem;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (problem.empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    for (const auto &listed : site.store().subscribers({1, 20}).items)
      if (listed.email == "reader@example.com") problem = listed.mail_problem;
  }
  INFO(problem);
  CHECK(problem.find(how == "5xx" ? "550" : "451") != std::string::npos);
  for (const auto &due : site.store().confirmations_due(unix_now() + 7 * 86400, 10))
    CHECK(due.email != "reader@example.com");

  test::add_editor(site.store(), "desk@example.com", auth::hash_password("a desk password"));
  const auto desk = test::sign_in_at_desk(client, "desk@example.com", "a desk password");
  const auto list = test::get_at_desk(client, desk, "/admin/subscribers");
  CHECK(test::visible_text(list->body).find("its confirmation mail was given up") !=
        std::string::npos);
}

TEST_CASE("digest: a sign-up, confirmation or undo over the write limit is told what it sent "
          "too many of") {
  test::SiteServer site(":memory:", 1);
  auto client = site.client();
  REQUIRE(post_same_origin(client, "/subscribe", "email=a%40example.com")->status == 303);
  const auto subscribe = post_same_origin(client, "/subscribe", "email=b%40example.com");
  CHECK(subscribe->status == 429);
  CHECK(test::visible_text(subscribe->body).find("Too many sign-ups from your network") !=
        std::string::npos);
  const auto confirm = post_same_origin(client, "/confirm/" + auth::random_secret());
  CHECK(confirm->status == 429);
  CHECK(test::visible_text(confirm->body).find("Too many confirmations") != std::string::npos);
  CHECK(test::visible_text(confirm->body).find("votes") == std::string::npos);
}

TEST_CASE("digest: with nobody confirmed no digest is made, so its comparisons wait for the first "
          "address that confirms") {
  test::TempDir dir;
  const auto db = digest_site(dir, {});
  test::SmtpSink sink(dir.path / "mail");
  std::string said;
  REQUIRE(test::run_binary(digest_args(db, sink.url()), &said) == 0);
  CHECK(said.find("Nobody has confirmed a subscription yet; no digest was made.") !=
        std::string::npos);
  {
    Store store(db);
    store.write([](sql::Db &db_) {
      db_.exec("UPDATE subscribers SET status = 'confirmed' WHERE email = 'pending@example.com'");
    });
  }
  REQUIRE(test::run_binary(digest_args(db, sink.url()), &said) == 0);
  INFO(said);
  CHECK(said.find("5 comparisons") != std::string::npos);
  CHECK(sink.recipients() == std::vector<std::string>{"pending@example.com"});
}

namespace {

// A sign-up from `from` (X-Forwarded-For), answered as every sign-up is: 303 to /subscribed.
void sign_up_from(httplib::Client &client, const std::string &email, const std::string &from) {
  const auto res = test::post_form(client, "/subscribe",
                                   "email=" + httplib::detail::encode_query_param(email), "", from);
  REQUIRE(res);
  CHECK(res->status == 303);
  CHECK(res->get_header_value("Location").rfind("/subscribed?m=", 0) == 0);
}

// How many of `recipients` end with `suffix`.
size_t ending_with(const std::vector<std::string> &recipients, const std::string &suffix) {
  return static_cast<size_t>(
      std::count_if(recipients.begin(), recipients.end(), [&](const auto &r) {
        return r.size() >= suffix.size() &&
               r.compare(r.size() - suffix.size(), suffix.size(), suffix) == 0;
      }));
}

// The mails once `count` have arrived and nothing more is owed.
std::vector<std::string> delivered(MailingSite &mailing, size_t count) {
  mailing.sink.wait_for(count);
  for (int i = 0; i < 100 && test::confirmations_waiting(mailing.site.store()) > 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return mailing.sink.recipients();
}

} // namespace

TEST_CASE("digest: thirty plus-addressed sign-ups for one inbox send it its ration of mails, keep "
          "nothing past it, and a reader elsewhere still gets theirs") {
  MailingSite mailing;
  auto client = mailing.site.client();
  // Each from a network of its own: the mailbox's ration is what holds.
  for (int i = 1; i <= 30; ++i)
    sign_up_from(client, "victim+" + std::to_string(i) + "@example.com",
                 "10." + std::to_string(i) + ".0.1");
  sign_up_from(client, "reader@example.org", "198.51.100.1");
  const auto ration = static_cast<size_t>(kConfirmationMailsPerMailbox);
  const auto recipients = delivered(mailing, ration + 1);
  CHECK(recipients.size() == ration + 1);
  CHECK(ending_with(recipients, "@example.com") == ration);
  CHECK(std::count(recipients.begin(), recipients.end(), "reader@example.org") == 1);
  CHECK(status_of(mailing.site.store(), "victim+1@example.com") == "pending");
  CHECK(status_of(mailing.site.store(), "victim+30@example.com") == "absent");
  CHECK(test::confirmations_waiting(mailing.site.store()) == 0);
}

TEST_CASE("digest: made-up names at one domain use up only their own network's share of it, "
          "the sender past a share is told when to try again, a reader elsewhere gets their "
          "mail, and the desk counts what was turned away") {
  MailingSite mailing;
  auto client = mailing.site.client();
  const auto sign_up = [&](const std::string &email, const std::string &from) {
    const auto res = test::post_form(
        client, "/subscribe", "email=" + httplib::detail::encode_query_param(email), "", from);
    REQUIRE(res);
    return std::make_shared<httplib::Response>(*res);
  };
  const int64_t over = 2, networks = 3;
  // Three networks signing up made-up names at one domain: each network has its own share.
  for (int64_t n = 1; n <= networks; ++n)
    for (int64_t i = 0; i < kConfirmationMailsPerDomainPerNetwork + over; ++i) {
      const auto from = "10." + std::to_string(n) + ".0." + std::to_string(i + 1);
      const auto res =
          sign_up("p" + std::to_string(n) + "x" + std::to_string(i) + "@bombed.example", from);
      INFO("network " << n << ", sign-up " << i);
      if (i < kConfirmationMailsPerDomainPerNetwork) {
        CHECK(res->status == 303);
        continue;
      }
      CHECK(res->status == 429);
      const auto wait = std::stoll(res->get_header_value("Retry-After"));
      CHECK(wait > 0);
      CHECK(wait <= kConfirmationDomainAndNetworkWindowSeconds);
      const auto text = test::visible_text(res->body);
      CHECK(text.find("No confirmation mail went out, and the address was not kept") !=
            std::string::npos);
      CHECK(text.find("addresses at bombed.example") != std::string::npos);
      CHECK(text.find(" UTC (in ") != std::string::npos);
    }
  // A real reader of that domain, elsewhere: not starved by the strangers.
  CHECK(sign_up("reader@bombed.example", "198.51.100.1")->status == 303);
  // One network (rotating inside its /24) signing up strangers on domains of their own.
  for (int64_t i = 0; i < kConfirmationMailsPerNetwork + over; ++i) {
    const auto res = sign_up("someone@domain" + std::to_string(i) + ".example",
                             "203.0.113." + std::to_string(i + 1));
    CHECK(res->status == (i < kConfirmationMailsPerNetwork ? 303 : 429));
    if (i >= kConfirmationMailsPerNetwork)
      CHECK(test::visible_text(res->body).find(
                "sign-ups from your network have had their share of confirmation mail") !=
            std::string::npos);
  }
  const auto per_domain = static_cast<size_t>(kConfirmationMailsPerDomainPerNetwork * networks);
  const auto per_network = static_cast<size_t>(kConfirmationMailsPerNetwork);
  const auto recipients = delivered(mailing, per_domain + 1 + per_network);
  CHECK(recipients.size() == per_domain + 1 + per_network);
  CHECK(ending_with(recipients, "@bombed.example") == per_domain + 1);
  CHECK(std::count(recipients.begin(), recipients.end(), "reader@bombed.example") == 1);
  CHECK(ending_with(recipients, ".example") - ending_with(recipients, "@bombed.example") ==
        per_network);
  CHECK(status_of(mailing.site.store(), "p1x" +
                                            std::to_string(kConfirmationMailsPerDomainPerNetwork) +
                                            "@bombed.example") == "absent");
  // The desk says how many each ration turned away.
  test::add_editor(mailing.site.store(), test::kEditorEmail,
                   auth::hash_password(test::kEditorPassword));
  const auto session = test::sign_in_at_desk(client, test::kEditorEmail, test::kEditorPassword);
  const auto desk = test::get_at_desk(client, session, "/admin/subscribers");
  REQUIRE(desk);
  const auto lead = test::visible_text(desk->body);
  CHECK(lead.find("turned away " + std::to_string(networks * over + over) + " sign-ups") !=
        std::string::npos);
  CHECK(lead.find(std::to_string(over) + " past their network's hourly share, " +
                  std::to_string(networks * over) + " past their network's share for one domain") !=
        std::string::npos);
}
