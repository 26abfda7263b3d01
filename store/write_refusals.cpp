#include "store/write_refusals.h"

namespace verdict {

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
