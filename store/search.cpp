// Full-text search over the FTS5 index of schema migration 7 (store/store.cpp): tools by
// name, tagline and description, and the panel's quotes. What a reader typed never reaches
// FTS5's query syntax: it is cut into words here, and each word goes into the query as an
// FTS5 string, so NEAR, OR, column filters, ^ and * in it are only more characters to find.
#include <algorithm>
#include <string>
#include <vector>

#include "domain/text.h"
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

// The words of what a reader typed that hold a term, at most kMaxWords.
std::vector<std::string_view> query_words(TermFinder &terms, std::string_view text) {
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
  return words;
}

// The FTS5 query for `words`: each as an FTS5 string (a `"` in it doubled), all of them
// required; the last one, when long enough, also as the start of a longer word. Empty when
// there are none.
std::string expression_of(const std::vector<std::string_view> &words) {
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

// The FTS5 query for what a reader typed.
std::string match_expression(sql::Db &db, std::string_view text) {
  TermFinder terms(db);
  return expression_of(query_words(terms, text));
}

// Words that join two tools' names in a question about both ("cursor vs codestral").
bool joins_two_names(std::string_view word) {
  const auto lower = ascii_lowercase(word);
  return lower == "vs" || lower == "vs." || lower == "v" || lower == "v." || lower == "versus" ||
         lower == "or" || lower == "and" || lower == "compare" || lower == "compared";
}

// The tools whose names hold all of `words`, best match first, at most `limit`.
std::vector<int64_t> tools_named(sql::Db &db, const std::vector<std::string_view> &words,
                                 int64_t limit) {
  if (words.empty()) return {};
  // A name that is exactly the words first ("code llama 4" is Code Llama 4, not Code Llama
  // 4 70B), then by rank.
  std::string spelled;
  for (const auto word : words)
    spelled += (spelled.empty() ? "" : " ") + std::string(word);
  auto stmt = db.cached("SELECT rowid FROM tool_search WHERE tool_search MATCH :query "
                        "ORDER BY lower(name) = lower(:spelled) DESC, "
                        "bm25(tool_search, 10.0, 4.0, 1.0), rowid LIMIT :limit");
  stmt.bind(":query", "name : (" + expression_of(words) + ")").bind(":spelled", spelled);
  stmt.bind(":limit", limit);
  std::vector<int64_t> ids;
  while (stmt.step())
    ids.push_back(stmt.int64(0));
  return ids;
}

// The pair of tools `x` and `y` as a search offers it: in the editor's order when it is
// written up, its published state and who leads it.
ComparisonHit comparison_hit(sql::Db &db, int64_t x, int64_t y) {
  const auto tool = [&db](int64_t id) {
    const auto naming = queries::tool_naming(db, id).value_or(queries::ToolNaming{});
    return std::pair{ToolKey{id, naming.slug}, naming.name};
  };
  auto first = tool(x), second = tool(y);
  const auto record = queries::comparison_of_pair(db, x, y);
  if (!queries::named_first(record, x, first.first.slug, second.first.slug))
    std::swap(first, second);
  ComparisonHit hit;
  hit.a = first.first;
  hit.b = second.first;
  hit.a_name = first.second;
  hit.b_name = second.second;
  hit.published = record && record->readers_see;
  hit.numbers = queries::pair_numbers(db, hit.a.id, hit.b.id);
  return hit;
}

// The comparisons a search offers before its other results: the pair its words name, one
// name on each side of a split ("cursor vs codestral", "cursor codestral"), published or
// not; then the published comparisons of the tools its words name.
std::vector<ComparisonHit> comparison_hits(sql::Db &db, std::string_view text) {
  constexpr int64_t kMostComparisons = 5;
  TermFinder terms(db);
  std::vector<std::string_view> words;
  size_t joined_at = 0; // where a joining word was, when there was one
  for (const auto word : query_words(terms, text)) {
    if (joins_two_names(word)) {
      if (!words.empty() && joined_at == 0) joined_at = words.size();
      continue;
    }
    words.push_back(word);
  }
  std::vector<std::pair<int64_t, int64_t>> pairs;
  const auto named = tools_named(db, words, kMostComparisons);
  // Words that all fit one tool's name name that tool ("code llama 4"), unless a joining
  // word says two are meant; other words are tried as two names, at the joining word first.
  std::vector<size_t> splits;
  if (joined_at > 0 && joined_at < words.size()) splits.push_back(joined_at);
  for (size_t split = 1; split < words.size() && splits.size() < 8 && named.empty(); ++split)
    if (split != joined_at) splits.push_back(split);
  for (const auto split : splits) {
    const std::vector<std::string_view> left(words.begin(), words.begin() + split);
    const std::vector<std::string_view> right(words.begin() + split, words.end());
    const auto a = tools_named(db, left, 1), b = tools_named(db, right, 1);
    if (!a.empty() && !b.empty() && a[0] != b[0]) {
      pairs.emplace_back(a[0], b[0]);
      break;
    }
  }
  if (!named.empty()) {
    std::string ids;
    for (const auto id : named)
      ids += (ids.empty() ? "" : ",") + std::to_string(id);
    auto published = db.cached("SELECT tool_a_id, tool_b_id FROM comparisons "
                               "WHERE " PUBLISHED_BY_TODAY " AND (tool_a_id IN "
                               "(SELECT value FROM json_each('[' || :ids || ']')) OR tool_b_id IN "
                               "(SELECT value FROM json_each('[' || :ids || ']'))) "
                               "ORDER BY published_on DESC, id DESC LIMIT :limit");
    published.bind(":ids", ids).bind(":limit", kMostComparisons);
    while (published.step())
      pairs.emplace_back(published.int64(0), published.int64(1));
  }
  std::vector<ComparisonHit> hits;
  for (const auto &[x, y] : pairs) {
    const bool seen = std::any_of(hits.begin(), hits.end(), [&](const ComparisonHit &hit) {
      return std::minmax(hit.a.id, hit.b.id) == std::minmax(x, y);
    });
    if (!seen && static_cast<int64_t>(hits.size()) < kMostComparisons)
      hits.push_back(comparison_hit(db, x, y));
  }
  return hits;
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

SearchResults StoreReads::search(std::string_view text, PageSpan span) {
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
    if (span.number == 1) results.comparisons = comparison_hits(db, text);
    for (const auto &hit : page.items)
      results.hits.items.push_back(hit.kind == SearchHit::Kind::tool
                                       ? tool_hit(db, query, hit.id)
                                       : review_hit(db, query, hit.id));
    return results;
  });
}

} // namespace verdict
