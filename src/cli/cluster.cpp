#include "cli/cluster.h"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>
#include <mutex>
#include <thread>

#include "core/error.h"

#ifdef BONEYARD_HAS_MPI
#include <mpi.h>
#endif

namespace boneyard::cli::cluster {

namespace {
bool g_active = false;
int g_rank = 0, g_size = 1;

[[maybe_unused]] bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK"})
    if (std::getenv(v)) return true;
  return false;
}
}  // namespace

bool built_with_mpi() {
#ifdef BONEYARD_HAS_MPI
  return true;
#else
  return false;
#endif
}

void init([[maybe_unused]] int* argc, [[maybe_unused]] char*** argv) {
#ifdef BONEYARD_HAS_MPI
  if (g_active || !launched_by_mpi()) return;
  int provided = 0;
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  g_active = true;
#endif
}

void finalize() {
#ifdef BONEYARD_HAS_MPI
  if (g_active) MPI_Finalize();
  g_active = false;
#endif
}

int rank() { return g_rank; }
int size() { return g_size; }

void abort(int code) {
  std::cout << std::flush;
  std::cerr << std::flush;
#ifdef BONEYARD_HAS_MPI
  if (g_active && g_size > 1) MPI_Abort(MPI_COMM_WORLD, code);
#endif
  std::exit(code);
}

void send([[maybe_unused]] int to, [[maybe_unused]] int tag, [[maybe_unused]] const std::string& bytes) {
#ifdef BONEYARD_HAS_MPI
  if (g_active) {
    MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, to, tag, MPI_COMM_WORLD);
    return;
  }
#endif
  throw Error("internal: a message between ranks without MPI");
}

#ifdef BONEYARD_HAS_MPI
static void receive(int from, int tag, MPI_Status& st, std::string* bytes) {
  int n = 0;
  MPI_Get_count(&st, MPI_BYTE, &n);
  bytes->assign(static_cast<size_t>(n), '\0');
  MPI_Recv(bytes->data(), n, MPI_BYTE, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
#endif

bool poll([[maybe_unused]] int* from, [[maybe_unused]] int* tag, [[maybe_unused]] std::string* bytes) {
#ifdef BONEYARD_HAS_MPI
  if (!g_active) return false;
  int flag = 0;
  MPI_Status st;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
  if (!flag) return false;
  *from = st.MPI_SOURCE;
  *tag = st.MPI_TAG;
  receive(st.MPI_SOURCE, st.MPI_TAG, st, bytes);
  return true;
#else
  return false;
#endif
}

void recv([[maybe_unused]] int from, [[maybe_unused]] int* tag, [[maybe_unused]] std::string* bytes) {
#ifdef BONEYARD_HAS_MPI
  if (g_active) {
    MPI_Status st;
    MPI_Probe(from, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    *tag = st.MPI_TAG;
    receive(from, st.MPI_TAG, st, bytes);
    return;
  }
#endif
  throw Error("internal: a message between ranks without MPI");
}

void broadcast([[maybe_unused]] std::string& bytes) {
#ifdef BONEYARD_HAS_MPI
  if (!g_active || g_size == 1) return;
  uint64_t n = bytes.size();
  MPI_Bcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  bytes.resize(n);
  MPI_Bcast(bytes.data(), static_cast<int>(n), MPI_BYTE, 0, MPI_COMM_WORLD);
#endif
}

bool run(const Work& w) {
  const int R = g_size, me = g_rank;
  std::vector<int> mine;
  for (int i = 0; i < w.total; ++i)
    if ((i / w.group) % R == me && !(w.skip && w.skip(i))) mine.push_back(i);
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  std::atomic<int> exited{0};
  std::mutex mu;
  std::deque<std::pair<int, std::string>> finished;
  std::string failure;
  auto worker = [&](int thread) {
    for (size_t k; !stop && (k = next++) < mine.size();) {
      try {
        std::string r = w.play(mine[k], thread);
        std::lock_guard<std::mutex> lock(mu);
        finished.emplace_back(mine[k], std::move(r));
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(mu);
        if (failure.empty()) failure = e.what();
        stop = true;
      }
    }
    ++exited;
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < w.threads; ++t) pool.emplace_back(worker, t);
  auto join = [&] {
    stop = true;
    for (auto& t : pool) t.join();
    pool.clear();
  };
  bool stop_sent = false;
  auto stop_all = [&] {
    stop = true;
    if (stop_sent) return;
    stop_sent = true;
    for (int r = 1; r < R; ++r) send(r, kStop, "");
  };
  int dones = 0;
  std::string fail_copy;
  bool interrupted = false;
  try {
    for (;;) {
      const bool all_exited = exited == w.threads;  // read before draining: nothing can follow
      std::deque<std::pair<int, std::string>> got;
      {
        std::lock_guard<std::mutex> lock(mu);
        got.swap(finished);
        fail_copy = failure;
      }
      if (!fail_copy.empty()) {
        join();
        throw Error(R > 1 ? fmt::format("rank {} of {}: {}", me, R, fail_copy) : fail_copy);
      }
      for (auto& [item, res] : got) {
        if (me == 0) {
          if (w.collect(item, res)) stop_all();
        } else {
          std::string msg(sizeof(int32_t), '\0');
          const int32_t i32 = item;
          std::memcpy(msg.data(), &i32, sizeof i32);
          send(0, kResult, msg + res);
        }
      }
      int from = 0, tag = 0;
      std::string bytes;
      while (R > 1 && poll(&from, &tag, &bytes)) {
        if (me == 0 && tag == kResult) {
          int32_t item = 0;
          std::memcpy(&item, bytes.data(), sizeof item);
          if (w.collect(item, bytes.substr(sizeof item))) stop_all();
        } else if (me == 0 && tag == kDone) {
          ++dones;
        } else if (tag == kStop) {
          stop = true;
        }
      }
      if (me == 0 && w.tick) w.tick();
      if (w.interrupted && w.interrupted()) {
        interrupted = true;
        join();
        break;
      }
      if (all_exited) {
        join();
        if (me != 0) {  // tell rank 0, then wait for its word that everyone is done
          send(0, kDone, "");
          // Polling with sleeps: a blocking receive spins a core in Open MPI,
          // taking it from the ranks still playing on the same machine.
          while (!(poll(&from, &tag, &bytes) && tag == kFinal))
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
          break;
        }
        if (dones == R - 1) {
          for (int r = 1; r < R; ++r) send(r, kFinal, "");
          break;
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(all_exited ? 2 : 20));
    }
  } catch (...) {  // collect or tick failed (a checkpoint not written): stop the workers first
    join();
    throw;
  }
  return !interrupted;
}

}  // namespace boneyard::cli::cluster
