// The compiled half of the Python package `boneyard` (docs/python.md): the
// module, its errors and the registry; the rest is bound by concern
// (bindings.h).
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <random>

#include "bindings.h"

namespace boneyard::py_bindings {

namespace {

// v as a Python int: ints and numpy integers (the index protocol), not bools.
py::int_ as_int(const py::handle& v, const char* what) {
  if (py::isinstance<py::bool_>(v) || !(py::isinstance<py::int_>(v) || PyIndex_Check(v.ptr())))
    throw Error(fmt::format("{} must be an int, got {}", what, std::string(py::repr(v))));
  return py::int_(py::reinterpret_borrow<py::object>(v));
}

}  // namespace

long long int_arg(const py::handle& v, const char* what) { return int_arg_in(v, what, INT64_MIN, INT64_MAX); }

long long int_arg_in(const py::handle& v, const char* what, long long lo, long long hi) {
  const py::int_ i = as_int(v, what);
  int overflow = 0;
  const long long x = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow != 0 || x < lo || x > hi)
    throw Error(fmt::format("{} must be {}..{}, got {}", what, lo, hi, std::string(py::repr(v))));
  return x;
}

double number_arg(const py::handle& v, const char* what) {
  if (py::isinstance<py::bool_>(v) || !(py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v)))
    throw Error(fmt::format("{} must be a number, got {}", what, std::string(py::repr(v))));
  return v.cast<double>();
}

double think_ms_arg(const py::handle& v) {
  // As the protocol bounds it: inf, 1e300 or nan turned the search off, and
  // 1e12 never returned.
  const double ms = number_arg(v, "think_ms");
  if (!(ms >= 0 && ms <= 3600000))
    throw Error(
        fmt::format("think_ms must be a number of milliseconds from 0 to 3600000, got {}", std::string(py::repr(v))));
  return ms;
}

std::string str_arg(const py::handle& v, const char* what) {
  if (!py::isinstance<py::str>(v)) throw Error(fmt::format("{} must be a str, got {}", what, std::string(py::repr(v))));
  return v.cast<std::string>();
}

uint64_t seed_of(const py::object& seed) {
  if (seed.is_none()) return std::random_device{}() * 0x100000001ull + std::random_device{}();
  const auto bad = [&] {
    return Error(fmt::format("seed must be an int in 0..2**64-1 (or None for OpenSpiel's chance root), got {}",
                             std::string(py::repr(seed))));
  };
  // An int, or a numpy integer (the index protocol): np.int64(3) is 3.
  if (py::isinstance<py::bool_>(seed) || !(py::isinstance<py::int_>(seed) || PyIndex_Check(seed.ptr()))) throw bad();
  const py::int_ i(py::reinterpret_borrow<py::object>(seed));
  const unsigned long long v = PyLong_AsUnsignedLongLong(i.ptr());
  if (v == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();
    throw bad();
  }
  return v;
}

int player_arg(const spiel::StateBase& s, const py::object& player) {
  if (player.is_none()) return s.current_player();
  const int p = int_arg_in(player, "player", INT32_MIN, INT32_MAX);
  if (p != spiel::kChancePlayer) spiel::check_player(p, s.num_players());
  return p;
}

int seat_arg(const spiel::StateBase& s, const py::object& player) {
  if (player.is_none()) {
    const int p = s.current_player();
    if (p < 0) throw Error(fmt::format("no player to act now (current player {}): name the player", p));
    return p;
  }
  const int p = int_arg_in(player, "player", INT32_MIN, INT32_MAX);
  spiel::check_player(p, s.num_players());
  return p;
}

const PyGame& game_arg(const py::handle& v) {
  if (!py::isinstance<PyGame>(v))
    throw Error(fmt::format("expected a boneyard Game, got {}", std::string(py::repr(v))));
  return v.cast<const PyGame&>();
}

}  // namespace boneyard::py_bindings

using namespace boneyard;
using namespace boneyard::py_bindings;

PYBIND11_MODULE(_boneyard, m) {
  m.doc() = "Boneyard domino games: an OpenSpiel-style API (docs/python.md)";
  // A ValueError (bad input) that is also a RuntimeError, as pyspiel.SpielError is.
  py::register_exception<Error>(m, "BoneyardError",
                                py::make_tuple(py::handle(PyExc_ValueError), py::handle(PyExc_RuntimeError)));
  register_all_games();

  m.attr("CHANCE") = spiel::kChancePlayer;
  m.attr("SIMULTANEOUS") = spiel::kSimultaneousPlayer;
  m.attr("INVALID") = spiel::kInvalidPlayer;
  m.attr("TERMINAL") = spiel::kTerminalPlayer;
  m.attr("MAX_THREADS") = spiel::kMaxThreads;

  m.def("registered_games", [] {
    register_all_games();
    std::vector<std::string> out;
    for (const auto& e : games()) out.push_back(e.name);
    return out;
  });
  m.def("game_info", [](const py::object& name) {
    register_all_games();
    const GameEntry& e = find_game(str_arg(name, "the game name"));
    py::dict d;
    d["name"] = e.name;
    d["family"] = e.family;
    d["summary"] = e.summary;
    d["bots"] = e.bots;
    d["search_bots"] = e.search_bots;
    d["describe"] = e.describe().dump();
    return d;
  });

  init_games(m);
  init_states(m);
  init_bots(m);
  init_batch(m);
}
