#include "store/site_writes.h"

#include "store/apply_write.h"

namespace verdict {

WriteResult StoreWrites::submit(const Write &write) {
  return apply(store_, write, store_.context_at(clock_.now_ms()));
}

void StoreWrites::submit_queued(const Write &write, WriteDone done) {
  apply_queued(store_, write, store_.context_at(clock_.now_ms()), std::move(done));
}

std::string StoreKeys::site_secret(std::string_view name, std::string_view if_new) {
  return store_.site_secret(name, if_new);
}

std::string StoreKeys::log_signing_key() {
  return store_.log_signing_key();
}

} // namespace verdict
