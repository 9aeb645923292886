// bsx/expr/static_extents.hpp: the compile-time shape of an expression. Each node kind
// declares `static_extents` (expr/node.hpp), computed from its children's; memory leaves
// other than fixed_array, and scalars, have none, and count as all dynamic (rank 0 is
// trivially static).
#pragma once

#include <cstddef>
#include <type_traits>

#include "../shape/static_shape.hpp"
#include "expression.hpp"
#include "operand.hpp"

namespace bsx {

namespace detail {

/// A kind that declares its static shape (nodes, fixed_array).
template <class X>
concept declares_static_extents = requires { std::remove_cvref_t<X>::static_extents; };

/// The static shape of an operand: its kind's `static_extents`, else all dynamic.
template <class X>
constexpr shape_t<operand_rank<X>()> static_extents_of() noexcept {
    if constexpr (declares_static_extents<X>)
        return std::remove_cvref_t<X>::static_extents;
    else
        return dynamic_shape<operand_rank<X>()>();
}

}  // namespace detail

/// The compile-time shape of E: per axis its extent, or bsx::dynamic_extent.
template <expression E>
inline constexpr shape_t<rank_v<E>> static_extents_v = detail::static_extents_of<E>();

/// Whether axis `Axis` of E has an extent known at compile time.
template <expression E, std::size_t Axis>
    requires(Axis < rank_v<E>)
inline constexpr bool is_static_axis_v = static_extents_v<E>[Axis] != dynamic_extent;

/// An expression whose every extent is known at compile time.
template <class E>
concept statically_shaped = expression<E> && detail::all_known(static_extents_v<E>);

/// The shape of an all-static expression, as a constant (ill-formed for any other).
template <statically_shaped E>
inline constexpr shape_t<rank_v<E>> static_shape_v = static_extents_v<E>;

namespace detail {

/// The diagnostic of static extents that cannot be broadcast: the compiler prints this
/// type, and so the axis and both extents, in the error.
template <std::size_t Axis>
struct on_axis {};
template <index_t Left, index_t Right>
struct extents {};
template <class Axis, class Extents>
struct static_extents_cannot_be_broadcast {};

/// Whether any operand brings a known extent (else nothing is checked at compile time).
template <class... X>
constexpr bool any_static_axis() noexcept {
    return ((operand_rank<X>() > 0 && !(static_extents_of<X>() == dynamic_shape<operand_rank<X>()>())) || ...);
}

}  // namespace detail
}  // namespace bsx
