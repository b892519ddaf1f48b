#include "tests/reliability/child_process.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace koordq::reliability {

Result<ChildProcess> ChildProcess::spawn(const std::filesystem::path& program, const std::vector<std::string>& args) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return make_error(std::string("pipe2: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  std::vector<std::string> argv_strings{program.string()};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_strings) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    return make_error("cannot start " + program.string() + ": " + std::strerror(rc));
  }
  return ChildProcess(pid, fds[0]);
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : pid_(other.pid_), out_(other.out_), closed_(other.closed_), partial_(std::move(other.partial_)) {
  other.pid_ = -1;
  other.out_ = -1;
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0) kill_and_reap();
  if (out_ >= 0) ::close(out_);
}

std::vector<std::string> ChildProcess::read_lines(Clock::time_point deadline,
                                                  const std::function<bool(const std::string&)>& stop) {
  std::vector<std::string> lines;
  char buf[1 << 16];
  while (!closed_) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    pollfd p{out_, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::max<int64_t>(left, 0)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) break;  // the deadline passed
    const ssize_t n = ::read(out_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      closed_ = true;
      break;
    }
    partial_.append(buf, static_cast<size_t>(n));
    bool stopped = false;
    size_t start = 0;
    for (size_t nl; (nl = partial_.find('\n', start)) != std::string::npos; start = nl + 1) {
      lines.push_back(partial_.substr(start, nl - start));
      if (stop && stop(lines.back())) stopped = true;
    }
    partial_.erase(0, start);
    if (stopped) break;
  }
  return lines;
}

int ChildProcess::kill_and_reap() {
  int status = 0;
  if (pid_ <= 0) return status;
  ::kill(pid_, SIGKILL);
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  return status;
}

}  // namespace koordq::reliability
