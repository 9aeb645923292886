// bsx/shape/static_shape.hpp: shapes known at compile time. Each axis of a static shape
// is a known extent or dynamic_extent; broadcasting them uses the per-axis rule of
// rules.hpp on axes where both extents are known, and leaves the rest to run time.
#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>

#include "rules.hpp"
#include "shape.hpp"

namespace bsx {

/// The static extent of an axis whose extent is known only at run time.
inline constexpr index_t dynamic_extent = std::numeric_limits<index_t>::min();

namespace detail {

/// The per-axis rule on static extents: broadcast_extent where both are known (-1: they
/// cannot be broadcast). With one side dynamic the result is the known side unless that
/// is 1 (a dynamic extent must equal it or be 1, which run time checks); else dynamic.
constexpr index_t static_broadcast_extent(index_t ea, index_t eb) noexcept {
    if (ea != dynamic_extent && eb != dynamic_extent) return broadcast_extent(ea, eb);
    if (ea == dynamic_extent) std::swap(ea, eb);
    return ea == dynamic_extent || ea == 1 ? dynamic_extent : ea;
}

template <std::size_t N>
constexpr bool all_known(const shape_t<N>& s) noexcept {
    return std::none_of(s.begin(), s.end(), [](index_t e) { return e == dynamic_extent; });
}

/// A shape of N dynamic extents (what every operand without static extents has).
template <std::size_t N>
constexpr shape_t<N> dynamic_shape() noexcept {
    shape_t<N> s{};
    s.fill(dynamic_extent);
    return s;
}

/// The static result of broadcasting static shapes, and the first axis (from the left)
/// on which two known extents clash: the result so far (`left`) and the next operand's
/// extent (`right`). clash_axis == R: none.
template <std::size_t R>
struct static_broadcast_result {
    shape_t<R> shape{};
    std::size_t clash_axis = R;
    index_t left = 0, right = 0;
    constexpr bool clashes() const noexcept { return clash_axis < R; }
};

/// Broadcasts static shapes under Rules, axis by axis, as broadcast_pair does at run time.
template <class Rules, std::size_t... N>
constexpr auto static_broadcast(const shape_t<N>&... shapes) noexcept {
    constexpr std::size_t R = std::max({std::size_t{0}, N...});
    static_broadcast_result<R> out;
    out.shape.fill(1);
    [[maybe_unused]] const auto meet = [&](std::size_t axis, index_t e) {
        const index_t before = out.shape[axis];
        out.shape[axis] = static_broadcast_extent(before, e);
        if (out.shape[axis] == -1 && !out.clashes()) {
            out.clash_axis = axis;
            out.left = before;
            out.right = e;
        }
    };
    for (std::size_t axis = 0; axis < R; ++axis) (meet(axis, aligned_extent<Rules, R>(shapes, axis)), ...);
    return out;
}

/// Where a source of static shape `src` cannot be written into a destination of static
/// shape `dest` (the static form of check_broadcast_to): the first axis whose two known
/// extents differ with the source's not 1; `left` is the destination's extent.
template <class Rules, std::size_t D, std::size_t S>
constexpr static_broadcast_result<D> static_fit(const shape_t<D>& dest, const shape_t<S>& src) noexcept {
    static_broadcast_result<D> out{dest};
    for (std::size_t axis = 0; axis < D && S <= D; ++axis) {
        const index_t e = aligned_extent<Rules, D>(src, axis);
        if (dest[axis] != dynamic_extent && e != dynamic_extent &&
            static_broadcast_extent(dest[axis], e) != dest[axis]) {
            out.clash_axis = axis;
            out.left = dest[axis];
            out.right = e;
            break;
        }
    }
    return out;
}

}  // namespace detail
}  // namespace bsx
