#include "store/apply_write.h"

namespace verdict {

namespace {

// Each kind, as the Store calls that make it.
void apply_kind(Store &store, const CreateCategory &w) {
  store.create_category(w.item, w.editor);
}
void apply_kind(Store &store, const UpdateCategory &w) {
  store.update_category(w.slug, w.item, w.editor);
}
void apply_kind(Store &store, const DeleteCategory &w) {
  store.delete_category(w.slug, w.editor);
}
void apply_kind(Store &store, const CreateTool &w) {
  store.create_tool(w.item, w.editor);
}
void apply_kind(Store &store, const UpdateTool &w) {
  store.update_tool(w.slug, w.item, w.editor);
}
void apply_kind(Store &store, const DeleteTool &w) {
  store.delete_tool(w.slug, w.editor);
}
void apply_kind(Store &store, const CreateReviewer &w) {
  store.create_reviewer(w.item, w.editor);
}
void apply_kind(Store &store, const UpdateReviewer &w) {
  store.update_reviewer(w.slug, w.item, w.editor);
}
void apply_kind(Store &store, const DeleteReviewer &w) {
  store.delete_reviewer(w.slug, w.editor);
}
void apply_kind(Store &store, const CreateReview &w) {
  store.create_review(w.item, w.editor);
}
void apply_kind(Store &store, const UpdateReview &w) {
  store.update_review(w.tool, w.reviewer, w.item, w.editor);
}
void apply_kind(Store &store, const DeleteReview &w) {
  store.delete_review(w.tool, w.reviewer, w.editor);
}
void apply_kind(Store &store, const CreateComparison &w) {
  store.create_comparison(w.item, w.editor);
}
void apply_kind(Store &store, const UpdateComparison &w) {
  store.update_comparison(w.pair, w.item, w.editor);
}
void apply_kind(Store &store, const DeleteComparison &w) {
  store.delete_comparison(w.pair, w.editor);
}

} // namespace

WriteResult apply(Store &store, const Write &write) {
  using Ended = WriteResult::Ended;
  // The Store's content writes say why they wrote nothing by what they throw; this is the one
  // place that becomes a result.
  try {
    std::visit([&store](const auto &kind) { apply_kind(store, kind); }, write);
    return WriteResult::written();
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
