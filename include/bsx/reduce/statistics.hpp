// bsx/reduce/statistics.hpp: var and std (two passes: the mean, then the sum of squared
// deviations; of an array, run by run or slab by slab while each is in cache), and the
// NaN-ignoring reductions nansum, nanmean, nanmin, nanmax, nanargmin, nanargmax. Each takes
// the arguments of sum (an axis, then keepdims); var and std take ddof(d) last. Built from
// the reductions of reductions.hpp, so they are lazy along an axis and the same bits at any
// thread count.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "../detail/refusals.hpp"
#include "../eval/alias.hpp"
#include "../eval/computed_whole.hpp"
#include "../eval/evaluator.hpp"
#include "../eval/parallel.hpp"
#include "../eval/reduce_tree.hpp"
#include "../expr/unary_node.hpp"
#include "../view/strided_view.hpp"
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

/// The divisor of var and std over n elements: n - ddof, in R so that no ddof can overflow;
/// 0 where n <= ddof, giving inf or NaN as NumPy does.
template <class R>
R variance_divisor(index_t n, ddof_t d) noexcept {
    return d.value >= n ? R(0) : R(n) - R(d.value);
}

/// var (Sqrt false) or std of x along `axes` as a lazy expression:
/// sum((x - mean(x, axes, keepdims))^2, axes) / (n - ddof), NumPy's two passes.
template <bool KeepDims, bool Sqrt, class X, std::size_t K>
auto variance_formula(X&& x, const std::array<index_t, K>& axes, index_t n, ddof_t d) {
    using R = mean_t<value_type_t<X>>;
    auto centred = another_use<X>(x) - mean(std::forward<X>(x), axes_t<K>{axes}, keepdims);
    auto total = [&] {
        if constexpr (KeepDims)
            return sum(square(std::move(centred)), axes_t<K>{axes}, keepdims);
        else
            return sum(square(std::move(centred)), axes_t<K>{axes});
    }();
    auto v = std::move(total) / variance_divisor<R>(n, d);
    if constexpr (Sqrt)
        return bsx::sqrt(std::move(v));
    else
        return v;
}

/// var or std of an array or view along axes, computed whole (eval/computed_whole.hpp).
/// As a lazy formula it reads the operand twice from memory: all means, then all squared
/// deviations. Here, where the first axis is not reduced, slab after slab of it: a slab's
/// means, then its deviations while the slab is still in cache. Each slab is the same
/// formula, whose every output depends on its own elements alone, so the bits are those of
/// the formula over the whole operand, at any thread count. Where the reduced axes are the
/// last and contiguous and there are many outputs, output by output instead (write_runs).
template <class Held, std::size_t K, bool KeepDims, bool Sqrt>
class variance_node : public unary_node<variance_node<Held, K, KeepDims, Sqrt>, Held> {
    using base = unary_node<variance_node<Held, K, KeepDims, Sqrt>, Held>;
    using typename base::operand_type;
    static constexpr std::size_t N = rank_v<operand_type>;
    using T = std::remove_const_t<value_type_t<operand_type>>;
    /// The operand's rows [r0, r1) of its first axis: the formula is compiled for this one
    /// view type, whatever the operand's type.
    using slab_view = strided_view<const T, N>;

public:
    using base::operand;
    using rules_tag = rules_tag_t<operand_type>;
    using value_type = value_type_t<decltype(variance_formula<KeepDims, Sqrt>(
        std::declval<const slab_view&>(), std::array<index_t, K>{}, index_t{}, ddof_t{}))>;
    static constexpr std::size_t rank = KeepDims ? N : N - K;
    static constexpr shape_t<rank> static_extents = dynamic_shape<rank>();

    /// n: the elements each output reduces; axes checked, from 0 and in increasing order.
    variance_node(Held held, const std::array<index_t, K>& axes, index_t n, ddof_t d)
        : base(std::move(held)), axes_(axes), n_(n), ddof_(d), shape_(formula(slab(0, rows())).shape()) {}

    const shape_t<rank>& shape() const noexcept { return shape_; }
    value_type element(const shape_t<rank>& idx) const { return formula(slab(0, rows())).element(idx); }

    void write(value_type* out) const {
        if (const shape_t<rank> now = formula(slab(0, rows())).shape(); now != shape_)
            throw_resized_operand(Sqrt ? "std" : "var", now, shape_);
        if (shape_size(shape_) == 0) return;
        if constexpr (rank > 0 && std::is_floating_point_v<T>) {
            if (trailing_runs()) return write_runs(out);
        }
        if constexpr (rank > 0) {
            if (!reduces_first_axis()) {  // the result's first axis is the operand's, not empty
                const index_t row = std::max<index_t>(1, operand().size() / rows());
                const index_t step = std::max<index_t>(1, slab_bytes / index_t(sizeof(T)) / row);
                const index_t out_row = shape_size(shape_) / shape_[0];
                for (index_t r0 = 0; r0 < rows(); r0 += step) {
                    const index_t r1 = std::min(rows(), r0 + step);
                    shape_t<rank> part = shape_;
                    part[0] = r1 - r0;
                    strided_view<value_type, rank>(out + r0 * out_row, part, contiguous_strides(part)) =
                        formula(slab(r0, r1));
                }
                return;
            }
        }
        strided_view<value_type, rank>(out, shape_, contiguous_strides(shape_)) = formula(slab(0, rows()));
    }

    bool reads_memory_in(const byte_range& range) const noexcept {
        return memory_range(operand().data(), operand().shape(), operand().strides()).overlaps(range);
    }
    bool writes_over_operand(const value_type*) const noexcept { return false; }

private:
    /// Outputs from which on write_runs pays: enough for every thread to have several.
    static constexpr index_t min_runs = 64;

    /// Whether every output reduces one contiguous run of the operand (the reduced axes
    /// are its last ones and contiguous), and there are enough outputs for write_runs.
    bool trailing_runs() const noexcept {
        if (axes_[0] != index_t(N - K) || shape_size(shape_) < min_runs) return false;
        const auto& shape = operand().shape();
        const auto& strides = operand().strides();
        index_t run = 1;
        for (std::size_t a = N; a-- > N - K; run *= shape[a])
            if (shape[a] != 1 && strides[a] != run) return false;
        return run > 0;
    }

    /// var or std where trailing_runs: output by output, its run's mean, then its squared
    /// deviations, the run read the second time from the nearest cache; threads take
    /// whole outputs. Each sum takes the tree of the formula's reductions (tree_value),
    /// and the formula's operations in its order, so the bits are the formula's.
    void write_runs(value_type* out) const {
        static_assert(std::is_same_v<value_type, T>);
        using Sum = ops::sum_reduction;
        struct squared_deviation_reader {
            const T* p;
            T mean;
            T load(index_t j) const noexcept {
                const T d = p[j] - mean;
                return d * d;
            }
        };
        constexpr std::size_t L = N - K;
        const auto& shape = operand().shape();
        const auto& strides = operand().strides();
        const T* data = operand().data();
        const index_t m = n_;
        const T divisor = variance_divisor<T>(m, ddof_);
        parallel_for(shape_size(shape_), region_threads(operand().size()), 1,
                     [&](index_t begin, index_t end, const first_exception*) {
                         for (index_t i = begin; i < end; ++i) {
                             index_t offset = 0;
                             for (index_t rest = i, a = L; a-- > 0; rest /= shape[a])
                                 offset += rest % shape[a] * strides[a];
                             const T* p = data + offset;
                             const T mean = tree_value<Sum, T>(memory_reader<T>{p}, m) / T(m);
                             const T v = tree_value<Sum, T>(squared_deviation_reader{p, mean}, m) / divisor;
                             if constexpr (Sqrt)
                                 out[i] = std::sqrt(v);
                             else
                                 out[i] = v;
                         }
                     });
    }

    /// Bytes of operand per slab: well within any last-level cache, and enough that a
    /// slab's two reductions cost little beside reading it.
    static constexpr index_t slab_bytes = index_t(2) << 20;

    index_t rows() const noexcept { return operand().shape()[0]; }
    slab_view slab(index_t r0, index_t r1) const noexcept {
        shape_t<N> part = operand().shape();
        part[0] = r1 - r0;
        return slab_view(operand().data() + r0 * operand().strides()[0], part, operand().strides());
    }
    auto formula(const slab_view& x) const { return variance_formula<KeepDims, Sqrt>(x, axes_, n_, ddof_); }
    bool reduces_first_axis() const noexcept { return axes_[0] == 0; }

    std::array<index_t, K> axes_;
    index_t n_;
    ddof_t ddof_;
    shape_t<rank> shape_;
};

template <class Held, std::size_t K, bool KeepDims, bool Sqrt>
struct binder<variance_node<Held, K, KeepDims, Sqrt>> : computed_whole_binder {};

/// var (Sqrt false) and std (Sqrt true).
template <bool Sqrt>
struct variance_function {
    template <expression X>
    auto operator()(const X& x, ddof_t d = {0}) const {
        using R = mean_t<value_type_t<X>>;
        const R m = mean(x);
        const R v = R(sum(square(x - m))) / variance_divisor<R>(x.size(), d);
        if constexpr (Sqrt)
            return std::sqrt(v);
        else
            return v;
    }
    template <expression X, class A>
        requires reduction_arguments<A>
    auto operator()(X&& x, A a, ddof_t d = {0}) const {
        return make<false>(std::forward<X>(x), axis_list(a), d);
    }
    template <expression X, class A>
        requires reduction_arguments<A>
    auto operator()(X&& x, A a, keepdims_t, ddof_t d = {0}) const {
        return make<true>(std::forward<X>(x), axis_list(a), d);
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
    /// An array or view: a variance_node; any other expression: the lazy formula.
    template <bool KeepDims, class X, std::size_t K>
    static auto make(X&& x, const std::array<index_t, K>& axes, ddof_t d) {
        const auto shape = x.shape();
        const auto normalized = normalized_axes<rank_v<X>>(Sqrt ? "std" : "var", axes, shape);
        index_t n = 1;
        std::array<index_t, K> increasing{};
        for (std::size_t i = 0; i < K; ++i) {
            n *= shape[normalized[i]];
            increasing[i] = index_t(normalized[i]);
        }
        if constexpr (strided_expression<X>) {
            auto held = hold(std::forward<X>(x));
            return variance_node<decltype(held), K, KeepDims, Sqrt>(std::move(held), increasing, n, d);
        } else {
            return variance_formula<KeepDims, Sqrt>(std::forward<X>(x), axes, n, d);
        }
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
