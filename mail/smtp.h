// Sending mail through an SMTP server with libcurl (Debian's libcurl4-openssl-dev), so that no
// SMTP or TLS is written here. One SmtpClient keeps its connection open between messages (a
// digest to many addresses is one session), and opens a new one when the server closed it.
#pragma once

#include <memory>
#include <string>

namespace verdict {

struct SmtpSettings {
  std::string url;       // smtp://HOST:PORT, or smtps://HOST:PORT for TLS from the start
  bool starttls = false; // smtp:// only: require STARTTLS before anything is sent
  std::string user;      // log in when set
  std::string password;  // from VERDICT_SMTP_PASSWORD only, never a flag
};

struct SmtpResult {
  bool sent = false;
  std::string error; // why not, as the server or libcurl said it
};

class SmtpClient {
public:
  explicit SmtpClient(SmtpSettings settings);
  ~SmtpClient();
  SmtpClient(const SmtpClient &) = delete;
  SmtpClient &operator=(const SmtpClient &) = delete;

  // Hands one message (compose_mail's bytes) to the server for one recipient; sent once the
  // server accepted it (250 after DATA).
  SmtpResult send(const std::string &from, const std::string &to, const std::string &message);

private:
  struct Session;
  SmtpSettings settings_;
  std::unique_ptr<Session> session_;
};

} // namespace verdict
