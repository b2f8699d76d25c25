#pragma once
// A real `boneyard serve` process for the crash tests: started on a free
// port with a database, killed (SIGKILL) and started again on the same one.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <regex>
#include <string>
#include <vector>

#include "test_paths.h"  // BONEYARD_EXE, BONEYARD_SOURCE_DIR

namespace boneyard::test {

struct Child {
  pid_t pid = -1;
  unsigned short port = 0;
};

// `boneyard serve --port 0 --db DB` and `extra`; the port it printed (0 when
// it printed none).
inline Child spawn_server(const std::string& db, const std::vector<std::string>& extra = {}) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  std::vector<std::string> args{BONEYARD_EXE, "serve", "--port",        "0", "--db", db,
                                "--threads",  "2",     "--bot-threads", "2"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    execv(BONEYARD_EXE, argv.data());
    _exit(127);
  }
  close(fds[1]);
  std::string line;
  char ch;
  while (read(fds[0], &ch, 1) == 1 && ch != '\n') line += ch;
  close(fds[0]);
  Child c{pid, 0};
  std::smatch m;
  if (std::regex_search(line, m, std::regex(":(\\d+) "))) c.port = static_cast<unsigned short>(std::stoi(m[1]));
  return c;
}

inline void kill_hard(Child& c) {
  kill(c.pid, SIGKILL);
  waitpid(c.pid, nullptr, 0);
  c.pid = -1;
}

}  // namespace boneyard::test
