// NumPy's element-wise additions (api.md section 10): clip, rint, nan_to_num, isclose, and
// allclose/array_equal with a number on either side. Expected values are NumPy's (written
// out, from NumPy 1.24) or computed here by plain loops over <cmath>, never with bsx.
#define BOOST_TEST_MODULE bsx_elementwise_additions
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include "test_support.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace test_support;
using bsx::index_t;

constexpr double inf = std::numeric_limits<double>::infinity();
const double qnan = std::numeric_limits<double>::quiet_NaN();

/// The row-major elements of an expression, evaluated by the fused loop, and the same
/// elements one at a time through element(): both must equal `want`, bit for bit.
template <class E>
void expect_bits(const E& e, const std::vector<double>& want) {
    const auto r = bsx::eval(e);
    BOOST_TEST_REQUIRE(std::size_t(r.size()) == want.size());
    std::size_t i = 0;
    for (auto v : r) {
        BOOST_TEST((same_bits(double(v), want[i]) || (std::isnan(double(v)) && std::isnan(want[i]))),
                   "element " << i << ": got " << num(double(v)) << ", want " << num(want[i]));
        ++i;
    }
    if constexpr (bsx::rank_v<E> == 1)
        for (index_t k = 0; k < e.size(); ++k)
            BOOST_TEST((same_bits(double(e(k)), want[std::size_t(k)]) ||
                        (std::isnan(double(e(k))) && std::isnan(want[std::size_t(k)]))),
                       "element(" << k << ")");
}

// What the signatures refuse: an operand that is not a number or an expression, two
// numbers (nothing of bsx's to compute), and known extents that cannot broadcast.
struct not_a_number {};
template <class X, class Y>
concept isclose_compiles = requires(X x, Y y) { bsx::isclose(x, y); };
template <class X, class Y>
concept clip_compiles = requires(X x, Y y) { bsx::clip(x, y, 1.0); };
using vector_ref = bsx::array<double, 1>&;
using fixed3 = bsx::fixed_array<double, 3>&;
using fixed4 = bsx::fixed_array<double, 4>&;
static_assert(isclose_compiles<vector_ref, double> && isclose_compiles<double, vector_ref> &&
              isclose_compiles<fixed3, fixed3>);
static_assert(!isclose_compiles<vector_ref, not_a_number> && !isclose_compiles<double, double> &&
              !isclose_compiles<fixed3, fixed4>);
static_assert(clip_compiles<vector_ref, double> && !clip_compiles<vector_ref, not_a_number>);

// ---------------------------------------------------------------- rint and round
BOOST_AUTO_TEST_CASE(rint_rounds_halves_to_even_and_round_away_from_zero) {
    const auto x = make_array<1>(std::vector<index_t>{12}, std::vector<double>{-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -0.4,
                                                                               0.6, inf, -inf, qnan, 1e300});
    // np.rint(x)
    expect_bits(bsx::rint(x), {-2.0, -2.0, -0.0, 0.0, 2.0, 2.0, -0.0, 1.0, inf, -inf, qnan, 1e300});
    // bsx::round keeps C's rule (halves away from zero), unlike np.round.
    expect_bits(bsx::round(x), {-3.0, -2.0, -1.0, 1.0, 2.0, 3.0, -0.0, 1.0, inf, -inf, qnan, 1e300});
    // 2^52 - 0.5 is the largest double with a fraction; the next ones are integers already.
    const auto big = make_array<1>(std::vector<index_t>{3},
                                   std::vector<double>{4503599627370495.5, 4503599627370497.0, -4503599627370495.5});
    expect_bits(bsx::rint(big), {4503599627370496.0, 4503599627370497.0, -4503599627370496.0});
}

BOOST_AUTO_TEST_CASE(rint_element_types) {
    const auto f = make_array<1, float>(std::vector<index_t>{4}, std::vector<float>{0.5f, 1.5f, -2.5f, 8388607.5f});
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::rint(f))>, float>);
    expect_bits(bsx::rint(f), {0.0, 2.0, -2.0, 8388608.0});
    // Integers give double, as np.rint (and std::rint) do.
    const auto i = make_array<1, std::int32_t>(std::vector<index_t>{2}, std::vector<std::int32_t>{-7, 3});
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::rint(i))>, double>);
    expect_bits(bsx::rint(i), {-7.0, 3.0});
}

BOOST_AUTO_TEST_CASE(rint_of_a_large_array_matches_std_rint) {
    // Above the parallel threshold, at 1, 2 and 3 threads.
    const auto v = random_values(100003, 7, -1e6, 1e6);
    auto x = make_array<1>(std::vector<index_t>{index_t(v.size())}, v);
    for (std::size_t k = 0; k < v.size(); k += 3) x(index_t(k)) = std::floor(v[k]) + 0.5;  // halves
    std::vector<double> want(v.size());
    for (std::size_t k = 0; k < v.size(); ++k) want[k] = std::rint(x(index_t(k)));
    for_thread_counts([&] { expect_same_values(contents(bsx::eval(bsx::rint(x))), want, "rint"); });
}

// ---------------------------------------------------------------- clip
BOOST_AUTO_TEST_CASE(clip_with_numbers_propagates_nan) {
    const auto x = make_array<1>(std::vector<index_t>{5}, std::vector<double>{-3.0, 0.5, 2.0, qnan, 5.0});
    expect_bits(bsx::clip(x, 0.0, 1.0), {0.0, 0.5, 1.0, qnan, 1.0});  // np.clip(x, 0, 1)
    // lo > hi gives hi everywhere, as NumPy.
    expect_bits(bsx::clip(x, 3.0, 1.0), {1.0, 1.0, 1.0, qnan, 1.0});
    // A NaN bound gives NaN (np.clip([1, 2, 3], [0, nan, 5], 2) is [1, nan, 2]).
    const auto y = make_array<1>(std::vector<index_t>{3}, std::vector<double>{1.0, 2.0, 3.0});
    const auto lo = make_array<1>(std::vector<index_t>{3}, std::vector<double>{0.0, qnan, 5.0});
    expect_bits(bsx::clip(y, lo, 2.0), {1.0, qnan, 2.0});
    expect_bits(bsx::clip(y, 0.0, lo), {0.0, qnan, 3.0});
    // A tie gives the bound: np.clip(-0.0, 0.0, 1.0) is 0.0, np.clip(0.0, -1.0, -0.0) is -0.0
    // and np.clip(-0.0, -0.0, 0.0) is 0.0.
    const auto zeros = make_array<1>(std::vector<index_t>{2}, std::vector<double>{-0.0, 0.0});
    expect_bits(bsx::clip(zeros, 0.0, 1.0), {0.0, 0.0});
    expect_bits(bsx::clip(zeros, -1.0, -0.0), {-0.0, -0.0});
    expect_bits(bsx::clip(zeros, -0.0, 0.0), {0.0, 0.0});
}

BOOST_AUTO_TEST_CASE(clip_broadcasts_its_bounds) {
    // x (2,3), lo (3,), hi (2,1): the bounds broadcast against x, and x against them.
    const auto x = make_array<2>(bsx::shape_t<2>{2, 3}, std::vector<double>{-1, 5, 9, 0, 4, 8});
    const auto lo = make_array<1>(std::vector<index_t>{3}, std::vector<double>{0, 6, 1});
    const auto hi = make_array<2>(bsx::shape_t<2>{2, 1}, std::vector<double>{7, 3});
    expect_values(bsx::clip(x, lo, hi), "(2,3)", {0, 6, 7, 0, 3, 3});  // np.clip(x, lo, hi)
    // The bounds may make the result larger than x: x (3,) against lo (2,1) is (2,3).
    const auto lo2 = make_array<2>(bsx::shape_t<2>{2, 1}, std::vector<double>{0, 6});
    expect_values(bsx::clip(lo, lo2, 10.0), "(2,3)", {0, 6, 1, 6, 6, 6});
    // A lazy operand.
    expect_values(bsx::clip(x * 2.0, -1.0, 10.0), "(2,3)", {-1, 10, 10, 0, 8, 10});
}

BOOST_AUTO_TEST_CASE(clip_element_types) {
    const auto i = make_array<1, std::int32_t>(std::vector<index_t>{4}, std::vector<std::int32_t>{-5, 0, 7, 100});
    const auto ci = bsx::eval(bsx::clip(i, 0, 10));
    static_assert(std::is_same_v<bsx::value_type_t<decltype(ci)>, std::int32_t>);
    expect_array(ci, {4}, std::vector<int>{0, 0, 7, 10});
    // int8 with an unsigned bound compares by value (C++ alone would make -5 huge).
    const auto s8 = make_array<1, std::int8_t>(std::vector<index_t>{2}, std::vector<std::int8_t>{-5, 9});
    expect_values(bsx::clip(s8, std::uint32_t(0), std::uint32_t(4)), "(2,)", {0, 4});
    const auto f = make_array<1, float>(std::vector<index_t>{2}, std::vector<float>{-1.5f, 2.5f});
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::clip(f, 0.0f, 1.0f))>, float>);
    expect_values(bsx::clip(f, 0.0f, 1.0f), "(2,)", {0.0, 1.0});
    const auto b = make_array<1, bool>(std::vector<index_t>{2}, std::vector<bool>{false, true});
    expect_values(bsx::clip(b, true, true), "(2,)", {1, 1});
}

BOOST_AUTO_TEST_CASE(clip_of_a_large_array_matches_a_loop) {
    const auto v = random_values(70001, 11);
    const auto x = make_array<1>(std::vector<index_t>{index_t(v.size())}, v);
    std::vector<double> want(v.size());
    for (std::size_t k = 0; k < v.size(); ++k) want[k] = v[k] < -2.0 ? -2.0 : (v[k] > 3.0 ? 3.0 : v[k]);
    for_thread_counts([&] { expect_same_values(contents(bsx::eval(bsx::clip(x, -2.0, 3.0))), want, "clip"); });
}

BOOST_AUTO_TEST_CASE(clip_of_shapes_that_do_not_broadcast_throws) {
    const auto x = make_array<1>(std::vector<index_t>{3}, std::vector<double>{1, 2, 3});
    const auto lo = make_array<1>(std::vector<index_t>{2}, std::vector<double>{0, 0});
    BOOST_TEST(message_of<bsx::broadcast_error>([&] { (void)bsx::clip(x, lo, 1.0); }) ==
               "bsx: clip: shapes (3,), (2,) and () cannot be broadcast under numpy rules: axis 0 has extents 3 "
               "(operand 1, shape (3,)) and 2 (operand 2, shape (2,))");
}

// ---------------------------------------------------------------- nan_to_num
BOOST_AUTO_TEST_CASE(nan_to_num_defaults_and_values) {
    const auto x = make_array<1>(std::vector<index_t>{5}, std::vector<double>{qnan, inf, -inf, 1.5, -0.0});
    const double max = std::numeric_limits<double>::max();
    expect_bits(bsx::nan_to_num(x), {0.0, max, -max, 1.5, -0.0});
    expect_bits(bsx::nan_to_num(x, 7.0), {7.0, max, -max, 1.5, -0.0});
    expect_bits(bsx::nan_to_num(x, 7.0, 8.0), {7.0, 8.0, -max, 1.5, -0.0});
    expect_bits(bsx::nan_to_num(x, 7.0, 8.0, -9.0), {7.0, 8.0, -9.0, 1.5, -0.0});
    // float: the limits of float (np.nan_to_num of float32 gives +-3.4028235e+38).
    const auto f = make_array<1, float>(std::vector<index_t>{3}, std::vector<float>{-INFINITY, NAN, INFINITY});
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::nan_to_num(f))>, float>);
    const double fmax = std::numeric_limits<float>::max();
    expect_bits(bsx::nan_to_num(f), {-fmax, 0.0, fmax});
    // Of an expression, and above the parallel threshold.
    auto big = bsx::zeros<double>(50000);
    for (index_t k = 0; k < big.size(); k += 7) big(k) = qnan;
    for_thread_counts([&] {
        const auto r = bsx::eval(bsx::nan_to_num(big + 1.0, -1.0));
        bool right = true;
        for (index_t k = 0; k < r.size(); ++k) right &= r(k) == (k % 7 == 0 ? -1.0 : 1.0);
        BOOST_TEST(right);
    });
}

BOOST_AUTO_TEST_CASE(nan_to_num_leaves_integers_and_bool) {
    const auto i = make_array<1, std::int64_t>(std::vector<index_t>{3}, std::vector<std::int64_t>{-1, 0, 5});
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::nan_to_num(i))>, std::int64_t>);
    expect_values(bsx::nan_to_num(i, 4), "(3,)", {-1, 0, 5});
    const auto b = make_array<1, bool>(std::vector<index_t>{2}, std::vector<bool>{true, false});
    expect_values(bsx::nan_to_num(b), "(2,)", {1, 0});
}

// ---------------------------------------------------------------- isclose, allclose, array_equal
BOOST_AUTO_TEST_CASE(isclose_follows_numpy) {
    const auto a =
        make_array<1>(std::vector<index_t>{9}, std::vector<double>{1e10, 1e-7, 1.0, inf, inf, qnan, 0.0, 1e-9, -inf});
    const auto b = make_array<1>(std::vector<index_t>{9},
                                 std::vector<double>{1.00001e10, 1e-8, 1.0 + 1e-6, inf, -inf, qnan, 1e-8, 0.0, -inf});
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::isclose(a, b))>, bool>);
    expect_bits(bsx::isclose(a, b), {1, 0, 1, 1, 0, 0, 1, 1, 1});  // np.isclose(a, b)
    // An infinite tolerance does not make a finite value close to an infinity; inf * |0| is
    // NaN, so not even 1e-9 is close to 0 then (NumPy's formula gives the same).
    expect_bits(bsx::isclose(a, b, inf, inf), {1, 1, 1, 1, 0, 0, 1, 0, 1});
    expect_bits(bsx::isclose(a, b, 0.0, 0.0), {0, 0, 0, 1, 0, 0, 0, 0, 1});
    // Not symmetric: the tolerance scales with |b|.
    const auto one = make_array<1>(std::vector<index_t>{1}, std::vector<double>{1.0});
    expect_bits(bsx::isclose(one, 2.0, 0.5, 0.0), {1});
    expect_bits(bsx::isclose(2.0, one, 0.5, 0.0), {0});
}

BOOST_AUTO_TEST_CASE(isclose_broadcasts_and_takes_integers) {
    const auto a = make_array<2>(bsx::shape_t<2>{2, 1}, std::vector<double>{1.0, 2.0});
    const auto b = make_array<1>(std::vector<index_t>{3}, std::vector<double>{1.0, 2.0, 1.000001});
    expect_values(bsx::isclose(a, b), "(2,3)", {1, 0, 1, 0, 1, 0});
    // np.isclose(1.0, [1.0, inf, 1.0000100000001]) is [True, False, True].
    const auto c = make_array<1>(std::vector<index_t>{3}, std::vector<double>{1.0, inf, 1.0000100000001});
    expect_values(bsx::isclose(1.0, c), "(3,)", {1, 0, 1});
    // Integers compare as doubles: no integer overflow in a - b.
    const auto i = make_array<1, std::int64_t>(std::vector<index_t>{2},
                                               std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min(), 3});
    expect_values(bsx::isclose(i, std::numeric_limits<std::int64_t>::max()), "(2,)", {0, 0});
    expect_values(bsx::isclose(i, 3), "(2,)", {0, 1});
    const auto bad = make_array<1>(std::vector<index_t>{2}, std::vector<double>{1, 2});
    BOOST_TEST(message_of<bsx::broadcast_error>([&] { (void)bsx::isclose(b, bad); }) ==
               "bsx: isclose: shapes (3,) and (2,) cannot be broadcast under numpy rules: axis 0 has extents 3 and 2");
}

BOOST_AUTO_TEST_CASE(allclose_and_array_equal_take_a_number_on_either_side) {
    const auto x = make_array<2>(bsx::shape_t<2>{2, 2}, std::vector<double>{3, 3, 3, 3.00000001});
    BOOST_TEST(bsx::allclose(x, 3.0));
    BOOST_TEST(bsx::allclose(3, x));
    BOOST_TEST(!bsx::allclose(x, 3.1));
    BOOST_TEST(bsx::allclose(x, 3.1, 0.0, 0.2));
    BOOST_TEST(!bsx::array_equal(x, 3.0));
    BOOST_TEST(!bsx::array_equal(3.0, x));
    const auto y = make_array<1>(std::vector<index_t>{3}, std::vector<double>{2, 2, 2});
    BOOST_TEST(bsx::array_equal(y, 2));
    BOOST_TEST(bsx::array_equal(2.0, y));
    BOOST_TEST(!bsx::array_equal(y, 2.5));
    // NaN is close to nothing, itself included; infinities only to themselves.
    const auto n = make_array<1>(std::vector<index_t>{2}, std::vector<double>{qnan, 1.0});
    BOOST_TEST(!bsx::allclose(n, n));
    BOOST_TEST(!bsx::array_equal(n, n));
    const auto i = make_array<1>(std::vector<index_t>{2}, std::vector<double>{inf, inf});
    BOOST_TEST(bsx::allclose(i, inf));
    BOOST_TEST(!bsx::allclose(i, 1e308, inf));
    // Two arrays: shapes that differ are unequal, but must broadcast to be compared closely.
    BOOST_TEST(!bsx::array_equal(y, x));
    BOOST_TEST(message_of<bsx::broadcast_error>([&] { (void)bsx::allclose(y, x); }) != "");
    // An empty array: vacuously equal to any number.
    const auto e = bsx::zeros<double>(0);
    BOOST_TEST(bsx::array_equal(e, 1.0));
    BOOST_TEST(bsx::allclose(e, 1.0));
}

}  // namespace
