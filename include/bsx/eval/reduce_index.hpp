// bsx/eval/reduce_index.hpp: evaluating the index reductions (argmin, argmax and their
// nan* forms, reduce/reduce_ops.hpp). One scan in order along the reduced axis, which
// keeps the first index of the extreme: the result is exact, so it is the same at any
// thread count. An operand that is not contiguous memory is first evaluated into a buffer.
#pragma once

#include <algorithm>
#include <cstddef>
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

/// The first index of Op's extreme among the m elements at p, its value into `best`: the
/// extreme's value first, in lanes that vectorize, then the first element equal to it (the
/// first NaN, where a NaN wins). An all-NaN line of a nan* form leaves NaN in `best`.
template <class Op, class V>
index_t first_extreme_of_line(const V* p, index_t m, V* best) noexcept {
    constexpr index_t lanes = 8;
    V lane[lanes];
    std::fill_n(lane, lanes, p[0]);
    index_t j = 0;
    for (; j + lanes <= m; j += lanes) {
        BSX_SIMD_LOOP
        for (index_t l = 0; l < lanes; ++l) lane[l] = Op::better(p[j + l], lane[l]) ? p[j + l] : lane[l];
    }
    V e = p[0];
    for (const V v : lane) e = Op::better(v, e) ? v : e;
    for (; j < m; ++j) e = Op::better(p[j], e) ? p[j] : e;
    *best = e;
    const bool nan = e != e;  // a NaN won, or (nan* forms) no element is a number
    if (nan && Op::skips_nan) return 0;
    for (j = 0; nan ? p[j] == p[j] : p[j] != e;) ++j;
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
