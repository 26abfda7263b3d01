#include "mail/smtp.h"

#include <curl/curl.h>

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

} // namespace

struct SmtpClient::Session {
  CURL *curl = nullptr;
  char error[CURL_ERROR_SIZE] = ""; // libcurl may write here until the handle is cleaned up
  ~Session() {
    if (curl) curl_easy_cleanup(curl);
  }
};

SmtpClient::SmtpClient(SmtpSettings settings)
    : settings_(std::move(settings)), session_(std::make_unique<Session>()) {
  start_curl();
  session_->curl = curl_easy_init();
  if (!session_->curl) throw std::runtime_error("libcurl could not make a session");
}

SmtpClient::~SmtpClient() = default;

SmtpResult SmtpClient::send(const std::string &from, const std::string &to,
                            const std::string &message) {
  CURL *curl = session_->curl;
  curl_easy_reset(curl); // keeps the open connection, forgets the last message's options
  Upload upload{&message};
  char *error = session_->error;
  error[0] = '\0';
  curl_slist *recipients = curl_slist_append(nullptr, ("<" + to + ">").c_str());
  const std::string sender = "<" + from + ">";
  curl_easy_setopt(curl, CURLOPT_URL, settings_.url.c_str());
  curl_easy_setopt(curl, CURLOPT_MAIL_FROM, sender.c_str());
  curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, recipients);
  curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_upload);
  curl_easy_setopt(curl, CURLOPT_READDATA, &upload);
  curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L); // called from threads: no SIGALRM
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 10L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 60L);
  // smtps:// is TLS from the start; --smtp-starttls refuses to go on without STARTTLS.
  if (settings_.starttls || settings_.url.rfind("smtps://", 0) == 0)
    curl_easy_setopt(curl, CURLOPT_USE_SSL, static_cast<long>(CURLUSESSL_ALL));
  if (!settings_.user.empty()) {
    curl_easy_setopt(curl, CURLOPT_USERNAME, settings_.user.c_str());
    curl_easy_setopt(curl, CURLOPT_PASSWORD, settings_.password.c_str());
  }
  const auto code = curl_easy_perform(curl);
  curl_slist_free_all(recipients);
  if (code == CURLE_OK) return {true, {}};
  long reply = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &reply);
  std::string why = *error ? error : curl_easy_strerror(code);
  if (reply != 0) why += " (the server answered " + std::to_string(reply) + ")";
  return {false, why};
}

} // namespace verdict
