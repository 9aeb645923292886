// bsx/eval/compound_assignment.hpp: `a += x` and the other compound assignments into
// arrays and views, from the operation table. Each evaluates at once (one fused loop that
// reads the destination as its left operand), so they live with evaluation.
#pragma once

#include <type_traits>
#include <utility>

#include "../detail/refusals.hpp"
#include "../expr/constraints.hpp"
#include "../expr/expression.hpp"
#include "../expr/ops.hpp"
#include "assign.hpp"

namespace bsx {

namespace detail {
/// Something `+=` can write into: an array or a view of mutable elements.
template <class D>
concept writable =
    strided_expression<D> && !std::is_const_v<std::remove_pointer_t<decltype(std::declval<D&>().data())>>;
}  // namespace detail

// The destination is the left operand of the node `dest op= x` builds, so the binary
// operators' reasons apply, each with its deleted overload (detail/refusals.hpp).
// clang-format off
#define BSX_COMPOUND_OPERATOR(SYMBOL, OP)                                                          \
    template <detail::writable D, class X>                                                         \
        requires(detail::forms_node<ops::OP, D, X> && !detail::static_extents_misfit<D, X>)        \
    D&& operator SYMBOL(D&& dest, X&& x) {                                                         \
        detail::compound_assign("operator" #SYMBOL, ops::OP{}, dest, std::forward<X>(x));          \
        return std::forward<D>(dest);                                                              \
    }                                                                                              \
    template <detail::writable D, class X, class Why = detail::static_misfit_t<D, X>>              \
        requires(detail::forms_node<ops::OP, D, X> && detail::static_extents_misfit<D, X>)         \
    void BSX_REFUSAL_STATIC_MISFIT(operator) SYMBOL(D&&, X&&) = delete;                            \
    template <detail::writable D, class X>                                                         \
        requires detail::has_non_numeric_operand<D, X>                                             \
    void BSX_REFUSAL_NON_NUMERIC_SOURCE(operator) SYMBOL(D&&, X&&) = delete;                       \
    template <detail::writable D, class X>                                                         \
        requires detail::needs_broadcast_dimensions<D, X>                                          \
    void BSX_REFUSAL_XLA_RANKS(operator) SYMBOL(D&&, X&&) = delete;                                \
    template <detail::writable D, class X>                                                         \
        requires detail::rejects_element_types<ops::OP, D, X>                                      \
    void BSX_REFUSAL_INTEGRAL_OPERANDS(operator) SYMBOL(D&&, X&&) = delete;
// clang-format on
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
