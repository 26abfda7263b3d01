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

} // namespace

WriteResult apply(Store &store, const Write &write) {
  using Ended = WriteResult::Ended;
  // The Store's writes say why they wrote nothing by what they throw, or by the false they
  // return; this is the one place either becomes a result.
  try {
    return std::visit([&store](const auto &kind) { return apply_kind(store, kind); }, write);
  } catch (const NotFound &e) {
    return WriteResult::not_done(Ended::not_found, e.what());
  } catch (const AlreadyExists &e) {
    return WriteResult::not_done(Ended::already_exists, e.what());
  } catch (const Refused &e) {
    return WriteResult::not_done(Ended::refused, e.what());
  } catch (const StoreUnavailable &e) {
    return WriteResult::not_done(Ended::failed, e.what());
  }
}

} // namespace verdict
