#pragma once
// Display names (docs/server.md, "Names"): what a name may be, and the form
// two names are compared in, so that no name can pass for another.
#include <string>
#include <string_view>

namespace boneyard::server {

// The longest display name, in characters (Unicode code points).
constexpr size_t kMaxNameChars = 32;

// A display name as typed, made canonical and checked: Unicode NFC (a
// precomposed and a decomposed "José" are one name), every kind of space an
// ordinary space, runs of them one, none at either end. Throws ApiError(400)
// naming the rule broken: not valid UTF-8, empty, longer than
// kMaxNameChars, a control character, a bidirectional control, an invisible
// (default-ignorable) character, one Unicode does not assign or leaves to
// private use, more than three combining marks on one letter, or nothing
// visible (only spaces, marks or blank patterns).
std::string check_name(std::string_view name);

// The form two names are the same in: Unicode's confusable skeleton (UTS #39)
// of the name's NFKC case fold, case-folded again. "Ann", "ann", Cyrillic
// "Аnn" and fullwidth "Ａnn" have one key.
std::string name_key(std::string_view name);

}  // namespace boneyard::server
