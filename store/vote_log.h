// The vote log: every vote event, appended in the vote's own transaction by the triggers of
// migrations/0010-vote-log.sql, as the leaves of an RFC 6962 Merkle tree (base/merkle.h), so
// anyone can check that the published numbers are what the votes say and that no vote was
// changed or removed afterwards. Its entries carry no reader data (see the migration).
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
} // namespace vote_log

} // namespace verdict
