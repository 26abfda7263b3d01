// What a reader's or an editor's browser holds for the site: the voter cookie, the desk's
// session and known-device cookies (their names and lifetimes in domain/cookies.h), and the
// tokens the vote forms carry. Read and set here alone.
#pragma once

#include <httplib.h>

#include <optional>
#include <string>

#include "domain/writes.h"
#include "middleware/app.h"
#include "render/pages.h"

namespace verdict {

// The tokens the vote forms of a page about this comparison or tool carry, made now.
pages::VoteTokens vote_tokens_for(const App &app, const Comparison &comparison);
std::string vote_token_for(const App &app, const Tool &tool);

// The voter id from the request's cookie as the site keeps it (App::voter_as_kept), or empty.
std::string voter_of(const App &app, const httplib::Request &req);
// The request's voter id as kept, minting one (and setting its cookie on `res`) for a first
// vote.
std::string voter_for_write(const App &app, const httplib::Request &req, httplib::Response &res);

// The editor signed in on this browser (the session cookie names a live session), if any.
std::optional<EditorSession> signed_in_editor(App &app, StoreReads &site,
                                              const httplib::Request &req);
// Signs `editor` in on this browser: a new session, its secret in an HttpOnly, SameSite=Strict
// cookie for /admin only (Secure when the request came over HTTPS), for the session's
// lifetime (domain/cookies.h). No cookie unless the session's write was done.
WriteResult start_editor_session(App &app, const httplib::Request &req, httplib::Response &res,
                                 const Editor &editor);
// Ends this browser's session, if any, and clears its cookie (once the session's end is
// written).
WriteResult end_editor_session(App &app, const httplib::Request &req, httplib::Response &res);
// Marks this browser as one `editor` signed in from (auth/sign_in_throttle.h): a cookie for the
// sign-in form only, HttpOnly, SameSite=Strict (Secure over HTTPS), for its lifetime
// (domain/cookies.h).
void remember_known_device(const App &app, const httplib::Request &req, httplib::Response &res,
                           const Editor &editor);
// The sign-in page's address that brings the editor back to `path` (a desk page) after.
std::string sign_in_path_back_to(const std::string &path);
} // namespace verdict
