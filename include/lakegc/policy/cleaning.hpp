// File: lakegc/policy/cleaning.hpp
// -----------------------------------------------------------------------------
// lakegc::cleaning(stages...) composes a cleaning policy at compile time
// from one retention rule, guards and scopes, in any order:
//
//     auto policy = lakegc::cleaning(lakegc::keep_latest_commits{10},
//                                    lakegc::guard::savepoints,
//                                    lakegc::guard::pending_table_services,
//                                    lakegc::scope::incremental);
//
// The stages live in a boost::hana::tuple; the combination is checked while
// compiling, and each message says how to fix the call:
//
// * exactly one retention rule (combine several with any_of / all_of);
// * scope::incremental excludes scope::partition_filter (Hudi validates the
//   same) and keep_latest_file_versions (Hudi silently falls back to a full
//   scan; lakegc refuses, because the next clean could never be incremental);
// * guard::savepoints and guard::pending_table_services are present unless
//   the call says lakegc::unguarded.
//
// The result models CleaningPolicy, the interface the planner uses; the
// runtime form (lakegc::config::from_properties) models it too.
#pragma once

#include <string>
#include <type_traits>

#include <boost/hana.hpp>

#include "lakegc/policy/guards.hpp"
#include "lakegc/policy/retention.hpp"
#include "lakegc/policy/scope.hpp"

namespace lakegc {

/// What the planner needs of a policy, however it was built.
template <typename P>
concept CleaningPolicy = requires(const P& p, const RetentionContext& rc, const SliceGuardContext& gc) {
  { p.retention(rc) } -> std::same_as<Retention>;
  { p.guards() } -> std::same_as<GuardFlags>;
  { p.scope() } -> std::same_as<ScopeSettings>;
  { p.name() } -> std::convertible_to<std::string>;
  { p.user_guards_protect(gc) } -> std::convertible_to<bool>;
};

namespace detail {
namespace hana = boost::hana;

template <typename T>
constexpr bool is_scope_v = requires { requires T::is_scope; };
template <typename T>
constexpr bool is_builtin_guard_v = requires { requires T::is_builtin_guard; };

constexpr auto is_rule = [](auto t) { return hana::bool_c<RetentionRule<typename decltype(t)::type>>; };
constexpr auto is_user_guard = [](auto t) { return hana::bool_c<SliceGuard<typename decltype(t)::type>>; };

template <typename R>
constexpr bool is_file_versions_v = std::is_same_v<R, keep_latest_file_versions>;
// A file-versions rule anywhere inside a combinator also makes incremental
// scope meaningless.
template <typename A, typename B>
constexpr bool is_file_versions_v<any_of_t<A, B>> = is_file_versions_v<A> || is_file_versions_v<B>;
template <typename A, typename B>
constexpr bool is_file_versions_v<all_of_t<A, B>> = is_file_versions_v<A> || is_file_versions_v<B>;
}  // namespace detail

template <typename... Stages>
class cleaning_policy {
 public:
  constexpr explicit cleaning_policy(Stages... stages) : stages_(stages...) {}

  Retention retention(const RetentionContext& ctx) const {
    namespace hana = boost::hana;
    Retention out;
    hana::for_each(stages_, [&](const auto& stage) {
      using S = std::decay_t<decltype(stage)>;
      if constexpr (RetentionRule<S>) out = stage.retention(ctx);
    });
    return out;
  }

  GuardFlags guards() const {
    GuardFlags g;
    g.savepoints = has<guard::savepoints_t>;
    g.pending_table_services = has<guard::pending_table_services_t>;
    g.reader_leases = has<guard::reader_leases_t>;
    return g;
  }

  ScopeSettings scope() const {
    namespace hana = boost::hana;
    ScopeSettings s;
    hana::for_each(stages_, [&](const auto& stage) {
      using S = std::decay_t<decltype(stage)>;
      if constexpr (std::is_same_v<S, scope::incremental_t>) s.incremental = true;
      if constexpr (std::is_same_v<S, scope::partition_filter>) {
        s.selected_partitions = stage.selected;
        s.partition_regex = stage.regex;
      }
      if constexpr (std::is_same_v<S, scope::max_commits_to_clean>) s.max_commits_to_clean = stage.commits;
      if constexpr (std::is_same_v<S, scope::empty_clean_interval>) s.empty_clean_interval_hours = stage.hours;
      if constexpr (std::is_same_v<S, scope::trigger_max_commits>) s.trigger_max_commits = stage.commits;
    });
    return s;
  }

  std::string name() const {
    namespace hana = boost::hana;
    std::string n;
    hana::for_each(stages_, [&](const auto& stage) {
      using S = std::decay_t<decltype(stage)>;
      if constexpr (RetentionRule<S>) n = S::hudi_name();
    });
    return n;
  }

  bool user_guards_protect(const SliceGuardContext& c) const {
    namespace hana = boost::hana;
    bool protect = false;
    hana::for_each(stages_, [&](const auto& stage) {
      using S = std::decay_t<decltype(stage)>;
      if constexpr (SliceGuard<S>) protect = protect || static_cast<bool>(stage.protects(c));
    });
    return protect;
  }

  /// The stages, for code that inspects a policy.
  const boost::hana::tuple<Stages...>& stages() const noexcept { return stages_; }

 private:
  template <typename T>
  static constexpr bool has = (std::is_same_v<Stages, T> || ...);
  boost::hana::tuple<Stages...> stages_;
};

/// Composes a cleaning policy; see the file comment for the rules checked.
template <typename... Stages>
constexpr auto cleaning(Stages... stages) {
  namespace hana = boost::hana;
  constexpr auto types = hana::tuple_t<Stages...>;
  constexpr std::size_t rule_count = decltype(hana::count_if(types, detail::is_rule))::value;
  static_assert(rule_count == 1,
                "lakegc::cleaning(...) needs exactly one retention rule: pass one of keep_latest_commits{n}, "
                "keep_latest_file_versions{n} or keep_by_hours{h}, and combine rules with any_of(a, b) or "
                "all_of(a, b)");
  constexpr bool incremental = (std::is_same_v<Stages, scope::incremental_t> || ...);
  constexpr bool filtered = (std::is_same_v<Stages, scope::partition_filter> || ...);
  static_assert(!(incremental && filtered),
                "lakegc::cleaning(...): scope::partition_filter restricts a full scan; drop scope::incremental "
                "or the partition filter");
  constexpr bool versions = (detail::is_file_versions_v<Stages> || ...);
  static_assert(!(incremental && versions),
                "lakegc::cleaning(...): keep_latest_file_versions has no boundary to clean incrementally from; "
                "drop scope::incremental (Hudi silently falls back to a full scan, lakegc refuses)");
  constexpr bool unguarded_call = (std::is_same_v<Stages, unguarded_t> || ...);
  constexpr bool savepoint_guard = (std::is_same_v<Stages, guard::savepoints_t> || ...);
  constexpr bool pending_guard = (std::is_same_v<Stages, guard::pending_table_services_t> || ...);
  static_assert(unguarded_call || (savepoint_guard && pending_guard),
                "lakegc::cleaning(...) without guard::savepoints or guard::pending_table_services deletes files "
                "that savepoints or pending compactions need: add both guards, or pass lakegc::unguarded to "
                "say it is on purpose");
  constexpr bool all_known = ((RetentionRule<Stages> || SliceGuard<Stages> || detail::is_scope_v<Stages> ||
                               detail::is_builtin_guard_v<Stages> || std::is_same_v<Stages, unguarded_t>)&&...);
  static_assert(all_known,
                "lakegc::cleaning(...) takes retention rules, guards (lakegc::guard::*, or a type modelling "
                "SliceGuard), scopes (lakegc::scope::*) and lakegc::unguarded; one argument is none of these");
  return cleaning_policy<Stages...>(stages...);
}

/// Hudi's defaults: keep_latest_commits{10}, both guards, incremental.
inline auto default_cleaning() {
  return cleaning(keep_latest_commits{10}, guard::savepoints, guard::pending_table_services, scope::incremental);
}

}  // namespace lakegc
