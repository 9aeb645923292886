// bsx/reduce/index_reductions.hpp: argmin, argmax (the first index of the extreme, a NaN
// counting as the extreme) and count_nonzero. Like sum: `f(x)` gives the index_t for the
// whole expression (a flat row-major index), `f(x, k)` a lazy expression of indices along
// axis k, keepdims after the axis keeps it with extent 1.
#pragma once

#include <type_traits>
#include <utility>

#include "../expr/expression.hpp"
#include "../expr/operators.hpp"
#include "reduce_ops.hpp"
#include "reductions.hpp"

namespace bsx {

inline constexpr detail::reduction_function<ops::argmin_reduction> argmin{};
inline constexpr detail::reduction_function<ops::argmax_reduction> argmax{};

namespace detail {
/// count_nonzero(x, ...) is sum(x != 0, ...): NaN counts, as in NumPy.
struct count_nonzero_function {
    template <expression X, class... Axis>
        requires reduction_arguments<std::remove_cvref_t<Axis>...>
    auto operator()(X&& x, Axis... a) const {
        return sum(std::forward<X>(x) != value_type_t<X>(0), a...);
    }
};
}  // namespace detail

inline constexpr detail::count_nonzero_function count_nonzero{};

}  // namespace bsx
