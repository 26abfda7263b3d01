#include "render/png.h"

#include <cairo.h>
#include <librsvg/rsvg.h>

#include <memory>
#include <stdexcept>

namespace verdict {

namespace {

struct HandleRelease {
  void operator()(RsvgHandle *handle) const { g_object_unref(handle); }
};
struct SurfaceRelease {
  void operator()(cairo_surface_t *surface) const { cairo_surface_destroy(surface); }
};
struct ContextRelease {
  void operator()(cairo_t *cr) const { cairo_destroy(cr); }
};

// Takes librsvg's error, freeing it, as an exception.
[[noreturn]] void throw_error(const char *what, GError *error) {
  std::string message = std::string(what) + ": " + (error ? error->message : "unknown error");
  g_clear_error(&error);
  throw std::runtime_error(message);
}

cairo_status_t append_to_string(void *closure, const unsigned char *data, unsigned int length) {
  static_cast<std::string *>(closure)->append(reinterpret_cast<const char *>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

std::string draw(const std::string &svg, int width, int height) {
  GError *error = nullptr;
  std::unique_ptr<RsvgHandle, HandleRelease> handle(
      rsvg_handle_new_from_data(reinterpret_cast<const guint8 *>(svg.data()), svg.size(), &error));
  if (!handle) throw_error("librsvg could not read the SVG", error);
  // Opaque: every image drawn here paints its own background, and the PNG is smaller so.
  std::unique_ptr<cairo_surface_t, SurfaceRelease> surface(
      cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height));
  std::unique_ptr<cairo_t, ContextRelease> cr(cairo_create(surface.get()));
  const RsvgRectangle viewport{0, 0, static_cast<double>(width), static_cast<double>(height)};
  if (!rsvg_handle_render_document(handle.get(), cr.get(), &viewport, &error))
    throw_error("librsvg could not draw the SVG", error);
  cairo_surface_flush(surface.get());
  std::string png;
  if (cairo_surface_write_to_png_stream(surface.get(), append_to_string, &png) !=
      CAIRO_STATUS_SUCCESS)
    throw std::runtime_error("cairo could not write the PNG");
  return png;
}

} // namespace

std::string PngRenderer::png_of(const std::string &svg, int width, int height) {
  const auto key = std::to_string(width) + "x" + std::to_string(height) + "\n" + svg;
  {
    std::lock_guard lock(kept_mutex_);
    if (const auto *png = kept_.find(key)) return *png;
  }
  std::lock_guard drawing(drawing_);
  {
    std::lock_guard lock(kept_mutex_); // drawn while this request waited its turn?
    if (const auto *png = kept_.find(key)) return *png;
  }
  auto png = draw(svg, width, height);
  std::lock_guard lock(kept_mutex_);
  kept_.put(key, png, png.size());
  return png;
}

size_t PngRenderer::bytes() const {
  std::lock_guard lock(kept_mutex_);
  return kept_.bytes();
}

} // namespace verdict
