// bsx/expr/with_rules.hpp: choosing a broadcasting rule set. with_rules<R>(x) tags an
// operand; every node takes the tag of its tagged operands (numpy_rules when there is
// none) and passes it up, so one tagged leaf governs the whole expression. Operands
// with two different tags, or ranks the rule set cannot align, never form a node.
#pragma once

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "operand.hpp"
#include "../shape/rules.hpp"
#include "expression.hpp"
#include "static_extents.hpp"
#include "unary_node.hpp"

namespace bsx {

namespace detail {

/// The rule set an operand was tagged with, or void (untagged; scalars are untagged).
template <class X>
struct rules_tag_of {
    using type = void;
};
template <class X>
    requires requires { typename std::remove_cvref_t<X>::rules_tag; }
struct rules_tag_of<X> {
    using type = typename std::remove_cvref_t<X>::rules_tag;
};
template <class X>
using rules_tag_t = typename rules_tag_of<X>::type;

/// Marks a node whose operands carry two different tags.
struct conflicting_rules {};

template <class A, class B>
struct join_tags {
    using type = conflicting_rules;
};
template <class A>
struct join_tags<A, A> {
    using type = A;
};
template <class A>
struct join_tags<A, void> {
    using type = A;
};
template <class B>
struct join_tags<void, B> {
    using type = B;
};
template <>
struct join_tags<void, void> {
    using type = void;
};

template <class... Tags>
struct common_tag {
    using type = void;
};
template <class T, class... Rest>
struct common_tag<T, Rest...> {
    using type = typename join_tags<T, typename common_tag<Rest...>::type>::type;
};

/// The tag shared by operands X... (void when none is tagged).
template <class... X>
using common_tag_t = typename common_tag<rules_tag_t<X>...>::type;

template <class Tag>
using rules_or_default_t = std::conditional_t<std::is_void_v<Tag>, numpy_rules, Tag>;

/// Operands whose tags agree (at most one rule set among them).
template <class... X>
concept one_rule_set = !std::is_same_v<common_tag_t<X...>, conflicting_rules>;

/// Operands whose ranks the common rule set lines up (only xla_rules ever refuses).
template <class... X>
concept ranks_align = one_rule_set<X...> && (rules_or_default_t<common_tag_t<X...>>::aligns(
                                                 operand_rank<X>(), std::max({std::size_t{0}, operand_rank<X>()...})) &&
                                             ...);

/// Operands that may form one node.
template <class... X>
concept combinable = one_rule_set<X...> && ranks_align<X...>;

}  // namespace detail

/// The rule set that aligns an expression's axes: its tag, or numpy_rules.
template <class E>
using rules_of_t = detail::rules_or_default_t<detail::rules_tag_t<E>>;

/// An operand tagged with rule set R. Evaluation sees straight through it.
template <rule_set R, class Held>
class rules_tagged : public unary_node<rules_tagged<R, Held>, Held> {
    using base = unary_node<rules_tagged<R, Held>, Held>;
    using typename base::operand_type;

public:
    using base::operand;
    using rules_tag = R;
    using value_type = value_type_t<operand_type>;
    static constexpr std::size_t rank = rank_v<operand_type>;
    static constexpr shape_t<rank> static_extents = detail::static_extents_of<operand_type>();

    explicit rules_tagged(Held held) : base(std::move(held)) {}

    decltype(auto) shape() const noexcept { return operand().shape(); }
    value_type element(const shape_t<rank>& idx) const { return operand().element(idx); }
};

/// x, broadcast under rule set R wherever it meets other operands:
/// `img *= bsx::with_rules<bsx::octave_rules>(w)`.
template <rule_set R, operand X>
auto with_rules(X&& x) {
    return rules_tagged<R, detail::held_t<X>>(detail::hold(std::forward<X>(x)));
}

}  // namespace bsx
