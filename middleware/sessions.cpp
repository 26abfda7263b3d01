#include "middleware/sessions.h"

#include "auth/secrets.h"
#include "auth/sign_in_throttle.h"
#include "auth/vote_tokens.h"
#include "domain/cookies.h"
#include "middleware/request_parsing.h"
#include "middleware/request_reading.h"

namespace verdict {

pages::VoteTokens vote_tokens_for(const App &app, const Comparison &comparison) {
  const auto now = app.clock.now();
  const auto &key = app.votes.token_key;
  return {auth::vote_token(key, auth::tool_vote_target(comparison.a.id), now),
          auth::vote_token(key, auth::tool_vote_target(comparison.b.id), now),
          auth::vote_token(key, auth::pair_vote_target(comparison.a.id, comparison.b.id), now)};
}

std::string vote_token_for(const App &app, const Tool &tool) {
  return auth::vote_token(app.votes.token_key, auth::tool_vote_target(tool.id), app.clock.now());
}

std::string voter_of(const App &app, const httplib::Request &req) {
  return app.voter_as_kept(voter_from_cookie(req.get_header_value("Cookie")));
}

std::string voter_for_write(const App &app, const httplib::Request &req, httplib::Response &res) {
  auto voter = voter_of(app, req);
  if (!voter.empty()) return voter;
  voter = new_voter_id(app.clock.now_ms());
  res.set_header("Set-Cookie",
                 std::string(cookies::kVoter.name) + "=" + voter + "; Path=/; Max-Age=" +
                     std::to_string(cookies::kVoter.max_age_seconds) + "; HttpOnly; SameSite=Lax");
  return app.voter_as_kept(voter);
}

std::optional<EditorSession> signed_in_editor(App &app, StoreReads &site,
                                              const httplib::Request &req) {
  const auto secret = session_secret_from_cookie(req.get_header_value("Cookie"));
  if (secret.empty()) return std::nullopt;
  return site.session(auth::secret_hash(secret), app.clock.now());
}

WriteResult start_editor_session(App &app, const httplib::Request &req, httplib::Response &res,
                                 const Editor &editor) {
  const auto secret = auth::random_secret();
  const int64_t lifetime = cookies::kSession.max_age_seconds;
  auto started = app.writes->submit(StartSession{
      auth::secret_hash(secret), editor.id, auth::random_secret(16), app.clock.now() + lifetime});
  if (!started.done()) return started;
  res.set_header("Set-Cookie", std::string(cookies::kSession.name) + "=" + secret +
                                   "; Path=/admin; Max-Age=" + std::to_string(lifetime) +
                                   "; HttpOnly; SameSite=Strict" +
                                   (came_over_https(app, req) ? "; Secure" : ""));
  return started;
}

void remember_known_device(const App &app, const httplib::Request &req, httplib::Response &res,
                           const Editor &editor) {
  const auto token = auth::known_device_token(
      app.known_device_key, editor.email, app.clock.now() + cookies::kKnownDevice.max_age_seconds);
  res.set_header(
      "Set-Cookie",
      std::string(cookies::kKnownDevice.name) + "=" + token +
          "; Path=/admin/login; Max-Age=" + std::to_string(cookies::kKnownDevice.max_age_seconds) +
          "; HttpOnly; SameSite=Strict" + (came_over_https(app, req) ? "; Secure" : ""));
}

WriteResult end_editor_session(App &app, const httplib::Request &req, httplib::Response &res) {
  const auto secret = session_secret_from_cookie(req.get_header_value("Cookie"));
  if (!secret.empty())
    if (auto ended = app.writes->submit(EndSession{auth::secret_hash(secret)}); !ended.done())
      return ended;
  res.set_header("Set-Cookie", std::string(cookies::kSession.name) +
                                   "=; Path=/admin; Max-Age=0; HttpOnly; SameSite=Strict" +
                                   (came_over_https(app, req) ? "; Secure" : ""));
  return WriteResult::written();
}

std::string sign_in_path_back_to(const std::string &path) {
  return path == "/admin" ? "/admin/login" : "/admin/login?next=" + path;
}

} // namespace verdict
