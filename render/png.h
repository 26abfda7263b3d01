// PNG pictures of the site's SVG images, drawn by librsvg onto a cairo surface: the share
// card as og:image, for the sites that show only bitmaps. Drawing one takes milliseconds, so
// each PNG is kept by the exact SVG it was drawn from and drawn again only when those bytes
// change (a vote or an edit that shows on the card), not at every write of the site.
#pragma once

#include <cstddef>
#include <mutex>
#include <string>

#include "base/bounded_cache.h"

namespace verdict {

class PngRenderer {
public:
  // `svg` drawn at width×height pixels, as PNG bytes. Throws std::runtime_error when librsvg
  // cannot read the SVG.
  std::string png_of(const std::string &svg, int width, int height);

  // What is kept, keys and pictures: when a new one would pass it, the memory starts over
  // (base/bounded_cache.h: each can be drawn again; none is precious). Cards exist for published
  // comparisons only, so a site needs far less than this.
  static constexpr size_t kMaxBytes = 16u << 20;
  size_t bytes() const;

private:
  mutable std::mutex kept_mutex_;
  BoundedCache<std::string> kept_{kMaxBytes}; // "WxH\n" + SVG → PNG
  // One drawing at a time: the font machinery behind librsvg keeps shared state, and a flood
  // of requests for new cards then takes one core, not all of them.
  std::mutex drawing_;
};

} // namespace verdict
