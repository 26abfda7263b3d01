// The head of a 200 answer written exactly as cpp-httplib writes it on a kept-alive connection,
// for answers the transport gives without httplib (a voter's page): the status line, then the
// headers sorted by name ignoring case (httplib keeps them in such a map), Content-Length and
// Keep-Alive among them. A reader's browser and any cache in front must not be able to tell
// which of the two wrote an answer; tests compare them byte for byte.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace verdict::transport {

using Headers = std::vector<std::pair<std::string, std::string>>;

// The fixed text of such a head around the two values that change from answer to answer of
// the same page: its Content-Length and its ETag (which sorts after it). Made once per page, so
// writing an answer's head is five appends.
class HeadAround {
public:
  HeadAround() = default;
  // `headers` without Content-Length, ETag and Keep-Alive; `keep_alive` is that header's value.
  HeadAround(Headers headers, std::string_view keep_alive);

  void write(std::string &out, size_t body_length, std::string_view etag) const;

private:
  std::string before_length_, before_etag_, after_etag_;
};

} // namespace verdict::transport
