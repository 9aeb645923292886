// bsx/shape/shape.hpp: shapes (extents per axis) and the helpers every layer uses
// on them: element counts, row-major strides, NumPy-style printing.
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include "../config.hpp"

namespace bsx {

/// The shape of a rank-N array: one extent per axis, axis 0 outermost.
template <std::size_t N>
using shape_t = std::array<index_t, N>;

/// Number of elements of a shape (1 for rank 0).
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

/// A shape as NumPy prints it: `()`, `(3,)`, `(2,3)`.
template <class Extents>
std::string format_shape(const Extents& s) {
    std::string out = "(";
    for (std::size_t k = 0; k < s.size(); ++k) {
        if (k) out += ',';
        out += std::to_string(s[k]);
    }
    if (s.size() == 1) out += ',';
    return out + ')';
}

}  // namespace bsx
