// bsx/view/reshape.hpp: reshape, broadcast_to and adapt: views that give memory a
// new shape (same elements, new extents; stride-0 broadcast; caller-owned buffers).
#pragma once

#include <array>
#include <cstddef>
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
    index_t known = 1;
    std::size_t inferred = M;
    for (std::size_t k = 0; k < M; ++k) {
        if (shape[k] == -1 && inferred == M) inferred = k;
        else if (shape[k] < 0) fail("extents must be non-negative, with at most one -1");
        else known *= shape[k];
    }
    if (inferred != M) {
        if (known == 0 || v.size() % known != 0) fail("the element count does not divide");
        shape[inferred] = v.size() / known;
    }
    if (shape_size(shape) != v.size())
        fail(std::to_string(v.size()) + " elements cannot take " + std::to_string(shape_size(shape)));
    return strided_view<std::remove_pointer_t<decltype(v.data())>, M>(v.data(), shape, contiguous_strides(shape));
}

/// A read-only view of x broadcast to `shape` under NumPy rules (stride 0 on stretched axes).
template <strided_expression X, std::size_t M>
auto broadcast_to(X&& x, const shape_t<M>& shape) {
    constexpr std::size_t N = rank_v<X>;
    const auto v = detail::view_of(std::forward<X>(x));
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
    return {data, shape, contiguous_strides(shape)};
}
/// A strided view over memory the caller owns (strides in elements; 0 broadcasts).
template <class T, std::size_t N>
strided_view<T, N> adapt(T* data, const shape_t<N>& shape, const shape_t<N>& strides) {
    return {data, shape, strides};
}

}  // namespace bsx
