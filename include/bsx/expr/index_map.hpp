// bsx/expr/index_map.hpp: affine maps between index spaces. A node that reads its operand
// at other indices (placed_node: in_dims and the views of lazy expressions) holds one;
// binding composes them down the tree, so each memory leaf ends with plain strides.
#pragma once

#include <array>
#include <cstddef>

#include "../shape/shape.hpp"

namespace bsx::detail {

/// Where a rank-R operand is read from a rank-D index space: at index i the operand's
/// index k is first[k] + the sum over d of step[k][d] * i[d]. A broadcast axis has every
/// step 0; a permuted one a single step 1; a sliced one a start and a step; an axis split
/// by reshape steps on several axes.
template <std::size_t R, std::size_t D>
struct index_map {
    shape_t<R> first{};
    std::array<shape_t<D>, R> step{};

    /// Operand axis k on axis to[k] with step 1 (how ranks align).
    static index_map aligned(const std::array<std::size_t, R>& to) noexcept {
        index_map m;
        for (std::size_t k = 0; k < R; ++k) m.step[k][to[k]] = 1;
        return m;
    }

    /// An operand axis of extent 1 has only index 0, whatever the outer index: broadcast.
    void pin_unit_axes(const shape_t<R>& operand_shape) noexcept {
        for (std::size_t k = 0; k < R; ++k)
            if (operand_shape[k] == 1) {
                first[k] = 0;
                step[k] = {};
            }
    }

    /// The operand's index at index i.
    shape_t<R> operator()(const shape_t<D>& i) const noexcept {
        shape_t<R> out = first;
        for (std::size_t k = 0; k < R; ++k)
            for (std::size_t d = 0; d < D; ++d) out[k] += step[k][d] * i[d];
        return out;
    }
};

/// `inner` read through `outer`: the operand's index at an index of outer's space.
template <std::size_t R, std::size_t D, std::size_t E>
index_map<R, E> compose(const index_map<R, D>& inner, const index_map<D, E>& outer) noexcept {
    index_map<R, E> m;
    for (std::size_t k = 0; k < R; ++k) {
        m.first[k] = inner.first[k];
        for (std::size_t d = 0; d < D; ++d) {
            m.first[k] += inner.step[k][d] * outer.first[d];
            for (std::size_t e = 0; e < E; ++e) m.step[k][e] += inner.step[k][d] * outer.step[d][e];
        }
    }
    return m;
}

/// The strides, in the outer index space, of memory laid out by `strides` and read
/// through `map`; and the offset of the element read at outer index 0.
template <std::size_t R, std::size_t D>
shape_t<D> strides_through(const shape_t<R>& strides, const index_map<R, D>& map) noexcept {
    shape_t<D> out{};
    for (std::size_t k = 0; k < R; ++k)
        for (std::size_t d = 0; d < D; ++d) out[d] += strides[k] * map.step[k][d];
    return out;
}
template <std::size_t R, std::size_t D>
index_t offset_through(const shape_t<R>& strides, const index_map<R, D>& map) noexcept {
    index_t off = 0;
    for (std::size_t k = 0; k < R; ++k) off += strides[k] * map.first[k];
    return off;
}

}  // namespace bsx::detail
