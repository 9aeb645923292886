// bsx/view/permute.hpp: axis reordering views: Octave's `permute` (0-based) and
// `transpose` (all axes reversed). No element moves: a view of memory reorders its
// strides, a view of a lazy expression reorders the indices it is read at.
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>

#include "../expr/expression.hpp"
#include "../expr/index_map.hpp"
#include "remap.hpp"

namespace bsx {

/// Axis i of the result is axis perm[i] of x; `perm` must be a permutation of 0..N-1.
template <expression X, std::size_t R>
auto permute(X&& x, const std::array<index_t, R>& perm) {
    constexpr std::size_t N = rank_v<X>;
    static_assert(R == N, "bsx: permute: the permutation must list every axis of the operand once");
    const shape_t<N> in = x.shape();
    std::array<bool, N> seen{};
    shape_t<N> shape{};
    std::array<std::size_t, N> to{};  // operand axis perm[i] is result axis i
    for (std::size_t i = 0; i < N; ++i) {
        const index_t p = perm[i];
        if (p < 0 || p >= index_t(N) || seen[std::size_t(p)])
            throw std::invalid_argument("bsx: permute: " + format_shape(perm) + " is not a permutation of the " +
                                        std::to_string(N) + " axes of an operand of shape " + format_shape(in));
        seen[std::size_t(p)] = true;
        shape[i] = in[std::size_t(p)];
        to[std::size_t(p)] = i;
    }
    return detail::remap<N>(std::forward<X>(x), detail::index_map<N, N>::aligned(to), shape);
}

template <expression X>
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
template <expression X>
auto transpose(X&& x) {
    constexpr std::size_t N = rank_v<X>;
    std::array<index_t, N> p{};
    for (std::size_t i = 0; i < N; ++i) p[i] = index_t(N - 1 - i);
    return permute(std::forward<X>(x), p);
}

}  // namespace bsx
