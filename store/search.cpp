// Full-text search over the FTS5 index of schema migration 7 (tools by name, tagline and
// description, and the panel's quotes) and the tools' names held in memory (NameIndex,
// domain/name_index.h). What a reader typed never reaches FTS5's query syntax: it is cut into
// terms here by FTS5's own tokenizer, and each term goes into the query as an FTS5 string, so
// NEAR, OR, column filters, ^ and * in it are only more characters to find.
//
// Results come in three tiers (docs/PAGES.md, "Search"): tools whose names hold every term,
// from the names in memory; then the other tools whose texts hold them; then quotes. Within
// the last two, bm25 orders a tier of at most kRankedAtMost rows; a larger tier (a word as
// common as "the") is listed newest first, which the index gives without scoring every row:
// so no search, however common its words, costs more than a few milliseconds. Over 500 lines
// because FTS5's tokenizer (its C API) and the marking of matches, which FTS5 would otherwise
// redo for every hit, live here beside the queries they serve, and nowhere else needs them.
#include <algorithm>
#include <string>
#include <unordered_set>
#include <vector>

#include "domain/text.h"
#include "domain/utf8.h"
#include "store/page_starts.h"
#include "store/queries.h"
#include "store/sqlite.h"
#include "store/store.h"

namespace verdict {

namespace {

// The most terms of one search that are looked for; the rest are left out. A search box
// sends a few; this bounds what one request can ask of the index whoever calls.
constexpr size_t kMaxTerms = 32;
// The last term also finds longer terms it starts ("codes" finds Codestral) from this many
// bytes on; a shorter start would match a large part of the index.
constexpr size_t kMinPrefixBytes = 3;
// A tier of at most this many rows is ordered by bm25; scoring costs about a microsecond a row.
constexpr int64_t kRankedAtMost = 1000;

// FTS5's own tokenizer, as the index is built with it (unicode61, remove_diacritics 2): the
// terms of a name, or of what a reader typed, exactly as the index holds them.
class Tokenizer {
public:
  explicit Tokenizer(sql::Db &db) {
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
  ~Tokenizer() { type_.xDelete(tokenizer_); }
  Tokenizer(const Tokenizer &) = delete;
  Tokenizer &operator=(const Tokenizer &) = delete;

  // Each term of `text` and where in `text` it was cut from (bytes), in order, at most `most`.
  struct Term {
    std::string term;
    size_t start = 0, end = 0;
    std::string_view in(std::string_view text) const { return text.substr(start, end - start); }
  };
  std::vector<Term> terms_of(std::string_view text, size_t most) {
    struct Cutting {
      std::string_view text;
      size_t most;
      std::vector<Term> terms;
    } cutting{text, most, {}};
    const auto each_term = [](void *context, int, const char *term, int length, int start,
                              int end) {
      auto &into = *static_cast<Cutting *>(context);
      into.terms.push_back({std::string(term, static_cast<size_t>(length)),
                            static_cast<size_t>(start), static_cast<size_t>(end)});
      // An answer other than SQLITE_OK ends the tokenizing.
      return into.terms.size() < into.most ? SQLITE_OK : SQLITE_DONE;
    };
    type_.xTokenize(tokenizer_, &cutting, FTS5_TOKENIZE_DOCUMENT, text.data(),
                    static_cast<int>(text.size()), each_term);
    return std::move(cutting.terms);
  }

private:
  fts5_tokenizer type_{};
  Fts5Tokenizer *tokenizer_ = nullptr;
};

// A name of ASCII alone cut into its terms as unicode61 cuts it, without calling it: its
// terms are the runs of letters and digits, folded to lower case (every other ASCII character
// separates them). Most names are ASCII, and reading every name at once costs a third less.
// False, with nothing cut, for a name with any other character.
bool cut_ascii_name(NameIndex::Named &tool) {
  const auto &name = tool.name;
  if (std::any_of(name.begin(), name.end(),
                  [](char c) { return static_cast<unsigned char>(c) >= 0x80; }))
    return false;
  const auto is_term_character = [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  };
  for (size_t at = 0; at < name.size() && tool.terms.size() < kMaxTerms;) {
    while (at < name.size() && !is_term_character(name[at]))
      ++at;
    const auto start = at;
    while (at < name.size() && is_term_character(name[at]))
      ++at;
    if (at == start) break;
    tool.spellings.push_back(name.substr(start, at - start));
    tool.terms.push_back(ascii_lowercase(tool.spellings.back()));
  }
  return true;
}

// Every tool's name as the index cuts it, read from the text the index reads
// (tool_search_text), so a name's terms here and in the index are the same.
NameIndex tool_names_of(sql::Db &db) {
  Tokenizer tokenizer(db);
  std::vector<NameIndex::Named> named;
  auto rows = db.cached("SELECT id, name /* every row: every tool's name */ FROM tool_search_text");
  while (rows.step()) {
    NameIndex::Named tool{rows.int64(0), rows.text(1), {}, {}};
    if (!cut_ascii_name(tool))
      for (auto &cut : tokenizer.terms_of(tool.name, kMaxTerms)) {
        tool.spellings.emplace_back(cut.in(tool.name));
        tool.terms.push_back(std::move(cut.term));
      }
    named.push_back(std::move(tool));
  }
  return NameIndex(std::move(named));
}

// What a search looks for: the terms typed, each as the index holds it, a typo read as the
// name's term it was meant to be.
struct Asked {
  std::vector<std::string> terms;
  bool last_may_start = false; // the last term also finds the longer terms it starts
  bool corrected = false;
  std::string corrected_text; // what was typed with each forgiven typo spelled as a name does
};

// The FTS5 query for `terms`: each as an FTS5 string (a `"` in it doubled), all of them
// required; the last one also as the start of a longer term when `last_may_start`. Empty when
// there are none.
std::string expression_of(const std::vector<std::string> &terms, bool last_may_start) {
  std::string expression;
  for (const auto &term : terms) {
    if (!expression.empty()) expression += " AND ";
    expression += '"';
    for (const char c : term)
      expression += c == '"' ? std::string("\"\"") : std::string(1, c);
    expression += '"';
  }
  if (!terms.empty() && last_may_start) expression += '*';
  return expression;
}

// Whether any text of the site holds `term` (or, with `as_start`, a term it starts).
bool indexed(sql::Db &db, const std::string &term, bool as_start) {
  auto stmt = db.cached("SELECT EXISTS (SELECT 1 FROM tool_search WHERE tool_search MATCH :query) "
                        "OR EXISTS (SELECT 1 FROM review_search WHERE review_search MATCH :query)");
  stmt.bind(":query", expression_of({term}, as_start));
  stmt.step();
  return stmt.int64(0) != 0;
}

// What a reader typed, as terms: a term no text holds, long enough to be a typo, read as the
// name's term it is nearest to (NameIndex::meant), unless the reader asked for it as typed.
Asked what_was_asked(sql::Db &db, Tokenizer &tokenizer, const NameIndex &names,
                     std::string_view text, SearchAs as) {
  const auto typed = tokenizer.terms_of(text, kMaxTerms);
  Asked asked;
  asked.last_may_start = !typed.empty() && typed.back().term.size() >= kMinPrefixBytes;
  size_t copied_to = 0; // of `text`, into corrected_text
  for (size_t i = 0; i < typed.size(); ++i) {
    auto term = typed[i].term;
    const bool may_start = asked.last_may_start && i + 1 == typed.size();
    // A name's term, or a term some other text holds, is what was meant; only then is the
    // index asked (a word as common as "the" has too few letters to be a typo).
    if (as == SearchAs::meant && !names.holds(term, may_start))
      if (const auto meant = names.meant(term); meant && !indexed(db, term, may_start)) {
        // The typed word, in what was typed, spelled as the name spells the term meant.
        asked.corrected_text += std::string(text.substr(copied_to, typed[i].start - copied_to));
        asked.corrected_text += names.spelling_of(*meant);
        copied_to = typed[i].end;
        term = *meant;
        asked.corrected = true;
      }
    // A word said twice is looked for once ("the a the a …" asks two lists, not thirty).
    const bool again =
        !may_start && std::find(asked.terms.begin(), asked.terms.end(), term) != asked.terms.end();
    if (!again) asked.terms.push_back(std::move(term));
  }
  asked.corrected_text += std::string(text.substr(copied_to));
  return asked;
}

// Words that join two tools' names in a question about both ("cursor vs codestral").
bool joins_two_names(std::string_view term) {
  return term == "vs" || term == "v" || term == "versus" || term == "or" || term == "and" ||
         term == "compare" || term == "compared";
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

// The comparisons a search offers before its other results: the pair its terms name, one
// name on each side of a split ("cursor vs codestral", "cursor codestral"), published or
// not; then the published comparisons of the tools its terms name.
std::vector<ComparisonHit> comparison_hits(sql::Db &db, const NameIndex &names,
                                           const Asked &asked) {
  constexpr size_t kMostComparisons = 5;
  std::vector<std::string> terms;
  size_t joined_at = 0; // where a joining word was, when there was one
  for (const auto &term : asked.terms) {
    if (joins_two_names(term)) {
      if (!terms.empty() && joined_at == 0) joined_at = terms.size();
      continue;
    }
    terms.push_back(term);
  }
  // Each name's last term may be the start of a longer one ("curs vs codes").
  const auto named_by = [&names](const std::vector<std::string> &some, size_t limit) {
    return names.holding(some, !some.empty() && some.back().size() >= kMinPrefixBytes, limit);
  };
  std::vector<std::pair<int64_t, int64_t>> pairs;
  const auto named = named_by(terms, kMostComparisons);
  // Terms that all fit one tool's name name that tool ("code llama 4"), unless a joining
  // word says two are meant; other terms are tried as two names, at the joining word first.
  std::vector<size_t> splits;
  if (joined_at > 0 && joined_at < terms.size()) splits.push_back(joined_at);
  for (size_t split = 1; split < terms.size() && splits.size() < 8 && named.empty(); ++split)
    if (split != joined_at) splits.push_back(split);
  for (const auto split : splits) {
    const std::vector<std::string> left(terms.begin(), terms.begin() + split);
    const std::vector<std::string> right(terms.begin() + split, terms.end());
    const auto a = named_by(left, 1), b = named_by(right, 1);
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
    published.bind(":ids", ids).bind(":limit", static_cast<int64_t>(kMostComparisons));
    while (published.step())
      pairs.emplace_back(published.int64(0), published.int64(1));
  }
  std::vector<ComparisonHit> hits;
  for (const auto &[x, y] : pairs) {
    const bool seen = std::any_of(hits.begin(), hits.end(), [&](const ComparisonHit &hit) {
      return std::minmax(hit.a.id, hit.b.id) == std::minmax(x, y);
    });
    if (!seen && hits.size() < kMostComparisons) hits.push_back(comparison_hit(db, x, y));
  }
  return hits;
}

// Which row a ranked hit is, before its texts are read.
struct RankedHit {
  SearchHit::Kind kind;
  int64_t id; // the tool's or the review's
};

// How many rows `count_sql` (a count over tool_search or review_search, its match :query and
// its limit :most) finds for `query`: counted no further than `most`.
int64_t matching_at_most(sql::Db &db, const char *count_sql, const std::string &query,
                         int64_t most) {
  auto stmt = db.cached(count_sql);
  stmt.bind(":query", query).bind(":most", most);
  stmt.step();
  return stmt.int64(0);
}

// One tier's rows in its order, `skip` left out and then at most `take`, passing over the
// ids in `left_out` (a tier before it listed them). Ordered by `ranked_sql` (bm25) when the
// tier holds at most kRankedAtMost rows, else by `newest_sql`.
std::vector<int64_t> tier_rows(sql::Db &db, const char *ranked_sql, const char *newest_sql,
                               bool ranked, const std::string &query, int64_t skip, int64_t take,
                               const std::unordered_set<int64_t> &left_out) {
  std::vector<int64_t> ids;
  if (take <= 0) return ids;
  auto stmt = db.cached(ranked ? ranked_sql : newest_sql);
  stmt.bind(":query", query);
  while (static_cast<int64_t>(ids.size()) < take && stmt.step()) {
    const auto id = stmt.int64(0);
    if (left_out.contains(id)) continue;
    if (skip > 0) {
      --skip;
      continue;
    }
    ids.push_back(id);
  }
  return ids;
}

// A hit's texts with the terms searched for marked by kMatchStart and kMatchEnd, cut by the
// same tokenizer as the index, so what is marked is what matched. Done here rather than by
// FTS5's highlight() and snippet(), which read the whole match list of a term again for every
// hit: for a word as common as "the", most of a search's time.
class Marker {
public:
  Marker(Tokenizer &tokenizer, const Asked &asked) : tokenizer_(tokenizer), asked_(asked) {}

  // All of `text`, each match marked.
  std::string marked(std::string_view text) { return excerpt(text, 0); }
  // The run of at most `most_terms` terms of `text` holding the most matches (the first such),
  // each match marked, "…" where it was cut; all of it when `most_terms` is 0.
  std::string excerpt(std::string_view raw, size_t most_terms) {
    const auto text = without_marks(raw);
    const auto cut = tokenizer_.terms_of(text, 100000);
    std::vector<bool> matches(cut.size());
    for (size_t i = 0; i < cut.size(); ++i)
      matches[i] = is_match(cut[i].term);
    size_t from = 0, to = cut.size();
    if (most_terms > 0 && cut.size() > most_terms) {
      size_t best = 0, in_window = 0, best_count = 0;
      for (size_t i = 0; i < cut.size(); ++i) {
        in_window += matches[i];
        if (i >= most_terms) in_window -= matches[i - most_terms];
        if (i + 1 >= most_terms && in_window > best_count) {
          best_count = in_window;
          best = i + 1 - most_terms;
        }
      }
      from = best;
      to = best + most_terms;
    }
    std::string out;
    size_t at = from == 0 || cut.empty() ? 0 : cut[from].start;
    if (from > 0) out += "…";
    for (size_t i = from; i < to; ++i) {
      out.append(text, at, cut[i].start - at);
      if (matches[i]) out += kMatchStart;
      out.append(text, cut[i].start, cut[i].end - cut[i].start);
      if (matches[i]) out += kMatchEnd;
      at = cut[i].end;
    }
    if (to < cut.size())
      out += "…";
    else
      out.append(text, at);
    return out;
  }

private:
  bool is_match(const std::string &term) const {
    for (size_t i = 0; i < asked_.terms.size(); ++i)
      if (term == asked_.terms[i] || (asked_.last_may_start && i + 1 == asked_.terms.size() &&
                                      term.starts_with(asked_.terms[i])))
        return true;
    return false;
  }
  // Stored text never carries a mark of its own (as the index's view reads it: migration 7).
  static std::string without_marks(std::string_view text) {
    std::string kept;
    kept.reserve(text.size());
    for (const char c : text)
      if (c != kMatchStart && c != kMatchEnd) kept += c;
    return kept;
  }
  Tokenizer &tokenizer_;
  const Asked &asked_;
};

SearchHit tool_hit(sql::Db &db, Marker &marker, int64_t id) {
  // Its name and tagline marked, and the part of its description with the most matches, up
  // to 24 terms; with its figures.
  const auto tool = queries::tool_by_id(db, id);
  if (!tool) throw std::runtime_error("a ranked tool is missing");
  SearchHit hit;
  hit.kind = SearchHit::Kind::tool;
  hit.tool_slug = tool->slug;
  hit.tool_name = marker.marked(tool->name);
  hit.tagline = marker.marked(tool->tagline);
  hit.excerpt = marker.excerpt(tool->description, 24);
  hit.panel = tool->panel;
  hit.community = tool->community;
  hit.community_set_aside = tool->community_set_aside;
  return hit;
}

SearchHit review_hit(sql::Db &db, Marker &marker, int64_t id) {
  // The part of the quote with the most matches, up to 32 terms, marked as a tool's texts
  // are; and the review's place in its tool's panel order, which says the tool's page that
  // shows it.
  auto stmt =
      db.cached("SELECT t.slug, t.name, r.slug, r.name, r.lens, v.verdict, v.quote, "
                "(SELECT count(*) FROM reviews o JOIN reviewers p ON p.id = o.reviewer_id "
                "WHERE o.tool_id = v.tool_id AND (p.panel_order, p.id) < (r.panel_order, r.id)) "
                "FROM reviews v JOIN tools t ON t.id = v.tool_id "
                "JOIN reviewers r ON r.id = v.reviewer_id WHERE v.id = :id");
  stmt.bind(":id", id);
  if (!stmt.step()) throw std::runtime_error("a ranked review is missing");
  SearchHit hit;
  hit.kind = SearchHit::Kind::review;
  hit.tool_slug = stmt.text(0);
  hit.tool_name = stmt.text(1);
  hit.reviewer_slug = stmt.text(2);
  hit.reviewer_name = stmt.text(3);
  hit.reviewer_lens = stmt.text(4);
  hit.verdict = verdict_from_word(stmt.text(5)).value_or(Verdict::skip);
  hit.excerpt = marker.excerpt(stmt.text(6), 32);
  hit.review_position = stmt.int64(7);
  return hit;
}

} // namespace

std::shared_ptr<const NameIndex> StoreReads::tool_names_in(sql::Db &db) {
  // The list's version moves whenever a tool is added or removed or its name changes; read in
  // the caller's read transaction, it is the version of the names read.
  return store_.tool_names_.at(list_version(db, "tools_by_name"),
                               [&db] { return tool_names_of(db); });
}

std::shared_ptr<const NameIndex> StoreReads::tool_names() {
  return read([this](sql::Db &db) {
    sql::ReadSnapshot snapshot(db);
    return tool_names_in(db);
  });
}

SearchResults StoreReads::search(std::string_view text, PageSpan span, SearchAs as) {
  return read([&](sql::Db &db) {
    SearchResults results;
    results.hits.number = span.number;
    sql::ReadSnapshot snapshot(db);       // the names, the ranking and the texts of one moment
    const auto names = tool_names_in(db); // on this connection, of this moment
    Tokenizer tokenizer(db);              // one for what was typed and for the hits' texts
    const auto asked = what_was_asked(db, tokenizer, *names, text, as);
    if (asked.terms.empty()) return results;
    if (asked.corrected) results.searched_for = asked.corrected_text;
    const auto query = expression_of(asked.terms, asked.last_may_start);

    // The tiers' sizes, each counted no further than a search lists.
    const auto named = names->holding(asked.terms, asked.last_may_start, kMostSearchResults + 1);
    const auto named_count = static_cast<int64_t>(named.size());
    const auto tools_matching = matching_at_most(
        db,
        "SELECT count(*) FROM (SELECT 1 FROM tool_search WHERE tool_search MATCH :query "
        "LIMIT :most)",
        query, named_count + kMostSearchResults + 1);
    // A tool named by the terms holds them in its name, which the index reads too.
    const auto other_tools = std::max<int64_t>(0, tools_matching - named_count);
    // Quotes come after the tools: when the tools alone fill the list, they are not counted.
    const auto quotes =
        named_count + other_tools > kMostSearchResults
            ? 0
            : matching_at_most(db,
                               "SELECT count(*) FROM (SELECT 1 FROM review_search WHERE "
                               "review_search MATCH :query LIMIT :most)",
                               query, kMostSearchResults + 1 - named_count - other_tools);
    const auto found = named_count + other_tools + quotes;
    results.total = std::min(found, kMostSearchResults);
    results.more_found = found > kMostSearchResults;

    // This page's slice of the three tiers, one more row than the page to tell a next page.
    const int64_t first = static_cast<int64_t>(span.number - 1) * span.size;
    const int64_t end = std::min<int64_t>(first + span.size + 1, results.total);
    std::vector<RankedHit> page;
    for (int64_t at = first; at < std::min(end, named_count); ++at)
      page.push_back({SearchHit::Kind::tool, named[static_cast<size_t>(at)]});
    const std::unordered_set<int64_t> listed_by_name(named.begin(), named.end());
    const auto from_others = std::max<int64_t>(0, first - named_count);
    for (const auto id :
         tier_rows(db,
                   "SELECT rowid FROM tool_search WHERE tool_search MATCH :query "
                   "ORDER BY bm25(tool_search, 10.0, 4.0, 1.0), rowid",
                   "SELECT rowid FROM tool_search WHERE tool_search MATCH :query "
                   "ORDER BY rowid DESC",
                   other_tools <= kRankedAtMost, query, from_others,
                   std::min(end, named_count + other_tools) - std::max(first, named_count),
                   listed_by_name))
      page.push_back({SearchHit::Kind::tool, id});
    const auto from_quotes = std::max<int64_t>(0, first - named_count - other_tools);
    for (const auto id : tier_rows(db,
                                   "SELECT rowid FROM review_search WHERE review_search MATCH "
                                   ":query ORDER BY bm25(review_search), rowid",
                                   "SELECT rowid FROM review_search WHERE review_search MATCH "
                                   ":query ORDER BY rowid DESC",
                                   quotes <= kRankedAtMost, query, from_quotes,
                                   end - std::max(first, named_count + other_tools), {}))
      page.push_back({SearchHit::Kind::review, id});

    results.hits.has_next = static_cast<int64_t>(page.size()) > span.size;
    if (results.hits.has_next) page.pop_back();
    if (span.number == 1) results.comparisons = comparison_hits(db, *names, asked);
    Marker marker(tokenizer, asked);
    for (const auto &hit : page)
      results.hits.items.push_back(hit.kind == SearchHit::Kind::tool
                                       ? tool_hit(db, marker, hit.id)
                                       : review_hit(db, marker, hit.id));
    return results;
  });
}

} // namespace verdict
