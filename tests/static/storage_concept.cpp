// Compile-only checks of the Storage concept (lakegc/storage/storage.hpp):
// the shipped models satisfy it, a minimal hand-written model satisfies it,
// and near-misses (each one requirement off) do not. Building this file is
// the test.
#include <concepts>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lakegc/storage/memory_storage.hpp"
#include "lakegc/storage/posix_storage.hpp"
#include "lakegc/storage/storage.hpp"

namespace lakegc::static_checks {
namespace {

// --- Shipped models -----------------------------------------------------------

static_assert(Storage<memory_storage>);
static_assert(Storage<posix_storage>);
// Called on non-const lvalues only: adapters count, connect and inject
// faults even when listing.
static_assert(!Storage<const memory_storage>);
// posix_storage owns its root descriptor.
static_assert(std::movable<posix_storage> && !std::copyable<posix_storage>);

// --- The smallest thing that is a Storage (what a user's S3 adapter starts as)

struct minimal_storage {
  template <typename Visitor>
  Status list(std::string_view dir, Visitor&& visit, const ListOptions& = {}) {
    if (!dir.empty()) return absl::NotFoundError("no directories");
    visit(FileEntry{"only", 0, 0});
    return Status();
  }
  StatusOr<FileInfo> stat(std::string_view) { return absl::NotFoundError("stat"); }
  StatusOr<std::string> read(std::string_view) { return absl::NotFoundError("read"); }
  Status write_if_absent(std::string_view, std::string_view) { return absl::UnimplementedError("w"); }
  Status remove(std::string_view) { return absl::NotFoundError("remove"); }
  std::vector<Status> remove_batch(std::span<const std::string> paths) {
    return std::vector<Status>(paths.size(), absl::NotFoundError("remove"));
  }
};
static_assert(Storage<minimal_storage>);

// A type-erased list (no template) is a model too: the archetype visitor
// converts to std::function.
struct type_erased_list : minimal_storage {
  Status list(std::string_view, std::function<void(const FileEntry&)>, const ListOptions& = {});
};
static_assert(Storage<type_erased_list>);

// A generic lambda, the usual caller, is accepted by the models.
static_assert(requires(memory_storage& s) { s.list("", [](const auto&) {}); });
static_assert(requires(minimal_storage& s) { s.list("", [](const auto&) {}); });

// --- Near-misses: one requirement off each -------------------------------------
// Derived members hide the base's, so each differs from minimal_storage in
// exactly the member shown.

// remove() reporting bool cannot tell "missing" from "failed".
struct remove_returns_bool : minimal_storage {
  bool remove(std::string_view);
};
static_assert(!Storage<remove_returns_bool>);
static_assert(!MutableStorage<remove_returns_bool>);
static_assert(ListableStorage<remove_returns_bool> && ReadableStorage<remove_returns_bool>);

// A listing without a visitor means a whole-table vector in memory.
struct list_without_visitor : minimal_storage {
  StatusOr<std::vector<FileInfo>> list(std::string_view, const ListOptions& = {});
};
static_assert(!Storage<list_without_visitor>);
static_assert(!ListableStorage<list_without_visitor>);

// A bare FileInfo converts to StatusOr<FileInfo> but cannot say NotFound:
// the exact return type is required.
struct stat_without_statusor : minimal_storage {
  FileInfo stat(std::string_view);
};
static_assert(std::convertible_to<FileInfo, StatusOr<FileInfo>>);  // why same_as is used
static_assert(!Storage<stat_without_statusor>);
static_assert(!ReadableStorage<stat_without_statusor>);

// read() without a status: same problem.
struct read_returns_string : minimal_storage {
  std::string read(std::string_view);
};
static_assert(!Storage<read_returns_string>);

// A write that overwrites (no status) cannot report AlreadyExists.
struct write_returns_void : minimal_storage {
  void write_if_absent(std::string_view, std::string_view);
};
static_assert(!Storage<write_returns_void>);

// One status for a whole batch loses which path failed.
struct batch_returns_one_status : minimal_storage {
  Status remove_batch(std::span<const std::string>);
};
static_assert(!Storage<batch_returns_one_status>);

// A visitor that must return something (e.g. bool to stop) is not what
// callers pass.
struct list_visitor_must_return_bool : minimal_storage {
  Status list(std::string_view, std::function<bool(const FileEntry&)>, const ListOptions& = {});
};
static_assert(!Storage<list_visitor_must_return_bool>);

// ListOptions must be optional: most callers list everything.
struct list_options_required : minimal_storage {
  template <typename Visitor>
  Status list(std::string_view, Visitor&&, const ListOptions&);
};
static_assert(!Storage<list_options_required>);

// Every member is required: the concept supplies no defaults.
struct no_remove_batch {
  template <typename Visitor>
  Status list(std::string_view, Visitor&&, const ListOptions& = {});
  StatusOr<FileInfo> stat(std::string_view);
  StatusOr<std::string> read(std::string_view);
  Status write_if_absent(std::string_view, std::string_view);
  Status remove(std::string_view);
};
static_assert(!Storage<no_remove_batch>);

}  // namespace
}  // namespace lakegc::static_checks
