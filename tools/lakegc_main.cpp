// The `lakegc` command-line tool; the commands live in tools/cli/ so the
// demo and the tests call the same code.
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/huge_pages.hpp"

int main(int argc, char** argv) {
  lakegc::cli::restart_with_huge_pages(argv);
  const std::vector<std::string> args(argv + 1, argv + argc);
  return lakegc::cli::run(args);
}
