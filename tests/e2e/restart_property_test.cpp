// Replay holds across every restart (design.md §3, §5): random cases of the real `koordq serve
// --simulate` (random seed, simulator speed, snapshot spacing and actor threads) stopped and
// restarted over one journal several times: at the end of a virtual-clock run (a clean stop, with
// its snapshot), by SIGTERM during a wall-clock run, and by SIGKILL at a random moment of a
// virtual-clock run (any point: inside a batch, between a round and its outcomes, before the
// snapshot). After every run:
//   - `replay --verify` accepts the journal: every recorded round re-decides the same, and every
//     stored snapshot equals the fold of the records up to it;
//   - the state the restarted process began from (its newest snapshot, then the records after
//     it, as serve restores) followed by everything it journaled equals the fold from seq 1, field
//     by field, after every record.
// The binary runs as a separate process so that SIGKILL is real. KOORDQ_RESTART_CASES (default 3)
// and KOORDQ_RESTART_SEED (default: random, printed) choose the cases.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "actors/wire/config_wire.hpp"
#include "actors/wire/record_apply.hpp"
#include "actors/wire/state_restore.hpp"
#include "journal/journal_reader.hpp"
#include "replay/replay.hpp"
#include "replay/state_diff.hpp"
#include "tests/support/temp_dir.hpp"

extern char** environ;

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

enum class Stop { kEnd, kTerm, kKill };

const char* stop_name(Stop stop) {
  switch (stop) {
    case Stop::kEnd:
      return "end of its --simulate-duration";
    case Stop::kTerm:
      return "SIGTERM";
    case Stop::kKill:
      return "SIGKILL";
  }
  return "";
}

// Whether `log` holds `marker` (the start line of a simulation), polled for up to a minute.
bool await_marker(const std::filesystem::path& log, const std::string& marker) {
  for (int i = 0; i < 600; ++i) {
    std::ifstream in(log);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.find(marker) != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

// Runs koordq with `args`, output to `log`; after `signal_after` (if set) sends `signal`. A
// SIGTERM is counted from the simulation's start line, once the process handles it: on a loaded
// machine a large binary takes a while to start. Returns the wait status.
int run_koordq(const std::vector<std::string>& args, const std::filesystem::path& log,
               std::optional<std::chrono::milliseconds> signal_after, int signal) {
  std::vector<std::string> argv_storage{KOORDQ_BINARY};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) throw std::runtime_error("cannot start " + argv_storage[0]);
  if (signal_after) {
    if (signal == SIGTERM) await_marker(log, "simulating scenario");
    std::this_thread::sleep_for(*signal_after);
    ::kill(pid, signal);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

// Fast scratch space where there is some: the runs fsync every round, which tmpfs makes cheap.
std::filesystem::path scratch_root() {
  std::error_code ec;
  if (std::filesystem::is_directory("/dev/shm", ec) && ::access("/dev/shm", W_OK) == 0) return "/dev/shm";
  return std::filesystem::temp_directory_path();
}

actors::DecisionConfig decision_config(journal::JournalReader& reader) {
  for (uint64_t seq = 1; seq <= reader.last_seq(); ++seq) {
    auto record = reader.get(seq);
    if (!record.ok() || !record->has_value()) break;
    if ((*record)->kind() != journal::RecordKind::kConfig) continue;
    auto config = actors::read_journal_config((*record)->reader().getBody().getConfig());
    if (!config.ok()) throw std::runtime_error(config.message());
    return config->decision;
  }
  throw std::runtime_error("the journal holds no config record");
}

// The state serve restored from at `restart_seq`, then every later record, equals the fold from
// seq 1 after each record.
void expect_restored_equals_fold(journal::JournalReader& reader, uint64_t restart_seq, const std::string& what) {
  const actors::DecisionConfig config = decision_config(reader);
  auto restored = actors::restore_state(reader, restart_seq, config);
  ASSERT_TRUE(restored.ok()) << what << ": " << restored.message();
  actors::Scheduler fold(config);
  const uint64_t last = reader.last_seq();
  for (uint64_t seq = 1; seq <= last; ++seq) {
    auto record = reader.get(seq);
    ASSERT_TRUE(record.ok() && record->has_value()) << what << ": cannot read seq " << seq;
    ASSERT_TRUE(actors::apply_record(fold, **record).ok()) << what << ": seq " << seq;
    if (seq < restart_seq) continue;
    if (seq > restart_seq) {
      ASSERT_TRUE(actors::apply_record(restored->scheduler, **record).ok());
    }
    const auto differences = replay::state_differences(restored->scheduler, fold);
    ASSERT_TRUE(differences.empty()) << what << ": after seq " << seq << " (restart at " << restart_seq
                                     << "): " << replay::describe_differences(differences);
  }
}

uint64_t last_seq_of(const std::filesystem::path& dir) {
  if (!std::filesystem::exists(dir)) return 0;
  auto reader = journal::JournalReader::open_secondary(dir);
  if (!reader.ok()) throw std::runtime_error(reader.message());
  return (*reader)->last_seq();
}

TEST(RestartProperty, every_restart_leaves_a_journal_whose_replay_verifies_and_equals_the_live_state) {
  const char* cases_env = std::getenv("KOORDQ_RESTART_CASES");
  const int cases = cases_env ? std::atoi(cases_env) : 3;
  const char* seed_env = std::getenv("KOORDQ_RESTART_SEED");
  const uint64_t seed = seed_env ? std::strtoull(seed_env, nullptr, 10) : std::random_device{}();
  std::printf("KOORDQ_RESTART_SEED=%llu KOORDQ_RESTART_CASES=%d\n", static_cast<unsigned long long>(seed), cases);
  std::mt19937_64 rng(seed);
  auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };

  const std::filesystem::path root = scratch_root();
  for (int c = 0; c < cases; ++c) {
    const std::string tmpl = (root / "koordq-restart-XXXXXX").string();
    std::string made = tmpl;
    ASSERT_NE(::mkdtemp(made.data()), nullptr);
    const std::filesystem::path dir = made;
    const std::filesystem::path journal_dir = dir / "journal";
    const int sim_seed = pick(1, 10000);
    const std::vector<std::string> speeds = {"1", "4", "10"};
    const std::string speed = speeds[pick(0, 2)];
    const std::vector<std::string> spacings = {"40", "300", "2000"};
    const std::string snapshot_every = spacings[pick(0, 2)];
    const int runs = pick(3, 4);
    // One clock per journal: a wall-clock run after a virtual one would jump its record times
    // ahead by months, and retention would drop the virtual history.
    const bool virtual_clock = pick(0, 1) == 1;
    std::string history = "case " + std::to_string(c) + ": --seed " + std::to_string(sim_seed) + " --simulate-speed " +
                          speed + " --snapshot-every " + snapshot_every + " --simulate-clock " +
                          (virtual_clock ? "virtual" : "wall");
    for (int r = 0; r < runs; ++r) {
      // The first run ends cleanly, so that the journal has a state to restart from.
      const Stop stop = r == 0 ? Stop::kEnd : static_cast<Stop>(pick(0, 2));
      std::vector<std::string> args = {"serve",
                                       "--simulate",
                                       "--seed",
                                       std::to_string(sim_seed),
                                       "--simulate-speed",
                                       speed,
                                       "--snapshot-every",
                                       snapshot_every,
                                       "--journal-dir",
                                       journal_dir.string(),
                                       "--actor-threads",
                                       std::to_string(pick(1, 2)),
                                       "--metrics-bind-address",
                                       "127.0.0.1:0",
                                       "--visibility-port",
                                       "0",
                                       "--api-handler-port",
                                       "0",
                                       "--simulate-clock",
                                       virtual_clock ? "virtual" : "wall",
                                       "--simulate-duration"};
      // A virtual run of a few simulated seconds ends at once; a signal needs a long one.
      if (stop == Stop::kEnd) {
        args.push_back(virtual_clock ? std::to_string(pick(5, 30)) + "s" : std::to_string(pick(1000, 3000)) + "ms");
      } else {
        args.push_back("30m");
      }
      std::optional<std::chrono::milliseconds> after;
      int signal = 0;
      if (stop != Stop::kEnd) {
        after = std::chrono::milliseconds(pick(50, 2500));
        signal = stop == Stop::kTerm ? SIGTERM : SIGKILL;
      }
      const uint64_t restart_seq = last_seq_of(journal_dir);
      history += "; run " + std::to_string(r + 1) + " from seq " + std::to_string(restart_seq) + ", stopped by " +
                 stop_name(stop) + (after ? " after " + std::to_string(after->count()) + " ms" : "");
      const std::filesystem::path log = dir / ("serve-" + std::to_string(r + 1) + ".log");
      const int status = run_koordq(args, log, after, signal);
      if (stop == Stop::kKill) {
        ASSERT_TRUE((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) || (WIFEXITED(status) && !WEXITSTATUS(status)))
            << history;
      } else {
        ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << history << " (see " << dir / "serve.log"
                                                                   << ")";
      }

      auto reader = journal::JournalReader::open_secondary(journal_dir);
      ASSERT_TRUE(reader.ok()) << history << ": " << reader.message();
      const uint64_t last = (*reader)->last_seq();
      if (stop != Stop::kKill) {
        ASSERT_GT(last, restart_seq) << history << ": the run journaled nothing";
      }  // a SIGKILL may come before the first append
      auto verified = replay::verify_rounds(**reader, UINT64_MAX);
      ASSERT_TRUE(verified.ok()) << history << ": " << verified.message();
      ASSERT_TRUE(verified->ok()) << history << ":\n" << replay::render_verify_text(*verified);
      if (stop != Stop::kKill) {
        EXPECT_GT(verified->snapshots, 0u) << history;
      }
      if (r > 0) expect_restored_equals_fold(**reader, restart_seq, history);
      if (::testing::Test::HasFatalFailure()) return;
    }
    std::printf("%s: %s\n", history.c_str(), "verified");
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
