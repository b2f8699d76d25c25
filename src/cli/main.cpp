// boneyard: one executable, one file per subcommand.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <regex>
#include <string>
#include <vector>

#include "cli/cluster.h"
#include "cli/common.h"
#include "core/error.h"

namespace {

// A number as CLI11 prints it ("3.6e+06", "1.000000") as a person writes it.
std::string plain_number(const std::string& x) { return fmt::format("{}", std::stod(x)); }

// CLI11's words for a bad number, in a person's: "Value abc not in range
// 0.000000 to 60.000000" says 'abc' is not a number and the range as 0 to 60;
// "1 required INT:INT in [1 - 256] missing" says a value is needed; "--a
// excludes --b" that the two do not go together; "name is required" that
// a game is wanted; "The following argument was not expected" which word.
std::string plain_words(const std::string& what) {
  static const std::regex range(R"(Value (.*) not in range (\S+) to (\S+)$)");
  static const std::regex missing(R"(1 required (INT|FLOAT):\S+ in \[(\S+) - (\S+)\] missing$)");
  std::smatch m;
  if (std::regex_search(what, m, range)) {
    const std::string v = m[1], lo = plain_number(m[2]), hi = plain_number(m[3]);
    const bool whole = lo.find_first_of(".e") == std::string::npos && hi.find_first_of(".e") == std::string::npos &&
                       m[2].str().find('.') == std::string::npos;
    const std::string kind = whole ? "a whole number" : "a number";
    size_t used = 0;
    double x = 0;
    try {
      x = std::stod(v, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    // floor, not a cast to an integer: 1e20 or inf is whole, only too big.
    const bool inside = x >= std::stod(m[2]) && x <= std::stod(m[3]);  // refused all the same: "1e3"
    std::string why = used != v.size() || v.empty() || std::isnan(x)    ? fmt::format("'{}' is not a number", v)
                      : whole && std::isfinite(x) && std::floor(x) != x ? fmt::format("{} is not a whole number", v)
                      : whole && inside ? fmt::format("write {} in digits only ({})", v, plain_number(v))
                                        : fmt::format("{} is out of range", v);
    return fmt::format("{}{}: it takes {} from {} to {}", what.substr(0, m.position(0)), why, kind, lo, hi);
  }
  static const std::regex excludes(R"(^(-\S+) excludes (-\S+)$)");
  if (std::regex_search(what, m, excludes))
    return fmt::format("{} and {} do not go together: give one of them", m[1].str(), m[2].str());
  if (what == "name is required") return "which game? Put its name after the command (`boneyard rules` lists them)";
  if (what == "file is required") return "which record? Put its file after the command";
  static const std::regex unexpected(R"(^The following arguments? (?:was|were) not expected: (.+)$)");
  if (std::regex_search(what, m, unexpected)) {
    const std::string words = m[1].str();
    const bool one = words.find(' ') == std::string::npos;
    return fmt::format("'{}' {} not understood here: {}", words, one ? "is" : "are",
                       words[0] != '-' ? "more words than the command takes"
                       : one           ? "no such option"
                                       : "no such options");
  }
  if (std::regex_search(what, m, missing))
    return fmt::format("{}a value is missing: {} from {} to {}", what.substr(0, m.position(0)),
                       m[1] == "INT" ? "a whole number" : "a number", plain_number(m[2]), plain_number(m[3]));
  return what;
}

// Help lines in a person's words: "--games N (1 to 100000000)", not CLI11's
// "--games INT:INT in [1 - 100000000]"; a choice of words as "full|normal".
class PlainHelp : public CLI::Formatter {
 public:
  PlainHelp() { column_width(34); }
  std::string make_option_opts(const CLI::Option* opt) const override {
    static const std::regex range(R"(\b(?:INT|UINT|FLOAT):(?:INT|UINT|FLOAT) in \[(\S+) - (\S+)\])");
    static const std::regex number(R"(\b(?:INT|UINT|FLOAT)\b)");
    static const std::regex choice(R"(TEXT:\{([^}]*)\})");
    static const std::regex address("TEXT:IP");
    std::string out = CLI::Formatter::make_option_opts(opt), done;
    std::smatch m;
    while (std::regex_search(out, m, range)) {
      done += m.prefix().str() + fmt::format("N ({} to {})", plain_number(m[1]), plain_number(m[2]));
      out = m.suffix().str();
    }
    out = std::regex_replace(done + out, number, "N");
    if (std::regex_search(out, m, choice)) {
      std::string words = m[1];
      std::replace(words.begin(), words.end(), ',', '|');
      out = m.prefix().str() + words + m.suffix().str();
    }
    return std::regex_replace(out, address, "ADDRESS");
  }
};

// A usage error (no subcommand, an unknown one, a bad option or value):
// "boneyard:", what was wrong and where its help is, exit status 2 as other
// command-line tools (not CLI11's 105 to 109).
int usage_error(CLI::App& app, const CLI::ParseError& e, const std::string& first) {
  std::vector<std::string> all;
  for (const auto* s : app.get_subcommands([](CLI::App*) { return true; })) all.push_back(s->get_name());
  std::string where = "boneyard";
  const CLI::App* cmd = &app;
  for (const auto* s : app.get_subcommands()) where += " " + s->get_name(), cmd = s;
  std::string what = plain_words(e.what());
  // CLI11's "Could not convert: --port = -5" said as the option takes it.
  static const std::regex convert(R"(^Could not convert: (\S+) = (.*)$)");
  std::smatch m;
  const std::string said = e.what();
  if (std::regex_search(said, m, convert)) {
    const std::string name = m[1], value = m[2];
    const CLI::Option* o = cmd->get_option_no_throw(name);
    const std::string type = o ? o->get_type_name() : "";
    if (o && o->get_expected_max() == 0)  // a flag: it may be given yes or no
      what = fmt::format("{}: '{}' is not yes or no (write {} alone for yes)", name, value, name);
    else if (type.rfind("UINT", 0) == 0)
      what = fmt::format("{}: '{}' is not a whole number of 0 or more", name, value);
    else if (type.rfind("INT", 0) == 0)
      what = fmt::format("{}: '{}' is not a whole number", name, value);
    else
      what = fmt::format("{}: '{}' is not a number", name, value);
  }
  if (where == "boneyard") {
    if (first.empty())
      what = fmt::format("say what to do, one of: {}", fmt::join(all, ", "));
    else if (first[0] != '-' && std::find(all.begin(), all.end(), first) == all.end())
      what = fmt::format("'{}' is not a subcommand; they are: {}", first, fmt::join(all, ", "));
  }
  std::cerr << fmt::format("boneyard: {}\nRun `{} --help` to see what it takes.\n", what, where);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  namespace cluster = boneyard::cli::cluster;
  cluster::init(&argc, &argv);  // only under mpirun
  boneyard::register_all_games();
  CLI::App app{
      "Boneyard: an engine and toolkit for domino games.\n"
      "Games: the line games (latin and the Caribbean presets), mexican-train, texas-42, dice-and-dominoes.\n"
      "Start with `boneyard rules` to list them, then `boneyard play latin`.",
      "boneyard"};                               // the name the usage lines begin with
  app.formatter(std::make_shared<PlainHelp>());  // before the subcommands: they take it over
  app.require_subcommand(1);
  app.set_version_flag("--version", "boneyard " BONEYARD_VERSION);
  boneyard::cli::add_rules(app);
  boneyard::cli::add_play(app);
  boneyard::cli::add_arena(app);
  boneyard::cli::add_engine(app);
  boneyard::cli::add_replay(app);
  boneyard::cli::add_bench(app);
  boneyard::cli::add_analyze(app);
  boneyard::cli::add_serve(app);
  boneyard::cli::add_verify(app);
  boneyard::cli::add_serve_bench(app);
  boneyard::cli::add_lobby_bench(app);
  boneyard::cli::add_selfplay(app);
  // `boneyard help` and `boneyard help play`, as git and cargo take them:
  // the same as --help there.
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "help") {
    args.erase(args.begin());
    args.push_back("--help");
  }
  const std::string first = args.empty() ? "" : args[0];
  std::reverse(args.begin(), args.end());  // CLI11 takes them last first
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    if (cluster::rank() != 0) {  // the same words from every rank once is enough
      cluster::finalize();
      return e.get_exit_code() == 0 ? 0 : 2;
    }
    const int rc = e.get_exit_code() == 0 ? app.exit(e) : usage_error(app, e, first);  // 0: --help
    cluster::finalize();
    return rc;
  } catch (const boneyard::Error& e) {
    if (cluster::size() > 1) {  // one rank failing ends them all
      std::cerr << fmt::format("boneyard (rank {} of {}): {}\n", cluster::rank(), cluster::size(), e.what());
      cluster::abort(2);
    }
    std::cerr << "boneyard: " << e.what() << "\n";
    cluster::finalize();
    return 2;
  }
  cluster::finalize();
  return 0;
}
