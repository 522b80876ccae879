//===--- ChildRunner.cpp - Runs commands in isolated children -------------===//

#include "ChildRunner.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace torch_tidy::probe {

namespace {

using Clock = std::chrono::steady_clock;

struct Running {
  size_t Index;
  pid_t Pid;
  int StdoutFd, StderrFd;
  Clock::time_point Deadline;
  bool Killed = false;
};

/// Starts Program; its stdout and stderr come back through pipes. The pipes
/// are close-on-exec so that no child inherits another child's pipe ends
/// (which would keep them open past that child's exit).
Running spawn(const std::string &Program, const std::vector<std::string> &Args,
              size_t Index, double TimeoutSeconds) {
  int Out[2], Err[2];
  if (pipe2(Out, O_CLOEXEC) != 0 || pipe2(Err, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  pid_t Pid = fork();
  if (Pid < 0)
    throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (Pid == 0) {
    dup2(Out[1], STDOUT_FILENO);
    dup2(Err[1], STDERR_FILENO);
    std::vector<char *> Argv;
    Argv.push_back(const_cast<char *>(Program.c_str()));
    for (const std::string &A : Args)
      Argv.push_back(const_cast<char *>(A.c_str()));
    Argv.push_back(nullptr);
    execv(Program.c_str(), Argv.data());
    dprintf(STDERR_FILENO, "exec %s: %s\n", Program.c_str(),
            std::strerror(errno));
    _exit(127);
  }
  close(Out[1]);
  close(Err[1]);
  auto Timeout = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(TimeoutSeconds));
  return Running{Index, Pid, Out[0], Err[0], Clock::now() + Timeout};
}

/// Reads what is available on Fd; closes it and sets it to -1 at EOF.
void drain(int &Fd, std::string &Into) {
  char Buffer[4096];
  ssize_t N = read(Fd, Buffer, sizeof(Buffer));
  if (N > 0) {
    Into.append(Buffer, static_cast<size_t>(N));
  } else if (N == 0 || errno != EINTR) {
    close(Fd);
    Fd = -1;
  }
}

void finish(Running &R, ChildResult &Result) {
  int Status = 0;
  while (waitpid(R.Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  Result.TimedOut = R.Killed;
  if (WIFEXITED(Status))
    Result.ExitStatus = WEXITSTATUS(Status);
  else if (WIFSIGNALED(Status))
    Result.Signal = WTERMSIG(Status);
}

} // namespace

std::vector<ChildResult>
runChildren(const std::string &Program,
            const std::vector<std::vector<std::string>> &ArgLists, int Jobs,
            double TimeoutSeconds) {
  std::vector<ChildResult> Results(ArgLists.size());
  std::vector<Running> Active;
  size_t Next = 0;
  while (Next < ArgLists.size() || !Active.empty()) {
    while (Next < ArgLists.size() && static_cast<int>(Active.size()) < Jobs) {
      Active.push_back(spawn(Program, ArgLists[Next], Next, TimeoutSeconds));
      ++Next;
    }
    std::vector<pollfd> Fds;
    for (const Running &R : Active)
      for (int Fd : {R.StdoutFd, R.StderrFd})
        if (Fd >= 0)
          Fds.push_back({Fd, POLLIN, 0});
    poll(Fds.data(), Fds.size(), /*timeout ms=*/100);

    auto Now = Clock::now();
    for (auto It = Active.begin(); It != Active.end();) {
      ChildResult &Result = Results[It->Index];
      for (const pollfd &P : Fds) {
        if (!P.revents)
          continue;
        if (P.fd == It->StdoutFd)
          drain(It->StdoutFd, Result.Stdout);
        else if (P.fd == It->StderrFd)
          drain(It->StderrFd, Result.Stderr);
      }
      if (!It->Killed && Now > It->Deadline) {
        kill(It->Pid, SIGKILL);
        It->Killed = true;
      }
      if (It->StdoutFd < 0 && It->StderrFd < 0) {
        finish(*It, Result);
        It = Active.erase(It);
      } else {
        ++It;
      }
    }
  }
  return Results;
}

} // namespace torch_tidy::probe
