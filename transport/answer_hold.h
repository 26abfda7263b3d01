// What the connection server keeps beside each request it is answering, and the answer that
// waits for what its worker need not wait for. A vote's 303 may leave only once the vote is
// on disk, yet the worker that made it has nothing left to do: it hands the write over and
// takes the next request, and the answer leaves when the writer says the vote is durable. A
// worker is then never parked on an fsync, and one commit's batch of answers reaches the
// reactors with one wake each instead of a thread switch per vote.
#pragma once

#include <httplib.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>

namespace verdict::transport {

// Lets a held answer go: with nothing, as it was made; with a reason, a 503 page saying the
// request could not be completed replaces it and the connection closes. Called once, from any
// thread.
using AnswerRelease = std::function<void(std::optional<std::string> failure)>;

// A request being answered by transport/connection_server.h, as the layers above tell the
// server about it: httplib hands a handler the request and its response only, so this is
// found from the request (context_of) while the server answers it.
struct RequestContext {
  std::chrono::steady_clock::time_point started; // when the server began answering it
  bool routed = false;                           // a route's handler answered it
  // Set by answer_after: run once the answer is made, and the answer sent only when the
  // release it is given is called.
  std::function<void(AnswerRelease)> held;
};

// The context of `req` while a connection server answers it; nullptr for a request answered
// any other way (a test's own httplib::Server).
RequestContext *context_of(const httplib::Request &req);

// From a handler answering `req`: `start` runs once the handler's answer is made, and that
// answer is sent only when the release `start` is given is called. False for a request no
// connection server answers, and then nothing is held: the caller does the work itself.
bool answer_after(const httplib::Request &req, std::function<void(AnswerRelease)> start);

} // namespace verdict::transport
