#include "app/verify_command.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "auth/log_signing.h"
#include "base/merkle.h"
#include "domain/tallies.h"
#include "domain/vote_log.h"
#include "store/store.h"

namespace verdict {

namespace {

// The figures of one target, as the site shows them or as the log gives them.
struct Figures {
  int64_t first = 0;  // counted ships, or counted picks of the lower id
  int64_t second = 0; // counted skips, or counted picks of the higher id
  SetAside set_aside;
  bool operator==(const Figures &other) const {
    return first == other.first && second == other.second &&
           set_aside.network == other.set_aside.network &&
           set_aside.too_fast == other.set_aside.too_fast;
  }
};

std::string described(const VoteTarget &target, const Figures &figures) {
  const auto counted =
      std::to_string(figures.first + figures.second) + " counted (" +
      std::to_string(figures.first) + (target.pair ? " for the first, " : " ship, ") +
      std::to_string(figures.second) + (target.pair ? " for the second)" : " skip)");
  return counted + ", " + std::to_string(figures.set_aside.network) + " set aside by network, " +
         std::to_string(figures.set_aside.too_fast) + " set aside as too fast";
}

// Every community number the site publishes, by target, read in the caller's moment.
std::map<VoteTarget, Figures> published_figures(Store &store,
                                                std::map<int64_t, std::string> &slugs) {
  std::map<VoteTarget, Figures> published;
  for (int number = 1;; ++number) {
    const auto tools = store.tools_by_name({number, 100});
    for (const auto &tool : tools.items) {
      slugs[tool.id] = tool.slug;
      published[{false, tool.id, tool.id}] = {tool.community.ships,
                                              tool.community.total - tool.community.ships,
                                              tool.community_set_aside};
    }
    if (!tools.has_next) break;
  }
  return published;
}

// The pair's figures as its page shows them (its address in id order: a is the lower id).
std::optional<Figures> pair_figures(Store &store, const VoteTarget &target,
                                    const std::map<int64_t, std::string> &slugs) {
  const auto low = slugs.find(target.low), high = slugs.find(target.high);
  if (low == slugs.end() || high == slugs.end()) return std::nullopt;
  const auto detail = store.comparison_detail(low->second + "-vs-" + high->second);
  if (!detail) return std::nullopt;
  return Figures{detail->picks.a, detail->picks.b, detail->picks.set_aside};
}

nlohmann::json read_state(const std::string &path) {
  std::ifstream file(path);
  if (!file) return nlohmann::json::object();
  const auto state = nlohmann::json::parse(file, nullptr, false);
  return state.is_object() ? state : nlohmann::json::object();
}

} // namespace

int run_verify(const std::string &db, const std::string &state_file, std::ostream &out,
               std::ostream &err) {
  Store store(db);
  const auto source = "file:" + std::filesystem::absolute(db).string();
  std::vector<std::string> faults;
  const auto fault = [&](const std::string &what) {
    faults.push_back(what);
    err << "verdict verify: " << what << "\n";
  };

  const Store::OneRead moment(store); // every read below sees the same moment of the file
  const auto public_key = auth::public_key_of(store.log_signing_key());
  const auto checkpoint = store.latest_checkpoint();
  auto state = read_state(state_file);
  if (!checkpoint) {
    out << "no checkpoint yet: the numbers are checked against the log, the log against nothing\n";
  } else {
    if (!auth::signature_holds(public_key, checkpoint_text(*checkpoint), checkpoint->signature))
      fault("the latest checkpoint's signature does not hold under the site's key " + public_key);
    std::vector<merkle::Hash> leaves;
    for (const auto &entry : store.vote_log(0, checkpoint->size))
      leaves.push_back(entry.hash);
    if (leaves.size() != checkpoint->size ||
        merkle::root(checkpoint->size, merkle::over(leaves)) != checkpoint->root)
      fault("the log's first " + std::to_string(checkpoint->size) +
            " entries do not make the checkpoint's root: an entry was changed, removed or "
            "reordered after it was signed");
    if (state.contains(source)) {
      const auto &seen = state[source];
      const auto seen_size = seen.value("size", uint64_t{0});
      const auto seen_root = merkle::from_hex(seen.value("root", std::string()));
      if (seen.value("public_key", std::string()) != public_key)
        fault("the site's key is not the one seen before (" +
              seen.value("public_key", std::string()) + "): its checkpoints were signed anew");
      else if (seen_size > checkpoint->size)
        fault("the log has " + std::to_string(checkpoint->size) + " entries, fewer than the " +
              std::to_string(seen_size) + " seen before");
      else if (!seen_root ||
               !merkle::consistency_holds(seen_size, checkpoint->size, *seen_root, checkpoint->root,
                                          store.consistency_proof(seen_size, checkpoint->size)))
        fault("the log now is not the log seen before with entries added: the first " +
              std::to_string(seen_size) + " entries changed");
    }
  }

  TallyReplay replay;
  const auto entries = store.vote_events([&](const VoteEvent &event) { replay.add(event); });
  std::map<VoteTarget, Figures> from_log;
  for (const auto &target : std::move(replay).finish()) {
    const auto &now = target.days.back();
    from_log[target.target] = {now.first, now.second, now.set_aside};
  }
  std::map<int64_t, std::string> slugs;
  auto published = published_figures(store, slugs);
  for (const auto &[target, figures] : from_log)
    if (target.pair) published[target] = pair_figures(store, target, slugs).value_or(Figures{});
  size_t agreeing = 0;
  for (const auto &[target, shown] : published) {
    const auto logged = from_log.count(target) ? from_log.at(target) : Figures{};
    if (shown == logged) {
      ++agreeing;
      continue;
    }
    const auto name =
        vote_target_code(target) + (target.pair               ? ""
                                    : slugs.count(target.low) ? " (" + slugs.at(target.low) + ")"
                                                              : "");
    fault(name + ": the site shows " + described(target, shown) + "; the log gives " +
          described(target, logged));
  }

  if (!faults.empty()) {
    err << "verdict verify: " << faults.size() << (faults.size() == 1 ? " fault" : " faults")
        << "\n";
    return 1;
  }
  if (checkpoint)
    state[source] = {{"public_key", public_key},
                     {"size", checkpoint->size},
                     {"root", merkle::hex(checkpoint->root)}};
  std::ofstream(state_file) << state.dump(2) << "\n";
  out << "ok: " << entries << " log entries; "
      << (checkpoint ? "the checkpoint of " + std::to_string(checkpoint->size) +
                           " entries is signed by " + public_key + " and made by the log; "
                     : std::string())
      << agreeing << " targets' numbers are what the log gives\n";
  return 0;
}

} // namespace verdict
