// Editors, their passwords and sessions: what the desk's sign-in stands on.
#include <catch2/catch.hpp>

#include <set>

#include "auth/secrets.h"
#include "auth/sign_in_throttle.h"
#include "store/store.h"

using namespace verdict;

TEST_CASE("editors: a password is kept as an Argon2id hash that only it matches") {
  const auto hash = auth::hash_password("correct horse battery");
  CHECK(hash.starts_with("$argon2id$"));
  CHECK(hash.find("correct horse battery") == std::string::npos);
  CHECK(auth::password_matches(hash, "correct horse battery"));
  CHECK_FALSE(auth::password_matches(hash, "correct horse batterY"));
  CHECK_FALSE(auth::password_matches(hash, ""));
  CHECK(auth::hash_password("correct horse battery") != hash); // salted afresh
  CHECK_FALSE(auth::needs_rehash(hash));
  CHECK_FALSE(auth::password_matches(auth::hash_matching_nothing(), ""));
  CHECK_FALSE(auth::password_matches("not a hash", "correct horse battery"));
}

TEST_CASE("editors: a password must be long enough, and not absurdly long") {
  CHECK(auth::password_problem("short") == "must be at least 10 characters");
  CHECK(auth::password_problem("ten chars!").empty());
  CHECK_FALSE(auth::password_problem(std::string(1025, 'x')).empty());
}

TEST_CASE("editors: secrets are random, and kept under a hash") {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i)
    seen.insert(auth::random_secret());
  CHECK(seen.size() == 100);
  CHECK(seen.begin()->size() == 64); // 32 bytes, hex
  const auto secret = *seen.begin();
  CHECK(auth::secret_hash(secret) == auth::secret_hash(secret));
  CHECK(auth::secret_hash(secret) != auth::secret_hash(*std::next(seen.begin())));
  CHECK(auth::secret_hash(secret) != secret);
}

TEST_CASE("editors: addresses are one per editor whatever their case, and removing an editor "
          "ends their sessions") {
  Store store(":memory:");
  const auto hash = auth::hash_password("a long password");
  test::add_editor(store, "Ada@Example.com", hash);
  CHECK(test::refusal_of([&] { test::add_editor(store, "ada@example.COM", hash); }) ==
        WriteResult::Ended::already_exists);
  REQUIRE(store.editors().size() == 1);
  CHECK(store.editors()[0].email == "ada@example.com");
  const auto ada = store.editor_by_email("ADA@example.com");
  REQUIRE(ada);
  CHECK(ada->password_hash == hash);

  test::start_session(store, "kept-hash", ada->id, "csrf-1", 2000);
  const auto session = store.session("kept-hash", 1000);
  REQUIRE(session);
  CHECK(session->email == "ada@example.com");
  CHECK(session->csrf_token == "csrf-1");
  CHECK_FALSE(store.session("kept-hash", 2000)); // expired at its time
  CHECK_FALSE(store.session("other-hash", 1000));

  CHECK(test::remove_editor(store, "ada@example.com"));
  CHECK_FALSE(test::remove_editor(store, "ada@example.com"));
  CHECK_FALSE(store.session("kept-hash", 1000));
  CHECK(store.editors().empty());
}

TEST_CASE("editors: a new password ends every session of that editor, and a signed-out "
          "session is gone") {
  Store store(":memory:");
  test::add_editor(store, "ed@example.com", auth::hash_password("first password"));
  const auto ed = store.editor_by_email("ed@example.com");
  REQUIRE(ed);
  test::start_session(store, "laptop", ed->id, "c1", 4000000000);
  test::start_session(store, "phone", ed->id, "c2", 4000000000);
  test::end_session(store, "phone");
  CHECK(store.session("laptop", 1000));
  CHECK_FALSE(store.session("phone", 1000));

  const auto second = auth::hash_password("second password");
  CHECK(test::set_editor_password(store, "ed@example.com", second));
  CHECK_FALSE(store.session("laptop", 1000));
  CHECK(auth::password_matches(store.editor_by_email("ed@example.com")->password_hash,
                               "second password"));
  CHECK_FALSE(test::set_editor_password(store, "nobody@example.com", second));
}

TEST_CASE("editors: an account's failures hold back only the network they came from, until the "
          "oldest leaves the window, and a success there forgets them") {
  using namespace std::chrono;
  using HeldBy = auth::SignInThrottle::HeldBy;
  auth::SignInThrottle throttle({.per_account_from_network = 2,
                                 .per_network = 100,
                                 .per_account = 100,
                                 .window = minutes(10)});
  const auto start = auth::SignInThrottle::Clock::now();
  const std::string attacker = "203.0.113.0/24", editor = "198.51.100.0/24";
  CHECK(test::held_back(throttle, attacker, "Ed@example.com", "", start).seconds == seconds(0));
  test::wrong_password(throttle, attacker, "ed@example.com", "", start);
  test::wrong_password(throttle, attacker, "ED@example.com", "", start + minutes(3)); // any case
  const auto held = test::held_back(throttle, attacker, "ed@example.com", "", start + minutes(4));
  CHECK(held.seconds == minutes(6));
  CHECK(held.held_by == HeldBy::account_from_network);
  CHECK(test::held_back(throttle, attacker, "ed@example.com", "", start + minutes(10)).seconds ==
        seconds(0));
  CHECK(test::held_back(throttle, attacker, "other@example.com", "", start + minutes(4)).seconds ==
        seconds(0));
  // The editor's network is not the attacker's.
  CHECK(test::held_back(throttle, editor, "ed@example.com", "", start + minutes(4)).seconds ==
        seconds(0));
  // A typo, then the right password: the typo is forgotten, so one more typo holds nobody back
  // (two would).
  test::wrong_password(throttle, editor, "ed@example.com", "", start + minutes(5));
  test::right_password(throttle, editor, "ed@example.com", "", start + minutes(6));
  test::wrong_password(throttle, editor, "ed@example.com", "", start + minutes(7));
  CHECK(test::held_back(throttle, editor, "ed@example.com", "", start + minutes(7)).seconds ==
        seconds(0));
  test::wrong_password(throttle, editor, "ed@example.com", "", start + minutes(8));
  CHECK(test::held_back(throttle, editor, "ed@example.com", "", start + minutes(8)).seconds ==
        minutes(9));
  CHECK(test::held_back(throttle, attacker, "ed@example.com", "", start + minutes(6)).seconds ==
        minutes(4));
}

TEST_CASE("editors: one network guessing across accounts is held back on every account, and an "
          "account guessed from many networks on every browser it is not known on") {
  using namespace std::chrono;
  using HeldBy = auth::SignInThrottle::HeldBy;
  auth::SignInThrottle throttle(
      {.per_account_from_network = 3, .per_network = 4, .per_account = 6, .window = minutes(15)});
  const auto now = auth::SignInThrottle::Clock::now();
  for (const auto *account : {"a@example.com", "b@example.com", "c@example.com", "d@example.com"})
    test::wrong_password(throttle, "203.0.113.0/24", account, "", now);
  const auto across = test::held_back(throttle, "203.0.113.0/24", "e@example.com", "", now);
  CHECK(across.held_by == HeldBy::network);
  CHECK(across.seconds == minutes(15));
  // Six failures on one account from three networks: the ceiling holds back a new browser
  // anywhere, but not one the account is known on, which is counted on its own.
  for (const auto *network : {"192.0.2.0/24", "192.0.3.0/24", "192.0.4.0/24"})
    for (int i = 0; i < 2; ++i)
      test::wrong_password(throttle, network, "ed@example.com", "", now);
  const auto ceiling = test::held_back(throttle, "198.51.100.0/24", "ed@example.com", "", now);
  CHECK(ceiling.held_by == HeldBy::account);
  CHECK(test::held_back(throttle, "198.51.100.0/24", "ed@example.com", "device-1", now).seconds ==
        seconds(0));
  for (int i = 0; i < 3; ++i)
    test::wrong_password(throttle, "198.51.100.0/24", "ed@example.com", "device-1", now);
  CHECK(test::held_back(throttle, "198.51.100.0/24", "ed@example.com", "device-1", now).held_by ==
        HeldBy::device);
  CHECK(test::held_back(throttle, "198.51.100.0/24", "ed@example.com", "device-2", now).seconds ==
        seconds(0));
}

TEST_CASE("editors: a known-device token holds for its account until it expires, and for no "
          "other account, key or altered token") {
  const auto key = auth::random_secret();
  const auto token = auth::known_device_token(key, "Ed@Example.com", 1000);
  CHECK(token.size() == auth::kKnownDeviceTokenLength);
  CHECK(auth::known_device_token_holds(key, token, "ed@example.com", 999));
  CHECK(auth::known_device_token_holds(key, token, "ed@example.com", 1000));
  CHECK_FALSE(auth::known_device_token_holds(key, token, "ed@example.com", 1001));
  CHECK_FALSE(auth::known_device_token_holds(key, token, "other@example.com", 999));
  CHECK_FALSE(auth::known_device_token_holds(auth::random_secret(), token, "ed@example.com", 999));
  auto later = token;
  later[15] = later[15] == 'f' ? 'e' : 'f'; // a later expiry, with the old MAC
  CHECK_FALSE(auth::known_device_token_holds(key, later, "ed@example.com", 999));
  CHECK_FALSE(auth::known_device_token_holds(key, "", "ed@example.com", 999));
}
