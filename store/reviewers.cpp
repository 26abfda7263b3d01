// The reviewer panel: its personas in panel order, one reviewer as their page shows them,
// and the editor's changes to them, each written with its edit log entry.
#include "store/aggregate_writes.h"
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

namespace {
Reviewer reviewer_from_row(const sql::Stmt &row) {
  return {row.int64(0), row.text(1), row.text(2),
          row.text(3),  row.text(4), ShipTally{row.int64(5), row.int64(6)}};
}

std::vector<Reviewer> reviewers_in_panel_order(sql::Db &db, int64_t limit, int64_t offset) {
  auto stmt = db.cached("SELECT id, slug, name, lens, bio, ships, reviews FROM reviewers "
                        "ORDER BY panel_order, id LIMIT :limit OFFSET :offset");
  stmt.bind(":limit", limit).bind(":offset", offset);
  return queries::rows_of(stmt, reviewer_from_row);
}

std::optional<ContentReviewer> reviewer_at(sql::Db &db, std::string_view slug) {
  auto stmt = db.cached("SELECT slug, name, lens, bio FROM reviewers WHERE slug = :slug");
  stmt.bind(":slug", slug);
  if (!stmt.step()) return std::nullopt;
  return ContentReviewer{stmt.text(0), stmt.text(1), stmt.text(2), stmt.text(3)};
}

WriteResult reviewer_slug_taken(const std::string &slug) {
  return WriteResult::already_exists("another reviewer already has the address " + slug);
}

} // namespace

std::optional<int64_t> queries::reviewer_id(sql::Db &db, const std::string &slug) {
  return id_with_slug(db, "SELECT id FROM reviewers WHERE slug = :slug", slug);
}

std::string queries::reviewer_name(sql::Db &db, int64_t id) {
  auto stmt = db.cached("SELECT name FROM reviewers WHERE id = :id");
  stmt.bind(":id", id);
  return stmt.step() ? stmt.text(0) : std::string();
}

std::vector<Reviewer> StoreReads::reviewers() {
  return read([](sql::Db &db) { return reviewers_in_panel_order(db, -1, 0); });
}

Paged<Reviewer> StoreReads::reviewers(PageSpan span) {
  return read([&](sql::Db &db) {
    return queries::paged(span, [&](int64_t limit, int64_t offset) {
      return reviewers_in_panel_order(db, limit, offset);
    });
  });
}

std::optional<Reviewer> queries::reviewer_by_slug(sql::Db &db, std::string_view slug) {
  auto stmt = db.cached(
      "SELECT id, slug, name, lens, bio, ships, reviews FROM reviewers WHERE slug = :slug");
  stmt.bind(":slug", slug);
  if (!stmt.step()) return std::nullopt;
  return reviewer_from_row(stmt);
}

std::optional<Reviewer> StoreReads::reviewer_by_slug(std::string_view slug) {
  return read([&](sql::Db &db) { return queries::reviewer_by_slug(db, slug); });
}

std::optional<ContentReviewer> StoreReads::reviewer_content(std::string_view slug) {
  return read([&](sql::Db &db) { return reviewer_at(db, slug); });
}

namespace aggregates {

WriteResult apply_in(sql::Db &db, const WriteContext &at, const CreateReviewer &write) {
  const auto &[reviewer, editor] = write;
  if (reviewer_at(db, reviewer.slug)) return reviewer_slug_taken(reviewer.slug);
  // A new reviewer joins the end of the panel.
  auto stmt = db.cached("INSERT INTO reviewers (slug, name, lens, bio, panel_order) VALUES "
                        "(:slug, :name, :lens, :bio, (SELECT ifnull(max(panel_order), 0) + 1 "
                        "/* every row: a panel of a few personas */ FROM reviewers))");
  stmt.bind(":slug", reviewer.slug).bind(":name", reviewer.name).bind(":lens", reviewer.lens);
  stmt.bind(":bio", reviewer.bio).run();
  // The address may have been another reviewer's before it was renamed: it is this one's now.
  queries::address_taken(db, "reviewer", reviewer.slug);
  queries::log_change<ContentReviewer>(db, at, editor, "reviewer", reviewer.slug, std::nullopt,
                                       reviewer);
  return WriteResult::written();
}

WriteResult apply_in(sql::Db &db, const WriteContext &at, const UpdateReviewer &write) {
  const auto &[slug, reviewer, editor] = write;
  const auto before = reviewer_at(db, slug);
  if (!before) return queries::no_such("reviewer", slug);
  if (reviewer.slug != slug && reviewer_at(db, reviewer.slug))
    return reviewer_slug_taken(reviewer.slug);
  auto stmt = db.cached("UPDATE reviewers SET slug = :new_slug, name = :name, lens = :lens, "
                        "bio = :bio WHERE slug = :slug");
  stmt.bind(":new_slug", reviewer.slug).bind(":name", reviewer.name);
  stmt.bind(":lens", reviewer.lens).bind(":bio", reviewer.bio).bind(":slug", slug).run();
  if (reviewer.slug != slug) queries::record_rename(db, "reviewer", before->slug, reviewer.slug);
  queries::log_change<ContentReviewer>(db, at, editor, "reviewer", reviewer.slug, before, reviewer);
  return WriteResult::written();
}

WriteResult apply_in(sql::Db &db, const WriteContext &at, const DeleteReviewer &write) {
  const auto &[slug, editor] = write;
  const auto before = reviewer_at(db, slug);
  if (!before) return queries::no_such("reviewer", slug);
  auto stmt = db.cached("DELETE FROM reviewers WHERE slug = :slug"); // reviews cascade
  stmt.bind(":slug", slug).run();
  queries::forget_renames(db, "reviewer", before->slug);
  queries::log_change<ContentReviewer>(db, at, editor, "reviewer", before->slug, before,
                                       std::nullopt);
  return WriteResult::written();
}

} // namespace aggregates

} // namespace verdict
