// boneyard verify RECORD: checks a served game's fairness proof
// (docs/server.md, "Fairness").
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/common.h"
#include "record/session.h"
#include "server/fairness.h"

namespace boneyard::cli {

void add_verify(CLI::App& app) {
  auto* cmd = app.add_subcommand("verify", "Check that a game record from `boneyard serve` was dealt fairly");
  auto file = std::make_shared<std::string>();
  cmd->add_option("file", *file, "Record file (JSON) from GET /api/tables/ID/record")->required();
  cmd->callback([=] {
    std::ifstream f(*file);
    if (!f) throw Error(fmt::format("cannot read record '{}'", *file));
    std::stringstream buf;
    buf << f.rdbuf();
    const nlohmann::json rec = parse_record_text(buf.str());
    try {
      server::verify_record(rec);
    } catch (const Error& e) {
      throw Error(fmt::format("NOT verified: {}", e.what()));
    }
    if (rec["fairness"].value("provably_fair", true) == false)
      throw Error(
          "NOT provably fair: the record is consistent, but its table was made with a fixed seed (for tests or study), "
          "so its secret comes from that seed and anyone who knew the seed knew the deal");
    std::cout << fmt::format(
        "Verified: the revealed secret matches the commitment {}, the seed {} is derived from it and the seats' "
        "entropies, and every deal and draw in the record is the one that seed produces.\n",
        rec["fairness"]["commitment"].get<std::string>(), rec["seed"].get<uint64_t>());
  });
}

}  // namespace boneyard::cli
