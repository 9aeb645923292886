// bsx/expr/ops.hpp: the operation table. One small function object per scalar
// operation; operators.hpp and functions.hpp turn each entry into a broadcasting
// operator or function. Each entry carries the name used in error messages.
// Semantics follow NumPy where it is explicit, Octave for mod/rem (see api.md).
#pragma once

#include <cmath>
#include <cstdlib>
#include <functional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "../detail/vector_math.hpp"

namespace bsx::ops {

namespace detail {
template <class A, class B>
inline constexpr bool both_bool = std::is_same_v<A, bool> && std::is_same_v<B, bool>;
template <class A, class B>
inline constexpr bool integral_pair = std::is_integral_v<A> && std::is_integral_v<B>;
}  // namespace detail

// ---- arithmetic -----------------------------------------------------------------
struct plus {
    static constexpr std::string_view name = "operator+";
    template <class A, class B>
    constexpr auto operator()(A a, B b) const { return a + b; }
};
struct minus {
    static constexpr std::string_view name = "operator-";
    template <class A, class B>
    constexpr auto operator()(A a, B b) const { return a - b; }
};
struct multiplies {
    static constexpr std::string_view name = "operator*";
    template <class A, class B>
    constexpr auto operator()(A a, B b) const { return a * b; }
};
struct divides {
    static constexpr std::string_view name = "operator/";
    template <class A, class B>
    constexpr auto operator()(A a, B b) const { return a / b; }
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
    constexpr auto operator()(A a, B b) const { return b / a; }
};
struct modulus {
    static constexpr std::string_view name = "operator%";
    template <class A, class B>
    constexpr auto operator()(A a, B b) const {
        static_assert(detail::integral_pair<A, B>,
                      "bsx: operator% needs integral operands; use bsx::mod or bsx::rem for floating point");
        return a % b;
    }
};
/// Floored remainder with the sign of the divisor; mod(x, 0) == x (Octave).
struct mod {
    static constexpr std::string_view name = "mod";
    template <class A, class B>
    constexpr auto operator()(A a, B b) const {
        using R = std::common_type_t<A, B>;
        const R x = a, y = b;
        if constexpr (std::is_integral_v<R>) {
            if (y == 0) return x;
            const R r = static_cast<R>(x % y);
            return (r != 0 && ((r < 0) != (y < 0))) ? static_cast<R>(r + y) : r;
        } else {
            return y == 0 ? x : x - std::floor(x / y) * y;
        }
    }
};
/// Truncated remainder with the sign of the dividend (C fmod); rem(x, 0) is NaN for
/// floating types and 0 for integers (as NumPy's fmod, avoiding C's undefined x % 0).
struct rem {
    static constexpr std::string_view name = "rem";
    template <class A, class B>
    constexpr auto operator()(A a, B b) const {
        using R = std::common_type_t<A, B>;
        const R x = a, y = b;
        if constexpr (std::is_integral_v<R>)
            return y == 0 ? R(0) : static_cast<R>(x % y);
        else
            return std::fmod(x, y);
    }
};

// ---- minimum and maximum (written as selects so the loops vectorize without -ffast-math)
/// NaN-propagating, like NumPy's minimum.
struct minimum {
    static constexpr std::string_view name = "min";
    template <class A, class B>
    constexpr auto operator()(A a, B b) const {
        using R = std::common_type_t<A, B>;
        const R x = a, y = b;
        const R m = x < y ? x : y;  // y when either is NaN: one vector min instruction
        return x != x ? x : m;
    }
};
/// NaN-propagating, like NumPy's maximum.
struct maximum {
    static constexpr std::string_view name = "max";
    template <class A, class B>
    constexpr auto operator()(A a, B b) const {
        using R = std::common_type_t<A, B>;
        const R x = a, y = b;
        const R m = x > y ? x : y;
        return x != x ? x : m;
    }
};
/// NaN-ignoring, like C fmin and Octave's min: NaN only if both are NaN.
struct fmin {
    static constexpr std::string_view name = "fmin";
    template <class A, class B>
    constexpr auto operator()(A a, B b) const {
        using R = std::common_type_t<A, B>;
        const R x = a, y = b;
        return (x < y || y != y) ? x : y;
    }
};
/// NaN-ignoring, like C fmax and Octave's max.
struct fmax {
    static constexpr std::string_view name = "fmax";
    template <class A, class B>
    constexpr auto operator()(A a, B b) const {
        using R = std::common_type_t<A, B>;
        const R x = a, y = b;
        return (x > y || y != y) ? x : y;
    }
};

// ---- comparisons and logic (bool results) ---------------------------------------
#define BSX_COMPARISON(NAME, SYMBOL)                                       \
    struct NAME {                                                          \
        static constexpr std::string_view name = "operator" #SYMBOL;       \
        template <class A, class B>                                        \
        constexpr bool operator()(A a, B b) const { return a SYMBOL b; }   \
    };
BSX_COMPARISON(equal_to, ==)
BSX_COMPARISON(not_equal_to, !=)
BSX_COMPARISON(less, <)
BSX_COMPARISON(less_equal, <=)
BSX_COMPARISON(greater, >)
BSX_COMPARISON(greater_equal, >=)
#undef BSX_COMPARISON

struct logical_and {
    static constexpr std::string_view name = "logical_and";
    template <class A, class B>
    constexpr bool operator()(A a, B b) const { return static_cast<bool>(a) && static_cast<bool>(b); }
};
struct logical_or {
    static constexpr std::string_view name = "logical_or";
    template <class A, class B>
    constexpr bool operator()(A a, B b) const { return static_cast<bool>(a) || static_cast<bool>(b); }
};
struct logical_xor {
    static constexpr std::string_view name = "logical_xor";
    template <class A, class B>
    constexpr bool operator()(A a, B b) const { return static_cast<bool>(a) != static_cast<bool>(b); }
};
struct logical_not {
    static constexpr std::string_view name = "logical_not";
    template <class A>
    constexpr bool operator()(A a) const { return !static_cast<bool>(a); }
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

// ---- bitwise (integral and bool; bool with bool stays bool, as in NumPy) ----------
#define BSX_BITWISE(NAME, SYMBOL)                                                          \
    struct NAME {                                                                          \
        static constexpr std::string_view name = "operator" #SYMBOL;                       \
        template <class A, class B>                                                        \
        constexpr auto operator()(A a, B b) const {                                        \
            static_assert(detail::integral_pair<A, B>,                                     \
                          "bsx: operator" #SYMBOL " needs integral or bool operands");     \
            if constexpr (detail::both_bool<A, B>)                                         \
                return static_cast<bool>(a SYMBOL b);                                      \
            else                                                                           \
                return a SYMBOL b;                                                         \
        }                                                                                  \
    };
BSX_BITWISE(bit_and, &)
BSX_BITWISE(bit_or, |)
BSX_BITWISE(bit_xor, ^)
#undef BSX_BITWISE

// ---- unary ------------------------------------------------------------------------
struct unary_plus {
    static constexpr std::string_view name = "operator+";
    template <class A>
    constexpr auto operator()(A a) const { return +a; }
};
struct negate {
    static constexpr std::string_view name = "operator-";
    template <class A>
    constexpr auto operator()(A a) const { return -a; }
};
struct bit_not {
    static constexpr std::string_view name = "operator~";
    template <class A>
    constexpr auto operator()(A a) const {
        static_assert(std::is_integral_v<A>, "bsx: operator~ needs integral or bool operands");
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
            return a < 0 ? static_cast<A>(-a) : a;
        else
            return std::abs(a);
    }
};
/// -1, 0 or +1 (NaN stays NaN, as NumPy).
struct sign {
    static constexpr std::string_view name = "sign";
    template <class A>
    constexpr A operator()(A a) const {
        if constexpr (std::is_unsigned_v<A>)
            return static_cast<A>(a > 0);
        else
            return a > 0 ? A(1) : (a < 0 ? A(-1) : a);
    }
};
struct square {
    static constexpr std::string_view name = "square";
    template <class A>
    constexpr auto operator()(A a) const { return a * a; }
};

/// The math functions: their <cmath> namesakes (std::exp(int) is a double, as here), computed
/// a block at a time by vector math when the result is float or double (`kernels`, read by
/// the evaluator). One element alone goes through the same kernels, so an element's value
/// never depends on how it is reached.
template <class Kernels>
struct vector_math_function {
    using kernels = Kernels;
    template <class... A>
    auto operator()(A... a) const noexcept { return bsx::detail::vmath::apply_one<Kernels>(a...); }
};
#define BSX_VECTOR_MATH(NAME)                                                     \
    struct NAME : vector_math_function<bsx::detail::vmath::NAME> {                \
        static constexpr std::string_view name = #NAME;                           \
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
#define BSX_CMATH_UNARY(NAME)                                           \
    struct NAME {                                                       \
        static constexpr std::string_view name = #NAME;                 \
        template <class A>                                              \
        auto operator()(A a) const { return std::NAME(a); }             \
    };
BSX_CMATH_UNARY(floor)
BSX_CMATH_UNARY(ceil)
BSX_CMATH_UNARY(round)
BSX_CMATH_UNARY(trunc)
BSX_CMATH_UNARY(isnan)
BSX_CMATH_UNARY(isinf)
BSX_CMATH_UNARY(isfinite)
#undef BSX_CMATH_UNARY

// ---- selection, conversion, user functions ---------------------------------------
struct select {
    static constexpr std::string_view name = "where";
    template <class C, class A, class B>
    constexpr auto operator()(C c, A a, B b) const {
        using R = std::common_type_t<A, B>;
        return static_cast<bool>(c) ? static_cast<R>(a) : static_cast<R>(b);
    }
};

template <class U>
struct cast_to {
    static constexpr std::string_view name = "cast";
    template <class A>
    constexpr U operator()(A a) const { return static_cast<U>(a); }
};

/// A user callable applied element-wise (bsx::map, bsx::bsxfun).
template <class F>
struct user_function {
    F f;
    std::string_view name;
    template <class... A>
    constexpr decltype(auto) operator()(A... a) const { return std::invoke(f, a...); }
};

}  // namespace bsx::ops
