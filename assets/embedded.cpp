#include "assets/embedded.h"

#include <stdexcept>
#include <string>

namespace verdict {

std::string_view embedded(std::string_view path) {
  for (const auto &file : embedded_files())
    if (file.path == path) return file.bytes;
  throw std::out_of_range("no embedded file " + std::string(path));
}

} // namespace verdict
