// bsx/eval/assign.hpp: the entry points of evaluation. Every way of writing an
// expression into memory (construction, =, op=, view assignment, fill) ends in
// assign_broadcast: bind the tree, plan the loop (eval/loop_plan.hpp), run its kernel.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include "../detail/refusals.hpp"
#include "../expr/operand.hpp"
#include "../expr/map_node.hpp"
#include "../shape/rules.hpp"
#include "../view/strided_view.hpp"
#include "evaluator.hpp"
#include "kernels.hpp"
#include "loop.hpp"
#include "loop_plan.hpp"
#include "static_loop.hpp"

namespace bsx::detail {

/// What a caller knows of the destination's rows: unit-stride whenever the destination is
/// an array, or perhaps strided (a view). Only the second compiles a kernel that writes
/// strided rows in place; with the first, a destination whose rows are strided after all
/// (a block assembled into a view) is written through tiles.
enum class destination_rows { unit_stride, any_stride };

/// Whether evaluator Ev is a math node that writes unit-stride rows reading its argument
/// where it lies (math_evaluator::reads_rows_in_place).
template <class Ev>
concept math_root_reading_in_place = Ev::reads_rows_in_place;

/// The strided kernel an assignment of E, bound as Ev, into such rows compiles. Math nodes
/// read their arguments from tiles, so an expression that holds one compiles none, unless
/// its root reads in place, and then only for unit-stride rows of the destination.
template <class Ev, class E, destination_rows Rows>
inline constexpr strided_kernel strided_kernel_of =
    !Ev::has_math                    ? strided_kernel{binder<E>::may_read_strided, Rows == destination_rows::any_stride}
    : math_root_reading_in_place<Ev> ? strided_kernel{binder<E>::may_read_strided, false}
                                     : strided_kernel{};

/// The path an assignment of `expr` into strided memory takes before anything is bound:
/// empty, static_loop or reduction_into; loop_kind::rows stands for "bind and plan".
template <class T, std::size_t D, class E>
loop_kind unbound_path(const T* data, const shape_t<D>& shape, const shape_t<D>& strides, const E& expr) {
    if constexpr (static_loop_expression<E> && rank_v<E> == D)
        if (shape == static_shape_v<E> && strides == contiguous_strides(shape)) return loop_kind::static_loop;
    if (shape_size(shape) == 0) return loop_kind::empty;
    if (binder<E>::can_write_into(expr, data, shape, strides)) return loop_kind::reduction_into;
    return loop_kind::rows;
}

/// `expr` bound to the destination, and the plan of the loop that writes it.
template <destination_rows Rows, class T, std::size_t D, class E>
auto bind_and_plan(T* data, const shape_t<D>& shape, const shape_t<D>& strides, const E& expr) {
    const row_split split = split_rows(shape);
    constexpr std::size_t r = rank_v<E>;
    std::array<std::size_t, r> to{};
    for (std::size_t k = 0; k < r; ++k) to[k] = rules_of_t<E>::result_axis(k, r, D);
    const destination<T, D> dest{data, shape, strides, split.whole_rows};
    using Ev = decltype(make_evaluator(expr, index_map<r, D>::aligned(to), dest));
    struct bound {
        Ev ev;
        loop_plan<D> plan;
    };
    // The evaluator is bound in place (no copy of it on the way out: small assignments
    // would feel it).
    bound b{make_evaluator(expr, index_map<r, D>::aligned(to), dest), {}};
    operand_steps<D> dst{strides, sizeof(T)};
    std::array<leaf_cursor<D>*, Ev::leaf_count> leaves{};
    b.ev.collect_leaves(leaves.data());
    std::array<operand_steps<D>*, 1 + Ev::leaf_count> ops{&dst};
    for (std::size_t i = 0; i < Ev::leaf_count; ++i) ops[i + 1] = &leaves[i]->steps;
    b.plan = plan_loop<D>(shape, ops, split, sizeof(T), bounded_chunks<Ev>, strided_kernel_of<Ev, E, Rows>,
                          b.ev.reads_memory_of_destination(), std::is_same_v<Ev, leaf_evaluator<T, D>>);
    return b;
}

/// Writes `expr` broadcast to `shape` into the strided memory at `data`, whose rows are
/// as Rows says. Precondition: the expression's shape broadcasts to `shape` (checked by
/// the callers).
template <destination_rows Rows = destination_rows::unit_stride, class T, std::size_t D, class E>
void assign_broadcast(T* data, const shape_t<D>& shape, const shape_t<D>& strides, const E& expr) {
    if constexpr (D == 0) {
        assign_broadcast<destination_rows::unit_stride, T, 1>(data, {1}, {1}, expr);
    } else if constexpr (binder<E>::template writes_every_destination<T, D>) {
        if (shape_size(shape) != 0) binder<E>::write_into(expr, data, shape, strides);
    } else {
        switch (unbound_path(data, shape, strides, expr)) {
            case loop_kind::empty:
                return;
            case loop_kind::static_loop:
                if constexpr (static_loop_expression<E> && rank_v<E> == D) assign_static(data, expr);
                return;
            case loop_kind::reduction_into:
                binder<E>::write_into(expr, data, shape, strides);
                return;
            default:
                break;
        }
        auto bound = bind_and_plan<Rows>(data, shape, strides, expr);
        using Ev = decltype(bound.ev);
        std::array<leaf_cursor<D>*, Ev::leaf_count> leaves{};
        bound.ev.collect_leaves(leaves.data());
        run_plan(bound.plan, evaluator_copy<D>{&bound.ev, {leaves.data(), Ev::leaf_count}},
                 evaluator_copies<D>::of(bound.ev), kernels_for<Ev, T, D, strided_kernel_of<Ev, E, Rows>>(bound.plan),
                 data, sizeof(T));
    }
}

/// The plan `dest = expr` would run (its kind alone for the paths that bind nothing), for
/// tests that pin which path an assignment takes.
template <destination_rows Rows = destination_rows::unit_stride, class T, std::size_t D, class E>
loop_plan<D> plan_assignment(T* data, const shape_t<D>& shape, const shape_t<D>& strides, const E& expr) {
    if (const loop_kind path = unbound_path(data, shape, strides, expr); path != loop_kind::rows) {
        loop_plan<D> plan;
        plan.kind = path;
        return plan;
    }
    return bind_and_plan<Rows>(data, shape, strides, expr).plan;
}

/// `dest = x` for a destination that never changes shape (a view, or an array of the
/// right shape): x must broadcast to the destination's shape.
template <class T, std::size_t D, class X>
void assign_to(std::string_view operation, T* data, const shape_t<D>& shape, const shape_t<D>& strides, X&& x) {
    static_assert(operand<X>, BSX_REFUSAL_NON_NUMERIC_SOURCE(message));
    const auto held = hold(std::forward<X>(x));
    const auto& e = unwrap(held);
    check_broadcast_to<rules_of_t<decltype(e)>>(operation, e.shape(), shape);
    assign_broadcast<destination_rows::any_stride>(data, shape, strides, e);
}

/// `dest op= x`: the destination is read as the left operand at exactly the element
/// being written, so it never needs a copy. A destination of static shape (a fixed_array)
/// is read as itself and assigned the node by its own operator=, so that an all-static
/// update runs the static loop and any copy it needs stays on the stack.
template <class Op, class Dest, class X>
void compound_assign(std::string_view operation, Op op, Dest& dest, X&& x) {
    static_assert(operand<X>, BSX_REFUSAL_NON_NUMERIC_SOURCE(message));
    auto held = hold(std::forward<X>(x));
    check_broadcast_to<rules_of_t<decltype(unwrap(held))>>(operation, unwrap(held).shape(), dest.shape());
    if constexpr (statically_shaped<Dest>) {
        dest = map_node<Op, array_ref<Dest>, decltype(held)>(std::move(op), array_ref<Dest>{&dest}, std::move(held));
    } else if constexpr (contiguous_by_type<Dest>) {  // an array read as itself needs no strided kernel
        const map_node<Op, array_ref<Dest>, decltype(held)> node(std::move(op), array_ref<Dest>{&dest},
                                                                 std::move(held));
        assign_broadcast(dest.data(), dest.shape(), dest.strides(), node);
    } else {
        using self_view = strided_view<const std::remove_pointer_t<decltype(dest.data())>, rank_v<Dest>>;
        const map_node<Op, self_view, decltype(held)> node(
            std::move(op), self_view(dest.data(), dest.shape(), dest.strides()), std::move(held));
        assign_broadcast<destination_rows::any_stride>(dest.data(), dest.shape(), dest.strides(), node);
    }
}

}  // namespace bsx::detail
