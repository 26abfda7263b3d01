// The vote log and its checkpoints, as JSON (render/transparency.h): what `verdict verify` and
// anyone else reads to check that the published numbers are what the votes say. The
// checkpoint is kept and given again like the API (api_read); entries and proofs, whose
// answers depend on their whole query, are made for each request (api_query_read).
#include "render/transparency.h"
#include "auth/log_signing.h"
#include "handlers/handlers.h"
#include "middleware/request_parsing.h"
#include "middleware/request_reading.h"
#include "middleware/responses.h"
#include "render/api.h"
#include "transport/cache_policy.h"

namespace verdict::handlers {

namespace {

// Entries one answer of /transparency/log gives at most.
constexpr size_t kLogPageSize = 1000;

// For an answer that can never change: a full page of the log (entries are only ever added
// after it) and a proof between sizes a checkpoint has sealed.
void mark_unchanging(Response &res) {
  set_cache_policy(res, CachePolicy::immutable);
}

bool present(const Request &req, const char *name) {
  return !param_values(req, name).empty();
}

} // namespace

// GET /transparency/checkpoint — the latest signed checkpoint and the key that signed it.
void transparency_checkpoint(App &app, StoreReads &site, const Request &, Response &res,
                             const UrlCaptures &) {
  const auto checkpoint = site.latest_checkpoint();
  if (!checkpoint)
    return send_json(res, api::error("the site has made no checkpoint of its vote log yet"), 404);
  send_json(res, transparency::checkpoint(*checkpoint, auth::public_key_of(app.log_signing_key)));
}

// GET /transparency/log — entries from leaf `from` (0 when absent), 1,000 at a time.   from=N
void transparency_log(App &, StoreReads &site, const Request &req, Response &res,
                      const UrlCaptures &) {
  const auto from = present(req, "from") ? parse_log_number(param_values(req, "from"))
                                         : std::optional<uint64_t>(0);
  if (!from)
    return send_json(res, api::error("from must be one whole number from 0, like ?from=1000"), 400);
  auto entries = site.vote_log(*from, kLogPageSize + 1);
  const bool more = entries.size() > kLogPageSize;
  if (more) entries.pop_back();
  send_json(res, transparency::log_entries(*from, entries, more));
  if (more) mark_unchanging(res);
}

// GET /transparency/proof — leaf=N&size=M: that leaf's inclusion in the tree of M leaves;
// from=M&size=N: the tree of M leaves is the start of the tree of N. Sizes up to the latest
// checkpoint's.
void transparency_proof(App &, StoreReads &site, const Request &req, Response &res,
                        const UrlCaptures &) {
  const auto size = parse_log_number(param_values(req, "size"));
  const bool inclusion = present(req, "leaf"), consistency = present(req, "from");
  const auto first = parse_log_number(param_values(req, inclusion ? "leaf" : "from"));
  if (!size || inclusion == consistency || !first)
    return send_json(res,
                     api::error("ask for leaf=N&size=M (an inclusion proof) or from=M&size=N (a "
                                "consistency proof), each a whole number from 0"),
                     400);
  try {
    if (inclusion) {
      const auto path = site.inclusion_proof(*first, *size);
      const auto entries = site.vote_log(*first, 1);
      if (entries.empty()) throw NotFound("the log holds no such leaf");
      send_json(res, transparency::inclusion(*first, *size, entries.front().hash, path));
      return mark_unchanging(res);
    }
    send_json(res, transparency::consistency(*first, *size, site.consistency_proof(*first, *size)));
    mark_unchanging(res);
  } catch (const NotFound &e) {
    send_json(res, api::error(e.what()), 404);
  }
}

} // namespace verdict::handlers
