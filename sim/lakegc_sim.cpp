// lakegc-sim: the deterministic simulator's command line.
//
//   lakegc-sim --seed S [--trace]           one run, replayable exactly
//   lakegc-sim --seeds N [--first F]        a sweep of seeds F .. F+N-1
//   lakegc-sim --canaries --seeds N         each canary must fail within N seeds
//   lakegc-sim --determinism --seeds N      each seed twice in this process and once
//                                           in a child process: same trace hash (I9)
//   lakegc-sim --print-hashes --seeds N     "seed hash" lines (what the child prints)
//   lakegc-sim --cadence 30m --longest-query 5h [--write-duration 5m] --seeds N
//   lakegc-sim --cadence-from TABLE_OR_FILE --longest-query 5h --seeds N
//                                           the advice check (advice_check.hpp): the
//                                           retention lakegc::advise recommends holds at
//                                           that cadence and one less does not
//
// Options: --policy k=v,... (hoodie.* properties replace the swarm's
// policy), --canary NAME, --steps N (event budget per run), --quiet,
// --strict-archiver (the archiver without its library-gap bounds:
// archiver.hpp), --archiver-gaps-off BITS (only some: 1 (a), 2 (b), 4 (c),
// 8 (d)), --lakegc-archiver (plan_archive with the file listing: lakegc's
// replaced_files_on_storage bound on; with --strict-archiver it shows
// whether that bound alone closes the library gaps).
// In the advice check, --policy checks that policy (and one less) instead
// of the recommendations.
// Exit status: 0 when every run held every invariant (and every canary was
// caught, and the advice check confirmed its settings), 1 otherwise, 2 for
// bad usage.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "lakegc/core/duration.hpp"
#include "lakegc/hudi/journal.hpp"
#include "lakegc/sim/advice_check.hpp"
#include "lakegc/sim/report.hpp"
#include "lakegc/sim/simulation.hpp"
#include "lakegc/storage/posix_storage.hpp"

namespace {

using namespace lakegc::sim;

struct Cli {
  std::optional<std::uint64_t> seed;
  std::uint64_t seeds = 0;
  std::uint64_t first = 1;
  std::uint64_t steps = 200'000;
  std::optional<std::string> policy_text;
  Canary canary = Canary::none;
  bool trace = false;
  bool quiet = false;
  bool canaries = false;
  bool determinism = false;
  bool print_hashes = false;
  std::uint64_t archiver_gaps_off = 0;  // --strict-archiver: 15; --archiver-gaps-off BITS
  bool lakegc_archiver = false;         // --lakegc-archiver
  // The advice check.
  std::optional<absl::Duration> cadence;    // --cadence
  std::optional<std::string> cadence_from;  // --cadence-from
  absl::Duration write_duration = absl::Minutes(5);
  std::optional<absl::Duration> longest_query;
  std::optional<absl::Duration> write_duration_opt;  // --write-duration as given
};

constexpr std::string_view kUsage =
    "usage: lakegc-sim [--seed S | --seeds N [--first F]] [--policy k=v,...] [--canary NAME]\n"
    "                  [--canaries] [--determinism] [--print-hashes] [--steps N] [--trace] [--quiet]\n"
    "                  [--strict-archiver | --archiver-gaps-off BITS] [--lakegc-archiver]\n"
    "       lakegc-sim (--cadence DURATION [--write-duration DURATION] | --cadence-from TABLE_OR_FILE)\n"
    "                  --longest-query DURATION [--seeds N [--first F]] [--policy k=v,...] [--steps N] [--trace]\n"
    "canaries: hours-8584, no-pending-guard, no-savepoint-guard, orphans-short-cutoff, orphans-ignore-markers,\n"
    "          rollback-eager, orphans-all-actions-start, replace-unclamped, ttl-ignores-pending-compaction,\n"
    "          archive-ignores-replaced-groups\n";

bool parse_u64(std::string_view s, std::uint64_t* out) {
  if (s.empty()) return false;
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  *out = v;
  return true;
}

std::optional<Cli> parse(int argc, char** argv) {
  Cli cli;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    auto value = [&]() -> std::optional<std::string_view> {
      if (i + 1 >= argc) return std::nullopt;
      return std::string_view(argv[++i]);
    };
    std::uint64_t n = 0;
    if (a == "--seed") {
      auto v = value();
      if (!v || !parse_u64(*v, &n)) return std::nullopt;
      cli.seed = n;
    } else if (a == "--seeds" || a == "--first" || a == "--steps") {
      auto v = value();
      if (!v || !parse_u64(*v, &n)) return std::nullopt;
      (a == "--seeds" ? cli.seeds : a == "--first" ? cli.first : cli.steps) = n;
    } else if (a == "--policy") {
      auto v = value();
      if (!v) return std::nullopt;
      cli.policy_text = std::string(*v);
    } else if (a == "--canary") {
      auto v = value();
      auto c = v ? parse_canary(*v) : std::nullopt;
      if (!c) return std::nullopt;
      cli.canary = *c;
    } else if (a == "--trace") {
      cli.trace = true;
    } else if (a == "--quiet") {
      cli.quiet = true;
    } else if (a == "--canaries") {
      cli.canaries = true;
    } else if (a == "--determinism") {
      cli.determinism = true;
    } else if (a == "--print-hashes") {
      cli.print_hashes = true;
    } else if (a == "--cadence" || a == "--write-duration" || a == "--longest-query") {
      auto v = value();
      if (!v) return std::nullopt;
      auto d = lakegc::parse_duration(*v, a);
      if (!d.ok() || *d <= absl::ZeroDuration()) return std::nullopt;
      (a == "--cadence" ? cli.cadence : a == "--longest-query" ? cli.longest_query : cli.write_duration_opt) = *d;
    } else if (a == "--cadence-from") {
      auto v = value();
      if (!v) return std::nullopt;
      cli.cadence_from = std::string(*v);
    } else if (a == "--strict-archiver") {
      cli.archiver_gaps_off = kAllGapsOff;
    } else if (a == "--lakegc-archiver") {
      cli.lakegc_archiver = true;
    } else if (a == "--archiver-gaps-off") {
      auto v = value();
      if (!v || !parse_u64(*v, &n) || n > kAllGapsOff) return std::nullopt;
      cli.archiver_gaps_off = n;
    } else {
      return std::nullopt;
    }
  }
  if (cli.write_duration_opt) cli.write_duration = *cli.write_duration_opt;
  const bool advice = cli.cadence || cli.cadence_from;
  if (advice && (!cli.longest_query || (cli.cadence && cli.cadence_from) || cli.seed || cli.canaries ||
                 cli.determinism || cli.print_hashes || cli.canary != Canary::none)) {
    return std::nullopt;
  }
  if (!advice && (cli.longest_query || cli.write_duration_opt)) return std::nullopt;
  if (cli.write_duration_opt && !cli.cadence) return std::nullopt;
  if (!cli.seed && cli.seeds == 0) cli.seeds = 100;
  return cli;
}

std::string replay_command(const char* argv0, const Cli& cli, std::uint64_t seed, Canary canary) {
  std::string cmd = fmt::format("{} --seed {}", argv0, seed);
  if (cli.policy_text) cmd += fmt::format(" --policy '{}'", *cli.policy_text);
  if (canary != Canary::none) cmd += fmt::format(" --canary {}", to_string(canary));
  if (cli.steps != 200'000) cmd += fmt::format(" --steps {}", cli.steps);
  if (cli.archiver_gaps_off != 0) cmd += fmt::format(" --archiver-gaps-off {}", cli.archiver_gaps_off);
  if (cli.lakegc_archiver) cmd += " --lakegc-archiver";
  return cmd + " --trace";
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

RunOptions options_for(const Cli& cli, std::uint64_t seed, const std::optional<lakegc::config::Properties>& props) {
  RunOptions o;
  o.seed = seed;
  o.canary = cli.canary;
  o.policy = props;
  o.max_events = cli.steps;
  if (cli.archiver_gaps_off != 0 || cli.lakegc_archiver) {
    const auto off = static_cast<std::uint8_t>(cli.archiver_gaps_off);
    const bool listing = cli.lakegc_archiver;
    o.adjust_swarm = [off, listing](SwarmConfig& s) {
      s.archiver_gaps_off = off;
      s.archive_with_listing = listing;
    };
  }
  return o;
}

int single(const Cli& cli, const char* argv0, const std::optional<lakegc::config::Properties>& props) {
  RunOptions o = options_for(cli, *cli.seed, props);
  if (cli.trace) o.trace_sink = [](std::string_view line) { fmt::print("{}\n", line); };
  auto r = run_seed(o);
  if (!r.ok()) {
    fmt::print(stderr, "lakegc-sim: {}\n", lakegc::message_of(r.status()));
    return 2;
  }
  if (!r->ok()) {
    fmt::print("{}", format_failure(*r, replay_command(argv0, cli, r->seed, cli.canary)));
    for (std::size_t i = 1; i < r->violations.size(); ++i) fmt::print("  then: {}\n", r->violations[i].describe());
  } else {
    fmt::print("PASS {}", format_header(*r));
  }
  fmt::print("{}trace hash {:016x}\n", format_stats(r->stats), r->trace_hash);
  return r->ok() ? 0 : 1;
}

int sweep(const Cli& cli, const char* argv0, const std::optional<lakegc::config::Properties>& props) {
  SweepSummary summary;
  const auto t0 = std::chrono::steady_clock::now();
  std::string label;
  for (std::uint64_t s = cli.first; s < cli.first + cli.seeds; ++s) {
    auto r = run_seed(options_for(cli, s, props));
    if (!r.ok()) {
      fmt::print(stderr, "lakegc-sim: {}\n", lakegc::message_of(r.status()));
      return 2;
    }
    label = r->policy_label;
    summary.add(*r);
    if (!r->ok()) {
      fmt::print("{}", format_failure(*r, replay_command(argv0, cli, s, cli.canary)));
    } else if (!cli.quiet) {
      fmt::print("seed {:>6} ok   {:<44} events {:>6}\n", s, r->policy_label, r->stats.events);
    }
  }
  const double secs = seconds_since(t0);
  fmt::print("\nsweep of {} seed(s) from {}: {} failed; {} events in {:.2f}s ({:.0f} events/s, {:.0f} seeds/min)\n",
             summary.seeds(), cli.first, summary.failed_seeds(), summary.events(), secs,
             secs > 0 ? static_cast<double>(summary.events()) / secs : 0.0,
             secs > 0 ? 60.0 * static_cast<double>(summary.seeds()) / secs : 0.0);
  fmt::print("{}", summary.format());
  if (props || cli.canary != Canary::none) fmt::print("{}", summary.user_sentence(label));
  return summary.failed_seeds() == 0 ? 0 : 1;
}

int canaries(const Cli& cli, const char* argv0, const std::optional<lakegc::config::Properties>& props) {
  int missed = 0;
  for (Canary c : kCanaries) {
    Cli one = cli;
    one.canary = c;
    std::optional<RunResult> caught;
    std::uint64_t tried = 0;
    for (std::uint64_t s = cli.first; s < cli.first + cli.seeds && !caught; ++s) {
      ++tried;
      auto r = run_seed(options_for(one, s, props));
      if (!r.ok()) return 2;
      if (!r->ok()) caught = std::move(*r);
    }
    if (caught && !caught_for_the_right_reason(c, caught->violations.front().invariant)) {
      ++missed;
      const Violation& v = caught->violations.front();
      fmt::print("canary {:<31} caught for the WRONG reason after {:>3} seed(s): seed {} {} (expected {})\n  {}\n",
                 to_string(c), tried, caught->seed, to_string(v.invariant), expected_text(c), v.describe());
    } else if (caught) {
      const Violation& v = caught->violations.front();
      fmt::print("canary {:<31} caught after {:>3} seed(s): seed {} {} ({})\n", to_string(c), tried, caught->seed,
                 to_string(v.invariant), v.actor);
      if (!cli.quiet) fmt::print("  {}\n  replay: {}\n", v.describe(), replay_command(argv0, one, caught->seed, c));
    } else {
      ++missed;
      fmt::print("canary {:<31} NOT caught within {} seed(s)\n", to_string(c), tried);
    }
  }
  return missed == 0 ? 0 : 1;
}

std::string child_command(const char* argv0, const Cli& cli) {
  std::string cmd =
      fmt::format("'{}' --print-hashes --seeds {} --first {} --steps {}", argv0, cli.seeds, cli.first, cli.steps);
  if (cli.policy_text) cmd += fmt::format(" --policy '{}'", *cli.policy_text);
  if (cli.canary != Canary::none) cmd += fmt::format(" --canary {}", to_string(cli.canary));
  if (cli.archiver_gaps_off != 0) cmd += fmt::format(" --archiver-gaps-off {}", cli.archiver_gaps_off);
  return cmd;
}

int print_hashes(const Cli& cli, const std::optional<lakegc::config::Properties>& props) {
  for (std::uint64_t s = cli.first; s < cli.first + cli.seeds; ++s) {
    auto r = run_seed(options_for(cli, s, props));
    if (!r.ok()) return 2;
    fmt::print("{} {:016x}\n", s, r->trace_hash);
  }
  return 0;
}

// I9: every seed twice in this process, and once more in a child process
// (another address-space layout, another hash-map seed: what FoundationDB's
// determinism check catches).
int determinism(const Cli& cli, const char* argv0, const std::optional<lakegc::config::Properties>& props) {
  std::map<std::uint64_t, std::uint64_t> hashes;
  int bad = 0;
  for (std::uint64_t s = cli.first; s < cli.first + cli.seeds; ++s) {
    auto a = run_seed(options_for(cli, s, props));
    auto b = run_seed(options_for(cli, s, props));
    if (!a.ok() || !b.ok()) return 2;
    hashes[s] = a->trace_hash;
    if (a->trace_hash != b->trace_hash) {
      ++bad;
      fmt::print("I9 determinism: seed {} gave trace hashes {:016x} and {:016x} in one process\n", s, a->trace_hash,
                 b->trace_hash);
    }
  }
  std::size_t compared = 0;
  if (FILE* child = popen(child_command(argv0, cli).c_str(), "r")) {
    unsigned long long seed = 0;
    unsigned long long hash = 0;
    while (std::fscanf(child, "%llu %llx", &seed, &hash) == 2) {
      ++compared;
      const auto it = hashes.find(seed);
      if (it == hashes.end() || it->second != hash) {
        ++bad;
        fmt::print("I9 determinism: seed {} gave trace hash {:016x} here and {:016x} in a child process\n", seed,
                   it == hashes.end() ? 0 : it->second, static_cast<std::uint64_t>(hash));
      }
    }
    if (pclose(child) != 0) ++bad;
  }
  if (compared != hashes.size()) {
    ++bad;
    fmt::print("I9 determinism: the child process reported {} of {} seed(s)\n", compared, hashes.size());
  }
  fmt::print(
      "determinism: {} seed(s) run twice here and once in a child process, {} mismatch(es) "
      "(MALLOC_PERTURB_={})\n",
      cli.seeds, bad, malloc_perturb());
  return bad == 0 ? 0 : 1;
}

// The cadence of --cadence-from: a Hudi table's timeline (a directory), or
// a cadence file (cadence.hpp).
lakegc::StatusOr<CommitCadence> cadence_from(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    LAKEGC_ASSIGN_OR_RETURN(lakegc::posix_storage storage, lakegc::posix_storage::open(path));
    LAKEGC_ASSIGN_OR_RETURN(auto journal, lakegc::hudi::journal<lakegc::posix_storage>::open(storage, path));
    LAKEGC_ASSIGN_OR_RETURN(lakegc::TableMetadata md, journal.load());
    return cadence_of_timeline(md, path);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(fmt::format("{}: cannot read the cadence file", path));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_cadence(text.str(), path);
}

int advice(const Cli& cli, const std::optional<lakegc::config::Properties>& props) {
  AdviceCheckOptions o;
  if (cli.cadence) {
    o.cadence = synthetic_cadence(*cli.cadence, cli.write_duration);
  } else {
    auto c = cadence_from(*cli.cadence_from);
    if (!c.ok()) {
      fmt::print(stderr, "lakegc-sim: {}\n", lakegc::message_of(c.status()));
      return 2;
    }
    o.cadence = std::move(*c);
  }
  o.longest_query = *cli.longest_query;
  o.seeds = cli.seeds;
  o.first_seed = cli.first;
  o.policy = props;
  o.max_events = cli.steps;
  if (cli.trace) o.trace = [](std::string_view line) { fmt::print("{}\n", line); };
  const auto t0 = std::chrono::steady_clock::now();
  auto r = check_advice(o);
  if (!r.ok()) {
    fmt::print(stderr, "lakegc-sim: {}\n", lakegc::message_of(r.status()));
    return 2;
  }
  fmt::print("{}", r->format());
  fmt::print("({:.1f}s)\n", seconds_since(t0));
  return r->confirmed() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const auto cli = parse(argc, argv);
  if (!cli) {
    fmt::print(stderr, "{}", kUsage);
    return 2;
  }
  std::optional<lakegc::config::Properties> props;
  if (cli->policy_text) {
    auto p = parse_policy_flag(*cli->policy_text);
    if (p.ok()) {
      auto check = policy_from_properties(*p);
      if (!check.ok()) p = check.status();
    }
    if (!p.ok()) {
      fmt::print(stderr, "lakegc-sim: {}\n", lakegc::message_of(p.status()));
      return 2;
    }
    props = *p;
  }
  if (cli->cadence || cli->cadence_from) return advice(*cli, props);
  if (cli->canaries) return canaries(*cli, argv[0], props);
  if (cli->determinism) return determinism(*cli, argv[0], props);
  if (cli->print_hashes) return print_hashes(*cli, props);
  if (cli->seed) return single(*cli, argv[0], props);
  return sweep(*cli, argv[0], props);
}
