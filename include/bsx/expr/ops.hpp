// bsx/expr/ops.hpp: the operation table. One small function object per scalar
// operation; operators.hpp and functions.hpp turn each entry into a broadcasting
// operator or function. Each entry carries the name used in error messages.
// Semantics follow NumPy where it is explicit, Octave for mod/rem (doc/reference.md, section 3).
// Integer arithmetic is defined for every input: it wraps, and division never traps.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string_view>
#include <type_traits>
#include <utility>

#include "../detail/convert.hpp"
#include "../detail/vector_math.hpp"

namespace bsx::ops {

namespace detail {
template <class A, class B>
inline constexpr bool both_bool = std::is_same_v<A, bool> && std::is_same_v<B, bool>;
template <class A, class B>
inline constexpr bool integral_pair = std::is_integral_v<A> && std::is_integral_v<B>;

template <class T>
inline constexpr bool signed_integer = std::is_integral_v<T> && std::is_signed_v<T>;
template <class T>
inline constexpr bool unsigned_integer = std::is_integral_v<T> && std::is_unsigned_v<T> && !std::is_same_v<T, bool>;
/// A signed and an unsigned integer (bool never holds a negative value, so it does not count).
template <class A, class B>
inline constexpr bool mixed_sign =
    (signed_integer<A> && unsigned_integer<B>) || (unsigned_integer<A> && signed_integer<B>);

/// The type an operation on A and B computes in, given the type R C++ would use. C++
/// converts a negative signed operand to a huge unsigned value when the other operand is
/// an unsigned type at least as wide (int8 -71 with uint32 becomes 4294967225); NumPy
/// instead promotes to a signed type that holds both (int64), and so does bsx. With a
/// 64-bit unsigned operand no integer type holds both: that does not compile.
template <class A, class B, class R>
struct sign_safe {
    static constexpr bool lossy = mixed_sign<A, B> && std::is_unsigned_v<R>;
    static_assert(!lossy || sizeof(R) < sizeof(std::int64_t),
                  "bsx: a signed and a 64-bit unsigned integer operand have no common integer type that holds "
                  "both; cast one of them first (bsx::cast<std::int64_t>(x) or bsx::cast<double>(x))");
    using type = std::conditional_t<lossy, std::int64_t, R>;
};
template <class A, class B, class R>
using sign_safe_t = typename sign_safe<A, B, R>::type;

/// The type of `a + b` (and of - * / % & | ^), made sign-safe.
template <class A, class B>
using arithmetic_t = sign_safe_t<A, B, decltype(std::declval<A>() + std::declval<B>())>;
/// The common type of two operands (min, max, mod, rem, where), made sign-safe.
template <class A, class B>
using common_t = sign_safe_t<A, B, std::common_type_t<A, B>>;

/// The arithmetic that wrapping() applies, as C++ writes it (operands promoted as usual).
struct add {
    constexpr auto operator()(auto x, auto y) const { return x + y; }
};
struct subtract {
    constexpr auto operator()(auto x, auto y) const { return x - y; }
};
struct multiply {
    constexpr auto operator()(auto x, auto y) const { return x * y; }
};

/// `f` applied to a and b as R, computed in R's unsigned counterpart when R is an
/// integer: wraps modulo 2^N as NumPy's fixed-size integers do, where signed overflow in
/// C++ would be undefined. R is at least int (integer promotion), so the unsigned type
/// does not promote back to int.
template <class R, class F, class A, class B>
constexpr R wrapping(F f, A a, B b) {
    if constexpr (std::is_integral_v<R>) {
        using U = std::make_unsigned_t<R>;
        return static_cast<R>(f(static_cast<U>(static_cast<R>(a)), static_cast<U>(static_cast<R>(b))));
    } else {
        return f(static_cast<R>(a), static_cast<R>(b));
    }
}

/// A divisor that cannot trap: 1 where y is 0 or (signed) -1. Callers give those two
/// cases their own results; x / 1 and x % 1 are then harmless, and the code stays
/// branch-free.
template <class R>
constexpr R safe_divisor(R y) {
    if constexpr (std::is_signed_v<R>)
        return (y == 0 || y == R(-1)) ? R(1) : y;
    else
        return y == 0 ? R(1) : y;
}

/// Integers compared by value whatever their signedness (C++ would compare -1 < 1u as
/// false); each widened to the 64-bit type of its own signedness for std::cmp_*.
template <class T>
constexpr auto widened(T v) {
    if constexpr (std::is_signed_v<T>)
        return static_cast<long long>(v);
    else
        return static_cast<unsigned long long>(v);
}
}  // namespace detail

// ---- arithmetic -----------------------------------------------------------------
struct plus {
    static constexpr std::string_view name = "operator+";
    template <class A, class B>
    constexpr auto operator()(A a, B b) const {
        return detail::wrapping<detail::arithmetic_t<A, B>>(detail::add{}, a, b);
    }
};
struct minus {
    static constexpr std::string_view name = "operator-";
    template <class A, class B>
    constexpr auto operator()(A a, B b) const {
        return detail::wrapping<detail::arithmetic_t<A, B>>(detail::subtract{}, a, b);
    }
};
struct multiplies {
    static constexpr std::string_view name = "operator*";
    template <class A, class B>
    constexpr auto operator()(A a, B b) const {
        return detail::wrapping<detail::arithmetic_t<A, B>>(detail::multiply{}, a, b);
    }
};
/// Integers: truncating; x / 0 is 0 and INT_MIN / -1 wraps to INT_MIN (NumPy's results).
struct divides {
    static constexpr std::string_view name = "operator/";
    template <class A, class B>
    constexpr auto operator()(A a, B b) const {
        using R = detail::arithmetic_t<A, B>;
        if constexpr (std::is_integral_v<R>) {
            const R x = static_cast<R>(a), y = static_cast<R>(b);
            const R q = static_cast<R>(x / detail::safe_divisor(y));
            if constexpr (std::is_signed_v<R>)
                if (y == R(-1)) return detail::wrapping<R>(detail::subtract{}, R(0), x);
            return y == 0 ? R(0) : q;
        } else {
            return static_cast<R>(a) / static_cast<R>(b);
        }
    }
};
// XLA's names (bsx::add, ...): the same operations, named so in error messages.
struct add : plus {
    static constexpr std::string_view name = "add";
};
struct subtract : minus {
    static constexpr std::string_view name = "subtract";
};
struct multiply : multiplies {
    static constexpr std::string_view name = "multiply";
};
struct divide : divides {
    static constexpr std::string_view name = "divide";
};
/// Octave's `.\`: ldivide(a, b) is b / a.
struct ldivide {
    static constexpr std::string_view name = "ldivide";
    template <class A, class B>
    constexpr auto operator()(A a, B b) const {
        return divides{}(b, a);
    }
};
/// Integers only (constrained, so that `requires { a % b; }` is false for doubles; bsx::mod
/// and bsx::rem take floating point).
struct modulus {
    static constexpr std::string_view name = "operator%";
    template <class A, class B>
        requires detail::integral_pair<A, B>
    constexpr auto operator()(A a, B b) const {
        using R = detail::arithmetic_t<A, B>;
        return static_cast<R>(static_cast<R>(a) % detail::safe_divisor(static_cast<R>(b)));  // x % 0 is 0
    }
};
/// Floored remainder with the sign of the divisor; mod(x, 0) == x (Octave). Floating
/// types start from fmod, which is exact: x - floor(x / y) * y overflows when x / y does
/// (mod(4.0, DBL_MIN) would be -inf; it is 0). A zero result takes the divisor's sign, as
/// in NumPy.
struct mod {
    static constexpr std::string_view name = "mod";
    template <class A, class B>
    constexpr auto operator()(A a, B b) const {
        using R = detail::common_t<A, B>;
        const R x = static_cast<R>(a), y = static_cast<R>(b);
        if constexpr (std::is_integral_v<R>) {
            const R r = static_cast<R>(x % detail::safe_divisor(y));  // 0 for y == -1, as it should be
            if (y == 0) return x;
            return (r != 0 && ((r < 0) != (y < 0))) ? static_cast<R>(r + y) : r;
        } else {
            if (y == 0) return x;
            const R r = std::fmod(x, y);
            if (r == 0) return std::copysign(R(0), y);
            return (r < 0) != (y < 0) ? static_cast<R>(r + y) : r;
        }
    }
};
/// Truncated remainder with the sign of the dividend (C fmod); rem(x, 0) is NaN for
/// floating types and 0 for integers (as NumPy's fmod, avoiding C's undefined x % 0).
struct rem {
    static constexpr std::string_view name = "rem";
    template <class A, class B>
    constexpr auto operator()(A a, B b) const {
        using R = detail::common_t<A, B>;
        const R x = static_cast<R>(a), y = static_cast<R>(b);
        if constexpr (std::is_integral_v<R>)
            return static_cast<R>(x % detail::safe_divisor(y));  // 0 for y == 0 and y == -1
        else
            return std::fmod(x, y);
    }
};

// ---- minimum and maximum (written as selects so the loops vectorize without -ffast-math)
// The smaller (larger) of the two by a select, y when either is NaN (one vector min or max
// instruction), then a NaN fix-up: x when x is NaN. `combine`, the running minimum of the
// reductions, is the same function on one type.
/// NaN-propagating, like NumPy's minimum.
struct minimum {
    static constexpr std::string_view name = "min";
    template <class A, class B>
    constexpr auto operator()(A a, B b) const {
        using R = detail::common_t<A, B>;
        const R x = static_cast<R>(a), y = static_cast<R>(b);
        const R m = x < y ? x : y;  // y when either is NaN: one vector min instruction
        return x != x ? x : m;
    }
    /// operator() on one type: x when x is NaN, y when y is. Written as a select and a NaN
    /// check, not `x < y || x != x`, which compilers branch on (a mispredicted branch for
    /// every other element of random data) wherever the loop is not vectorized.
    template <class R>
    static constexpr R combine(R x, R y) noexcept {
        const R m = x < y ? x : y;
        return x != x ? x : m;
    }
};
/// NaN-propagating, like NumPy's maximum.
struct maximum {
    static constexpr std::string_view name = "max";
    template <class A, class B>
    constexpr auto operator()(A a, B b) const {
        using R = detail::common_t<A, B>;
        const R x = static_cast<R>(a), y = static_cast<R>(b);
        const R m = x > y ? x : y;
        return x != x ? x : m;
    }
    template <class R>
    static constexpr R combine(R x, R y) noexcept {
        const R m = x > y ? x : y;
        return x != x ? x : m;
    }
};
/// NaN-ignoring, like C fmin and Octave's min: NaN only if both are NaN.
struct fmin {
    static constexpr std::string_view name = "fmin";
    template <class A, class B>
    constexpr auto operator()(A a, B b) const {
        using R = detail::common_t<A, B>;
        const R x = static_cast<R>(a), y = static_cast<R>(b);
        return (x < y || y != y) ? x : y;
    }
};
/// NaN-ignoring, like C fmax and Octave's max.
struct fmax {
    static constexpr std::string_view name = "fmax";
    template <class A, class B>
    constexpr auto operator()(A a, B b) const {
        using R = detail::common_t<A, B>;
        const R x = static_cast<R>(a), y = static_cast<R>(b);
        return (x > y || y != y) ? x : y;
    }
};

// ---- comparisons and logic (bool results) ---------------------------------------
// A signed and an unsigned integer compare by value (std::cmp_*), not as C++ converts them.
#define BSX_COMPARISON(NAME, SYMBOL, CMP)                                \
    struct NAME {                                                        \
        static constexpr std::string_view name = "operator" #SYMBOL;     \
        template <class A, class B>                                      \
        constexpr bool operator()(A a, B b) const {                      \
            if constexpr (detail::mixed_sign<A, B>)                      \
                return std::CMP(detail::widened(a), detail::widened(b)); \
            else                                                         \
                return a SYMBOL b;                                       \
        }                                                                \
    };
BSX_COMPARISON(equal_to, ==, cmp_equal)
BSX_COMPARISON(not_equal_to, !=, cmp_not_equal)
BSX_COMPARISON(less, <, cmp_less)
BSX_COMPARISON(less_equal, <=, cmp_less_equal)
BSX_COMPARISON(greater, >, cmp_greater)
BSX_COMPARISON(greater_equal, >=, cmp_greater_equal)
#undef BSX_COMPARISON

struct logical_and {
    static constexpr std::string_view name = "logical_and";
    template <class A, class B>
    constexpr bool operator()(A a, B b) const {
        return static_cast<bool>(a) && static_cast<bool>(b);
    }
};
struct logical_or {
    static constexpr std::string_view name = "logical_or";
    template <class A, class B>
    constexpr bool operator()(A a, B b) const {
        return static_cast<bool>(a) || static_cast<bool>(b);
    }
};
struct logical_xor {
    static constexpr std::string_view name = "logical_xor";
    template <class A, class B>
    constexpr bool operator()(A a, B b) const {
        return static_cast<bool>(a) != static_cast<bool>(b);
    }
};
struct logical_not {
    static constexpr std::string_view name = "logical_not";
    template <class A>
    constexpr bool operator()(A a) const {
        return !static_cast<bool>(a);
    }
};
/// The operator spellings of the logical functions differ only in their names.
struct logical_and_operator : logical_and {
    static constexpr std::string_view name = "operator&&";
};
struct logical_or_operator : logical_or {
    static constexpr std::string_view name = "operator||";
};
struct logical_not_operator : logical_not {
    static constexpr std::string_view name = "operator!";
};

// ---- bitwise (integral and bool only, constrained; bool with bool stays bool, as in NumPy)
#define BSX_BITWISE(NAME, SYMBOL)                                                  \
    struct NAME {                                                                  \
        static constexpr std::string_view name = "operator" #SYMBOL;               \
        template <class A, class B>                                                \
            requires detail::integral_pair<A, B>                                   \
        constexpr auto operator()(A a, B b) const {                                \
            if constexpr (detail::both_bool<A, B>) {                               \
                return static_cast<bool>(a SYMBOL b);                              \
            } else {                                                               \
                using R = detail::arithmetic_t<A, B>;                              \
                return static_cast<R>(static_cast<R>(a) SYMBOL static_cast<R>(b)); \
            }                                                                      \
        }                                                                          \
    };
BSX_BITWISE(bit_and, &)
BSX_BITWISE(bit_or, |)
BSX_BITWISE(bit_xor, ^)
#undef BSX_BITWISE

// ---- unary ------------------------------------------------------------------------
struct unary_plus {
    static constexpr std::string_view name = "operator+";
    template <class A>
    constexpr auto operator()(A a) const {
        return +a;
    }
};
/// Integers wrap: -INT_MIN is INT_MIN, as in NumPy.
struct negate {
    static constexpr std::string_view name = "operator-";
    template <class A>
    constexpr auto operator()(A a) const {
        if constexpr (std::is_integral_v<A>)
            return detail::wrapping<decltype(-a)>(detail::subtract{}, 0, a);
        else
            return -a;  // not 0 - a: -(+0.0) is -0.0
    }
};
struct bit_not {
    static constexpr std::string_view name = "operator~";
    template <class A>
        requires std::is_integral_v<A>
    constexpr auto operator()(A a) const {
        if constexpr (std::is_same_v<A, bool>)
            return !a;
        else
            return ~a;
    }
};
struct abs {
    static constexpr std::string_view name = "abs";
    template <class A>
    constexpr auto operator()(A a) const {
        if constexpr (std::is_unsigned_v<A>)
            return a;
        else if constexpr (std::is_integral_v<A>)
            return a < 0 ? static_cast<A>(negate{}(a)) : a;  // abs(INT_MIN) wraps to INT_MIN, as NumPy
        else
            return std::abs(a);
    }
};
/// -1, 0 or +1: -0.0 gives +0.0 and NaN stays NaN, as NumPy.
struct sign {
    static constexpr std::string_view name = "sign";
    template <class A>
    constexpr A operator()(A a) const {
        if constexpr (std::is_unsigned_v<A>)
            return static_cast<A>(a > 0);
        else
            return a > 0 ? A(1) : (a < 0 ? A(-1) : (a == A(0) ? A(0) : a));
    }
};
struct square {
    static constexpr std::string_view name = "square";
    template <class A>
    constexpr auto operator()(A a) const {
        return multiplies{}(a, a);
    }
};

/// The math functions: their <cmath> namesakes (std::exp(int) is a double, as here), computed
/// a block at a time by vector math when the result is float or double (`kernels`, read by
/// the evaluator). One element alone goes through the same kernels, so an element's value
/// never depends on how it is reached.
template <class Kernels>
struct vector_math_function {
    using kernels = Kernels;
    template <class... A>
    auto operator()(A... a) const noexcept {
        return bsx::detail::vmath::apply_one<Kernels>(a...);
    }
};
#define BSX_VECTOR_MATH(NAME)                                      \
    struct NAME : vector_math_function<bsx::detail::vmath::NAME> { \
        static constexpr std::string_view name = #NAME;            \
    };
BSX_VECTOR_MATH(sqrt)
BSX_VECTOR_MATH(cbrt)
BSX_VECTOR_MATH(exp)
BSX_VECTOR_MATH(exp2)
BSX_VECTOR_MATH(expm1)
BSX_VECTOR_MATH(log)
BSX_VECTOR_MATH(log2)
BSX_VECTOR_MATH(log10)
BSX_VECTOR_MATH(log1p)
BSX_VECTOR_MATH(sin)
BSX_VECTOR_MATH(cos)
BSX_VECTOR_MATH(tan)
BSX_VECTOR_MATH(asin)
BSX_VECTOR_MATH(acos)
BSX_VECTOR_MATH(atan)
BSX_VECTOR_MATH(sinh)
BSX_VECTOR_MATH(cosh)
BSX_VECTOR_MATH(tanh)
BSX_VECTOR_MATH(pow)
BSX_VECTOR_MATH(atan2)
BSX_VECTOR_MATH(hypot)
#undef BSX_VECTOR_MATH

/// Unary functions that are exactly their <cmath> namesake.
#define BSX_CMATH_UNARY(NAME)                           \
    struct NAME {                                       \
        static constexpr std::string_view name = #NAME; \
        template <class A>                              \
        auto operator()(A a) const {                    \
            return std::NAME(a);                        \
        }                                               \
    };
BSX_CMATH_UNARY(floor)
BSX_CMATH_UNARY(ceil)
BSX_CMATH_UNARY(round)  // halves away from zero (C's round); rint rounds them to even, as np.round
BSX_CMATH_UNARY(rint)   // in the current rounding mode (to nearest, halves to even, unless changed)
BSX_CMATH_UNARY(trunc)
BSX_CMATH_UNARY(isnan)
BSX_CMATH_UNARY(isinf)
BSX_CMATH_UNARY(isfinite)
#undef BSX_CMATH_UNARY

// ---- NumPy's element-wise helpers: clip, nan_to_num, isclose ------------------------
/// min(max(x, lo), hi) with the values of the table's NaN-propagating minimum and maximum,
/// as NumPy: a NaN in any operand gives NaN, a tie gives the bound, and lo > hi gives hi.
/// Each step is one compare and one select on x: the bounds' own NaN checks do not depend
/// on x, so a compiler hoists them out of the loop where the bounds are constants.
struct clip {
    static constexpr std::string_view name = "clip";
    template <class A, class L, class H>
    constexpr auto operator()(A a, L lo, H hi) const {
        using R1 = detail::common_t<A, L>;
        const R1 x = static_cast<R1>(a), l = static_cast<R1>(lo);
        const R1 raised = ((x <= l) | (l != l)) ? l : x;  // x when x is NaN
        using R2 = detail::common_t<R1, H>;
        const R2 y = static_cast<R2>(raised), h = static_cast<R2>(hi);
        return ((y >= h) | (h != h)) ? h : y;
    }
};
/// NaN, +inf and -inf replaced by the given values of the element type T; other values,
/// and every integer or bool, unchanged. Selects, so that the loop vectorizes.
template <class T>
struct nan_to_num {
    static constexpr std::string_view name = "nan_to_num";
    T nan, posinf, neginf;
    constexpr T operator()(T a) const {
        if constexpr (std::is_floating_point_v<T>) {
            constexpr T inf = std::numeric_limits<T>::infinity();
            const T finite = a == inf ? posinf : (a == -inf ? neginf : a);
            return a != a ? nan : finite;
        } else {
            return a;
        }
    }
};
/// NumPy's isclose: |a - b| <= atol + rtol * |b| where both are finite (not symmetric in
/// a and b, as NumPy); infinities are close only to themselves; NaN to nothing. Computed in
/// double, integers included (NumPy's float64; NumPy keeps two float32 operands in float32).
/// `&` and `|` on the comparisons (as ints), not `&&`, so that the loop has no branches.
struct isclose {
    static constexpr std::string_view name = "isclose";
    double rtol, atol;
    template <class A, class B>
    constexpr bool operator()(A a, B b) const {
        using R = std::common_type_t<double, A, B>;
        const R x = static_cast<R>(a), y = static_cast<R>(b);
        constexpr R max = std::numeric_limits<R>::max();
        const int finite = int(std::abs(x) <= max) & int(std::abs(y) <= max);
        const int within = int(std::abs(x - y) <= R(atol) + R(rtol) * std::abs(y));
        return ((finite & within) | int(x == y)) != 0;
    }
};

// ---- selection, conversion, user functions ---------------------------------------
struct select {
    static constexpr std::string_view name = "where";
    template <class C, class A, class B>
    constexpr auto operator()(C c, A a, B b) const {
        using R = detail::common_t<A, B>;
        return static_cast<bool>(c) ? static_cast<R>(a) : static_cast<R>(b);
    }
};

template <class U>
struct cast_to {
    static constexpr std::string_view name = "cast";
    template <class A>
    constexpr U operator()(A a) const {
        return bsx::detail::convert<U>(a);
    }
};

/// A user callable applied element-wise (bsx::map, bsx::bsxfun). The only operation that
/// may throw; its exceptions reach the caller of the assignment.
template <class F>
struct user_function {
    F f;
    std::string_view name;
    template <class... A>
    constexpr decltype(auto) operator()(A... a) const noexcept(std::is_nothrow_invocable_v<const F&, A...>) {
        return f(a...);
    }
};
template <class Op>
inline constexpr bool is_user_function = false;
template <class F>
inline constexpr bool is_user_function<user_function<F>> = true;

}  // namespace bsx::ops
