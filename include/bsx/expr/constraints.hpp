// bsx/expr/constraints.hpp: what the operators, functions and array constructors ask of
// their arguments in their signatures, with one concept for each reason to refuse. The
// entry points select a deleted overload per reason, so `requires` and the type traits
// answer false and the compiler quotes the reason (detail/refusals.hpp), before anything
// is instantiated.
#pragma once

#include <concepts>
#include <cstddef>
#include <type_traits>

#include "expression.hpp"
#include "static_extents.hpp"
#include "with_rules.hpp"

namespace bsx::detail {

/// The element type an operand brings: an expression's value_type, a scalar's own type.
template <class X>
struct element_of {
    using type = std::remove_cvref_t<X>;
};
template <expression X>
struct element_of<X> {
    using type = value_type_t<X>;
};
template <class X>
using element_t = typename element_of<X>::type;

/// A call that concerns bsx: at least one argument is a bsx expression.
template <class... X>
concept involves_expression = (expression<X> || ...);

/// Op is defined for the operands' element types (`%` and the bitwise operations are
/// constrained to integers in the operation table).
template <class Op, class... X>
concept accepts_element_types = std::invocable<const Op&, element_t<X>...>;

// The reasons an element-wise call is refused, each one assuming the ones above it pass,
// so that exactly one applies.
template <class... X>
concept has_non_numeric_operand = involves_expression<X...> && !(operand<X> && ...);
template <class... X>
concept mixes_rule_sets = involves_expression<X...> && (operand<X> && ...) && !one_rule_set<X...>;
template <class... X>
concept needs_broadcast_dimensions =
    involves_expression<X...> && (operand<X> && ...) && one_rule_set<X...> && !ranks_align<X...>;
template <class Op, class... X>
concept rejects_element_types =
    involves_expression<X...> && (operand<X> && ...) && combinable<X...> && !accepts_element_types<Op, X...>;

/// Operands that `Op` combines into one node.
template <class Op, class... X>
concept forms_node =
    involves_expression<X...> && (operand<X> && ...) && combinable<X...> && accepts_element_types<Op, X...>;

/// The static broadcast of operands that may form one node (expr/static_extents.hpp).
/// (Operands with two tags are refused for that reason; numpy_rules stands in for them.)
template <class... X>
inline constexpr auto static_broadcast_of =
    static_broadcast<std::conditional_t<one_rule_set<X...>, rules_or_default_t<common_tag_t<X...>>, numpy_rules>>(
        static_extents_of<X>()...);

/// Operands that would form a node but have known extents that cannot be broadcast on
/// some axis (checked only when an operand has a known extent, to keep builds cheap).
template <class... X>
concept static_extents_clash = any_static_axis<X...>() && static_broadcast_of<X...>.clashes();

/// The type naming the axis and the two extents of such a clash; the deleted overload
/// that a clash selects carries it as a template argument, so the compiler prints it.
template <class... X>
using static_clash_t =
    static_extents_cannot_be_broadcast<on_axis<static_broadcast_of<X...>.clash_axis>,
                                       extents<static_broadcast_of<X...>.left, static_broadcast_of<X...>.right>>;

/// Operands that `Op` combines into one node, known extents included.
template <class Op, class... X>
concept forms_static_node = forms_node<Op, X...> && !static_extents_clash<X...>;
template <class Op, class... X>
concept clashes_statically = forms_node<Op, X...> && static_extents_clash<X...>;

/// A source X whose known extents do not fit the known extents of destination D (the
/// static form of check_broadcast_to), and the type naming the axis and both extents.
template <class D, class X>
inline constexpr auto static_fit_of =
    static_fit<rules_or_default_t<rules_tag_t<X>>>(static_extents_of<D>(), static_extents_of<X>());
template <class D, class X>
concept static_extents_misfit = expression<D> && operand<X> && operand_rank<X>() <= rank_v<D> && ranks_align<D, X> &&
                                any_static_axis<D>() && any_static_axis<X>() && static_fit_of<D, X>.clashes();
template <class D, class X>
using static_misfit_t =
    static_extents_cannot_be_broadcast<on_axis<static_fit_of<D, X>.clash_axis>,
                                       extents<static_fit_of<D, X>.left, static_fit_of<D, X>.right>>;

/// An expression whose static rank is N (what initializes or is assigned to a rank-N array).
template <class E, std::size_t N>
concept expression_of_rank = expression<E> && rank_v<E> == N;
template <class E, std::size_t N>
concept expression_of_other_rank = expression<E> && rank_v<E> != N;

}  // namespace bsx::detail
