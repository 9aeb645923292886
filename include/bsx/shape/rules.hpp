// bsx/shape/rules.hpp: broadcasting rule sets and the shape computation they
// drive. A rule set decides how the axes of operands of different rank line up;
// after alignment every rule set uses the same per-axis test (equal, or one is 1).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "broadcast_error.hpp"
#include "shape.hpp"

namespace bsx {

/// NumPy: shapes are right-aligned; missing leading axes count as extent 1.
struct numpy_rules {
    static constexpr std::string_view name = "numpy";

    /// The result axis on which axis `k` of a rank-`r` operand lies in a rank-`R` result.
    static constexpr std::size_t result_axis(std::size_t k, std::size_t r, std::size_t R) noexcept {
        return k + (R - r);
    }
};

namespace detail {

/// Extent of operand axis aligned with result axis `axis` (1 where the operand has no such axis).
template <class Rules, std::size_t R, std::size_t N>
constexpr index_t aligned_extent(const shape_t<N>& s, std::size_t axis) noexcept {
    for (std::size_t k = 0; k < N; ++k)
        if (Rules::result_axis(k, N, R) == axis) return s[k];
    return 1;
}

/// Broadcasts two shapes under `Rules`; `operation` names the caller in the error message.
template <class Rules, std::size_t A, std::size_t B>
shape_t<std::max(A, B)> broadcast_pair(std::string_view operation, const shape_t<A>& sa,
                                       const shape_t<B>& sb) {
    constexpr std::size_t R = std::max(A, B);
    shape_t<R> out{};
    for (std::size_t axis = 0; axis < R; ++axis) {
        const index_t ea = aligned_extent<Rules, R>(sa, axis);
        const index_t eb = aligned_extent<Rules, R>(sb, axis);
        if (ea != eb && ea != 1 && eb != 1)
            throw broadcast_error("bsx: " + std::string(operation) + ": shapes " + format_shape(sa) +
                                  " and " + format_shape(sb) + " cannot be broadcast under " +
                                  std::string(Rules::name) + " rules: axis " + std::to_string(axis) +
                                  " has extents " + std::to_string(ea) + " and " +
                                  std::to_string(eb));
        out[axis] = ea == 1 ? eb : ea;
    }
    return out;
}

/// Checks that an operand of shape `src` broadcasts to `dest` without changing it
/// (assignment into a view, compound assignment).
template <class Rules, std::size_t S, std::size_t D>
void check_broadcast_to(std::string_view operation, const shape_t<S>& src, const shape_t<D>& dest) {
    static_assert(S <= D, "bsx: the rank of the expression exceeds the rank of the destination");
    for (std::size_t axis = 0; axis < D; ++axis) {
        const index_t e = aligned_extent<Rules, D>(src, axis);
        if (e != 1 && e != dest[axis])
            throw broadcast_error("bsx: " + std::string(operation) + ": shape " + format_shape(src) +
                                  " cannot be broadcast to the destination shape " +
                                  format_shape(dest) + " under " + std::string(Rules::name) +
                                  " rules: axis " + std::to_string(axis) + " has extent " +
                                  std::to_string(e) + " where the destination has " +
                                  std::to_string(dest[axis]));
    }
}

}  // namespace detail

/// The shape of `a op b` for operands of shapes `sa` and `sb`; throws bsx::broadcast_error.
template <class Rules = numpy_rules, std::size_t A, std::size_t B>
shape_t<std::max(A, B)> broadcast_shapes(const shape_t<A>& sa, const shape_t<B>& sb) {
    return detail::broadcast_pair<Rules>("broadcast_shapes", sa, sb);
}

}  // namespace bsx
