// bsx/algorithm/quantile.hpp: median and quantile (NumPy's default, linear method). Eager:
// `f(x)` gives the scalar, `f(x, axis[, keepdims])` a bsx::array, computed by selection
// (std::nth_element) in a copy of the operand laid out with the reduced axes last; several
// q at once give an array with a leading axis of one entry per q.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "../array.hpp"
#include "../detail/refusals.hpp"
#include "../eval/reduce_axes.hpp"
#include "../expr/expression.hpp"
#include "../reduce/reductions.hpp"
#include "../reduce/statistics.hpp"

namespace bsx {
namespace detail {

/// NumPy's linear interpolation (`_lerp`): from the nearer end, so that t = 1 gives b.
template <class R>
R lerp(R a, R b, R t) noexcept {
    const R d = b - a;
    return t >= R(0.5) ? b - d * (R(1) - t) : a + d * t;
}

/// The median (`median`) or quantile q of the n values at p, which it reorders: NaN when
/// one of them is NaN (as NumPy), or, for the median, when there are none.
template <class R, class V>
R quantile_of(V* p, index_t n, double q, bool median) {
    if constexpr (std::is_floating_point_v<V>)
        if (std::any_of(p, p + n, [](V v) { return v != v; })) return std::numeric_limits<R>::quiet_NaN();
    if (n == 0) return std::numeric_limits<R>::quiet_NaN();
    if (median) {  // the mean of the two middle values, as np.median
        const index_t mid = n / 2;
        std::nth_element(p, p + mid, p + n);
        if (n % 2 != 0) return R(p[mid]);
        return (R(*std::max_element(p, p + mid)) + R(p[mid])) / R(2);
    }
    const double h = double(n - 1) * q;
    const index_t lo = std::min(index_t(std::floor(h)), n - 1);
    std::nth_element(p, p + lo, p + n);
    const R a = R(p[lo]);
    const R b = lo + 1 < n ? R(*std::min_element(p + lo + 1, p + n)) : a;
    return lerp(a, b, R(h - double(lo)));
}

/// Several q of quantile at once: a rank-1 expression of numbers.
template <class Q>
concept quantile_list = expression<Q> && rank_v<Q> == 1 && std::is_arithmetic_v<value_type_t<Q>>;

/// The quantiles qs (each in [0, 1]) of the n >= 1 values at p, which it reorders, into
/// out[j * stride]: one multiple selection serves them all (each order statistic they need
/// found in what the previous ones left), and each as quantile_of finds it. All NaN when
/// one value is NaN (as NumPy). `ranks` is scratch, reused from slice to slice.
template <class R, class V>
void quantiles_of(V* p, index_t n, const std::vector<double>& qs, R* out, index_t stride, std::vector<index_t>& ranks) {
    if constexpr (std::is_floating_point_v<V>)
        if (std::any_of(p, p + n, [](V v) { return v != v; })) {
            for (std::size_t j = 0; j < qs.size(); ++j) out[index_t(j) * stride] = std::numeric_limits<R>::quiet_NaN();
            return;
        }
    const auto low = [n](double q) { return std::min(index_t(std::floor(double(n - 1) * q)), n - 1); };
    ranks.clear();
    for (const double q : qs) {
        ranks.push_back(low(q));
        if (low(q) + 1 < n) ranks.push_back(low(q) + 1);
    }
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    index_t from = 0;
    for (const index_t k : ranks) {
        std::nth_element(p + from, p + k, p + n);
        from = k + 1;
    }
    for (std::size_t j = 0; j < qs.size(); ++j) {
        const double h = double(n - 1) * qs[j];
        const index_t lo = low(qs[j]);
        const R a = R(p[lo]);
        const R b = lo + 1 < n ? R(p[lo + 1]) : a;
        out[index_t(j) * stride] = lerp(a, b, R(h - double(lo)));
    }
}

/// What may follow the operand of median (Median true) or quantile: q (or several) for
/// quantile, then a reduction's arguments.
template <bool Median, class... Rest>
inline constexpr bool quantile_arguments = Median && reduction_arguments<Rest...>;
template <bool Median, class Q, class... Rest>
inline constexpr bool quantile_arguments<Median, Q, Rest...> =
    Median ? reduction_arguments<Q, Rest...>
           : (std::is_arithmetic_v<Q> || quantile_list<Q>)&&reduction_arguments<Rest...>;

/// An operand median (Median true) or quantile takes: quantile interpolates, so not bool.
template <class X, bool Median>
concept quantile_operand = expression<X> && (Median || !std::same_as<value_type_t<X>, bool>);

/// median (Median true) and quantile.
template <bool Median>
struct quantile_function {
    template <expression X>
        requires Median
    auto operator()(const X& x) const {
        return whole(x, 0.5);
    }
    template <expression X, class A>
        requires(Median && reduction_arguments<A>)
    auto operator()(const X& x, A a) const {
        return along<false>(x, 0.5, a);
    }
    template <expression X, class A>
        requires(Median && reduction_arguments<A>)
    auto operator()(const X& x, A a, keepdims_t) const {
        return along<true>(x, 0.5, a);
    }
    template <quantile_operand<Median> X>
        requires(!Median)
    auto operator()(const X& x, double q) const {
        return whole(x, q);
    }
    template <quantile_operand<Median> X, class A>
        requires(!Median && reduction_arguments<A>)
    auto operator()(const X& x, double q, A a) const {
        return along<false>(x, q, a);
    }
    template <quantile_operand<Median> X, class A>
        requires(!Median && reduction_arguments<A>)
    auto operator()(const X& x, double q, A a, keepdims_t) const {
        return along<true>(x, q, a);
    }

    /// Several q at once, as a rank-1 expression or a braced list: the result has a leading
    /// axis with one entry per q, and each slice is partitioned once for all of them.
    template <quantile_operand<Median> X, quantile_list Q>
        requires(!Median)
    auto operator()(const X& x, const Q& qs) const {
        return whole_list(x, list_values(qs));
    }
    template <quantile_operand<Median> X, quantile_list Q, class A>
        requires(!Median && reduction_arguments<A>)
    auto operator()(const X& x, const Q& qs, A a) const {
        return along_list<false>(x, list_values(qs), a);
    }
    template <quantile_operand<Median> X, quantile_list Q, class A>
        requires(!Median && reduction_arguments<A>)
    auto operator()(const X& x, const Q& qs, A a, keepdims_t) const {
        return along_list<true>(x, list_values(qs), a);
    }
    template <quantile_operand<Median> X>
        requires(!Median)
    auto operator()(const X& x, std::initializer_list<double> qs) const {
        return whole_list(x, std::vector<double>(qs));
    }
    template <quantile_operand<Median> X, class A>
        requires(!Median && reduction_arguments<A>)
    auto operator()(const X& x, std::initializer_list<double> qs, A a) const {
        return along_list<false>(x, std::vector<double>(qs), a);
    }
    template <quantile_operand<Median> X, class A>
        requires(!Median && reduction_arguments<A>)
    auto operator()(const X& x, std::initializer_list<double> qs, A a, keepdims_t) const {
        return along_list<true>(x, std::vector<double>(qs), a);
    }

    /// Any other call: one diagnostic (the result is an int so that it is the only error).
    template <class X, class... Rest>
        requires(!(quantile_operand<X, Median> && quantile_arguments<Median, std::remove_cvref_t<Rest>...>))
    int operator()(X&&, Rest&&...) const {
        if constexpr (expression<X> && quantile_arguments<Median, std::remove_cvref_t<Rest>...>)
            static_assert(quantile_operand<X, Median>, BSX_REFUSAL_QUANTILE_OF_BOOL(message));
        else
            static_assert(quantile_arguments<Median, X, Rest...> && !quantile_arguments<Median, X, Rest...>,
                          BSX_REFUSAL_QUANTILE_ARGUMENTS(message));
        return 0;
    }

private:
    static constexpr std::string_view name = Median ? "median" : "quantile";

    static void check(double q, index_t n) {
        if (!(q >= 0 && q <= 1))
            throw std::invalid_argument("bsx: quantile: q = " + std::to_string(q) + " is outside [0, 1]");
        if (!Median && n == 0) throw std::invalid_argument("bsx: quantile: a slice of no elements has no quantile");
    }
    template <class X>
    static auto whole(const X& x, double q) {
        using R = mean_t<value_type_t<X>>;
        std::array<std::size_t, rank_v<X>> every{};
        for (std::size_t d = 0; d < every.size(); ++d) every[d] = d;
        check(q, x.size());
        if constexpr (rank_v<X> == 0) {
            auto v = x.element({});
            return quantile_of<R>(&v, 1, q, Median);
        } else {
            const auto laid = evaluate_with_axes_last(x, every);
            return quantile_of<R>(laid.first, x.size(), q, Median);
        }
    }
    /// The shape of the result along `axes` (extent 1 there if KeepDims), and in m the number
    /// of elements of each slice.
    template <bool KeepDims, std::size_t N, std::size_t K>
    static auto kept_shape(const shape_t<N>& shape, const std::array<std::size_t, K>& axes, index_t& m) {
        shape_t<KeepDims ? N : N - K> out_shape{};
        m = 1;
        for (std::size_t d = 0, to = 0; d < N; ++d) {
            const bool reduced = std::find(axes.begin(), axes.end(), d) != axes.end();
            if (reduced) m *= shape[d];
            if (!reduced)
                out_shape[to++] = shape[d];
            else if constexpr (KeepDims)
                out_shape[to++] = 1;
        }
        return out_shape;
    }
    template <bool KeepDims, class X, class A>
    static auto along(const X& x, double q, A a) {
        constexpr std::size_t N = rank_v<X>;
        static_assert(N > 0, "bsx: a rank-0 expression has no axis to reduce");
        using R = mean_t<value_type_t<X>>;
        const auto axes = normalized_axes<N>(name, axis_list(a), x.shape());
        index_t m = 0;
        const auto out_shape = kept_shape<KeepDims>(x.shape(), axes, m);
        check(q, shape_size(out_shape) == 0 ? 1 : m);
        array<R, out_shape.size()> result(out_shape);
        const auto laid = evaluate_with_axes_last(x, axes);
        for (index_t r = 0; r < result.size(); ++r) result.data()[r] = quantile_of<R>(laid.first + r * m, m, q, Median);
        return result;
    }

    template <class Q>
    static std::vector<double> list_values(const Q& qs) {
        std::vector<double> values(std::size_t(qs.size()));
        for (index_t j = 0; j < qs.size(); ++j) values[std::size_t(j)] = double(qs.element(shape_t<1>{j}));
        return values;
    }
    static void check_list(const std::vector<double>& qs, index_t n) {
        for (std::size_t j = 0; j < qs.size(); ++j)
            if (!(qs[j] >= 0 && qs[j] <= 1))
                throw std::invalid_argument("bsx: quantile: q[" + std::to_string(j) + "] = " + std::to_string(qs[j]) +
                                            " is outside [0, 1]");
        if (n == 0) throw std::invalid_argument("bsx: quantile: a slice of no elements has no quantile");
    }
    template <class X>
    static auto whole_list(const X& x, const std::vector<double>& qs) {
        using R = mean_t<value_type_t<X>>;
        check_list(qs, x.size());
        array<R, 1> result(shape_t<1>{index_t(qs.size())});
        std::vector<index_t> ranks;
        if constexpr (rank_v<X> == 0) {
            auto v = x.element({});
            quantiles_of<R>(&v, 1, qs, result.data(), 1, ranks);
        } else {
            std::array<std::size_t, rank_v<X>> every{};
            for (std::size_t d = 0; d < every.size(); ++d) every[d] = d;
            const auto laid = evaluate_with_axes_last(x, every);
            quantiles_of<R>(laid.first, x.size(), qs, result.data(), 1, ranks);
        }
        return result;
    }
    template <bool KeepDims, class X, class A>
    static auto along_list(const X& x, const std::vector<double>& qs, A a) {
        constexpr std::size_t N = rank_v<X>;
        static_assert(N > 0, "bsx: a rank-0 expression has no axis to reduce");
        using R = mean_t<value_type_t<X>>;
        const auto axes = normalized_axes<N>(name, axis_list(a), x.shape());
        index_t m = 0;
        const auto out_shape = kept_shape<KeepDims>(x.shape(), axes, m);
        const index_t rows = shape_size(out_shape);
        check_list(qs, rows == 0 ? 1 : m);
        shape_t<out_shape.size() + 1> shape{index_t(qs.size())};
        std::copy(out_shape.begin(), out_shape.end(), shape.begin() + 1);
        array<R, shape.size()> result(shape);
        if (result.size() == 0) return result;  // no q or no slice: nothing to compute
        const auto laid = evaluate_with_axes_last(x, axes);
        std::vector<index_t> ranks;
        for (index_t r = 0; r < rows; ++r) quantiles_of<R>(laid.first + r * m, m, qs, result.data() + r, rows, ranks);
        return result;
    }
};

}  // namespace detail

inline constexpr detail::quantile_function<true> median{};
inline constexpr detail::quantile_function<false> quantile{};

}  // namespace bsx
