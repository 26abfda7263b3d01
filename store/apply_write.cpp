#include "store/apply_write.h"

namespace verdict {

namespace {

// Each kind, as the Store calls that make it.
WriteResult apply_kind(Store &store, const CreateCategory &w) {
  store.create_category(w.item, w.editor);
  return WriteResult::written();
}
WriteResult apply_kind(Store &store, const UpdateCategory &w) {
  store.update_category(w.slug, w.item, w.editor);
  return WriteResult::written();
}
WriteResult apply_kind(Store &store, const DeleteCategory &w) {
  store.delete_category(w.slug, w.editor);
  return WriteResult::written();
}
WriteResult apply_kind(Store &store, const CreateTool &w) {
  store.create_tool(w.item, w.editor);
  return WriteResult::written();
}
WriteResult apply_kind(Store &store, const UpdateTool &w) {
  store.update_tool(w.slug, w.item, w.editor);
  return WriteResult::written();
}
WriteResult apply_kind(Store &store, const DeleteTool &w) {
  store.delete_tool(w.slug, w.editor);
  return WriteResult::written();
}
WriteResult apply_kind(Store &store, const CreateReviewer &w) {
  store.create_reviewer(w.item, w.editor);
  return WriteResult::written();
}
WriteResult apply_kind(Store &store, const UpdateReviewer &w) {
  store.update_reviewer(w.slug, w.item, w.editor);
  return WriteResult::written();
}
WriteResult apply_kind(Store &store, const DeleteReviewer &w) {
  store.delete_reviewer(w.slug, w.editor);
  return WriteResult::written();
}
WriteResult apply_kind(Store &store, const CreateReview &w) {
  store.create_review(w.item, w.editor);
  return WriteResult::written();
}
WriteResult apply_kind(Store &store, const UpdateReview &w) {
  store.update_review(w.tool, w.reviewer, w.item, w.editor);
  return WriteResult::written();
}
WriteResult apply_kind(Store &store, const DeleteReview &w) {
  store.delete_review(w.tool, w.reviewer, w.editor);
  return WriteResult::written();
}
WriteResult apply_kind(Store &store, const CreateComparison &w) {
  store.create_comparison(w.item, w.editor);
  return WriteResult::written();
}
WriteResult apply_kind(Store &store, const UpdateComparison &w) {
  store.update_comparison(w.pair, w.item, w.editor);
  return WriteResult::written();
}
WriteResult apply_kind(Store &store, const DeleteComparison &w) {
  store.delete_comparison(w.pair, w.editor);
  return WriteResult::written();
}

WriteResult apply_kind(Store &store, const AddEditor &w) {
  store.add_editor(w.email, w.password_hash);
  return WriteResult::written();
}
WriteResult apply_kind(Store &store, const RemoveEditor &w) {
  if (store.remove_editor(w.email)) return WriteResult::written();
  return WriteResult::not_done(WriteResult::Ended::not_found, w.email + " is not an editor");
}
WriteResult apply_kind(Store &store, const SetEditorPassword &w) {
  if (store.set_editor_password(w.email, w.password_hash)) return WriteResult::written();
  return WriteResult::not_done(WriteResult::Ended::not_found, w.email + " is not an editor");
}
WriteResult apply_kind(Store &store, const StartSession &w) {
  store.start_session(w.secret_hash, w.editor_id, w.csrf_token, w.expires_at);
  return WriteResult::written();
}
WriteResult apply_kind(Store &store, const EndSession &w) {
  store.end_session(w.secret_hash);
  return WriteResult::written();
}
WriteResult apply_kind(Store &store, const EraseSubscriber &w) {
  if (store.erase_subscriber(w.id, w.editor)) return WriteResult::written();
  return WriteResult::not_done(WriteResult::Ended::not_found, "that subscriber is not on the list");
}
// Done whether it left now or had left before: either way the address is off the list.
WriteResult apply_kind(Store &store, const Unsubscribe &w) {
  store.unsubscribe(w.id);
  return WriteResult::written();
}

WriteResult apply_kind(Store &store, const CastToolVote &w) {
  (void)store.cast_tool_vote(w.ballot, w.tool, w.verdict);
  return WriteResult::written();
}
WriteResult apply_kind(Store &store, const CastPairVote &w) {
  (void)store.cast_pair_vote(w.ballot, w.a, w.b, w.pick);
  return WriteResult::written();
}

WriteResult apply_kind(Store &store, const RequestSubscription &w) {
  return WriteResult::written(
      store.request_subscription(w.email, w.now, [may = w.may_mail] { return may; }));
}
WriteResult apply_kind(Store &store, const ConfirmSubscription &w) {
  return WriteResult::written(store.confirm_subscription(w.token_hash, w.now));
}
WriteResult apply_kind(Store &store, const Resubscribe &w) {
  return WriteResult::written(store.resubscribe(w.id));
}
WriteResult apply_kind(Store &store, const ClaimConfirmation &w) {
  return WriteResult::written(store.claim_confirmation(w.subscriber, w.now, w.lease_seconds));
}
WriteResult apply_kind(Store &store, const StartConfirmation &w) {
  return WriteResult::written(store.start_confirmation(w.subscriber, w.token_hash, w.expires_at));
}
WriteResult apply_kind(Store &store, const ConfirmationMailed &w) {
  store.confirmation_mailed(w.subscriber);
  return WriteResult::written();
}
WriteResult apply_kind(Store &store, const ConfirmationFailed &w) {
  store.confirmation_failed(w.subscriber, w.next_attempt_at, w.error);
  return WriteResult::written();
}

WriteResult apply_kind(Store &store, const RecordDigest &w) {
  (void)store.digest_to_send(w.today, w.days, true);
  return WriteResult::written();
}
WriteResult apply_kind(Store &store, const ClaimDigestSend &w) {
  return WriteResult::written(store.claim_digest_send(w.digest, w.subscriber));
}
WriteResult apply_kind(Store &store, const DigestSent &w) {
  store.digest_sent(w.digest, w.subscriber);
  return WriteResult::written();
}
WriteResult apply_kind(Store &store, const DigestSendFailed &w) {
  store.digest_send_failed(w.digest, w.subscriber, w.failure, w.error);
  return WriteResult::written();
}

// Every node's checkpointer asks once a day: the first asked is made, and the others, finding
// one younger than half a day, add none.
WriteResult apply_kind(Store &store, const MakeCheckpoint &w) {
  const auto latest = store.latest_checkpoint();
  if (!latest || w.now - latest->made_at >= kCheckpointEverySeconds / 2)
    (void)store.make_checkpoint(store.log_signing_key(), w.now);
  return WriteResult::written();
}
WriteResult apply_kind(Store &store, const ImportContent &w) {
  return WriteResult::written(store.import_content(w.content));
}

} // namespace

WriteResult apply(Store &store, const Write &write) {
  try {
    return std::visit([&store](const auto &kind) { return apply_kind(store, kind); }, write);
  } catch (...) {
    return result_of(std::current_exception());
  }
}

void apply_queued(Store &store, const Write &write, WriteDone done) {
  if (const auto *vote = std::get_if<CastToolVote>(&write))
    return store.cast_tool_vote(vote->ballot, vote->tool, vote->verdict, std::move(done));
  if (const auto *vote = std::get_if<CastPairVote>(&write))
    return store.cast_pair_vote(vote->ballot, vote->a, vote->b, vote->pick, std::move(done));
  done(apply(store, write));
}

WriteResult result_of(std::exception_ptr thrown) {
  using Ended = WriteResult::Ended;
  try {
    std::rethrow_exception(thrown);
  } catch (const NotFound &e) {
    return WriteResult::not_done(Ended::not_found, e.what());
  } catch (const AlreadyExists &e) {
    return WriteResult::not_done(Ended::already_exists, e.what());
  } catch (const Refused &e) {
    return WriteResult::not_done(Ended::refused, e.what());
  } catch (const StoreUnavailable &e) {
    return WriteResult::not_done(Ended::unavailable, e.what());
  } catch (const std::exception &e) {
    return WriteResult::not_done(Ended::failed, e.what());
  } catch (...) {
    return WriteResult::not_done(Ended::failed, "unknown error");
  }
}

void raise_unless_done(const WriteResult &result) {
  switch (result.ended) {
  case WriteResult::Ended::done:
    return;
  case WriteResult::Ended::not_found:
    throw NotFound(result.words);
  case WriteResult::Ended::already_exists:
    throw AlreadyExists(result.words);
  case WriteResult::Ended::refused:
    throw Refused(result.words);
  case WriteResult::Ended::unavailable:
    throw StoreUnavailable(result.words);
  case WriteResult::Ended::failed:
    break;
  }
  throw std::runtime_error(result.words);
}

} // namespace verdict
