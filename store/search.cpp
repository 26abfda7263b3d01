// Full-text search over the FTS5 index of schema migration 7 (store/store.cpp): tools by
// name, tagline and description, and the panel's quotes. What a reader typed never reaches
// FTS5's query syntax: it is cut into words here, and each word goes into the query as an
// FTS5 string, so NEAR, OR, column filters, ^ and * in it are only more characters to find.
#include <string>
#include <vector>

#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

namespace {

// The most words of one search that are looked for; the rest are left out. A search box
// sends a few; this bounds what one request can ask of the index whoever calls.
constexpr size_t kMaxWords = 32;
// The last word also finds longer words it starts ("codes" finds Codestral) from this many
// bytes on; a shorter start would match a large part of the index.
constexpr size_t kMinPrefixBytes = 3;

// FTS5's own tokenizer, as the index is built with it (unicode61, remove_diacritics 2), to
// tell whether a word holds a term at all. A word of none (an emoji, a dash) would go into the
// query as an empty phrase, which matches no row, and a search for "codestral —" would find
// nothing.
class TermFinder {
public:
  explicit TermFinder(sql::Db &db) {
    fts5_api *api = nullptr;
    sqlite3_stmt *raw = nullptr;
    // FTS5 hands out its API through a pointer bound to this one statement (sqlite.org/fts5.html).
    if (sqlite3_prepare_v2(db.handle(), "SELECT fts5(?1)", -1, &raw, nullptr) == SQLITE_OK) {
      sqlite3_bind_pointer(raw, 1, static_cast<void *>(&api), "fts5_api_ptr", nullptr);
      sqlite3_step(raw);
    }
    sqlite3_finalize(raw);
    void *context = nullptr;
    if (!api || api->xFindTokenizer(api, "unicode61", &context, &type_) != SQLITE_OK)
      throw std::runtime_error("sqlite: FTS5's unicode61 tokenizer is missing");
    const char *arguments[] = {"remove_diacritics", "2"};
    if (type_.xCreate(context, arguments, 2, &tokenizer_) != SQLITE_OK)
      throw std::runtime_error("sqlite: FTS5's unicode61 tokenizer cannot be made");
  }
  ~TermFinder() { type_.xDelete(tokenizer_); }
  TermFinder(const TermFinder &) = delete;
  TermFinder &operator=(const TermFinder &) = delete;

  bool holds_a_term(std::string_view word) {
    bool found = false;
    // Stops at the first term: a callback's answer other than SQLITE_OK ends the tokenizing.
    const auto first_term = [](void *context, int, const char *, int, int, int) {
      *static_cast<bool *>(context) = true;
      return SQLITE_DONE;
    };
    type_.xTokenize(tokenizer_, &found, FTS5_TOKENIZE_QUERY, word.data(),
                    static_cast<int>(word.size()), first_term);
    return found;
  }

private:
  fts5_tokenizer type_{};
  Fts5Tokenizer *tokenizer_ = nullptr;
};

bool separates_words(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte <= 0x20 || byte == 0x7f; // spaces and control characters, NUL included
}

// The FTS5 query for what a reader typed: each word that holds a term as an FTS5 string (a
// `"` in it doubled), all of them required; the last one, when long enough, also as the start
// of a longer word. Empty when no word holds a term.
std::string match_expression(sql::Db &db, std::string_view text) {
  TermFinder terms(db);
  std::vector<std::string_view> words;
  size_t at = 0;
  while (words.size() < kMaxWords) {
    while (at < text.size() && separates_words(text[at]))
      ++at;
    if (at == text.size()) break;
    const auto start = at;
    while (at < text.size() && !separates_words(text[at]))
      ++at;
    const auto word = text.substr(start, at - start);
    if (terms.holds_a_term(word)) words.push_back(word);
  }
  std::string expression;
  for (const auto word : words) {
    if (!expression.empty()) expression += " AND ";
    expression += '"';
    for (const char c : word)
      expression += c == '"' ? std::string("\"\"") : std::string(1, c);
    expression += '"';
  }
  if (!words.empty() && words.back().size() >= kMinPrefixBytes) expression += '*';
  return expression;
}

// Which row a ranked hit is, before its texts are read.
struct RankedHit {
  SearchHit::Kind kind;
  int64_t id; // the tool's or the review's
};

SearchHit tool_hit(sql::Db &db, const std::string &query, int64_t id) {
  // Its name and tagline with the matches marked by char(1) and char(2) (kMatchStart,
  // kMatchEnd), and the part of its description with the most matches, up to 24 words.
  auto stmt = db.cached("SELECT t.slug, highlight(tool_search, 0, char(1), char(2)), "
                        "highlight(tool_search, 1, char(1), char(2)), "
                        "snippet(tool_search, 2, char(1), char(2), '…', 24) "
                        "FROM tool_search JOIN tools t ON t.id = tool_search.rowid "
                        "WHERE tool_search MATCH :query AND tool_search.rowid = :id");
  stmt.bind(":query", query).bind(":id", id);
  if (!stmt.step()) throw std::runtime_error("a ranked tool is missing from the search index");
  SearchHit hit;
  hit.kind = SearchHit::Kind::tool;
  hit.tool_slug = stmt.text(0);
  hit.tool_name = stmt.text(1);
  hit.tagline = stmt.text(2);
  hit.excerpt = stmt.text(3);
  return hit;
}

SearchHit review_hit(sql::Db &db, const std::string &query, int64_t id) {
  // The part of the quote with the most matches, up to 32 words, marked as a tool's texts
  // are; and the review's place in its tool's panel order, which says the tool's page that
  // shows it.
  auto stmt =
      db.cached("SELECT t.slug, t.name, r.slug, r.name, r.lens, v.verdict, "
                "snippet(review_search, 0, char(1), char(2), '…', 32), "
                "(SELECT count(*) FROM reviews o JOIN reviewers p ON p.id = o.reviewer_id "
                "WHERE o.tool_id = v.tool_id AND (p.panel_order, p.id) < (r.panel_order, r.id)) "
                "FROM review_search JOIN reviews v ON v.id = review_search.rowid "
                "JOIN tools t ON t.id = v.tool_id JOIN reviewers r ON r.id = v.reviewer_id "
                "WHERE review_search MATCH :query AND review_search.rowid = :id");
  stmt.bind(":query", query).bind(":id", id);
  if (!stmt.step()) throw std::runtime_error("a ranked review is missing from the search index");
  SearchHit hit;
  hit.kind = SearchHit::Kind::review;
  hit.tool_slug = stmt.text(0);
  hit.tool_name = stmt.text(1);
  hit.reviewer_slug = stmt.text(2);
  hit.reviewer_name = stmt.text(3);
  hit.reviewer_lens = stmt.text(4);
  hit.verdict = verdict_from_word(stmt.text(5)).value_or(Verdict::skip);
  hit.excerpt = stmt.text(6);
  hit.review_position = stmt.int64(7);
  return hit;
}

} // namespace

SearchResults Store::search(std::string_view text, PageSpan span) {
  return read([&](sql::Db &db) {
    SearchResults results;
    results.hits.number = span.number;
    const auto query = match_expression(db, text);
    if (query.empty()) return results;
    sql::ReadSnapshot snapshot(db); // the ranking and the texts read are of one moment
    const auto page = [&] {
      // Ranked first, texts after for the page's hits alone: an excerpt costs reading and
      // tokenizing its text again. bm25 weighs a match in a tool's name above one in its
      // tagline above one in its description; a quote counts as a description does. Ties go
      // to tools, then to the older row, so pages never overlap.
      auto stmt =
          db.cached("SELECT kind, id, count(*) OVER () FROM ("
                    "SELECT 0 AS kind, rowid AS id, bm25(tool_search, 10.0, 4.0, 1.0) AS score "
                    "FROM tool_search WHERE tool_search MATCH :query "
                    "UNION ALL SELECT 1, rowid, bm25(review_search, 1.0) "
                    "FROM review_search WHERE review_search MATCH :query) "
                    "ORDER BY score, kind, id LIMIT :limit OFFSET :offset");
      stmt.bind(":query", query);
      return queries::paged(stmt, span, [&](const sql::Stmt &row) {
        results.total = row.int64(2);
        return RankedHit{row.int64(0) == 0 ? SearchHit::Kind::tool : SearchHit::Kind::review,
                         row.int64(1)};
      });
    }();
    results.hits.has_next = page.has_next;
    for (const auto &hit : page.items)
      results.hits.items.push_back(hit.kind == SearchHit::Kind::tool
                                       ? tool_hit(db, query, hit.id)
                                       : review_hit(db, query, hit.id));
    return results;
  });
}

} // namespace verdict
