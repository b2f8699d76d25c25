#pragma once
// The one place that knows about MPI. Built without MPI (or started without
// mpirun) there is one rank and no messages: every subcommand behaves as on
// one machine. Only the main thread calls into this file.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace boneyard::cli::cluster {

// Starts MPI when the binary was built with it and mpirun (or another MPI
// launcher) started it, seen by its environment (OMPI_COMM_WORLD_SIZE,
// PMI_SIZE, PMIX_RANK); otherwise does nothing.
void init(int* argc, char*** argv);
void finalize();
int rank();  // 0 without MPI
int size();  // 1 without MPI
bool built_with_mpi();
// Ends every rank at once (MPI_Abort), after the caller printed why.
[[noreturn]] void abort(int code);

// Messages between ranks: a tag and bytes.
enum Tag : int { kResult = 1, kDone = 2, kStop = 3, kFinal = 4 };
void send(int to, int tag, const std::string& bytes);
// A waiting message from any rank, if there is one (never blocks).
bool poll(int* from, int* tag, std::string* bytes);
// The next message from `from` (blocks).
void recv(int from, int* tag, std::string* bytes);
// Rank 0's bytes to every rank.
void broadcast(std::string& bytes);

// Work shared over ranks and threads. Items 0..total-1 go to ranks in
// groups of `group` consecutive items (group k to rank k % size); a rank's
// threads take its items in increasing order. Nothing but results crosses
// the network: every item is derived from its index.
struct Work {
  int total = 0;
  int group = 1;
  int threads = 1;
  std::function<bool(int item)> skip;  // done before (resume); may be empty
  // On a worker thread of any rank: plays the item, returns its result.
  std::function<std::string(int item, int thread)> play;
  // On rank 0's main thread, as results arrive (in no fixed order); returns
  // true to stop every rank (the items under way still report).
  std::function<bool(int item, const std::string& result)> collect;
  // On rank 0's main thread about ten times a second (progress, checkpoints).
  std::function<void()> tick;
  // Polled on every rank's main thread: stop now (a signal), no error.
  std::function<bool()> interrupted;
};
// Runs the work; returns false when interrupted. A worker's exception is
// rethrown as Error on its rank (the caller aborts every rank).
bool run(const Work& w);

}  // namespace boneyard::cli::cluster
