// Each kind of write (domain/writes.h) as its aggregate applies it: inside the writer's open
// transaction, on `db`, at the moment and on the date `at` says, which every time it stamps
// and every date it judges by comes from (bound into its statements; no statement asks the
// clock). Each is defined in its aggregate's file (store/categories.cpp, store/votes.cpp…)
// beside that aggregate's reads; store/apply_write.cpp is the one caller. A write the site
// refuses returns how (WriteResult::not_found, already_exists or refused), before or after
// writing part of itself: the caller runs each in its own savepoint and undoes one not done,
// so a refused write leaves nothing. Only trouble with the file is thrown.
#pragma once

#include "domain/writes.h"

namespace verdict {

namespace sql {
class Db;
}

namespace aggregates {

// store/categories.cpp, store/tools.cpp, store/reviewers.cpp, store/reviews.cpp,
// store/comparisons.cpp: the desk's content, each change with its edit log entry.
WriteResult apply_in(sql::Db &db, const WriteContext &at, const CreateCategory &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const UpdateCategory &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const DeleteCategory &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const CreateTool &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const UpdateTool &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const DeleteTool &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const CreateReviewer &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const UpdateReviewer &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const DeleteReviewer &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const CreateReview &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const UpdateReview &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const DeleteReview &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const CreateComparison &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const UpdateComparison &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const DeleteComparison &write);

// store/editors.cpp: editors and their desk sessions.
WriteResult apply_in(sql::Db &db, const WriteContext &at, const AddEditor &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const RemoveEditor &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const SetEditorPassword &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const StartSession &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const EndSession &write);

// store/votes.cpp: a reader's votes, judged by the counting rule as they are written.
WriteResult apply_in(sql::Db &db, const WriteContext &at, const CastToolVote &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const CastPairVote &write);

// store/subscribers.cpp: the newsletter's list, its sign-ups and confirmation mails.
WriteResult apply_in(sql::Db &db, const WriteContext &at, const EraseSubscriber &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const Unsubscribe &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const RequestSubscription &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const ConfirmSubscription &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const Resubscribe &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const ClaimConfirmation &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const StartConfirmation &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const ConfirmationMailed &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const ConfirmationFailed &write);

// store/digests.cpp: a run of the weekly digest.
WriteResult apply_in(sql::Db &db, const WriteContext &at, const RecordDigest &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const ClaimDigestSend &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const DigestSent &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const DigestSendFailed &write);

// store/vote_log.cpp, store/content.cpp: the log's checkpoint and batches, and content as a
// file.
WriteResult apply_in(sql::Db &db, const WriteContext &at, const MakeCheckpoint &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const PublishVotes &write);
WriteResult apply_in(sql::Db &db, const WriteContext &at, const ImportContent &write);

} // namespace aggregates

} // namespace verdict
