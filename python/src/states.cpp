// boneyard.State: the OpenSpiel state's methods (docs/python.md, API).
#include <fmt/format.h>

#include <algorithm>

#include "bindings.h"

namespace boneyard::py_bindings {

namespace {

using spiel::kChancePlayer;
using spiel::kSimultaneousPlayer;

py::array_t<float> new_tensor(const std::vector<int>& shape) {
  std::vector<py::ssize_t> dims(shape.begin(), shape.end());
  return py::array_t<float>(dims);
}

// A preallocated numpy buffer: float32, C-contiguous, writeable, the
// tensor's size (any shape), written in place.
float* buffer_of(const py::object& obj, int size) {
  if (!py::isinstance<py::array>(obj))
    throw Error(fmt::format("the buffer must be a numpy array of float32, got {}", std::string(py::repr(obj))));
  auto buf = obj.cast<py::array>();
  if (!buf.dtype().is(py::dtype::of<float>()) || !(buf.flags() & py::array::c_style) || !buf.writeable())
    throw Error("the buffer must be a writeable C-contiguous numpy array of float32");
  if (buf.size() != size) throw Error(fmt::format("the buffer has {} floats; the tensor needs {}", buf.size(), size));
  return static_cast<float*>(buf.mutable_data());
}

// The range is the engine's to check (its message names the game's actions).
int action_arg(const py::handle& v) { return static_cast<int>(int_arg_in(v, "action", INT32_MIN, INT32_MAX)); }

std::vector<int> actions_arg(const py::object& v) {
  if (!py::isinstance<py::sequence>(v) || py::isinstance<py::str>(v))
    throw Error(fmt::format("apply_actions needs a list of ints, got {}", std::string(py::repr(v))));
  std::vector<int> out;
  for (auto x : py::reinterpret_borrow<py::sequence>(v)) out.push_back(action_arg(x));
  return out;
}

py::list int_list(const std::vector<int>& v) {
  py::list out(v.size());
  for (size_t i = 0; i < v.size(); ++i) PyList_SET_ITEM(out.ptr(), static_cast<py::ssize_t>(i), PyLong_FromLong(v[i]));
  return out;
}

}  // namespace

void init_states(py::module_& m) {
  py::class_<PyState>(m, "State")
      .def(py::init([](const py::args&, const py::kwargs&) -> PyState {
        throw Error("boneyard.State cannot be constructed: a state comes from game.new_initial_state()");
      }))
      .def("current_player", [](const PyState& s) { return s.s->current_player(); })
      .def("is_chance_node", [](const PyState& s) { return s.s->current_player() == kChancePlayer; })
      .def("is_simultaneous_node", [](const PyState& s) { return s.s->current_player() == kSimultaneousPlayer; })
      .def("is_terminal", [](const PyState& s) { return s.s->is_terminal(); })
      .def("is_player_acting",
           [](const PyState& s, const py::object& p) {
             return s.s->acts(int_arg_in(p, "player", INT32_MIN, INT32_MAX));
           })
      .def("num_players", [](const PyState& s) { return s.s->num_players(); })
      .def("hands_finished", [](const PyState& s) { return s.s->hands_finished(); })
      .def("chance_outcomes", [](const PyState& s) { return s.s->chance_outcomes(); })
      .def("explicit_chance", [](const PyState& s) { return s.s->explicit_chance(); })
      .def("chance_event", [](const PyState& s) { return s.s->chance_event(); })
      .def(
          "legal_actions",
          [](const PyState& s, const py::object& player) {
            static thread_local std::vector<int> buf;
            s.s->legal_actions(player_arg(*s.s, player), buf);
            return int_list(buf);
          },
          py::arg("player") = py::none())
      .def(
          "legal_actions_mask",
          [](const PyState& s, const py::object& player) {
            const int p = player_arg(*s.s, player);
            std::vector<int> buf;
            s.s->legal_actions(p, buf);
            py::array_t<int8_t> mask(p == kChancePlayer ? s.s->game().chance_actions : s.s->game().actions);
            std::fill(mask.mutable_data(), mask.mutable_data() + mask.size(), int8_t{0});
            for (int a : buf) mask.mutable_data()[a] = 1;
            return mask;
          },
          py::arg("player") = py::none())
      // DominoEnv.observe in one call: {"observation": tensor, "action_mask": mask}.
      .def("_env_observation",
           [](const PyState& s, int p, bool masked) {
             spiel::check_player(p, s.s->num_players());
             auto obs = new_tensor(s.s->game().obs_shape);
             s.s->observation(p, obs.mutable_data());
             py::array_t<int8_t> mask(s.s->game().actions);
             std::fill(mask.mutable_data(), mask.mutable_data() + mask.size(), int8_t{0});
             if (!masked) {
               static thread_local std::vector<int> buf;
               s.s->legal_actions(p, buf);
               for (int a : buf) mask.mutable_data()[a] = 1;
             }
             py::dict d;
             d["observation"] = std::move(obs);
             d["action_mask"] = std::move(mask);
             return d;
           })
      .def("apply_action", [](PyState& s, const py::object& a) { s.s->apply_action(action_arg(a)); })
      .def("apply_actions", [](PyState& s, const py::object& a) { s.s->apply_actions(actions_arg(a)); })
      .def("action_to_string",
           [](const PyState& s, const py::object& p, const py::object& a) {
             return s.s->action_to_string(int_arg_in(p, "player", INT32_MIN, INT32_MAX), action_arg(a));
           })
      .def("string_to_action",
           [](const PyState& s, const py::object& p, const py::object& t) {
             return s.s->string_to_action(int_arg_in(p, "player", INT32_MIN, INT32_MAX), str_arg(t, "the action text"));
           })
      .def("returns", [](const PyState& s) { return s.s->returns(); })
      .def("scores", [](const PyState& s) { return s.s->scores(); })
      .def("history",
           [](const PyState& s) {
             std::vector<int> out;
             for (const auto& [p, a] : s.s->history()) out.push_back(a);
             return out;
           })
      .def("full_history", [](const PyState& s) { return s.s->history(); })
      .def(
          "observation_string", [](const PyState& s, const py::object& p) { return s.s->render(seat_arg(*s.s, p)); },
          py::arg("player") = py::none())
      .def(
          "information_state_string",
          [](const PyState& s, const py::object& p) { return s.s->info_string(seat_arg(*s.s, p)); },
          py::arg("player") = py::none())
      .def(
          "view_json",
          [](const PyState& s, const py::object& p) {
            return s.s->view_json(int_arg_in(p, "player", INT32_MIN, INT32_MAX));
          },
          py::arg("player") = -1)
      .def(
          "observation_tensor",
          [](const PyState& s, const py::object& p) {
            auto out = new_tensor(s.s->game().obs_shape);
            s.s->observation(seat_arg(*s.s, p), out.mutable_data());
            return out;
          },
          py::arg("player") = py::none())
      .def("observation_tensor_into",
           [](const PyState& s, const py::object& p, const py::object& buf) {
             s.s->observation(seat_arg(*s.s, p), buffer_of(buf, s.s->game().obs_size));
           })
      .def(
          "information_state_tensor",
          [](const PyState& s, const py::object& p) {
            auto out = new_tensor(s.s->game().info_shape);
            s.s->info_state(seat_arg(*s.s, p), out.mutable_data());
            return out;
          },
          py::arg("player") = py::none())
      .def("information_state_tensor_into",
           [](const PyState& s, const py::object& p, const py::object& buf) {
             s.s->info_state(seat_arg(*s.s, p), buffer_of(buf, s.s->game().info_size));
           })
      .def("clone", &PyState::clone)
      .def("__copy__", &PyState::clone)
      .def("__deepcopy__", [](const PyState& s, py::object) { return s.clone(); })
      .def("serialize", [](const PyState& s) { return s.s->serialize(); })
      .def("resample_from_infostate",
           [](const PyState& s, const py::object& p, const py::object& seed) {
             return PyState{s.s->resample(seat_arg(*s.s, p), seed_of(seed))};
           })
      .def("_undo",
           [](PyState& s, const py::object& p, const py::object& a) {
             s.s->undo(static_cast<int>(int_arg_in(p, "player", INT32_MIN, INT32_MAX)), action_arg(a));
           })
      .def("game_name", [](const PyState& s) { return s.s->game().name; })
      .def("get_game", [](const PyState& s) { return PyGame{s.s->game_shared()}; })
      .def("_reshuffle", [](PyState& s, const py::object& seed) { s.s->reshuffle(seed_of(seed)); })
      .def("__str__", [](const PyState& s) { return s.s->render(-1); })
      .def("__repr__", [](const PyState& s) { return fmt::format("<boneyard.State of {}>", s.s->game().name); });
}

}  // namespace boneyard::py_bindings
