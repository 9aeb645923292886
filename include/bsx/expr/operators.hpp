// bsx/expr/operators.hpp: the C++ operators on expressions, generated from the
// operation table: unary and binary (a bsx expression on at least one side, a scalar
// allowed on the other). Compound assignment evaluates: eval/compound_assignment.hpp.
#pragma once

#include <type_traits>
#include <utility>

#include "map_node.hpp"
#include "ops.hpp"

namespace bsx {

#define BSX_UNARY_OPERATOR(SYMBOL, OP)                                        \
    template <expression X>                                                   \
    auto operator SYMBOL(X&& x) {                                             \
        return detail::make_node(ops::OP{}, std::forward<X>(x));              \
    }
BSX_UNARY_OPERATOR(+, unary_plus)
BSX_UNARY_OPERATOR(-, negate)
BSX_UNARY_OPERATOR(!, logical_not_operator)
BSX_UNARY_OPERATOR(~, bit_not)
#undef BSX_UNARY_OPERATOR

// Operands that cannot meet select a deleted overload (see elementwise_function).
#define BSX_BINARY_OPERATOR(SYMBOL, OP)                                                                       \
    template <class A, class B>                                                                               \
        requires((expression<A> || expression<B>) && detail::combinable<A, B>)                               \
    auto operator SYMBOL(A&& a, B&& b) {                                                                      \
        return detail::make_node(ops::OP{}, std::forward<A>(a), std::forward<B>(b));                          \
    }                                                                                                         \
    template <class A, class B>                                                                               \
        requires((expression<A> || expression<B>) && !detail::one_rule_set<A, B>)                            \
    void operator SYMBOL(A&&, B&&) = delete; /* bsx: operands tagged with different rule sets (with_rules) cannot meet in one node */ \
    template <class A, class B>                                                                               \
        requires((expression<A> || expression<B>) && detail::one_rule_set<A, B> && !detail::ranks_align<A, B>) \
    void operator SYMBOL(A&&, B&&) = delete; /* bsx: under xla rules, operands of different rank need explicit broadcast dimensions (bsx::in_dims, or bsx::add(a, b, {dims})) */
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
