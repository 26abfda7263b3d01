// Shared test fixtures: a seeded in-memory site, a real server on an ephemeral port, the
// golden seed pages, and helpers to read a page the way a reader does (its visible text).
#pragma once

#include <httplib.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app/confirmation_mailer.h"
#include "middleware/app.h"
#include "render/views.h"
#include "store/store.h"
#include "store_writes.h"
#include "transport/connection_server.h"

namespace verdict::test {

// What many tests name: the bundled comparison, the site's address in feeds and mail, the
// desk's editor as tests sign in, and two voters' cookies.
// How a queued write ended, as the tests read it: nothing when it was written, else why not.
inline std::optional<std::string> failure_of(const WriteResult &ended) {
  return ended.done() ? std::nullopt : std::optional(ended.words);
}

// The cluster's entry at `sequence` applied to `store` as a node applies it (store/apply_write.h
// apply_entry), waited for: how the entry ended, and how each of its writes did. `id`: the
// entry's id in the stream ("entry-SEQUENCE" unless given).
struct EntryApplied {
  WriteResult entry;
  std::vector<WriteResult> writes;
};
EntryApplied apply_entry_now(Store &store, uint64_t sequence,
                             std::vector<std::pair<Write, WriteContext>> writes,
                             std::string id = {});

// The desk's sign-in throttle driven as the desk drives it (handlers/desk_sign_in.cpp): each
// try charged before its password is checked. How long a try now would be held back (asked
// by a charge, taken back); a wrong password; a right one.
auth::SignInThrottle::Wait
held_back(auth::SignInThrottle &throttle, std::string_view network, std::string_view account,
          std::string_view device = {},
          auth::SignInThrottle::Clock::time_point now = auth::SignInThrottle::Clock::now());
void wrong_password(
    auth::SignInThrottle &throttle, std::string_view network, std::string_view account,
    std::string_view device = {},
    auth::SignInThrottle::Clock::time_point now = auth::SignInThrottle::Clock::now());
void right_password(
    auth::SignInThrottle &throttle, std::string_view network, std::string_view account,
    std::string_view device = {},
    auth::SignInThrottle::Clock::time_point now = auth::SignInThrottle::Clock::now());

inline const std::string kBundledPair = "cursor-background-agent-vs-codestral-2-1";
inline const std::string kBundledComparison = "/compare/" + kBundledPair;
inline const std::string kSiteBase = "https://verdict.example";
inline const std::string kEditorEmail = "editor@example.com";
inline const std::string kEditorPassword = "a long desk password";
inline const std::string kVoter1 = "11111111111111111111111111111111";
inline const std::string kVoter2 = "22222222222222222222222222222222";

// A store on a fresh in-memory database holding the bundled seed content.
std::unique_ptr<Store> seeded_store();

// What tests read of the store that no page reads in this form, each made of the store's
// public calls only: the product needs no Store member for it.
// Every review of the tool, in panel order, read from the content export.
std::vector<Review> reviews_of_tool(Store &store, const std::string &tool_slug);
// The picks standing on the pair, with `a_id`'s as a, as the pair's page reads them.
PairTally pair_tally(Store &store, int64_t a_id, int64_t b_id);
// Every subscriber's address, in the order they subscribed.
std::vector<std::string> subscriber_emails(Store &store);
// Confirmation mails owed and not given up, whether due now or later.
int64_t confirmations_waiting(Store &store);
// How the writer's connection commits, read back from SQLite itself.
struct Durability {
  std::string journal_mode; // "wal" for a file database
  int synchronous = 0;      // 2 = FULL: every commit is synced before it is acknowledged
};
Durability durability(Store &store);
// The version every database is upgraded to when opened: one per embedded schema migration.
int latest_schema_version();

// The page's text as a reader sees it: tags removed, entities decoded, whitespace collapsed.
std::string visible_text(const std::string &html);
// The HTML with its character references decoded and its tags kept (attributes included).
std::string decode_entities(const std::string &html);

// The golden seed pages in tests/golden/: file names in order, and a file's non-empty lines.
std::vector<std::string> golden_files();
std::vector<std::string> golden_lines(const std::string &file_name);

// Whether `errors` holds exactly this message.
bool has_error(const std::vector<std::string> &errors, const std::string &message);

// A file in the source tree, read whole; throws when it cannot be read.
std::string source_file(const std::string &relative_path);
// A whole file's bytes.
std::string read_file(const std::string &path);

// The site served through the real route table on 127.0.0.1 and an ephemeral port. The
// constructor returns once the server accepts connections, so the destructor's stop() can
// never miss a server that has not started yet.
class SiteServer {
public:
  // Every test server takes 127.0.0.1 as its trusted proxy unless told otherwise, so a test
  // names the address a reader comes from in X-Forwarded-For (post_form's `from`).
  explicit SiteServer(const std::string &db_path = ":memory:", int writes_per_minute = 0,
                      const std::string &trusted_proxy = "127.0.0.1");
  // `configure` changes the App (its clock, say) before any server thread can read it.
  explicit SiteServer(const std::function<void(App &)> &configure);
  // `configure` sets the site's views too (its public address, say), before serving.
  explicit SiteServer(const std::function<void(App &, Views &)> &configure);
  // Sending confirmation mails through `mail` (its base_url is left to the server: its own
  // address), as `verdict serve --smtp` does.
  explicit SiteServer(const MailSetup &mail);
  // With smaller budgets for costly answers and failed sign-ins than the site's, to reach them.
  explicit SiteServer(const App::Budgets &budgets);
  // With the transport's limits (timeouts, connections) set by the test.
  explicit SiteServer(const transport::TransportLimits &limits, int writes_per_minute = 0,
                      const std::string &trusted_proxy = "127.0.0.1");
  // Served under a public address, as `--base-url` sets it ("https://verdict.example").
  struct BaseUrl {
    std::string url;
  };
  explicit SiteServer(const BaseUrl &base_url);
  ~SiteServer();
  httplib::Client client() const;
  int port() const { return port_; }
  Store &store() { return *store_; }
  App &app() { return *app_; }
  transport::ConnectionServer &server() { return server_; }

private:
  // Binds, runs `before_listening` (which may change the App: no server thread runs yet),
  // then serves.
  void start(const std::function<void()> &before_listening = {});

  std::unique_ptr<Store> store_;
  Views views_;
  std::unique_ptr<App> app_;
  transport::ConnectionServer server_;
  std::unique_ptr<ConfirmationMailer> mailer_;
  std::thread thread_;
  int port_ = 0;
};

// A reader's ballot for the store's vote calls: on a network of their own (so the counting
// rule counts every distinct voter), today, a minute after their page was made.
// A ballot of `voter` from `network` (their own when empty) inside `wider` (the network's
// own wider one when empty), cast on `day` (today when empty), a minute after its page.
Ballot ballot_of(const std::string &voter, const std::string &network = "",
                 const std::string &day = "", const std::string &wider = "");

// Value of the voter cookie a response set, or empty.
std::string cookie_from(const httplib::Result &result);

// A POST of a form as the site's own page sends it (same-origin), optionally as a voter, and
// from the address `from` (X-Forwarded-For: a server trusting 127.0.0.1 as its proxy takes it).
// A vote with no `from` comes from an address of the voter's own, the same for each voter, on
// a network of its own, so a test server trusting 127.0.0.1 counts every distinct voter.
// A vote (a path ending in /vote) is sent as a reader sends it: its page is read first (as the
// voter), the form's token taken from it and sent along, and the test servers' clock moved on
// so the vote is not sooner after its page than a person reads (kSecondsToReadAPage).
httplib::Result post_form(httplib::Client &client, const std::string &path, const std::string &body,
                          const std::string &voter = "", const std::string &from = "");
// The token of the vote form posting to `action` in `html`; empty when none.
std::string vote_token_in(const std::string &html, const std::string &action);
// The token of the vote form posting to `path`, read from its page as `voter` sees it, with
// the test servers' clock moved on past the reading time; empty when the page has none.
std::string vote_token_for(httplib::Client &client, const std::string &path,
                           const std::string &voter = "");

// An editor signed in at the desk through its sign-in form: the session's cookie header value
// and the CSRF token the desk's forms carry. REQUIREs that signing in works.
struct DeskSession {
  std::string cookie; // "verdict_session=…"
  std::string csrf;
};
DeskSession sign_in_at_desk(httplib::Client &client, const std::string &email,
                            const std::string &password);
// A desk GET as that editor.
httplib::Result get_at_desk(httplib::Client &client, const DeskSession &session,
                            const std::string &path);
// A desk form as the editor's own desk page sends it: same-origin, with their session and
// `body` followed by the CSRF token.
httplib::Result post_at_desk(httplib::Client &client, const DeskSession &session,
                             const std::string &path, const std::string &body);
// The value of the hidden csrf field in a desk page; empty when none.
std::string csrf_in(const std::string &html);

// Runs the built verdict to completion (at most a minute) with `input_file` as its standard
// input and `env` ("NAME=value") added to its environment; returns its exit code, and what it
// printed on either stream in `output` when given.
int run_binary(const std::vector<std::string> &args, std::string *output = nullptr,
               const std::string &input_file = "/dev/null",
               const std::vector<std::string> &env = {});

// Starts `argv` (argv[0] a path) as a child that dies with the test (PR_SET_PDEATHSIG) and
// holds none of CTest's pipes: standard input is /dev/null, its output and errors go to the
// descriptors given (-1: /dev/null). Runs in `cwd` unless that is empty.
pid_t start_child(const std::vector<std::string> &argv, int out_fd, int err_fd,
                  const std::string &cwd = "");

// A mail server on 127.0.0.1 at an ephemeral port (tests/smtp/sink.py, on Debian's python3
// and aiosmtpd) that keeps each message it accepts as a file in `folder`. `options` are the
// sink's own (--fail-after N, --fail-with HOW, --login USER:PASSWORD: tests/smtp/sink.py). It dies
// with the test.
class SmtpSink {
public:
  explicit SmtpSink(const std::filesystem::path &folder,
                    const std::vector<std::string> &options = {});
  ~SmtpSink();
  SmtpSink(const SmtpSink &) = delete;
  SmtpSink &operator=(const SmtpSink &) = delete;
  int port() const { return port_; }
  std::string url() const { return "smtp://127.0.0.1:" + std::to_string(port_); }
  // Every message accepted so far, in the order they came.
  std::vector<std::string> messages() const;
  // The messages once there are at least `count` (waiting at most `seconds`).
  std::vector<std::string> wait_for(size_t count, int seconds = 20) const;
  // Each accepted message's recipients, in order ("a@x b@y" for one with two).
  std::vector<std::string> recipients() const;

private:
  std::filesystem::path folder_;
  int pid_ = -1;
  int port_ = 0;
};

// Reading a message as a mail program does: a header's value (unfolded; empty when absent),
// and a part of a multipart message with its quoted-printable decoded ("text/plain").
std::string mail_header(const std::string &message, const std::string &name);
std::string mail_part(const std::string &message, const std::string &content_type);
std::string quoted_printable_decoded(const std::string &encoded);
// The first address in `text` that starts with `prefix` ("http://127.0.0.1:5000/confirm/").
std::string link_starting(const std::string &text, const std::string &prefix);

// A folder under /tmp removed with everything in it at the end of the test.
struct TempDir {
  std::filesystem::path path;
  TempDir();
  ~TempDir();
};

// A small generated site (bench/generate_site.h), big enough that every list has several
// pages, the picker is past its limit and the most reviewed tool has more than 100 reviews
// (store/queries.h kFewReviews), written to `dir`/site.db; returns that path.
std::string write_generated_site(const TempDir &dir, uint64_t seed = 7);

// A database as the first Verdict made it (schema version 1), holding the rows `rows` (SQL)
// inserts, written to `dir`/site.db without opening it as a Store; returns that path.
std::string write_version_1_site(const TempDir &dir, const std::string &rows);

// A plain TCP connection to 127.0.0.1:port, for requests no HTTP client library would send.
class RawConnection {
public:
  // From 127.0.0.1, or from another loopback address (`from`, "127.0.0.2" say): a client of
  // its own to the server.
  explicit RawConnection(int port, const std::string &from = "");
  ~RawConnection();
  RawConnection(const RawConnection &) = delete;
  RawConnection &operator=(const RawConnection &) = delete;
  // Sends all of `bytes`, or as much as the server takes before it closes.
  void send(const std::string &bytes);
  // What the server sends until `marker` has arrived, it closes, or `seconds` pass.
  std::string read_until(const std::string &marker, int seconds = 5);
  // What the server sends until it closes or `seconds` pass.
  std::string read_all(int seconds = 5) { return read_until({}, seconds); }
  // The next bytes that arrive within `seconds`; empty once the server closed or was silent.
  std::string read_some(int seconds = 5);

private:
  int fd_ = -1;
};

// Sends raw bytes to 127.0.0.1:port and returns everything the server answers before it
// closes the connection or `seconds` pass.
std::string raw_exchange(int port, const std::string &bytes, int seconds = 5);

} // namespace verdict::test
