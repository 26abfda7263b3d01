#include "mail/smtp.h"

#include <curl/curl.h>
#include <sys/socket.h>

#include <cstring>
#include <mutex>
#include <stdexcept>

namespace verdict {

namespace {

void start_curl() {
  static std::once_flag started;
  std::call_once(started, [] {
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
      throw std::runtime_error("libcurl could not start");
  });
}

// The message, handed to libcurl a piece at a time as it asks (CURLOPT_READFUNCTION).
struct Upload {
  const std::string *bytes;
  size_t sent = 0;
  // Every byte went to libcurl, which then ends the message with "." and waits for the
  // answer: from here on, a send that fails without a refusal may have arrived.
  bool whole() const { return sent == bytes->size(); }
};

size_t read_upload(char *buffer, size_t size, size_t count, void *user) {
  auto *upload = static_cast<Upload *>(user);
  const size_t room = size * count;
  const size_t left = upload->bytes->size() - upload->sent;
  const size_t n = left < room ? left : room;
  std::memcpy(buffer, upload->bytes->data() + upload->sent, n);
  upload->sent += n;
  return n;
}

// Asked by libcurl about once a second during a send (CURLOPT_XFERINFOFUNCTION): non-zero
// abandons it.
int abandon_when_stopping(void *user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  const auto &stopping = *static_cast<const std::function<bool()> *>(user);
  return stopping && stopping() ? 1 : 0;
}

// A failed send's outcome. The server's last reply says which step failed: a 4xx or 5xx is a
// refusal, whether of the sender, a recipient, the login or the message after its final ".".
// Without one, the message is certainly not delivered unless all of it went out, since a
// server takes a message only at its final ".".
SmtpOutcome failed_outcome(long reply, const Upload &upload) {
  if (reply >= 400) return SmtpOutcome::refused;
  return upload.whole() ? SmtpOutcome::unknown : SmtpOutcome::refused;
}

// Closes the connection at once: libcurl would otherwise end it with QUIT and wait for the
// answer (as long as a server may take to answer) when the session is cleaned up, or find it
// in an unknown state at the next send. For a connection that gave no answer, and on a stop.
void drop_connection(CURL *curl) {
  curl_socket_t socket = CURL_SOCKET_BAD;
  if (curl_easy_getinfo(curl, CURLINFO_ACTIVESOCKET, &socket) == CURLE_OK &&
      socket != CURL_SOCKET_BAD)
    shutdown(socket, SHUT_RDWR); // libcurl still closes the descriptor itself
}

} // namespace

struct SmtpClient::Session {
  CURL *curl = nullptr;
  char error[CURL_ERROR_SIZE] = ""; // libcurl may write here until the handle is cleaned up
  ~Session() {
    if (curl) curl_easy_cleanup(curl);
  }
};

SmtpClient::SmtpClient(SmtpSettings settings, std::function<bool()> stopping)
    : settings_(std::move(settings)), stopping_(std::move(stopping)),
      session_(std::make_unique<Session>()) {
  start_curl();
  session_->curl = curl_easy_init();
  if (!session_->curl) throw std::runtime_error("libcurl could not make a session");
}

SmtpClient::~SmtpClient() {
  if (stopping_ && stopping_()) drop_connection(session_->curl);
}

// The server, the time it gets and how it is reached, alike for a send and a greeting.
void SmtpClient::reach_the_server() {
  CURL *curl = session_->curl;
  session_->error[0] = '\0';
  curl_easy_setopt(curl, CURLOPT_URL, settings_.url.c_str());
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, session_->error);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L); // called from threads: no SIGALRM
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 10L);
  // A server gets 20 s to answer each command, the whole send a minute; a stop abandons it
  // within about a second (systemd waits 15 s for the process to end).
  curl_easy_setopt(curl, CURLOPT_SERVER_RESPONSE_TIMEOUT, 20L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 60L);
  curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, abandon_when_stopping);
  curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &stopping_);
  // smtps:// is TLS from the start; --smtp-starttls refuses to go on without STARTTLS.
  if (settings_.starttls || settings_.url.rfind("smtps://", 0) == 0)
    curl_easy_setopt(curl, CURLOPT_USE_SSL, static_cast<long>(CURLUSESSL_ALL));
  if (!settings_.user.empty()) {
    curl_easy_setopt(curl, CURLOPT_USERNAME, settings_.user.c_str());
    curl_easy_setopt(curl, CURLOPT_PASSWORD, settings_.password.c_str());
  }
}

SmtpResult SmtpClient::greet() {
  CURL *curl = session_->curl;
  curl_easy_reset(curl);
  reach_the_server();
  // NOOP: every SMTP server must answer it (RFC 5321 4.1.1.9), and it sends nothing.
  curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, "NOOP");
  curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
  const auto code = curl_easy_perform(curl);
  long reply = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &reply);
  if (code == CURLE_OK) return {SmtpOutcome::accepted, static_cast<int>(reply), {}};
  return {SmtpOutcome::refused, static_cast<int>(reply),
          *session_->error ? session_->error : curl_easy_strerror(code)};
}

SmtpResult SmtpClient::send(const std::string &from, const std::string &to,
                            const std::string &message) {
  CURL *curl = session_->curl;
  curl_easy_reset(curl); // keeps the open connection, forgets the last message's options
  Upload upload{&message};
  char *error = session_->error;
  error[0] = '\0';
  curl_slist *recipients = curl_slist_append(nullptr, ("<" + to + ">").c_str());
  const std::string sender = "<" + from + ">";
  curl_easy_setopt(curl, CURLOPT_MAIL_FROM, sender.c_str());
  curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, recipients);
  curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_upload);
  curl_easy_setopt(curl, CURLOPT_READDATA, &upload);
  curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
  reach_the_server();
  const auto code = curl_easy_perform(curl);
  curl_slist_free_all(recipients);
  long reply = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &reply);
  if (code == CURLE_OK) return {SmtpOutcome::accepted, static_cast<int>(reply), {}};
  if (reply < 400) drop_connection(curl); // no answer came: the session's state is unknown
  std::string why = *error ? error : curl_easy_strerror(code);
  if (reply >= 400)
    why = "the mail server refused it with " + std::to_string(reply) + (*error ? ": " + why : "");
  else if (reply != 0)
    why += " (the mail server's last answer: " + std::to_string(reply) + ")";
  return {failed_outcome(reply, upload), static_cast<int>(reply), why};
}

} // namespace verdict
