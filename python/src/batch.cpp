// Batches in C++ from Python: random playouts and arenas on a pool of
// threads (src/research/spiel.h), the GIL released; Ctrl-C between hands
// raises KeyboardInterrupt.
#include "bindings.h"

namespace boneyard::py_bindings {

namespace {

// Polled by the calling thread while the workers play: Python's signal
// handlers run here, with the GIL (a KeyboardInterrupt stays set).
bool python_interrupted() {
  py::gil_scoped_acquire gil;
  return PyErr_CheckSignals() != 0;
}

}  // namespace

void init_batch(py::module_& m) {
  py::class_<PyGame> game = py::reinterpret_borrow<py::class_<PyGame>>(m.attr("Game"));
  game.def("_random_playouts",
           [](const PyGame& g, const py::object& n, const py::object& seed, const py::object& threads) {
             const auto hands = static_cast<uint64_t>(int_arg_in(n, "n", 0, 1ll << 62));
             const int t = int_arg_in(threads, "threads", 1, spiel::kMaxThreads);
             const uint64_t s = seed_of(seed);
             spiel::PlayoutResult r;
             {
               py::gil_scoped_release nogil;
               r = g.g->random_playouts(hands, s, t, python_interrupted);
             }
             if (r.interrupted) throw py::error_already_set();
             py::dict d;
             d["hands"] = r.hands;
             d["moves"] = r.moves;
             d["seconds"] = r.seconds;
             d["hands_per_second"] = r.seconds > 0 ? static_cast<double>(r.hands) / r.seconds : 0.0;
             d["cpu_seconds"] = r.cpu_seconds;  // worker 0's own time
             return d;
           });
  game.def("_arena", [](const PyGame& g, const py::object& bots, const py::object& games, const py::object& seed,
                        const py::object& threads, const py::object& think_ms, const py::object& iterations,
                        const py::object& bot_threads) {
    std::vector<std::string> names;
    if (!py::isinstance<py::list>(bots)) throw Error("arena: bots must be a list of bot names");
    for (auto b : py::reinterpret_borrow<py::list>(bots)) names.push_back(str_arg(b, "a bot name"));
    BotOptions b;
    b.think_ms = think_ms_arg(think_ms);
    b.iterations = int_arg_in(iterations, "iterations", 0, 100000000);
    b.threads = int_arg_in(bot_threads, "bot_threads", 1, spiel::kMaxThreads);
    const auto count = static_cast<uint64_t>(int_arg_in(games, "games", 0, 1ll << 62));
    const int t = int_arg_in(threads, "threads", 1, spiel::kMaxThreads);
    const uint64_t s = seed_of(seed);
    spiel::ArenaResult r;
    {
      py::gil_scoped_release nogil;
      r = g.g->arena(names, count, s, t, b, python_interrupted);
    }
    if (r.interrupted) throw py::error_already_set();
    py::dict d;
    d["games"] = r.games;
    d["returns"] = r.returns;
    d["seconds"] = r.seconds;
    return d;
  });
}

}  // namespace boneyard::py_bindings
