#include "app/verify_command.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "app/verify_sources.h"
#include "auth/log_signing.h"
#include "base/merkle.h"
#include "domain/clock.h"
#include "domain/counting.h"
#include "domain/dates.h"
#include "domain/tallies.h"
#include "domain/vote_log.h"

namespace verdict {

namespace {

// An entry read as the format says (migrations/0010-vote-log.sql), with nothing of the site's:
// the verifier reads the very text whose hash is the leaf. Empty when it is not an entry.
std::optional<VoteEvent> event_of(const std::string &text) {
  const auto entry = nlohmann::json::parse(text, nullptr, false);
  if (!entry.is_object()) return std::nullopt;
  const auto at = entry.value("at", std::string());
  const auto target = vote_target_from_code(entry.value("target", std::string()));
  const auto what = entry.value("event", std::string());
  const auto voter = entry.find("voter");
  if (at.size() < 10 || !target || voter == entry.end() || !voter->is_string()) return std::nullopt;
  VoteEvent event;
  event.day = at.substr(0, 10);
  event.target = *target;
  event.voter = voter->get<std::string>();
  if (const auto place = entry.find("place"); place != entry.end()) {
    event.names_places = true;
    if (place->is_string())
      event.place = place->get<std::string>();
    else if (!place->is_null())
      return std::nullopt;
  }
  if (what == "withdrawn") return event;
  if (what == "rekeyed") {
    // A vote carried to its target-keyed pseudonym (0014), naming the one it had; or to the
    // format that names places (0021), after its withdrawal under the old one.
    event.rekeyed = true;
    if (const auto was = entry.find("was"); was != entry.end()) {
      if (!was->is_string() || was->get<std::string>().empty()) return std::nullopt;
      event.was = was->get<std::string>();
    }
  } else if (what != "cast" && what != "changed") {
    return std::nullopt;
  }
  const auto choice = entry.find("choice");
  if (choice == entry.end()) return std::nullopt;
  // A tool's choice is its verdict's word; a pair's, the picked tool's id.
  if (target->pair && choice->is_number_integer()) {
    const auto picked = choice->get<int64_t>();
    if (picked != target->low && picked != target->high) return std::nullopt;
    event.first = picked == target->low;
  } else if (!target->pair && choice->is_string()) {
    const auto verdict = verdict_from_word(choice->get<std::string>());
    if (!verdict) return std::nullopt;
    event.first = verdict == Verdict::ship;
  } else {
    return std::nullopt;
  }
  if (const auto network = entry.find("network"); network != entry.end() && network->is_string())
    event.network = network->get<std::string>();
  const auto set_aside = entry.find("set_aside");
  if (set_aside != entry.end() && set_aside->is_string()) {
    event.set_aside = reason_from_code(set_aside->get<std::string>());
    if (!event.set_aside) return std::nullopt;
  } else if (set_aside != entry.end() && !set_aside->is_null()) {
    return std::nullopt;
  }
  return event;
}

std::string described(const VoteTarget &target, const DayTally &figures) {
  const auto counted =
      std::to_string(figures.counted()) + " counted (" + std::to_string(figures.first) +
      (target.pair ? " for the first, " : " ship, ") + std::to_string(figures.second) +
      (target.pair ? " for the second)" : " skip)");
  return counted + ", " + std::to_string(figures.set_aside.network) + " set aside by network, " +
         std::to_string(figures.set_aside.too_fast) + " set aside as too fast";
}

// The same numbers, whatever day each is of.
bool agrees(const DayTally &shown, const DayTally &logged) {
  return shown.first == logged.first && shown.second == logged.second &&
         shown.set_aside.network == logged.set_aside.network &&
         shown.set_aside.too_fast == logged.set_aside.too_fast;
}

nlohmann::json read_state(const std::string &path) {
  std::ifstream file(path);
  if (!file) return nlohmann::json::object();
  const auto state = nlohmann::json::parse(file, nullptr, false);
  return state.is_object() ? state : nlohmann::json::object();
}

// Seconds after which a checkpoint's size is a floor for every published number.
constexpr int64_t kCheckpointSettling = 60;

// The checks themselves, on whichever source; each fault goes to `fault`.
class Verification {
public:
  Verification(VerifySource &source, nlohmann::json &state, std::ostream &err)
      : source_(source), state_(state), err_(err) {}

  void run() {
    // The checkpoint is read before the numbers, so every number is read at a log at least
    // its size; one read at a smaller log (a page frozen at a moment the site liked better) is
    // a fault, like a number the log does not give. So is one older than a checkpoint an
    // earlier run saw.
    checkpoint_ = source_.checkpoint();
    const auto newest = newest_checkpoint_size();
    auto published = source_.published();
    std::stable_sort(published.begin(), published.end(),
                     [](const auto &a, const auto &b) { return a.log_size < b.log_size; });
    for (const auto &shown : published)
      if (shown.log_size < newest)
        fault(shown.name + " (" + shown.where + "): its numbers were read at a log of " +
              std::to_string(shown.log_size) + " entries, older than the newest checkpoint's " +
              std::to_string(newest) + ": the site shows numbers of an earlier moment");
    auto due = published.begin();
    // Each number is compared when the replay has reached the log size it was read at.
    const auto compare_due = [&](uint64_t replayed) {
      for (; due != published.end() && due->log_size == replayed; ++due)
        compare(*due, replay_.standing(due->target));
    };
    replay_log(compare_due);
    compare_due(leaves_.size());
    for (; due != published.end(); ++due)
      fault(due->name + " (" + due->where + "): its numbers were read at a log of " +
            std::to_string(due->log_size) + " entries, but the log has " +
            std::to_string(leaves_.size()));
    check_checkpoint();
  }

  size_t faults() const { return faults_; }
  size_t agreeing() const { return agreeing_; }
  size_t targets() const { return targets_.size(); }
  uint64_t entries() const { return leaves_.size(); }
  const std::optional<std::pair<Checkpoint, std::string>> &checkpoint() const {
    return checkpoint_;
  }

private:
  // Reads the log from leaf 0, a page at a time, replaying each entry; `compare_due(n)` is
  // called before leaf n is replayed.
  void replay_log(const std::function<void(uint64_t)> &compare_due) {
    for (uint64_t from = 0;;) {
      const auto page = source_.log_entries(from);
      if (page.empty()) break;
      for (const auto &[leaf, text, _] : page) {
        // Leaves 0 onwards, one after another: with one left out, what follows would be
        // replayed as if it were not missing, and nothing after the gap can be checked.
        if (leaf != from) {
          fault("the log gives leaf " + std::to_string(leaf) + " where leaf " +
                std::to_string(from) +
                " was due: entries are left out or repeated, so the log cannot be checked "
                "past leaf " +
                std::to_string(from));
          return;
        }
        compare_due(from);
        leaves_.push_back(merkle::leaf_hash(text));
        if (const auto event = event_of(text)) {
          replay_.add(*event);
          if (const auto broken = counting_rule_.add(*event); !broken.empty())
            fault("leaf " + std::to_string(from) + " breaks the counting rule: " + broken);
        } else
          fault("leaf " + std::to_string(from) + " is not a vote log entry: " + text);
        ++from;
      }
    }
  }

  // The size of the newest checkpoint known: the one an earlier run saw, or the site's now
  // once it is kCheckpointSettling old. A page may show numbers up to a second old (the page
  // epoch's lag; a few seconds on a cluster's node catching up), so a checkpoint made a moment
  // ago may cover votes the pages do not show yet: an honest site is not failed for that.
  uint64_t newest_checkpoint_size() const {
    uint64_t newest = 0;
    if (state_.contains(source_.name())) newest = state_[source_.name()].value("size", uint64_t{0});
    if (checkpoint_ && unix_now() - checkpoint_->first.made_at >= kCheckpointSettling)
      newest = std::max(newest, checkpoint_->first.size);
    return newest;
  }

  void fault(const std::string &what) {
    ++faults_;
    err_ << "verdict verify: " << what << "\n";
  }

  void compare(const PublishedTally &shown, const DayTally &logged) {
    targets_.insert(shown.target);
    if (agrees(shown.figures, logged)) {
      ++agreeing_;
      return;
    }
    fault(vote_target_code(shown.target) + " (" + shown.name + "): the site shows " +
          described(shown.target, shown.figures) + "; the log gives " +
          described(shown.target, logged) + " (read from " + shown.where + " at a log of " +
          std::to_string(shown.log_size) + " entries)");
  }

  void check_checkpoint() {
    // A reader who once saw a checkpoint holds the site to it: a site that shows none now may
    // have rewritten what it covered, and that cannot be told from here.
    if (!checkpoint_) {
      if (state_.contains(source_.name()))
        fault("the site shows no checkpoint, but one of " +
              std::to_string(state_[source_.name()].value("size", uint64_t{0})) +
              " entries was seen before: what it covered can no longer be checked");
      return;
    }
    const auto &[checkpoint, public_key] = *checkpoint_;
    if (!auth::signature_holds(public_key, checkpoint_text(checkpoint), checkpoint.signature))
      fault("the latest checkpoint's signature does not hold under the site's key " + public_key);
    if (leaves_.size() < checkpoint.size ||
        merkle::root(checkpoint.size,
                     merkle::over({leaves_.begin(), leaves_.begin() + checkpoint.size})) !=
            checkpoint.root)
      fault("the log's first " + std::to_string(checkpoint.size) +
            " entries do not make the checkpoint's root: an entry was changed, removed or "
            "reordered after it was signed");
    if (!state_.contains(source_.name())) return;
    const auto &seen = state_[source_.name()];
    const auto seen_key = seen.value("public_key", std::string());
    const auto seen_size = seen.value("size", uint64_t{0});
    const auto seen_root = merkle::from_hex(seen.value("root", std::string()));
    const auto seen_made_at = seen.value("made_at", int64_t{0});
    if (seen_key != public_key)
      fault("the site's key is not the one seen before (" + seen_key +
            "): its checkpoints were signed anew");
    else if (seen_size > checkpoint.size)
      fault("the log has " + std::to_string(checkpoint.size) + " entries, fewer than the " +
            std::to_string(seen_size) + " seen before");
    else if (seen_made_at > checkpoint.made_at)
      fault("the site shows a checkpoint older than the one seen before: an earlier one is "
            "shown in place of the newest");
    else if (!seen_root ||
             !merkle::consistency_holds(seen_size, checkpoint.size, *seen_root, checkpoint.root,
                                        source_.consistency_proof(seen_size, checkpoint.size)))
      fault("the log now is not the log seen before with entries added: the first " +
            std::to_string(seen_size) + " entries changed");
  }

  VerifySource &source_;
  nlohmann::json &state_;
  std::ostream &err_;
  std::optional<std::pair<Checkpoint, std::string>> checkpoint_;
  std::vector<merkle::Hash> leaves_;
  TallyReplay replay_;
  CountingRuleCheck counting_rule_;
  size_t faults_ = 0, agreeing_ = 0;
  std::set<VoteTarget> targets_;
};

} // namespace

int run_verify(const VerifyTarget &target, const std::string &state_file, std::ostream &out,
               std::ostream &err, int max_age_hours, int64_t now) {
  if (now == 0) now = unix_now();
  auto state = read_state(state_file);
  std::unique_ptr<VerifySource> source;
  std::optional<Verification> verification;
  try {
    source = target.site_url.empty() ? file_source(target.db) : site_source(target.site_url);
    verification.emplace(*source, state, err);
    verification->run();
  } catch (const UnreadableSite &e) {
    err << "verdict verify: could not read the site: " << e.what() << "\n";
    return 2;
  } catch (const nlohmann::json::exception &e) {
    err << "verdict verify: an answer of the site is not as its API says: " << e.what() << "\n";
    return 2;
  }
  // A checkpoint is made daily; one much older while entries came after it means the site
  // stopped signing what it shows.
  const auto &newest = verification->checkpoint();
  const auto uncovered = verification->entries() - (newest ? newest->first.size : 0);
  if (newest && uncovered > 0 && now - newest->first.made_at > int64_t{max_age_hours} * 3600) {
    err << "verdict verify: the newest checkpoint is " << age_in_words(now - newest->first.made_at)
        << " old and " << uncovered << (uncovered == 1 ? " entry" : " entries")
        << " came after it: the site has stopped signing "
        << "its log (checkpoints are made daily; --max-age HOURS, now " << max_age_hours
        << ", sets how old one may be)\n";
    err << "verdict verify: 1 fault\n";
    return 1;
  }
  if (verification->faults()) {
    err << "verdict verify: " << verification->faults()
        << (verification->faults() == 1 ? " fault" : " faults") << "\n";
    return 1;
  }
  const auto &checkpoint = verification->checkpoint();
  if (checkpoint)
    state[source->name()] = {{"public_key", checkpoint->second},
                             {"size", checkpoint->first.size},
                             {"root", merkle::hex(checkpoint->first.root)},
                             {"made_at", checkpoint->first.made_at}};
  std::ofstream(state_file) << state.dump(2) << "\n";
  if (!checkpoint)
    out << "no checkpoint yet: the numbers are checked against the log, the log against "
           "nothing; "
        << uncovered << " entries are covered by no checkpoint\n";
  else
    out << "the newest checkpoint is " << age_in_words(now - checkpoint->first.made_at)
        << " old and covers " << checkpoint->first.size << " of " << verification->entries()
        << " entries"
        << (uncovered > 0
                ? " (" + std::to_string(uncovered) + " not yet: the next is due within a day of it)"
                : std::string())
        << "\n";
  out << "ok: " << verification->entries() << " log entries; "
      << (checkpoint ? "the checkpoint of " + std::to_string(checkpoint->first.size) +
                           " entries is signed by " + checkpoint->second + " and made by the log; "
                     : std::string())
      << verification->agreeing() << " published numbers of " << verification->targets()
      << " tools and pairs are what the log gives\n";
  return 0;
}

} // namespace verdict
