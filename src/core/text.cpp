#include "core/text.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>

namespace boneyard {

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
  bool empty_line = true;
  for (const auto& it : items) {
    const size_t need = (empty_line ? 0 : sep.size()) + it.size();
    if (!empty_line && col + need > static_cast<size_t>(width)) {
      out += "\n";
      out += indent;
      col = indent.size();
      empty_line = true;
    }
    if (!empty_line) {
      out += sep;
      col += sep.size();
    }
    out += it;
    col += it.size();
    empty_line = false;
  }
  return out;
}

}  // namespace boneyard
