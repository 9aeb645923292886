// bsx/eval/assign.hpp: the entry points of evaluation. Every way of writing an
// expression into memory (construction, =, op=, view assignment, fill) ends in
// assign_broadcast: bind the tree, coalesce, run the one fused loop.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <numeric>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

#include "../expr/operand.hpp"
#include "../expr/map_node.hpp"
#include "../shape/rules.hpp"
#include "../view/strided_view.hpp"
#include "evaluator.hpp"
#include "loop.hpp"
#include "static_loop.hpp"

namespace bsx::detail {

/// Writes `expr` broadcast to `shape` into the strided memory at `data`.
/// Precondition: the expression's shape broadcasts to `shape` (checked by the callers).
template <class T, std::size_t D, class E>
void assign_broadcast(T* data, const shape_t<D>& shape, const shape_t<D>& strides, const E& expr) {
    if constexpr (D == 0) {
        assign_broadcast<T, 1>(data, {1}, {1}, expr);
    } else {
        if constexpr (static_loop_expression<E> && rank_v<E> == D) {
            if (shape == static_shape_v<E> && strides == contiguous_strides(shape)) return assign_static(data, expr);
        }
        const index_t total = shape_size(shape);
        if (total == 0) return;
        if (binder<E>::write_into(expr, data, shape, strides)) return;
        // Rows (along the innermost axis of extent > 1) stay whole on one thread whenever
        // there are enough of them; that lets operands that read their own row skip a copy.
        index_t row = 1;
        for (std::size_t d = 0; d < D; ++d)
            if (shape[d] > 1) row = shape[d];
        const int threads = loop_threads(total);
        const bool whole_rows = total / row >= threads;
        const destination<T, D> dest{data, shape, strides, whole_rows};
        constexpr std::size_t r = rank_v<E>;
        std::array<std::size_t, r> to{};
        for (std::size_t k = 0; k < r; ++k) to[k] = rules_of_t<E>::result_axis(k, r, D);
        auto ev = make_evaluator(expr, index_map<r, D>::aligned(to), dest);
        using steps_t = operand_steps<D>;
        steps_t dst{strides, 0};
        std::array<steps_t*, 1 + decltype(ev)::leaf_count> all{&dst};
        ev.collect_steps(all.data() + 1);
        const auto loop = coalesce<D>(shape, all);
        const index_t granule = whole_rows ? row : 1;
        // Rows that the destination writes with unit stride and every operand reads with
        // stride 1, or 0 for at most one operand, run whole (run_rows) unless streamed;
        // any other row runs in chunks through tiles: long chunks when the only tiles are
        // period tiles, BSX_CHUNK when a constant or gathered tile is filled per chunk.
        const std::size_t inner = loop.nd - 1;
        std::size_t constant_leaf = 0;  // 1 + the leaf constant along rows; 0: none
        const bool direct =
            dst.stride[inner] == 1 &&
            rows_read_in_place<D>(std::span<steps_t* const>(all.data() + 1, all.size() - 1), inner, constant_leaf);
        bool periodic = dst.stride[inner] == 1;
        index_t periods = 16;  // the least common multiple of 16 and the operands' periods
        for (std::size_t i = 1; i < all.size(); ++i) {
            const steps_t& o = *all[i];
            periodic &= o.stride[inner] == 1 || o.period != 0;
            if (o.period != 0 && periods <= periodic_chunk) periods = std::lcm(periods, o.period);
        }
        // Large destinations that the expression does not read are written with streaming
        // stores (in unit-stride rows), which do not read them into the cache first.
        const bool streaming = dst.stride[inner] == 1 && std::size_t(total) * sizeof(T) >= BSX_STREAMING_THRESHOLD &&
                               !ev.reads_memory_of_destination();
        // A math node's tiles bound the chunk, so its rows are never written whole; nor
        // are streamed rows, which go through a tile anyway.
        if (direct && !bounded_chunks<decltype(ev)> && !streaming) {
            with_constant_leaf<decltype(ev)::leaf_count>(constant_leaf, [&](auto mask) {
                run_loop(total, threads, granule, [&](index_t begin, index_t end, const first_exception* errors) {
                    run_rows<decltype(mask)::value>(ev, data, dst.stride, loop, begin, end, errors);
                });
            });
            return;
        }
        // A chunk reads a period tile from where it starts in the period. Chunks of a
        // multiple of every period all start where the first did, so the tile reads keep
        // its alignment (with a period of 3 doubles, two chunks in three would read 8 or 16
        // bytes off and split their vector loads across cache lines); of 16 elements, they
        // are whole vectors and need no remainder loop.
        const index_t periodic_len = periods <= periodic_chunk ? periodic_chunk / periods * periods : periodic_chunk;
        const index_t chunk = direct     ? std::min(loop.extent[loop.nd - 1], periodic_chunk)
                              : periodic ? periodic_len
                                         : BSX_CHUNK;
        run_loop(total, threads, granule, [&](index_t begin, index_t end, const first_exception* errors) {
            run_range(ev, data, dst.stride, loop, chunk, streaming, begin, end, errors);
        });
    }
}

/// `dest = x` for a destination that never changes shape (a view, or an array of the
/// right shape): x must broadcast to the destination's shape.
template <class T, std::size_t D, class X>
void assign_to(std::string_view operation, T* data, const shape_t<D>& shape, const shape_t<D>& strides, X&& x) {
    static_assert(operand<X>, "bsx: the right-hand side must be a bsx expression or an arithmetic scalar");
    const auto held = hold(std::forward<X>(x));
    const auto& e = unwrap(held);
    check_broadcast_to<rules_of_t<decltype(e)>>(operation, e.shape(), shape);
    assign_broadcast(data, shape, strides, e);
}

/// `dest op= x`: the destination is read as the left operand at exactly the element
/// being written, so it never needs a copy. A destination of static shape (a fixed_array)
/// is read as itself and assigned the node by its own operator=, so that an all-static
/// update runs the static loop and any copy it needs stays on the stack.
template <class Op, class Dest, class X>
void compound_assign(std::string_view operation, Op op, Dest& dest, X&& x) {
    static_assert(operand<X>, "bsx: the right-hand side must be a bsx expression or an arithmetic scalar");
    auto held = hold(std::forward<X>(x));
    check_broadcast_to<rules_of_t<decltype(unwrap(held))>>(operation, unwrap(held).shape(), dest.shape());
    if constexpr (statically_shaped<Dest>) {
        dest = map_node<Op, std::reference_wrapper<const Dest>, decltype(held)>(std::move(op), std::cref(dest),
                                                                                std::move(held));
    } else {
        using self_view = strided_view<const std::remove_pointer_t<decltype(dest.data())>, rank_v<Dest>>;
        const map_node<Op, self_view, decltype(held)> node(
            std::move(op), self_view(dest.data(), dest.shape(), dest.strides()), std::move(held));
        assign_broadcast(dest.data(), dest.shape(), dest.strides(), node);
    }
}

}  // namespace bsx::detail
