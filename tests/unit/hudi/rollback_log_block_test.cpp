// The rollback command block of a table-version-6 rollback
// (hudi/rollback_log_block.hpp) on a table in memory: the new log file's
// name (latest version + 1 with the latest's write token, version 1 and
// 1-0-1 with no log file, the next free version when a name is taken), its
// one block, the APPEND marker written before it, and a rerun reusing only
// a file that holds exactly its block.
#include "lakegc/hudi/rollback_log_block.hpp"

#include <doctest/doctest.h>

#include <string>

#include "lakegc/hudi/log/read_blocks.hpp"
#include "lakegc/storage/memory_storage.hpp"

namespace lakegc::tests::rollback_log_block_test {

using namespace lakegc::hudi;
using lakegc::InstantTime;

namespace {

InstantTime t(std::string_view s) { return InstantTime::parse(s).value(); }

const InstantTime kBase = t("20240101000000000");
const InstantTime kFailed = t("20240102000000000");
const InstantTime kRollback = t("20240102000000500");
const std::string kGroup = "f1-0";

std::string log_name(int version, std::string_view token, const InstantTime& base = kBase,
                     const std::string& group = kGroup) {
  return fmt::format(".{}_{}.log.{}_{}", group, base, version, token);
}

StatusOr<RollbackLogFile> write(memory_storage& st, std::string_view partition = "p") {
  return write_rollback_log_block(st, kRollback, kFailed, kRollback.str(), partition, kGroup, kBase);
}

}  // namespace

TEST_CASE("the new log file: the group's latest version + 1 with its write token, one rollback block") {
  memory_storage st;
  REQUIRE(st.write_if_absent("p/" + log_name(1, "0-1-1"), "x").ok());
  REQUIRE(st.write_if_absent("p/" + log_name(3, "2-7-9"), "x").ok());           // the latest, appended to by kFailed
  REQUIRE(st.write_if_absent("p/" + log_name(9, "0-1-1", kFailed), "x").ok());  // another slice
  REQUIRE(st.write_if_absent("p/" + log_name(9, "0-1-1", kBase, "g2-0"), "x").ok());  // another group
  REQUIRE(st.write_if_absent("p/" + log_name(8, "0-1-1") + ".cdc", "x").ok());        // a CDC log
  auto f = write(st);
  REQUIRE_MESSAGE(f.ok(), f.status().ToString());
  CHECK(f->path == "p/" + log_name(4, "2-7-9"));
  CHECK_FALSE(f->reused);
  auto bytes = st.read(f->path);
  REQUIRE(bytes.ok());
  CHECK(f->size == bytes->size());
  auto blocks = log::read_blocks(*bytes, f->path);
  REQUIRE(blocks.ok());
  REQUIRE(blocks->size() == 1);
  auto c = log::decode_command(blocks->front(), f->path);
  REQUIRE(c.ok());
  CHECK(c->target_instant_time == kFailed.str());
  CHECK(c->instant_time == kRollback.str());
  CHECK(st.stat(".hoodie/.temp/" + kRollback.str() + "/p/" + log_name(4, "2-7-9") + ".marker.APPEND").ok());
}

TEST_CASE("no log file of the slice: version 1 with Hudi's unknown write token; a taken name rolls over") {
  memory_storage st;
  auto f = write(st);
  REQUIRE(f.ok());
  CHECK(f->path == "p/" + log_name(1, "1-0-1"));

  memory_storage taken;
  REQUIRE(taken.write_if_absent("p/" + log_name(2, "0-1-1"), "x").ok());
  REQUIRE(taken.write_if_absent("q/" + log_name(3, "0-1-1"), "x").ok());  // another partition: not listed
  auto g = write(taken);
  REQUIRE(g.ok());
  CHECK(g->path == "p/" + log_name(3, "0-1-1"));
}

TEST_CASE("a rerun reuses the file its own marker names only when it holds exactly its rollback block") {
  memory_storage st;
  REQUIRE(st.write_if_absent("p/" + log_name(1, "0-1-1"), "x").ok());
  auto first = write(st);
  REQUIRE(first.ok());
  auto again = write(st);
  REQUIRE(again.ok());
  CHECK(again->reused);
  CHECK(again->path == first->path);

  // A marker of this rollback naming a file that is not its block (a name
  // someone else took between the marker and the write): not reused.
  memory_storage other;
  REQUIRE(other.write_if_absent("p/" + log_name(1, "0-1-1"), "x").ok());
  REQUIRE(
      other.write_if_absent(".hoodie/.temp/" + kRollback.str() + "/p/" + log_name(1, "0-1-1") + ".marker.APPEND", "")
          .ok());
  auto fresh = write(other);
  REQUIRE(fresh.ok());
  CHECK_FALSE(fresh->reused);
  CHECK(fresh->path == "p/" + log_name(2, "0-1-1"));

  // A crash after the marker, before the file: the rerun writes that file.
  memory_storage crashed;
  REQUIRE(crashed.write_if_absent("p/" + log_name(1, "0-1-1"), "x").ok());
  REQUIRE(
      crashed.write_if_absent(".hoodie/.temp/" + kRollback.str() + "/p/" + log_name(2, "0-1-1") + ".marker.APPEND", "")
          .ok());
  auto resumed = write(crashed);
  REQUIRE(resumed.ok());
  CHECK_FALSE(resumed->reused);
  CHECK(resumed->path == "p/" + log_name(2, "0-1-1"));
}

TEST_CASE("a non-partitioned table: the file and its marker at the table's root") {
  memory_storage st;
  REQUIRE(st.write_if_absent(log_name(5, "0-1-1"), "x").ok());
  auto f = write(st, "");
  REQUIRE(f.ok());
  CHECK(f->path == log_name(6, "0-1-1"));
  CHECK(st.stat(".hoodie/.temp/" + kRollback.str() + "/" + log_name(6, "0-1-1") + ".marker.APPEND").ok());
}

}  // namespace lakegc::tests::rollback_log_block_test
