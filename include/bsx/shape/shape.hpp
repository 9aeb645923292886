// bsx/shape/shape.hpp: shapes (extents per axis) and the helpers every layer uses
// on them: element counts, row-major strides, NumPy-style printing.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "../config.hpp"
#include "../detail/message.hpp"

namespace bsx {

/// The shape of a rank-N array: one extent per axis, axis 0 outermost.
template <std::size_t N>
using shape_t = std::array<index_t, N>;

/// Number of elements of a shape (1 for rank 0). Unchecked: every shape that enters bsx
/// passes checked_size first, so this product cannot overflow.
template <std::size_t N>
constexpr index_t shape_size(const shape_t<N>& s) noexcept {
    index_t n = 1;
    for (index_t e : s) n *= e;
    return n;
}

/// Row-major (C order) strides of a contiguous array of shape `s`.
template <std::size_t N>
constexpr shape_t<N> contiguous_strides(const shape_t<N>& s) noexcept {
    shape_t<N> st{};
    index_t step = 1;
    for (std::size_t k = N; k-- > 0;) {
        st[k] = step;
        step *= s[k];
    }
    return st;
}

/// True when `strides` lay out `shape` contiguously in row-major order (the strides of
/// extent-1 axes never matter).
template <std::size_t N>
constexpr bool is_contiguous(const shape_t<N>& shape, const shape_t<N>& strides) noexcept {
    const auto own = contiguous_strides(shape);
    for (std::size_t k = 0; k < N; ++k)
        if (shape[k] != 1 && strides[k] != own[k]) return false;
    return true;
}

/// A shape as NumPy prints it: `()`, `(3,)`, `(2,3)`. One function for every rank: the
/// error paths of all expressions share it.
inline std::string format_shape(std::span<const index_t> s) {
    detail::message text;
    text << detail::shape_text{s};
    return std::string(text.view());
}

namespace detail {

/// Extent `axis` of `shape`, or std::out_of_range naming the axis and the rank: the
/// `extent()` of every expression (arrays, views, nodes).
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_extent_axis(std::size_t axis, std::size_t rank) {
    message text;
    text << "bsx: extent: axis " << axis << " is out of range for rank " << rank;
    throw std::out_of_range(text.c_str());
}

template <std::size_t N>
index_t checked_extent(const shape_t<N>& shape, std::size_t axis) {
    if (axis >= N) throw_extent_axis(axis, N);
    return shape[axis];
}

/// The error of checked_size: a negative extent first, else the size. Out of line, so
/// that the check itself stays small enough to inline (every node runs it).
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_bad_shape(std::string_view operation,
                                                                   std::span<const index_t> s,
                                                                   std::size_t element_bytes) {
    message text;
    text << "bsx: " << operation << ": shape " << shape_text{s};
    for (std::size_t k = 0; k < s.size(); ++k)
        if (s[k] < 0) {
            text << " has the negative extent " << s[k] << " on axis " << k;
            throw std::invalid_argument(text.c_str());
        }
    text << " is too large: ";
    if (element_bytes == 1)
        text << "its element count";
    else
        text << "its size in bytes (" << element_bytes << "-byte elements)";
    text << " exceeds PTRDIFF_MAX (" << std::numeric_limits<index_t>::max() << ")";
    throw std::length_error(text.c_str());
}

/// Checks a shape as it enters bsx (`operation` names the caller): a negative extent
/// throws std::invalid_argument; a product of the non-zero extents times `element_bytes`
/// above PTRDIFF_MAX (the limit behind std::vector::max_size) throws std::length_error,
/// so no element count, stride or byte count computed from the shape can overflow.
/// Returns the element count.
template <class Extents>
index_t checked_size(std::string_view operation, const Extents& s, std::size_t element_bytes = 1) {
    // Zero extents are skipped: the strides of the other axes are still products of them.
    constexpr index_t limit = std::numeric_limits<index_t>::max();
    index_t bytes = static_cast<index_t>(element_bytes), count = 1;
    bool bad = false, empty = false;
    for (index_t e : s) {
        if (bad || e < 0) {
            bad = true;
            continue;
        }
        if (e == 0) {
            empty = true;
            continue;
        }
        bad = e > limit / bytes;
        if (!bad) bytes *= e, count *= e;
    }
    if (bad) throw_bad_shape(operation, std::span<const index_t>(s.data(), s.size()), element_bytes);
    return empty ? 0 : count;
}

/// The shape of extents given as integers of any type (the factories' arguments). An
/// unsigned one above PTRDIFF_MAX throws std::length_error naming it: a cast would turn it
/// into a negative extent, and the error into the wrong one.
template <std::integral... I>
shape_t<sizeof...(I)> integer_extents(std::string_view operation, I... extents) {
    std::size_t axis = 0;
    const auto check = [&](auto e) {
        if constexpr (std::is_unsigned_v<decltype(e)> && sizeof(e) >= sizeof(index_t))
            if (e > static_cast<decltype(e)>(std::numeric_limits<index_t>::max()))
                throw std::length_error("bsx: " + std::string(operation) + ": extent " +
                                        std::to_string(std::uintmax_t(e)) + " on axis " + std::to_string(axis) +
                                        " is too large: it exceeds PTRDIFF_MAX (" +
                                        std::to_string(std::numeric_limits<index_t>::max()) + ")");
        ++axis;
    };
    (check(extents), ...);
    return {static_cast<index_t>(extents)...};
}

/// The element `offset` away from `base` in a strided layout. An empty array has no
/// buffer (a null base), and its views, which are never read, keep the null pointer:
/// arithmetic on a null pointer is undefined even when nothing is dereferenced.
template <class T>
T* offset_pointer(T* base, index_t offset) noexcept {
    return base == nullptr ? base : base + offset;
}
/// The multi-index of the element at row-major position `pos` of `shape` (0 <= pos < its
/// size, so no extent is 0).
template <std::size_t N>
constexpr shape_t<N> unravel_index(index_t pos, const shape_t<N>& shape) noexcept {
    shape_t<N> idx{};
    for (std::size_t d = N; d-- > 0;) {
        idx[d] = pos % shape[d];
        pos /= shape[d];
    }
    return idx;
}

}  // namespace detail
}  // namespace bsx
