// bsx/dist/reductions.hpp: sum, min, max, mean, all and any of distributed expressions,
// whole or along an axis, with the same bits as the single-process reductions for any
// number of ranks and threads. Along an axis other than 0 each output is one row's:
// each rank reduces its rows, then the outputs are gathered. Whole and axis-0 reductions
// run the single-process reduction on the gathered operands (doc/distributed.md: why).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

#include "../reduce/reductions.hpp"
#include "array.hpp"
#include "assign.hpp"
#include "partition.hpp"
#include "scatter_gather.hpp"
#include "tree.hpp"

namespace bsx::dist {

namespace detail {

/// Makes each distributed leaf whole on every rank: arrays and columns all-gathered, rows
/// broadcast. Replicated operands stay as they are.
struct whole_policy {
    template <class X>
    const X& replicated(const X& x, std::size_t) const noexcept {
        return x;
    }
    template <class T, std::size_t N>
    auto leaf(const array<T, N>& a, std::size_t) const {
        return all_gather(a.local(), a.shape(), a.comm());
    }
    template <class T>
    auto leaf(const col_view<T>& c, std::size_t) const {
        const auto& l = c.source().local();
        const bsx::array<T, 2> mine = strided_view<const T, 2>(l.size() == 0 ? l.data() : l.data() + c.index(),
                                                               {l.shape()[0], 1}, {l.shape()[1], 1});
        return all_gather(mine, c.shape(), c.source().comm());
    }
    template <class T>
    auto leaf(const row_view<T>& v, std::size_t) const {
        return fetch_row(v);
    }
};

/// Reduction `fn` of the whole of x, the same value on every rank.
template <class Fn, class X>
auto reduce_whole(const Fn& fn, const X& x) {
    const auto whole = rewrite(x, whole_policy{}, no_axis);
    return fn(bsx::detail::unwrap(whole));
}

/// Whether some distributed leaf of x is split along x's axis 0 (a column or an array).
template <class X>
bool split_along_rows(const X& x) {
    bool split = false;
    for_each_distributed_leaf(x, [&]<class L>(const L&) { split |= !is_row_view<L>::value; });
    return split;
}

/// Reduction `fn` of x along axis a, on every rank as an ordinary array.
template <class Fn, class X>
auto reduce_along(const Fn& fn, const X& x, axis_t a) {
    constexpr std::size_t N = rank_v<X>;
    using result_t = bsx::array<value_type_t<decltype(fn(x, a))>, N - 1>;
    const auto k = a.value < 0 ? a.value + index_t(N) : a.value;
    if (k == 0 || !split_along_rows(x)) {
        const auto whole = rewrite(x, whole_policy{}, no_axis);
        return result_t(fn(bsx::detail::unwrap(whole), a));
    }
    // Each output reads one global row: reduce this rank's rows, then gather the outputs.
    const MPI_Comm comm = *communicator_of(x);
    const auto local = restrict_to_rows(x, x.shape(), comm);
    const result_t mine(fn(bsx::detail::unwrap(local), a));
    shape_t<N - 1> shape = mine.shape();
    shape[0] = x.shape()[0];
    return all_gather(mine, shape, comm);
}

}  // namespace detail

// Each reduction: f(x), the whole of x reduced to one value, and f(x, bsx::axis(k)), an
// ordinary array on every rank. x may mix distributed and replicated operands.
template <expression X>
auto sum(const X& x) {
    return detail::reduce_whole(bsx::sum, x);
}
template <expression X>
auto sum(const X& x, axis_t a) {
    return detail::reduce_along(bsx::sum, x, a);
}
template <expression X>
auto min(const X& x) {
    return detail::reduce_whole(bsx::min, x);
}
template <expression X>
auto min(const X& x, axis_t a) {
    return detail::reduce_along(bsx::min, x, a);
}
template <expression X>
auto max(const X& x) {
    return detail::reduce_whole(bsx::max, x);
}
template <expression X>
auto max(const X& x, axis_t a) {
    return detail::reduce_along(bsx::max, x, a);
}
template <expression X>
auto mean(const X& x) {
    return detail::reduce_whole(bsx::mean, x);
}
template <expression X>
auto mean(const X& x, axis_t a) {
    return detail::reduce_along(bsx::mean, x, a);
}
template <expression X>
bool all(const X& x) {
    return detail::reduce_whole(bsx::all, x);
}
template <expression X>
auto all(const X& x, axis_t a) {
    return detail::reduce_along(bsx::all, x, a);
}
template <expression X>
bool any(const X& x) {
    return detail::reduce_whole(bsx::any, x);
}
template <expression X>
auto any(const X& x, axis_t a) {
    return detail::reduce_along(bsx::any, x, a);
}

}  // namespace bsx::dist
