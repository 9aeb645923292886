// bsx/view/in_dims.hpp: XLA's explicit broadcast dimensions. in_dims<R>(x, dims) sees
// x at rank R with its axis i on axis dims[i] and extent 1 elsewhere;
// broadcast_in_dim(x, shape, dims) then stretches it to `shape`. Arrays and views give
// strided views (no copy); other expressions give a lazy placed_node.
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

#include "../detail/refusals.hpp"
#include "../expr/placed_node.hpp"
#include "../shape/broadcast_dims.hpp"
#include "../shape/rules.hpp"
#include "remap.hpp"
#include "strided_view.hpp"

namespace bsx {

namespace detail {

/// Memory a view may point into (a temporary array is held by value instead).
template <class X>
concept viewable_memory = strided_expression<X> && (!owning_array<X> || std::is_lvalue_reference_v<X>);

/// x placed at rank R by `at`, with result shape `shape` (a view when x is memory).
template <std::size_t R, class X>
auto place(X&& x, const placement_t<operand_rank<X>()>& at, const shape_t<R>& shape) {
    const auto map = index_map<operand_rank<X>(), R>::aligned(at);
    if constexpr (viewable_memory<X>)
        return remap<R>(std::forward<X>(x), map, shape);
    else
        return place_lazily<R>(std::forward<X>(x), map, shape);
}

/// in_dims with the caller's name for messages.
template <std::size_t R, class X>
auto in_dims_for(std::string_view operation, X&& x, std::span<const index_t> dims) {
    if constexpr (viewable_memory<X>) {
        const auto at = placement_from_dims<R>(operation, x.shape(), dims);
        return place<R>(std::forward<X>(x), at, placed_shape<R>(x.shape(), at));
    } else {
        return place_in_dims<R>(operation, std::forward<X>(x), dims);
    }
}

template <class X, std::size_t M>
auto broadcast_in_dim_for(X&& x, const shape_t<M>& shape, std::span<const index_t> dims) {
    const auto s = operand_shape(x);
    const auto at = placement_from_dims<M>("broadcast_in_dim", s, dims);
    checked_size("broadcast_in_dim", shape);
    check_broadcast_to<xla_rules>("broadcast_in_dim", placed_shape<M>(s, at), shape);
    if constexpr (viewable_memory<X>) {
        const auto v = view_of(std::forward<X>(x));
        return place<M>(strided_view<const value_type_t<X>, rank_v<X>>(v), at, shape);
    } else {
        return place<M>(std::forward<X>(x), at, shape);
    }
}

}  // namespace detail

/// XLA InDim: x (rank r) viewed at rank R, axis i of x on axis dims[i], extent 1 on the
/// others. Dims must be r entries, strictly increasing, in [0, R): else broadcast_error.
template <std::size_t R, operand X>
auto in_dims(X&& x, std::initializer_list<index_t> dims) {
    return detail::in_dims_for<R>("in_dims", std::forward<X>(x), std::span<const index_t>(dims.begin(), dims.size()));
}
/// Dims known only at run time (read from a file, say).
template <std::size_t R, operand X>
auto in_dims(X&& x, std::span<const index_t> dims) {
    return detail::in_dims_for<R>("in_dims", std::forward<X>(x), dims);
}
template <std::size_t R, operand X, std::size_t K>
auto in_dims(X&& x, const std::array<index_t, K>& dims) {
    static_assert(K == detail::operand_rank<X>(), BSX_REFUSAL_DIMS_PER_AXIS(message));
    return detail::in_dims_for<R>("in_dims", std::forward<X>(x), std::span<const index_t>(dims));
}

/// XLA BroadcastInDim: in_dims, then broadcast to `shape` (read-only when x is memory).
template <operand X, std::size_t M>
auto broadcast_in_dim(X&& x, const shape_t<M>& shape, std::initializer_list<index_t> dims) {
    return detail::broadcast_in_dim_for(std::forward<X>(x), shape, std::span<const index_t>(dims.begin(), dims.size()));
}
template <operand X, std::size_t M>
auto broadcast_in_dim(X&& x, const index_t (&shape)[M], std::initializer_list<index_t> dims) {
    return broadcast_in_dim(std::forward<X>(x), std::to_array(shape), dims);
}
template <operand X, std::size_t M, std::size_t K>
auto broadcast_in_dim(X&& x, const shape_t<M>& shape, const std::array<index_t, K>& dims) {
    static_assert(K == detail::operand_rank<X>(), BSX_REFUSAL_DIMS_PER_AXIS(message));
    return detail::broadcast_in_dim_for(std::forward<X>(x), shape, std::span<const index_t>(dims));
}

template <operand X, std::size_t M, std::size_t K>
auto broadcast_in_dim(X&& x, const index_t (&shape)[M], const std::array<index_t, K>& dims) {
    return broadcast_in_dim(std::forward<X>(x), std::to_array(shape), dims);
}

}  // namespace bsx
