// bsx/reduce/reductions.hpp: sum, prod, mean, min, max, all, any. `sum(x)` reduces the
// whole expression and returns the scalar; `sum(x, axis(k))` is a lazy expression of
// rank N-1, and `sum(x, axis(k), keepdims)` keeps the axis with extent 1. Negative axes
// count from the end, as in NumPy.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

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

/// Keep the reduced axis, with extent 1, so the result broadcasts against the operand.
struct keepdims_t {};
inline constexpr keepdims_t keepdims{};

namespace detail {

template <class Op>
struct reduction_function {
    /// The whole expression reduced to one value.
    template <expression X>
    auto operator()(const X& x) const {
        if constexpr (Op::needs_elements)
            if (x.size() == 0)
                throw std::invalid_argument("bsx: " + std::string(Op::name) + ": an expression of shape " +
                                            format_shape(x.shape()) + " has no elements to reduce");
        reduced_t<Op, X> result{};
        if constexpr (custom_reduction<Op, X>)
            bsx_reduce(Op{}, x, rank_v<X>, &result, false);
        else
            reduce_expression<Op>(x, rank_v<X>, &result, false);
        return result;
    }
    /// A lazy reduction along axis a (rank N-1).
    template <expression X>
    auto operator()(X&& x, axis_t a) const {
        return make<false>(std::forward<X>(x), a);
    }
    /// The same, keeping the axis with extent 1 (rank N).
    template <expression X>
    auto operator()(X&& x, axis_t a, keepdims_t) const {
        return make<true>(std::forward<X>(x), a);
    }

private:
    template <bool KeepDims, class X>
    static auto make(X&& x, axis_t a) {
        constexpr index_t N = index_t(rank_v<X>);
        static_assert(N > 0, "bsx: a rank-0 expression has no axis to reduce");
        const auto shape = x.shape();
        if (a.value < -N || a.value >= N)
            throw std::out_of_range("bsx: " + std::string(Op::name) + ": axis " + std::to_string(a.value) +
                                    " is out of range for an operand of shape " + format_shape(shape) + " (axes -" +
                                    std::to_string(N) + " to " + std::to_string(N - 1) + ")");
        const auto k = std::size_t(a.value < 0 ? a.value + N : a.value);
        // An empty axis has nothing to reduce, even when no output needs a value (NumPy
        // raises for (0,0) along either axis too).
        if constexpr (Op::needs_elements) {
            if (shape[k] == 0)
                throw std::invalid_argument("bsx: " + std::string(Op::name) + ": axis " + std::to_string(a.value) +
                                            " of an operand of shape " + format_shape(shape) + " is empty, and " +
                                            std::string(Op::name) + " has no identity");
        }
        return reduce_node<Op, held_t<X>, KeepDims>(hold(std::forward<X>(x)), k);
    }
};

/// min and max are both: the binary element-wise functions (with their XLA form) and
/// reductions.
template <class Elementwise, class Reduction>
struct elementwise_and_reduction : binary_function<Elementwise>, reduction_function<Reduction> {
    using binary_function<Elementwise>::operator();
    using reduction_function<Reduction>::operator();
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
