// How a kind of write (domain/writes.h) names its fields on the cluster's stream: each
// field's key there and the member it is, listed once in the kind's `fields()`, from which
// domain/write_encoding.cpp writes and reads every kind alike.
#pragma once

#include <string_view>
#include <tuple>

namespace verdict::wire {

// How a field is carried. As its type says: a text, a whole number, a flag, a number or null,
// an item as the content file writes it, a ballot… Or, where the type alone does not say:
// only_when_set, a flag written only when true (added to a kind after its first version,
// absent meaning false); not_negative, a whole number refused below 0.
enum class Carried { as_its_type, only_when_set, not_negative };

template <class Kind, class Type, Carried How = Carried::as_its_type> struct Field {
  std::string_view key;
  Type Kind::*member;
  static constexpr Carried how = How;
};

template <Carried How = Carried::as_its_type, class Kind, class Type>
constexpr Field<Kind, Type, How> field(std::string_view key, Type Kind::*member) {
  return {key, member};
}

} // namespace verdict::wire
