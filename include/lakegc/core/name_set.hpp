// File: lakegc/core/name_set.hpp
// -----------------------------------------------------------------------------
// A set of names whose text lives in one arena: the file names savepoints
// list, which on a large table are a million or more.
//
// Why: a set of std::string allocates once per name (they are longer than
// the small-string buffer) and frees once per name when the view goes. The
// savepointed names of a 1M-file table were about a sixth of load_view,
// most of it those allocations (bench/README.md, load_view). Here a name is
// copied once into a TextArena and the set holds views of it.
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>

#include "lakegc/core/name_hash.hpp"
#include "lakegc/core/prefaulted.hpp"

namespace lakegc {

class NameSet {
 public:
  NameSet() = default;
  NameSet(NameSet&&) noexcept = default;
  NameSet& operator=(NameSet&&) noexcept = default;
  /// A copy has its own arena: views into the source's would dangle.
  NameSet(const NameSet& o) {
    names_.reserve(o.names_.size());
    for (std::string_view n : o.names_) names_.insert(text_.copy(n));
  }
  NameSet& operator=(const NameSet& o) {
    if (this != &o) *this = NameSet(o);
    return *this;
  }
  ~NameSet() = default;

  void insert(std::string_view name) {
    if (!names_.contains(name)) names_.insert(text_.copy(name));
  }
  bool contains(std::string_view name) const { return names_.contains(name); }
  /// Room for `n` names in all, so a savepoint of a million files does not
  /// rehash the set as it grows.
  void reserve(std::size_t n) { names_.reserve(n); }
  bool empty() const noexcept { return names_.empty(); }
  std::size_t size() const noexcept { return names_.size(); }
  void clear() { *this = NameSet(); }

 private:
  // Declared first, so it outlives the views in names_.
  TextArena text_;
  NameViewSet names_;
};

}  // namespace lakegc
