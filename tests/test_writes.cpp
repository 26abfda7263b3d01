// Writes as values (domain/writes.h): each kind's one encoding for the cluster's stream
// (domain/write_encoding.h) gives back the same value, an older entry's shape is still read, a
// newer version or a malformed one is refused where read; and the store's one apply
// (store/apply_write.h) says how each ended, writing nothing unless it was done.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <set>
#include <sstream>

#include "domain/write_encoding.h"
#include "store/apply_write.h"
#include "store/site_writes.h"
#include "test_support.h"

namespace verdict {

namespace {

const ContentTool kWrittenTool{"tabby",
                               "Tabby",
                               "developer-tools",
                               "Self-hosted completion, with a comma, and “quotes”",
                               "A line.\nAnother line.",
                               "Open weights",
                               "TabbyML",
                               "https://tabby.example",
                               "Free to run",
                               "2026-11-01",
                               "https://tabby.example/pricing"};

// A ballot as a taking node saw it; its seconds on page are never on the stream.
const Ballot kWrittenBallot{"voter-hash",     "network-hash", "2026-11-27", 0,
                            "the-form-token", "wider-hash"};

// Every kind, each field holding something of its own.
std::vector<Write> every_kind() {
  return {CreateCategory{{"agents", "Agents"}, "a@example.com"},
          UpdateCategory{"agents", {"agents-2", "Agents, renamed"}, "b@example.com"},
          DeleteCategory{"agents", "c@example.com"},
          CreateTool{kWrittenTool, "d@example.com"},
          UpdateTool{"tabby", kWrittenTool, "e@example.com"},
          DeleteTool{"tabby", "f@example.com"},
          CreateReviewer{{"auditor", "The Auditor", "Compliance", "Reads the terms.\nAll."},
                         "g@example.com"},
          UpdateReviewer{"auditor", {"auditor", "Auditor", "Law", ""}, "h@example.com"},
          DeleteReviewer{"auditor", "i@example.com"},
          CreateReview{{"tabby", "auditor", "ship", "Fine."}, "j@example.com"},
          UpdateReview{"tabby", "auditor", {"tabby", "builder", "skip", "No."}, "k@example.com"},
          DeleteReview{"tabby", "auditor", "l@example.com"},
          CreateComparison{{"tabby", "codestral-2-1", "2026-12-01", "Intro.", "Ship with…"},
                           "m@example.com"},
          UpdateComparison{
              "tabby-vs-codestral-2-1", {"tabby", "codestral-2-1", "", "", ""}, "n@example.com"},
          DeleteComparison{"tabby-vs-codestral-2-1", "o@example.com"},
          AddEditor{"p@example.com", "$argon2id$v=19$m=65536,t=3,p=1$salt$hash"},
          RemoveEditor{"q@example.com"},
          SetEditorPassword{"r@example.com", "$argon2id$another"},
          StartSession{"session-hash", 7, "csrf-token", 4102444800},
          EndSession{"session-hash-2"},
          EraseSubscriber{42, "s@example.com"},
          Unsubscribe{43},
          CastToolVote{kWrittenBallot, 5, Verdict::skip},
          CastPairVote{kWrittenBallot, 5, 9, 9, true},
          RequestSubscription{"t@example.com", false},
          ConfirmSubscription{"confirm-hash"},
          Resubscribe{44},
          ClaimConfirmation{45, 600},
          StartConfirmation{46, "token-hash", 1800086400},
          ConfirmationMailed{47},
          ConfirmationFailed{48, 1800003600, "421 try later"},
          RecordDigest{"2026-11-27", 8},
          ClaimDigestSend{49, 50},
          DigestSent{51, 52},
          DigestSendFailed{53, 54, SendFailure::refused_for_good, "550 no such user"},
          MakeCheckpoint{true},
          ImportContent{test::seeded_store()->export_content()},
          PublishVotes{3600}};
}

// Two writes are the same value: the same kind and the same encoding of every field.
bool same(const Write &left, const Write &right) {
  return left.index() == right.index() && arguments_of(left) == arguments_of(right);
}

} // namespace

TEST_CASE("writes: every kind encoded for the stream is read back as the same value, under a "
          "name of its own") {
  std::set<std::string_view> names;
  for (const auto &write : every_kind()) {
    const auto name = kind_name(write);
    INFO(name);
    CHECK(names.insert(name).second);
    const auto arguments = arguments_of(write);
    CHECK(
        arguments.at("v") ==
        std::visit([](const auto &kind) { return std::decay_t<decltype(kind)>::version; }, write));
    // Through its text, as the stream holds it.
    const auto read = write_from(name, nlohmann::json::parse(arguments.dump()));
    REQUIRE(read);
    CHECK(same(*read, write));
  }
  CHECK(names.size() == std::variant_size_v<Write>);
  // A field read back is the field written, not only its encoding.
  const auto tool = write_from("update_tool", arguments_of(UpdateTool{"tabby", kWrittenTool, "e"}));
  REQUIRE(tool);
  CHECK(std::get<UpdateTool>(*tool).item.description == "A line.\nAnother line.");
  CHECK(std::get<UpdateTool>(*tool).item.pricing_source == "https://tabby.example/pricing");
  CHECK(std::get<UpdateTool>(*tool).slug == "tabby");
}

TEST_CASE("writes: every kind's wire name and version are the ones the stream already carries "
          "(tests/wire/kinds.txt): renaming, reordering or versioning a kind fails here") {
  std::set<std::string> pinned;
  std::istringstream listed(test::source_file("tests/wire/kinds.txt"));
  for (std::string line; std::getline(listed, line);)
    if (!line.empty() && line[0] != '#') pinned.insert(line);
  std::set<std::string> written;
  for (const auto &write : every_kind())
    written.insert(std::string(kind_name(write)) + " " + arguments_of(write).at("v").dump());
  CHECK(written == pinned);
  CHECK(pinned.size() == std::variant_size_v<Write>);
}

TEST_CASE("writes: a stored entry of every kind (tests/wire/entries.jsonl) is still read, as the "
          "kind it names, and one of the kind's version now is written again exactly as stored") {
  std::set<std::string> kinds, older;
  std::istringstream stored(test::source_file("tests/wire/entries.jsonl"));
  for (std::string line; std::getline(stored, line);) {
    if (line.empty()) continue;
    const auto entry = nlohmann::json::parse(line);
    const auto kind = entry.at("kind").get<std::string>();
    INFO(kind);
    const auto read = write_from(kind, entry.at("arguments"));
    REQUIRE(read);
    CHECK(kind_name(*read) == kind);
    // An entry of an older version is read, and written again at the version now.
    if (entry.at("arguments").value("v", 1) == arguments_of(*read).at("v"))
      CHECK(arguments_of(*read) == entry.at("arguments"));
    else
      older.insert(kind);
    kinds.insert(kind);
  }
  CHECK(kinds.size() == std::variant_size_v<Write>);
  // The kinds whose version went up are stored at both.
  CHECK(older == std::set<std::string>{"request_subscription", "confirm_subscription",
                                       "claim_confirmation", "make_checkpoint"});
}

TEST_CASE("writes: a session's and a subscriber's numbers are read back as the numbers written") {
  const auto session = write_from("start_session", arguments_of(StartSession{"h", 7, "c", 41}));
  REQUIRE(session);
  CHECK(std::get<StartSession>(*session).editor_id == 7);
  CHECK(std::get<StartSession>(*session).expires_at == 41);
  CHECK(std::get<StartSession>(*session).csrf_token == "c");
  const auto erased = write_from("erase_subscriber", arguments_of(EraseSubscriber{42, "e"}));
  REQUIRE(erased);
  CHECK(std::get<EraseSubscriber>(*erased).id == 42);
  CHECK_THROWS_AS(write_from("unsubscribe", nlohmann::json::parse(R"({"id":"43"})")),
                  std::invalid_argument);
}

TEST_CASE("writes: an entry written before kinds were versioned is read as version 1, with the "
          "fields it lacks empty") {
  // As a node of the version before wrote a comparison's save: every field, no "v".
  const auto older = nlohmann::json::parse(
      R"({"pair":"a-vs-b","item":{"a":"a","b":"b","published_on":"","intro":"Hi."},)"
      R"("editor":"e@example.com"})");
  const auto read = write_from("update_comparison", older);
  REQUIRE(read);
  const auto &update = std::get<UpdateComparison>(*read);
  CHECK(update.pair == "a-vs-b");
  CHECK(update.item.intro == "Hi.");
  CHECK(update.item.bottom_line.empty());
  CHECK(update.editor == "e@example.com");
}

TEST_CASE("writes: a vote as a node of the version before wrote it is read, its ballot whole "
          "but for the seconds on page, which the applying node judges") {
  // tool_vote and pair_vote entries as landed nodes publish them: no "v", no "wider" before
  // the wider quota was kept.
  const auto tool_vote =
      write_from("tool_vote",
                 nlohmann::json::parse(R"({"ballot":{"voter":"v1","network":"n1","day":)"
                                       R"("2026-11-01","token":"t1"},"tool":3,"verdict":"ship"})"));
  REQUIRE(tool_vote);
  const auto &cast = std::get<CastToolVote>(*tool_vote);
  CHECK(cast.ballot.voter == "v1");
  CHECK(cast.ballot.network == "n1");
  CHECK(cast.ballot.token == "t1");
  CHECK(cast.ballot.wider.empty());
  CHECK(cast.ballot.seconds_on_page == 0);
  CHECK(cast.tool == 3);
  CHECK(cast.verdict == Verdict::ship);
  const auto withdrawn = write_from(
      "pair_vote", nlohmann::json::parse(R"({"ballot":{"voter":"v2","network":"n2","wider":"w2",)"
                                         R"("day":"2026-11-01","token":"t2"},"a":4,"b":7,)"
                                         R"("pick":null,"v":1})"));
  REQUIRE(withdrawn);
  const auto &pick = std::get<CastPairVote>(*withdrawn);
  CHECK(pick.ballot.wider == "w2");
  CHECK(pick.a == 4);
  CHECK(pick.b == 7);
  CHECK_FALSE(pick.pick);
  // A verdict this version does not know, or content its rules refuse, is a newer version's.
  CHECK_THROWS_AS(
      write_from("tool_vote", nlohmann::json::parse(R"({"ballot":{"voter":"v","network":"n",)"
                                                    R"("day":"d","token":"t"},"tool":3,)"
                                                    R"("verdict":"maybe"})")),
      std::invalid_argument);
  CHECK_THROWS_AS(
      write_from("import_content", nlohmann::json::parse(R"({"content":"{\"tools\":7}"})")),
      std::invalid_argument);
}

TEST_CASE("writes: a kind no Write names is left to the stream's other kinds, and a newer "
          "version or arguments of the wrong shape are refused where read") {
  CHECK_FALSE(write_from("no_such_kind", nlohmann::json::object()));
  CHECK_THROWS_AS(write_from("tool_vote", nlohmann::json::object()), std::invalid_argument);
  auto newer = arguments_of(DeleteTool{"tabby", "f@example.com"});
  newer["v"] = 2;
  CHECK_THROWS_WITH(write_from("delete_tool", newer), Catch::Contains("version 2"));
  CHECK_THROWS_AS(write_from("delete_tool", nlohmann::json::parse(R"({"slug":"tabby"})")),
                  std::invalid_argument);
  CHECK_THROWS_AS(write_from("delete_tool", nlohmann::json::parse(R"({"slug":7,"editor":"e"})")),
                  std::invalid_argument);
  CHECK_THROWS_AS(write_from("create_tool", nlohmann::json::parse(R"({"item":[],"editor":"e"})")),
                  std::invalid_argument);
  CHECK_THROWS_AS(write_from("create_tool", nlohmann::json::array()), std::invalid_argument);
}

TEST_CASE("writes: the store's apply says how each ended, and writes nothing unless done") {
  auto store = test::seeded_store();
  const Clock clock;
  StoreWrites writes(*store, clock);
  const auto edits = [&store] { return store->edit_log(PageSpan{1, 100}).items.size(); };
  using Ended = WriteResult::Ended;

  CHECK(writes.submit(CreateCategory{{"agents", "Agents"}, "a@example.com"}).done());
  CHECK(store->category("agents"));
  const auto logged = edits();

  const auto taken = writes.submit(CreateCategory{{"agents", "Agents again"}, "a@example.com"});
  CHECK(taken.ended == Ended::already_exists);
  CHECK_FALSE(taken.words.empty());
  CHECK(store->category("agents")->name == "Agents");

  const auto missing = writes.submit(UpdateTool{"no-such-tool", kWrittenTool, "a@example.com"});
  CHECK(missing.ended == Ended::not_found);
  CHECK_FALSE(store->tool_by_slug("tabby"));

  const auto holding = writes.submit(DeleteCategory{"developer-tools", "a@example.com"});
  CHECK(holding.ended == Ended::refused);
  CHECK_FALSE(holding.words.empty());
  CHECK(store->category("developer-tools"));

  CHECK(edits() == logged);
  CHECK(writes.submit(DeleteCategory{"agents", "a@example.com"}).done());
  CHECK_FALSE(store->category("agents"));
  CHECK(edits() == logged + 1);

  // An editor: added once, a second time refused; a password or a removal for an address that
  // is no editor's is not found, and adds no one.
  CHECK(writes.submit(AddEditor{"new@example.com", "$argon2id$one"}).done());
  CHECK(writes.submit(AddEditor{"new@example.com", "$argon2id$two"}).ended ==
        Ended::already_exists);
  CHECK(store->editor_by_email("new@example.com")->password_hash == "$argon2id$one");
  CHECK(writes.submit(SetEditorPassword{"nobody@example.com", "$argon2id$three"}).ended ==
        Ended::not_found);
  CHECK(writes.submit(RemoveEditor{"nobody@example.com"}).ended == Ended::not_found);
  CHECK_FALSE(store->editor_by_email("nobody@example.com"));
  const auto editor = store->editor_by_email("new@example.com")->id;
  CHECK(writes.submit(StartSession{"session", editor, "csrf", 4102444800}).done());
  CHECK(store->session("session", 0));
  CHECK(writes.submit(EndSession{"session"}).done());
  CHECK_FALSE(store->session("session", 0));
  CHECK(writes.submit(RemoveEditor{"new@example.com"}).done());
  CHECK_FALSE(store->editor_by_email("new@example.com"));
  CHECK(writes.submit(EraseSubscriber{987654321, "a@example.com"}).ended == Ended::not_found);
}

TEST_CASE("writes: a write refused after writing part of itself leaves nothing of it, applied "
          "alone or in a cluster's entry") {
  auto store = test::seeded_store();
  // An import whose category and tool are written before its review names a tool that is not
  // there: refused, with nothing of the category or the tool kept.
  Content content;
  content.categories.push_back({"half-written", "Half written"});
  auto tool = kWrittenTool;
  tool.category = "half-written";
  content.tools.push_back(tool);
  content.reviews.push_back({"no-such-tool", store->reviewers().at(0).slug, "ship", "Fine."});

  const auto alone = apply(*store, ImportContent{content}, store->context_at(unix_now_ms()));
  CHECK(alone.ended == WriteResult::Ended::not_found);
  CHECK(alone.words == "no tool has the address no-such-tool");
  CHECK_FALSE(store->category("half-written"));
  CHECK_FALSE(store->tool_by_slug("tabby"));

  // In an entry, the refused write leaves nothing and the entry's other write stands.
  const auto entry = test::apply_entry_now(
      *store, 1,
      {{ImportContent{content}, store->context_at(unix_now_ms())},
       {CreateCategory{{"agents", "Agents"}, "a@example.com"}, store->context_at(unix_now_ms())}});
  CHECK(entry.entry.done());
  CHECK(entry.writes.at(0).ended == WriteResult::Ended::not_found);
  CHECK(entry.writes.at(1).done());
  CHECK_FALSE(store->category("half-written"));
  CHECK_FALSE(store->tool_by_slug("tabby"));
  CHECK(store->category("agents"));
}

TEST_CASE("writes: the kinds that make something answer with what they made") {
  auto store = test::seeded_store();
  // The site's clock, which each write takes its time from: moved on by hand below.
  int64_t now = 1800000000;
  const auto clock = Clock::in_seconds([&now] { return now; });
  StoreWrites writes(*store, clock);

  const auto asked = writes.submit(RequestSubscription{"reader@example.com", true});
  REQUIRE(asked.done());
  CHECK(asked.made_by<RequestSubscription>() == SubscriptionRequest::mail_queued);
  // Rationed where it was taken: nothing kept for a new address.
  const auto rationed = writes.submit(RequestSubscription{"other@example.com", false});
  CHECK(rationed.made_by<RequestSubscription>() == SubscriptionRequest::mail_rationed);
  CHECK(store->all_subscribers().size() == 1);

  const auto owed = store->confirmations_due(now, 10);
  REQUIRE(owed.size() == 1);
  const auto id = owed[0].subscriber_id;
  CHECK(writes.submit_or_throw(ClaimConfirmation{id, 600}));
  CHECK_FALSE(writes.submit_or_throw(ClaimConfirmation{id, 600})); // one claim stands
  CHECK(writes.submit_or_throw(StartConfirmation{id, "token-hash", now + 86400}));
  CHECK(writes.submit(ConfirmationMailed{id}).done());
  now += 60;
  CHECK(writes.submit_or_throw(ConfirmSubscription{"token-hash"}) ==
        ConfirmationCheck::confirmable);
  CHECK(store->subscriber(id)->status == "confirmed");
  CHECK(writes.submit_or_throw(Resubscribe{id}) == Resubscription::unchanged);

  // One checkpoint for two nodes' asks within half a day.
  const auto checkpoints = [&] { return store->latest_checkpoints(10).size(); };
  const auto before = checkpoints();
  CHECK(writes.submit(MakeCheckpoint{}).done());
  now += 3600;
  CHECK(writes.submit(MakeCheckpoint{}).done());
  CHECK(checkpoints() == before + 1);
  now += kCheckpointEverySeconds;
  CHECK(writes.submit(MakeCheckpoint{}).done());
  CHECK(checkpoints() == before + 2);

  auto content = store->export_content();
  content.tools.at(0).tagline = "A tagline changed by a file";
  const auto imported = writes.submit_or_throw(ImportContent{content});
  CHECK(imported.tools.updated == 1);
  CHECK(imported.tools.created == 0);

  // Who stops at a write not done hears how it ended, whole.
  try {
    writes.submit_or_throw(DeleteCategory{"no-such-category", test::kEditorEmail});
    FAIL("a write of nothing was done");
  } catch (const WriteNotDone &refused) {
    CHECK(refused.result.ended == WriteResult::Ended::not_found);
    CHECK(std::string(refused.what()) == "no category has the address no-such-category");
  }
}

} // namespace verdict
