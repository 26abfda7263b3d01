#include "domain/write_encoding.h"

#include <array>
#include <limits>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace verdict {

using nlohmann::json;

namespace {

// Every kind has a name, and no two kinds share one: an entry is read as the kind it names.
template <size_t... I> constexpr bool names_differ(std::index_sequence<I...>) {
  constexpr std::array<std::string_view, sizeof...(I)> names = {
      std::variant_alternative_t<I, Write>::kind...};
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) return false;
    for (size_t j = i + 1; j < names.size(); ++j)
      if (names[i] == names[j]) return false;
  }
  return true;
}
static_assert(names_differ(std::make_index_sequence<std::variant_size_v<Write>>()),
              "a kind of write has no name, or two kinds have one");

// One field's value as the stream carries it, by its type.
json carried(const std::string &text) {
  return text;
}
json carried(int64_t number) {
  return number;
}
json carried(int number) {
  return number;
}
json carried(bool flag) {
  return flag;
}
json carried(const std::optional<int64_t> &number) {
  return number ? json(*number) : json(nullptr);
}
json carried(const std::optional<Verdict> &verdict) {
  return verdict ? json(verdict_word(*verdict)) : json(nullptr);
}
json carried(SendFailure failure) {
  return static_cast<int>(failure);
}
// A ballot: what the taking node saw, never how long the page was open (judged from the token
// where the vote is applied: read back as 0 until it is).
json carried(const Ballot &ballot) {
  return {{"voter", ballot.voter},
          {"network", ballot.network},
          {"wider", ballot.wider},
          {"day", ballot.day},
          {"token", ballot.token}};
}
// An item as the content file writes it (domain/content.h).
template <class Item>
requires requires(const Item &item) {
  item_json(item);
}
json carried(const Item &item) {
  return json::parse(item_json(item));
}
// The content as its file writes it, as one text (read as `verdict import` reads a file).
json carried(const Content &content) {
  return content_to_json(content);
}

// One field's value read back, by its type; std::invalid_argument (or json's own exception for
// a missing key) when it is not one.
void read(const json &value, std::string_view key, std::string &text) {
  if (!value.is_string()) throw std::invalid_argument(std::string(key) + " is not a text");
  text = value.get<std::string>();
}
void read(const json &value, std::string_view key, int64_t &number) {
  if (!value.is_number_integer())
    throw std::invalid_argument(std::string(key) + " is not a whole number");
  number = value.get<int64_t>();
}
void read(const json &value, std::string_view key, int &number) {
  int64_t whole = 0;
  read(value, key, whole);
  if (whole < std::numeric_limits<int>::min() || whole > std::numeric_limits<int>::max())
    throw std::invalid_argument(std::string(key) + " is out of range");
  number = static_cast<int>(whole);
}
void read(const json &value, std::string_view key, bool &flag) {
  if (!value.is_boolean()) throw std::invalid_argument(std::string(key) + " is not true or false");
  flag = value.get<bool>();
}
void read(const json &value, std::string_view key, std::optional<int64_t> &number) {
  number.reset();
  if (value.is_null()) return;
  read(value, key, number.emplace());
}
void read(const json &value, std::string_view key, std::optional<Verdict> &verdict) {
  verdict.reset();
  if (value.is_null()) return;
  std::string word;
  read(value, key, word);
  verdict = verdict_from_word(word);
  if (!verdict) throw std::invalid_argument("its " + std::string(key) + " is not ship or skip");
}
void read(const json &value, std::string_view key, SendFailure &failure) {
  int64_t number = 0;
  read(value, key, number);
  if (number < 0 || number > static_cast<int64_t>(SendFailure::refused_for_good))
    throw std::invalid_argument("its " + std::string(key) + " is not one this version knows");
  failure = static_cast<SendFailure>(number);
}
void read(const json &value, std::string_view, Ballot &ballot) {
  // "wider" from a node of this version on; an older node's vote meets no wider quota.
  ballot = Ballot{};
  read(value.at("voter"), "voter", ballot.voter);
  read(value.at("network"), "network", ballot.network);
  read(value.at("day"), "day", ballot.day);
  read(value.at("token"), "token", ballot.token);
  if (value.contains("wider")) read(value.at("wider"), "wider", ballot.wider);
}
template <class Item>
requires requires(const std::string &text, Item &item) {
  read_item_json(text, item);
}
void read(const json &value, std::string_view key, Item &item) {
  if (!read_item_json(value.dump(), item))
    throw std::invalid_argument("its " + std::string(key) + " is not one");
}
// Content this version's rules refuse came from a newer version's: read as one it cannot.
void read(const json &value, std::string_view key, Content &content) {
  std::string text;
  read(value, key, text);
  auto parsed = parse_content(text);
  if (!parsed.errors.empty())
    throw std::invalid_argument("its content is not valid here: " + parsed.errors[0]);
  content = std::move(parsed.content);
}

// A kind's fields written, each as it says it is carried.
template <class Field, class Type>
void put(json &arguments, const Field &field, const Type &value) {
  if constexpr (Field::how == wire::Carried::only_when_set) {
    if (value) arguments[std::string(field.key)] = true;
  } else {
    arguments[std::string(field.key)] = carried(value);
  }
}
template <class Field, class Type>
void take(const json &arguments, const Field &field, Type &value) {
  const std::string key(field.key);
  if constexpr (Field::how == wire::Carried::only_when_set) {
    value = false;
    if (arguments.contains(key)) read(arguments.at(key), key, value);
  } else {
    read(arguments.at(key), key, value);
    if constexpr (Field::how == wire::Carried::not_negative)
      if (value < 0) throw std::invalid_argument("its " + key + " is less than 0");
  }
}

template <class Kind> json encoded(const Kind &write) {
  json arguments = json::object();
  std::apply([&](const auto &...field) { (put(arguments, field, write.*field.member), ...); },
             Kind::fields());
  arguments["v"] = Kind::version;
  return arguments;
}
template <class Kind> Kind decoded(const json &arguments) {
  Kind write{};
  std::apply([&](const auto &...field) { (take(arguments, field, write.*field.member), ...); },
             Kind::fields());
  return write;
}

template <size_t... I> bool names_a_kind(std::string_view kind, std::index_sequence<I...>) {
  return ((std::variant_alternative_t<I, Write>::kind == kind) || ...);
}

// The kind named `kind` read from `arguments`: none when no kind has that name.
template <size_t... I>
std::optional<Write> decoded_named(std::string_view kind, const json &arguments,
                                   std::index_sequence<I...>) {
  std::optional<Write> write;
  const auto read_if_named = [&]<size_t Index>(std::integral_constant<size_t, Index>) {
    using Kind = std::variant_alternative_t<Index, Write>;
    if (write || Kind::kind != kind) return;
    if (const auto version = arguments.value("v", 1); version > Kind::version)
      throw std::invalid_argument("its arguments are of version " + std::to_string(version) +
                                  ", newer than " + std::to_string(Kind::version));
    write.emplace(std::in_place_index<Index>, decoded<Kind>(arguments));
  };
  (read_if_named(std::integral_constant<size_t, I>()), ...);
  return write;
}

} // namespace

std::string_view kind_name(const Write &write) {
  return std::visit([](const auto &kind) { return std::decay_t<decltype(kind)>::kind; }, write);
}

json arguments_of(const Write &write) {
  return std::visit([](const auto &kind) { return encoded(kind); }, write);
}

std::optional<Write> write_from(std::string_view kind, const json &arguments) {
  if (!names_a_kind(kind, std::make_index_sequence<std::variant_size_v<Write>>()))
    return std::nullopt;
  if (!arguments.is_object()) throw std::invalid_argument("its arguments are not an object");
  try {
    return decoded_named(kind, arguments, std::make_index_sequence<std::variant_size_v<Write>>());
  } catch (const json::exception &e) {
    throw std::invalid_argument(std::string("its arguments are not a ") + std::string(kind) +
                                "'s: " + e.what());
  }
}

} // namespace verdict
