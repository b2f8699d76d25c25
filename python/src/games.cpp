// boneyard.Game: load_game and the game's figures (docs/python.md, API).
#include <fmt/format.h>

#include "bindings.h"

namespace boneyard::py_bindings {

namespace {

// params: option name -> str, int or bool (True is "on"); the engine
// checks each value, load_game refuses empty and repeated options.
OptionList to_options(const py::object& params) {
  OptionList out;
  if (params.is_none()) return out;
  if (!py::isinstance<py::dict>(params))
    throw Error(fmt::format("params must be a dict of option names to values, got {}", std::string(py::repr(params))));
  for (auto item : py::reinterpret_borrow<py::dict>(params)) {
    const std::string key = str_arg(item.first, "an option name");
    py::handle v = item.second;
    std::string value;
    if (py::isinstance<py::bool_>(v))
      value = v.cast<bool>() ? "on" : "off";
    else if (py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v) || py::isinstance<py::str>(v))
      value = py::str(v);
    else
      throw Error(
          fmt::format("option '{}': the value must be a str, int or bool, got {}", key, std::string(py::repr(v))));
    out.emplace_back(key, value);
  }
  return out;
}

}  // namespace

void init_games(py::module_& m) {
  py::class_<PyGame>(m, "Game")
      // boneyard's games come from load_game; games written in Python
      // subclass pyspiel.Game (python/boneyard/python_games.py), not this.
      .def(py::init([](const py::args&, const py::kwargs&) -> PyGame {
        throw Error(
            "boneyard's C++ Game cannot be constructed: load_game makes boneyard's games; a game written in Python "
            "subclasses pyspiel.Game");
      }))
      .def("name", [](const PyGame& g) { return g.g->name; })
      .def("family", [](const PyGame& g) { return g.g->family; })
      .def("params",
           [](const PyGame& g) {
             py::dict d;
             for (const auto& [k, v] : g.g->options) d[py::str(k)] = v;
             return d;
           })
      .def("options_json", [](const PyGame& g) { return g.g->options_text; })
      .def("num_players", [](const PyGame& g) { return g.g->players; })
      .def("num_distinct_actions", [](const PyGame& g) { return g.g->actions; })
      .def("max_game_length", [](const PyGame& g) { return g.g->max_length; })
      .def("max_chance_outcomes", [](const PyGame& g) { return g.g->chance_actions; })
      .def("max_chance_nodes_in_history", [](const PyGame& g) { return g.g->max_chance_nodes; })
      .def("single_hand", [](const PyGame& g) { return g.g->single_hand; })
      .def("observation_tensor_shape", [](const PyGame& g) { return g.g->obs_shape; })
      .def("observation_tensor_size", [](const PyGame& g) { return g.g->obs_size; })
      .def("information_state_tensor_shape", [](const PyGame& g) { return g.g->info_shape; })
      .def("information_state_tensor_size", [](const PyGame& g) { return g.g->info_size; })
      .def(
          "_new_initial_state",
          [](const PyGame& g, const py::object& seed, bool explicit_chance) {
            return PyState{g.g->new_state(seed_of(seed), explicit_chance)};
          },
          py::arg("seed") = py::none(), py::arg("explicit_chance") = false)
      .def("deserialize_state",
           [](const PyGame& g, const py::object& text) {
             return PyState{g.g->from_record(str_arg(text, "the serialized state"))};
           })
      // The same game however its options were spelled ("true", True, "on").
      .def("__eq__",
           [](const PyGame& g, const py::object& o) {
             return py::isinstance<PyGame>(o) && g.g->same_game(*o.cast<const PyGame&>().g);
           })
      .def("__hash__", [](const PyGame& g) { return py::hash(py::str(g.g->name + g.g->options_text)); })
      .def("__str__", [](const PyGame& g) { return g.g->name; });

  m.def(
      "_load_game",
      [](const py::object& name, const py::object& params) {
        return PyGame{spiel::load_game(str_arg(name, "load_game: the game name"), to_options(params))};
      },
      py::arg("name"), py::arg("params") = py::none());
}

}  // namespace boneyard::py_bindings
