// The `lakegc` command-line tool; the commands live in tools/cli/ so the
// demo and the tests call the same code.
#include <string>
#include <vector>

#include "cli/commands.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return lakegc::cli::run(args);
}
