// bsx/view/permute.hpp: axis reordering views: Octave's `permute` (0-based) and
// `transpose` (all axes reversed). No element moves; only strides are reordered.
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>

#include "strided_view.hpp"

namespace bsx {

/// Axis i of the result is axis perm[i] of x; `perm` must be a permutation of 0..N-1.
template <strided_expression X, std::size_t R>
auto permute(X&& x, const std::array<index_t, R>& perm) {
    constexpr std::size_t N = rank_v<X>;
    static_assert(R == N, "bsx: permute: the permutation must list every axis of the operand once");
    const auto v = detail::view_of(std::forward<X>(x));
    std::array<bool, N> seen{};
    shape_t<N> shape{}, strides{};
    for (std::size_t i = 0; i < N; ++i) {
        const index_t p = perm[i];
        if (p < 0 || p >= index_t(N) || seen[std::size_t(p)])
            throw std::invalid_argument("bsx: permute: " + format_shape(perm) + " is not a permutation of the " +
                                        std::to_string(N) + " axes of an operand of shape " +
                                        format_shape(v.shape()));
        seen[std::size_t(p)] = true;
        shape[i] = v.shape()[std::size_t(p)];
        strides[i] = v.strides()[std::size_t(p)];
    }
    return strided_view<std::remove_pointer_t<decltype(v.data())>, N>(v.data(), shape, strides);
}

template <strided_expression X>
auto permute(X&& x, std::initializer_list<index_t> perm) {
    constexpr std::size_t N = rank_v<X>;
    std::array<index_t, N> p{};
    if (perm.size() != N)
        throw std::invalid_argument("bsx: permute: " + std::to_string(perm.size()) +
                                    " axes given for an operand of rank " + std::to_string(N));
    std::copy(perm.begin(), perm.end(), p.begin());
    return permute(std::forward<X>(x), p);
}

/// All axes reversed (for rank 2, the matrix transpose).
template <strided_expression X>
auto transpose(X&& x) {
    constexpr std::size_t N = rank_v<X>;
    std::array<index_t, N> p{};
    for (std::size_t i = 0; i < N; ++i) p[i] = index_t(N - 1 - i);
    return permute(std::forward<X>(x), p);
}

}  // namespace bsx
