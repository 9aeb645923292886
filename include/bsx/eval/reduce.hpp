// bsx/eval/reduce.hpp: evaluating reductions. The operand is bound once, in its own
// index space; its leaves' strides then choose the traversal (plan_reduction): the inner
// one (eval/reduce_inner.hpp) when the reduced axis is the fast one, the outer one
// (eval/reduce_outer.hpp) otherwise. Both follow the one tree of eval/reduce_tree.hpp,
// so results are the same bits for any traversal split and any thread count.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <type_traits>

#include "../config.hpp"
#include "../shape/shape.hpp"
#include "alias.hpp"
#include "evaluator.hpp"
#include "loop.hpp"
#include "reduce_index.hpp"
#include "reduce_inner.hpp"
#include "reduce_outer.hpp"
#include "reduce_tree.hpp"

namespace bsx::detail {

/// Outputs this wide or wider make the outer traversal worth its per-row set-up.
inline constexpr index_t min_outer_outputs = 16;

/// True when reducing `axis` by the outer traversal reads fewer operands through gathers
/// than the inner one: the inner one walks `axis` fastest, the outer one the last axis.
template <std::size_t N>
bool prefer_outer(std::span<operand_steps<N>* const> leaves, const shape_t<N>& shape, std::size_t axis) {
    index_t after = 1;
    for (std::size_t d = axis + 1; d < N; ++d) after *= shape[d];
    if (shape[axis] <= 1 || after < min_outer_outputs) return false;
    const auto gathered = [](index_t stride) { return stride != 0 && stride != 1; };
    int inner_gathers = 0, outer_gathers = 0;
    for (const auto* leaf : leaves) {
        inner_gathers += gathered(leaf->stride[axis]);
        outer_gathers += gathered(leaf->stride[N - 1]);
    }
    return outer_gathers < inner_gathers;
}

/// Chunk length for a loop whose operands `leaves` are all read where they lie along its
/// last axis (unit stride, no period tile) and whose chunks no math node bounds (`math`):
/// 64 times BSX_CHUNK, which cuts the per-chunk cost (of byte-sized elements above all);
/// else BSX_CHUNK. Chunks along a row are not the tree's: the tree is cut along the
/// reduced axis alone.
template <std::size_t N>
index_t row_chunk(std::span<operand_steps<N>* const> leaves, std::size_t last, bool math) {
    std::size_t constant_leaf = 0;  // a constant operand is read from a tile filled per chunk
    const bool in_place = !math && rows_read_in_place<N>(leaves, last, constant_leaf) && constant_leaf == 0;
    return in_place ? 64 * BSX_CHUNK : BSX_CHUNK;
}

/// The type of a finished reduction of E, which is also its accumulator type.
template <class Op, class E>
using reduced_t = typename Op::template accumulator<value_type_t<E>>;

/// The reduction whose tree Op's accumulators follow: Op itself, or the one it names as
/// `combines_as` (mean's is sum's: it only divides at the end), so that reductions that
/// combine alike share their compiled traversals.
template <class Op>
struct tree_op {
    using type = Op;
};
template <class Op>
    requires requires { typename Op::combines_as; }
struct tree_op<Op> {
    using type = typename Op::combines_as;
};
template <class Op>
using tree_op_t = typename tree_op<Op>::type;

/// How a reduction of a rank-N operand runs: the traversal and its loop nest.
template <std::size_t N>
struct reduction_plan {
    bool outer = false;  // the outer traversal, with `layout`; else the inner one, with `loop`
    outer_layout<N> layout{};
    loop_shape<N> loop{};  // the inner traversal's nest: the reduced axis last
    index_t chunk = 0;     // the inner traversal's chunk
};

/// The plan for reducing `axis` (N: all) of an operand of `shape` whose bound leaves are
/// ops[1...] (ops[0] stands for the output; the leaves' strides are permuted and
/// coalesced in place). `math`: the operand holds a math node; `tree_free`: the
/// reduction needs no chunk tree (see reduce_tree.hpp).
template <std::size_t N>
reduction_plan<N> plan_reduction(const shape_t<N>& shape, std::size_t axis, const shape_t<N>& out_strides,
                                 std::span<operand_steps<N>* const> ops, bool math, bool tree_free) {
    reduction_plan<N> plan;
    operand_steps<N>& flat = *ops[0];
    const auto leaves = ops.subspan(1);
    if (axis < N && prefer_outer<N>(leaves, shape, axis)) {
        plan.outer = true;
        flat.stride = out_strides;
        outer_layout<N>& lay = plan.layout;
        lay = {coalesce<N>(shape, ops), 0, 1, shape[axis], 1, {}, 0};
        lay.chunk = row_chunk<N>(leaves, lay.loop.nd - 1, math);
        lay.in_place = !math && rows_read_in_place<N>(leaves, lay.loop.nd - 1, lay.constant_leaf);
        // Holding an operand in a register pays where it is one of several (the a(i, k) of
        // a product); a lone operand constant along the row reads its tile.
        if (lay.constant_leaf != 0 && leaves.size() < 2) lay.in_place = false;
        while (flat.stride[lay.kpos] != 0) lay.P *= lay.loop.extent[lay.kpos++];
        for (std::size_t d = lay.kpos + 1; d < lay.loop.nd; ++d) {
            lay.inner.extent[lay.inner.nd++] = lay.loop.extent[d];
            lay.Q *= lay.loop.extent[d];
        }
        return plan;
    }
    // The inner traversal's index space: the reduced axis moved last.
    shape_t<N> space{};
    std::array<std::size_t, N> to{};
    for (std::size_t d = 0, next = 0; d < N; ++d) {
        to[d] = axis == N ? d : d == axis ? N - 1 : next++;
        space[to[d]] = shape[d];
    }
    for (auto* leaf : leaves) {
        const shape_t<N> s = leaf->stride;
        for (std::size_t d = 0; d < N; ++d) leaf->stride[to[d]] = s[d];
    }
    flat.stride = contiguous_strides(space);
    plan.loop = coalesce<N>(space, ops);
    // Here chunks are the tree's, unless the reduction needs no tree.
    plan.chunk = tree_free ? row_chunk<N>(leaves, plan.loop.nd - 1, math) : BSX_CHUNK;
    return plan;
}

/// Where output r of a reduction of `shape` along `axis` lies, for the operand's index i:
/// contiguous over the other axes, constant along the reduced one.
template <std::size_t N>
shape_t<N> output_strides(const shape_t<N>& shape, std::size_t axis) noexcept {
    shape_t<N> out_strides{};
    for (index_t d = index_t(N), step = 1; d-- > 0;) {
        if (std::size_t(d) == axis) continue;
        out_strides[std::size_t(d)] = step;
        step *= shape[std::size_t(d)];
    }
    return out_strides;
}

/// `e` (rank N >= 1, not empty) bound in its own index space, and the plan of its
/// reduction along `axis` by a reduction with accumulators A that needs no chunk tree or
/// does (`tree_free`; a value, not the reduction, so that reductions share this). `out`:
/// the assignment's own destination when the outputs go straight there (then operands
/// that overlap it are read from copies), else null.
template <class E, class A>
auto bind_reduction(const E& e, std::size_t axis, A* out, bool tree_free) {
    constexpr std::size_t N = rank_v<E>;
    const auto shape = e.shape();
    const shape_t<N> out_strides = output_strides(shape, axis);
    // As a destination, the output makes binding copy the operands that overlap it. (Of
    // A, not const A: binding then shares its code with assignments to A.)
    const destination<A, N> written =
        out ? destination<A, N>{out, shape, out_strides, false} : destination<A, N>{nullptr, {}, {}, false};
    std::array<std::size_t, N> identity{};
    for (std::size_t d = 0; d < N; ++d) identity[d] = d;
    auto ev = make_evaluator(e, index_map<N, N>::aligned(identity), written);
    using Ev = decltype(ev);
    std::array<leaf_cursor<N>*, Ev::leaf_count> leaves{};
    ev.collect_leaves(leaves.data());
    operand_steps<N> flat{};
    std::array<operand_steps<N>*, 1 + Ev::leaf_count> ops{&flat};
    for (std::size_t i = 0; i < Ev::leaf_count; ++i) ops[i + 1] = &leaves[i]->steps;
    const auto plan = plan_reduction<N>(shape, axis, out_strides, ops, bounded_chunks<Ev>, tree_free);
    struct bound {
        Ev ev;
        reduction_plan<N> plan;
    };
    return bound{std::move(ev), plan};
}

/// The plan of reducing `e` along `axis` (rank_v<E>: all of it) by Op, for tests that pin
/// which traversal a reduction takes.
template <class Op, class E>
reduction_plan<rank_v<E>> plan_reduction_of(const E& e, std::size_t axis) {
    using A = reduced_t<Op, E>;
    return bind_reduction(e, axis, static_cast<A*>(nullptr), tree_free<tree_op_t<Op>, A>).plan;
}

/// Reduces expression `e` (rank N) along `axis` (N: over all elements) into `out`, one
/// finished value per output in row-major order. A plain buffer, not a callback, so
/// one instantiation serves every caller. `direct`: out is the assignment's own
/// destination (contiguous, of the result's shape), so operands that overlap it are read
/// from copies; otherwise out is a private buffer.
template <class Op, class E>
void reduce_by_tree(const E& e, std::size_t axis, reduced_t<Op, E>* out, bool direct) {
    constexpr std::size_t N = rank_v<E>;
    using A = reduced_t<Op, E>;
    using Tree = tree_op_t<Op>;
    const auto shape = e.shape();
    const index_t total = shape_size(shape);
    const index_t m = axis == N ? total : shape[axis];
    const index_t outputs = axis == N ? 1 : (m == 0 ? [&] {
        index_t n = 1;
        for (std::size_t d = 0; d < N; ++d)
            if (d != axis) n *= shape[d];
        return n;
    }()
                                                    : total / m);
    if (total == 0) {  // nothing to read: every output is the empty reduction
        for (index_t r = 0; r < outputs; ++r) out[r] = Op::finish(Op::template identity<A>(), 0);
        return;
    }
    if constexpr (N == 0) {
        out[0] = Op::finish(static_cast<A>(e.element({})), 1);
    } else {
        const auto bound = bind_reduction(e, axis, direct ? out : nullptr, tree_free<Tree, A>);
        using Ev = std::remove_const_t<decltype(bound.ev)>;
        const auto copies = evaluator_copies<N>::for_reduction(bound.ev);
        if (bound.plan.outer)
            reduce_tiles<Tree, A, N>(copies, outer_kernels_of<Tree, A, Ev, N>::for_layout(bound.plan.layout),
                                     bound.plan.layout, out);
        else
            reduce_outputs<Tree, A, N>(copies, inner_kernels_of<Tree, A, Ev, N>::kernels, bound.plan.loop, outputs, m,
                                       bound.plan.chunk, out);
        if constexpr (!std::is_same_v<Tree, Op>)
            for (index_t r = 0; r < outputs; ++r) out[r] = Op::finish(out[r], m);
    }
}

/// What reduce_by_tree does, for every reduction: the index reductions (argmin, argmax and
/// their nan* forms) scan instead of following the tree.
template <class Op, class E>
void reduce_expression(const E& e, std::size_t axis, reduced_t<Op, E>* out, bool direct) {
    if constexpr (finds_index<Op>) {
        if (shape_size(e.shape()) != 0) reduce_indices<Op>(e, axis, out);
    } else {
        reduce_by_tree<Op>(e, axis, out, direct);
    }
}

/// Reduces `e` along `axis` at the other indices of `idx`, as the value of one element:
/// the same tree as the traversals, so the same bits.
template <class Op, class E>
auto reduce_element(const E& e, std::size_t axis, shape_t<rank_v<E>> idx) {
    using V = value_type_t<E>;
    using A = typename Op::template accumulator<V>;
    using Tree = tree_op_t<Op>;
    const index_t m = e.shape()[axis];
    if (m == 0) return Op::finish(Op::template identity<A>(), 0);
    const block_plan plan(m);
    A result, stream[pairwise_stream<Tree, A>::max_slots], halving[block_plan::max_blocks];
    combine_chunks<Tree, A>(plan, m, 1, &result, stream, halving, [&](index_t c0, index_t c1, A* room) {
        V tile[BSX_CHUNK];
        for (index_t t = 0; t < c1 - c0; ++t) {
            idx[axis] = c0 + t;
            tile[t] = e.element(idx);
        }
        *room = reduce_chunk<Tree, A>(memory_reader<V>{tile}, c1 - c0);
        return static_cast<const A*>(room);
    });
    return Op::finish(result, m);
}

}  // namespace bsx::detail
