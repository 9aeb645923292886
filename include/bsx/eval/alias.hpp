// bsx/eval/alias.hpp: the facts alias analysis needs about memory: the byte range a
// strided operand touches, and whether an operand reads exactly the element that the
// destination writes at every index (then it needs no copy).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../shape/shape.hpp"

namespace bsx::detail {

/// A destination: where an assignment writes, in its own index space.
template <class T, std::size_t D>
struct destination {
    T* data;
    shape_t<D> shape;
    shape_t<D> strides;
    /// Each row (the innermost axis of extent > 1) is written by one thread, from its
    /// start, after every operand has read its row-constant values (see reads_own_row).
    bool whole_rows;
};

/// Half-open byte range [lo, hi) covered by a strided operand; empty for zero elements.
struct byte_range {
    std::uintptr_t lo = 0, hi = 0;
    bool overlaps(const byte_range& o) const noexcept { return lo < o.hi && o.lo < hi; }
};

template <class T, std::size_t N>
byte_range memory_range(const T* p, const shape_t<N>& shape, const shape_t<N>& strides) noexcept {
    if (shape_size(shape) == 0) return {};
    index_t first = 0, last = 0;
    for (std::size_t k = 0; k < N; ++k) {
        const index_t span = (shape[k] - 1) * strides[k];
        (span < 0 ? first : last) += span;
    }
    const auto base = reinterpret_cast<std::uintptr_t>(p);
    return {base + static_cast<std::uintptr_t>(first * index_t(sizeof(T))),
            base + static_cast<std::uintptr_t>((last + 1) * index_t(sizeof(T)))};
}

/// True when an operand with destination-space strides `leaf_strides` starting at `p`
/// reads, at every destination index, the very element written there: then
/// reading it in the same iteration that writes it is safe.
template <class L, class T, std::size_t D>
bool reads_written_element(const L* p, const shape_t<D>& leaf_strides, const destination<T, D>& dest) noexcept {
    if constexpr (!std::is_same_v<std::remove_const_t<L>, std::remove_const_t<T>>) {
        return false;
    } else {
        if (p != dest.data) return false;
        for (std::size_t d = 0; d < D; ++d)
            if (dest.shape[d] > 1 && leaf_strides[d] != dest.strides[d]) return false;
        return true;
    }
}

/// True when an operand is constant along each destination row and reads, for row r,
/// an element of row r itself (Floyd-Warshall's `dist.col(k)`, or `a.col(0)` in
/// `a = a.col(0) + a`). The evaluator reads such a value once, when the row starts and
/// before any of it is written, so if whole rows belong to one thread no copy is needed.
template <class L, class T, std::size_t D>
bool reads_own_row(const L* p, const shape_t<D>& leaf_strides, const destination<T, D>& dest) noexcept {
    if constexpr (!std::is_same_v<std::remove_const_t<L>, std::remove_const_t<T>>) {
        return false;
    } else {
        std::size_t inner = D;
        for (std::size_t d = 0; d < D; ++d) {
            if (dest.shape[d] <= 1) continue;
            if (dest.strides[d] == 0) return false;  // a destination that writes elements twice
            inner = d;
        }
        if (!dest.whole_rows || inner == D || leaf_strides[inner] != 0) return false;
        for (std::size_t d = 0; d < D; ++d)
            if (d != inner && dest.shape[d] > 1 && leaf_strides[d] != dest.strides[d]) return false;
        const index_t offset = p - static_cast<const L*>(dest.data);
        const index_t step = dest.strides[inner];
        return offset % step == 0 && offset / step >= 0 && offset / step < dest.shape[inner];
    }
}

}  // namespace bsx::detail
