// bsx/dist/assign.hpp: `d = expr` for a distributed array d. The ranks agree that they were
// given the same shapes and that those broadcast; then each rank evaluates the expression
// restricted to its own rows with the ordinary fused evaluator, and the ranks agree on its
// failure. Only a global row (d.row(k)) moves data: one broadcast.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

#include "../detail/refusals.hpp"
#include "../eval/assign.hpp"
#include "../expr/placed_node.hpp"
#include "../shape/rules.hpp"
#include "../view/strided_view.hpp"
#include "agree.hpp"
#include "array.hpp"
#include "partition.hpp"
#include "tree.hpp"

namespace bsx::dist::detail {

/// Global row k of a rank-2 distributed array on every rank, broadcast by its owner.
template <class T>
bsx::array<T, 2> fetch_row(const row_view<T>& v) {
    const array<T, 2>& a = v.source();
    const index_t n = a.shape()[1];
    bsx::array<T, 2> row;
    agree(a.comm(), [&] { row = bsx::array<T, 2>(shape_t<2>{1, n}); });
    const int owner = owner_of(a.shape()[0], size_of(a.comm()), v.index());
    if (rank_in(a.comm()) == owner) std::copy_n(a.local().data() + (v.index() - a.offset()) * n, n, row.data());
    MPI_Bcast(row.data(), message_bytes(n, sizeof(T)), MPI_BYTE, owner, a.comm());
    traffic += std::uint64_t(n) * sizeof(T);
    return row;
}

/// This rank's rows of column c, an (local rows, 1) view of its block.
template <class T>
strided_view<const T, 2> local_column(const col_view<T>& c) noexcept {
    const auto& l = c.source().local();
    const T* first = l.size() == 0 ? l.data() : l.data() + c.index();
    return strided_view<const T, 2>(first, {l.shape()[0], 1}, {l.shape()[1], 1});
}

/// Throws, on every rank alike (MPI_Comm_compare gives every rank the same answer), unless
/// an operand over `used` may meet the destination over `comm`.
inline void check_communicator(MPI_Comm used, MPI_Comm comm) {
    if (!same_communicator(used, comm))
        throw std::invalid_argument("bsx::dist: the operands are distributed over different communicators");
}

/// Throws, on every rank alike, unless `source` is split as the destination is.
template <class T, std::size_t N>
void check_distribution(const array<T, N>& source, MPI_Comm comm, index_t global_rows, std::size_t axis) {
    check_communicator(source.comm(), comm);
    if (axis != 0 || source.shape()[0] != global_rows)
        throw std::invalid_argument(
            "bsx::dist: a distributed operand must have its axis 0 (the split one) on the destination's "
            "axis 0, with the same extent");
}

/// Makes each operand read this rank's rows [offset, offset + rows) of the destination.
struct local_rows_policy {
    MPI_Comm comm;
    index_t global_rows;
    row_block block;

    /// A replicated operand spanning the destination's axis 0 is read from row `offset`
    /// on; one of extent 1 there (broadcast) as it is.
    template <class X>
    auto replicated(X&& x, std::size_t axis) const {
        constexpr std::size_t r = bsx::detail::operand_rank<X>();
        if constexpr (r == 0) {
            return bsx::detail::hold(std::forward<X>(x));
        } else {
            auto shape = x.shape();
            bsx::detail::index_map<r, r> map;
            for (std::size_t k = 0; k < r; ++k) map.step[k][k] = 1;
            if (axis != no_axis && shape[axis] == global_rows) {
                map.first[axis] = block.offset;
                shape[axis] = block.rows;
            }
            return bsx::detail::place_lazily<r>(std::forward<X>(x), map, shape);
        }
    }
    template <class T, std::size_t N>
    auto leaf(const array<T, N>& a, std::size_t axis) const {
        check_distribution(a, comm, global_rows, axis);
        const auto& l = a.local();
        return strided_view<const T, N>(l.data(), l.shape(), l.strides());
    }
    template <class T>
    auto leaf(const col_view<T>& c, std::size_t axis) const {
        check_distribution(c.source(), comm, global_rows, axis);
        return local_column(c);
    }
    template <class T>
    auto leaf(const row_view<T>& v, std::size_t axis) const {
        check_communicator(v.source().comm(), comm);
        return replicated(fetch_row(v), axis);
    }
    /// A reduction along a split operand's axis 0 is the same on every rank: replicated.
    /// Along another axis its rows are the operand's, so this rank reduces its own (with the
    /// ordinary reduction, as one process reduces them) and communicates nothing.
    template <class Op, class Held, bool KeepDims>
    auto reduction(const reduce_node<Op, Held, KeepDims>& e, std::size_t axis) const {
        constexpr std::size_t R = rank_v<reduce_node<Op, Held, KeepDims>>;
        const std::size_t k = e.reduced_axis();
        if constexpr (R > 0) {
            if (k != 0 && split_along_rows(e.operand())) {
                bsx::detail::check_not_resized(e);
                // The operand's axis at the node's `axis`; its leaves check that it is 0.
                const std::size_t at = !KeepDims && axis != no_axis && axis >= k ? axis + 1 : axis;
                const auto local = rewrite(e.operand(), *this, at);
                shape_t<R> shape = e.shape();
                shape[0] = block.rows;
                bsx::array<value_type_t<reduce_node<Op, Held, KeepDims>>, R> mine(shape);
                bsx::detail::reduce_expression<Op>(bsx::detail::unwrap(local), k, mine.data(), false);
                return replicated(std::move(mine), no_axis);  // already this rank's rows: placed as they are
            }
        }
        return replicated(whole_result(e), axis);
    }
};

/// Expression e restricted to this rank's block of the rows of a destination of shape
/// `shape` distributed over `comm` (e's rank may be lower: it aligns by its rule set).
template <std::size_t N, class E>
auto restrict_to_rows(const E& e, const shape_t<N>& shape, MPI_Comm comm) {
    const local_rows_policy policy{comm, shape[0], block_of(shape[0], size_of(comm), rank_in(comm))};
    constexpr std::size_t r = bsx::detail::operand_rank<E>();
    return rewrite(e, policy, operand_axis<rules_of_t<E>, r, N>(0));
}

/// The signature (agree) of an operation on expression e: `what` of e's operands.
template <class E>
std::string signature_of(std::string what, const E& e) {
    what += " of (";
    describe_operands(e, what);
    return what + ')';
}

template <class T, std::size_t N, class X>
void assign(array<T, N>& d, X&& x) {
    static_assert(operand<X>, BSX_REFUSAL_NON_NUMERIC_SOURCE(message));
    const auto held = bsx::detail::hold(std::forward<X>(x));
    const auto& e = bsx::detail::unwrap(held);
    if constexpr (check_rewritable<std::remove_cvref_t<decltype(e)>>()) {
        // The shapes first, on every rank alike: nothing is written where they fail.
        agree(d.comm(), "operator=", signature_of("an assignment to distributed " + format_shape(d.shape()), e),
              [&] { bsx::detail::check_broadcast_to<rules_of_t<decltype(e)>>("operator=", e.shape(), d.shape()); });
        // Then this rank's rows (rows fetched and reductions made on the way agree on their
        // own failures): an exception on one rank, a user function's say, is every rank's.
        agree(d.comm(), [&] {
            const auto local = restrict_to_rows(e, d.shape(), d.comm());
            auto& out = d.local();
            bsx::detail::assign_broadcast(out.data(), out.shape(), out.strides(), bsx::detail::unwrap(local));
        });
    }
}

}  // namespace bsx::dist::detail
