// bsx/algorithm/sort.hpp: sorting and sets, eager: sort and argsort along an axis, unique,
// searchsorted. NaNs sort last as in NumPy, and -0.0 before +0.0. Each evaluates its
// operands once (an array that needs no copy is read where it lies) and returns a new
// bsx::array.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "../array.hpp"
#include "../eval/parallel.hpp"
#include "../reduce/reductions.hpp"
#include "../shape/shape.hpp"
#include "line_sort.hpp"

namespace bsx {

namespace detail {

/// Runs the line sorter over every line of a row-major shape along axis k, from `in` into
/// `out` (which may be the same memory). Many lines run in parallel, one line per task; a
/// few long ones one after another, each on all the threads.
template <class T, bool Index, std::size_t N>
void sort_lines(const T* in, typename line_sorter<T, Index>::output* out, const shape_t<N>& shape, std::size_t k) {
    index_t size = 1, inner = 1;
    for (std::size_t j = 0; j < N; ++j) size *= shape[j];
    for (std::size_t j = k + 1; j < N; ++j) inner *= shape[j];
    const index_t n = shape[k];
    if (size == 0) return;
    const index_t lines = size / n;
    const int threads = region_threads(size);
    const auto line_at = [&](index_t l) { return (l / inner) * n * inner + l % inner; };
    if (lines < threads) {
        line_sorter<T, Index> sorter;
        for (index_t l = 0; l < lines; ++l) sorter({in + line_at(l), n, inner}, {out + line_at(l), n, inner}, threads);
        return;
    }
    parallel_for(lines, threads, 1, [&](index_t first, index_t last, const first_exception*) {
        line_sorter<T, Index> sorter;
        for (index_t l = first; l < last; ++l) sorter({in + line_at(l), n, inner}, {out + line_at(l), n, inner}, 1);
    });
}

template <expression X>
using sorted_array_t = array<std::remove_cv_t<value_type_t<X>>, rank_v<X>>;

}  // namespace detail

/// The elements of x sorted along an axis (the last by default), NaNs last and -0.0 before
/// +0.0, as a new array of x's shape.
template <expression X, detail::axis_argument Axis = axis_t>
    requires(rank_v<X> >= 1)
detail::sorted_array_t<X> sort(X&& x, Axis a = axis(-1)) {
    const auto k = detail::checked_axis("sort", detail::axis_value(a), x.shape());
    detail::sorted_array_t<X> result(std::forward<X>(x));
    detail::sort_lines<typename detail::sorted_array_t<X>::value_type, false>(result.data(), result.data(),
                                                                              result.shape(), k);
    return result;
}

/// The indices that sort x along an axis (the last by default): a stable order, so equal
/// elements keep their index order; NaNs last.
template <expression X, detail::axis_argument Axis = axis_t>
    requires(rank_v<X> >= 1)
array<index_t, rank_v<X>> argsort(X&& x, Axis a = axis(-1)) {
    using A = detail::sorted_array_t<X>;
    const auto k = detail::checked_axis("argsort", detail::axis_value(a), x.shape());
    array<index_t, rank_v<X>> result(x.shape());
    // An array is read where it lies; any other expression is evaluated once.
    if constexpr (std::is_same_v<std::remove_cvref_t<X>, A>) {
        detail::sort_lines<typename A::value_type, true>(x.data(), result.data(), x.shape(), k);
    } else {
        const A values(std::forward<X>(x));
        detail::sort_lines<typename A::value_type, true>(values.data(), result.data(), values.shape(), k);
    }
    return result;
}

/// The distinct elements of x (flattened), sorted. As NumPy (1.21 and later), all NaNs
/// count as one, and the result keeps the first of them; -0.0 and +0.0 count as one too,
/// and the result keeps -0.0 when x has it.
template <expression X>
array<std::remove_cv_t<value_type_t<X>>, 1> unique(X&& x) {
    using T = std::remove_cv_t<value_type_t<X>>;
    array<T, rank_v<X>> values(std::forward<X>(x));
    const index_t n = values.size();
    detail::sort_lines<T, false>(values.data(), values.data(), shape_t<1>{n}, 0);
    // Sorted, equal elements are neighbours, and NaNs are at the end.
    index_t count = 0;
    for (index_t i = 0; i < n; ++i) {
        const T v = values.data()[i];
        if (count == 0 || !(v == values.data()[count - 1] ||
                            (detail::is_nan_value(v) && detail::is_nan_value(values.data()[count - 1]))))
            values.data()[count++] = v;
    }
    array<T, 1> result(shape_t<1>{count});
    std::copy_n(values.data(), count, result.data());
    return result;
}

/// searchsorted's side: the first place (left, the default) or the last place (right)
/// where a value could go in and keep the order.
struct side_left_t {};
struct side_right_t {};
inline constexpr side_left_t side_left{};
inline constexpr side_right_t side_right{};

namespace detail {

/// What searchsorted compares a sorted element of type T and a value of type V as: their
/// common type, but at least double when an integer meets a float or a signed integer an
/// unsigned one (as NumPy: float32 and int32 compare as float64, so no integer is rounded).
template <class T, class V>
using search_type_t = std::conditional_t<std::is_integral_v<T> != std::is_integral_v<V> ||
                                             (std::is_integral_v<T> && std::is_signed_v<T> != std::is_signed_v<V>),
                                         std::common_type_t<double, T, V>, std::common_type_t<T, V>>;

/// NumPy's order for searching: NaN after everything; -0.0 and +0.0 equal.
template <class C>
bool search_less(C a, C b) noexcept {
    if constexpr (std::is_floating_point_v<C>)
        return a < b || (std::isnan(b) && !std::isnan(a));
    else
        return a < b;
}

/// The place of v in sorted[0, n): the first i with v <= sorted[i] (left), or the first
/// with v < sorted[i] (right).
template <bool Right, class T, class V>
index_t search_sorted_one(const T* sorted, index_t n, V v) noexcept {
    using C = search_type_t<T, V>;
    const C c = C(v);
    index_t first = 0;
    while (n > 0) {
        const index_t half = n / 2;
        const C s = C(sorted[first + half]);
        if (Right ? !search_less(c, s) : search_less(s, c)) {
            first += half + 1;
            n -= half + 1;
        } else {
            n = half;
        }
    }
    return first;
}

template <class Side>
concept search_side = std::is_same_v<Side, side_left_t> || std::is_same_v<Side, side_right_t>;

}  // namespace detail

/// Where the values v would go into the 1-D array `sorted` (in bsx::sort's order) to keep
/// it sorted: an index per element of v, of v's shape (a plain index for a scalar v).
/// `sorted` is read as it is: an unsorted one gives unspecified places, as in NumPy.
template <expression S, operand V, detail::search_side Side = side_left_t>
    requires(rank_v<S> == 1)
auto searchsorted(S&& sorted, V&& v, Side = {}) {
    using T = std::remove_cv_t<value_type_t<S>>;
    constexpr bool right = std::is_same_v<Side, side_right_t>;
    // An array is searched where it lies; any other expression is evaluated once.
    const auto search_in = [&](const T* data, index_t n) {
        if constexpr (arithmetic_scalar<V>) {
            return detail::search_sorted_one<right>(data, n, v);
        } else {
            const array<std::remove_cv_t<value_type_t<V>>, rank_v<V>> values(std::forward<V>(v));
            array<index_t, rank_v<V>> result(values.shape());
            const index_t size = values.size();
            detail::parallel_for(size, detail::region_threads(size), 1,
                                 [&](index_t first, index_t last, const detail::first_exception*) {
                                     for (index_t i = first; i < last; ++i)
                                         result.data()[i] = detail::search_sorted_one<right>(data, n, values.data()[i]);
                                 });
            return result;
        }
    };
    if constexpr (std::is_same_v<std::remove_cvref_t<S>, array<T, 1>>) {
        return search_in(sorted.data(), sorted.size());
    } else {
        const array<T, 1> evaluated(std::forward<S>(sorted));
        return search_in(evaluated.data(), evaluated.size());
    }
}

}  // namespace bsx
