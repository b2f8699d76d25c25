// boneyard bots from Python: make_bot, a bot's action and values at a state
// (the search runs with the GIL released).
#include <fmt/format.h>

#include "bindings.h"

namespace boneyard::py_bindings {

void init_bots(py::module_& m) {
  py::class_<PyBot>(m, "Bot").def_readonly("seat", &PyBot::seat).def("name", [](const PyBot& b) {
    return b.bot->name();
  });
  m.def("_make_bot",
        [](const py::object& game, const py::object& name, const py::object& seat, const py::object& think_ms,
           const py::object& iterations, const py::object& seed, const py::object& threads) {
          const PyGame& g = game_arg(game);
          BotOptions o;
          o.think_ms = think_ms_arg(think_ms);
          o.iterations = int_arg_in(iterations, "iterations", 0, 100000000);
          o.threads = int_arg_in(threads, "threads", 1, spiel::kMaxThreads);
          const int p = int_arg_in(seat, "seat", 0, g.g->players - 1);
          return PyBot{make_bot(*g.g->entry, str_arg(name, "the bot name"), seed_of(seed), o), g.g->name, p};
        });
  py::class_<PyState> state = py::reinterpret_borrow<py::class_<PyState>>(m.attr("State"));
  state
      .def("_bot_action",
           [](const PyState& s, PyBot& b, int p) {
             py::gil_scoped_release nogil;
             return s.s->bot_action(*b.bot, p);
           })
      .def("_bot_values", [](const PyState& s, PyBot& b, int p) {
        py::gil_scoped_release nogil;
        return s.s->bot_values(*b.bot, p);
      });
}

}  // namespace boneyard::py_bindings
