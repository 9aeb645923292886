// bsx/reduce/statistics.hpp: var and std (two passes: the mean, then the sum of squared
// deviations), and the NaN-ignoring reductions nansum, nanmean, nanmin, nanmax, nanargmin,
// nanargmax. Each takes the arguments of sum (an axis, then keepdims); var and std take
// ddof(d) last. Built from the reductions of reductions.hpp, so they are lazy along an
// axis and the same bits at any thread count.
#pragma once

#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "../detail/refusals.hpp"
#include "../expr/expression.hpp"
#include "../expr/functions.hpp"
#include "../expr/operators.hpp"
#include "reduce_ops.hpp"
#include "reductions.hpp"

namespace bsx {

/// Delta degrees of freedom of var and std: the divisor is n - d (NumPy's ddof).
struct ddof_t {
    index_t value;
};
constexpr ddof_t ddof(index_t d) noexcept { return {d}; }

inline constexpr detail::reduction_function<ops::nanmin_reduction> nanmin{};
inline constexpr detail::reduction_function<ops::nanmax_reduction> nanmax{};
inline constexpr detail::reduction_function<ops::nanargmin_reduction> nanargmin{};
inline constexpr detail::reduction_function<ops::nanargmax_reduction> nanargmax{};

namespace detail {

/// x for one more use in an expression that uses it twice: an lvalue as itself (an array
/// is then held by reference), a temporary as a copy (its other use moves it).
template <class X, class Y>
decltype(auto) another_use(Y& x) {
    if constexpr (std::is_lvalue_reference_v<X>)
        return (x);
    else
        return std::remove_cvref_t<X>(x);
}

/// The axes an axis argument names, as written.
template <axis_integer I>
std::array<index_t, 1> axis_list(I k) noexcept {
    return {index_t(k)};
}
inline std::array<index_t, 1> axis_list(axis_t a) noexcept { return {a.value}; }
template <std::size_t K>
std::array<index_t, K> axis_list(axes_t<K> a) noexcept {
    return a.values;
}

/// The floating type of a mean of T (double for integers and bool).
template <class T>
using mean_t = std::conditional_t<std::is_integral_v<T>, double, T>;

/// What may follow the operand of var and std: a reduction's arguments, then optionally ddof.
template <class... Rest>
inline constexpr bool variance_arguments = reduction_arguments<Rest...>;
template <class A>
inline constexpr bool variance_arguments<A> = reduction_arguments<A> || std::same_as<A, ddof_t>;
template <class A, class B>
inline constexpr bool variance_arguments<A, B> =
    reduction_arguments<A, B> || (reduction_arguments<A> && std::same_as<B, ddof_t>);
template <class A, class B, class C>
inline constexpr bool variance_arguments<A, B, C> = reduction_arguments<A, B> && std::same_as<C, ddof_t>;

/// var (Sqrt false) and std (Sqrt true).
template <bool Sqrt>
struct variance_function {
    template <expression X>
    auto operator()(const X& x, ddof_t d = {0}) const {
        using R = mean_t<value_type_t<X>>;
        const R m = mean(x);
        const R v = R(sum(square(x - m))) / divisor<R>(x.size(), d);
        if constexpr (Sqrt)
            return std::sqrt(v);
        else
            return v;
    }
    template <expression X, class A>
        requires reduction_arguments<A>
    auto operator()(X&& x, A a, ddof_t d = {0}) const {
        return make(std::forward<X>(x), a, d, [](auto&& s, auto k) { return sum(std::move(s), k); });
    }
    template <expression X, class A>
        requires reduction_arguments<A>
    auto operator()(X&& x, A a, keepdims_t, ddof_t d = {0}) const {
        return make(std::forward<X>(x), a, d, [](auto&& s, auto k) { return sum(std::move(s), k, keepdims); });
    }

    /// Any other call: one diagnostic (the result is an int so that it is the only error).
    template <class X, class... Rest>
        requires(!(expression<X> && variance_arguments<std::remove_cvref_t<Rest>...>))
    int operator()(X&&, Rest&&...) const {
        static_assert(variance_arguments<X, Rest...> && !variance_arguments<X, Rest...>,
                      BSX_REFUSAL_VARIANCE_ARGUMENTS(message));
        return 0;
    }

private:
    template <class R>
    static R divisor(index_t n, ddof_t d) noexcept {
        // n <= ddof: 0, so inf or NaN (as NumPy); in R, so no ddof can overflow
        return d.value >= n ? R(0) : R(n) - R(d.value);
    }
    /// sum((x - mean(x, a, keepdims))^2, a) / (n - ddof), keepdims or not as `total` sums.
    template <class X, class A, class Total>
    static auto make(X&& x, A a, ddof_t d, Total total) {
        using R = mean_t<value_type_t<X>>;
        const auto shape = x.shape();
        index_t n = 1;
        for (const std::size_t k : normalized_axes<rank_v<X>>(Sqrt ? "std" : "var", axis_list(a), shape)) n *= shape[k];
        auto centred = another_use<X>(x) - mean(std::forward<X>(x), a, keepdims);
        auto v = total(square(std::move(centred)), a) / divisor<R>(n, d);
        if constexpr (Sqrt)
            return bsx::sqrt(std::move(v));
        else
            return v;
    }
};

/// nansum (Mean false) and nanmean: NaNs count as 0 in the sum, and not at all in the count.
template <bool Mean>
struct nan_sum_function : refuses_other_reduction_calls {
    using refuses_other_reduction_calls::operator();
    template <expression X, class... Rest>
        requires reduction_arguments<std::remove_cvref_t<Rest>...>
    auto operator()(X&& x, Rest... rest) const {
        using T = value_type_t<X>;
        if constexpr (!std::is_floating_point_v<T>) {
            if constexpr (Mean)
                return mean(std::forward<X>(x), rest...);
            else
                return sum(std::forward<X>(x), rest...);
        } else if constexpr (Mean) {
            auto count = sum(!isnan(another_use<X>(x)), rest...);
            return nan_sum_function<false>{}(std::forward<X>(x), rest...) / [&] {
                if constexpr (sizeof...(Rest) == 0)
                    return T(count);
                else
                    return cast<T>(std::move(count));
            }();
        } else {
            return sum(where(isnan(another_use<X>(x)), T(0), std::forward<X>(x)), rest...);
        }
    }
};

}  // namespace detail

inline constexpr detail::variance_function<false> var{};
inline constexpr detail::variance_function<true> std{};
inline constexpr detail::nan_sum_function<false> nansum{};
inline constexpr detail::nan_sum_function<true> nanmean{};

}  // namespace bsx
