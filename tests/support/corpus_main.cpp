// doctest main for suites that need the real Hudi tables: when the corpus
// folder is absent it says so and exits 77, which Meson reports as skipped.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

#include "corpus.hpp"

int main(int argc, char** argv) {
  if (!lakegc::testing::corpus_available()) {
    std::printf("SKIP: Hudi corpus not found at %s (set LAKEGC_CORPUS or place ../shared/data/hudi)\n",
                lakegc::testing::corpus_root().string().c_str());
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
