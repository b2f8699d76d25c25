#pragma once
// The pybind11 bindings of the package `boneyard` (docs/python.md), split
// by concern as OpenSpiel's python/pybind11/: module.cpp (the module,
// errors, the registry), games.cpp, states.cpp, bots.cpp, batch.cpp. The
// semantics are C++ in src/research/ (tested with GoogleTest); these files
// only convert arguments and results.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <string>

#include "core/game.h"
#include "research/spiel.h"

namespace boneyard::py_bindings {

namespace py = pybind11;

// The Python-facing wrappers: a State keeps its Game alive.
struct PyGame {
  std::shared_ptr<const spiel::GameBase> g;
};

struct PyState {
  std::unique_ptr<spiel::StateBase> s;
  PyState clone() const { return PyState{s->clone()}; }
};

struct PyBot {
  std::unique_ptr<AnyBot> bot;
  std::string game;
  int seat = 0;
};

// Arguments checked with the package's own words (a BoneyardError, a
// ValueError), never pybind11's "incompatible function arguments".
long long int_arg(const py::handle& v, const char* what);
long long int_arg_in(const py::handle& v, const char* what, long long lo, long long hi);
double number_arg(const py::handle& v, const char* what);
double think_ms_arg(const py::handle& v);  // 0 to 3600000 ms, as the protocol's
std::string str_arg(const py::handle& v, const char* what);
uint64_t seed_of(const py::object& seed);
// None: the current player; CHANCE names the chance player; else a seat.
int player_arg(const spiel::StateBase& s, const py::object& player);
// None: the current player, which must then be a seat.
int seat_arg(const spiel::StateBase& s, const py::object& player);
const PyGame& game_arg(const py::handle& v);

void init_games(py::module_& m);
void init_states(py::module_& m);
void init_bots(py::module_& m);
void init_batch(py::module_& m);

}  // namespace boneyard::py_bindings
