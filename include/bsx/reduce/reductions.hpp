// bsx/reduce/reductions.hpp: sum, prod, mean, min, max, all, any. `sum(x)` reduces the
// whole expression and returns the scalar; `sum(x, k)` or `sum(x, axis(k))` is a lazy
// expression of rank N-1, `sum(x, axes(0, 2))` reduces several axes, and keepdims after
// the axis keeps them with extent 1. Negative axes count from the end, as in NumPy.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <utility>

#include "../detail/message.hpp"
#include "../detail/refusals.hpp"
#include "../expr/operand.hpp"
#include "../eval/reduce.hpp"
#include "../expr/expression.hpp"
#include "../expr/functions.hpp"
#include "custom_reduction.hpp"
#include "reduce_node.hpp"
#include "reduce_ops.hpp"

namespace bsx {

/// Which axis to reduce: `bsx::axis(1)`, `bsx::axis(-1)` (the last).
struct axis_t {
    index_t value;
};
constexpr axis_t axis(index_t k) noexcept { return {k}; }

/// Several axes reduced at once: `bsx::axes(0, 2)`, in any order, each once.
template <std::size_t K>
struct axes_t {
    std::array<index_t, K> values;
};
template <std::integral... I>
    requires(sizeof...(I) >= 1)
constexpr axes_t<sizeof...(I)> axes(I... k) noexcept {
    return {{index_t(k)...}};
}

/// Keep the reduced axis, with extent 1, so the result broadcasts against the operand.
struct keepdims_t {};
inline constexpr keepdims_t keepdims{};

namespace detail {

/// An integer that names an axis (not a bool).
template <class I>
concept axis_integer = std::integral<I> && !std::same_as<I, bool>;

template <class A>
struct is_axes : std::false_type {};
template <std::size_t K>
struct is_axes<axes_t<K>> : std::true_type {};

/// What may follow the operand of a reduction: an axis (an integer, axis(k), axes(...)),
/// optionally then keepdims.
template <class... Rest>
inline constexpr bool reduction_arguments = sizeof...(Rest) == 0;
template <class A, class... Rest>
inline constexpr bool reduction_arguments<A, Rest...> =
    (axis_integer<A> || std::same_as<A, axis_t> || is_axes<A>::value) &&
    (sizeof...(Rest) == 0 || (sizeof...(Rest) == 1 && (std::same_as<Rest, keepdims_t> && ...)));

/// The error of an axis outside [-N, N), one function for every reduction.
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_axis_out_of_range(std::string_view reduction, index_t axis,
                                                                           std::span<const index_t> shape) {
    const auto n = index_t(shape.size());
    message text;
    text << "bsx: " << reduction << ": axis " << axis << " is out of range for an operand of rank " << n
         << " and shape " << shape_text{shape} << " (axes -" << n << " to " << n - 1 << ")";
    throw std::out_of_range(text.c_str());
}

/// The error of an axis given twice to one reduction (`as`: its first spelling).
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_axis_given_twice(std::string_view reduction, index_t axis,
                                                                          index_t as, index_t rank) {
    message text;
    text << "bsx: " << reduction << ": axis " << axis << " is given twice (as " << as << ") for an operand of rank "
         << rank;
    throw std::invalid_argument(text.c_str());
}

/// The error of a reduction with no identity (min, max, ...) over no elements: the whole
/// expression (axis < 0) or an empty axis.
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_nothing_to_reduce(std::string_view reduction,
                                                                           std::span<const index_t> shape,
                                                                           index_t axis) {
    message text;
    text << "bsx: " << reduction;
    if (axis < 0)
        text << ": an expression of shape " << shape_text{shape} << " has no elements to reduce";
    else
        text << ": axis " << axis << " of an operand of shape " << shape_text{shape} << " is empty, and " << reduction
             << " has no identity";
    throw std::invalid_argument(text.c_str());
}

/// `axes` as sorted operand axes: each in [-N, N) (negative counts from the end), none twice.
template <std::size_t N, std::size_t K>
std::array<std::size_t, K> normalized_axes(std::string_view reduction, const std::array<index_t, K>& axes,
                                           const shape_t<N>& shape) {
    constexpr auto n = index_t(N);
    std::array<std::size_t, K> out{};
    for (std::size_t i = 0; i < K; ++i) {
        if (axes[i] < -n || axes[i] >= n) throw_axis_out_of_range(reduction, axes[i], shape);
        out[i] = std::size_t(axes[i] < 0 ? axes[i] + n : axes[i]);
        for (std::size_t j = 0; j < i; ++j)
            if (out[j] == out[i]) throw_axis_given_twice(reduction, axes[i], axes[j], n);
    }
    // At most N axes: an insertion sort, not std::sort's introsort compiled per K.
    for (std::size_t i = 1; i < K; ++i)
        for (std::size_t j = i; j > 0 && out[j - 1] > out[j]; --j) std::swap(out[j - 1], out[j]);
    return out;
}

/// Axis k of an operand of the given shape, counted from the front (negative k counts from
/// the end); out of range throws as every function that takes an axis does.
template <std::size_t N>
std::size_t checked_axis(std::string_view function, index_t k, const shape_t<N>& shape) {
    constexpr auto n = index_t(N);
    if (k < -n || k >= n) throw_axis_out_of_range(function, k, shape);
    return std::size_t(k < 0 ? k + n : k);
}

/// An axis as a function that takes one axis accepts it: `bsx::axis(k)` or plainly `k`.
template <class A>
concept axis_argument = std::same_as<A, axis_t> || axis_integer<A>;

inline index_t axis_value(axis_t a) noexcept { return a.value; }
template <axis_integer I>
index_t axis_value(I k) noexcept {
    return static_cast<index_t>(k);
}

/// The reductions of Op taking bsx::axis(k) and bsx::axes(...) (min and max, whose
/// f(x, number) is element-wise, take no plain integer).
template <class Op>
struct axis_reduction {
    /// The whole expression reduced to one value.
    template <expression X>
    auto operator()(const X& x) const {
        if constexpr (Op::needs_elements)
            if (x.size() == 0) throw_nothing_to_reduce(Op::name, x.shape(), -1);
        reduced_t<Op, X> result{};
        if constexpr (custom_reduction<Op, X>) {
            // The scan of eval/reduce_index.hpp reads every element in this process.
            static_assert(!finds_index<Op>, BSX_REFUSAL_DISTRIBUTED_INDEX_REDUCTION(message));
            if constexpr (!finds_index<Op>) bsx_reduce(Op{}, x, rank_v<X>, &result, false);
        } else {
            reduce_expression<Op>(x, rank_v<X>, &result, false);
        }
        return result;
    }
    /// A lazy reduction along axis a (rank N-1).
    template <expression X>
    auto operator()(X&& x, axis_t a) const {
        return make<false>(std::forward<X>(x), std::array<index_t, 1>{a.value});
    }
    /// The same, keeping the axis with extent 1 (rank N).
    template <expression X>
    auto operator()(X&& x, axis_t a, keepdims_t) const {
        return make<true>(std::forward<X>(x), std::array<index_t, 1>{a.value});
    }
    /// A lazy reduction over K axes at once (rank N-K).
    template <expression X, std::size_t K>
    auto operator()(X&& x, axes_t<K> a) const {
        return make<false>(std::forward<X>(x), a.values);
    }
    template <expression X, std::size_t K>
    auto operator()(X&& x, axes_t<K> a, keepdims_t) const {
        return make<true>(std::forward<X>(x), a.values);
    }

private:
    template <bool KeepDims, class X, std::size_t K>
    static auto make(X&& x, const std::array<index_t, K>& a) {
        constexpr std::size_t N = rank_v<X>;
        static_assert(N > 0, "bsx: a rank-0 expression has no axis to reduce");
        static_assert(K <= N, "bsx: more axes to reduce than the operand has");
        const auto shape = x.shape();
        const auto k = normalized_axes<N>(Op::name, a, shape);
        // An empty axis has nothing to reduce, even when no output needs a value (NumPy
        // raises for (0,0) along either axis too).
        if constexpr (Op::needs_elements) {
            for (std::size_t i = 0; i < K; ++i)
                if (shape[k[i]] == 0) throw_nothing_to_reduce(Op::name, shape, index_t(k[i]));
        }
        return reduce_node<Op, held_t<X>, KeepDims, K>(hold(std::forward<X>(x)), k);
    }
};

/// The overload of a function taking a reduction's arguments for any other call: one
/// diagnostic, not the list of every overload (the result is an int so that the assertion
/// is the only error).
struct refuses_other_reduction_calls {
    template <class X, class... Rest>
        requires(!(expression<X> && reduction_arguments<std::remove_cvref_t<Rest>...>))
    int operator()(X&&, Rest&&...) const {
        static_assert(reduction_arguments<X, Rest...> && !reduction_arguments<X, Rest...>,
                      BSX_REFUSAL_REDUCTION_ARGUMENTS(message));
        return 0;
    }
};

/// A reduction: besides what axis_reduction takes, a plain integer axis, `sum(x, 0)`.
template <class Op>
struct reduction_function : axis_reduction<Op>, refuses_other_reduction_calls {
    using axis_reduction<Op>::operator();
    using refuses_other_reduction_calls::operator();
    template <expression X, axis_integer I>
    auto operator()(X&& x, I k) const {
        return (*this)(std::forward<X>(x), axis(index_t(k)));
    }
    template <expression X, axis_integer I>
    auto operator()(X&& x, I k, keepdims_t) const {
        return (*this)(std::forward<X>(x), axis(index_t(k)), keepdims);
    }
};

/// min and max are both: the binary element-wise functions (with their XLA form) and
/// reductions. `min(x, 0)` is the element-wise minimum with 0: their axis is always
/// spelled axis(k).
template <class Elementwise, class Reduction>
struct elementwise_and_reduction : binary_function<Elementwise>, axis_reduction<Reduction> {
    using binary_function<Elementwise>::operator();
    using axis_reduction<Reduction>::operator();
};

}  // namespace detail

inline constexpr detail::reduction_function<ops::sum_reduction> sum{};
inline constexpr detail::reduction_function<ops::prod_reduction> prod{};
inline constexpr detail::reduction_function<ops::mean_reduction> mean{};
inline constexpr detail::reduction_function<ops::any_reduction> any{};
inline constexpr detail::elementwise_and_reduction<ops::minimum, ops::min_reduction> min{};
inline constexpr detail::elementwise_and_reduction<ops::maximum, ops::max_reduction> max{};
/// `bsx::all`: the all() reduction, and the whole axis in slice() (NumPy `:`, view/slice.hpp).
struct all_t : detail::reduction_function<ops::all_reduction> {};
inline constexpr all_t all{};

}  // namespace bsx
