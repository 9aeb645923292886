// bsx/expr/constraints.hpp: what the operators, functions and array constructors ask of
// their arguments in their signatures, with one concept for each reason to refuse. The
// entry points select a deleted overload per reason, so `requires` and the type traits
// answer false and the compiler quotes the line stating the reason, before anything is
// instantiated.
#pragma once

#include <concepts>
#include <cstddef>
#include <type_traits>

#include "expression.hpp"
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

/// An expression whose static rank is N (what initializes or is assigned to a rank-N array).
template <class E, std::size_t N>
concept expression_of_rank = expression<E> && rank_v<E> == N;
template <class E, std::size_t N>
concept expression_of_other_rank = expression<E> && rank_v<E> != N;

}  // namespace bsx::detail
