#include "app/server.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "app/cluster_command.h"
#include "app/cluster_node.h"
#include "app/confirmation_mailer.h"
#include "app/vote_log_clock.h"
#include "assets/embedded.h"
#include "domain/content.h"
#include "handlers/routes.h"
#include "middleware/guards.h"
#include "middleware/responses.h"
#include "render/views.h"
#include "store/apply_write.h"
#include "store/database_file.h"

namespace verdict {

std::unique_ptr<Store> open_site_database(const std::string &path, StartingContent starting,
                                          const Clock &clock) {
  struct stat info {};
  const bool fresh = path == ":memory:" || stat(path.c_str(), &info) != 0;
  auto store = std::make_unique<Store>(path, clock);
  if (fresh) {
    auto bundled = parse_content(embedded("content/verdict.json"));
    if (!bundled.errors.empty())
      throw std::runtime_error("bundled content is invalid: " + bundled.errors.front());
    if (starting == StartingContent::none) {
      Content site_copy_only;
      site_copy_only.site = bundled.content.site;
      bundled.content = site_copy_only;
    }
    throw_unless_done(
        apply(*store, ImportContent{bundled.content}, store->context_at(clock.now_ms())));
  }
  return store;
}

std::string why_no_site_is_made(const Options &options) {
  if (options.db == ":memory:" || std::filesystem::exists(options.db)) return {};
  if (!options.cluster.empty())
    return "a node of a cluster serves a copy of one site's file, and there is none at " +
           options.db +
           ": make it once with `verdict init`, and copy it to each node with `verdict backup` "
           "(docs/CLUSTER.md)";
  if (const auto leftovers = database_file::leftovers_of_a_site(options.db); !leftovers.empty()) {
    std::string listed;
    for (const auto &leftover : leftovers)
      listed += (listed.empty() ? "" : ", ") + leftover;
    return "there is no file at " + options.db + ", but a site was there: " + listed +
           " remain. Nothing was made: put the site's file back (a copy from `verdict backup`, "
           "or the newest .served- copy), or move these away and run `verdict init`";
  }
  if (!options.demo)
    return "there is no file at " + options.db + ": make a site with `" + options.program +
           " init --db " + options.db + "`, or serve the bundled demo with `" + options.program +
           " serve --demo` (a missing site is never "
           "made silently, so a file deleted or moved is noticed, not replaced by an empty site)";
  return {};
}

transport::TransportLimits transport_limits(int threads, const std::string &trusted_proxy) {
  transport::TransportLimits limits;
  limits.workers = static_cast<size_t>(threads);
  // Every reader behind them comes from their addresses.
  limits.unshared_clients = TrustedProxies(trusted_proxy);
  // Each connection is a descriptor: keep a margin for the database, logs and the listening
  // socket below the process's limit.
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY &&
      files.rlim_cur < limits.max_connections + 256)
    limits.max_connections = files.rlim_cur > 512 ? files.rlim_cur - 256 : 256;
  return limits;
}

namespace {

// Raises the soft limit on open descriptors to the hard one, so connections are bounded by
// the transport's own limit rather than by a low default.
void raise_descriptor_limit() {
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) != 0) return;
  files.rlim_cur = files.rlim_max;
  setrlimit(RLIMIT_NOFILE, &files);
}

// One server per database file: a second would answer from its own page cache and race the
// first for the writer's lock. flock(2) is separate from the POSIX locks SQLite takes; this
// descriptor stays open until the database is closed, because closing any descriptor of the
// file drops the process's POSIX locks on it.
class DatabaseLock {
public:
  explicit DatabaseLock(const std::string &path) : fd_(open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
    held_ = fd_ >= 0 && flock(fd_, LOCK_EX | LOCK_NB) == 0;
  }
  ~DatabaseLock() {
    if (fd_ >= 0) close(fd_);
  }
  DatabaseLock(const DatabaseLock &) = delete;
  DatabaseLock &operator=(const DatabaseLock &) = delete;
  bool held() const { return held_; }

private:
  int fd_;
  bool held_ = false;
};

// A node whose file has applied the stream before may start while the stream cannot answer.
cluster::StreamSettings node_stream_settings(Store &store, const Options &options) {
  auto settings = stream_settings(options, options.node);
  settings.may_start_unanswered = store.applied_sequence() > 0;
  return settings;
}

// Joins the cluster: catches up with the stream before serving anything, and follows it from
// then on (the App settles the site's secrets through it, so every node signs and checks vote
// tokens, sessions and links alike). Empty, having said why, when this node cannot serve.
std::unique_ptr<ClusterNode> join_cluster(Store &store, const Options &options,
                                          const Clock &clock) {
  try {
    auto node = std::make_unique<ClusterNode>(store, node_stream_settings(store, options),
                                              options.cluster_key_file, options.node, clock);
    bool stream_answered = true;
    try {
      if (const auto behind = node->follower.too_far_behind(); !behind.empty()) {
        std::cerr << "verdict: " << behind << "\n";
        return nullptr;
      }
      const auto applied = node->follower.catch_up();
      std::cerr << "verdict: node " << options.node << " has applied the cluster's writes up to "
                << store.applied_sequence() << " (" << applied << " just now)\n";
    } catch (const cluster::StreamUnavailable &e) {
      stream_answered = false;
      // A node that was one before serves what its file holds rather than nothing: its pages
      // may be behind (/healthz says so), its writes are refused, and its follower catches up
      // once the stream answers.
      if (store.applied_sequence() == 0) throw;
      std::cerr << "verdict: node " << options.node
                << " serves its file's pages, which may be behind, and refuses writes until the "
                   "cluster's stream answers: "
                << e.what() << "\n";
    }
    // A clock far behind the servers' would have every write skipped: said now, not served.
    // A report the servers were slow to answer is sent again for a while when the stream
    // seems to have a leader (a lone server left may still think it leads: so not for long);
    // without one, writes are refused anyway, and the follower measures the clock once it has.
    const bool stream_led = stream_answered && node->stream.why_not_writable().empty();
    const auto clock_behind =
        node->follower.check_clock(stream_led ? std::chrono::seconds(10) : std::chrono::seconds(0));
    if (!clock_behind.empty()) {
      std::cerr << "verdict: " << clock_behind << "\n";
      return nullptr;
    }
    node->follower.start();
    return node;
  } catch (const std::exception &e) {
    std::cerr << "verdict: cannot join the cluster at";
    for (const auto &server : options.cluster)
      std::cerr << " " << cluster::without_password(server);
    std::cerr << ": " << e.what() << "\n";
    return nullptr;
  }
}

// Every node's sign-in throttle counts every node's sign-ins: a guesser spreading tries over
// the nodes is held back as on one server.
// The news is sealed with the cluster's key like the stream's entries, so nobody without it
// can count failures against an editor's account (a lock handed to an attacker); news older
// than kNewsLifetime, or heard before, is dropped, so sealed news sent again does not either.
void share_sign_ins(auth::SignInThrottle &throttle, cluster::WriteStream &stream,
                    const cluster::ClusterKey &key) {
  constexpr int64_t kNewsLifetimeMs = 30'000;
  const auto now_ms = [] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  };
  throttle.share_with([&stream, &key, now_ms](const auth::SignInThrottle::Counted &counted) {
    stream.announce(key.seal(nlohmann::json{{"sign_in", counted.failed ? "failed" : "succeeded"},
                                            {"network", counted.network},
                                            {"account", counted.account},
                                            {"device", counted.device}}
                                 .dump(),
                             "news", now_ms()));
  });
  struct Heard {
    std::mutex mutex;
    std::map<std::string, int64_t> at; // each sealed news heard, by its text: when
  };
  auto heard = std::make_shared<Heard>();
  stream.listen([&throttle, &key, now_ms, heard](std::string_view sealed) {
    const auto opened = key.open(sealed, "news");
    const auto now = now_ms();
    if (!opened || std::abs(now - opened->sealed_at_ms) > kNewsLifetimeMs) return;
    {
      std::lock_guard lock(heard->mutex);
      std::erase_if(heard->at,
                    [now](const auto &seen) { return now - seen.second > 2 * kNewsLifetimeMs; });
      if (!heard->at.emplace(std::string(sealed), now).second) return;
    }
    const auto &news = opened->plain;
    const auto told = nlohmann::json::parse(news, nullptr, false);
    if (!told.is_object() || !told.contains("sign_in")) return; // news of a later version
    try {
      throttle.counted_elsewhere({told.at("sign_in") == "failed", told.at("network"),
                                  told.at("account"), told.at("device")});
    } catch (const nlohmann::json::exception &) {
    }
  });
}

} // namespace

// What a self-hoster needs to know on start, beside the address: where the desk is and
// whether anyone can sign in there, whether mail goes out, and whether the site knows its
// public address (without it, links that leave the site — badge snippets, feeds — are
// relative to whatever address a request came to).
std::string first_run_notes(const Options &options, int port, size_t editors) {
  std::string notes = "  The desk: http://" + options.bind + ":" + std::to_string(port) + "/admin";
  if (editors == 0)
    notes +=
        " — no editor yet; add one with: " + options.program + " user add EMAIL --db " + options.db;
  else
    notes += " — " + std::to_string(editors) + (editors == 1 ? " editor" : " editors");
  notes += "\n  Mail: ";
  notes += options.smtp_url.empty()
               ? "off (no --smtp): digest sign-ups are kept as pending until mail is set up"
               : "on, through " + options.smtp_url + " from " + options.mail_from;
  notes += "\n  Public address: ";
  notes += options.base_url.empty()
               ? "not set (--base-url): badge snippets, feeds and the sitemap name whatever "
                 "address a request came to; set it before sharing links"
               : options.base_url;
  return notes + "\n";
}

void configure_server(transport::ConnectionServer &server, App &app) {
  // No form of the site sends more than a few hundred bytes but the desk's (the transport
  // refuses a larger body before it arrives, by its address; this is httplib's own check
  // behind it).
  server.set_payload_max_length(transport::FramingLimits{}.largest_body());
  server.set_refusal_page(
      [&app](int status, const std::string &reason) { return refusal_page(app, status, reason); });
  server.share_responses([&app] { return app.page_epoch.current(); });
  server.answer_cookies(guards::voter_answers(app, server.limits()));
  app.transport_figures = [&server] {
    return prometheus_sample("verdict_shared_answers_total", "counter",
                             "Anonymous pages answered by a reactor from the shared cache.",
                             static_cast<double>(server.shared_answers())) +
           prometheus_sample("verdict_voter_answers_total", "counter",
                             "Voters' pages answered by a reactor from the kept page.",
                             static_cast<double>(server.cookie_answers())) +
           prometheus_sample("verdict_open_connections", "gauge", "Connections open now.",
                             static_cast<double>(server.open_connections()));
  };
}

int serve(const Options &options) {
  // Block the shutdown signals in every thread; one thread waits for them and stops the server.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  if (const auto refusal = why_no_site_is_made(options); !refusal.empty()) {
    std::cerr << "verdict: " << refusal << "\n";
    return 1;
  }
  // A demo site this run makes is taken away again if the run fails before serving it (the
  // port taken, say): a failed command leaves no new file behind. Declared before the store,
  // so it is closed first.
  struct MadeByThisRun {
    std::string path;
    bool made = false, served = false;
    ~MadeByThisRun() {
      if (!made || served) return;
      std::error_code ignored;
      std::filesystem::remove(path, ignored);
      for (const auto &leftover : database_file::leftovers_of_a_site(path))
        std::filesystem::remove(leftover, ignored);
    }
  } demo{options.db};
  if (!std::filesystem::exists(options.db)) {
    std::cerr << "verdict: no file at " << options.db
              << ": making a demo site there with the bundled content (--demo)\n";
    demo.made = true;
  }
  // The site's one clock: its writes, pages, mailer and log all read this one.
  const Clock clock;
  auto store = open_site_database(options.db, StartingContent::examples, clock);
  DatabaseLock database_lock(options.db);
  if (!database_lock.held()) {
    store.reset();
    std::cerr << "verdict: " << options.db
              << " is already served by another verdict; stop it first (one server per "
                 "database)\n";
    return 1;
  }
  std::unique_ptr<ClusterNode> cluster_node;
  if (!options.cluster.empty() && !(cluster_node = join_cluster(*store, options, clock))) return 1;
  Views views;
  views.set_base_url(options.base_url);
  App app(*store, views, options.rate_limit, options.trusted_proxy,
          cluster_node ? &cluster_node->writes : nullptr,
          cluster_node ? &cluster_node->writes : nullptr, {}, clock);
  app.votes.batched = options.publish_votes_every_minutes > 0;
  // The follower tells the views and the App while this node is behind (below): never once
  // they are gone, whichever way this function returns.
  struct NoticeStopped {
    std::unique_ptr<ClusterNode> &node;
    ~NoticeStopped() {
      if (node) node->follower.on_behind(nullptr);
    }
  } notice_stopped{cluster_node};
  if (cluster_node) {
    share_sign_ins(app.sign_in_throttle, cluster_node->stream, cluster_node->key);
    app.voter_key = cluster_node->key.secret("voter_cookies");
    // While this node's file is behind the stream (or cannot reach it), every page says so and
    // no cache keeps it as current; pages kept from before are rendered again at once.
    cluster_node->follower.on_behind([&views, &app](bool behind) {
      views.set_notice(behind ? "The figures on this page may be a few seconds behind: this "
                                "server is catching up with the rest of the site."
                              : "");
      app.page_epoch.show_now();
    });
    app.cluster_problem = [node = cluster_node.get()] {
      if (auto refused = node->writes.problem(); !refused.empty()) return refused;
      return node->follower.problem();
    };
  }
  app.access_log = options.access_log;
  app.metrics_token = options.metrics_token;
  // Confirmation mails go out from a thread of their own; without --smtp a sign-up is kept
  // as pending, its mail owed until the site can send one.
  std::unique_ptr<ConfirmationMailer> mailer;
  if (!options.smtp_url.empty()) {
    const MailSetup setup{
        {options.smtp_url, options.smtp_starttls, options.smtp_user, options.smtp_password},
        options.mail_from,
        options.base_url,
        options.unsubscribe_mailto};
    mailer = std::make_unique<ConfirmationMailer>(*store, *app.writes, views, setup,
                                                  app.newsletter.unsubscribe_key, app.clock);
    app.newsletter.sends_mail = true;
    app.newsletter.mail_queued = [&mailer] { mailer->wake(); };
  }
  // The vote log is checkpointed once a day, and at start when a day has passed since; votes
  // are published in batches at the end of each period (docs/NUMBERS.md).
  auto log_clock = std::make_unique<VoteLogClock>(*store, *app.writes, app.clock,
                                                  options.publish_votes_every_minutes * 60);
  // Under a steady stream of votes, anonymous pages are rendered again once a second rather
  // than for every vote; voters see their own votes at once (bench/README.md says why). A
  // node of a cluster applies a write a few milliseconds after the stream took it, so its
  // pages wait a little less: a reader on any node sees a vote within a second of its taking
  // (`./dev bench cluster` measures it).
  app.page_epoch.set_max_lag(cluster_node ? std::chrono::milliseconds(900)
                                          : std::chrono::milliseconds(1000));
  // Every tool's name read for search now, not by the first reader to search (milliseconds
  // on a site of thousands of tools; store/search.cpp).
  (void)store->tool_names();
  raise_descriptor_limit();
  transport::ConnectionServer server(transport_limits(options.threads, options.trusted_proxy));
  install_routes(server, app);
  configure_server(server, app);
  const int port = options.port == 0
                       ? server.bind_to_any_port(options.bind)
                       : (server.bind(options.bind, options.port) ? options.port : -1);
  if (port <= 0) {
    std::cerr << "verdict: cannot listen on " << options.bind << ":" << options.port
              << ": the address is in use (is another verdict serving it?) or not this "
                 "machine's"
              << (demo.made ? "; the demo site made for it is removed again" : "") << "\n";
    return 1;
  }
  demo.served = true;
  std::atomic<bool> listening_ended{false};
  std::thread signal_waiter([&server, &listening_ended, signals] {
    int received = 0;
    sigwait(&signals, &received);
    // httplib's stop() does nothing until listening has begun: a signal that comes right
    // after start-up waits for that moment instead of being lost.
    while (!server.is_running() && !listening_ended)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    server.stop();
  });
  std::cerr << "Verdict is serving http://" << options.bind << ":" << port << "/ from "
            << options.db << "\n"
            << first_run_notes(options, port, store->editors().size());
  server.listen_after_bind();
  listening_ended = true;
  // listen_after_bind returns once stop() ran and every worker finished its request.
  if (signal_waiter.joinable()) {
    pthread_kill(signal_waiter.native_handle(), SIGTERM);
    signal_waiter.join();
  }
  mailer.reset(); // after the mail in hand, before the database closes
  log_clock.reset();
  cluster_node.reset(); // its follower's last writes are applied before the file closes
  store.reset();        // the last connection closing checkpoints the WAL into the .db file
  std::cerr << "Verdict stopped cleanly.\n";
  return 0;
}

} // namespace verdict
