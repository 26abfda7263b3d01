// Where `verdict verify` (app/verify_command.h) reads a site: its database file, or the site
// itself over HTTP as any reader can. Both give the same things — the latest checkpoint and its
// key, the log's entries a page at a time, consistency proofs, and every community number the
// site publishes with the log size it was read at — so the checks are one piece of code.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/merkle.h"
#include "domain/model.h"
#include "domain/tallies.h"
#include "domain/vote_log.h"

namespace verdict {

// One target's community numbers as the site publishes them.
struct PublishedTally {
  VoteTarget target;
  std::string name;      // its address ("codestral-2-1", "a-vs-b"), for the report
  std::string where;     // where it was read ("/api/tools?page=1", "the file")
  DayTally figures;      // in the log's terms (domain/tallies.h); its day is left empty
  uint64_t log_size = 0; // the numbers are what the log's first `log_size` entries give
};

// The site could not be read (a failed request, an answer that is not what it should be).
struct UnreadableSite : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class VerifySource {
public:
  virtual ~VerifySource() = default;
  // Names the site in the state file of checkpoints seen.
  virtual std::string name() const = 0;
  // The latest checkpoint and the public key that signed it; nothing before the first. Read
  // first: every number published after it must be read at a log at least its size.
  virtual std::optional<std::pair<Checkpoint, std::string>> checkpoint() = 0;
  // Every tool's and every published pair's numbers. Read before the log, so the log holds
  // every entry they were made of.
  virtual std::vector<PublishedTally> published() = 0;
  // Entries from leaf `from`, in leaf order, a page at a time, each with the leaf number the
  // site gives it (judged by the caller: a log with gaps fails); empty past the end. Their
  // hashes are left for the caller to make.
  virtual std::vector<VoteLogEntry> log_entries(uint64_t from) = 0;
  virtual std::vector<merkle::Hash> consistency_proof(uint64_t old_size, uint64_t size) = 0;
};

// The database file, read in one moment (the object holds it until destroyed).
std::unique_ptr<VerifySource> file_source(const std::string &db);
// A running site at `base_url` ("https://verdict.example.com"), through its public API and
// /transparency; answers of 429 and 503 are waited out as their Retry-After asks.
std::unique_ptr<VerifySource> site_source(const std::string &base_url);

} // namespace verdict
