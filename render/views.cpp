#include "render/views.h"

#include <stdexcept>

#include "assets/embedded.h"
#include "domain/content_hash.h"

namespace verdict {

namespace {

std::string content_type_of(std::string_view name) {
  const auto ends_with = [&](std::string_view suffix) {
    return name.size() >= suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
  };
  if (ends_with(".css")) return "text/css; charset=utf-8";
  if (ends_with(".svg")) return "image/svg+xml";
  if (ends_with(".txt")) return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

} // namespace

Views::Views() {
  constexpr std::string_view views_dir = "views/", public_dir = "public/", suffix = ".mustache";
  for (const auto &file : embedded_files()) {
    if (file.path.substr(0, views_dir.size()) == views_dir) {
      auto name = file.path.substr(views_dir.size());
      name.remove_suffix(suffix.size());
      kainjow::mustache::mustache parsed{std::string(file.bytes)};
      if (!parsed.is_valid())
        throw std::runtime_error("template " + std::string(file.path) + ": " +
                                 parsed.error_message());
      // A mail's plain-text part (mail_*_text) is read by no HTML parser: its values go in
      // as they are, since escaping would show "&amp;" to the reader.
      if (name.ends_with("_text"))
        parsed.set_custom_escape([](const std::string &text) { return text; });
      templates_.emplace(std::string(name), std::move(parsed));
    } else if (file.path.substr(0, public_dir.size()) == public_dir) {
      const auto name = std::string(file.path.substr(public_dir.size()));
      const auto dot = name.rfind('.');
      const auto hashed =
          "/static/" + name.substr(0, dot) + "." + content_hash(file.bytes, 10) + name.substr(dot);
      public_paths_.emplace(name, hashed);
      assets_.emplace(hashed, StaticAsset{content_type_of(name), file.bytes});
    }
  }
}

std::string Views::fragment(std::string_view name, const Data &data) const {
  const auto it = templates_.find(name);
  if (it == templates_.end()) throw std::out_of_range("no template " + std::string(name));
  return it->second.render(data);
}

std::string Views::page(std::string_view name, const Data &data, const PageMeta &meta,
                        const SiteCopy &site) const {
  Data layout;
  layout.set("title", meta.title);
  layout.set("description", meta.description);
  layout.set("canonical", public_url(meta.canonical_path));
  if (!meta.image_path.empty()) {
    Data image;
    image.set("url", public_url(meta.image_path));
    image.set("width", std::to_string(meta.image_width));
    image.set("height", std::to_string(meta.image_height));
    image.set("alt", meta.image_alt);
    layout.set("image", image);
  }
  if (meta.noindex) layout.set("noindex", Data::type::bool_true);
  if (!meta.vote_log_size.empty()) layout.set("vote_log_size", meta.vote_log_size);
  if (!meta.preview.banner.empty()) {
    Data preview;
    preview.set("banner", meta.preview.banner);
    preview.set("note", meta.preview.note);
    preview.set("back", meta.preview.back);
    layout.set("preview", preview);
  }
  if (has_notice()) {
    std::lock_guard lock(notice_mutex_);
    if (!notice_.empty()) layout.set("notice", notice_);
  }
  if (!meta.feed_path.empty()) {
    layout.set("feed", base_url_ + meta.feed_path);
    layout.set("feed_title", meta.feed_title);
  }
  if (!meta.structured_data.empty()) {
    // Inside <script> nothing may read as markup: the characters that could are written as
    // JSON escapes, which mean the same to a JSON reader.
    std::string json;
    for (const char c : meta.structured_data) {
      switch (c) {
      case '<':
        json += "\\u003c";
        break;
      case '>':
        json += "\\u003e";
        break;
      case '&':
        json += "\\u0026";
        break;
      case '\'':
        json += "\\u0027";
        break;
      default:
        json += c;
      }
    }
    layout.set("structured_data", json);
  }
  layout.set("site_name", site.site_name);
  layout.set("site_tagline", site.site_tagline);
  layout.set("stylesheet", public_path("style.css"));
  layout.set("favicon", public_path("favicon.svg"));
  layout.set("content", fragment(name, data));
  return fragment("layout", layout);
}

void Views::set_notice(std::string notice) {
  std::lock_guard lock(notice_mutex_);
  notice_ = std::move(notice);
  has_notice_ = !notice_.empty();
}

std::string Views::public_path(std::string_view file) const {
  const auto it = public_paths_.find(file);
  if (it == public_paths_.end()) throw std::out_of_range("no public file " + std::string(file));
  return it->second;
}

const StaticAsset *Views::asset_at(std::string_view url_path) const {
  const auto it = assets_.find(url_path);
  return it == assets_.end() ? nullptr : &it->second;
}

} // namespace verdict
