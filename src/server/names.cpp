// Display names: checked and made canonical with ICU (normalisation,
// character properties) and compared by UTS #39's confusable skeleton
// (ICU's uspoof), so "Аnn" (Cyrillic А) cannot pass for "Ann".
#include "server/names.h"

#include <fmt/format.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>

#include <cstdint>
#include <vector>

#include "server/players.h"

namespace boneyard::server {

namespace {

std::u16string to_utf16(std::string_view s) {
  UErrorCode st = U_ZERO_ERROR;
  int32_t n = 0;
  u_strFromUTF8(nullptr, 0, &n, s.data(), static_cast<int32_t>(s.size()), &st);
  std::u16string out(static_cast<size_t>(n), u'\0');
  st = U_ZERO_ERROR;
  u_strFromUTF8(out.data(), n, nullptr, s.data(), static_cast<int32_t>(s.size()), &st);
  if (U_FAILURE(st)) throw ApiError(400, "the name is not valid UTF-8 text");
  return out;
}

std::string to_utf8(const std::u16string& s) {
  UErrorCode st = U_ZERO_ERROR;
  int32_t n = 0;
  u_strToUTF8(nullptr, 0, &n, s.data(), static_cast<int32_t>(s.size()), &st);
  std::string out(static_cast<size_t>(n), '\0');
  st = U_ZERO_ERROR;
  u_strToUTF8(out.data(), n, nullptr, s.data(), static_cast<int32_t>(s.size()), &st);
  return out;
}

std::u16string normalize(const UNormalizer2* norm, const std::u16string& s) {
  UErrorCode st = U_ZERO_ERROR;
  const int32_t n = unorm2_normalize(norm, s.data(), static_cast<int32_t>(s.size()), nullptr, 0, &st);
  std::u16string out(static_cast<size_t>(n), u'\0');
  st = U_ZERO_ERROR;
  unorm2_normalize(norm, s.data(), static_cast<int32_t>(s.size()), out.data(), n, &st);
  if (U_FAILURE(st)) throw ApiError(500, fmt::format("Unicode normalisation failed: {}", u_errorName(st)));
  return out;
}

const UNormalizer2* nfc() {
  UErrorCode st = U_ZERO_ERROR;
  static const UNormalizer2* n = unorm2_getNFCInstance(&st);
  if (!n) throw ApiError(500, "Unicode normalisation (ICU) is not available");
  return n;
}
const UNormalizer2* nfkc_casefold() {
  UErrorCode st = U_ZERO_ERROR;
  static const UNormalizer2* n = unorm2_getNFKCCasefoldInstance(&st);
  if (!n) throw ApiError(500, "Unicode normalisation (ICU) is not available");
  return n;
}
// One checker for the process: getting a skeleton does not change it.
const USpoofChecker* spoof() {
  static USpoofChecker* sc = [] {
    UErrorCode st = U_ZERO_ERROR;
    USpoofChecker* c = uspoof_open(&st);
    return U_FAILURE(st) ? nullptr : c;
  }();
  if (!sc) throw ApiError(500, "the confusable-name check (ICU) is not available");
  return sc;
}

std::vector<char32_t> code_points(const std::u16string& s) {
  std::vector<char32_t> out;
  for (int32_t i = 0; i < static_cast<int32_t>(s.size());) {
    UChar32 c;
    U16_NEXT(s.data(), i, static_cast<int32_t>(s.size()), c);
    out.push_back(static_cast<char32_t>(c));
  }
  return out;
}

std::u16string from_code_points(const std::vector<char32_t>& cps) {
  std::u16string out;
  for (const char32_t c : cps) {
    if (c < 0x10000) {
      out += static_cast<char16_t>(c);
    } else {
      out += static_cast<char16_t>(U16_LEAD(c));
      out += static_cast<char16_t>(U16_TRAIL(c));
    }
  }
  return out;
}

std::string hex(char32_t c) { return fmt::format("U+{:04X}", static_cast<uint32_t>(c)); }

}  // namespace

std::string check_name(std::string_view name) {
  std::vector<char32_t> raw;
  if (!decode_utf8(name, raw)) throw ApiError(400, "the name is not valid UTF-8 text");
  if (raw.size() > 8 * kMaxNameChars)
    throw ApiError(400,
                   fmt::format("the name is {} characters long; at most {} are allowed", raw.size(), kMaxNameChars));
  const std::vector<char32_t> cps = code_points(normalize(nfc(), to_utf16(name)));
  std::vector<char32_t> out;
  int marks = 0;  // combining marks on the letter before
  bool visible = false;
  for (const char32_t c : cps) {
    const auto uc = static_cast<UChar32>(c);
    if (c < 0x20 || (c >= 0x7F && c <= 0x9F))
      throw ApiError(400, fmt::format("the name contains a control character ({}); use letters, digits, spaces and "
                                      "punctuation",
                                      hex(c)));
    if (is_bidi_control(c))
      throw ApiError(400, fmt::format("the name contains a bidirectional control character ({}), which could "
                                      "disguise it or reorder the text around it",
                                      hex(c)));
    const int8_t gc = u_charType(uc);
    if (u_hasBinaryProperty(uc, UCHAR_DEFAULT_IGNORABLE_CODE_POINT) || gc == U_LINE_SEPARATOR ||
        gc == U_PARAGRAPH_SEPARATOR || gc == U_FORMAT_CHAR)
      throw ApiError(400, fmt::format("the name contains an invisible character ({}), which would make it look like "
                                      "another name",
                                      hex(c)));
    if (gc == U_UNASSIGNED || gc == U_PRIVATE_USE_CHAR || gc == U_SURROGATE)
      throw ApiError(400, fmt::format("the name contains a character that Unicode does not assign, or leaves to "
                                      "private use ({}), which shows differently on every device",
                                      hex(c)));
    if (u_isUWhiteSpace(uc)) {
      // Every kind of space is an ordinary one; runs of them are one.
      if (!out.empty() && out.back() != ' ') out.push_back(' ');
      marks = 0;
      continue;
    }
    if (U_GET_GC_MASK(uc) & U_GC_M_MASK) {
      if (++marks > 3)
        throw ApiError(400,
                       "the name has more than three accents or marks on one letter, which would spill over "
                       "the text around it");
    } else {
      marks = 0;
      // A letter, digit, punctuation or symbol that shows (the Braille
      // blank, U+2800, is a symbol that shows nothing).
      if ((U_GET_GC_MASK(uc) & (U_GC_L_MASK | U_GC_N_MASK | U_GC_P_MASK | U_GC_S_MASK)) && c != 0x2800) visible = true;
    }
    out.push_back(c);
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  if (out.empty()) throw ApiError(400, fmt::format("the name is empty: type 1 to {} characters", kMaxNameChars));
  if (!visible)
    throw ApiError(400,
                   "the name has nothing visible in it (only spaces, marks or blank characters): type a letter, "
                   "digit or symbol");
  if (out.size() > kMaxNameChars)
    throw ApiError(400,
                   fmt::format("the name is {} characters long; at most {} are allowed", out.size(), kMaxNameChars));
  return to_utf8(from_code_points(out));
}

std::string name_key(std::string_view name) {
  std::vector<char32_t> check;
  if (!decode_utf8(name, check)) return std::string(name);  // never a stored name
  const std::u16string folded = normalize(nfkc_casefold(), to_utf16(name));
  UErrorCode st = U_ZERO_ERROR;
  const int32_t n = uspoof_getSkeleton(spoof(), 0, folded.data(), static_cast<int32_t>(folded.size()), nullptr, 0, &st);
  std::u16string skeleton(static_cast<size_t>(n), u'\0');
  st = U_ZERO_ERROR;
  uspoof_getSkeleton(spoof(), 0, folded.data(), static_cast<int32_t>(folded.size()), skeleton.data(), n, &st);
  if (U_FAILURE(st)) throw ApiError(500, fmt::format("the confusable-name check failed: {}", u_errorName(st)));
  // The skeleton may bring capitals back ("0" is "O"): folded again.
  return to_utf8(normalize(nfkc_casefold(), skeleton));
}

}  // namespace boneyard::server
