// bsx/scans.hpp: NumPy's cumsum, cumprod and diff. Eager: each returns a bsx::array. An
// element of a scan depends on every element before it along the axis, which the fused
// loop, computing any chunk on its own, could only give by recomputing them; diff of order
// n is n differences in turn (NumPy's bits), each a lazy difference of two views, assigned.
#pragma once

#include <concepts>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include "array.hpp"
#include "eval/scan.hpp"
#include "expr/functions.hpp"
#include "expr/operators.hpp"
#include "reduce/reduce_ops.hpp"
#include "reduce/reductions.hpp"

namespace bsx {

namespace detail {

/// cumsum and cumprod: the running `Op::combine` (the reduction's, integers and bool
/// accumulated in int64 as sum and prod do) along an axis, or over the flattened operand.
template <class Op>
struct scan_function {
    std::string_view name;

    template <expression X, axis_argument Axis>
    auto operator()(const X& x, Axis a) const {
        constexpr std::size_t N = rank_v<X>;
        static_assert(N > 0, "bsx: a rank-0 expression has no axis to scan; scan it flattened: cumsum(x)");
        const auto shape = x.shape();
        const std::size_t k = checked_axis(name, axis_value(a), shape);
        array<accumulator<X>, N> r = cast<accumulator<X>>(x);
        index_t outer = 1, inner = 1;
        for (std::size_t d = 0; d < k; ++d) outer *= shape[d];
        for (std::size_t d = k + 1; d < N; ++d) inner *= shape[d];
        scan(r.data(), outer, shape[k], inner);
        return r;
    }
    /// Over the elements of x in row-major order: a 1-D array of x.size() elements.
    template <expression X>
    auto operator()(const X& x) const {
        array<accumulator<X>, 1> r(shape_t<1>{x.size()});
        if (r.size() == 0) return r;
        strided_view<accumulator<X>, rank_v<X>>(r.data(), x.shape(), contiguous_strides(x.shape())) =
            cast<accumulator<X>>(x);
        scan(r.data(), 1, r.size(), 1);
        return r;
    }

private:
    template <class X>
    using accumulator = typename Op::template accumulator<value_type_t<X>>;

    template <class A>
    static void scan(A* data, index_t outer, index_t len, index_t inner) {
        scan_in_place(data, outer, len, inner, [](A x, A y) { return Op::combine(x, y); });
    }
};

/// The first difference of the elements a view reads along axis k (x[i + 1] - x[i]; for
/// bool, x[i + 1] != x[i], as NumPy), in the view's element type (integers wrap).
template <class T, std::size_t N>
array<T, N> difference(const strided_view<const T, N>& v, std::size_t k) {
    shape_t<N> shape = v.shape();
    shape[k] = shape[k] > 0 ? shape[k] - 1 : 0;
    if (shape_size(shape) == 0) return array<T, N>(shape);
    const strided_view<const T, N> lo(v.data(), shape, v.strides()), hi(v.data() + v.strides()[k], shape, v.strides());
    if constexpr (std::is_same_v<T, bool>)
        return array<T, N>(hi != lo);
    else
        return array<T, N>(cast<T>(hi - lo));
}

}  // namespace detail

/// cumsum(x, axis), cumsum(x): NumPy's running sums (eager; integers and bool give int64).
inline constexpr detail::scan_function<ops::sum_reduction> cumsum{"cumsum"};
/// cumprod(x, axis), cumprod(x): NumPy's running products (eager; integers and bool give int64).
inline constexpr detail::scan_function<ops::prod_reduction> cumprod{"cumprod"};

/// diff(x, axis = -1, n = 1): NumPy's n-th discrete difference along the axis (eager), of
/// x's element type; the axis shrinks by n (to 0 at least). n = 0 gives a copy of x.
template <expression X, detail::axis_argument Axis = axis_t>
array<value_type_t<X>, rank_v<X>> diff(const X& x, Axis a = axis_t{-1}, index_t n = 1) {
    using T = value_type_t<X>;
    constexpr std::size_t N = rank_v<X>;
    static_assert(N > 0, "bsx: diff: a rank-0 expression has no axis to take differences along");
    const std::size_t k = detail::checked_axis("diff", detail::axis_value(a), x.shape());
    if (n < 0)
        throw std::invalid_argument("bsx: diff: order n = " + std::to_string(n) + " is negative (axis " +
                                    std::to_string(detail::axis_value(a)) + " of an operand of shape " +
                                    format_shape(x.shape()) + ")");
    if (n == 0) return array<T, N>(x);
    array<T, N> r;
    if constexpr (strided_expression<X>) {
        r = detail::difference(strided_view<const T, N>(x.data(), x.shape(), x.strides()), k);
    } else {
        const array<T, N> whole(x);
        r = detail::difference(strided_view<const T, N>(whole.data(), whole.shape(), whole.strides()), k);
    }
    for (index_t i = 1; i < n && r.extent(k) > 0; ++i)
        r = detail::difference(strided_view<const T, N>(r.data(), r.shape(), r.strides()), k);
    return r;
}

}  // namespace bsx
