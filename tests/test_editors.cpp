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
  store.add_editor("Ada@Example.com", hash);
  CHECK_THROWS_AS(store.add_editor("ada@example.COM", hash), AlreadyExists);
  REQUIRE(store.editors().size() == 1);
  CHECK(store.editors()[0].email == "ada@example.com");
  const auto ada = store.editor_by_email("ADA@example.com");
  REQUIRE(ada);
  CHECK(ada->password_hash == hash);

  store.start_session("kept-hash", ada->id, "csrf-1", 2000);
  const auto session = store.session("kept-hash", 1000);
  REQUIRE(session);
  CHECK(session->email == "ada@example.com");
  CHECK(session->csrf_token == "csrf-1");
  CHECK_FALSE(store.session("kept-hash", 2000)); // expired at its time
  CHECK_FALSE(store.session("other-hash", 1000));

  CHECK(store.remove_editor("ada@example.com"));
  CHECK_FALSE(store.remove_editor("ada@example.com"));
  CHECK_FALSE(store.session("kept-hash", 1000));
  CHECK(store.editors().empty());
}

TEST_CASE("editors: a new password ends every session of that editor, and a signed-out "
          "session is gone") {
  Store store(":memory:");
  store.add_editor("ed@example.com", auth::hash_password("first password"));
  const auto ed = store.editor_by_email("ed@example.com");
  REQUIRE(ed);
  store.start_session("laptop", ed->id, "c1", 4000000000);
  store.start_session("phone", ed->id, "c2", 4000000000);
  store.end_session("phone");
  CHECK(store.session("laptop", 1000));
  CHECK_FALSE(store.session("phone", 1000));

  const auto second = auth::hash_password("second password");
  CHECK(store.set_editor_password("ed@example.com", second));
  CHECK_FALSE(store.session("laptop", 1000));
  CHECK(auth::password_matches(store.editor_by_email("ed@example.com")->password_hash,
                               "second password"));
  CHECK_FALSE(store.set_editor_password("nobody@example.com", second));
}

TEST_CASE("editors: a throttled account waits until its oldest counted failure leaves the "
          "window, and a success forgets its failures") {
  using namespace std::chrono;
  auth::SignInThrottle throttle({2, 100, minutes(10)});
  const auto start = auth::SignInThrottle::Clock::now();
  CHECK(throttle.wait("10.0.0.1", "Ed@example.com", start) == seconds(0));
  throttle.failed("10.0.0.1", "ed@example.com", start);
  throttle.failed("10.0.0.2", "ED@example.com", start + minutes(3)); // any case, any address
  CHECK(throttle.wait("10.0.0.3", "ed@example.com", start + minutes(4)) == minutes(6));
  CHECK(throttle.wait("10.0.0.3", "ed@example.com", start + minutes(10)) == seconds(0));
  CHECK(throttle.wait("10.0.0.3", "other@example.com", start + minutes(4)) == seconds(0));
  throttle.failed("10.0.0.1", "ed@example.com", start + minutes(11));
  CHECK(throttle.wait("10.0.0.1", "ed@example.com", start + minutes(11)) == minutes(2));
  throttle.succeeded("ed@example.com");
  CHECK(throttle.wait("10.0.0.1", "ed@example.com", start + minutes(11)) == seconds(0));
}
