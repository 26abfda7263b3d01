// The bounded cache the page, answer and picture caches keep their entries in
// (base/bounded_cache.h): what it keeps, how it weighs it, and that it starts over rather than
// pass its bound.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <string>

#include "base/bounded_cache.h"

using verdict::BoundedCache;

TEST_CASE("a bounded cache gives back what it kept under a key, and nothing under another") {
  BoundedCache<std::string> cache(100);
  cache.put("/a", "page a", 6);
  REQUIRE(cache.find("/a") != nullptr);
  CHECK(*cache.find("/a") == "page a");
  CHECK(cache.find("/b") == nullptr);
  CHECK(cache.find("/a?") == nullptr);
}

TEST_CASE("a bounded cache weighs its keys and values, and a replaced entry once") {
  BoundedCache<int> cache(100);
  cache.put("key", 1, 10);
  CHECK(cache.bytes() == 13);
  cache.put("other", 2, 20);
  CHECK(cache.bytes() == 38);
  cache.put("key", 3, 30); // in place of the first: its 13 bytes are no longer counted
  CHECK(cache.bytes() == 58);
  CHECK(*cache.find("key") == 3);
  CHECK(*cache.find("other") == 2);
}

TEST_CASE("a bounded cache fills up to its bound exactly and starts over past it") {
  BoundedCache<int> cache(100);
  cache.put("a", 1, 49);
  cache.put("b", 2, 48);
  cache.put("c", 3, 0);
  CHECK(cache.bytes() == 100); // at the bound: everything is still kept
  CHECK(cache.find("a") != nullptr);
  CHECK(cache.find("b") != nullptr);
  CHECK(cache.find("c") != nullptr);

  cache.put("d", 4, 0); // one byte past the bound: start over, with the new entry alone
  CHECK(cache.bytes() == 1);
  CHECK(cache.find("a") == nullptr);
  CHECK(cache.find("b") == nullptr);
  CHECK(cache.find("c") == nullptr);
  REQUIRE(cache.find("d") != nullptr);
  CHECK(*cache.find("d") == 4);
}

TEST_CASE("a bounded cache never holds more than its bound, whatever it is given") {
  constexpr size_t bound = 1000;
  BoundedCache<std::string> cache(bound);
  std::map<std::string, std::string> expected; // what the cache should hold after each put
  std::mt19937 random(42);
  std::uniform_int_distribution<size_t> key_of(0, 40), size_of(0, 200);
  size_t starts_over = 0;
  for (int i = 0; i < 5000; ++i) {
    const auto key = "/page/" + std::to_string(key_of(random));
    const std::string value(size_of(random), 'x');
    expected.erase(key);
    size_t held = 0;
    for (const auto &[k, v] : expected)
      held += k.size() + v.size();
    if (held + key.size() + value.size() > bound) {
      expected.clear();
      ++starts_over;
    }
    expected[key] = value;

    cache.put(key, value, value.size());
    REQUIRE(cache.bytes() <= bound);
    size_t expected_bytes = 0;
    for (const auto &[k, v] : expected) {
      expected_bytes += k.size() + v.size();
      REQUIRE(cache.find(k) != nullptr);
      REQUIRE(*cache.find(k) == v);
    }
    REQUIRE(cache.bytes() == expected_bytes);
    for (int other = 0; other <= 40; ++other) { // nothing dropped is still found
      const auto other_key = "/page/" + std::to_string(other);
      REQUIRE((cache.find(other_key) != nullptr) == expected.count(other_key));
    }
  }
  CHECK(starts_over > 10); // the bound was reached again and again
}
