// test/test_vector_math.cpp: the math functions (exp, sin, pow, sqrt, ...) as bsx
// evaluates them, in float and double. Accuracy: the largest error in ulps over at least
// 10^6 inputs per function and type (random ones over the useful range, random bit
// patterns, and the special values: +-0, +-inf, NaN, subnormals, the overflow and underflow
// thresholds, large arguments of sin/cos/tan), against libm one precision up (long double
// for double, double for float), within the bound bsx states (design.md). Consistency:
// an element's bits do not depend on where it falls (block body or tail, slice offset,
// thread count, element access), and they are those of NumPy-style promotion.
#define BOOST_TEST_MODULE bsx vector math
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using bsx::index_t;
namespace vmath = bsx::detail::vmath;

// 10^6 random inputs per function and type in optimized builds; the sanitizer build
// (-O0) checks the same special values with fewer random ones.
#if defined(__OPTIMIZE__) && !defined(BSX_TEST_SANITIZED)
constexpr std::size_t random_inputs = 1'000'000;
#else
constexpr std::size_t random_inputs = 50'000;
#endif

/// The reference type: one precision up.
template <class T>
using wide_t = std::conditional_t<std::is_same_v<T, float>, double, long double>;

/// Error of `got` in units in the last place of T at the exact value `ref`. Matching
/// infinities and NaNs are exact; a NaN or infinity where the other is not, infinite.
template <class T>
long double ulp_error(T got, wide_t<T> ref) {
    using L = std::numeric_limits<T>;
    if (std::isnan(ref) || std::isnan(got)) return std::isnan(ref) && std::isnan(got) ? 0 : INFINITY;
    const T rounded = static_cast<T>(ref);  // the correctly rounded result (inf beyond max)
    if (got == rounded) return 0;
    if (std::isinf(got) || std::isinf(rounded)) return INFINITY;
    const wide_t<T> mag = std::fabs(ref);
    const wide_t<T> ulp =
        mag < L::min() ? wide_t<T>(L::denorm_min()) : std::ldexp(wide_t<T>(1), std::ilogb(mag) - (L::digits - 1));
    return std::fabs(wide_t<T>(got) - ref) / ulp;
}

/// x and its neighbours up to 3 representable steps either side.
template <class T>
void add_around(std::vector<T>& v, T x) {
    T lo = x, hi = x;
    v.push_back(x);
    for (int k = 0; k < 3; ++k) {
        lo = std::nextafter(lo, -std::numeric_limits<T>::infinity());
        hi = std::nextafter(hi, std::numeric_limits<T>::infinity());
        v.push_back(lo);
        v.push_back(hi);
    }
}

/// Special values every function sees: signed zeros, infinities, NaN, subnormals, the
/// extremes, small integers.
template <class T>
std::vector<T> common_specials() {
    using L = std::numeric_limits<T>;
    std::vector<T> v{T(0),  T(-0.0), L::infinity(), -L::infinity(), L::quiet_NaN(), T(1),
                     T(-1), T(0.5),  T(2),          T(-2),          T(3),           T(10)};
    for (T s : {T(1), T(-1)}) {
        add_around(v, s * L::denorm_min());
        add_around(v, s * (L::min() - L::denorm_min()));  // largest subnormal
        add_around(v, s * L::min());
        add_around(v, s * L::max());
    }
    return v;
}

/// A function's test inputs: `specials` first, then random values in [lo, hi], then random
/// bit patterns (every exponent, subnormals, infinities and NaNs included).
template <class T>
std::vector<T> inputs(double lo, double hi, std::vector<T> specials, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> in_range(lo, hi);
    std::vector<T> v = std::move(specials);
    const std::size_t ranged = random_inputs * 3 / 4;
    for (std::size_t i = 0; i < ranged; ++i) v.push_back(static_cast<T>(in_range(rng)));
    using bits_t = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
    for (std::size_t i = ranged; i < random_inputs; ++i) {
        const auto bits = static_cast<bits_t>(rng());
        T x;
        std::memcpy(&x, &bits, sizeof x);
        v.push_back(x);
    }
    return v;
}

template <class T>
bsx::array<T, 1> to_array(const std::vector<T>& v) {
    bsx::array<T, 1> a(bsx::shape_t<1>{index_t(v.size())});
    std::copy(v.begin(), v.end(), a.data());
    return a;
}

using test_support::same_bits;

/// The worst error of one function over its inputs, with where it occurred.
struct worst {
    long double ulps = 0;
    std::string where;
};

template <class T, class Got, class Ref>
void note_errors(worst& w, std::size_t n, Got&& got, Ref&& ref, auto&& describe) {
    for (std::size_t i = 0; i < n; ++i) {
        const long double e = ulp_error<T>(got(i), ref(i));
        if (e > w.ulps) {
            w.ulps = e;
            w.where = describe(i);
        }
    }
}

/// Checks `f` (a bsx function of one argument) against `ref` over inputs in [lo, hi]
/// plus `extra` special values, and reports the worst error against `bound`.
template <class T, class F, class Ref>
void check_unary(const char* name, F f, Ref ref, double bound, double lo, double hi, std::vector<T> extra) {
    auto specials = common_specials<T>();
    specials.insert(specials.end(), extra.begin(), extra.end());
    const auto x = to_array(inputs<T>(lo, hi, specials, std::hash<std::string>{}(name)));
    const bsx::array<T, 1> y = f(x);
    worst w;
    note_errors<T>(
        w, std::size_t(x.size()), [&](std::size_t i) { return y(index_t(i)); },
        [&](std::size_t i) { return ref(wide_t<T>(x(index_t(i)))); },
        [&](std::size_t i) { return "x = " + std::to_string(x(index_t(i))); });
    BOOST_TEST_MESSAGE(name << (sizeof(T) == 8 ? " double" : " float") << ": max " << double(w.ulps) << " ulp over "
                            << x.size() << " inputs (at " << w.where << "), bound " << bound);
    BOOST_TEST(double(w.ulps) <= bound, name << ": " << double(w.ulps) << " ulp at " << w.where);
    // One element alone (expr(i)) is the same kernel: the same bits.
    const auto e = f(x);
    for (index_t i = 0; i < x.size(); i += 997) BOOST_TEST(same_bits(e(i), y(i)), name << " element " << i);
}

/// The same for a function of two arguments: random pairs, and every pair of specials.
template <class T, class F, class Ref>
void check_binary(const char* name, F f, Ref ref, double bound, double xlo, double xhi, double ylo, double yhi,
                  std::vector<T> extra) {
    auto specials = common_specials<T>();
    specials.insert(specials.end(), extra.begin(), extra.end());
    std::vector<T> xs, ys;
    for (T a : specials)
        for (T b : specials) {
            xs.push_back(a);
            ys.push_back(b);
        }
    const auto seed = std::hash<std::string>{}(name);
    const auto rx = inputs<T>(xlo, xhi, {}, seed), ry = inputs<T>(ylo, yhi, {}, seed + 1);
    xs.insert(xs.end(), rx.begin(), rx.end());
    ys.insert(ys.end(), ry.begin(), ry.end());
    const auto x = to_array(xs), yv = to_array(ys);
    const bsx::array<T, 1> r = f(x, yv);
    worst w;
    note_errors<T>(
        w, xs.size(), [&](std::size_t i) { return r(index_t(i)); },
        [&](std::size_t i) { return ref(wide_t<T>(xs[i]), wide_t<T>(ys[i])); },
        [&](std::size_t i) { return "(" + std::to_string(xs[i]) + ", " + std::to_string(ys[i]) + ")"; });
    BOOST_TEST_MESSAGE(name << (sizeof(T) == 8 ? " double" : " float") << ": max " << double(w.ulps) << " ulp over "
                            << xs.size() << " inputs (at " << w.where << "), bound " << bound);
    BOOST_TEST(double(w.ulps) <= bound, name << ": " << double(w.ulps) << " ulp at " << w.where);
    const auto e = f(x, yv);
    for (index_t i = 0; i < x.size(); i += 997) BOOST_TEST(same_bits(e(i), r(i)), name << " element " << i);
}

// Thresholds where results overflow or become subnormal or zero.
template <class T>
std::vector<T> exp_thresholds(T base_log) {  // base_log: log of the base (1 for e, log 2 for 2)
    using L = std::numeric_limits<T>;
    std::vector<T> v;
    for (wide_t<T> limit : {std::log(wide_t<T>(L::max())), std::log(wide_t<T>(L::min())),
                            std::log(wide_t<T>(L::denorm_min())), std::log(wide_t<T>(L::denorm_min()) / 2)})
        add_around(v, static_cast<T>(limit / base_log));
    return v;
}

template <class T>
std::vector<T> trig_large() {  // large arguments, where argument reduction is hard
    std::vector<T> v;
    for (double x : {1e5, 1e6, 1e9, 1e15, 1e22, 1e30, 1e100, 1e200, 1e300, 6381956970095103.0 * 0x1p797})
        if (x < double(std::numeric_limits<T>::max())) {
            add_around(v, static_cast<T>(x));
            add_around(v, static_cast<T>(-x));
        }
    for (int k = 1; k < 200; ++k) v.push_back(static_cast<T>(k * 3.14159265358979323846 / 2));
    return v;
}

template <class T>
void check_all() {
    using L = std::numeric_limits<T>;
    constexpr bool dbl = std::is_same_v<T, double>;
    const double big = dbl ? 710 : 89;  // a bit beyond where exp overflows
    const double huge = dbl ? 1e300 : 1e38;
    const auto sinh_limit = static_cast<T>(std::log(wide_t<T>(L::max())) + std::log(wide_t<T>(2)));
    std::vector<T> hyper = exp_thresholds<T>(T(1));
    add_around(hyper, sinh_limit);
    add_around(hyper, static_cast<T>(-sinh_limit));

    // clang-format off
    check_unary<T>("sqrt", bsx::sqrt, [](auto v) { return std::sqrt(v); }, vmath::sqrt::max_ulp, 0, huge, {});
    check_unary<T>("cbrt", bsx::cbrt, [](auto v) { return std::cbrt(v); }, vmath::cbrt::max_ulp, -huge, huge, {});
    check_unary<T>("exp", bsx::exp, [](auto v) { return std::exp(v); }, vmath::exp::max_ulp, -big - 40, big, exp_thresholds<T>(T(1)));
    check_unary<T>("exp2", bsx::exp2, [](auto v) { return std::exp2(v); }, vmath::exp2::max_ulp, -(big + 40) * 1.45, big * 1.45, exp_thresholds<T>(T(0.693147180559945309417)));
    check_unary<T>("expm1", bsx::expm1, [](auto v) { return std::expm1(v); }, vmath::expm1::max_ulp, -40, big, exp_thresholds<T>(T(1)));
    check_unary<T>("log", bsx::log, [](auto v) { return std::log(v); }, vmath::log::max_ulp, 0, 1e6, {});
    check_unary<T>("log2", bsx::log2, [](auto v) { return std::log2(v); }, vmath::log2::max_ulp, 0, 1e6, {});
    check_unary<T>("log10", bsx::log10, [](auto v) { return std::log10(v); }, vmath::log10::max_ulp, 0, 1e6, {});
    check_unary<T>("log1p", bsx::log1p, [](auto v) { return std::log1p(v); }, vmath::log1p::max_ulp, -1, 1e6, {T(-1), std::nextafter(T(-1), T(0)), T(1e-20)});
    check_unary<T>("sin", bsx::sin, [](auto v) { return std::sin(v); }, vmath::sin::max_ulp, -1e4, 1e4, trig_large<T>());
    check_unary<T>("cos", bsx::cos, [](auto v) { return std::cos(v); }, vmath::cos::max_ulp, -1e4, 1e4, trig_large<T>());
    check_unary<T>("tan", bsx::tan, [](auto v) { return std::tan(v); }, vmath::tan::max_ulp, -1e4, 1e4, trig_large<T>());
    check_unary<T>("asin", bsx::asin, [](auto v) { return std::asin(v); }, vmath::asin::max_ulp, -1, 1, {});
    check_unary<T>("acos", bsx::acos, [](auto v) { return std::acos(v); }, vmath::acos::max_ulp, -1, 1, {});
    check_unary<T>("atan", bsx::atan, [](auto v) { return std::atan(v); }, vmath::atan::max_ulp, -1e4, 1e4, {});
    check_unary<T>("sinh", bsx::sinh, [](auto v) { return std::sinh(v); }, vmath::sinh::max_ulp, -big, big, hyper);
    check_unary<T>("cosh", bsx::cosh, [](auto v) { return std::cosh(v); }, vmath::cosh::max_ulp, -big, big, hyper);
    check_unary<T>("tanh", bsx::tanh, [](auto v) { return std::tanh(v); }, vmath::tanh::max_ulp, -20, 20, {});
    check_binary<T>("pow", bsx::pow, [](auto a, auto b) { return std::pow(a, b); }, vmath::pow::max_ulp, 0, 100, -big / 4, big / 4,
                    {T(0.1), T(-0.5), T(1.5), T(1023), T(1024), T(-1074), T(-1075), T(127), T(128), T(-149), T(-150)});
    check_binary<T>("atan2", bsx::atan2, [](auto a, auto b) { return std::atan2(a, b); }, vmath::atan2::max_ulp, -1e3, 1e3, -1e3, 1e3, {});
    check_binary<T>("hypot", bsx::hypot, [](auto a, auto b) { return std::hypot(a, b); }, vmath::hypot::max_ulp, -huge, huge, -huge, huge, {});
    // clang-format on
}

}  // namespace

BOOST_AUTO_TEST_CASE(accuracy_double) {
    BOOST_TEST_MESSAGE("math functions from " << (vmath::uses_sleef ? (vmath::uses_mvec ? "SLEEF and libmvec" : "SLEEF")
                                                                    : (vmath::uses_mvec ? "libmvec" : "libm")));
    check_all<double>();
}
BOOST_AUTO_TEST_CASE(accuracy_float) { check_all<float>(); }

#if defined(BSX_HAVE_MVEC) && !defined(BSX_HAVE_SLEEF)
// Without SLEEF, every function but sqrt comes from libmvec where the header can call it
// (it leaves BSX_HAVE_MVEC defined only then): each states at least libmvec's bound (libm's
// where larger, as libmvec hands some lanes to libm), which the accuracy cases above hold
// it to, where from libm alone most would state less (exp: 1 ulp).
BOOST_AUTO_TEST_CASE(without_sleef_libmvec_computes_every_function) {
    const double bounds[] = {vmath::cbrt::max_ulp, vmath::exp::max_ulp,  vmath::exp2::max_ulp,  vmath::expm1::max_ulp,
                             vmath::log::max_ulp,  vmath::log2::max_ulp, vmath::log10::max_ulp, vmath::log1p::max_ulp,
                             vmath::sin::max_ulp,  vmath::cos::max_ulp,  vmath::tan::max_ulp,   vmath::asin::max_ulp,
                             vmath::acos::max_ulp, vmath::atan::max_ulp, vmath::sinh::max_ulp,  vmath::cosh::max_ulp,
                             vmath::tanh::max_ulp, vmath::pow::max_ulp,  vmath::atan2::max_ulp, vmath::hypot::max_ulp};
    BOOST_TEST(vmath::uses_mvec);
    for (const double b : bounds) BOOST_TEST(b >= vmath::mvec_max_ulp);
}
#endif

#if BSX_VECTOR_MATH_X86
namespace {

/// The ends of the own kernels' 16 intervals of z (own_vector_math.hpp), times each scale,
/// with their neighbours.
std::vector<double> interval_ends(std::initializer_list<double> scales) {
    std::vector<double> v;
    for (std::uint64_t i = 0; i <= 16; ++i) {
        const std::uint64_t bits = vmath::own_tables::offset + (i << 48);
        double z;
        std::memcpy(&z, &bits, sizeof z);
        for (double scale : scales) add_around(v, z * scale);
    }
    return v;
}

/// pow of negative bases with integer exponents, whose lanes the own kernels hand to libm:
/// within the bound bsx states for pow.
template <class T>
void check_negative_bases() {
    const bsx::array<T, 1> x{T(-1.7), T(-0.3), T(-3), T(-2.5), T(-1.01), T(-7.25)};
    const bsx::array<T, 1> y{T(25), T(7), T(41), T(-3), T(-301), T(12)};
    const bsx::array<T, 1> r = bsx::pow(x, y);
    for (index_t i = 0; i < x.size(); ++i)
        BOOST_TEST(double(ulp_error<T>(r(i), std::pow(wide_t<T>(x(i)), wide_t<T>(y(i))))) <= vmath::pow::max_ulp,
                   "pow(" << x(i) << ", " << y(i) << ")");
}

}  // namespace

// bsx's own float and double pow and double log (own_vector_math.hpp), on CPUs with AVX-512: their
// tighter bounds, over the inputs of check_all plus arguments near 1 (for pow with large
// exponents, where log2's error is multiplied most), at the ends of the table's intervals,
// and results at the edges of the float range.
BOOST_AUTO_TEST_CASE(own_float_pow) {
    if (vmath::host_isa() != vmath::isa::avx512) {
        BOOST_TEST_MESSAGE("no AVX-512: float pow comes from the library, checked by accuracy_float");
        return;
    }
    std::vector<float> extra;
    for (float x : {1.0f, 0x1.000002p0f, 0x1.fffffep-1f, 1.0390625f, 0.98828125f, 1.1015625f, 0x1p-126f, 0x1p127f})
        add_around(extra, x);
    check_binary<float>(
        "pow (bsx's own)", bsx::pow, [](auto a, auto b) { return std::pow(a, b); }, vmath::own_pow_float_max_ulp, 0.999,
        1.001, -1e5, 1e5, extra);
    check_binary<float>(
        "pow (bsx's own)", bsx::pow, [](auto a, auto b) { return std::pow(a, b); }, vmath::own_pow_float_max_ulp, 0,
        100, -22, 22, extra);
    // Exact cases: 1 to any power, any power 0, powers of two, x^1.
    const bsx::array<float, 1> y{1e30f, -1e30f, 2.0f, 0.0f, -0.0f, 12.0f, -12.0f, 1.0f};
    const bsx::array<float, 1> one = bsx::pow(bsx::full<float>(bsx::shape_t<1>{8}, 1.0f), y);
    for (index_t i = 0; i < 8; ++i) BOOST_TEST(one(i) == 1.0f, "pow(1, " << y(i) << ")");
    const bsx::array<float, 1> x{0.3f, 7.0f, 1e-30f, 3e38f, 1.5f, 2.0f, 0.5f, 0x1p-120f};
    const bsx::array<float, 1> p0 = bsx::pow(x, 0.0f), p1 = bsx::pow(x, 1.0f), p2 = bsx::pow(2.0f, y);
    for (index_t i = 0; i < 8; ++i) {
        BOOST_TEST(p0(i) == 1.0f, "pow(" << x(i) << ", 0)");
        BOOST_TEST(p1(i) == x(i), "pow(" << x(i) << ", 1)");
        BOOST_TEST(p2(i) == std::pow(2.0f, y(i)), "pow(2, " << y(i) << ")");
    }
    check_negative_bases<float>();
}

BOOST_AUTO_TEST_CASE(own_double_pow) {
    if (vmath::host_isa() != vmath::isa::avx512) {
        BOOST_TEST_MESSAGE("no AVX-512: double pow comes from the library, checked by accuracy_double");
        return;
    }
    std::vector<double> extra = interval_ends({1.0, 0x1p-10, 0x1p10});
    for (double e : {708.0, -708.0, 709.7, -745.0, 32.0, -32.0}) add_around(extra, e);
    const auto pow_ref = [](auto a, auto b) { return std::pow(a, b); };
    const double bound = vmath::own_pow_double_max_ulp;
    // Ordinary bases and exponents up to the ends of the range; bases near 1 with exponents
    // around the 32 where the kernel hands them to libm.
    check_binary<double>("pow (bsx's own)", bsx::pow, pow_ref, bound, 0.5, 2, -1000, 1000, extra);
    check_binary<double>("pow (bsx's own, wide bases)", bsx::pow, pow_ref, bound, 0, 1e6, -60, 60, extra);
    check_binary<double>("pow (bsx's own, near 1)", bsx::pow, pow_ref, bound, 0.93, 1.1, -500, 500, extra);
    check_binary<double>("pow (bsx's own, very near 1)", bsx::pow, pow_ref, bound, 0.9999, 1.0001, -4e5, 4e5, extra);
    check_negative_bases<double>();
    // Exact cases, all computed by the kernel (|y ln x| <= 708): powers of two, x^1, x^0, 1^y.
    const bsx::array<double, 1> k{-1019.0, -1000.0, -3.0, 0.0, 1.0, 10.0, 52.0, 1019.0};
    const bsx::array<double, 1> two_k = bsx::pow(2.0, k);
    for (index_t i = 0; i < k.size(); ++i) BOOST_TEST(two_k(i) == std::ldexp(1.0, int(k(i))), "pow(2, " << k(i) << ")");
    const bsx::array<double, 1> x{0.3, 7.0, 1e-300, 1e300, 1.5, 0.999, 1.001, 0x1p-1020};
    const bsx::array<double, 1> p0 = bsx::pow(x, 0.0), p1 = bsx::pow(x, 1.0), one = bsx::pow(1.0, x * 1e6);
    for (index_t i = 0; i < x.size(); ++i) {
        BOOST_TEST(p0(i) == 1.0, "pow(" << x(i) << ", 0)");
        BOOST_TEST(p1(i) == x(i), "pow(" << x(i) << ", 1)");
        BOOST_TEST(one(i) == 1.0, "pow(1, " << x(i) * 1e6 << ")");
    }
}

BOOST_AUTO_TEST_CASE(own_double_log) {
    if (vmath::host_isa() != vmath::isa::avx512) {
        BOOST_TEST_MESSAGE("no AVX-512: double log comes from the library, checked by accuracy_double");
        return;
    }
    const std::vector<double> extra = interval_ends({1.0, 0x1p-1000, 0x1p1000});
    const auto log_ref = [](auto v) { return std::log(v); };
    check_unary<double>("log (bsx's own, near 1)", bsx::log, log_ref, vmath::own_log_double_max_ulp, 0.9, 1.1, extra);
    check_unary<double>("log (bsx's own)", bsx::log, log_ref, vmath::own_log_double_max_ulp, 0, 1e300, extra);
    const bsx::array<double, 1> one{1.0};
    BOOST_TEST(same_bits(bsx::eval(bsx::log(one))(0), 0.0));
}
#endif

namespace {

/// Every math function of x (and of x with y), as one flat list of values.
template <class X>
std::vector<double> all_functions(const X& x) {
    std::vector<double> out;
    const auto add = [&](const auto& e) {
        const auto r = bsx::eval(e);
        out.insert(out.end(), r.begin(), r.end());
    };
    const auto y = bsx::eval(x * 0.75 + 0.5);
    add(bsx::sqrt(x)), add(bsx::cbrt(x)), add(bsx::exp(x)), add(bsx::exp2(x)), add(bsx::expm1(x));
    add(bsx::log(x)), add(bsx::log2(x)), add(bsx::log10(x)), add(bsx::log1p(x));
    add(bsx::sin(x)), add(bsx::cos(x)), add(bsx::tan(x)), add(bsx::asin(x)), add(bsx::acos(x)), add(bsx::atan(x));
    add(bsx::sinh(x)), add(bsx::cosh(x)), add(bsx::tanh(x));
    add(bsx::pow(x, y)), add(bsx::atan2(x, y)), add(bsx::hypot(x, y));
    return out;
}

/// Values whose neighbours take different paths in vector math libraries: small and
/// large arguments, NaN and infinities, side by side.
template <class T>
std::vector<T> mixed_values(std::size_t n) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-3, 3);
    const T specials[] = {
        T(1e30), T(-20), std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity(), T(100),
        T(0),    T(-1e5)};
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = i % 5 == 3 ? specials[(i / 5) % std::size(specials)] : static_cast<T>(u(rng));
    return v;
}

template <class T>
void check_offsets() {
    // Each slice x[k:] moves every element to another position within the vector blocks
    // and chunks; its results must be those of the whole array, bit for bit.
    const auto x = to_array(mixed_values<T>(301));
    const auto whole = all_functions(x);
    const std::size_t n = std::size_t(x.size());
    for (index_t k = 1; k <= 17; ++k) {
        const auto part = all_functions(bsx::slice(x, bsx::range(k, x.size())));
        const std::size_t m = n - std::size_t(k);
        for (std::size_t f = 0; f < whole.size() / n; ++f)
            for (std::size_t i = 0; i < m; ++i)
                BOOST_TEST(
                    same_bits(static_cast<T>(part[f * m + i]), static_cast<T>(whole[f * n + i + std::size_t(k)])),
                    "function " << f << ", offset " << k << ", element " << i);
    }
    // A strided view (gathered) and single elements give the same bits too.
    const auto strided = all_functions(bsx::slice(x, bsx::range(1, x.size(), 3)));
    const std::size_t m = (n - 1 + 2) / 3;
    for (std::size_t f = 0; f < whole.size() / n; ++f)
        for (std::size_t i = 0; i < m; ++i)
            BOOST_TEST(same_bits(static_cast<T>(strided[f * m + i]), static_cast<T>(whole[f * n + 1 + 3 * i])));
    for (index_t i = 0; i < x.size(); ++i)
        BOOST_TEST(same_bits(bsx::sin(x)(i), static_cast<T>(whole[9 * n + std::size_t(i)])));
}

template <class T>
void check_threads() {
    // Large enough to run in parallel: the thread split moves chunk boundaries.
    const auto x = to_array(mixed_values<T>(3 * BSX_PARALLEL_THRESHOLD + 123));
    std::vector<std::vector<double>> runs;
    test_support::for_thread_counts([&] { runs.push_back(all_functions(x)); });
    for (std::size_t r = 1; r < runs.size(); ++r) {
        BOOST_TEST_REQUIRE(runs[r].size() == runs[0].size());
        std::size_t differing = 0;
        for (std::size_t i = 0; i < runs[0].size(); ++i)
            differing += !same_bits(static_cast<T>(runs[r][i]), static_cast<T>(runs[0][i]));
        BOOST_TEST(differing == 0u, "run " << r);
    }
    // A reduction of a math node: the same bits at every thread count.
    std::vector<T> sums;
    test_support::for_thread_counts([&] { sums.push_back(bsx::sum(bsx::exp(bsx::sin(x) * T(0.5)))); });
    for (const T s : sums) BOOST_TEST(same_bits(s, sums[0]));
}

template <class T>
void check_in_place() {
    // The kernel reads arguments that lie in memory where they are; where they are the
    // destination itself (x = exp(x)) or overlap it, the results are still those of a
    // copy, also for the elements whose early overflow SLEEF's kernels leave to a pass
    // after the kernel (exp just below log(max), whose result is finite), and next to
    // results that overflow indeed (of max).
    std::vector<T> v = mixed_values<T>(301);
    const T near_overflow = std::nextafter(std::log(std::numeric_limits<T>::max()), T(0));
    for (std::size_t i = 7; i < v.size(); i += 41) v[i] = near_overflow;
    for (std::size_t i = 11; i < v.size(); i += 41) v[i] = std::numeric_limits<T>::max();
    const auto original = to_array(v);
    const bsx::array<T, 1> want_exp = bsx::exp(original), want_pow = bsx::pow(original, original);
    const bsx::array<T, 1> want_hypot = bsx::hypot(original, original);
    BOOST_TEST_REQUIRE(std::isfinite(want_exp(7)));  // the recomputed element itself

    auto x = to_array(v);
    x = bsx::exp(x);
    for (index_t i = 0; i < x.size(); ++i) BOOST_TEST(same_bits(x(i), want_exp(i)), "exp, element " << i);
    x = to_array(v);
    x = bsx::pow(x, x);
    for (index_t i = 0; i < x.size(); ++i) BOOST_TEST(same_bits(x(i), want_pow(i)), "pow, element " << i);
    x = to_array(v);
    x = bsx::hypot(x, x);
    for (index_t i = 0; i < x.size(); ++i) BOOST_TEST(same_bits(x(i), want_hypot(i)), "hypot, element " << i);
    // Shifted by one: the operand is copied first (value semantics).
    x = to_array(v);
    const index_t n = x.size();
    bsx::slice(x, bsx::range(1, n)) = bsx::exp(bsx::slice(x, bsx::range(0, n - 1)));
    for (index_t i = 1; i < n; ++i) BOOST_TEST(same_bits(x(i), want_exp(i - 1)), "shifted exp, element " << i);
}

}  // namespace

BOOST_AUTO_TEST_CASE(in_place_results_are_those_of_a_copy_double) { check_in_place<double>(); }
BOOST_AUTO_TEST_CASE(in_place_results_are_those_of_a_copy_float) { check_in_place<float>(); }
BOOST_AUTO_TEST_CASE(same_bits_at_every_offset_double) { check_offsets<double>(); }
BOOST_AUTO_TEST_CASE(same_bits_at_every_offset_float) { check_offsets<float>(); }
BOOST_AUTO_TEST_CASE(same_bits_at_every_thread_count_double) { check_threads<double>(); }
BOOST_AUTO_TEST_CASE(same_bits_at_every_thread_count_float) { check_threads<float>(); }

BOOST_AUTO_TEST_CASE(promotion_follows_cmath) {
    // std::exp(int) is a double; std::pow(float, int) a double; float with float stays float.
    const bsx::array<int, 1> i{1, 2, 3};
    const bsx::array<float, 1> f{1.5f, 2.5f, 4.0f};
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::exp(i))>, double>);
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::pow(f, 2))>, double>);
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::pow(f, f))>, float>);
    const bsx::array<double, 1> e = bsx::exp(i);
    for (index_t k = 0; k < 3; ++k)
        BOOST_TEST(ulp_error<double>(e(k), std::exp((long double)i(k))) <= vmath::exp::max_ulp);
    const bsx::array<double, 1> p = bsx::pow(f, 2);
    for (index_t k = 0; k < 3; ++k) BOOST_TEST(p(k) == double(f(k)) * double(f(k)));
    // long double stays on libm.
    const bsx::array<long double, 1> l{0.5L, 1.0L};
    const bsx::array<long double, 1> s = bsx::sin(l);
    BOOST_TEST(s(1) == std::sin(1.0L));
}
