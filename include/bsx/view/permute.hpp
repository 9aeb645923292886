// bsx/view/permute.hpp: axis reordering views: Octave's `permute` (0-based) and
// `transpose` (all axes reversed). No element moves: a view of memory reorders its
// strides, a view of a lazy expression reorders the indices it is read at.
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <span>
#include <stdexcept>
#include <utility>

#include "../detail/message.hpp"
#include "../expr/expression.hpp"
#include "../expr/index_map.hpp"
#include "remap.hpp"

namespace bsx {
namespace detail {

/// The errors of permute, out of line and cold: every permute of a new rank would
/// otherwise compile its own string arithmetic.
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_not_a_permutation(std::span<const index_t> perm,
                                                                           std::span<const index_t> shape) {
    message text;
    text << "bsx: permute: " << shape_text{perm} << " is not a permutation of the " << shape.size()
         << " axes of an operand of shape " << shape_text{shape};
    throw std::invalid_argument(text.c_str());
}
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_permutation_length(std::size_t given, std::size_t rank) {
    message text;
    text << "bsx: permute: " << given << " axes given for an operand of rank " << rank;
    throw std::invalid_argument(text.c_str());
}

}  // namespace detail

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
        if (p < 0 || p >= index_t(N) || seen[std::size_t(p)]) detail::throw_not_a_permutation(perm, in);
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
    if (perm.size() != N) detail::throw_permutation_length(perm.size(), N);
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
