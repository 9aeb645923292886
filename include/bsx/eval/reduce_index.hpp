// bsx/eval/reduce_index.hpp: evaluating the index reductions (argmin, argmax and their
// nan* forms, reduce/reduce_ops.hpp). One scan in order along the reduced axis, which
// keeps the first index of the extreme: the result is exact, so it is the same at any
// thread count. An operand that is not contiguous memory is first evaluated into a buffer.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "../config.hpp"
#include "../shape/shape.hpp"
#include "assign.hpp"
#include "evaluator.hpp"

namespace bsx::detail {

/// Satisfied by the reductions whose result is an index (ops::first_index_of_extreme).
template <class Op>
concept finds_index = requires { Op::finds_index; };

/// The first index of Op's extreme among the m elements at p, its value into `best` (an
/// all-NaN line of a nan* form leaves NaN there and returns 0). One pass in blocks: each
/// block's extreme among its numbers, in lanes that vectorize, and whether it holds a NaN;
/// the running extreme remembers the first block that reached it. Then one block is
/// searched for the first element equal to the extreme, or (where a NaN wins) the first
/// block with a NaN for its first NaN, which ends the pass early.
template <class Op, class V>
index_t first_extreme_of_line(const V* p, index_t m, V* best) noexcept {
    constexpr index_t lanes = 16, block = 256;
    constexpr bool max = Op::better(V(1), V(0));
    using limits = std::numeric_limits<V>;
    constexpr V least = limits::has_infinity ? -limits::infinity() : limits::lowest();
    constexpr V most = limits::has_infinity ? limits::infinity() : limits::max();
    constexpr V start = max ? least : most;  // what every number reaches
    const auto beyond = [](V v, V than) { return max ? v > than : v < than; };
    // NaN flags as wide as the elements, so that the lane loop vectorizes in one width.
    using flag =
        std::conditional_t<sizeof(V) == 8, std::uint64_t,
                           std::conditional_t<sizeof(V) == 4, std::uint32_t,
                                              std::conditional_t<sizeof(V) == 2, std::uint16_t, std::uint8_t>>>;
    V extreme = start;
    index_t extreme_block = -1, nan_block = -1;
    for (index_t b = 0; b < m && nan_block < 0; b += block) {
        const index_t n = std::min(block, m - b);
        V lane[lanes];
        flag nan[lanes] = {};
        std::fill_n(lane, lanes, start);
        index_t j = 0;
        for (; j + lanes <= n; j += lanes) {
            BSX_SIMD_LOOP
            for (index_t l = 0; l < lanes; ++l) {
                const V v = p[b + j + l];
                lane[l] = beyond(v, lane[l]) ? v : lane[l];
                nan[l] |= flag(v != v);
            }
        }
        for (; j < n; ++j) {
            const V v = p[b + j];
            lane[0] = beyond(v, lane[0]) ? v : lane[0];
            nan[0] |= flag(v != v);
        }
        V block_extreme = lane[0];
        bool block_nan = false;
        for (index_t l = 0; l < lanes; ++l) {
            block_extreme = beyond(lane[l], block_extreme) ? lane[l] : block_extreme;
            block_nan |= nan[l] != 0;
        }
        if (block_nan && !Op::skips_nan) nan_block = b;
        // A block whose extreme is still `start` reaches it only with a number equal to it.
        bool reached = beyond(block_extreme, extreme) || extreme_block < 0;
        if (reached && block_extreme == start) {
            reached = false;
            for (index_t k = b; k < b + n && !reached; ++k) reached = p[k] == start;
        }
        if (reached) extreme = block_extreme, extreme_block = b;
    }
    if (nan_block >= 0) {
        index_t j = nan_block;
        while (p[j] == p[j]) ++j;
        *best = p[j];
        return j;
    }
    if (extreme_block < 0) {  // no number: an all-NaN line of a nan* form
        *best = limits::quiet_NaN();
        return 0;
    }
    *best = extreme;
    index_t j = extreme_block;
    while (p[j] != extreme) ++j;
    return j;
}

/// `width` side-by-side lines of m elements (line i's element j at p[j * width + i]):
/// each line's first index of Op's extreme into at[i], its value into best[i].
template <class Op, class V>
void first_extremes(const V* p, index_t m, index_t width, V* best, index_t* at) noexcept {
    if (width == 1) {
        *at = first_extreme_of_line<Op>(p, m, best);
        return;
    }
    std::copy_n(p, width, best);
    std::fill_n(at, width, index_t(0));
    if constexpr (std::is_floating_point_v<V>) {
        // Numbers only, the common case: one compare per element decides, and NaNs are only
        // noticed; a NaN anywhere sends the lines to the full rule below.
        constexpr bool max = Op::better(V(1), V(0));
        index_t nan = 0;  // as wide as the elements: a reduction of bools does not vectorize (GCC)
        for (index_t i = 0; i < width; ++i) nan |= index_t(best[i] != best[i]);
        for (index_t j = 1; j < m; ++j) {
            const V* row = p + j * width;
            // Not `omp simd reduction`: GCC keeps that reduction in memory, a store and a load
            // per vector; its own vectorizer keeps it in a register.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC ivdep
#endif
            for (index_t i = 0; i < width; ++i) {
                const V v = row[i], b = best[i];
                const bool replace = max ? v > b : v < b;
                best[i] = replace ? v : b;
                at[i] = replace ? j : at[i];
                nan |= index_t(v != v);
            }
        }
        if (nan == 0) return;
        std::copy_n(p, width, best);
        std::fill_n(at, width, index_t(0));
    }
    for (index_t j = 1; j < m; ++j) {
        const V* row = p + j * width;
        BSX_SIMD_LOOP
        for (index_t i = 0; i < width; ++i) {
            const V v = row[i], b = best[i];
            const bool replace = Op::better(v, b);
            best[i] = replace ? v : b;
            at[i] = replace ? j : at[i];
        }
    }
}

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_all_nan(std::string_view reduction) {
    throw std::invalid_argument("bsx: " + std::string(reduction) +
                                ": an all-NaN slice has no index (NumPy raises too)");
}

/// Op's index along `axis` (rank_v<E>: the flat index over all elements) into out, one
/// per output in row-major order. `e` is not empty. Throws for an all-NaN slice of a
/// nan* form before writing anything.
template <class Op, class E>
void reduce_indices(const E& e, std::size_t axis, index_t* out) {
    constexpr std::size_t N = rank_v<E>;
    using V = std::remove_cv_t<value_type_t<E>>;
    const auto shape = e.shape();
    const index_t total = shape_size(shape);
    const V* data = nullptr;
    std::shared_ptr<V[]> owner;
    if constexpr (strided_expression<E>) {
        if (is_contiguous(shape, e.strides())) data = e.data();
    }
    if (!data) {
        auto [copy, first] = make_line_aligned_buffer<V>(std::size_t(total));
        assign_broadcast(first, shape, contiguous_strides(shape), e);
        owner = std::move(copy);
        data = first;
    }
    index_t m = total, width = 1;
    if (axis < N) {
        m = shape[axis];
        for (std::size_t d = axis + 1; d < N; ++d) width *= shape[d];
    }
    const index_t outer = total / (m * width);
    const auto best = std::make_unique_for_overwrite<V[]>(std::size_t(width));
    // A nan* form may throw after some outputs: those go to a buffer of their own first.
    std::unique_ptr<index_t[]> staged;
    index_t* const to =
        Op::skips_nan ? (staged = std::make_unique_for_overwrite<index_t[]>(std::size_t(outer * width))).get() : out;
    for (index_t o = 0; o < outer; ++o) {
        first_extremes<Op>(data + o * m * width, m, width, best.get(), to + o * width);
        if constexpr (Op::skips_nan)
            for (index_t i = 0; i < width; ++i)
                if (best[i] != best[i]) throw_all_nan(Op::name);
    }
    if (Op::skips_nan) std::copy_n(to, outer * width, out);
}

/// Op's index along `axis` at the other indices of `idx`, as the value of one element.
template <class Op, class E>
index_t index_of_element(const E& e, std::size_t axis, shape_t<rank_v<E>> idx) {
    using V = std::remove_cv_t<value_type_t<E>>;
    const index_t m = e.shape()[axis];
    auto [owner, line] = make_line_aligned_buffer<V>(std::size_t(m));
    for (index_t j = 0; j < m; ++j) {
        idx[axis] = j;
        line[j] = e.element(idx);
    }
    index_t result = 0;
    reduce_indices<Op>(strided_view<const V, 1>(line, shape_t<1>{m}, shape_t<1>{1}), 1, &result);
    return result;
}

}  // namespace bsx::detail
