// verdict-generate: writes a made-up site of any size into a new database file that
// `verdict --db FILE` then serves. The same seed gives the same content and votes.
//   verdict-generate [--seed N] [--tools N] [--reviewers N] [--reviews N] [--comparisons N]
//                    [--votes N] [--voters N] OUT.db
#include <sys/stat.h>

#include <charconv>
#include <chrono>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "bench/generate_site.h"
#include "store/store.h"

namespace {

using namespace verdict;

int usage() {
  std::cerr << "usage: verdict-generate [--seed N] [--tools N] [--reviewers N] [--reviews N]\n"
               "                        [--comparisons N] [--votes N] [--voters N] OUT.db\n"
               "Defaults: seed 1; 10,000 tools, 1,000 reviewers, 100,000 reviews, 5,000\n"
               "published comparisons, 1,000,000 votes from 250,000 voters. OUT.db must not "
               "exist.\n";
  return 2;
}

bool parse_number(const std::string &text, uint64_t &out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char **argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  uint64_t seed = 1;
  SiteSize size;
  std::string out;
  for (size_t i = 0; i < args.size(); ++i) {
    const auto &arg = args[i];
    if (arg.rfind("--", 0) != 0) {
      if (!out.empty()) return usage();
      out = arg;
      continue;
    }
    const std::map<std::string, int *> counts = {
        {"--tools", &size.tools},     {"--reviewers", &size.reviewers},
        {"--reviews", &size.reviews}, {"--comparisons", &size.comparisons},
        {"--votes", &size.votes},     {"--voters", &size.voters}};
    uint64_t value = 0;
    if (i + 1 >= args.size() || !parse_number(args[i + 1], value)) return usage();
    ++i;
    if (arg == "--seed")
      seed = value;
    else if (const auto it = counts.find(arg); it != counts.end())
      *it->second = static_cast<int>(std::min<uint64_t>(value, 100'000'000));
    else
      return usage();
  }
  if (out.empty()) return usage();
  struct stat info {};
  if (stat(out.c_str(), &info) == 0) {
    std::cerr << "verdict-generate: " << out << " already exists; choose a new file\n";
    return 1;
  }
  try {
    const auto start = std::chrono::steady_clock::now();
    const auto site = generate_site(seed, size);
    std::cerr << "verdict-generate: drew the site in " << seconds_since(start) << " s\n";
    const auto writing = std::chrono::steady_clock::now();
    {
      Store store(out);
      write_site(store, site);
    } // closing the store checkpoints the WAL into the file
    std::cerr << "verdict-generate: wrote " << site.content.tools.size() << " tools, "
              << site.content.reviewers.size() << " reviewers, " << site.content.reviews.size()
              << " reviews, " << site.content.comparisons.size() << " comparisons, "
              << site.votes.tool_votes.size() + site.votes.pair_picks.size() << " votes to " << out
              << " in " << seconds_since(writing) << " s\n";
  } catch (const std::exception &e) {
    std::cerr << "verdict-generate: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
