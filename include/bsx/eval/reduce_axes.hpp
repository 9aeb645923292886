// bsx/eval/reduce_axes.hpp: reductions over several axes at once, `sum(x, axes(0, 2))`.
// The operand is evaluated into a buffer laid out with the kept axes first and the reduced
// ones last, which then reduces along one merged axis: the tree of one axis of their
// combined length, so the same bits as NumPy's order of elements at any thread count.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

#include "../config.hpp"
#include "../shape/shape.hpp"
#include "../view/strided_view.hpp"
#include "assign.hpp"
#include "evaluator.hpp"
#include "reduce.hpp"

namespace bsx::detail {

/// The operand's axes in buffer order: the kept ones in order, then the reduced `axes`
/// (sorted, distinct).
template <std::size_t N, std::size_t K>
std::array<std::size_t, N> kept_then_reduced(const std::array<std::size_t, K>& axes) noexcept {
    std::array<std::size_t, N> order{};
    std::size_t next = 0;
    for (std::size_t d = 0; d < N; ++d)
        if (std::find(axes.begin(), axes.end(), d) == axes.end()) order[next++] = d;
    for (const std::size_t a : axes) order[next++] = a;
    return order;
}

/// `e` evaluated into a new buffer laid out with `axes` (sorted, distinct) last, and that
/// buffer's shape with those axes merged into one: (kept extents..., their product).
template <class E, std::size_t K>
struct axes_last {
    using value_type = std::remove_cv_t<value_type_t<E>>;
    std::shared_ptr<value_type[]> owner;
    value_type* first;
    shape_t<rank_v<E> - K + 1> shape;
};
template <class E, std::size_t K>
axes_last<E, K> evaluate_with_axes_last(const E& e, const std::array<std::size_t, K>& axes) {
    constexpr std::size_t N = rank_v<E>, M = N - K + 1;
    const auto shape = e.shape();
    const auto order = kept_then_reduced<N>(axes);
    shape_t<N> strides{};  // where element i of e lies in the buffer
    for (index_t p = index_t(N), step = 1; p-- > 0;) {
        strides[order[std::size_t(p)]] = step;
        step *= shape[order[std::size_t(p)]];
    }
    shape_t<M> merged{};
    merged[M - 1] = 1;
    for (std::size_t p = 0; p < N; ++p) {
        if (p < M - 1)
            merged[p] = shape[order[p]];
        else
            merged[M - 1] *= shape[order[p]];
    }
    const auto total = shape_size(shape);
    auto [owner, first] = make_line_aligned_buffer<typename axes_last<E, K>::value_type>(std::size_t(total));
    if (total != 0) assign_broadcast(first, shape, strides, e);
    return {std::move(owner), first, merged};
}

/// Reduces `e` over `axes` (K >= 2 of them, sorted and distinct) into `out`, one value per
/// output in row-major order of the kept axes.
template <class Op, class E, std::size_t K>
void reduce_axes_expression(const E& e, const std::array<std::size_t, K>& axes, reduced_t<Op, E>* out) {
    constexpr std::size_t M = rank_v<E> - K + 1;
    using V = value_type_t<E>;
    const auto laid = evaluate_with_axes_last(e, axes);
    reduce_expression<Op>(strided_view<const V, M>(laid.first, laid.shape, contiguous_strides(laid.shape)), M - 1, out,
                          false);
}

/// One output of that reduction, at the kept indices of `at`: the elements of its slice,
/// in the same order, reduced by the same tree.
template <class Op, class E, std::size_t K>
auto reduce_axes_element(const E& e, const std::array<std::size_t, K>& axes, shape_t<rank_v<E>> at) {
    using V = value_type_t<E>;
    const auto shape = e.shape();
    index_t m = 1;
    for (const std::size_t a : axes) m *= shape[a];
    auto [owner, first] = make_line_aligned_buffer<V>(std::size_t(m));
    for (const std::size_t a : axes) at[a] = 0;
    for (index_t j = 0; j < m; ++j) {
        first[j] = e.element(at);
        for (std::size_t t = K; t-- > 0;) {  // the next index, the last reduced axis fastest
            if (++at[axes[t]] < shape[axes[t]]) break;
            at[axes[t]] = 0;
        }
    }
    reduced_t<Op, E> result{};
    reduce_expression<Op>(strided_view<const V, 1>(first, shape_t<1>{m}, shape_t<1>{1}), 0, &result, false);
    return result;
}

}  // namespace bsx::detail
