#include "app/verify_sources.h"

#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "auth/log_signing.h"
#include "domain/counting.h"
#include "domain/slugs.h"
#include "store/store.h"

namespace verdict {

namespace {

// Entries read from the file at a time: a log of millions is never held whole.
constexpr size_t kFileLogPage = 10000;

class FileSource : public VerifySource {
public:
  explicit FileSource(const std::string &db)
      : name_("file:" + std::filesystem::absolute(db).string()), store_(db), moment_(store_) {}

  std::string name() const override { return name_; }

  std::vector<PublishedTally> published() override {
    const auto log_size = moment_.vote_log_size();
    std::vector<PublishedTally> published;
    for (int number = 1;; ++number) {
      const auto tools = moment_.tools_by_name({number, 100});
      for (const auto &tool : tools.items)
        published.push_back(
            {tool_target(tool.id), tool.slug, "the file", tool_standing(tool), log_size});
      if (!tools.has_next) break;
    }
    for (int number = 1;; ++number) {
      const auto comparisons = moment_.published_comparisons({number, 100});
      for (const auto &summary : comparisons.items) {
        const auto slug = pair_slug(summary.a_slug, summary.b_slug);
        const auto detail = moment_.comparison_detail(slug);
        if (!detail) continue;
        const auto a = detail->comparison.a.id, b = detail->comparison.b.id;
        published.push_back({pair_target(a, b), slug, "the file",
                             pair_standing(a, b, detail->comparison.picks), log_size});
      }
      if (!comparisons.has_next) break;
    }
    return published;
  }

  std::optional<std::pair<Checkpoint, std::string>> checkpoint() override {
    const auto checkpoint = moment_.latest_checkpoint();
    if (!checkpoint) return std::nullopt;
    return std::pair{*checkpoint, auth::public_key_of(store_.log_signing_key())};
  }

  std::vector<VoteLogEntry> log_entries(uint64_t from) override {
    return moment_.vote_log(from, kFileLogPage);
  }

  std::vector<merkle::Hash> consistency_proof(uint64_t old_size, uint64_t size) override {
    return moment_.consistency_proof(old_size, size);
  }

private:
  std::string name_;
  Store store_;
  StoreMoment moment_; // every read above sees the same moment of the file
};

// How long a 429 or 503 is waited out at most, and how often.
constexpr int kLongestWaitSeconds = 30;
constexpr int kTriesPerRequest = 6;

class SiteSource : public VerifySource {
public:
  explicit SiteSource(const std::string &base_url) : name_(base_url), client_(base_url) {
    client_.set_connection_timeout(10);
    client_.set_read_timeout(30);
    client_.set_decompress(true);
  }

  std::string name() const override { return name_; }

  std::vector<PublishedTally> published() override {
    std::vector<PublishedTally> published;
    std::vector<std::string> pages; // each tool's and published comparison's page
    for (std::string page = "/api/tools"; !page.empty();) {
      const auto answer = get(page);
      const auto log_size = answer.at("vote_log_size").get<uint64_t>();
      for (const auto &tool : answer.at("tools")) {
        PublishedTally tally;
        tally.target = target_in(tool, page);
        tally.name = tool.at("slug").get<std::string>();
        tally.where = page;
        tally.figures.first = tool.at("community").at("ships").get<int64_t>();
        tally.figures.second =
            tool.at("community").at("votes").get<int64_t>() - tally.figures.first;
        tally.figures.set_aside = set_aside_in(tool.at("set_aside"));
        tally.log_size = log_size;
        pages.push_back(tool.at("url").get<std::string>());
        published.push_back(std::move(tally));
      }
      page = next_in(answer);
    }
    for (std::string page = "/api/comparisons"; !page.empty();) {
      const auto answer = get(page);
      for (const auto &listed : answer.at("comparisons")) {
        const auto where = listed.at("api").get<std::string>();
        const auto detail = get(where);
        const PairTally picks{detail.at("picks").at("a").get<int64_t>(),
                              detail.at("picks").at("b").get<int64_t>(),
                              set_aside_in(detail.at("set_aside"))};
        PublishedTally tally;
        tally.target = target_in(detail, where);
        tally.figures = pair_standing(target_in(detail.at("a"), where).low,
                                      target_in(detail.at("b"), where).low, picks);
        tally.name = listed.at("url").get<std::string>().substr(std::string("/compare/").size());
        tally.where = where;
        tally.log_size = detail.at("vote_log_size").get<uint64_t>();
        pages.push_back(listed.at("url").get<std::string>());
        published.push_back(std::move(tally));
      }
      page = next_in(answer);
    }
    for (const auto &page : pages)
      for (auto &tally : tallies_on_page(page))
        published.push_back(std::move(tally));
    return published;
  }

  std::optional<std::pair<Checkpoint, std::string>> checkpoint() override {
    const auto answer = get("/transparency/checkpoint", true);
    if (answer.is_null()) return std::nullopt;
    Checkpoint checkpoint;
    checkpoint.size = answer.at("size").get<uint64_t>();
    const auto root = merkle::from_hex(answer.at("root").get<std::string>());
    if (!root) throw UnreadableSite("/transparency/checkpoint: its root is not 64 hex digits");
    checkpoint.root = *root;
    checkpoint.made_at = answer.at("made_at").get<int64_t>();
    checkpoint.signature = answer.at("signature").get<std::string>();
    return std::pair{checkpoint, answer.at("public_key").get<std::string>()};
  }

  std::vector<VoteLogEntry> log_entries(uint64_t from) override {
    const auto answer = get("/transparency/log?from=" + std::to_string(from));
    std::vector<VoteLogEntry> entries;
    for (const auto &entry : answer.at("entries"))
      entries.push_back({entry.at("leaf").get<uint64_t>(), entry.at("entry").get<std::string>()});
    return entries;
  }

  std::vector<merkle::Hash> consistency_proof(uint64_t old_size, uint64_t size) override {
    const auto path =
        "/transparency/proof?from=" + std::to_string(old_size) + "&size=" + std::to_string(size);
    std::vector<merkle::Hash> proof;
    const auto answer = get(path); // held here: the loop reads into it
    for (const auto &hex : answer.at("proof")) {
      const auto hash = merkle::from_hex(hex.get<std::string>());
      if (!hash) throw UnreadableSite(path + ": a hash of its proof is not 64 hex digits");
      proof.push_back(*hash);
    }
    return proof;
  }

private:
  // The answer at `path`, a 429 or 503 waited out as its Retry-After asks; any other answer
  // but 200 (or a 404, when `absent_is_ok`) is a site that could not be read.
  httplib::Response fetched(const std::string &path, bool absent_is_ok = false) {
    for (int attempt = 1;; ++attempt) {
      auto result = client_.Get(path);
      if (!result) {
        // In plain words: what was asked of whom, and what the network said.
        const auto error = result.error();
        const std::string what =
            error == httplib::Error::Connection || error == httplib::Error::Read ||
                    error == httplib::Error::Write
                ? "nothing answered there (the connection was refused, broke off or timed out: "
                  "is the address right, and is the site up?)"
            : error == httplib::Error::SSLConnection ||
                    error == httplib::Error::SSLServerVerification
                ? "its TLS certificate could not be checked"
                : "the request failed (" + httplib::to_string(error) + ")";
        throw UnreadableSite("asked " + name_ + path + ": " + what);
      }
      const bool busy = result->status == 429 || result->status == 503;
      if (busy && attempt < kTriesPerRequest) {
        const auto asked = std::atoi(result->get_header_value("Retry-After").c_str());
        std::this_thread::sleep_for(
            std::chrono::seconds(std::clamp(asked, 1, kLongestWaitSeconds)));
        continue;
      }
      if (result->status != 200 && !(result->status == 404 && absent_is_ok))
        throw UnreadableSite(path + ": the site answered " + std::to_string(result->status));
      return std::move(result.value());
    }
  }

  // The JSON answer at `path`; null for a 404 when `absent_is_null`.
  nlohmann::json get(const std::string &path, bool absent_is_null = false) {
    const auto answer = fetched(path, absent_is_null);
    if (answer.status == 404) return nullptr;
    auto json = nlohmann::json::parse(answer.body, nullptr, false);
    if (!json.is_object()) throw UnreadableSite(path + ": the answer is not a JSON object");
    return json;
  }

  // The community numbers a page shows, as the data-* attributes of the elements that show
  // them carry them (render/page_parts.h log_tally), read at the log size in its head.
  std::vector<PublishedTally> tallies_on_page(const std::string &path) {
    const auto html = fetched(path).body;
    static const std::regex log_size_meta(
        R"re(<meta name="verdict:vote-log-size" content="([0-9]+)">)re");
    static const std::regex tally_attributes(
        R"re(data-log-target="([a-z]+:[0-9-]+)" data-first="([0-9]+)" data-second="([0-9]+)" )re"
        R"re(data-set-aside-network="([0-9]+)" data-set-aside-too-fast="([0-9]+)")re");
    std::smatch size;
    if (!std::regex_search(html, size, log_size_meta))
      throw UnreadableSite(path + ": the page does not say the vote log size it was read at");
    std::vector<PublishedTally> tallies;
    for (auto it = std::sregex_iterator(html.begin(), html.end(), tally_attributes);
         it != std::sregex_iterator(); ++it) {
      const auto &found = *it;
      const auto target = vote_target_from_code(found[1].str());
      if (!target) throw UnreadableSite(path + ": a number names no log target");
      PublishedTally tally;
      tally.target = *target;
      tally.name = path;
      tally.where = "the page " + path;
      tally.figures.first = std::stoll(found[2].str());
      tally.figures.second = std::stoll(found[3].str());
      tally.figures.set_aside.network = std::stoll(found[4].str());
      tally.figures.set_aside.too_fast = std::stoll(found[5].str());
      tally.log_size = std::stoull(size[1].str());
      tallies.push_back(std::move(tally));
    }
    if (tallies.empty()) throw UnreadableSite(path + ": the page shows no community number");
    return tallies;
  }

  static VoteTarget target_in(const nlohmann::json &item, const std::string &where) {
    const auto target = vote_target_from_code(item.value("log_target", std::string()));
    if (!target) throw UnreadableSite(where + ": an item names no log_target");
    return *target;
  }

  static SetAside set_aside_in(const nlohmann::json &set_aside) {
    SetAside out;
    for (const auto &reason : set_aside.at("reasons")) {
      const auto votes = reason.at("votes").get<int64_t>();
      const auto code = reason_from_code(reason.at("reason").get<std::string>());
      if (code == SetAsideReason::network) out.network += votes;
      if (code == SetAsideReason::too_fast) out.too_fast += votes;
    }
    return out;
  }

  static std::string next_in(const nlohmann::json &answer) {
    const auto &next = answer.at("next");
    return next.is_string() ? next.get<std::string>() : std::string();
  }

  std::string name_;
  httplib::Client client_;
};

} // namespace

std::unique_ptr<VerifySource> file_source(const std::string &db) {
  return std::make_unique<FileSource>(db);
}

std::unique_ptr<VerifySource> site_source(const std::string &base_url) {
  return std::make_unique<SiteSource>(base_url);
}

} // namespace verdict
