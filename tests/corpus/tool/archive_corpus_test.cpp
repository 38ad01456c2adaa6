// `lakegc plan archive` over the real tables, against what their files say:
// the completed commits, the pending writes, the replacecommits and
// clusterings, deltacommits and compactions (MOR), and the metadata table's
// latest compaction, all read here from the instant files' names (and, for
// layout 1, their modification times, Hudi 1.x's completion times there).
// The corpus tables have no completed clean or savepoint; the test refuses
// a table that has one (extend it then).
#include <doctest/doctest.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <sys/stat.h>

#include "tool_corpus.hpp"

namespace lakegc::tests::archive_corpus_test {

using namespace lakegc::testing;
namespace fs = std::filesystem;

namespace {

struct Inst {
  std::string requested;
  std::string action;  // as the completed file names it (compaction -> commit)
  bool completed = false;
  std::string completion;  // layout 2: from the name; layout 1: mtime in local time
};

// Layout-1 mtime as Hudi formats it (local zone, milliseconds).
std::string mtime_instant(const fs::path& p) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  const std::time_t secs = st.st_mtim.tv_sec;
  const long ms = st.st_mtim.tv_nsec / 1'000'000;
  std::tm tm{};
  localtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d%H%M%S", &tm);
  return fmt::format("{}{:03d}", buf, ms);
}

// Instants of a timeline folder, one per requested time (newest state wins).
std::vector<Inst> instants_of(const fs::path& dir) {
  std::map<std::string, Inst> by_time;
  if (!fs::is_directory(dir)) return {};
  for (const auto& e : fs::directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string name = e.path().filename().string();
    if (name.empty() || name[0] < '0' || name[0] > '9' || name.ends_with(".crc")) continue;
    const auto dot = name.find('.');
    if (dot == std::string::npos) continue;
    std::string head = name.substr(0, dot);
    std::string rest = name.substr(dot + 1);
    std::string completion;
    if (const auto us = head.find('_'); us != std::string::npos) {
      completion = head.substr(us + 1);
      head = head.substr(0, us);
    }
    if (rest == "savepoint" || rest.starts_with("savepoint.")) {
      REQUIRE_MESSAGE(false, "a savepoint: extend the test");
    }
    Inst& i = by_time[head];
    i.requested = head;
    const bool done = !rest.ends_with(".requested") && !rest.ends_with(".inflight") && rest != "inflight";
    if (done) {
      i.completed = true;
      i.action = rest;
      i.completion = completion.empty() ? mtime_instant(e.path()) : completion;
    } else if (!i.completed) {
      // Of a pending instant's files, the inflight one is its newest state.
      const bool inflight = rest.ends_with(".inflight") || rest == "inflight";
      if (i.action.empty() || inflight) {
        i.action = rest == "inflight" ? "commit" : rest.substr(0, rest.find('.'));
        i.completion = completion.empty() ? mtime_instant(e.path()) : "";
      }
    }
  }
  std::vector<Inst> out;
  for (auto& [t, i] : by_time) out.push_back(i);
  return out;
}

bool is_commit(const Inst& i) {
  return i.completed && (i.action == "commit" || i.action == "deltacommit" || i.action == "replacecommit");
}
bool is_write(const std::string& a) {
  return a == "commit" || a == "deltacommit" || a == "replacecommit" || a == "compaction" || a == "logcompaction" ||
         a == "clustering";
}

// What Hudi 1.2.0's archiver archives with keep.min 1 / keep.max 2 and a
// cleaner retaining 1 commit (ArchivalUtils raises them to 2 / 3).
std::vector<std::string> expected_archived(const fs::path& root, bool mor) {
  const bool layout2 = fs::is_directory(root / ".hoodie" / "timeline");
  const auto all = instants_of(layout2 ? root / ".hoodie" / "timeline" : root / ".hoodie");
  std::vector<const Inst*> commits;
  std::vector<const Inst*> rollbacks;
  for (const auto& i : all) {
    REQUIRE_MESSAGE(!(i.completed && i.action == "clean"), "a completed clean: extend the test");
    if (is_commit(i)) commits.push_back(&i);
    if (i.completed && i.action == "rollback") rollbacks.push_back(&i);
  }
  const std::size_t min_keep = 2, max_keep = 3;
  std::vector<std::string> out;
  // Layout 1: rollbacks by their own count.
  if (!layout2 && rollbacks.size() > max_keep) {
    for (std::size_t k = 0; k + min_keep < rollbacks.size(); ++k) out.push_back(rollbacks[k]->requested);
  }
  std::vector<std::string> bounds;
  // The newest completed commit before the earliest pending write.
  for (const auto& i : all) {
    if (i.completed || !is_write(i.action)) continue;
    std::string before = i.requested;
    for (const Inst* c : commits) {
      if (c->requested < i.requested) before = c->requested;
    }
    bounds.push_back(before);
    break;
  }
  // No completed clean: the first replacecommit or clustering.
  for (const auto& i : all) {
    if (i.action == "replacecommit" || i.action == "clustering") {
      bounds.push_back(i.requested);
      break;
    }
  }
  if (mor) {
    // The compaction window, hoodie.compact.inline.max.delta.commits = 5.
    const Inst* compaction = nullptr;
    for (const auto& i : all) {
      if (i.completed && i.action == "commit") compaction = &i;
    }
    std::vector<const Inst*> since;
    for (const auto& i : all) {
      if (i.action != "deltacommit") continue;
      if (compaction == nullptr) {
        since.push_back(&i);
      } else if (i.completion.empty() ? i.requested > compaction->requested
                                      : i.completion > compaction->requested && i.requested != compaction->requested) {
        since.push_back(&i);
      }
    }
    if (compaction != nullptr || !since.empty()) {
      const Inst* anchor = compaction != nullptr ? compaction : since.front();
      bounds.push_back(since.size() < 5 ? anchor->requested : since[since.size() - 5]->requested);
    }
  }
  if (fs::exists(root / ".hoodie" / "metadata" / ".hoodie" / "hoodie.properties")) {
    const fs::path mdt = root / ".hoodie" / "metadata" / ".hoodie";
    std::string latest;
    for (const auto& i : instants_of(layout2 ? mdt / "timeline" : mdt)) {
      if (i.completed && (i.action == "commit" || i.action == "replacecommit")) latest = i.requested;
    }
    if (latest.empty()) return {};
    if (!layout2) std::erase_if(out, [&](const std::string& r) { return r >= latest; });
    if (layout2) {
      for (const Inst* c : commits) {
        if (c->completion > latest && c->requested != latest) {
          bounds.push_back(c->requested);
          break;
        }
      }
    } else {
      bounds.push_back(latest);
    }
  }
  std::vector<std::string> archived_commits;
  for (const Inst* c : commits) {
    if (commits.size() <= max_keep || archived_commits.size() >= commits.size() - min_keep) break;
    if (std::any_of(bounds.begin(), bounds.end(), [&](const std::string& b) { return c->requested >= b; })) break;
    archived_commits.push_back(c->requested);
  }
  // Layout 2: rollbacks before the newest archived commit.
  if (layout2 && !archived_commits.empty()) {
    for (const Inst* r : rollbacks) {
      if (r->requested < archived_commits.back()) out.push_back(r->requested);
    }
  }
  out.insert(out.end(), archived_commits.begin(), archived_commits.end());
  std::sort(out.begin(), out.end());
  return out;
}

struct ToolArchive {
  std::vector<std::string> archived;
  std::vector<std::string> archived_actions;
  std::size_t kept_without_reason = 0;
  std::int64_t min_keep = 0;
};

ToolArchive run_plan_archive(const fs::path& root, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"plan", "archive", root.string(), "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const tool_result r = run_tool(args);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  json_doc doc(r.out);
  ToolArchive a;
  for (auto e : doc.root["archived"].get_array()) {
    a.archived.push_back(str(e["requested"]));
    a.archived_actions.push_back(str(e["action"]) + "/" + str(e["state"]));
  }
  for (auto e : doc.root["kept"].get_array()) {
    if (e["reasons"].get_array().size() == 0) ++a.kept_without_reason;
  }
  a.min_keep = doc.root["min_commits_to_keep"].get_int64().value();
  return a;
}

bool is_mor(const fs::path& root) {
  const std::string props = slurp(root / ".hoodie" / "hoodie.properties");
  return props.find("hoodie.table.type=MERGE_ON_READ") != std::string::npos;
}

}  // namespace

TEST_CASE("plan archive: keep.min 1 / max 2 with a cleaner retaining 1, against the instant files") {
  std::size_t archiving = 0;
  for (const auto& table : corpus_tables()) {
    CAPTURE(table);
    const fs::path root = unzipped(table);
    const auto want = expected_archived(root, is_mor(root));
    const ToolArchive got =
        run_plan_archive(root, {"--conf", "hoodie.keep.min.commits=1", "--conf", "hoodie.keep.max.commits=2", "--conf",
                                "hoodie.clean.commits.retained=1"});
    // The cleaner's earliest commit to retain is the newest commit once there are two:
    // keep.min rises to 0 + 2.
    const bool layout2 = fs::is_directory(root / ".hoodie" / "timeline");
    const auto tl = instants_of(layout2 ? root / ".hoodie" / "timeline" : root / ".hoodie");
    CHECK(got.min_keep == (std::count_if(tl.begin(), tl.end(), is_commit) > 1 ? 2 : 1));
    CHECK(got.archived == want);
    for (const auto& a : got.archived_actions) {
      CHECK((a == "commit/completed" || a == "deltacommit/completed" || a == "replacecommit/completed" ||
             a == "rollback/completed"));
    }
    CHECK(got.kept_without_reason == 0);
    archiving += want.empty() ? 0 : 1;
  }
  // The test means something only if some table archives something.
  CHECK(archiving >= 2);
}

TEST_CASE("plan archive: Hudi's defaults (20 / 30, cleaner retaining 10) archive nothing on tables this small") {
  for (const auto& table : corpus_tables()) {
    CAPTURE(table);
    const fs::path root = unzipped(table);
    const ToolArchive got = run_plan_archive(root, {});
    CHECK(got.archived.empty());
    CHECK(got.min_keep >= 20);
  }
}

TEST_CASE("plan archive: bad settings are errors naming the key, exit code 2") {
  const fs::path root = unzipped(corpus_tables().front());
  for (const auto& [conf, key] : std::vector<std::pair<std::string, std::string>>{
           {"hoodie.keep.min.comits=2", "hoodie.keep.min.comits"},
           {"hoodie.keep.max.commits=2", "hoodie.keep.max.commits"},
           {"hoodie.archive.beyond.savepoint=maybe", "hoodie.archive.beyond.savepoint"}}) {
    CAPTURE(conf);
    const tool_result r = run_tool({"plan", "archive", root.string(), "--conf", conf});
    CHECK(r.code == 2);
    CHECK(r.err.find(key) != std::string::npos);
  }
  const tool_result missing = run_tool({"plan", "archive", (root / "nope").string()});
  CHECK(missing.code == 2);
  const tool_result props =
      run_tool({"plan", "archive", root.string(), "--props", (root / "missing.properties").string()});
  CHECK(props.code == 2);
  CHECK(props.err.find("missing.properties") != std::string::npos);
}

}  // namespace lakegc::tests::archive_corpus_test
