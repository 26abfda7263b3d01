#include "bench/generate_site.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "assets/embedded.h"
#include "domain/clock.h"
#include "store/apply_write.h"
#include "store/store.h"

namespace verdict {

namespace {

// splitmix64: small, fast, and the same numbers on every platform (std::'s distributions
// are not), so a seed names one site.
class Random {
public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n).
  size_t below(size_t n) { return static_cast<size_t>(next() % n); }
  // Uniform in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  bool chance(double p) { return unit() < p; }
  template <size_t N> const char *pick(const std::array<const char *, N> &words) {
    return words[below(N)];
  }

private:
  uint64_t state_;
};

// Draws ranks 0..n-1 with probability proportional to 1 / (rank + 1)^exponent.
class Zipf {
public:
  Zipf(size_t n, double exponent) : cumulative_(n) {
    double total = 0;
    for (size_t i = 0; i < n; ++i)
      cumulative_[i] = total += 1.0 / std::pow(static_cast<double>(i + 1), exponent);
  }
  size_t draw(Random &random) const {
    const double at = random.unit() * cumulative_.back();
    const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), at);
    return std::min(static_cast<size_t>(it - cumulative_.begin()), cumulative_.size() - 1);
  }

private:
  std::vector<double> cumulative_;
};

// A random order of 0..n-1: popularity ranks are not alphabetical or by id.
std::vector<uint32_t> shuffled(size_t n, Random &random) {
  std::vector<uint32_t> order(n);
  for (size_t i = 0; i < n; ++i)
    order[i] = static_cast<uint32_t>(i);
  for (size_t i = n; i > 1; --i)
    std::swap(order[i - 1], order[random.below(i)]);
  return order;
}

std::string slug_of(const std::string &name) {
  std::string slug;
  for (const char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      slug += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!slug.empty() && slug.back() != '-')
      slug += '-';
  }
  while (!slug.empty() && slug.back() == '-')
    slug.pop_back();
  return slug;
}

std::string date_of(int64_t days_since_1970) { // Howard Hinnant's civil_from_days
  const int64_t z = days_since_1970 + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const int64_t m = mp < 10 ? mp + 3 : mp - 9;
  const int64_t y = yoe + era * 400 + (m <= 2);
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02d-%02d", static_cast<int>(y), static_cast<int>(m),
                static_cast<int>(d));
  return text;
}

constexpr int64_t kDay2024 = 19723; // 2024-01-01 in days since 1970

constexpr std::array kCategories = {
    "Developer Tools",  "Writing",    "Image Generation", "Video",       "Voice & Audio",
    "Data & Analytics", "Search",     "Customer Support", "Sales",       "Marketing",
    "Design",           "Education",  "Productivity",     "Security",    "Legal",
    "Finance",          "Healthcare", "Research",         "Translation", "Agents"};
constexpr std::array kPrefixes = {"Nova",  "Atlas", "Quill",  "Forge", "Pilot", "Lumen",  "Echo",
                                  "Drift", "Orbit", "Cobalt", "Vela",  "Sable", "Mosaic", "Tessera",
                                  "Kite",  "Rune",  "Helix",  "Onyx",  "Ember", "Pico"};
constexpr std::array kNouns = {"Code",  "Draft", "Canvas", "Agent", "Studio", "Lens", "Scribe",
                               "Voice", "Sheet", "Scout",  "Desk",  "Mind",   "Flow", "Render",
                               "Query", "Guard", "Tutor",  "Clerk", "Ledger", "Relay"};
constexpr std::array kVersions = {"",      " 2",   " 3",    " 3.5",   " 4",   " 4.1", " Pro",
                                  " Mini", " Max", " Lite", " Turbo", " 1.5", " XL",  " Edge"};
constexpr std::array kJobs = {"turns rough notes into shipped work",
                              "answers questions from your own documents",
                              "reviews every pull request before a human does",
                              "drafts first versions you would actually keep",
                              "runs long tasks while you keep working",
                              "cleans messy data into tables you can trust",
                              "listens to calls and writes the follow-up",
                              "generates assets in your brand's style",
                              "triages the inbox and routes what matters",
                              "watches production and explains what broke"};
constexpr std::array kAudiences = {"small teams", "solo developers", "agencies",      "enterprises",
                                   "students",    "analysts",        "support teams", "designers",
                                   "founders",    "researchers"};
constexpr std::array kEntries = {"Free", "Paid", "Freemium", "Open weights"};
constexpr std::array kVendors = {
    "Northwind Labs", "Blue Harbor AI", "Fathom & Co",  "Kestrel Systems", "Lattice Works",
    "Open Meadow",    "Parallax Inc",   "Quiet Signal", "Redwood Compute", "Tandem Research"};
constexpr std::array kFirstNames = {
    "Maya",  "Jonas", "Priya", "Tomás", "Aiko", "Sam", "Lena",  "Omar",  "Ruth",  "Kwame",
    "Ines",  "Felix", "Noor",  "Dara",  "Hugo", "Mei", "Yusuf", "Clara", "Arjun", "Zoe",
    "Pablo", "Signe", "Tariq", "Elena", "Rafe", "Ada", "Kofi",  "Lior",  "Marta", "Theo"};
constexpr std::array kLastNames = {"Chen",   "Okafor",  "Lindqvist", "Haddad",  "Moreau",
                                   "Tanaka", "Novak",   "Santos",    "Ibrahim", "Kowalski",
                                   "Reyes",  "Fischer", "Mensah",    "Rossi",   "Sato",
                                   "Dubois", "Khan",    "Larsen",    "Petrov",  "Ward"};
constexpr std::array kLenses = {"Builder",
                                "Skeptic",
                                "Futurist",
                                "Product",
                                "Investor",
                                "Open-source enthusiast",
                                "Creative technologist"};
constexpr std::array kOpenings = {"The primitive here is", "Every launch promises",
                                  "The job to be done is", "The buyer for this is",
                                  "What matters is",       "The honest test is",
                                  "Second-order effect:",  "The moat, if any, is"};
constexpr std::array kMiddles = {"a workflow that survives contact with a real codebase",
                                 "pricing that scales with the value it creates",
                                 "onboarding that gets a team to the first win in a day",
                                 "a model that is good enough and cheap enough at once",
                                 "the integration surface, not the model underneath",
                                 "trust: whether people let it act without checking",
                                 "how it fails when the input is messy",
                                 "distribution through tools people already open daily"};
constexpr std::array kShipEndings = {
    "and on that it delivers. Ship it for the teams it was built for.",
    "and it clears the bar with room to spare. Ship.",
    "and the first week with it was convincing. Worth shipping.",
    "and it holds up under real use. Ship, and watch the pricing."};
constexpr std::array kSkipEndings = {
    "and it does not get there yet. Skip until the next release.",
    "and a direct competitor already does it better. Skip.",
    "and the economics do not work at this price. Skip as a business bet.",
    "and it breaks exactly where it matters. Skip for now."};

Content generate_content(Random &random, const SiteSize &size) {
  Content content;
  const auto bundled = parse_content(embedded("content/verdict.json"));
  content.site = bundled.content.site;

  for (const auto *name : kCategories)
    content.categories.push_back({slug_of(name), name});

  std::unordered_set<std::string> slugs;
  const auto unique_slug = [&slugs](const std::string &base) {
    auto slug = base;
    for (int n = 2; !slugs.insert(slug).second; ++n)
      slug = base + "-" + std::to_string(n);
    return slug;
  };

  for (int i = 0; i < size.reviewers; ++i) {
    const std::string name = std::string(random.pick(kFirstNames)) + " " + random.pick(kLastNames);
    const std::string lens = kLenses[static_cast<size_t>(i) % kLenses.size()];
    content.reviewers.push_back(
        {unique_slug(slug_of(name)), name, lens,
         "Reads every tool through the " + lens + " lens: " + random.pick(kMiddles) + "."});
  }

  for (int i = 0; i < size.tools; ++i) {
    const std::string name =
        std::string(random.pick(kPrefixes)) + " " + random.pick(kNouns) + random.pick(kVersions);
    const std::string job = random.pick(kJobs), audience = random.pick(kAudiences);
    const std::string entry = random.pick(kEntries);
    const std::string vendor = random.pick(kVendors);
    const std::string slug = unique_slug(slug_of(name));
    const std::string site = "https://" + slug + ".example";
    ContentTool tool{slug,
                     name,
                     content.categories[random.below(content.categories.size())].slug,
                     "An assistant that " + job,
                     name + " " + job + " for " + audience + ". It connects to the tools " +
                         audience + " already use, keeps a history of what it did and why, " +
                         "and hands work back for review before anything leaves the team. " +
                         "Built by " + vendor + ".",
                     entry,
                     vendor,
                     site,
                     entry == "Free" ? "Free to use; a fair-use limit applies."
                     : entry == "Open weights"
                         ? "Weights under an open license; hosted use billed per token."
                         : "Plans from $" + std::to_string(8 + random.below(40)) +
                               " per seat a month; a free trial for 14 days.",
                     date_of(kDay2024 + static_cast<int64_t>(random.below(1000))),
                     site + "/pricing"};
    content.tools.push_back(std::move(tool));
  }

  // Reviews: tools drawn by popularity, reviewers evenly; one review per tool and reviewer.
  const auto tool_rank = shuffled(static_cast<size_t>(size.tools), random);
  const Zipf tool_popularity(static_cast<size_t>(size.tools), 0.9);
  std::vector<bool> reviewed(static_cast<size_t>(size.tools) * static_cast<size_t>(size.reviewers));
  for (int made = 0; made < size.reviews;) {
    const auto tool = tool_rank[tool_popularity.draw(random)];
    const auto reviewer = random.below(static_cast<size_t>(size.reviewers));
    const auto cell = tool * static_cast<size_t>(size.reviewers) + reviewer;
    if (reviewed[cell]) continue;
    reviewed[cell] = true;
    ++made;
    const bool ship = random.chance(0.8);
    content.reviews.push_back(
        {content.tools[tool].slug, content.reviewers[reviewer].slug, ship ? "ship" : "skip",
         std::string(random.pick(kOpenings)) + " " + random.pick(kMiddles) + ", " +
             (ship ? random.pick(kShipEndings) : random.pick(kSkipEndings))});
  }

  // Published comparisons: both sides drawn by popularity, each unordered pair once.
  std::unordered_set<uint64_t> pairs;
  while (content.comparisons.size() < static_cast<size_t>(size.comparisons)) {
    const uint64_t a = tool_rank[tool_popularity.draw(random)];
    const uint64_t b = tool_rank[tool_popularity.draw(random)];
    if (a == b || !pairs.insert(std::min(a, b) << 32 | std::max(a, b)).second) continue;
    content.comparisons.push_back(
        {content.tools[a].slug, content.tools[b].slug,
         date_of(kDay2024 + static_cast<int64_t>(random.below(1000))),
         random.chance(0.3) ? "Two takes on the same job, read side by side by the panel." : "",
         // A published comparison answers its question (domain/content.h): a line per tool.
         "Ship with " + content.tools[a].name + " if you want " + content.tools[a].tagline +
             "\nShip with " + content.tools[b].name + " if you want " + content.tools[b].tagline});
  }
  return content;
}

VoteLoad generate_votes(Random &random, const SiteSize &size, const Content &content) {
  VoteLoad load;
  for (const auto &tool : content.tools)
    load.tools.push_back(tool.slug);
  for (int i = 0; i < size.voters; ++i) {
    static const char *hex = "0123456789abcdef";
    std::string id(32, '0');
    for (auto &c : id)
      c = hex[random.below(16)];
    load.voters.push_back(std::move(id));
  }
  std::unordered_map<std::string, uint32_t> tool_index;
  for (uint32_t i = 0; i < content.tools.size(); ++i)
    tool_index[content.tools[i].slug] = i;

  // Each comparison and tool has its own lean, so tallies differ from page to page.
  std::vector<double> a_share(content.comparisons.size()), ship_share(content.tools.size());
  for (auto &share : a_share)
    share = 0.2 + 0.6 * random.unit();
  for (auto &share : ship_share)
    share = 0.35 + 0.6 * random.unit();

  const auto comparison_rank = shuffled(content.comparisons.size(), random);
  const Zipf comparison_popularity(content.comparisons.size(), 1.0);
  const auto tool_rank = shuffled(content.tools.size(), random);
  const Zipf tool_popularity(content.tools.size(), 1.0);
  const auto voter_rank = shuffled(load.voters.size(), random);
  const Zipf voter_activity(load.voters.size(), 0.6);

  // A voter votes once per tool and once per pair: (voter, target) seen once.
  const uint64_t pair_target = uint64_t{1} << 31;
  std::unordered_set<uint64_t> cast;
  cast.reserve(static_cast<size_t>(size.votes) * 2);
  const int64_t start = kDay2024 * 86400 + 365 * 86400; // votes over 2025
  for (int made = 0, tries = 0; made < size.votes; ++tries) {
    if (tries > size.votes * 20) throw std::invalid_argument("too few voters for so many votes");
    const uint32_t voter = voter_rank[voter_activity.draw(random)];
    const auto at = start + static_cast<int64_t>(random.below(365 * 86400));
    const auto roll = random.unit();
    if (roll < 0.55) { // a head-to-head pick on a published comparison
      const auto c = comparison_rank[comparison_popularity.draw(random)];
      if (!cast.insert(uint64_t{voter} << 32 | pair_target | c).second) continue;
      const auto &comparison = content.comparisons[c];
      const auto a = tool_index.at(comparison.a), b = tool_index.at(comparison.b);
      load.pair_picks.push_back({voter, a, b, random.chance(a_share[c]) ? a : b, at});
    } else { // ship or skip on a tool: one of a comparison's two, or any tool
      uint32_t tool;
      if (roll < 0.9) {
        const auto &comparison =
            content.comparisons[comparison_rank[comparison_popularity.draw(random)]];
        tool = tool_index.at(random.chance(0.5) ? comparison.a : comparison.b);
      } else {
        tool = tool_rank[tool_popularity.draw(random)];
      }
      if (!cast.insert(uint64_t{voter} << 32 | tool).second) continue;
      load.tool_votes.push_back({voter, tool, random.chance(ship_share[tool]), at});
    }
    ++made;
  }
  // In voter order, as the tables' keys are: loading appends instead of scattering.
  std::sort(load.tool_votes.begin(), load.tool_votes.end(), [&](const auto &x, const auto &y) {
    return std::tie(load.voters[x.voter], x.tool) < std::tie(load.voters[y.voter], y.tool);
  });
  std::sort(load.pair_picks.begin(), load.pair_picks.end(), [&](const auto &x, const auto &y) {
    return std::tie(load.voters[x.voter], x.a, x.b) < std::tie(load.voters[y.voter], y.a, y.b);
  });
  return load;
}

} // namespace

GeneratedSite generate_site(uint64_t seed, const SiteSize &size) {
  if (size.tools < 2 || size.reviewers < 1 || size.voters < 1)
    throw std::invalid_argument("a site needs at least two tools, a reviewer and a voter");
  if (int64_t{size.reviews} > int64_t{size.tools} * size.reviewers)
    throw std::invalid_argument("more reviews than tool and reviewer pairs");
  if (int64_t{size.comparisons} > int64_t{size.tools} * (size.tools - 1) / 4)
    throw std::invalid_argument("too many comparisons for so few tools");
  Random random(seed);
  GeneratedSite site;
  site.content = generate_content(random, size);
  site.votes = generate_votes(random, size, site.content);
  return site;
}

void write_site(Store &store, const GeneratedSite &site) {
  throw_unless_done(apply(store, ImportContent{site.content}, store.context_at(unix_now_ms())));
  store.load_votes(site.votes);
}

} // namespace verdict
