#include "store/write_refusals.h"

namespace verdict {

WriteResult failed_with(std::exception_ptr thrown) {
  try {
    std::rethrow_exception(thrown);
  } catch (const std::exception &e) {
    return WriteResult::not_done(WriteResult::Ended::failed, e.what());
  } catch (...) {
    return WriteResult::not_done(WriteResult::Ended::failed, "unknown error");
  }
}

void throw_unless_done(const WriteResult &result) {
  if (!result.done()) throw WriteNotDone(result);
}

} // namespace verdict
