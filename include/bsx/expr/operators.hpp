// bsx/expr/operators.hpp: the C++ operators on expressions, generated from the
// operation table: unary, binary (a bsx expression on at least one side, a scalar
// allowed on the other) and compound assignment into arrays and views.
#pragma once

#include <type_traits>
#include <utility>

#include "../eval/assign.hpp"
#include "constraints.hpp"
#include "map_node.hpp"
#include "ops.hpp"

namespace bsx {

namespace detail {
/// Something `+=` can write into: an array or a view of mutable elements.
template <class D>
concept writable =
    strided_expression<D> && !std::is_const_v<std::remove_pointer_t<decltype(std::declval<D&>().data())>>;
}  // namespace detail

// Arguments that cannot form a node select a deleted overload, one per reason (see
// constraints.hpp), so `requires` sees the call as ill-formed and the compiler's note
// quotes the reason written on that line.
#define BSX_UNARY_OPERATOR(SYMBOL, OP)                                                                        \
    template <expression X>                                                                                   \
        requires detail::accepts_element_types<ops::OP, X>                                                   \
    auto operator SYMBOL(X&& x) {                                                                             \
        return detail::make_node(ops::OP{}, std::forward<X>(x));                                              \
    }                                                                                                         \
    template <expression X>                                                                                   \
        requires(!detail::accepts_element_types<ops::OP, X>)                                                 \
    void operator SYMBOL(X&&) = delete; /* bsx: operator~ needs integral or bool operands */
BSX_UNARY_OPERATOR(+, unary_plus)
BSX_UNARY_OPERATOR(-, negate)
BSX_UNARY_OPERATOR(!, logical_not_operator)
BSX_UNARY_OPERATOR(~, bit_not)
#undef BSX_UNARY_OPERATOR

#define BSX_BINARY_OPERATOR(SYMBOL, OP)                                                                       \
    template <class A, class B>                                                                               \
        requires detail::forms_node<ops::OP, A, B>                                                            \
    auto operator SYMBOL(A&& a, B&& b) {                                                                      \
        return detail::make_node(ops::OP{}, std::forward<A>(a), std::forward<B>(b));                          \
    }                                                                                                         \
    template <class A, class B>                                                                               \
        requires detail::has_non_numeric_operand<A, B>                                                        \
    void operator SYMBOL(A&&, B&&) = delete; /* bsx: every operand must be a bsx expression or an arithmetic scalar */ \
    template <class A, class B>                                                                               \
        requires detail::mixes_rule_sets<A, B>                                                                \
    void operator SYMBOL(A&&, B&&) = delete; /* bsx: operands tagged with different rule sets (with_rules) cannot meet in one node */ \
    template <class A, class B>                                                                               \
        requires detail::needs_broadcast_dimensions<A, B>                                                     \
    void operator SYMBOL(A&&, B&&) = delete; /* bsx: under xla rules, operands of different rank need explicit broadcast dimensions (bsx::in_dims, or bsx::add(a, b, {dims})) */ \
    template <class A, class B>                                                                               \
        requires detail::rejects_element_types<ops::OP, A, B>                                                 \
    void operator SYMBOL(A&&, B&&) = delete; /* bsx: operator% needs integral operands (bsx::mod or bsx::rem for floating point); & | ^ need integral or bool operands */
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

// The destination is the left operand of the node `dest op= x` builds, so the binary
// operators' reasons apply, each with its deleted overload.
#define BSX_COMPOUND_OPERATOR(SYMBOL, OP)                                                          \
    template <detail::writable D, class X>                                                         \
        requires detail::forms_node<ops::OP, D, X>                                                 \
    D&& operator SYMBOL(D&& dest, X&& x) {                                                         \
        detail::compound_assign("operator" #SYMBOL, ops::OP{}, dest.data(), dest.shape(),          \
                                dest.strides(), std::forward<X>(x));                               \
        return std::forward<D>(dest);                                                              \
    }                                                                                              \
    template <detail::writable D, class X>                                                         \
        requires detail::has_non_numeric_operand<D, X>                                             \
    void operator SYMBOL(D&&, X&&) = delete; /* bsx: the right-hand side must be a bsx expression or an arithmetic scalar */ \
    template <detail::writable D, class X>                                                         \
        requires detail::needs_broadcast_dimensions<D, X>                                          \
    void operator SYMBOL(D&&, X&&) = delete; /* bsx: under xla rules, operands of different rank need explicit broadcast dimensions (bsx::in_dims) */ \
    template <detail::writable D, class X>                                                         \
        requires detail::rejects_element_types<ops::OP, D, X>                                      \
    void operator SYMBOL(D&&, X&&) = delete; /* bsx: %= needs integral operands (bsx::mod or bsx::rem for floating point); &= |= ^= need integral or bool operands */
BSX_COMPOUND_OPERATOR(+=, plus)
BSX_COMPOUND_OPERATOR(-=, minus)
BSX_COMPOUND_OPERATOR(*=, multiplies)
BSX_COMPOUND_OPERATOR(/=, divides)
BSX_COMPOUND_OPERATOR(%=, modulus)
BSX_COMPOUND_OPERATOR(&=, bit_and)
BSX_COMPOUND_OPERATOR(|=, bit_or)
BSX_COMPOUND_OPERATOR(^=, bit_xor)
#undef BSX_COMPOUND_OPERATOR

}  // namespace bsx
