#include "domain/vote_log.h"

namespace verdict {

std::string checkpoint_text(const Checkpoint &checkpoint) {
  return "verdict vote log\n" + std::to_string(checkpoint.size) + "\n" +
         merkle::hex(checkpoint.root) + "\n" + std::to_string(checkpoint.made_at) + "\n";
}

} // namespace verdict
