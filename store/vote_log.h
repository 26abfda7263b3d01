// The vote log: every vote event, left waiting by the triggers of migrations/0022-vote-batches.sql
// and appended in batches (publish_waiting below), as the leaves of an RFC 6962 Merkle tree
// (base/merkle.h), so anyone can check that the published numbers are what the votes say and that
// no vote was changed or removed afterwards. Its entries carry no reader data (see the migration).
#pragma once

#include "domain/vote_log.h"

namespace verdict {

namespace sql {
class Db;
}

namespace vote_log {
// The SQL function the log's triggers call: vote_log_pseudonym(voter or network), the keyed
// hash under the log's own key. On the writer's connection before its schema is brought
// up to date; a connection without it cannot write a vote.
void add_functions(sql::Db &db);
// The tallies' changes per day (migrations/0016-tally-changes.sql) of the votes logged before
// they were kept: the log replayed (domain/tallies.h) into tally_changes, in that step's
// transaction.
void build_tally_changes(sql::Db &db);

// How the waiting vote events are appended to the log.
enum class Publishing {
  // As a batch (docs/NUMBERS.md): each voter's events on a target netted to what changed
  // since the last batch, withdrawals first (a freed place is free before another vote takes
  // it), each group in the order of a keyed hash, every entry dated the batch's hour.
  batch,
  // In the order they came, each dated by its own time: a bulk load of past votes, whose
  // days the tallies keep (Store::load_votes).
  as_they_came,
};
// Appends every waiting vote event to the log (`at`: the batch's time, RFC 3339), moves the
// published numbers by what they change (tools, pair_tallies, tally_changes), and gives each
// vote still standing its receipt; in the writer's transaction.
void publish_waiting(sql::Db &db, const std::string &at, Publishing how = Publishing::batch);
} // namespace vote_log

} // namespace verdict
