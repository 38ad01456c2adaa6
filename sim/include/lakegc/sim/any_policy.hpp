// File: lakegc/sim/any_policy.hpp
// -----------------------------------------------------------------------------
// any_policy: a type-erased CleaningPolicy.
//
// lakegc composes policies at compile time, so every combination of stages
// is its own type. The simulator picks the policy under test from a seed at
// run time (and lakegc::sim::verify takes whatever a user composed), so the World
// holds one any_policy instead of being a template over every policy type.
// The planner sees an ordinary CleaningPolicy; one virtual call per stage
// query costs nothing next to planning.
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "lakegc/policy/cleaning.hpp"

namespace lakegc::sim {

class any_policy {
 public:
  template <CleaningPolicy P>
    requires(!std::same_as<std::decay_t<P>, any_policy>)
  explicit any_policy(P policy, std::string label = {})
      : impl_(std::make_shared<model<P>>(std::move(policy))), label_(std::move(label)) {
    if (label_.empty()) label_ = impl_->name();
  }

  Retention retention(const RetentionContext& ctx) const { return impl_->retention(ctx); }
  GuardFlags guards() const { return impl_->guards(); }
  ScopeSettings scope() const { return impl_->scope(); }
  std::string name() const { return impl_->name(); }
  bool user_guards_protect(const SliceGuardContext& c) const { return impl_->user_guards_protect(c); }

  /// How reports name this policy (e.g. "KEEP_LATEST_COMMITS n=10 incremental").
  const std::string& label() const noexcept { return label_; }
  /// The same policy under another label.
  any_policy relabeled(std::string label) const {
    any_policy p = *this;
    p.label_ = std::move(label);
    return p;
  }

 private:
  struct concept_t {
    virtual ~concept_t() = default;
    virtual Retention retention(const RetentionContext&) const = 0;
    virtual GuardFlags guards() const = 0;
    virtual ScopeSettings scope() const = 0;
    virtual std::string name() const = 0;
    virtual bool user_guards_protect(const SliceGuardContext&) const = 0;
  };
  template <typename P>
  struct model final : concept_t {
    explicit model(P p) : policy(std::move(p)) {}
    Retention retention(const RetentionContext& ctx) const override { return policy.retention(ctx); }
    GuardFlags guards() const override { return policy.guards(); }
    ScopeSettings scope() const override { return policy.scope(); }
    std::string name() const override { return std::string(policy.name()); }
    bool user_guards_protect(const SliceGuardContext& c) const override {
      return static_cast<bool>(policy.user_guards_protect(c));
    }
    P policy;
  };

  std::shared_ptr<const concept_t> impl_;
  std::string label_;
};

static_assert(CleaningPolicy<any_policy>);

}  // namespace lakegc::sim
