#include "core/text.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace boneyard {

std::string shown_text(std::string_view s) {
  // Cut at 64 bytes, but not inside a UTF-8 character (its continuation bytes are 10xxxxxx).
  size_t n = std::min<size_t>(s.size(), 64);
  while (n < s.size() && n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    // A direction override or isolate (U+202A..U+202E, U+2066..U+2069: E2 80 AA..AE, E2 81 A6..A9)
    // would turn the rest of the message around where it is shown: '?' as a control character is.
    if (c == 0xE2 && i + 2 < n) {
      const auto b = static_cast<unsigned char>(s[i + 1]), d = static_cast<unsigned char>(s[i + 2]);
      if ((b == 0x80 && d >= 0xAA && d <= 0xAE) || (b == 0x81 && d >= 0xA6 && d <= 0xA9)) {
        out += '?';
        i += 2;
        continue;
      }
    }
    out += c < 0x20 || c == 0x7f ? '?' : static_cast<char>(c);
  }
  return n < s.size() ? out + "..." : out;
}

int terminal_width() {
  if (const char* c = std::getenv("COLUMNS")) {
    const int w = std::atoi(c);
    if (w >= 20 && w <= 1000) return w;
  }
  winsize ws{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
  return 80;
}

std::string wrap_items(const std::vector<std::string>& items, std::string_view first, std::string_view indent,
                       int width, std::string_view sep) {
  std::string out(first);
  size_t col = first.size();
  // A label first ("Your moves:  ") counts: an item that does not fit after
  // it goes to the next row rather than past the width.
  bool label = first.find_first_not_of(' ') != std::string_view::npos, has_item = false;
  for (const auto& it : items) {
    const size_t need = (has_item ? sep.size() : 0) + it.size();
    if ((has_item || label) && col + need > static_cast<size_t>(width)) {
      while (!out.empty() && out.back() == ' ') out.pop_back();  // no blanks left at a row's end
      out += "\n";
      out += indent;
      col = indent.size();
      has_item = label = false;
    }
    if (has_item) {
      out += sep;
      col += sep.size();
    }
    out += it;
    col += it.size();
    has_item = true;
  }
  return out;
}

namespace {

// Cuts a word wider than `room` into pieces: between tiles, after a comma,
// else at the row's end.
std::vector<std::string> cut_word(std::string_view w, size_t room) {
  std::vector<std::string> out;
  while (w.size() > room) {
    size_t cut = 0;
    for (size_t i = 1; i <= room && i < w.size(); ++i)
      if ((w[i - 1] == ']' && w[i] == '[') || w[i - 1] == ',') cut = i;
    if (cut == 0) cut = room;
    out.emplace_back(w.substr(0, cut));
    w.remove_prefix(cut);
  }
  if (!w.empty()) out.emplace_back(w);
  return out;
}

std::string wrap_line(std::string_view line, size_t width) {
  if (line.size() <= width) return std::string(line);
  const size_t lead = std::min(line.find_first_not_of(' '), width / 2);
  const std::string indent(std::min(lead + 2, width / 2), ' ');
  std::string out(line.substr(0, lead));
  size_t col = lead;
  bool row_empty = true;
  size_t i = lead;
  while (i < line.size()) {
    const size_t ws = i;
    while (i < line.size() && line[i] == ' ') ++i;
    const std::string_view gap = line.substr(ws, i - ws);
    size_t we = std::min(line.find(' ', i), line.size());
    // A note in brackets ("[MARKER: open to all]") stays on one row when it fits one.
    if (line[i] == '[' && line.substr(i, we - i).find(']') == std::string_view::npos) {
      const size_t close = line.find(']', i);
      if (close != std::string_view::npos && close + 1 - i <= width - indent.size()) we = close + 1;
    }
    // A number stays with the word before it over one blank ("seat 4: -1",
    // "Hand 2"): a row never starts with a score cut from its seat.
    // A number is digits with a sign before and a ':' ',' '.' or ')' after,
    // no more: "5-2" is a tile, which may start a row.
    const auto number = [](std::string_view t) {
      if (!t.empty() && (t.front() == '-' || t.front() == '+')) t.remove_prefix(1);
      if (!t.empty() && std::string_view(":,.)").find(t.back()) != std::string_view::npos) t.remove_suffix(1);
      return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    // A unit stays with its number ("0.0 s", "12 ms"): a row never starts
    // with a unit cut from its figure.
    const auto figure = [](std::string_view t) {
      if (!t.empty() && (t.front() == '-' || t.front() == '+' || t.front() == '(')) t.remove_prefix(1);
      return !t.empty() && std::isdigit(static_cast<unsigned char>(t.front())) &&
             std::all_of(t.begin(), t.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.' || c == ','; });
    };
    const auto unit = [](std::string_view t) {
      while (!t.empty() && std::string_view(":,.;)").find(t.back()) != std::string_view::npos) t.remove_suffix(1);
      for (std::string_view u : {"s", "ms", "µs", "min", "h", "%", "MiB", "GiB", "KiB"})
        if (t == u) return true;
      return false;
    };
    while (we + 1 < line.size() && line[we] == ' ' && line[we + 1] != ' ') {
      const size_t next = std::min(line.find(' ', we + 1), line.size());
      const std::string_view after = line.substr(we + 1, next - we - 1);
      std::string_view before = line.substr(i, we - i);  // the span's last token
      if (const size_t sp = before.rfind(' '); sp != std::string_view::npos) before.remove_prefix(sp + 1);
      if (!(number(after) || (figure(before) && unit(after))) || next - i > width - indent.size()) break;
      we = next;
    }
    const std::string_view word = line.substr(i, we - i);
    i = we;
    if (word.empty()) break;   // trailing blanks
    std::string_view g = gap;  // the blanks before the word, not between its pieces
    for (const std::string& piece : cut_word(word, width - indent.size())) {
      if (!row_empty && col + g.size() + piece.size() > width) {
        out += "\n" + indent;
        col = indent.size();
        row_empty = true;
      }
      if (!row_empty) {
        out += g;
        col += g.size();
      }
      out += piece;
      col += piece.size();
      row_empty = false;
      g = {};
    }
  }
  return out;
}

}  // namespace

std::string wrap_text(std::string_view text, int width) {
  const size_t w = static_cast<size_t>(std::max(width, 20));
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    const bool nl = end != std::string_view::npos;
    if (!nl) end = text.size();
    out += wrap_line(text.substr(start, end - start), w);
    if (nl) out += "\n";
    start = end + 1;
  }
  return out;
}

}  // namespace boneyard
