// Element-wise operations of bsx (api.md sections 1, 3, 4, 5, 8) checked against
// reference values computed here with plain C++ and <cmath>, never with bsx:
//   * every operator and function of section 3 over a set of interesting inputs
//     (signed zeros, halves, infinities, NaN), both through evaluation (the fused
//     loop) and through `e(i, ...)` (one element at a time);
//   * element types (C++ promotion, bool comparisons, bool & bool is bool);
//   * scalars on either side, where, cast, map (1, 2, 3 operands), bsxfun;
//   * every example of the broadcasting seeds (NumPy doc, Octave doc) under NumPy rules;
//   * broadcast errors with their exact message, zero-size axes;
//   * arrays (construction, factories, members, assignment, compound assignment,
//     iteration, ranks 0 and 8), array_equal, allclose;
//   * an expression kept in `auto` over temporaries (CI runs this under ASan).
#define BOOST_TEST_MODULE bsx_operations
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include "test_support.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using namespace test_support;

using bsx::index_t;
template <std::size_t N>
using shape = std::array<index_t, N>;

constexpr double inf = std::numeric_limits<double>::infinity();
const double qnan = std::numeric_limits<double>::quiet_NaN();

/// Hides a value from the optimizer, so reference values are computed at run time by
/// the same libm bsx calls (and not constant-folded with a different rounding).
double opaque(double x) {
    volatile double v = x;
    return v;
}

/// Equal values, NaN matching NaN; with `bits`, zeros must also agree in sign.
template <class A, class B>
bool same(A got, B want, bool bits) {
    if constexpr (std::is_floating_point_v<A> || std::is_floating_point_v<B>) {
        const double g = static_cast<double>(got), w = static_cast<double>(want);
        if (std::isnan(g) || std::isnan(w)) return std::isnan(g) && std::isnan(w);
        return g == w && (!bits || std::signbit(g) == std::signbit(w));
    } else {
        return got == want;
    }
}

/// Within `ulps` units in the last place of `want`, for finite values; otherwise as `same`.
bool close(double got, double want, bool bits, double ulps) {
    if (same(got, want, bits)) return true;
    if (ulps == 0 || !std::isfinite(got) || !std::isfinite(want)) return false;
    const double mag = std::fabs(want);
    const double ulp = mag < std::numeric_limits<double>::min()
                           ? std::numeric_limits<double>::denorm_min()
                           : std::ldexp(1.0, std::ilogb(mag) - (std::numeric_limits<double>::digits - 1));
    return std::fabs(got - want) <= ulps * ulp;
}

/// How far the math functions may be from the libm reference here: their stated bound from
/// the exact value (test_vector_math checks it), plus the reference's own rounding.
template <class K>
constexpr double libm_tolerance = K::max_ulp + 1.0;

/// A rank-1 bsx array holding `v`.
template <class T>
bsx::array<T, 1> vec(const std::vector<T>& v) {
    auto a = bsx::zeros<T>(v.size());
    std::copy(v.begin(), v.end(), a.begin());
    return a;
}
/// An (n, 1) column and a (1, m) row holding `v`.
template <class T>
bsx::array<T, 2> column(const std::vector<T>& v) {
    auto a = bsx::zeros<T>(v.size(), 1);
    std::copy(v.begin(), v.end(), a.begin());
    return a;
}
template <class T>
bsx::array<T, 2> row(const std::vector<T>& v) {
    auto a = bsx::zeros<T>(1, v.size());
    std::copy(v.begin(), v.end(), a.begin());
    return a;
}

/// Runs `f`, which must throw bsx::broadcast_error with exactly `message`.
template <class F>
void expect_broadcast_error(F&& f, const std::string& message) {
    try {
        f();
        BOOST_ERROR("no exception thrown; expected: " << message);
    } catch (const bsx::broadcast_error& e) {
        BOOST_TEST(std::string(e.what()) == message);
    }
}

/// The standard message for shapes (2,3) and (2,2) under `name`.
std::string msg_23_22(const std::string& name) {
    return "bsx: " + name +
           ": shapes (2,3) and (2,2) cannot be broadcast under numpy rules: axis 1 has extents 3 and 2";
}

// ---------------------------------------------------------------- inputs

/// Interesting doubles: signed zeros, halves (rounding), +-1, tiny and huge values,
/// infinities and NaN; then a sweep over [-4, 4] and (0, 1) so every domain is hit.
std::vector<double> unary_inputs() {
    std::vector<double> v = {-0.0,   0.0,     0.5,    -0.5,    1.0,      -1.0,  1.5,    -1.5,  2.5,
                             -2.5,   3.5,     -3.5,   0.49999, -0.49999, 2.0,   -2.0,   10.0,  -10.0,
                             1e-300, -1e-300, 5e-324, 1e300,   -1e300,   700.0, -745.0, 710.0, 0.75,
                             -0.75,  0.999,   -0.999, inf,     -inf,     qnan,  -qnan,  3.0,   100.5};
    for (int k = 0; k <= 800; ++k) v.push_back(-4.0 + 0.01 * k + 1e-7 * (k % 7));
    for (int k = 1; k < 100; ++k) v.push_back(k / 100.0);
    return v;
}

/// Pairs for binary functions (all combinations through an (n,1) x (1,m) broadcast).
const std::vector<double> bin_x = {-7.0, -3.0, -2.5, -1.0, -0.5,  -0.0, 0.0,  0.5, 1.0,
                                   2.0,  2.5,  3.0,  7.0,  1e300, inf,  -inf, qnan};
const std::vector<double> bin_y = {-3.0, -2.0, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 1e-300, inf, -inf, qnan};

/// Finite pairs for mod and rem (their infinite-divisor conventions are not part of the contract).
const std::vector<double> mod_x = {-7.0, -6.0, -3.0, -2.5, -1.0, -0.5, 0.0, 0.5, 1.0, 2.5, 3.0, 6.0, 7.0, 7.5, 100.0};
const std::vector<double> mod_y = {-3.0, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0, 4.0};

const std::vector<int> int_x = {-7, -6, -3, -1, 0, 1, 2, 3, 5, 7, 100};
const std::vector<int> int_y = {-3, -2, -1, 1, 2, 3, 4, 5};  // no 0: used as divisors

// ---------------------------------------------------------------- checkers

/// Compares, for each input, the evaluated value and the element-path value with the reference.
void compare_results(const std::string& name, const std::vector<std::string>& inputs, const std::vector<double>& got,
                     const std::vector<double>& one, const std::vector<double>& want, bool bits, double ulps) {
    BOOST_TEST_REQUIRE(got.size() == want.size());
    std::size_t bad = 0;
    std::string first;
    for (std::size_t k = 0; k < want.size(); ++k)
        if (!close(got[k], want[k], bits, ulps) || !close(one[k], want[k], bits, ulps)) {
            if (!bad++)
                first = name + "(" + inputs[k] + "): got " + num(got[k]) + " (element path " + num(one[k]) +
                        "), expected " + num(want[k]);
        }
    BOOST_TEST(bad == 0u, name << ": " << bad << " mismatches of " << want.size() << "; first: " << first);
}

/// Evaluates `e` (an expression over a rank-1 array of `in`) and compares each element,
/// and `e(k)`, with `ref` applied to the input.
template <class E, class Ref>
void check_unary(const std::string& name, const E& e, const std::vector<double>& in, Ref ref, bool bits,
                 double ulps = 0) {
    const auto r = bsx::eval(e);
    if (static_cast<std::size_t>(r.size()) != in.size()) {
        BOOST_ERROR(name << ": wrong size " << r.size());
        return;
    }
    std::vector<std::string> inputs;
    std::vector<double> got(r.begin(), r.end()), one, want;
    for (std::size_t k = 0; k < in.size(); ++k) {
        inputs.push_back(num(in[k]));
        one.push_back(static_cast<double>(e(k)));
        want.push_back(static_cast<double>(ref(opaque(in[k]))));
    }
    compare_results(name, inputs, got, one, want, bits, ulps);
}

/// `e` is an expression over an (n,1) column of xs and a (1,m) row of ys: compares
/// element (i, j) with ref(xs[i], ys[j]).
template <class E, class X, class Y, class Ref>
void check_binary(const std::string& name, const E& e, const std::vector<X>& xs, const std::vector<Y>& ys, Ref ref,
                  bool bits, double ulps = 0) {
    const auto r = bsx::eval(e);
    const std::string want_shape = fmt(shape<2>{index_t(xs.size()), index_t(ys.size())});
    if (fmt(r.shape()) != want_shape || fmt(e.shape()) != want_shape) {
        BOOST_ERROR(name << ": shape " << fmt(r.shape()) << ", expected " << want_shape);
        return;
    }
    std::vector<std::string> inputs;
    std::vector<double> got(r.begin(), r.end()), one, want;
    for (std::size_t i = 0; i < xs.size(); ++i)
        for (std::size_t j = 0; j < ys.size(); ++j) {
            X x = xs[i];
            Y y = ys[j];
            if constexpr (std::is_floating_point_v<X>) x = static_cast<X>(opaque(x));
            if constexpr (std::is_floating_point_v<Y>) y = static_cast<Y>(opaque(y));
            inputs.push_back(num(double(xs[i])) + ", " + num(double(ys[j])));
            one.push_back(static_cast<double>(e(i, j)));
            want.push_back(static_cast<double>(ref(x, y)));
        }
    compare_results(name, inputs, got, one, want, bits, ulps);
}

}  // namespace

// ================================================================== element types
BOOST_AUTO_TEST_SUITE(element_types)

BOOST_AUTO_TEST_CASE(types_follow_cpp) {
    bsx::array<double, 1> d{1, 2};
    bsx::array<float, 1> f{1, 2};
    bsx::array<int, 1> i{1, 2};
    bsx::array<bool, 1> b{true, false};
    bsx::array<std::uint8_t, 1> u8{1, 2};
    using bsx::value_type_t;
    static_assert(std::is_same_v<value_type_t<decltype(i + d)>, double>);
    static_assert(std::is_same_v<value_type_t<decltype(i + 1)>, int>);
    static_assert(std::is_same_v<value_type_t<decltype(i + 1.0)>, double>);
    static_assert(std::is_same_v<value_type_t<decltype(2.0 * i)>, double>);
    static_assert(std::is_same_v<value_type_t<decltype(f * 2.0f)>, float>);
    static_assert(std::is_same_v<value_type_t<decltype(f * 2.0)>, double>);
    static_assert(std::is_same_v<value_type_t<decltype(u8 + u8)>, int>);
    static_assert(std::is_same_v<value_type_t<decltype(-i)>, int>);
    static_assert(std::is_same_v<value_type_t<decltype(+b)>, int>);
    static_assert(std::is_same_v<value_type_t<decltype(i / 2)>, int>);
    static_assert(std::is_same_v<value_type_t<decltype(i % 2)>, int>);
    // comparisons and logic give bool
    static_assert(std::is_same_v<value_type_t<decltype(d < i)>, bool>);
    static_assert(std::is_same_v<value_type_t<decltype(d == 1.0)>, bool>);
    static_assert(std::is_same_v<value_type_t<decltype(d != d)>, bool>);
    static_assert(std::is_same_v<value_type_t<decltype(d <= d)>, bool>);
    static_assert(std::is_same_v<value_type_t<decltype(d > d)>, bool>);
    static_assert(std::is_same_v<value_type_t<decltype(d >= d)>, bool>);
    static_assert(std::is_same_v<value_type_t<decltype(d && i)>, bool>);
    static_assert(std::is_same_v<value_type_t<decltype(d || i)>, bool>);
    static_assert(std::is_same_v<value_type_t<decltype(!d)>, bool>);
    static_assert(std::is_same_v<value_type_t<decltype(bsx::logical_and(d, i))>, bool>);
    static_assert(std::is_same_v<value_type_t<decltype(bsx::logical_or(d, i))>, bool>);
    static_assert(std::is_same_v<value_type_t<decltype(bsx::logical_xor(d, i))>, bool>);
    static_assert(std::is_same_v<value_type_t<decltype(bsx::logical_not(d))>, bool>);
    static_assert(std::is_same_v<value_type_t<decltype(bsx::isnan(d))>, bool>);
    static_assert(std::is_same_v<value_type_t<decltype(bsx::isinf(d))>, bool>);
    static_assert(std::is_same_v<value_type_t<decltype(bsx::isfinite(d))>, bool>);
    // bitwise: bool with bool stays bool (NumPy), otherwise C++ promotion
    static_assert(std::is_same_v<value_type_t<decltype(b & b)>, bool>);
    static_assert(std::is_same_v<value_type_t<decltype(b | b)>, bool>);
    static_assert(std::is_same_v<value_type_t<decltype(b ^ b)>, bool>);
    static_assert(std::is_same_v<value_type_t<decltype(~b)>, bool>);
    static_assert(std::is_same_v<value_type_t<decltype(i & i)>, int>);
    static_assert(std::is_same_v<value_type_t<decltype(i | b)>, int>);
    static_assert(std::is_same_v<value_type_t<decltype(~i)>, int>);
    // functions
    static_assert(std::is_same_v<value_type_t<decltype(bsx::min(i, d))>, double>);
    static_assert(std::is_same_v<value_type_t<decltype(bsx::max(i, 2))>, int>);
    static_assert(std::is_same_v<value_type_t<decltype(bsx::mod(i, 3))>, int>);
    static_assert(std::is_same_v<value_type_t<decltype(bsx::rem(d, 3))>, double>);
    static_assert(std::is_same_v<value_type_t<decltype(bsx::sqrt(d))>, double>);
    static_assert(std::is_same_v<value_type_t<decltype(bsx::sqrt(f))>, float>);
    static_assert(std::is_same_v<value_type_t<decltype(bsx::abs(i))>, int>);
    static_assert(std::is_same_v<value_type_t<decltype(bsx::where(b, i, d))>, double>);
    static_assert(std::is_same_v<value_type_t<decltype(bsx::cast<int>(d))>, int>);
    static_assert(std::is_same_v<value_type_t<decltype(bsx::map([](double x) { return x > 0; }, d))>, bool>);
    // rank is static, eval gives an array of the node's type and rank
    static_assert(decltype(d + bsx::zeros<int>(2, 2))::rank == 2);
    static_assert(std::is_same_v<decltype(bsx::eval(i + d)), bsx::array<double, 1>>);
    static_assert(std::is_same_v<decltype(bsx::eval(b & b)), bsx::array<bool, 1>>);

    // the values of the mixed cases
    expect_values(i + d, "(2,)", {2, 4});
    expect_values(i / 2, "(2,)", {0, 1});  // integer division
    expect_values(+b, "(2,)", {1, 0});
    expect_values(u8 + u8, "(2,)", {2, 4});
    bsx::array<std::uint8_t, 1> big{200, 100};
    expect_values(big + big, "(2,)", {400, 200});  // promoted to int before adding: no wrap-around
}

BOOST_AUTO_TEST_CASE(expression_members) {
    bsx::array<double, 2> a{{1, 2, 3}, {4, 5, 6}};
    bsx::array<double, 1> v{10, 20, 30};
    const auto e = a * 2.0 + v;
    using E = std::remove_cvref_t<decltype(e)>;
    static_assert(E::rank == 2);
    static_assert(std::is_same_v<E::value_type, double>);
    static_assert(std::is_same_v<bsx::value_type_t<E>, double>);
    BOOST_TEST(fmt(e.shape()) == "(2,3)");
    BOOST_TEST(e.size() == 6);
    BOOST_TEST(e(0, 0) == 12.0);
    BOOST_TEST(e(1, 2) == 42.0);
    BOOST_TEST(e(1, 0) == 18.0);
}

BOOST_AUTO_TEST_CASE(building_computes_nothing) {
    bsx::array<double, 2> a{{1, 2, 3}, {4, 5, 6}};
    int calls = 0;
    auto e = bsx::map(
        [&calls](double x) {
            ++calls;
            return x + 1;
        },
        a);
    auto e2 = e * 2.0 + bsx::sqrt(e);
    BOOST_TEST(calls == 0);
    const bsx::array<double, 2> r = e;
    BOOST_TEST(calls == 6);  // one fused pass: each element computed once
    BOOST_TEST(r(1, 2) == 7.0);
    (void)e2;
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================== operators
BOOST_AUTO_TEST_SUITE(operators)

BOOST_AUTO_TEST_CASE(unary_operators) {
    const auto in = unary_inputs();
    const auto x = vec(in);
    check_unary(
        "unary +", +x, in, [](double v) { return +v; }, true);
    check_unary(
        "unary -", -x, in, [](double v) { return -v; }, true);
    check_unary(
        "operator!", !x, in, [](double v) { return !v; }, true);

    const auto xi = vec(int_x);
    const auto r_neg = bsx::eval(-xi);
    const auto r_not = bsx::eval(~xi);
    const auto r_lnot = bsx::eval(!xi);
    for (std::size_t k = 0; k < int_x.size(); ++k) {
        BOOST_TEST(r_neg(k) == -int_x[k]);
        BOOST_TEST(r_not(k) == ~int_x[k]);
        BOOST_TEST(r_lnot(k) == !int_x[k]);
    }
    bsx::array<bool, 1> b{true, false, true};
    // ~ on bool is logical not (NumPy), not C++'s ~true == -2
    expect_values(~b, "(3,)", {0, 1, 0});
    expect_values(!b, "(3,)", {0, 1, 0});
    expect_values(-bsx::array<unsigned, 1>{1u, 2u}, "(2,)", {double(-1u), double(-2u)});
}

BOOST_AUTO_TEST_CASE(arithmetic_double) {
    const auto c = column(bin_x);
    const auto r = row(bin_y);
    check_binary(
        "+", c + r, bin_x, bin_y, [](double x, double y) { return x + y; }, true);
    check_binary(
        "-", c - r, bin_x, bin_y, [](double x, double y) { return x - y; }, true);
    check_binary(
        "*", c * r, bin_x, bin_y, [](double x, double y) { return x * y; }, true);
    check_binary(
        "/", c / r, bin_x, bin_y, [](double x, double y) { return x / y; }, true);
}

BOOST_AUTO_TEST_CASE(arithmetic_int) {
    const auto c = column(int_x);
    const auto r = row(int_y);
    check_binary(
        "+", c + r, int_x, int_y, [](int x, int y) { return x + y; }, true);
    check_binary(
        "-", c - r, int_x, int_y, [](int x, int y) { return x - y; }, true);
    check_binary(
        "*", c * r, int_x, int_y, [](int x, int y) { return x * y; }, true);
    check_binary(
        "/", c / r, int_x, int_y, [](int x, int y) { return x / y; }, true);  // truncating
    check_binary(
        "%", c % r, int_x, int_y, [](int x, int y) { return x % y; }, true);  // sign of dividend
    // a few by hand
    bsx::array<int, 1> a{-7, 7, -7, 7};
    bsx::array<int, 1> b{3, -3, -3, 3};
    expect_values(a % b, "(4,)", {-1, 1, -1, 1});
    expect_values(a / b, "(4,)", {-2, -2, 2, 2});
    bsx::array<long long, 1> l{-9, 9};
    expect_values(l % 4, "(2,)", {-1, 1});
    expect_values(13 % bsx::array<int, 1>{5, -5, 13}, "(3,)", {3, 3, 0});
}

BOOST_AUTO_TEST_CASE(comparisons) {
    const auto c = column(bin_x);
    const auto r = row(bin_y);
    check_binary(
        "==", c == r, bin_x, bin_y, [](double x, double y) { return x == y; }, true);
    check_binary(
        "!=", c != r, bin_x, bin_y, [](double x, double y) { return x != y; }, true);
    check_binary(
        "<", c < r, bin_x, bin_y, [](double x, double y) { return x < y; }, true);
    check_binary(
        "<=", c <= r, bin_x, bin_y, [](double x, double y) { return x <= y; }, true);
    check_binary(
        ">", c > r, bin_x, bin_y, [](double x, double y) { return x > y; }, true);
    check_binary(
        ">=", c >= r, bin_x, bin_y, [](double x, double y) { return x >= y; }, true);
    // mixed int / double
    const auto ci = column(int_x);
    check_binary(
        "int < double", ci < r, int_x, bin_y, [](int x, double y) { return x < y; }, true);
    // by hand: NaN compares unequal to everything, -0 == +0
    bsx::array<double, 1> a{qnan, -0.0, 1.0};
    bsx::array<double, 1> b{qnan, 0.0, 2.0};
    expect_values(a == b, "(3,)", {0, 1, 0});
    expect_values(a != b, "(3,)", {1, 0, 1});
    expect_values(a < b, "(3,)", {0, 0, 1});
    expect_values(a >= b, "(3,)", {0, 1, 0});
}

BOOST_AUTO_TEST_CASE(logical) {
    const auto c = column(bin_x);
    const auto r = row(bin_y);
    // NaN is true as a bool (C++), zeros of either sign are false
    check_binary(
        "&&", c && r, bin_x, bin_y, [](double x, double y) { return x != 0 && y != 0; }, true);
    check_binary(
        "||", c || r, bin_x, bin_y, [](double x, double y) { return x != 0 || y != 0; }, true);
    check_binary(
        "logical_and", bsx::logical_and(c, r), bin_x, bin_y, [](double x, double y) { return x != 0 && y != 0; }, true);
    check_binary(
        "logical_or", bsx::logical_or(c, r), bin_x, bin_y, [](double x, double y) { return x != 0 || y != 0; }, true);
    check_binary(
        "logical_xor", bsx::logical_xor(c, r), bin_x, bin_y, [](double x, double y) { return (x != 0) != (y != 0); },
        true);
    const auto in = unary_inputs();
    check_unary(
        "logical_not", bsx::logical_not(vec(in)), in, [](double v) { return v == 0; }, true);
    bsx::array<bool, 1> p{false, false, true, true};
    bsx::array<bool, 1> q{false, true, false, true};
    expect_values(p && q, "(4,)", {0, 0, 0, 1});
    expect_values(p || q, "(4,)", {0, 1, 1, 1});
    expect_values(bsx::logical_xor(p, q), "(4,)", {0, 1, 1, 0});
    expect_values(bsx::logical_not(p), "(4,)", {1, 1, 0, 0});
    expect_values(bsx::logical_and(bsx::array<int, 1>{0, 2, -3}, 5), "(3,)", {0, 1, 1});
}

BOOST_AUTO_TEST_CASE(bitwise) {
    const std::vector<int> xs = {0, 1, 5, 12, -1, -8, 255, 0x5a5a};
    const std::vector<int> ys = {0, 1, 3, 10, -2, 0xff, 0x0f0f};
    const auto c = column(xs);
    const auto r = row(ys);
    check_binary(
        "&", c & r, xs, ys, [](int x, int y) { return x & y; }, true);
    check_binary(
        "|", c | r, xs, ys, [](int x, int y) { return x | y; }, true);
    check_binary(
        "^", c ^ r, xs, ys, [](int x, int y) { return x ^ y; }, true);
    const auto ti = bsx::eval(~vec(xs));
    for (std::size_t k = 0; k < xs.size(); ++k) BOOST_TEST(ti(k) == ~xs[k]);
    // bool with bool
    bsx::array<bool, 1> p{false, false, true, true};
    bsx::array<bool, 1> q{false, true, false, true};
    expect_values(p & q, "(4,)", {0, 0, 0, 1});
    expect_values(p | q, "(4,)", {0, 1, 1, 1});
    expect_values(p ^ q, "(4,)", {0, 1, 1, 0});
    static_assert(std::is_same_v<bsx::value_type_t<decltype(p & true)>, bool>);
    expect_values(p ^ true, "(4,)", {1, 1, 0, 0});
    // unsigned
    bsx::array<unsigned, 1> u{0xf0u, 0x0fu};
    expect_values(u | 0x100u, "(2,)", {0x1f0, 0x10f});
    expect_values(u & 0x3cu, "(2,)", {0x30, 0x0c});
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================== binary functions
BOOST_AUTO_TEST_SUITE(binary_functions)

BOOST_AUTO_TEST_CASE(min_max_nan_propagating) {
    const auto c = column(bin_x);
    const auto r = row(bin_y);
    // NumPy minimum/maximum: NaN if either is NaN
    check_binary(
        "min", bsx::min(c, r), bin_x, bin_y,
        [](double x, double y) { return std::isnan(x) || std::isnan(y) ? qnan : (y < x ? y : x); }, false);
    check_binary(
        "max", bsx::max(c, r), bin_x, bin_y,
        [](double x, double y) { return std::isnan(x) || std::isnan(y) ? qnan : (y > x ? y : x); }, false);
    BOOST_TEST(std::isnan(bsx::min(bsx::array<double, 1>{qnan}, 1.0)(0)));
    BOOST_TEST(std::isnan(bsx::min(1.0, bsx::array<double, 1>{qnan})(0)));
    BOOST_TEST(std::isnan(bsx::eval(bsx::min(bsx::array<double, 1>{qnan, 1.0}, bsx::array<double, 1>{1.0, qnan}))(0)));
    BOOST_TEST(std::isnan(bsx::eval(bsx::min(bsx::array<double, 1>{qnan, 1.0}, bsx::array<double, 1>{1.0, qnan}))(1)));
    BOOST_TEST(std::isnan(bsx::eval(bsx::max(bsx::array<double, 1>{qnan, 1.0}, bsx::array<double, 1>{1.0, qnan}))(0)));
    BOOST_TEST(std::isnan(bsx::eval(bsx::max(bsx::array<double, 1>{qnan, 1.0}, bsx::array<double, 1>{1.0, qnan}))(1)));
    // integers and mixed types
    const auto ci = column(int_x);
    const auto ri = row(int_y);
    check_binary(
        "min int", bsx::min(ci, ri), int_x, int_y, [](int x, int y) { return std::min(x, y); }, true);
    check_binary(
        "max int", bsx::max(ci, ri), int_x, int_y, [](int x, int y) { return std::max(x, y); }, true);
    expect_values(bsx::max(bsx::array<int, 1>{1, 5}, 2.5), "(2,)", {2.5, 5});
}

BOOST_AUTO_TEST_CASE(fmin_fmax_nan_ignoring) {
    const auto c = column(bin_x);
    const auto r = row(bin_y);
    check_binary(
        "fmin", bsx::fmin(c, r), bin_x, bin_y, [](double x, double y) { return std::fmin(x, y); }, false);
    check_binary(
        "fmax", bsx::fmax(c, r), bin_x, bin_y, [](double x, double y) { return std::fmax(x, y); }, false);
    bsx::array<double, 1> a{qnan, 1.0, qnan};
    bsx::array<double, 1> b{1.0, qnan, qnan};
    const auto lo = bsx::eval(bsx::fmin(a, b));
    const auto hi = bsx::eval(bsx::fmax(a, b));
    BOOST_TEST(lo(0) == 1.0);
    BOOST_TEST(lo(1) == 1.0);
    BOOST_TEST(std::isnan(lo(2)));
    BOOST_TEST(hi(0) == 1.0);
    BOOST_TEST(hi(1) == 1.0);
    BOOST_TEST(std::isnan(hi(2)));
}

BOOST_AUTO_TEST_CASE(pow_atan2_hypot) {
    const auto c = column(bin_x);
    const auto r = row(bin_y);
    namespace vmath = bsx::detail::vmath;
    check_binary(
        "pow", bsx::pow(c, r), bin_x, bin_y, [](double x, double y) { return std::pow(x, y); }, true,
        libm_tolerance<vmath::pow>);
    check_binary(
        "atan2", bsx::atan2(c, r), bin_x, bin_y, [](double x, double y) { return std::atan2(x, y); }, true,
        libm_tolerance<vmath::atan2>);
    check_binary(
        "hypot", bsx::hypot(c, r), bin_x, bin_y, [](double x, double y) { return std::hypot(x, y); }, true,
        libm_tolerance<vmath::hypot>);
    // by hand
    expect_values(bsx::pow(bsx::array<double, 1>{2, 3, -2, 4}, bsx::array<double, 1>{10, 2, 3, 0.5}), "(4,)",
                  {1024, 9, -8, 2});
    expect_values(bsx::hypot(bsx::array<double, 1>{3, 5, inf}, bsx::array<double, 1>{4, 12, qnan}), "(3,)",
                  {5, 13, inf});
    expect_values(bsx::pow(bsx::array<int, 1>{2, 3}, 2), "(2,)", {4, 9});
    const auto at = bsx::eval(bsx::atan2(bsx::array<double, 1>{1, 1, -1, 0}, bsx::array<double, 1>{1, -1, -1, -1}));
    BOOST_TEST(at(0) == std::atan(1.0));
    BOOST_TEST(std::abs(at(1) - 3 * std::atan(1.0)) < 1e-15);
    BOOST_TEST(std::abs(at(2) + 3 * std::atan(1.0)) < 1e-15);
    BOOST_TEST(std::abs(at(3) - std::acos(-1.0)) < 1e-15);
}

BOOST_AUTO_TEST_CASE(mod_floored) {
    // Octave: mod(-7,3) = 2, mod(7,-3) = -2, mod(-7,-3) = -1, mod(x,0) = x
    expect_values(bsx::mod(bsx::array<double, 1>{-7, 7, -7, 7, 5.5, -5.5}, bsx::array<double, 1>{3, -3, -3, 3, 0, 0}),
                  "(6,)", {2, -2, -1, 1, 5.5, -5.5});
    expect_values(
        bsx::mod(bsx::array<int, 1>{-7, 7, -7, 7, 5, -5, 6, -6}, bsx::array<int, 1>{3, -3, -3, 3, 0, 0, 3, 3}), "(8,)",
        {2, -2, -1, 1, 5, -5, 0, 0});
    expect_values(bsx::mod(bsx::array<double, 1>{-2.5, 7.5, -0.5}, 1.0), "(3,)", {0.5, 0.5, 0.5});
    expect_values(bsx::mod(-7, bsx::array<int, 1>{3, -3, 4}), "(3,)", {2, -1, 1});
    // the whole grid against a reference built from C fmod (exact for these inputs)
    const auto fmod_floored = [](double x, double y) {
        if (y == 0) return x;
        double m = std::fmod(x, y);
        if (m != 0 && ((m < 0) != (y < 0))) m += y;
        return m;
    };
    check_binary("mod", bsx::mod(column(mod_x), row(mod_y)), mod_x, mod_y, fmod_floored, false);
    const auto int_floored = [](int x, int y) {
        if (y == 0) return x;
        int m = x % y;
        if (m != 0 && ((m < 0) != (y < 0))) m += y;
        return m;
    };
    check_binary("mod int", bsx::mod(column(int_x), row(int_y)), int_x, int_y, int_floored, true);
}

BOOST_AUTO_TEST_CASE(rem_truncated) {
    expect_values(bsx::rem(bsx::array<double, 1>{-7, 7, -7, 7, 7.5}, bsx::array<double, 1>{3, -3, -3, 3, 2}), "(5,)",
                  {-1, 1, -1, 1, 1.5});
    expect_values(bsx::rem(bsx::array<int, 1>{-7, 7, -7, 7}, bsx::array<int, 1>{3, -3, -3, 3}), "(4,)", {-1, 1, -1, 1});
    const auto z = bsx::eval(bsx::rem(bsx::array<double, 1>{5.0, -5.0, 0.0}, 0.0));
    BOOST_TEST(std::isnan(z(0)));  // rem(x, 0) is NaN for floating types
    BOOST_TEST(std::isnan(z(1)));
    BOOST_TEST(std::isnan(z(2)));
    check_binary(
        "rem", bsx::rem(column(mod_x), row(mod_y)), mod_x, mod_y, [](double x, double y) { return std::fmod(x, y); },
        false);
    check_binary(
        "rem int", bsx::rem(column(int_x), row(int_y)), int_x, int_y, [](int x, int y) { return x % y; }, true);
}

BOOST_AUTO_TEST_CASE(ldivide_is_b_over_a) {
    const auto c = column(bin_x);
    const auto r = row(bin_y);
    check_binary(
        "ldivide", bsx::ldivide(c, r), bin_x, bin_y, [](double x, double y) { return y / x; }, true);
    expect_values(bsx::ldivide(bsx::array<double, 1>{2, 4}, bsx::array<double, 1>{1, 10}), "(2,)", {0.5, 2.5});
    expect_values(bsx::ldivide(4.0, bsx::array<double, 1>{1, 10}), "(2,)", {0.25, 2.5});
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================== unary functions
BOOST_AUTO_TEST_SUITE(unary_functions)

#define BSX_UNARY_CMATH(FN) \
    check_unary(            \
        #FN, bsx::FN(x), in, [](double v) { return std::FN(v); }, true)
#define BSX_UNARY_VECTOR_MATH(FN) \
    check_unary(                  \
        #FN, bsx::FN(x), in, [](double v) { return std::FN(v); }, true, libm_tolerance<bsx::detail::vmath::FN>)

BOOST_AUTO_TEST_CASE(cmath_functions) {
    const auto in = unary_inputs();
    const auto x = vec(in);
    BSX_UNARY_CMATH(sqrt);
    BSX_UNARY_VECTOR_MATH(cbrt);
    BSX_UNARY_VECTOR_MATH(exp);
    BSX_UNARY_VECTOR_MATH(exp2);
    BSX_UNARY_VECTOR_MATH(expm1);
    BSX_UNARY_VECTOR_MATH(log);
    BSX_UNARY_VECTOR_MATH(log2);
    BSX_UNARY_VECTOR_MATH(log10);
    BSX_UNARY_VECTOR_MATH(log1p);
    BSX_UNARY_VECTOR_MATH(sin);
    BSX_UNARY_VECTOR_MATH(cos);
    BSX_UNARY_VECTOR_MATH(tan);
    BSX_UNARY_VECTOR_MATH(asin);
    BSX_UNARY_VECTOR_MATH(acos);
    BSX_UNARY_VECTOR_MATH(atan);
    BSX_UNARY_VECTOR_MATH(sinh);
    BSX_UNARY_VECTOR_MATH(cosh);
    BSX_UNARY_VECTOR_MATH(tanh);
    BSX_UNARY_CMATH(floor);
    BSX_UNARY_CMATH(ceil);
    BSX_UNARY_CMATH(round);
    BSX_UNARY_CMATH(trunc);
    BSX_UNARY_CMATH(isnan);
    BSX_UNARY_CMATH(isinf);
    BSX_UNARY_CMATH(isfinite);
    check_unary(
        "abs", bsx::abs(x), in, [](double v) { return std::fabs(v); }, true);
    check_unary(
        "square", bsx::square(x), in, [](double v) { return v * v; }, true);
    check_unary(
        "sign", bsx::sign(x), in, [](double v) { return std::isnan(v) ? qnan : (v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0)); },
        true);
}
#undef BSX_UNARY_CMATH
#undef BSX_UNARY_VECTOR_MATH

BOOST_AUTO_TEST_CASE(by_hand) {
    // round halves away from zero
    expect_values(bsx::round(bsx::array<double, 1>{2.5, -2.5, 0.5, -0.5, 1.5, 2.4999}), "(6,)", {3, -3, 1, -1, 2, 2});
    expect_values(bsx::floor(bsx::array<double, 1>{2.5, -2.5}), "(2,)", {2, -3});
    expect_values(bsx::ceil(bsx::array<double, 1>{2.5, -2.5}), "(2,)", {3, -2});
    expect_values(bsx::trunc(bsx::array<double, 1>{2.7, -2.7}), "(2,)", {2, -2});
    expect_values(bsx::sqrt(bsx::array<double, 1>{4, 2.25, 0}), "(3,)", {2, 1.5, 0});
    expect_values(bsx::exp2(bsx::array<double, 1>{10, -1}), "(2,)", {1024, 0.5});
    expect_values(bsx::log2(bsx::array<double, 1>{1024, 0.25}), "(2,)", {10, -2});
    expect_values(bsx::log10(bsx::array<double, 1>{1000, 1}), "(2,)", {3, 0});
    expect_values(bsx::abs(bsx::array<int, 1>{-3, 0, 4}), "(3,)", {3, 0, 4});
    expect_values(bsx::square(bsx::array<int, 1>{-3, 0, 4}), "(3,)", {9, 0, 16});
    expect_values(bsx::sign(bsx::array<int, 1>{-3, 0, 4}), "(3,)", {-1, 0, 1});
    // sign: NaN stays NaN, -0.0 gives +0.0 (NumPy)
    const auto s = bsx::eval(bsx::sign(bsx::array<double, 1>{qnan, -0.0, 0.0, -inf, inf, -1e-300}));
    BOOST_TEST(std::isnan(s(0)));
    BOOST_TEST(s(1) == 0.0);
    BOOST_TEST(!std::signbit(s(1)));
    BOOST_TEST(!std::signbit(bsx::sign(bsx::array<float, 0>(-0.0f))()));
    BOOST_TEST(s(2) == 0.0);
    BOOST_TEST(s(3) == -1.0);
    BOOST_TEST(s(4) == 1.0);
    BOOST_TEST(s(5) == -1.0);
    expect_values(bsx::isnan(bsx::array<double, 1>{qnan, inf, 1}), "(3,)", {1, 0, 0});
    expect_values(bsx::isinf(bsx::array<double, 1>{qnan, -inf, 1}), "(3,)", {0, 1, 0});
    expect_values(bsx::isfinite(bsx::array<double, 1>{qnan, inf, 1}), "(3,)", {0, 0, 1});
    // a float array stays float and uses the float overloads
    bsx::array<float, 1> f{0.5f, 2.0f};
    const auto fs = bsx::eval(bsx::sin(f));
    static_assert(std::is_same_v<decltype(fs), const bsx::array<float, 1>>);
    BOOST_TEST(std::fabs(fs(0) - std::sin(static_cast<float>(opaque(0.5)))) <=
               4 * std::numeric_limits<float>::epsilon());
}

BOOST_AUTO_TEST_CASE(functions_over_rank_2_and_chains) {
    // a chain of functions over a 2-D array, against a plain loop
    auto a = bsx::zeros<double>(7, 300);  // longer rows than one evaluation chunk
    for (index_t i = 0; i < 7; ++i)
        for (index_t j = 0; j < 300; ++j) a(i, j) = (i - 3) * 0.7 + j * 0.013;
    bsx::array<double, 1> w = bsx::zeros<double>(300);
    for (index_t j = 0; j < 300; ++j) w(j) = 1.0 + j % 5;
    const bsx::array<double, 2> r = bsx::exp(-bsx::square(a)) * w + bsx::abs(bsx::sin(a)) / (w + 1.0);
    for (index_t i = 0; i < 7; ++i)
        for (index_t j = 0; j < 300; ++j) {
            const double x = opaque(a(i, j)), y = w(j);
            // exp and sin as bsx computes one element (their accuracy: test_vector_math), so
            // that the comparison stays exact.
            const double want = bsx::ops::exp{}(-(x * x)) * y + std::fabs(bsx::ops::sin{}(x)) / (y + 1.0);
            BOOST_TEST(r(i, j) == want);
        }
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================== scalars, where, cast, map, bsxfun
BOOST_AUTO_TEST_SUITE(scalars_and_helpers)

BOOST_AUTO_TEST_CASE(scalars_on_either_side) {
    bsx::array<double, 2> a{{1, 2, 4}, {-8, 0.5, 0}};
    expect_values(2.0 - a, "(2,3)", {1, 0, -2, 10, 1.5, 2});
    expect_values(a - 2.0, "(2,3)", {-1, 0, 2, -10, -1.5, -2});
    expect_values(3 * a, "(2,3)", {3, 6, 12, -24, 1.5, 0});
    expect_values(a * 3, "(2,3)", {3, 6, 12, -24, 1.5, 0});
    expect_values(8.0 / a, "(2,3)", {8, 4, 2, -1, 16, inf});
    expect_values(a / 4, "(2,3)", {0.25, 0.5, 1, -2, 0.125, 0});
    expect_values(a < 1.5, "(2,3)", {1, 0, 0, 1, 1, 1});
    expect_values(1.5 < a, "(2,3)", {0, 1, 1, 0, 0, 0});
    expect_values(1.0 == a, "(2,3)", {1, 0, 0, 0, 0, 0});
    expect_values(bsx::pow(2.0, a), "(2,3)", {2, 4, 16, 1.0 / 256, std::pow(opaque(2.0), opaque(0.5)), 1});
    expect_values(bsx::pow(a, 2), "(2,3)", {1, 4, 16, 64, 0.25, 0});
    expect_values(bsx::min(a, 1.0), "(2,3)", {1, 1, 1, -8, 0.5, 0});
    expect_values(bsx::max(1.0, a), "(2,3)", {1, 2, 4, 1, 1, 1});
    expect_values(bsx::mod(a, 3), "(2,3)", {1, 2, 1, 1, 0.5, 0});
    expect_values(bsx::mod(10, bsx::array<int, 1>{3, -3}), "(2,)", {1, -2});
    bsx::array<int, 1> i{1, 2, 3};
    expect_values(i + 0.5, "(3,)", {1.5, 2.5, 3.5});
    expect_values(10 - i, "(3,)", {9, 8, 7});
    expect_values(7 / i, "(3,)", {7, 3, 2});
    expect_values(7 % i, "(3,)", {0, 1, 1});
    expect_values(i & 1, "(3,)", {1, 0, 1});
    expect_values(6 ^ i, "(3,)", {7, 4, 5});
    expect_values(true && i, "(3,)", {1, 1, 1});
    expect_values(bsx::logical_or(0, i - 2), "(3,)", {1, 0, 1});
    // a chain mixing scalars and arrays
    expect_values(1.0 - 2.0 * (i - 1) / 4.0, "(3,)", {1, 0.5, 0});
}

BOOST_AUTO_TEST_CASE(where_three_way_broadcast) {
    bsx::array<bool, 2> c{{true}, {false}, {true}};  // (3,1)
    bsx::array<double, 2> a{{1, 2, 3, 4}};           // (1,4)
    bsx::array<int, 1> b{-1, -2, -3, -4};            // (4,)
    expect_values(bsx::where(c, a, b), "(3,4)", {1, 2, 3, 4, -1, -2, -3, -4, 1, 2, 3, 4});
    expect_values(bsx::where(c, a, 0.5), "(3,4)", {1, 2, 3, 4, 0.5, 0.5, 0.5, 0.5, 1, 2, 3, 4});
    expect_values(bsx::where(c, 7, b), "(3,4)", {7, 7, 7, 7, -1, -2, -3, -4, 7, 7, 7, 7});
    // all three differ: (2,1,1), (3,1), (4,)
    auto cc = bsx::zeros<bool>(2, 1, 1);
    cc(1, 0, 0) = true;
    bsx::array<double, 2> x{{10}, {20}, {30}};
    bsx::array<double, 1> y{1, 2, 3, 4};
    const auto r = bsx::eval(bsx::where(cc, x, y));
    BOOST_TEST(fmt(r.shape()) == "(2,3,4)");
    for (index_t i = 0; i < 2; ++i)
        for (index_t j = 0; j < 3; ++j)
            for (index_t k = 0; k < 4; ++k) BOOST_TEST(r(i, j, k) == (i == 1 ? 10.0 * (j + 1) : k + 1.0));
    // a condition expression, NumPy's where(x > 2, x, 0)
    bsx::array<double, 1> v{1, 5, 2, 7};
    expect_values(bsx::where(v > 2.0, v, 0.0), "(4,)", {0, 5, 0, 7});
    // a non-bool condition is converted to bool
    expect_values(bsx::where(bsx::array<int, 1>{0, 3}, 1.0, 2.0), "(2,)", {2, 1});
    // three operands: the two that clash are named, each with its own shape (issue 10)
    expect_broadcast_error(
        [&] { (void)bsx::where(bsx::zeros<bool>(2, 3), bsx::zeros<double>(2, 3), bsx::zeros<double>(2, 2)); },
        "bsx: where: shapes (2,3), (2,3) and (2,2) cannot be broadcast under numpy rules: axis 1 has "
        "extents 3 (operand 1, shape (2,3)) and 2 (operand 3, shape (2,2))");
    // a pairwise fold would have named (4,3), the broadcast of the first two, which no operand has
    expect_broadcast_error(
        [&] { (void)bsx::where(bsx::zeros<bool>(4, 1), bsx::zeros<double>(3), bsx::zeros<double>(2, 3)); },
        "bsx: where: shapes (4,1), (3,) and (2,3) cannot be broadcast under numpy rules: axis 0 has "
        "extents 4 (operand 1, shape (4,1)) and 2 (operand 3, shape (2,3))");
    expect_broadcast_error(
        [&] {
            (void)bsx::map([](double p, double q, double r) { return p + q + r; }, bsx::zeros<double>(1, 5),
                           bsx::zeros<double>(3, 1), bsx::zeros<double>(3, 4));
        },
        "bsx: map: shapes (1,5), (3,1) and (3,4) cannot be broadcast under numpy rules: axis 1 has "
        "extents 5 (operand 1, shape (1,5)) and 4 (operand 3, shape (3,4))");
    BOOST_TEST(fmt(bsx::broadcast_shapes(bsx::shape_t<2>{4, 1}, bsx::shape_t<1>{3}, bsx::shape_t<3>{2, 1, 1})) ==
               "(2,4,3)");
    expect_broadcast_error(
        [] {
            (void)bsx::broadcast_shapes<bsx::octave_rules>(bsx::shape_t<1>{4}, bsx::shape_t<2>{1, 3},
                                                           bsx::shape_t<2>{4, 1}, bsx::shape_t<1>{5});
        },
        "bsx: broadcast_shapes: shapes (4,), (1,3), (4,1) and (5,) cannot be broadcast under octave "
        "rules: axis 0 has extents 4 (operand 1, shape (4,)) and 5 (operand 4, shape (5,))");
}

BOOST_AUTO_TEST_CASE(cast) {
    bsx::array<double, 1> v{1.9, -1.9, 2.5, 0.0};
    const auto r = bsx::eval(bsx::cast<int>(v));
    static_assert(std::is_same_v<decltype(r), const bsx::array<int, 1>>);
    expect_values(bsx::cast<int>(v), "(4,)", {1, -1, 2, 0});  // static_cast truncates
    expect_values(bsx::cast<bool>(v), "(4,)", {1, 1, 1, 0});
    expect_values(bsx::cast<double>(bsx::array<int, 1>{1, 2}) / 4, "(2,)", {0.25, 0.5});
    expect_values(bsx::cast<int>(v * 2.0) + 1, "(4,)", {4, -2, 6, 1});
    expect_values(bsx::cast<std::uint8_t>(bsx::array<int, 1>{255, 256, 257}), "(3,)", {255, 0, 1});
}

BOOST_AUTO_TEST_CASE(map_and_bsxfun) {
    // one operand, a stateful lambda
    const double k = 3.0;
    bsx::array<double, 2> a{{1, 2}, {3, 4}};
    expect_values(bsx::map([k](double x) { return k * x * x + 1; }, a), "(2,2)", {4, 13, 28, 49});
    // two operands, broadcast
    bsx::array<double, 2> col{{1}, {2}, {3}};
    bsx::array<double, 1> rowv{10, 20};
    const auto f2 = [](double x, double y) { return x * 100 + y; };
    expect_values(bsx::map(f2, col, rowv), "(3,2)", {110, 120, 210, 220, 310, 320});
    expect_values(bsx::map(f2, 5.0, rowv), "(2,)", {510, 520});
    // three operands of three shapes, mixed types
    auto x = bsx::zeros<double>(2, 1, 1);
    x(0, 0, 0) = 1.5;
    x(1, 0, 0) = -2.0;
    bsx::array<int, 2> n{{1}, {2}, {3}};
    bsx::array<bool, 1> z{true, false, true, false};
    const auto f3 = [](double p, int q, bool s) { return s ? p * q : -p; };
    const auto r3 = bsx::eval(bsx::map(f3, x, n, z));
    BOOST_TEST(fmt(r3.shape()) == "(2,3,4)");
    for (index_t i = 0; i < 2; ++i)
        for (index_t j = 0; j < 3; ++j)
            for (index_t l = 0; l < 4; ++l) {
                const double p = x(i, 0, 0);
                BOOST_TEST(r3(i, j, l) == ((l % 2 == 0) ? p * (j + 1) : -p));
            }
    // the result type is the callable's
    const auto rb = bsx::eval(bsx::map([](int q) { return q % 2 == 0; }, n));
    static_assert(std::is_same_v<decltype(rb), const bsx::array<bool, 2>>);
    BOOST_TEST(rb(0, 0) == false);
    BOOST_TEST(rb(1, 0) == true);
    // a map inside a larger expression
    expect_values(bsx::map([](double v) { return v / 2; }, a) + 1.0, "(2,2)", {1.5, 2, 2.5, 3});
    // bsxfun is a binary map
    expect_values(bsx::bsxfun(f2, col, rowv), "(3,2)", {110, 120, 210, 220, 310, 320});
    expect_values(bsx::bsxfun(std::plus<>{}, col, 0.5), "(3,1)", {1.5, 2.5, 3.5});
    expect_values(bsx::bsxfun([](double p, double q) { return std::max(p, q); }, a, bsx::array<double, 1>{2.5, 0}),
                  "(2,2)", {2.5, 2, 3, 4});
    expect_broadcast_error([&] { (void)bsx::map(f2, bsx::zeros<double>(2, 3), bsx::zeros<double>(2, 2)); },
                           msg_23_22("map"));
    expect_broadcast_error([&] { (void)bsx::bsxfun(f2, bsx::zeros<double>(2, 3), bsx::zeros<double>(2, 2)); },
                           msg_23_22("bsxfun"));
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================== the seeds, under NumPy rules
BOOST_AUTO_TEST_SUITE(seeds)

// 001 (NumPy documentation, broadcasting)
BOOST_AUTO_TEST_CASE(numpy_scalar_and_row) {
    bsx::array<double, 2> a{{1, 2, 3}, {4, 5, 6}};
    expect_values(a + 10, "(2,3)", {11, 12, 13, 14, 15, 16});
    bsx::array<double, 1> row{100, 200, 300};
    expect_values(a + row, "(2,3)", {101, 202, 303, 104, 205, 306});
    expect_values(bsx::arange<int>(4) + bsx::arange<int>(4), "(4,)", {0, 2, 4, 6});
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::arange<int>(4) + bsx::arange<int>(4))>, int>);
}

BOOST_AUTO_TEST_CASE(numpy_column_plus_row_and_atan2) {
    bsx::array<int, 1> xv{1, 2, 3, 4};
    auto x = bsx::reshape<2>(xv, {4, 1});  // column
    bsx::array<int, 1> y{10, 20, 30};      // row
    expect_values(x + y, "(4,3)", {11, 21, 31, 12, 22, 32, 13, 23, 33, 14, 24, 34});
    // np.arctan2(y, 1.0)
    const auto t1 = bsx::eval(bsx::atan2(y, 1.0));
    BOOST_TEST(fmt(t1.shape()) == "(3,)");
    constexpr double tol = libm_tolerance<bsx::detail::vmath::atan2>;
    for (index_t j = 0; j < 3; ++j)
        BOOST_TEST(close(t1(j), std::atan2(opaque(10.0 * (j + 1)), opaque(1.0)), false, tol));
    // np.arctan2(y, x): (3,) against (4,1) gives (4,3)
    const auto t2 = bsx::eval(bsx::atan2(y, x));
    BOOST_TEST(fmt(t2.shape()) == "(4,3)");
    for (index_t i = 0; i < 4; ++i)
        for (index_t j = 0; j < 3; ++j)
            BOOST_TEST(close(t2(i, j), std::atan2(opaque(10.0 * (j + 1)), opaque(double(i + 1))), false, tol));
}

BOOST_AUTO_TEST_CASE(numpy_failures_and_surprises) {
    // (3,4) against (4,3): the first axis already fails
    expect_broadcast_error([] { (void)(bsx::zeros<double>(3, 4) + bsx::zeros<double>(4, 3)); },
                           "bsx: operator+: shapes (3,4) and (4,3) cannot be broadcast under numpy rules: axis 0 has "
                           "extents 3 and 4");
    // (5,) against (5,1) is the outer (5,5), not an element-wise result of length 5
    bsx::array<double, 1> v{1, 2, 3, 4, 5};
    auto c = bsx::reshape<2>(v, {5, 1});
    const auto r = bsx::eval(v + c);
    BOOST_TEST(fmt(r.shape()) == "(5,5)");
    for (index_t i = 0; i < 5; ++i)
        for (index_t j = 0; j < 5; ++j) BOOST_TEST(r(i, j) == double(i + 1 + j + 1));
    BOOST_TEST(fmt(bsx::broadcast_shapes(shape<1>{5}, shape<2>{5, 1})) == "(5,5)");
}

// 002 (Octave documentation, broadcasting), with the shapes written out for NumPy rules
BOOST_AUTO_TEST_CASE(octave_examples) {
    bsx::array<double, 2> x{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
    bsx::array<double, 2> y{{10, 20, 30}};  // Octave's [10 20 30] is (1,3)
    expect_values(x + y, "(3,3)", {11, 22, 33, 14, 25, 36, 17, 28, 39});
    bsx::array<double, 1> y1{10, 20, 30};  // and the NumPy (3,) spelling
    expect_values(x + y1, "(3,3)", {11, 22, 33, 14, 25, 36, 17, 28, 39});
    // y - y'
    expect_values(y - bsx::transpose(y), "(3,3)", {0, 10, 20, -10, 0, 10, -20, -10, 0});
    expect_values(x - 42, "(3,3)", {-41, -40, -39, -38, -37, -36, -35, -34, -33});
    expect_values(bsx::max(x, 2), "(3,3)", {2, 2, 3, 4, 5, 6, 7, 8, 9});
    expect_values(bsx::fmax(x, 2), "(3,3)", {2, 2, 3, 4, 5, 6, 7, 8, 9});
    // nonconformant
    bsx::array<double, 2> p{{1, 2, 3}, {4, 5, 6}};
    bsx::array<double, 2> q{{10, 20}, {30, 40}};
    expect_broadcast_error([&] { (void)(p + q); }, msg_23_22("operator+"));
    // img .*= permute([0.8, 0.9, 1.2], [1, 3, 2]): under NumPy rules the (3,) vector meets the last axis
    auto img = bsx::zeros<double>(2, 2, 3);
    for (index_t i = 0; i < 2; ++i)
        for (index_t j = 0; j < 2; ++j)
            for (index_t k = 0; k < 3; ++k) img(i, j, k) = 10.0 * (i * 2 + j) + k;
    const auto before = img;
    bsx::array<double, 1> scale{0.8, 0.9, 1.2};
    img *= scale;
    for (index_t i = 0; i < 2; ++i)
        for (index_t j = 0; j < 2; ++j)
            for (index_t k = 0; k < 3; ++k) BOOST_TEST(img(i, j, k) == before(i, j, k) * scale(k));
    // bsxfun(f, A, B)
    expect_values(bsx::bsxfun([](double s, double t) { return s - t; }, y, bsx::transpose(y)), "(3,3)",
                  {0, 10, 20, -10, 0, 10, -20, -10, 0});
    // c = sum(permute(a,[1,3,2]) .* permute(b,[3,2,1]), 3) is a * b: the broadcast product, summed here by hand
    bsx::array<double, 2> am{{1, 2}, {3, 4}, {5, 6}};       // (3,2)
    bsx::array<double, 2> bm{{1, 0, 2, 1}, {-1, 3, 1, 0}};  // (2,4)
    const auto prod = bsx::eval(bsx::slice(am, bsx::all, bsx::newaxis, bsx::all) *
                                bsx::slice(bsx::transpose(bm), bsx::newaxis, bsx::all, bsx::all));
    BOOST_TEST(fmt(prod.shape()) == "(3,4,2)");
    for (index_t i = 0; i < 3; ++i)
        for (index_t j = 0; j < 4; ++j) {
            double s = 0, want = 0;
            for (index_t k = 0; k < 2; ++k) {
                s += prod(i, j, k);
                want += am(i, k) * bm(k, j);
            }
            BOOST_TEST(s == want);
        }
}

BOOST_AUTO_TEST_CASE(octave_floyd_warshall_line) {
    // dist = min(dist, dist(:,k) + dist(k,:)) for every k, against the triple loop
    const index_t n = 6;
    auto dist = bsx::zeros<double>(n, n);
    for (index_t i = 0; i < n; ++i)
        for (index_t j = 0; j < n; ++j) dist(i, j) = i == j ? 0.0 : double((i * 7 + j * 3) % 11 + 1);
    std::vector<double> ref(dist.begin(), dist.end());
    for (index_t k = 0; k < n; ++k)
        for (index_t i = 0; i < n; ++i)
            for (index_t j = 0; j < n; ++j) ref[i * n + j] = std::min(ref[i * n + j], ref[i * n + k] + ref[k * n + j]);
    for (index_t k = 0; k < n; ++k) dist = bsx::min(dist, dist.col(k) + dist.row(k));
    BOOST_TEST(contents(dist) == ref, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================== errors
BOOST_AUTO_TEST_SUITE(errors)

BOOST_AUTO_TEST_CASE(message_text) {
    bsx::array<double, 2> a{{1, 2, 3}, {4, 5, 6}};
    bsx::array<double, 2> b{{1, 2}, {3, 4}};
    expect_broadcast_error([&] { (void)(a + b); },
                           "bsx: operator+: shapes (2,3) and (2,2) cannot be broadcast under numpy rules: axis 1 has "
                           "extents 3 and 2");
    // the operands in their order
    expect_broadcast_error([&] { (void)(b - a); },
                           "bsx: operator-: shapes (2,2) and (2,3) cannot be broadcast under numpy rules: axis 1 has "
                           "extents 2 and 3");
    // (3,) prints with its comma
    expect_broadcast_error([] { (void)(bsx::zeros<double>(3) * bsx::zeros<double>(4)); },
                           "bsx: operator*: shapes (3,) and (4,) cannot be broadcast under numpy rules: axis 0 has "
                           "extents 3 and 4");
    // the axis is numbered in the result after alignment: (3,4) is seen as (1,3,4) against (5,4,2);
    // axes 1 (3 vs 4) and 2 (4 vs 2) both fail, the first from the left is named
    expect_broadcast_error([] { (void)(bsx::zeros<double>(3, 4) * bsx::zeros<double>(5, 4, 2)); },
                           "bsx: operator*: shapes (3,4) and (5,4,2) cannot be broadcast under numpy rules: axis 1 "
                           "has extents 3 and 4");
    expect_broadcast_error([] { (void)(bsx::zeros<double>(7, 1, 6, 3) / bsx::zeros<double>(6, 2)); },
                           "bsx: operator/: shapes (7,1,6,3) and (6,2) cannot be broadcast under numpy rules: axis 3 "
                           "has extents 3 and 2");
    expect_broadcast_error([] { (void)(bsx::zeros<double>(2, 5, 1) < bsx::zeros<double>(4, 3, 1, 1)); },
                           "bsx: operator<: shapes (2,5,1) and (4,3,1,1) cannot be broadcast under numpy rules: axis 1 "
                           "has extents 2 and 3");
    // a nested node: the outer operation is named, with the inner node's shape
    bsx::array<double, 1> v{1, 2};
    expect_broadcast_error([&] { (void)((a + 1.0) * v); },
                           "bsx: operator*: shapes (2,3) and (2,) cannot be broadcast under numpy rules: axis 1 has "
                           "extents 3 and 2");
    // the error is thrown when the node is built, before anything is assigned
    bsx::array<double, 2> r{{9}};
    try {
        r = a + b;
        BOOST_ERROR("no exception");
    } catch (const bsx::broadcast_error&) {
    }
    BOOST_TEST(fmt(r.shape()) == "(1,1)");
    BOOST_TEST(r(0, 0) == 9.0);
}

BOOST_AUTO_TEST_CASE(every_operation_names_itself) {
    bsx::array<int, 2> a{{1, 2, 3}, {4, 5, 6}};
    bsx::array<int, 2> b{{1, 2}, {3, 4}};
    const auto check = [](auto&& make, const std::string& name) { expect_broadcast_error(make, msg_23_22(name)); };
    check([&] { (void)(a + b); }, "operator+");
    check([&] { (void)(a - b); }, "operator-");
    check([&] { (void)(a * b); }, "operator*");
    check([&] { (void)(a / b); }, "operator/");
    check([&] { (void)(a % b); }, "operator%");
    check([&] { (void)(a == b); }, "operator==");
    check([&] { (void)(a != b); }, "operator!=");
    check([&] { (void)(a < b); }, "operator<");
    check([&] { (void)(a <= b); }, "operator<=");
    check([&] { (void)(a > b); }, "operator>");
    check([&] { (void)(a >= b); }, "operator>=");
    check([&] { (void)(a && b); }, "operator&&");
    check([&] { (void)(a || b); }, "operator||");
    check([&] { (void)(a & b); }, "operator&");
    check([&] { (void)(a | b); }, "operator|");
    check([&] { (void)(a ^ b); }, "operator^");
    check([&] { (void)bsx::min(a, b); }, "min");
    check([&] { (void)bsx::max(a, b); }, "max");
    check([&] { (void)bsx::fmin(a, b); }, "fmin");
    check([&] { (void)bsx::fmax(a, b); }, "fmax");
    check([&] { (void)bsx::pow(a, b); }, "pow");
    check([&] { (void)bsx::atan2(a, b); }, "atan2");
    check([&] { (void)bsx::hypot(a, b); }, "hypot");
    check([&] { (void)bsx::mod(a, b); }, "mod");
    check([&] { (void)bsx::rem(a, b); }, "rem");
    check([&] { (void)bsx::ldivide(a, b); }, "ldivide");
    check([&] { (void)bsx::logical_and(a, b); }, "logical_and");
    check([&] { (void)bsx::logical_or(a, b); }, "logical_or");
    check([&] { (void)bsx::logical_xor(a, b); }, "logical_xor");
    expect_broadcast_error([&] { (void)bsx::where(a > 0, a, b); },
                           "bsx: where: shapes (2,3), (2,3) and (2,2) cannot be broadcast under numpy rules: axis 1 "
                           "has extents 3 (operand 1, shape (2,3)) and 2 (operand 3, shape (2,2))");
    check([&] { (void)bsx::map([](int p, int q) { return p + q; }, a, b); }, "map");
    check([&] { (void)bsx::bsxfun([](int p, int q) { return p + q; }, a, b); }, "bsxfun");
}

BOOST_AUTO_TEST_CASE(error_type) {
    static_assert(std::is_base_of_v<std::invalid_argument, bsx::broadcast_error>);
    bool caught = false;
    try {
        (void)(bsx::zeros<double>(2) + bsx::zeros<double>(3));
    } catch (const std::invalid_argument& e) {
        caught = true;
        BOOST_TEST(dynamic_cast<const bsx::broadcast_error*>(&e) != nullptr);
    }
    BOOST_TEST(caught);
}

BOOST_AUTO_TEST_CASE(broadcast_shapes_function) {
    BOOST_TEST(fmt(bsx::broadcast_shapes(shape<3>{2, 1, 3}, shape<2>{4, 1})) == "(2,4,3)");
    BOOST_TEST(fmt(bsx::broadcast_shapes(shape<0>{}, shape<2>{4, 1})) == "(4,1)");
    BOOST_TEST(fmt(bsx::broadcast_shapes(shape<1>{0}, shape<1>{1})) == "(0,)");
    BOOST_TEST(fmt(bsx::broadcast_shapes(shape<2>{1, 0}, shape<3>{5, 3, 1})) == "(5,3,0)");
    BOOST_TEST(fmt(bsx::broadcast_shapes<bsx::numpy_rules>(shape<2>{8, 1}, shape<1>{6})) == "(8,6)");
    static_assert(std::is_same_v<decltype(bsx::broadcast_shapes(shape<3>{}, shape<1>{})), shape<3>>);
    try {
        (void)bsx::broadcast_shapes(shape<2>{3, 4}, shape<2>{4, 3});
        BOOST_ERROR("no exception");
    } catch (const bsx::broadcast_error& e) {
        const std::string w = e.what();
        BOOST_TEST(w.find("shapes (3,4) and (4,3) cannot be broadcast under numpy rules: axis 0 has extents 3 and 4") !=
                       std::string::npos,
                   w);
    }
    BOOST_CHECK_THROW((void)bsx::broadcast_shapes(shape<1>{0}, shape<1>{2}), bsx::broadcast_error);
}

BOOST_AUTO_TEST_CASE(compound_assignment_errors_leave_destination_unchanged) {
    bsx::array<double, 2> a{{1, 2, 3}, {4, 5, 6}};
    const std::vector<double> orig(a.begin(), a.end());
    const auto unchanged = [&] {
        BOOST_TEST(fmt(a.shape()) == "(2,3)");
        BOOST_TEST(contents(a) == orig, boost::test_tools::per_element());
    };
    const auto expect_error = [&](auto&& f, const std::string& op) {
        try {
            f();
            BOOST_ERROR("no exception from " << op);
        } catch (const bsx::broadcast_error& e) {
            const std::string w = e.what();
            BOOST_TEST(w.rfind("bsx: " + op + ": ", 0) == 0u, w);
            BOOST_TEST(w.find("(2,3)") != std::string::npos, w);
        }
        unchanged();
    };
    bsx::array<double, 2> b{{1, 2}, {3, 4}};
    expect_error([&] { a += b; }, "operator+=");
    expect_error([&] { a -= b; }, "operator-=");
    expect_error([&] { a *= b * 2.0; }, "operator*=");
    expect_error([&] { a /= bsx::zeros<double>(2); }, "operator/=");
    // broadcastable together, but the result would not have the destination's shape
    expect_error([&] { a += bsx::zeros<double>(3) + bsx::zeros<double>(4, 1); }, "operator+=");  // (4,3)
    bsx::array<double, 2> r1{{1, 2, 3}};
    try {
        r1 += a;  // (1,3) += (2,3) would grow the destination
        BOOST_ERROR("no exception");
    } catch (const bsx::broadcast_error&) {
    }
    BOOST_TEST(fmt(r1.shape()) == "(1,3)");
    BOOST_TEST(r1(0, 2) == 3.0);
    bsx::array<int, 1> ia{1, 2, 3};
    const auto ib = ia;
    BOOST_CHECK_THROW((ia %= bsx::array<int, 1>{1, 2}), bsx::broadcast_error);
    BOOST_CHECK_THROW((ia &= bsx::array<int, 1>{1, 2}), bsx::broadcast_error);
    BOOST_CHECK_THROW((ia |= bsx::array<int, 1>{1, 2}), bsx::broadcast_error);
    BOOST_CHECK_THROW((ia ^= bsx::array<int, 1>{1, 2}), bsx::broadcast_error);
    BOOST_TEST(bsx::array_equal(ia, ib));
}

BOOST_AUTO_TEST_CASE(checked_access_and_ragged_lists) {
    bsx::array<double, 2> a{{1, 2, 3}, {4, 5, 6}};
    BOOST_TEST(a.at(1, 2) == 6.0);
    a.at(0, 1) = 20.0;
    BOOST_TEST(a(0, 1) == 20.0);
    const auto axis_named = [&](auto&& f, const std::string& axis) {
        try {
            f();
            BOOST_ERROR("no exception");
        } catch (const std::out_of_range& e) {
            const std::string w = e.what();
            BOOST_TEST(w.find(axis) != std::string::npos, w);
        }
    };
    axis_named([&] { (void)a.at(0, 3); }, "axis 1");
    axis_named([&] { (void)a.at(2, 0); }, "axis 0");
    axis_named([&] { (void)a.at(-1, 0); }, "axis 0");
    axis_named([&] { (void)a.at(1, -1); }, "axis 1");
    const auto& ca = a;
    axis_named([&] { (void)ca.at(5, 0); }, "axis 0");
    bsx::array<int, 1> v{1, 2};
    axis_named([&] { (void)v.at(2); }, "axis 0");
    BOOST_TEST(bsx::array_equal(a, bsx::array<double, 2>{{1, 20, 3}, {4, 5, 6}}));  // nothing written

    BOOST_CHECK_THROW((bsx::array<double, 2>{{1, 2, 3}, {4, 5}}), std::invalid_argument);
    BOOST_CHECK_THROW((bsx::array<double, 2>{{1}, {2, 3}}), std::invalid_argument);
    BOOST_CHECK_THROW((bsx::array<int, 3>{{{1, 2}, {3, 4}}, {{5, 6}, {7}}}), std::invalid_argument);
    BOOST_CHECK_THROW((bsx::array<int, 3>{{{1, 2}, {3, 4}}, {{5, 6}}}), std::invalid_argument);
    BOOST_CHECK_NO_THROW((bsx::array<int, 3>{{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}}));
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================== zero-size axes
BOOST_AUTO_TEST_SUITE(zero_size)

BOOST_AUTO_TEST_CASE(zero_with_one_and_n) {
    bsx::array<double, 1> row{1, 2, 3};
    const auto e = bsx::zeros<double>(0, 3) + row;
    BOOST_TEST(fmt(e.shape()) == "(0,3)");
    BOOST_TEST(e.size() == 0);
    const auto r = bsx::eval(e);
    BOOST_TEST(fmt(r.shape()) == "(0,3)");
    BOOST_TEST(r.size() == 0);
    BOOST_TEST((r.begin() == r.end()));

    const auto e2 = bsx::eval(bsx::zeros<double>(0) + bsx::ones<double>(1));
    BOOST_TEST(fmt(e2.shape()) == "(0,)");
    BOOST_TEST(fmt(bsx::eval(bsx::zeros<double>(1) * bsx::zeros<double>(0)).shape()) == "(0,)");
    BOOST_TEST(fmt(bsx::eval(bsx::zeros<double>(0, 1) * bsx::zeros<double>(1, 5)).shape()) == "(0,5)");
    BOOST_TEST(fmt(bsx::eval(bsx::zeros<double>(0) * 3.0).shape()) == "(0,)");
    expect_broadcast_error([] { (void)(bsx::zeros<double>(0) + bsx::zeros<double>(2)); },
                           "bsx: operator+: shapes (0,) and (2,) cannot be broadcast under numpy rules: axis 0 has "
                           "extents 0 and 2");
    expect_broadcast_error([] { (void)(bsx::zeros<double>(3, 0) + bsx::zeros<double>(3, 2)); },
                           "bsx: operator+: shapes (3,0) and (3,2) cannot be broadcast under numpy rules: axis 1 has "
                           "extents 0 and 2");
}

BOOST_AUTO_TEST_CASE(zero_size_assignment) {
    bsx::array<double, 2> r{{1, 2}, {3, 4}};
    r = bsx::zeros<double>(2, 0) * 2.0;  // resizes to (2,0)
    BOOST_TEST(fmt(r.shape()) == "(2,0)");
    BOOST_TEST(r.size() == 0);
    r += 1.0;  // nothing to do, no error
    r += bsx::zeros<double>(0);
    BOOST_TEST(fmt(r.shape()) == "(2,0)");
    bsx::array<double, 2> z = bsx::zeros<double>(0, 4) + 1.0;
    BOOST_TEST(fmt(z.shape()) == "(0,4)");
    z = 5.0;
    BOOST_TEST(fmt(z.shape()) == "(0,4)");
    r = bsx::ones<double>(3, 2);  // and back to a non-empty shape
    BOOST_TEST(fmt(r.shape()) == "(3,2)");
    BOOST_TEST(r(2, 1) == 1.0);
    const auto ez = bsx::eval(bsx::sqrt(bsx::zeros<double>(4, 0, 2)) + bsx::ones<double>(2));
    BOOST_TEST(fmt(ez.shape()) == "(4,0,2)");
    BOOST_TEST(bsx::array_equal(ez, bsx::zeros<double>(4, 0, 2)));
    BOOST_TEST(!bsx::array_equal(ez, bsx::zeros<double>(4, 0, 3)));
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================== arrays
BOOST_AUTO_TEST_SUITE(arrays)

BOOST_AUTO_TEST_CASE(construction_and_members) {
    bsx::array<double, 2> a{{1, 2, 3}, {4, 5, 6}};
    static_assert(decltype(a)::rank == 2);
    static_assert(std::is_same_v<decltype(a.shape()), const std::array<index_t, 2>&> ||
                  std::is_same_v<decltype(a.shape()), std::array<index_t, 2>>);
    BOOST_TEST(fmt(a.shape()) == "(2,3)");
    BOOST_TEST(a.extent(0) == 2);
    BOOST_TEST(a.extent(1) == 3);
    BOOST_TEST(a.size() == 6);
    const double* p = a.data();
    for (int k = 0; k < 6; ++k) BOOST_TEST(p[k] == k + 1.0);  // contiguous, row-major
    BOOST_TEST(a(1, 0) == 4.0);
    a(1, 0) = 40.0;
    BOOST_TEST(a.data()[3] == 40.0);

    bsx::array<double, 1> v{7, 8, 9};
    BOOST_TEST(fmt(v.shape()) == "(3,)");
    BOOST_TEST(v(2) == 9.0);
    bsx::array<int, 3> c{{{1, 2}, {3, 4}, {5, 6}}, {{7, 8}, {9, 10}, {11, 12}}};
    BOOST_TEST(fmt(c.shape()) == "(2,3,2)");
    BOOST_TEST(c(1, 2, 0) == 11);
    BOOST_TEST(c.data()[11] == 12);

    // default construction: every extent 0
    bsx::array<double, 3> d;
    BOOST_TEST(fmt(d.shape()) == "(0,0,0)");
    BOOST_TEST(d.size() == 0);
    BOOST_TEST((d.begin() == d.end()));
    bsx::array<double, 1> d1;
    BOOST_TEST(fmt(d1.shape()) == "(0,)");
}

BOOST_AUTO_TEST_CASE(factories) {
    const auto z = bsx::zeros<double>(2, 3);
    static_assert(std::is_same_v<decltype(z), const bsx::array<double, 2>>);
    BOOST_TEST(fmt(z.shape()) == "(2,3)");
    BOOST_TEST(std::all_of(z.begin(), z.end(), [](double x) { return x == 0.0; }));
    const auto o = bsx::ones<int>(4);
    BOOST_TEST(fmt(o.shape()) == "(4,)");
    BOOST_TEST(std::all_of(o.begin(), o.end(), [](int x) { return x == 1; }));
    const auto f = bsx::full<double>(shape<2>{3, 2}, 7.5);
    static_assert(std::is_same_v<decltype(f), const bsx::array<double, 2>>);
    BOOST_TEST(fmt(f.shape()) == "(3,2)");
    BOOST_TEST(std::all_of(f.begin(), f.end(), [](double x) { return x == 7.5; }));
    const auto r = bsx::arange<double>(5);
    BOOST_TEST(fmt(r.shape()) == "(5,)");
    for (index_t k = 0; k < 5; ++k) BOOST_TEST(r(k) == double(k));
    BOOST_TEST(bsx::arange<int>(0).size() == 0);
    const auto z4 = bsx::zeros<float>(2, 1, 3, 2);
    BOOST_TEST(fmt(z4.shape()) == "(2,1,3,2)");
    BOOST_TEST(z4.size() == 12);
    const auto b = bsx::ones<bool>(2, 2);
    BOOST_TEST(std::all_of(b.begin(), b.end(), [](bool x) { return x; }));
}

BOOST_AUTO_TEST_CASE(copy_move_fill) {
    bsx::array<double, 2> a{{1, 2, 3}, {4, 5, 6}};
    bsx::array<double, 2> b = a;  // deep copy
    b(0, 0) = 100.0;
    BOOST_TEST(a(0, 0) == 1.0);
    BOOST_TEST(b(0, 0) == 100.0);
    BOOST_TEST(b.data() != a.data());
    bsx::array<double, 2> c{{0}};
    c = a;  // copy assignment with a different shape
    BOOST_TEST(fmt(c.shape()) == "(2,3)");
    c(1, 2) = -1.0;
    BOOST_TEST(a(1, 2) == 6.0);
    const double* pa = a.data();
    bsx::array<double, 2> m = std::move(a);  // move keeps the elements
    BOOST_TEST(m.data() == pa);
    BOOST_TEST(fmt(m.shape()) == "(2,3)");
    BOOST_TEST(m(1, 1) == 5.0);
    bsx::array<double, 2> m2;
    m2 = std::move(m);
    BOOST_TEST(m2.data() == pa);
    BOOST_TEST(m2(0, 2) == 3.0);
    // a scalar fills, the shape is kept
    m2 = 0.5;
    BOOST_TEST(fmt(m2.shape()) == "(2,3)");
    BOOST_TEST(std::all_of(m2.begin(), m2.end(), [](double x) { return x == 0.5; }));
    bsx::array<int, 1> iv{1, 2, 3};
    iv = 7;
    BOOST_TEST(std::all_of(iv.begin(), iv.end(), [](int x) { return x == 7; }));
}

BOOST_AUTO_TEST_CASE(assignment_resizes) {
    bsx::array<double, 2> r{{1, 2}, {3, 4}};
    r = bsx::zeros<double>(3, 4) + 1.0;
    BOOST_TEST(fmt(r.shape()) == "(3,4)");
    BOOST_TEST(std::all_of(r.begin(), r.end(), [](double x) { return x == 1.0; }));
    bsx::array<double, 2> d;  // default, then assigned
    bsx::array<double, 1> v{1, 2, 3};
    d = bsx::array<double, 2>{{10}, {20}} + v;
    BOOST_TEST(fmt(d.shape()) == "(2,3)");
    BOOST_TEST(contents(d) == (std::vector<double>{11, 12, 13, 21, 22, 23}), boost::test_tools::per_element());
    // same shape: written in place
    const double* p = d.data();
    d = d * 2.0;
    BOOST_TEST(d.data() == p);
    BOOST_TEST(d(1, 2) == 46.0);
    // an array of another element type
    bsx::array<int, 1> iv{1, 2, 3};
    bsx::array<double, 1> dv = iv;
    BOOST_TEST(dv(2) == 3.0);
    dv = iv / 2;  // int division, then converted
    BOOST_TEST(contents(dv) == (std::vector<double>{0, 1, 1}), boost::test_tools::per_element());
    bsx::array<double, 2> e = bsx::eval(v + bsx::array<double, 2>{{0}, {1}});
    BOOST_TEST(fmt(e.shape()) == "(2,3)");
}

BOOST_AUTO_TEST_CASE(compound_assignment) {
    bsx::array<double, 2> r{{1, 2, 3}, {4, 5, 6}};
    bsx::array<double, 1> row{10, 20, 30};
    bsx::array<double, 2> col{{1}, {2}};
    r += row;
    BOOST_TEST(contents(r) == (std::vector<double>{11, 22, 33, 14, 25, 36}), boost::test_tools::per_element());
    r -= col;
    BOOST_TEST(contents(r) == (std::vector<double>{10, 21, 32, 12, 23, 34}), boost::test_tools::per_element());
    r *= col * 0.5 + row * 0.0;  // an expression of the destination's shape
    BOOST_TEST(contents(r) == (std::vector<double>{5, 10.5, 16, 12, 23, 34}), boost::test_tools::per_element());
    r /= 2.0;
    BOOST_TEST(contents(r) == (std::vector<double>{2.5, 5.25, 8, 6, 11.5, 17}), boost::test_tools::per_element());
    r += r;  // the destination on the right
    BOOST_TEST(r(1, 2) == 34.0);
    bsx::array<int, 2> i{{7, -7, 12}, {5, 6, 255}};
    bsx::array<int, 1> m{3, 3, 5};
    i %= m;
    BOOST_TEST(std::vector<int>(i.begin(), i.end()) == (std::vector<int>{1, -1, 2, 2, 0, 0}),
               boost::test_tools::per_element());
    bsx::array<int, 2> j{{0xff, 0x0f}, {0x33, 0x01}};
    j &= bsx::array<int, 2>{{0x3c}, {0x11}};
    BOOST_TEST(std::vector<int>(j.begin(), j.end()) == (std::vector<int>{0x3c, 0x0c, 0x11, 0x01}),
               boost::test_tools::per_element());
    j |= bsx::array<int, 1>{0x100, 0x200};
    BOOST_TEST(std::vector<int>(j.begin(), j.end()) == (std::vector<int>{0x13c, 0x20c, 0x111, 0x201}),
               boost::test_tools::per_element());
    j ^= 0x101;
    BOOST_TEST(std::vector<int>(j.begin(), j.end()) == (std::vector<int>{0x03d, 0x30d, 0x010, 0x300}),
               boost::test_tools::per_element());
    bsx::array<bool, 1> b{true, true, false};
    b &= bsx::array<bool, 1>{true, false, true};
    BOOST_TEST(b(0) == true);
    BOOST_TEST(b(1) == false);
    BOOST_TEST(b(2) == false);
    b |= true;
    BOOST_TEST((b(0) && b(1) && b(2)));
    b ^= bsx::array<bool, 1>{false, true, false};
    BOOST_TEST(b(0) == true);
    BOOST_TEST(b(1) == false);
    BOOST_TEST(b(2) == true);
    // the result of a compound assignment is the destination
    bsx::array<double, 1> s{1, 2};
    (s += 1.0) *= 3.0;
    BOOST_TEST(s(0) == 6.0);
    BOOST_TEST(s(1) == 9.0);
}

BOOST_AUTO_TEST_CASE(iteration) {
    bsx::array<int, 2> a{{1, 2, 3}, {4, 5, 6}};
    std::vector<int> seen;
    for (int x : a) seen.push_back(x);
    BOOST_TEST(seen == (std::vector<int>{1, 2, 3, 4, 5, 6}), boost::test_tools::per_element());
    BOOST_TEST(std::accumulate(a.begin(), a.end(), 0) == 21);
    BOOST_TEST(a.end() - a.begin() == 6);
    for (auto& x : a) x *= 10;
    BOOST_TEST(a(1, 2) == 60);
    const auto& ca = a;
    BOOST_TEST(*(ca.begin() + 4) == 50);
    static_assert(std::is_const_v<std::remove_reference_t<decltype(*ca.begin())>>);
}

BOOST_AUTO_TEST_CASE(rank_0) {
    bsx::array<double, 0> s(2.5);
    static_assert(decltype(s)::rank == 0);
    BOOST_TEST(s() == 2.5);
    BOOST_TEST(s.size() == 1);
    BOOST_TEST(s.shape().size() == 0u);
    bsx::array<double, 0> d;  // no extents: one element
    BOOST_TEST(d.size() == 1);
    const auto e = s * 2.0 + 1.0;
    static_assert(decltype(e)::rank == 0);
    BOOST_TEST(e() == 6.0);
    const auto r = bsx::eval(e);
    static_assert(std::is_same_v<decltype(r), const bsx::array<double, 0>>);
    BOOST_TEST(r() == 6.0);
    bsx::array<double, 0> t = s + s;
    BOOST_TEST(t() == 5.0);
    t += 1.0;
    BOOST_TEST(t() == 6.0);
    t = s;
    BOOST_TEST(t() == 2.5);
    t = 4.0;
    BOOST_TEST(t() == 4.0);
    // a rank-0 array broadcasts like a scalar
    bsx::array<double, 2> m{{1, 2}, {3, 4}};
    expect_values(m * s, "(2,2)", {2.5, 5, 7.5, 10});
    m -= s;
    BOOST_TEST(m(1, 1) == 1.5);
    std::ostringstream os;
    os << bsx::array<int, 0>(7);
    BOOST_TEST(os.str() == "7");
}

BOOST_AUTO_TEST_CASE(rank_8) {
    auto flat = bsx::arange<double>(16);
    auto a = bsx::reshape<8>(flat, {2, 1, 2, 1, 2, 1, 2, 1});
    static_assert(decltype(a)::rank == 8);
    const bsx::array<double, 8> r = a + bsx::transpose(a) * 100.0;  // (2,1,...) with (1,2,...): 2^8 elements
    BOOST_TEST(fmt(r.shape()) == "(2,2,2,2,2,2,2,2)");
    BOOST_TEST(r.size() == 256);
    index_t k = 0;
    std::size_t bad = 0;
    for (int i0 = 0; i0 < 2; ++i0)
        for (int i1 = 0; i1 < 2; ++i1)
            for (int i2 = 0; i2 < 2; ++i2)
                for (int i3 = 0; i3 < 2; ++i3)
                    for (int i4 = 0; i4 < 2; ++i4)
                        for (int i5 = 0; i5 < 2; ++i5)
                            for (int i6 = 0; i6 < 2; ++i6)
                                for (int i7 = 0; i7 < 2; ++i7) {
                                    // a(i0,0,i2,0,i4,0,i6,0) + 100 * a(i7,0,i5,0,i3,0,i1,0)
                                    const double want =
                                        (8 * i0 + 4 * i2 + 2 * i4 + i6) + 100.0 * (8 * i7 + 4 * i5 + 2 * i3 + i1);
                                    bad += r(i0, i1, i2, i3, i4, i5, i6, i7) != want;
                                    bad += r.data()[k++] != want;
                                }
    BOOST_TEST(bad == 0u);
    bsx::array<int, 8> z = bsx::zeros<int>(1, 2, 1, 2, 1, 2, 1, 2);
    z += bsx::arange<int>(2);
    BOOST_TEST(z(0, 1, 0, 1, 0, 1, 0, 1) == 1);
    BOOST_TEST(z(0, 1, 0, 1, 0, 1, 0, 0) == 0);
    BOOST_TEST(std::accumulate(z.begin(), z.end(), 0) == 8);
}

BOOST_AUTO_TEST_CASE(expression_kept_in_auto_over_temporaries) {
    auto e = bsx::zeros<double>(3, 3) + 1.0;
    auto e2 = bsx::sqrt(bsx::full<double>(shape<1>{4}, 16.0)) * bsx::arange<double>(4);
    auto e3 = bsx::where(bsx::arange<int>(5) > 2, bsx::ones<double>(5), bsx::zeros<double>(5) - 1.0);
    // other allocations that would reuse freed memory
    std::vector<std::unique_ptr<std::vector<double>>> junk;
    for (int k = 0; k < 64; ++k) junk.push_back(std::make_unique<std::vector<double>>(9 + k % 5, -123.0));
    const auto r = bsx::eval(e);
    BOOST_TEST(fmt(r.shape()) == "(3,3)");
    BOOST_TEST(std::all_of(r.begin(), r.end(), [](double x) { return x == 1.0; }));
    expect_values(e2, "(4,)", {0, 4, 8, 12});
    expect_values(e3, "(5,)", {-1, -1, -1, 1, 1});
    BOOST_TEST(e(2, 2) == 1.0);
    // an expression returned from a function
    const auto make = [] { return bsx::ones<double>(2, 2) * 3.0 - bsx::arange<double>(2); };
    auto e4 = make();
    junk.clear();
    for (int k = 0; k < 64; ++k) junk.push_back(std::make_unique<std::vector<double>>(4, -1.0));
    expect_values(e4, "(2,2)", {3, 2, 3, 2});
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================== comparison (printing: test_print.cpp)
BOOST_AUTO_TEST_SUITE(utilities)

BOOST_AUTO_TEST_CASE(array_equal) {
    bsx::array<double, 2> a{{1, 2, 3}, {4, 5, 6}};
    bsx::array<double, 2> b{{1, 2, 3}, {4, 5, 6}};
    BOOST_TEST(bsx::array_equal(a, b));
    b(1, 1) = 5.5;
    BOOST_TEST(!bsx::array_equal(a, b));
    BOOST_TEST(!bsx::array_equal(a, bsx::array<double, 2>{{1, 2}, {4, 5}}));  // other shape
    BOOST_TEST(!bsx::array_equal(a, bsx::array<double, 1>{1, 2, 3}));         // other rank
    BOOST_TEST(!bsx::array_equal(bsx::array<double, 2>{{1, 2, 3}}, a));       // broadcastable, not equal
    BOOST_TEST(bsx::array_equal(a, bsx::arange<double>(3) + bsx::array<double, 2>{{1}, {4}}));  // expressions
    BOOST_TEST(bsx::array_equal(bsx::array<int, 1>{1, 2}, bsx::array<double, 1>{1.0, 2.0}));
    BOOST_TEST(!bsx::array_equal(bsx::array<double, 1>{qnan}, bsx::array<double, 1>{qnan}));  // NaN equals nothing
    BOOST_TEST(bsx::array_equal(bsx::array<double, 1>{-0.0}, bsx::array<double, 1>{0.0}));
    BOOST_TEST(bsx::array_equal(bsx::zeros<double>(0, 2), bsx::zeros<double>(0, 2)));
}

BOOST_AUTO_TEST_CASE(allclose) {
    bsx::array<double, 1> a{1.0, 100.0, 0.0};
    BOOST_TEST(bsx::allclose(a, a));
    BOOST_TEST(bsx::allclose(a, a + 1e-9));
    BOOST_TEST(!bsx::allclose(a, a + 1e-3));
    // |a - b| <= atol + rtol * |b|
    bsx::array<double, 1> x{100.0};
    bsx::array<double, 1> y{100.1};
    BOOST_TEST(bsx::allclose(x, y, 1e-3));   // 0.1 <= 1e-8 + 0.1001
    BOOST_TEST(!bsx::allclose(x, y, 1e-4));  // 0.1 >  1e-8 + 0.01001
    BOOST_TEST(bsx::allclose(x, y, 0.0, 0.2));
    BOOST_TEST(!bsx::allclose(x, y, 0.0, 0.05));
    bsx::array<double, 1> z{0.0};
    BOOST_TEST(bsx::allclose(z, bsx::array<double, 1>{1e-9}));  // default atol 1e-8
    BOOST_TEST(!bsx::allclose(z, bsx::array<double, 1>{1e-7}));
    BOOST_TEST(bsx::allclose(z, bsx::array<double, 1>{1e-7}, 1e-5, 1e-6));
    // default rtol 1e-5
    BOOST_TEST(bsx::allclose(bsx::array<double, 1>{1e6}, bsx::array<double, 1>{1e6 + 9}));
    BOOST_TEST(!bsx::allclose(bsx::array<double, 1>{1e6}, bsx::array<double, 1>{1e6 + 11}));
    // NaN is never close, infinities of the same sign are
    BOOST_TEST(!bsx::allclose(bsx::array<double, 1>{qnan}, bsx::array<double, 1>{qnan}));
    BOOST_TEST(!bsx::allclose(bsx::array<double, 1>{1.0, qnan}, bsx::array<double, 1>{1.0, 1.0}));
    BOOST_TEST(bsx::allclose(bsx::array<double, 1>{inf, -inf, 1}, bsx::array<double, 1>{inf, -inf, 1}));
    BOOST_TEST(!bsx::allclose(bsx::array<double, 1>{inf}, bsx::array<double, 1>{-inf}));
    BOOST_TEST(!bsx::allclose(bsx::array<double, 1>{inf}, bsx::array<double, 1>{1e308}));
    BOOST_TEST(!bsx::allclose(bsx::array<double, 1>{1.0}, bsx::array<double, 1>{inf}));
    BOOST_TEST(!bsx::allclose(bsx::array<double, 1>{-inf}, bsx::array<double, 1>{inf}));
    // broadcasting, as NumPy
    BOOST_TEST(bsx::allclose(bsx::array<double, 2>{{1, 1}, {1, 1}}, bsx::array<double, 1>{1, 1 + 1e-9}));
    BOOST_CHECK_THROW((void)bsx::allclose(bsx::zeros<double>(2, 3), bsx::zeros<double>(2)), bsx::broadcast_error);
}

BOOST_AUTO_TEST_SUITE_END()
