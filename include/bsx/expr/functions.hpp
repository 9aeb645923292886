// bsx/expr/functions.hpp: the broadcasting functions of the operation table
// (bsx::min, bsx::atan2, bsx::sqrt, ...), plus where, cast, map and bsxfun.
// Each is a function object: one line per entry of ops.hpp.
#pragma once

#include <cstddef>
#include <utility>

#include "map_node.hpp"
#include "ops.hpp"

namespace bsx {

namespace detail {
/// `Op` applied element-wise to `Arity` broadcast operands, at least one an expression.
template <class Op, std::size_t Arity>
struct elementwise_function {
    template <class... X>
        requires(sizeof...(X) == Arity && (expression<X> || ...))
    auto operator()(X&&... xs) const {
        return make_node(Op{}, std::forward<X>(xs)...);
    }
};
template <class Op>
using unary_function = elementwise_function<Op, 1>;
template <class Op>
using binary_function = elementwise_function<Op, 2>;
}  // namespace detail

// Binary functions.
inline constexpr detail::binary_function<ops::minimum> min{};
inline constexpr detail::binary_function<ops::maximum> max{};
inline constexpr detail::binary_function<ops::fmin> fmin{};
inline constexpr detail::binary_function<ops::fmax> fmax{};
inline constexpr detail::binary_function<ops::pow> pow{};
inline constexpr detail::binary_function<ops::atan2> atan2{};
inline constexpr detail::binary_function<ops::hypot> hypot{};
inline constexpr detail::binary_function<ops::mod> mod{};
inline constexpr detail::binary_function<ops::rem> rem{};
inline constexpr detail::binary_function<ops::ldivide> ldivide{};
inline constexpr detail::binary_function<ops::logical_and> logical_and{};
inline constexpr detail::binary_function<ops::logical_or> logical_or{};
inline constexpr detail::binary_function<ops::logical_xor> logical_xor{};

// Unary functions.
inline constexpr detail::unary_function<ops::abs> abs{};
inline constexpr detail::unary_function<ops::sqrt> sqrt{};
inline constexpr detail::unary_function<ops::cbrt> cbrt{};
inline constexpr detail::unary_function<ops::exp> exp{};
inline constexpr detail::unary_function<ops::exp2> exp2{};
inline constexpr detail::unary_function<ops::expm1> expm1{};
inline constexpr detail::unary_function<ops::log> log{};
inline constexpr detail::unary_function<ops::log2> log2{};
inline constexpr detail::unary_function<ops::log10> log10{};
inline constexpr detail::unary_function<ops::log1p> log1p{};
inline constexpr detail::unary_function<ops::sin> sin{};
inline constexpr detail::unary_function<ops::cos> cos{};
inline constexpr detail::unary_function<ops::tan> tan{};
inline constexpr detail::unary_function<ops::asin> asin{};
inline constexpr detail::unary_function<ops::acos> acos{};
inline constexpr detail::unary_function<ops::atan> atan{};
inline constexpr detail::unary_function<ops::sinh> sinh{};
inline constexpr detail::unary_function<ops::cosh> cosh{};
inline constexpr detail::unary_function<ops::tanh> tanh{};
inline constexpr detail::unary_function<ops::floor> floor{};
inline constexpr detail::unary_function<ops::ceil> ceil{};
inline constexpr detail::unary_function<ops::round> round{};
inline constexpr detail::unary_function<ops::trunc> trunc{};
inline constexpr detail::unary_function<ops::sign> sign{};
inline constexpr detail::unary_function<ops::square> square{};
inline constexpr detail::unary_function<ops::isnan> isnan{};
inline constexpr detail::unary_function<ops::isinf> isinf{};
inline constexpr detail::unary_function<ops::isfinite> isfinite{};
inline constexpr detail::unary_function<ops::logical_not> logical_not{};

/// where(c, a, b): a where c is true, else b; all three broadcast together.
inline constexpr detail::elementwise_function<ops::select, 3> where{};

/// The elements of x converted to U with static_cast.
template <class U, expression X>
auto cast(X&& x) {
    return detail::make_node(ops::cast_to<U>{}, std::forward<X>(x));
}

/// f applied element-wise to k >= 1 broadcast operands.
template <class F, class... X>
    requires(sizeof...(X) >= 1 && (expression<X> || ...))
auto map(F f, X&&... xs) {
    return detail::make_node(ops::user_function<F>{std::move(f), "map"}, std::forward<X>(xs)...);
}

/// Octave's name for a binary map.
template <class F, class A, class B>
    requires(expression<A> || expression<B>)
auto bsxfun(F f, A&& a, B&& b) {
    return detail::make_node(ops::user_function<F>{std::move(f), "bsxfun"}, std::forward<A>(a),
                             std::forward<B>(b));
}

}  // namespace bsx
