// The verdict binary run as a self-hoster runs it, for tests of whole processes: started as a
// child that dies with the test, its log read until it says where it listens.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "test_support.h"

namespace verdict::test {

using std::chrono::steady_clock;

// Seconds the binary gets to start: generous, for sanitizer builds on a busy machine.
constexpr int kStartSeconds = 30;

// Runs the verdict binary and waits for the line that says where it listens.
class Server {
public:
  // Runs `binary` (the built verdict unless told otherwise) in `cwd` (unchanged when empty).
  explicit Server(const std::vector<std::string> &args, const std::string &binary = VERDICT_BINARY,
                  const std::string &cwd = "") {
    int fds[2];
    REQUIRE(pipe2(fds, O_CLOEXEC) == 0);
    std::vector<std::string> argv{binary};
    argv.insert(argv.end(), args.begin(), args.end());
    // A test's site is the bundled demo when its file is new (`serve` makes none unasked).
    if (std::find(args.begin(), args.end(), "--cluster") == args.end()) argv.push_back("--demo");
    pid_ = test::start_child(argv, -1, fds[1], cwd);
    close(fds[1]);
    log_fd_ = fds[0];
    const std::string marker = "serving http://127.0.0.1:";
    const auto deadline = steady_clock::now() + std::chrono::seconds(kStartSeconds);
    const auto whole_line = [&] {
      const auto at = log_.find(marker);
      return at != std::string::npos && log_.find('\n', at) != std::string::npos;
    };
    while (!whole_line() && read_log_until(deadline)) {
    }
    const auto at = log_.find(marker);
    if (!whole_line()) {
      const auto log = log_;
      stop(SIGKILL);
      FAIL("verdict did not start within " << kStartSeconds << " s; it said: " << log);
    }
    port = std::stoi(log_.substr(at + marker.size()));
    // Keep draining the server's stderr so it can never block on a full pipe.
    drain_ = std::thread([this] {
      while (read_log_until(steady_clock::time_point::max())) {
      }
    });
  }

  Server(const Server &) = delete;
  Server &operator=(const Server &) = delete;
  ~Server() { stop(SIGKILL); }

  pid_t pid() const { return pid_; }

  // Sends the signal and waits (bounded) for the process; returns its wait status.
  int stop(int signal_number) {
    int status = -1;
    if (pid_ > 0) {
      kill(pid_, signal_number);
      const auto deadline = steady_clock::now() + std::chrono::seconds(kStartSeconds);
      while (waitpid(pid_, &status, WNOHANG) == 0) {
        if (steady_clock::now() > deadline) {
          kill(pid_, SIGKILL);
          waitpid(pid_, &status, 0);
          status = -1; // did not stop by itself
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      pid_ = -1;
    }
    if (drain_.joinable()) drain_.join();
    if (log_fd_ >= 0) close(log_fd_);
    log_fd_ = -1;
    return status;
  }

  std::string log() {
    std::lock_guard lock(log_mutex_);
    return log_;
  }

  int port = 0;

private:
  bool read_log_until(steady_clock::time_point deadline) {
    const auto left =
        deadline == steady_clock::time_point::max()
            ? -1
            : std::chrono::duration_cast<std::chrono::milliseconds>(deadline - steady_clock::now())
                  .count();
    if (deadline != steady_clock::time_point::max() && left <= 0) return false;
    pollfd ready{log_fd_, POLLIN, 0};
    if (poll(&ready, 1, static_cast<int>(left)) <= 0) return false;
    char buffer[512];
    const auto n = read(log_fd_, buffer, sizeof buffer);
    if (n <= 0) return false;
    std::lock_guard lock(log_mutex_);
    log_.append(buffer, static_cast<size_t>(n));
    return true;
  }

  pid_t pid_ = -1;
  int log_fd_ = -1;
  std::mutex log_mutex_;
  std::string log_;
  std::thread drain_;
};

// Debian's libfaketime (package libfaketime): a process started with it in LD_PRELOAD reads its
// clock as FAKETIME says: "+31d" (31 days ahead), "@2026-11-28 10:59:30" (from that moment on).
inline constexpr const char *kLibFaketime = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";

// The verdict binary run with `args`, its clock as `faketime` says. ASan's check that it is
// loaded first is turned off for it: libfaketime is.
inline std::unique_ptr<Server> server_with_clock(const std::vector<std::string> &args,
                                                 const std::string &faketime) {
  const std::string asan_options = getenv("ASAN_OPTIONS") ? getenv("ASAN_OPTIONS") : "";
  setenv("LD_PRELOAD", kLibFaketime, 1);
  setenv("FAKETIME", faketime.c_str(), 1);
  // The wall clock alone: a timed wait measures on the real monotonic clock, and one read
  // faked would end years from now (the server's timers would never fire).
  setenv("FAKETIME_DONT_FAKE_MONOTONIC", "1", 1);
  setenv("ASAN_OPTIONS", (asan_options + ":verify_asan_link_order=0").c_str(), 1);
  auto server = std::make_unique<Server>(args);
  unsetenv("LD_PRELOAD");
  unsetenv("FAKETIME");
  unsetenv("FAKETIME_DONT_FAKE_MONOTONIC");
  setenv("ASAN_OPTIONS", asan_options.c_str(), 1);
  return server;
}

} // namespace verdict::test
