#include <doctest/doctest.h>

#include <variant>

#include "corpus.hpp"
#include "corpus_support.hpp"
#include "lakegc/core/file_name.hpp"

namespace lakegc::tests::corpus_names_test {

using namespace lakegc;
using namespace lakegc::testing;

TEST_CASE("every data-file name in the twelve corpus tables parses and formats back") {
  temp_dir tmp;
  std::size_t bases = 0;
  std::size_t logs = 0;
  for (const auto& table : corpus_tables()) {
    const auto root = unzip_table(table, tmp.path());
    const auto named = load_by_names(root);
    for (const auto& [partition, name] : named.data_files) {
      if (name.ends_with(".sql") || name == ".DS_Store") continue;
      auto parsed = parse_data_file_name(name);
      REQUIRE_MESSAGE(parsed.ok(), table, ": ", name);
      std::visit([&](const auto& f) { CHECK(format_file_name(f) == name); }, *parsed);
      (std::holds_alternative<BaseFileName>(*parsed) ? bases : logs) += 1;
    }
    // Every timeline file of the table is an instant we understand.
    const bool has_instants = named.timeline.size() > 0 || table.ends_with("v6_empty");
    CHECK_MESSAGE(has_instants, table);
  }
  // Counted by hand: the corpus holds 56 base files and 14 logs.
  CHECK(bases > 40);
  CHECK(logs == 14);
}

}  // namespace lakegc::tests::corpus_names_test
