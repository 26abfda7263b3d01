// The templates in views/ and the static files in public/, both compiled into the binary.
// Templates are parsed once at start-up, and a template that does not parse stops the server
// from starting. One layout wraps every page through its single {{{content}}} slot; every other
// value is escaped by mustache.
#pragma once

#include <kainjow/mustache.hpp>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "domain/model.h"

namespace verdict {

using Data = kainjow::mustache::data;

// The banner above a desk preview of a page: what readers see of it ("Draft — not
// published."), what follows that, and the desk page it links back to. None when empty.
struct DeskPreview {
  std::string banner;
  std::string note;
  std::string back;
};

struct PageMeta {
  std::string title;
  std::string description;
  std::string canonical_path;
  bool noindex = false; // a page search engines should not list (a pair nobody published)
  std::string structured_data = {}; // schema.org JSON-LD about the page, or empty
  std::string feed_path = {};       // the Atom feed of what is new on this page, or empty
  std::string feed_title = {};
  // The picture a link to the page shows (og:image), as a path; none when empty.
  std::string image_path = {};
  int image_width = 0, image_height = 0; // px
  std::string image_alt = {};            // what the picture says
  // How many entries the vote log held when the page's community numbers were read, for
  // `verdict verify` (domain/tallies.h); empty on a page that shows none of its own.
  std::string vote_log_size = {};
  DeskPreview preview = {}; // a desk preview's banner, when it is one
};

struct StaticAsset {
  std::string content_type;
  std::string_view bytes;
};

class Views {
public:
  Views(); // throws std::runtime_error naming the template that does not parse
  Views(const Views &) = delete;
  Views &operator=(const Views &) = delete;

  // Renders views/<name>.mustache with `data`.
  std::string fragment(std::string_view name, const Data &data) const;
  // Renders views/<name>.mustache inside the layout.
  std::string page(std::string_view name, const Data &data, const PageMeta &meta,
                   const SiteCopy &site) const;

  // The site's public address ("https://verdict.example", no trailing slash): canonical and
  // og:url links, the sitemap and feeds are absolute under it. Empty: links are paths. Set
  // before serving.
  void set_base_url(std::string base_url) { base_url_ = std::move(base_url); }
  const std::string &base_url() const { return base_url_; }
  // The address of `path` for links read away from the page (canonical, og:url, og:image,
  // embed snippets): absolute under the base URL. Without one it stays a path: a page is
  // kept and shared by readers whatever Host they sent, so it cannot carry one reader's Host.
  std::string public_url(std::string_view path) const { return base_url_ + std::string(path); }

  // A line every page shows at its top while it is set (a node of a cluster that has fallen
  // behind its stream of writes: app/server.cpp), and empty again once it is not. Pages kept
  // from before are not the server's business here: whoever sets it moves the page epoch.
  void set_notice(std::string notice);
  bool has_notice() const { return has_notice_.load(std::memory_order_relaxed); }

  // Static files are served at content-hashed paths, e.g. /static/style.3f2a9c1e.css, so
  // they can be cached forever; `public_path` maps "style.css" to that path.
  std::string public_path(std::string_view file) const;
  const StaticAsset *asset_at(std::string_view url_path) const;

private:
  // kainjow's render() is not const but does not modify a parsed template that uses no
  // partials or lambdas (ours use neither), so concurrent renders are safe.
  mutable std::map<std::string, kainjow::mustache::mustache, std::less<>> templates_;
  std::map<std::string, std::string, std::less<>> public_paths_;
  std::map<std::string, StaticAsset, std::less<>> assets_;
  std::string base_url_;
  mutable std::mutex notice_mutex_;
  std::string notice_;
  std::atomic<bool> has_notice_{false};
};

} // namespace verdict
