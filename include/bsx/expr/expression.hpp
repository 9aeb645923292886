// bsx/expr/expression.hpp: what counts as a bsx expression, and the traits every
// layer asks of one (element type, rank). Arrays, views and nodes all model it.
#pragma once

#include <concepts>
#include <cstddef>
#include <type_traits>

namespace bsx {

/// An array, a view or a lazy node: anything with an element type, a static rank,
/// a run-time shape, and `element(index)`. Types opt in with `using bsx_expression_tag = void;`.
template <class E>
concept expression = requires {
    typename std::remove_cvref_t<E>::bsx_expression_tag;
    typename std::remove_cvref_t<E>::value_type;
    { std::remove_cvref_t<E>::rank } -> std::convertible_to<std::size_t>;
};

/// A plain number used as an operand; it broadcasts like a rank-0 array.
template <class X>
concept arithmetic_scalar = std::is_arithmetic_v<std::remove_cvref_t<X>>;

/// Anything an element-wise operation accepts.
template <class X>
concept operand = expression<X> || arithmetic_scalar<X>;

/// The element type of an expression.
template <expression E>
using value_type_t = typename std::remove_cvref_t<E>::value_type;

/// The static rank of an expression.
template <expression E>
inline constexpr std::size_t rank_v = std::remove_cvref_t<E>::rank;

/// An expression backed by memory: a data pointer and element strides (arrays, views).
/// The evaluator reads such leaves directly instead of through `element()`.
template <class E>
concept strided_expression = expression<E> && requires(const std::remove_cvref_t<E>& e) {
    e.data();
    e.strides();
};

}  // namespace bsx
