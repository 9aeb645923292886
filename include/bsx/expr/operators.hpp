// bsx/expr/operators.hpp: the C++ operators on expressions, generated from the
// operation table: unary and binary (a bsx expression on at least one side, a scalar
// allowed on the other). Compound assignment evaluates: eval/compound_assignment.hpp.
#pragma once

#include <type_traits>
#include <utility>

#include "../detail/refusals.hpp"
#include "constraints.hpp"
#include "map_node.hpp"
#include "ops.hpp"

namespace bsx {

// Arguments that cannot form a node select a deleted overload, one per reason (see
// constraints.hpp), so `requires` sees the call as ill-formed and the compiler's note
// quotes the reason, whose macro names the overload (detail/refusals.hpp).
// clang-format off
#define BSX_UNARY_OPERATOR(SYMBOL, OP)                                                                        \
    template <expression X>                                                                                   \
        requires detail::accepts_element_types<ops::OP, X>                                                   \
    auto operator SYMBOL(X&& x) {                                                                             \
        return detail::make_node(ops::OP{}, std::forward<X>(x));                                              \
    }                                                                                                         \
    template <expression X>                                                                                   \
        requires(!detail::accepts_element_types<ops::OP, X>)                                                 \
    void BSX_REFUSAL_INTEGRAL_OPERANDS(operator) SYMBOL(X&&) = delete;
// clang-format on
BSX_UNARY_OPERATOR(+, unary_plus)
BSX_UNARY_OPERATOR(-, negate)
BSX_UNARY_OPERATOR(!, logical_not_operator)
BSX_UNARY_OPERATOR(~, bit_not)
#undef BSX_UNARY_OPERATOR

// clang-format off
#define BSX_BINARY_OPERATOR(SYMBOL, OP)                                                                       \
    template <class A, class B>                                                                               \
        requires detail::forms_static_node<ops::OP, A, B>                                                     \
    auto operator SYMBOL(A&& a, B&& b) {                                                                      \
        return detail::make_node(ops::OP{}, std::forward<A>(a), std::forward<B>(b));                          \
    }                                                                                                         \
    template <class A, class B, class Why = detail::static_clash_t<A, B>>                                     \
        requires detail::clashes_statically<ops::OP, A, B>                                                    \
    void BSX_REFUSAL_STATIC_CLASH(operator) SYMBOL(A&&, B&&) = delete;                                        \
    template <class A, class B>                                                                               \
        requires detail::has_non_numeric_operand<A, B>                                                        \
    void BSX_REFUSAL_NON_NUMERIC_OPERAND(operator) SYMBOL(A&&, B&&) = delete;                                 \
    template <class A, class B>                                                                               \
        requires detail::mixes_rule_sets<A, B>                                                                \
    void BSX_REFUSAL_MIXED_RULE_SETS(operator) SYMBOL(A&&, B&&) = delete;                                     \
    template <class A, class B>                                                                               \
        requires detail::needs_broadcast_dimensions<A, B>                                                     \
    void BSX_REFUSAL_XLA_RANKS(operator) SYMBOL(A&&, B&&) = delete;                                           \
    template <class A, class B>                                                                               \
        requires detail::rejects_element_types<ops::OP, A, B>                                                 \
    void BSX_REFUSAL_INTEGRAL_OPERANDS(operator) SYMBOL(A&&, B&&) = delete;
// clang-format on
BSX_BINARY_OPERATOR(+, plus)
BSX_BINARY_OPERATOR(-, minus)
BSX_BINARY_OPERATOR(*, multiplies)
BSX_BINARY_OPERATOR(/, divides)
BSX_BINARY_OPERATOR(%, modulus)
BSX_BINARY_OPERATOR(==, equal_to)
BSX_BINARY_OPERATOR(!=, not_equal_to)
BSX_BINARY_OPERATOR(<, less)
BSX_BINARY_OPERATOR(<=, less_equal)
BSX_BINARY_OPERATOR(>, greater)
BSX_BINARY_OPERATOR(>=, greater_equal)
BSX_BINARY_OPERATOR(&&, logical_and_operator)
BSX_BINARY_OPERATOR(||, logical_or_operator)
BSX_BINARY_OPERATOR(&, bit_and)
BSX_BINARY_OPERATOR(|, bit_or)
BSX_BINARY_OPERATOR(^, bit_xor)
#undef BSX_BINARY_OPERATOR

}  // namespace bsx
