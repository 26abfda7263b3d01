// An answer that waits for what its worker need not wait for. A vote's 303 may leave only
// once the vote is on disk, yet the worker that made it has nothing left to do: it hands the
// write over and takes the next request, and the answer leaves when the writer says the vote
// is durable. A worker is then never parked on an fsync, and one commit's batch of answers
// reaches the reactors with one wake each instead of a thread switch per vote.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace verdict::transport {

// Lets a held answer go: with nothing, as it was made; with a reason, a 503 page saying the
// request could not be completed replaces it and the connection closes. Called once, from any
// thread.
using AnswerRelease = std::function<void(std::optional<std::string> failure)>;

// From a handler serving a request of transport/connection_server.h: `start` runs once the
// handler's answer is made, and that answer is sent only when the release `start` is given is
// called. False anywhere else, and then nothing is held: the caller does the work itself.
bool answer_after(std::function<void(AnswerRelease)> start);

} // namespace verdict::transport
