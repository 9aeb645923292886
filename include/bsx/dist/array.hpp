// bsx/dist/array.hpp: bsx::dist::array, an array whose rows (axis 0) are split over the
// ranks of an MPI communicator, each rank holding its block as an ordinary bsx::array; it
// presents its global shape to expressions. Also the row and column views of rank 2, and
// the refusal to bind either in the single-process evaluator.
#pragma once

#include <mpi.h>

#include <concepts>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "../array.hpp"
#include "../detail/refusals.hpp"
#include "../eval/evaluator.hpp"
#include "../expr/node.hpp"
#include "partition.hpp"

namespace bsx::dist {

template <class T, std::size_t N>
class array;

namespace detail {

template <class T, std::size_t N, class X>
void assign(array<T, N>& d, X&& x);

template <class E>
constexpr bool reads_distributed() noexcept;  // tree.hpp

/// Line k of a rank-2 distributed array along Axis: row k as a (1, n) operand (Axis 0),
/// fetched by a broadcast from its owner when an expression that reads it is evaluated;
/// column k as an (m, 1) operand (Axis 1), which each rank reads from its own rows.
template <class T, std::size_t Axis>
class line_view : public node_base<line_view<T, Axis>> {
public:
    using value_type = T;
    static constexpr std::size_t rank = 2;

    line_view(const array<T, 2>& source, index_t k) noexcept : source_(&source), k_(k) {}
    shape_t<2> shape() const noexcept {
        shape_t<2> s = source_->shape();
        s[Axis] = 1;
        return s;
    }
    const array<T, 2>& source() const noexcept { return *source_; }
    index_t index() const noexcept { return k_; }
    T element(const shape_t<2>& i) const {
        shape_t<2> at = i;
        at[Axis] = k_;
        return source_->element(at);
    }

private:
    const array<T, 2>* source_;
    index_t k_;
};
template <class T>
using row_view = line_view<T, 0>;
template <class T>
using col_view = line_view<T, 1>;

}  // namespace detail

/// A rank-N array of global shape shape(), rows [offset(), offset() + local_rows()) on
/// this rank in local(). Constructing one involves no communication; assigning an
/// expression to it evaluates each rank's rows (see doc/distributed.md). node_base makes
/// it an expression and brings bsx's operators in by argument-dependent lookup.
template <class T, std::size_t N>
class array : public node_base<array<T, N>> {
    static_assert(N >= 1, "bsx::dist: a distributed array has an axis 0 to split over the ranks");

public:
    using bsx_owning_tag = void;  // held by reference in expressions, as bsx::array
    using value_type = T;
    static constexpr std::size_t rank = N;

    /// Zero-filled, of global shape `shape`, its rows split over `comm`.
    explicit array(const shape_t<N>& shape, MPI_Comm comm = MPI_COMM_WORLD) : array(shape, T{}, comm) {}
    /// Every element `value`.
    array(const shape_t<N>& shape, const T& value, MPI_Comm comm = MPI_COMM_WORLD)
        : comm_(comm),
          shape_(shape),
          block_(detail::block_of(shape[0], detail::size_of(comm), detail::rank_in(comm))),
          local_(local_shape(), value) {}
    /// The value of an expression of rank N, split over `comm`. Implicit for one that reads
    /// distributed arrays (`dist::array<double, 1> r = bsx::sum(d, bsx::axis(1));`); a
    /// replicated one is distributed only when asked.
    template <expression X>
        requires(!std::same_as<std::remove_cvref_t<X>, array> && rank_v<X> == N)
    explicit(!detail::reads_distributed<X>()) array(const X& x, MPI_Comm comm = MPI_COMM_WORLD)
        : array(x.shape(), comm) {
        detail::assign(*this, x);
    }
    array(const array&) = default;
    array(array&&) noexcept = default;
    array& operator=(array&&) noexcept = default;
    /// Element-wise: the shapes and the communicators must match.
    array& operator=(const array& o) {
        detail::assign(*this, o);
        return *this;
    }
    /// Evaluates x on each rank's rows; x must broadcast to shape().
    template <operand X>
        requires(!std::same_as<std::remove_cvref_t<X>, array>)
    array& operator=(X&& x) {
        detail::assign(*this, std::forward<X>(x));
        return *this;
    }

    const shape_t<N>& shape() const noexcept { return shape_; }
    MPI_Comm comm() const noexcept { return comm_; }
    /// The global index of this rank's first row.
    index_t offset() const noexcept { return block_.offset; }
    index_t local_rows() const noexcept { return block_.rows; }
    /// This rank's rows, an ordinary array of shape (local_rows(), shape()[1], ...).
    bsx::array<T, N>& local() noexcept { return local_; }
    const bsx::array<T, N>& local() const noexcept { return local_; }

    /// Global row i as a (1, n) operand (fetched from its owner when evaluated).
    detail::row_view<T> row(index_t i) const&
        requires(N == 2)
    {
        if (i < 0 || i >= shape_[0]) bsx::detail::throw_index_error("row", i, 0, shape_[0]);
        return {*this, i};
    }
    /// Global column j as an (m, 1) operand (each rank reads its own rows).
    detail::col_view<T> col(index_t j) const&
        requires(N == 2)
    {
        if (j < 0 || j >= shape_[1]) bsx::detail::throw_index_error("col", j, 1, shape_[1]);
        return {*this, j};
    }
    // Those of a temporary array would point to it after it is gone.
    // clang-format off
    void BSX_REFUSAL_VIEW_OF_TEMPORARY(row)(index_t) const&& requires(N == 2) = delete;
    void BSX_REFUSAL_VIEW_OF_TEMPORARY(col)(index_t) const&& requires(N == 2) = delete;
    // clang-format on

    /// The element at global index idx, if this rank holds it; std::out_of_range if not.
    T element(const shape_t<N>& idx) const {
        shape_t<N> at = idx;
        at[0] -= block_.offset;
        if (at[0] < 0 || at[0] >= block_.rows)
            throw std::out_of_range("bsx::dist: row " + std::to_string(idx[0]) + " is not on rank " +
                                    std::to_string(detail::rank_in(comm_)) + " (it holds rows " +
                                    std::to_string(block_.offset) + " to " +
                                    std::to_string(block_.offset + block_.rows - 1) + ")");
        return local_.element(at);
    }

private:
    shape_t<N> local_shape() const noexcept {
        shape_t<N> s = shape_;
        s[0] = block_.rows;
        return s;
    }

    MPI_Comm comm_;
    shape_t<N> shape_;
    detail::row_block block_;
    bsx::array<T, N> local_;
};

}  // namespace bsx::dist

namespace bsx::detail {

/// The single-process evaluator does not read distributed leaves: bsx::dist rewrites them
/// into this rank's part (dist/tree.hpp) before anything is bound. An expression over one
/// that reaches a binder went to an ordinary destination or to an eager function, which
/// would read rows other ranks hold: one error says so, and bind returns an evaluator
/// of the protocol's type so that nothing after the error fails too.
template <class T, std::size_t N>
struct distributed_leaf_binder : binder_defaults {
    template <class E, class U, std::size_t D>
    static leaf_evaluator<T, D> bind(const E&, const index_map<N, D>&, const destination<U, D>&) {
        static_assert(sizeof(E) == 0, BSX_REFUSAL_DISTRIBUTED_IN_ONE_PROCESS(message));
        return {};
    }
};
template <class T, std::size_t N>
struct binder<dist::array<T, N>> : distributed_leaf_binder<T, N> {};
template <class T, std::size_t Axis>
struct binder<dist::detail::line_view<T, Axis>> : distributed_leaf_binder<T, 2> {};

}  // namespace bsx::detail
