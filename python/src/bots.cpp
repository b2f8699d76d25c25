// boneyard bots from Python: make_bot, a bot's action and values at a state
// (the search runs with the GIL released).
#include <fmt/format.h>

#include "bindings.h"
#include "bots/levels.h"

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
          const std::string bot = str_arg(name, "the bot name");
          // A level plays its own budget, as the protocol's levels do: a
          // budget given with one is refused, not silently dropped.
          if (is_bot_level(bot) && (o.think_ms > 0 || o.iterations > 0 || o.threads != 1))
            throw Error(fmt::format(
                "'{}' plays the level's own budget: leave out think_ms, iterations and threads, or name a bot ({}) "
                "to give it one",
                bot, level_search_bot(*g.g->entry)));
          return PyBot{make_bot(*g.g->entry, bot, seed_of(seed), o), g.g->name, p};
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
