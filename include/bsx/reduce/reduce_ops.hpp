// bsx/reduce/reduce_ops.hpp: the reduction table. One small struct per reduction:
// the accumulator type for an element type, the identity, how two partial results
// combine, and how the final accumulator becomes the result (mean divides by the count).
#pragma once

#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>

#include "../config.hpp"
#include "../expr/ops.hpp"

namespace bsx::ops {

namespace detail {
/// sum and prod of bool or integral elements accumulate in int64 (as NumPy on 64-bit).
template <class T>
using widened_t = std::conditional_t<std::is_integral_v<T>, std::int64_t, T>;

/// Integers wrap on overflow, as in NumPy, instead of being undefined behaviour.
template <class A>
constexpr A wrapping_add(A x, A y) noexcept {
    if constexpr (std::is_integral_v<A>)
        return A(std::make_unsigned_t<A>(x) + std::make_unsigned_t<A>(y));
    else
        return x + y;
}
template <class A>
constexpr A wrapping_multiply(A x, A y) noexcept {
    if constexpr (std::is_integral_v<A>)
        return A(std::make_unsigned_t<A>(x) * std::make_unsigned_t<A>(y));
    else
        return x * y;
}
/// What most reductions share: the accumulator is the result, and an empty extent has
/// one (the identity). mean and min/max override these.
struct returns_accumulator {
    static constexpr bool needs_elements = false;
    template <class A>
    static constexpr A finish(A acc, index_t) noexcept {
        return acc;
    }
};

/// What min, max, nanmin and nanmax share: the element type accumulates, an empty extent
/// has no result, and the combine returns one of its operands.
struct selects_extreme : returns_accumulator {
    static constexpr bool needs_elements = true;
    static constexpr bool selects_an_operand = true;
    template <class T>
    using accumulator = T;
};

}  // namespace detail

struct sum_reduction : detail::returns_accumulator {
    static constexpr std::string_view name = "sum";
    template <class T>
    using accumulator = detail::widened_t<T>;
    template <class A>
    static constexpr A identity() noexcept {
        return A(0);
    }
    template <class A>
    static constexpr A combine(A x, A y) noexcept {
        return detail::wrapping_add(x, y);
    }
};

struct prod_reduction : detail::returns_accumulator {
    static constexpr std::string_view name = "prod";
    template <class T>
    using accumulator = detail::widened_t<T>;
    template <class A>
    static constexpr A identity() noexcept {
        return A(1);
    }
    template <class A>
    static constexpr A combine(A x, A y) noexcept {
        return detail::wrapping_multiply(x, y);
    }
};

/// The mean of integral elements is a double; of an empty extent, NaN (0 / 0). Its
/// accumulators combine as sum's (`combines_as`), so the two share their traversals.
struct mean_reduction : detail::returns_accumulator {
    static constexpr std::string_view name = "mean";
    using combines_as = sum_reduction;
    template <class T>
    using accumulator = std::conditional_t<std::is_integral_v<T>, double, T>;
    template <class A>
    static constexpr A identity() noexcept {
        return A(0);
    }
    template <class A>
    static constexpr A combine(A x, A y) noexcept {
        return x + y;
    }
    template <class A>
    static constexpr A finish(A acc, index_t n) noexcept {
        return n == 0 ? std::numeric_limits<A>::quiet_NaN() : acc / static_cast<A>(n);
    }
};

/// NaN-propagating, like NumPy's min/max; an empty extent has no result. The combine
/// returns one of its operands, so any grouping gives the same value (up to which of two
/// NaNs, or of -0 and +0, it picks).
struct min_reduction : detail::selects_extreme {
    static constexpr std::string_view name = "min";
    template <class A>
    static constexpr A identity() noexcept {
        if constexpr (std::numeric_limits<A>::has_infinity)
            return std::numeric_limits<A>::infinity();
        else
            return std::numeric_limits<A>::max();
    }
    template <class A>
    static constexpr A combine(A x, A y) noexcept {
        return minimum::combine(x, y);
    }
};

struct max_reduction : detail::selects_extreme {
    static constexpr std::string_view name = "max";
    template <class A>
    static constexpr A identity() noexcept {
        if constexpr (std::numeric_limits<A>::has_infinity)
            return -std::numeric_limits<A>::infinity();
        else
            return std::numeric_limits<A>::lowest();
    }
    template <class A>
    static constexpr A combine(A x, A y) noexcept {
        return maximum::combine(x, y);
    }
};

/// nanmin and nanmax: NaNs ignored. The identity is NaN, so an all-NaN slice gives NaN (as
/// NumPy, which warns); the combine returns one of its operands, as min's does.
struct nanmin_reduction : detail::selects_extreme {
    static constexpr std::string_view name = "nanmin";
    template <class A>
    static constexpr A identity() noexcept {
        if constexpr (std::numeric_limits<A>::has_quiet_NaN)
            return std::numeric_limits<A>::quiet_NaN();
        else
            return std::numeric_limits<A>::max();
    }
    template <class A>
    static constexpr A combine(A x, A y) noexcept {
        return x != x ? y : (y < x ? y : x);  // y when x is NaN, x when y is
    }
};

struct nanmax_reduction : detail::selects_extreme {
    static constexpr std::string_view name = "nanmax";
    template <class A>
    static constexpr A identity() noexcept {
        if constexpr (std::numeric_limits<A>::has_quiet_NaN)
            return std::numeric_limits<A>::quiet_NaN();
        else
            return std::numeric_limits<A>::lowest();
    }
    template <class A>
    static constexpr A combine(A x, A y) noexcept {
        return x != x ? y : (y > x ? y : x);
    }
};

/// Elements count as true when nonzero (NaN is true, as in NumPy).
struct all_reduction : detail::returns_accumulator {
    static constexpr std::string_view name = "all";
    static constexpr bool absorbing = false;  // one false element decides
    template <class T>
    using accumulator = bool;
    template <class A>
    static constexpr A identity() noexcept {
        return true;
    }
    template <class A>
    static constexpr A combine(A x, A y) noexcept {
        return x & y;
    }  // not &&: no branch, so it vectorizes
};

struct any_reduction : detail::returns_accumulator {
    static constexpr std::string_view name = "any";
    static constexpr bool absorbing = true;  // one true element decides
    template <class T>
    using accumulator = bool;
    template <class A>
    static constexpr A identity() noexcept {
        return false;
    }
    template <class A>
    static constexpr A combine(A x, A y) noexcept {
        return x | y;
    }
};

/// argmin, argmax and their nan* forms: the first index of the extreme among the reduced
/// elements (in row-major order), which no grouping of the elements can change. A NaN
/// counts as the extreme and the first one wins, as in NumPy; `SkipsNan` ignores NaNs (an
/// all-NaN slice has no index). Evaluated by eval/reduce_index.hpp, not the sum tree.
namespace detail {
template <bool Max, bool SkipsNan>
struct first_index_of_extreme : returns_accumulator {
    static constexpr bool needs_elements = true;
    static constexpr bool finds_index = true;
    static constexpr bool skips_nan = SkipsNan;
    template <class T>
    using accumulator = index_t;
    template <class A>
    static constexpr A identity() noexcept {
        return A(0);
    }
    /// Whether `v` replaces `best`, met earlier: only a strictly better value does. Written
    /// with & and |, not && and ||: no branch, so the loops that call it vectorize.
    template <class T>
    static constexpr bool better(T v, T best) noexcept {
        const bool beyond = Max ? v > best : v < best;
        if constexpr (SkipsNan)
            return (v == v) & ((best != best) | beyond);
        else
            return (best == best) & ((v != v) | beyond);
    }
};
}  // namespace detail

struct argmin_reduction : detail::first_index_of_extreme<false, false> {
    static constexpr std::string_view name = "argmin";
};
struct argmax_reduction : detail::first_index_of_extreme<true, false> {
    static constexpr std::string_view name = "argmax";
};
struct nanargmin_reduction : detail::first_index_of_extreme<false, true> {
    static constexpr std::string_view name = "nanargmin";
};
struct nanargmax_reduction : detail::first_index_of_extreme<true, true> {
    static constexpr std::string_view name = "nanargmax";
};

}  // namespace bsx::ops
