// bsx/view/reshape.hpp: reshape, broadcast_to and adapt: views that give memory a
// new shape (same elements, new extents; stride-0 broadcast; caller-owned buffers).
#pragma once

#include <array>
#include <cstddef>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "../shape/rules.hpp"
#include "strided_view.hpp"

namespace bsx {

/// The same elements in row-major order under a new shape. One extent may be -1
/// (inferred, as NumPy). The operand must be contiguous.
template <std::size_t M, strided_expression X>
auto reshape(X&& x, shape_t<M> shape) {
    const auto v = detail::view_of(std::forward<X>(x));
    const auto fail = [&](const std::string& why) {
        throw std::invalid_argument("bsx: reshape: cannot reshape shape " + format_shape(v.shape()) + " to " +
                                    format_shape(shape) + ": " + why);
    };
    if (!is_contiguous(v.shape(), v.strides())) fail("the operand is not contiguous");
    std::size_t inferred = M;
    for (std::size_t k = 0; k < M; ++k) {
        if (shape[k] == -1 && inferred == M) inferred = k;
        else if (shape[k] < 0) fail("extents must be non-negative, with at most one -1");
    }
    if (inferred != M) {
        shape_t<M> known_extents = shape;
        known_extents[inferred] = 1;
        const index_t known = detail::checked_size("reshape", known_extents);
        if (known == 0 || v.size() % known != 0) fail("the element count does not divide");
        shape[inferred] = v.size() / known;
    }
    if (detail::checked_size("reshape", shape) != v.size())
        fail(std::to_string(v.size()) + " elements cannot take " + std::to_string(shape_size(shape)));
    return strided_view<std::remove_pointer_t<decltype(v.data())>, M>(v.data(), shape, contiguous_strides(shape));
}

/// A read-only view of x broadcast to `shape` under NumPy rules (stride 0 on stretched axes).
template <strided_expression X, std::size_t M>
auto broadcast_to(X&& x, const shape_t<M>& shape) {
    constexpr std::size_t N = rank_v<X>;
    const auto v = detail::view_of(std::forward<X>(x));
    detail::checked_size("broadcast_to", shape);
    detail::check_broadcast_to<numpy_rules>("broadcast_to", v.shape(), shape);
    shape_t<M> strides{};
    for (std::size_t k = 0; k < N; ++k)
        if (v.shape()[k] != 1) strides[numpy_rules::result_axis(k, N, M)] = v.strides()[k];
    return strided_view<const value_type_t<X>, M>(v.data(), shape, strides);
}

/// The same with the shape as a braced list: `broadcast_to(v, {2, 3})`.
template <strided_expression X, std::size_t M>
auto broadcast_to(X&& x, const index_t (&shape)[M]) {
    return broadcast_to(std::forward<X>(x), std::to_array(shape));
}

/// A contiguous row-major view over memory the caller owns.
template <class T, std::size_t N>
strided_view<T, N> adapt(T* data, const shape_t<N>& shape) {
    detail::checked_size("adapt", shape, sizeof(T));
    return {data, shape, contiguous_strides(shape)};
}
/// A strided view over memory the caller owns (strides in elements; 0 broadcasts). The
/// memory it spans, (extent - 1) * |stride| summed over the axes, must have a byte size
/// within PTRDIFF_MAX, as an array's.
template <class T, std::size_t N>
strided_view<T, N> adapt(T* data, const shape_t<N>& shape, const shape_t<N>& strides) {
    if (detail::checked_size("adapt", shape) != 0) {
        constexpr index_t limit = std::numeric_limits<index_t>::max() / index_t(sizeof(T));
        index_t span = 1;  // elements from the lowest to the highest address, inclusive
        for (std::size_t k = 0; k < N; ++k) {
            const index_t step = strides[k] == std::numeric_limits<index_t>::min() ? limit : std::abs(strides[k]);
            if (shape[k] > 1 && step > (limit - span) / (shape[k] - 1))
                throw std::length_error("bsx: adapt: shape " + format_shape(shape) + " with strides " +
                                        format_shape(strides) + " spans more than PTRDIFF_MAX bytes");
            span += (shape[k] - 1) * step;
        }
    }
    return {data, shape, strides};
}

}  // namespace bsx
