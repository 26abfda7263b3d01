// Sending mail through an SMTP server with libcurl (Debian's libcurl4-openssl-dev), so that no
// SMTP or TLS is written here. One SmtpClient keeps its connection open between messages (a
// digest to many addresses is one session), and opens a new one when the server closed it.
#pragma once

#include <functional>
#include <memory>
#include <string>

namespace verdict {

struct SmtpSettings {
  std::string url;       // smtp://HOST:PORT, or smtps://HOST:PORT for TLS from the start
  bool starttls = false; // smtp:// only: require STARTTLS before anything is sent
  std::string user;      // log in when set
  std::string password;  // from VERDICT_SMTP_PASSWORD only, never a flag
};

// What became of a message handed to the server. Only what certainly did not arrive may be
// sent again; a message that may have arrived must not be, or someone gets it twice.
enum class SmtpOutcome {
  accepted, // the server took it: 250 after the message's final "."
  refused,  // certainly not taken: the server refused it (a 4xx or 5xx reply), or it never got
            // the whole message (no connection, no login, dropped before the final ".")
  unknown,  // the whole message went out but no answer came (a timeout, a dropped connection,
            // a stop): it may have arrived
};

struct SmtpResult {
  SmtpOutcome outcome = SmtpOutcome::refused;
  int reply = 0;     // the server's last reply code; 0 when none came
  std::string error; // why not, as the server or libcurl said it
  bool sent() const { return outcome == SmtpOutcome::accepted; }
  // Refused with a 5xx reply: the server says trying again will not help.
  bool refused_for_good() const { return outcome == SmtpOutcome::refused && reply >= 500; }
  // Refused before any server answered (it could not be reached).
  bool unreached() const { return outcome == SmtpOutcome::refused && reply == 0; }
};

class SmtpClient {
public:
  // `stopping`, when given, is asked about once a second during a send: once it says true the
  // send is abandoned, so a hung server cannot hold up a shutdown.
  explicit SmtpClient(SmtpSettings settings, std::function<bool()> stopping = {});
  ~SmtpClient();
  SmtpClient(const SmtpClient &) = delete;
  SmtpClient &operator=(const SmtpClient &) = delete;

  // Hands one message (compose_mail's bytes) to the server for one recipient.
  SmtpResult send(const std::string &from, const std::string &to, const std::string &message);
  // Reaches the server as a send would (TLS, login) and asks NOOP, sending nothing: accepted
  // when the server answers, else why not (`verdict doctor`).
  SmtpResult greet();

private:
  void reach_the_server();
  struct Session;
  SmtpSettings settings_;
  std::function<bool()> stopping_;
  std::unique_ptr<Session> session_;
};

} // namespace verdict
