// bsx/eval/assign.hpp: the entry points of evaluation. Every way of writing an
// expression into memory (construction, =, op=, view assignment, fill) ends in
// assign_broadcast: bind the tree, coalesce, run the one fused loop.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

#include "../detail/operand.hpp"
#include "../expr/map_node.hpp"
#include "../shape/rules.hpp"
#include "evaluator.hpp"
#include "loop.hpp"

namespace bsx::detail {

/// `r = sum(x, axis(k))` into a contiguous r of the reduction's own shape and type: the
/// reduction writes its outputs straight into r (no buffer of r's size, no copy pass).
/// False when r does not qualify.
template <class T, std::size_t D, class E>
bool reduce_into(T* data, const shape_t<D>& shape, const shape_t<D>& strides, const E& e) {
    if constexpr (rank_v<E> != D || !std::is_same_v<value_type_t<E>, T>) {
        return false;
    } else {
        if (e.shape() != shape || !is_contiguous(shape, strides)) return false;
        check_not_resized(e);
        reduce_expression<typename E::reduction>(e.operand(), e.reduced_axis(), data, true);
        return true;
    }
}

/// Writes `expr` broadcast to `shape` into the strided memory at `data`.
/// Precondition: the expression's shape broadcasts to `shape` (checked by the callers).
template <class T, std::size_t D, class E>
void assign_broadcast(T* data, const shape_t<D>& shape, const shape_t<D>& strides, const E& expr) {
    if constexpr (D == 0) {
        assign_broadcast<T, 1>(data, {1}, {1}, expr);
    } else {
        const index_t total = shape_size(shape);
        if (total == 0) return;
        if constexpr (requires { expr.reduced_axis(); })
            if (reduce_into(data, shape, strides, expr)) return;
        // Rows (along the innermost axis of extent > 1) stay whole on one thread whenever
        // there are enough of them; that lets operands that read their own row skip a copy.
        index_t row = 1;
        for (std::size_t d = 0; d < D; ++d)
            if (shape[d] > 1) row = shape[d];
        const int threads = loop_threads(total);
        const bool whole_rows = total / row >= threads;
        const destination<T, D> dest{data, shape, strides, whole_rows};
        constexpr std::size_t r = rank_v<E>;
        axis_map<r> axes{};
        for (std::size_t k = 0; k < r; ++k) axes[k] = rules_of_t<E>::result_axis(k, r, D);
        auto ev = make_evaluator(expr, axes, dest);
        using steps_t = operand_steps<D>;
        steps_t dst{strides, 0};
        std::array<steps_t*, 1 + decltype(ev)::leaf_count> all{&dst};
        ev.collect_steps(all.data() + 1);
        const auto loop = coalesce<D>(shape, all);
        // Rows that every operand and the destination walk with unit stride run as one
        // chunk; otherwise chunks are sized for the tiles: long when the only tiles are
        // period tiles, BSX_CHUNK when a constant or gathered tile is filled per chunk.
        bool direct = true, periodic = true;
        for (const steps_t* o : all) {
            const bool unit = o->stride[loop.nd - 1] == 1 && o->period == 0;
            direct &= unit;
            periodic &= unit || o->period != 0;  // the destination never has a period
        }
        // A math node's tiles bound the chunk even when every operand is unit-stride.
        const index_t row_chunk = bounded_chunks<decltype(ev)> ? std::min(loop.extent[loop.nd - 1], periodic_chunk)
                                                               : loop.extent[loop.nd - 1];
        const index_t chunk = direct ? row_chunk : periodic ? periodic_chunk : BSX_CHUNK;
        run_loop(ev, data, dst.stride, loop, chunk, threads, whole_rows ? row : 1);
    }
}

/// `dest = x` for a destination that never changes shape (a view, or an array of the
/// right shape): x must broadcast to the destination's shape.
template <class T, std::size_t D, class X>
void assign_to(std::string_view operation, T* data, const shape_t<D>& shape, const shape_t<D>& strides,
               X&& x) {
    static_assert(operand<X>, "bsx: the right-hand side must be a bsx expression or an arithmetic scalar");
    const auto held = hold(std::forward<X>(x));
    const auto& e = unwrap(held);
    check_broadcast_to<rules_of_t<decltype(e)>>(operation, e.shape(), shape);
    assign_broadcast(data, shape, strides, e);
}

/// `dest op= x`: the destination is read as the left operand at exactly the element
/// being written, so it never needs a copy.
template <class Op, class T, std::size_t D, class X>
void compound_assign(std::string_view operation, Op op, T* data, const shape_t<D>& shape,
                     const shape_t<D>& strides, X&& x) {
    static_assert(operand<X>, "bsx: the right-hand side must be a bsx expression or an arithmetic scalar");
    auto held = hold(std::forward<X>(x));
    check_broadcast_to<rules_of_t<decltype(unwrap(held))>>(operation, unwrap(held).shape(), shape);
    using self_view = strided_view<const T, D>;
    const map_node<Op, self_view, decltype(held)> node(std::move(op), self_view(data, shape, strides),
                                                       std::move(held));
    assign_broadcast(data, shape, strides, node);
}

}  // namespace bsx::detail
