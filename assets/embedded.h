// Files compiled into the binary (views/, public/, migrations/, content/) by cmake/embed.cmake,
// so the executable runs from any folder with nothing beside it.
#pragma once

#include <string_view>
#include <vector>

namespace verdict {

struct EmbeddedFile {
  std::string_view path; // relative to the repository root, e.g. "views/layout.mustache"
  std::string_view bytes;
};

const std::vector<EmbeddedFile> &embedded_files();

// The bytes of an embedded file; throws std::out_of_range when there is none.
std::string_view embedded(std::string_view path);

} // namespace verdict
