// File: lakegc/hudi/plan_paths.hpp
// -----------------------------------------------------------------------------
// The paths of a clean plan (filePathsToBeDeletedPerPartition) resolved to
// names inside their partition, whoever wrote the plan and from where.
#pragma once

#include <string>
#include <string_view>

#include <fmt/format.h>

#include "lakegc/core/status.hpp"
#include "lakegc/hudi/table_location.hpp"

namespace lakegc::hudi {

// The name of the file a plan path points at inside `partition`: bare
// names (version 1 plans), paths relative to the table, paths under our
// base path, and absolute paths or URIs from the machine that wrote the
// plan, whose folder must end with the partition.
[[nodiscard]] inline StatusOr<std::string> name_in_partition(const TableLocation& table, std::string_view partition,
                                                             std::string_view path, std::string_view where) {
  auto refuse = [&](std::string_view why) {
    return absl::InvalidArgumentError(
        fmt::format("{}: filePathsToBeDeletedPerPartition[\"{}\"]: path '{}' {}", where, partition, path, why));
  };
  const auto slash = path.rfind('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (name.empty() || name == "." || name == "..") return refuse("does not name a file");
  if (slash == std::string_view::npos) return std::string(name);
  const std::string_view dir = path.substr(0, slash);
  const std::string prefix = table.base_path.empty() ? std::string() : table.base_path + "/";
  std::string_view rel_dir;
  bool known_dir = false;
  if (!prefix.empty() && path.substr(0, prefix.size()) == prefix) {
    const std::string_view rel = path.substr(prefix.size());
    const auto rel_slash = rel.rfind('/');
    rel_dir = rel_slash == std::string_view::npos ? std::string_view() : rel.substr(0, rel_slash);
    known_dir = true;
  } else if (path.front() != '/' && path.find(':') == std::string_view::npos) {
    rel_dir = dir;  // relative to the table root
    known_dir = true;
  }
  if (known_dir) {
    if (rel_dir != partition) return refuse("is not in that partition");
    return std::string(name);
  }
  // Foreign absolute path: only its tail can be checked.
  if (!partition.empty()) {
    const bool tail = dir.size() > partition.size() && dir.substr(dir.size() - partition.size()) == partition &&
                      dir[dir.size() - partition.size() - 1] == '/';
    if (!tail) return refuse("is not in that partition");
  }
  return std::string(name);
}

}  // namespace lakegc::hudi
