// cumsum, cumprod and diff (api.md section 10, "Scans"), checked against plain loops written
// here and NumPy's results written out (NumPy 1.24). Every scan above the parallel threshold
// runs at 1, 2 and 3 threads and must give the same bits; the file name registers it at
// OMP_NUM_THREADS 1 and 2 as well. cumsum's rounding error on 10^6 values is compared with a
// sequential double loop's, both measured against a long double sequential sum.
#define BOOST_TEST_MODULE bsx_scans
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
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

/// The running sums (products with `product`) of a row-major array of shape s along axis
/// k, computed by a sequential loop in double.
std::vector<double> running(const std::vector<double>& v, const std::vector<index_t>& s, std::size_t k, bool product) {
    index_t outer = 1, inner = 1;
    for (std::size_t d = 0; d < k; ++d) outer *= s[d];
    for (std::size_t d = k + 1; d < s.size(); ++d) inner *= s[d];
    std::vector<double> r = v;
    for (index_t o = 0; o < outer; ++o)
        for (index_t i = 1; i < s[k]; ++i)
            for (index_t c = 0; c < inner; ++c) {
                const auto at = std::size_t((o * s[k] + i) * inner + c), before = at - std::size_t(inner);
                r[at] = product ? r[before] * r[at] : r[before] + r[at];
            }
    return r;
}

/// Whether two arrays have the same shape and the same bits in every element.
template <class A>
bool same_array_bits(const A& a, const A& b) {
    return a.shape() == b.shape() &&
           (a.size() == 0 || std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(*a.data())) == 0);
}

/// f() at 1, 2 and 3 threads: the three results must be the same bits; returns the first.
template <class F>
auto same_at_every_thread_count(F&& f) {
    using R = decltype(bsx::eval(f()));
    std::vector<R> results;
    for_thread_counts([&] { results.push_back(bsx::eval(f())); });
    for (std::size_t i = 1; i < results.size(); ++i)
        BOOST_TEST(same_array_bits(results[i], results[0]), "threads " << i + 1 << " differ from 1 thread");
    return results.front();
}

// ---------------------------------------------------------------- small cases, exact
BOOST_AUTO_TEST_CASE(cumsum_and_cumprod_along_each_axis) {
    const std::vector<double> v{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24};
    const auto x = make_array<3>(bsx::shape_t<3>{2, 3, 4}, v);
    for (int k = 0; k < 3; ++k) {
        BOOST_TEST_CONTEXT("axis " << k) {
            expect_array(bsx::cumsum(x, k), x.shape(), running(v, {2, 3, 4}, std::size_t(k), false));
            expect_array(bsx::cumsum(x, bsx::axis(k - 3)), x.shape(), running(v, {2, 3, 4}, std::size_t(k), false));
            expect_array(bsx::cumprod(x, k), x.shape(), running(v, {2, 3, 4}, std::size_t(k), true));
        }
    }
    // np.cumsum([[1, 2], [3, 4]], axis=0) is [[1, 2], [4, 6]]; axis=1 is [[1, 3], [3, 7]].
    const auto m = make_array<2>(bsx::shape_t<2>{2, 2}, std::vector<double>{1, 2, 3, 4});
    expect_array(bsx::cumsum(m, 0), {2, 2}, std::vector<double>{1, 2, 4, 6});
    expect_array(bsx::cumsum(m, -1), {2, 2}, std::vector<double>{1, 3, 3, 7});
    // Without an axis: over the flattened operand, 1-D (np.cumsum(m) is [1, 3, 6, 10]).
    expect_array(bsx::cumsum(m), {4}, std::vector<double>{1, 3, 6, 10});
    expect_array(bsx::cumprod(m), {4}, std::vector<double>{1, 2, 6, 24});
    // A lazy operand and a transposed view.
    expect_array(bsx::cumsum(m * 2.0, 1), {2, 2}, std::vector<double>{2, 6, 6, 14});
    expect_array(bsx::cumsum(bsx::transpose(m), 1), {2, 2}, std::vector<double>{1, 4, 2, 6});
    expect_array(bsx::cumsum(bsx::transpose(m)), {4}, std::vector<double>{1, 4, 6, 10});
}

BOOST_AUTO_TEST_CASE(scans_propagate_nan_and_infinities) {
    const auto a = make_array<1>(bsx::shape_t<1>{3}, std::vector<double>{1, qnan, 2});
    expect_array(bsx::cumsum(a, 0), {3}, std::vector<double>{1, qnan, qnan});  // np.cumsum
    const auto b = make_array<1>(bsx::shape_t<1>{4}, std::vector<double>{2, inf, 0, 3});
    expect_array(bsx::cumprod(b, 0), {4}, std::vector<double>{2, inf, qnan, qnan});  // np.cumprod
    const auto c = make_array<1>(bsx::shape_t<1>{3}, std::vector<double>{inf, -inf, 1});
    expect_array(bsx::cumsum(c), {3}, std::vector<double>{inf, qnan, qnan});
}

BOOST_AUTO_TEST_CASE(scans_of_integers_and_bool_accumulate_in_int64) {
    const auto i8 = make_array<1, std::int8_t>(bsx::shape_t<1>{3}, std::vector<std::int8_t>{100, 100, -128});
    const auto s = bsx::cumsum(i8, 0);
    static_assert(std::is_same_v<bsx::value_type_t<decltype(s)>, std::int64_t>);
    expect_array(s, {3}, std::vector<double>{100, 200, 72});
    const auto b = make_array<1, bool>(bsx::shape_t<1>{4}, std::vector<bool>{true, true, false, true});
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::cumsum(b))>, std::int64_t>);
    expect_array(bsx::cumsum(b), {4}, std::vector<double>{1, 2, 2, 3});
    expect_array(bsx::cumprod(b, 0), {4}, std::vector<double>{1, 1, 0, 0});
    // int64 wraps, as NumPy's: 2^62 * 4 is 0.
    const auto big =
        make_array<1, std::int64_t>(bsx::shape_t<1>{3}, std::vector<std::int64_t>{std::int64_t(1) << 62, 4, 3});
    const auto p = bsx::cumprod(big, 0);
    BOOST_TEST(p(0) == std::int64_t(1) << 62);
    BOOST_TEST(p(1) == 0);
    BOOST_TEST(p(2) == 0);
    const auto q = bsx::cumsum(make_array<1, std::int64_t>(
        bsx::shape_t<1>{2}, std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::max(), 1}));
    BOOST_TEST(q(1) == std::numeric_limits<std::int64_t>::min());
    // float stays float.
    const auto f = make_array<1, float>(bsx::shape_t<1>{2}, std::vector<float>{0.5f, 0.25f});
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::cumsum(f, 0))>, float>);
    expect_array(bsx::cumsum(f, 0), {2}, std::vector<double>{0.5, 0.75});
}

BOOST_AUTO_TEST_CASE(scans_of_empty_extents_and_rank_0) {
    const auto e = bsx::zeros<double>(0, 3);
    BOOST_TEST(fmt(bsx::cumsum(e, 0).shape()) == "(0,3)");
    BOOST_TEST(fmt(bsx::cumsum(e, 1).shape()) == "(0,3)");
    BOOST_TEST(fmt(bsx::cumprod(e).shape()) == "(0,)");
    const auto f = bsx::zeros<double>(3, 0);
    BOOST_TEST(fmt(bsx::cumsum(f, 0).shape()) == "(3,0)");
    // np.cumsum of a 0-d array is 1-D with one element.
    const bsx::array<double, 0> z(2.5);
    expect_array(bsx::cumsum(z), {1}, std::vector<double>{2.5});
}

// ---------------------------------------------------------------- large cases, every thread count
BOOST_AUTO_TEST_CASE(large_scans_are_the_same_bits_at_any_thread_count) {
    // Along the last axis, longer than a block (several blocks per row, and rows of one block);
    // along others in one block, whose columns the threads split in strips of a row or whole
    // rows.
    struct case_t {
        std::vector<index_t> shape;
        std::size_t axis;
    };
    for (const case_t& c :
         {case_t{{2, 20011}, 1}, case_t{{3 * 4096 + 5, 3}, 0}, case_t{{5, 9000, 7}, 1}, case_t{{40000, 2}, 1},
          case_t{{3, 4, 5000}, 0}, case_t{{4200, 1030}, 0}, case_t{{2000, 37}, 0}, case_t{{4, 300, 9}, 1}}) {
        BOOST_TEST_CONTEXT("shape " << fmt(c.shape) << " axis " << c.axis) {
            index_t n = 1;
            for (index_t e : c.shape) n *= e;
            const auto v = random_values(std::size_t(n), 5, 0.5, 1.5);
            std::vector<double> want = running(v, c.shape, c.axis, false);
            bsx::array<double, 3> x3;
            bsx::array<double, 2> x2;
            if (c.shape.size() == 3)
                x3 = make_array<3>(c.shape, v);
            else
                x2 = make_array<2>(c.shape, v);
            const auto got = [&] {
                if (c.shape.size() == 3)
                    return contents(same_at_every_thread_count([&] { return bsx::cumsum(x3, c.axis); }));
                return contents(same_at_every_thread_count([&] { return bsx::cumsum(x2, c.axis); }));
            }();
            // Blocks change the order of the additions, not the sums beyond rounding.
            expect_same_values(got, want, "cumsum", 1e-12);
            if (c.shape.size() == 2 && c.shape[0] * c.shape[1] > 40000) {
                const auto p = same_at_every_thread_count([&] { return bsx::cumprod(x2 * 0.0 + 1.0, c.axis); });
                BOOST_TEST(std::all_of(p.begin(), p.end(), [](double y) { return y == 1.0; }));
            }
        }
    }
    // Integers are exact, whatever the blocks: the same values as a sequential loop.
    const index_t n = 100003;
    bsx::array<std::int32_t, 1> k(bsx::shape_t<1>{n});
    for (index_t i = 0; i < n; ++i) k(i) = std::int32_t(i % 1000 - 500);
    const auto s = same_at_every_thread_count([&] { return bsx::cumsum(k); });
    std::int64_t acc = 0;
    bool right = true;
    for (index_t i = 0; i < n; ++i) right &= s(i) == (acc += k(i));
    BOOST_TEST(right);
    const auto c = same_at_every_thread_count([&] { return bsx::cumprod(k * 0 + 3); });  // wraps many times
    std::uint64_t prod = 1;
    right = true;
    for (index_t i = 0; i < n; ++i) right &= std::uint64_t(c(i)) == (prod *= 3);
    BOOST_TEST(right);
}

// cumsum and cumprod are lazy nodes: written straight into a destination of their shape and
// type (also in place), else computed into a buffer first; either way the same bits.
BOOST_AUTO_TEST_CASE(scans_are_lazy_and_write_into_the_destination) {
    const std::vector<index_t> shape{3 * 4096 + 5, 3};
    const auto v = random_values(std::size_t(shape[0] * shape[1]), 7, 0.5, 1.5);
    const auto x = make_array<2>(shape, v);
    for (std::size_t k = 0; k < 2; ++k) {
        BOOST_TEST_CONTEXT("axis " << k) {
            const std::vector<double> want = running(v, shape, k, false);
            const auto fresh = same_at_every_thread_count([&] { return bsx::cumsum(x, k); });
            expect_same_values(contents(fresh), want, "cumsum", 1e-12);
            for_thread_counts([&] {
                bsx::array<double, 2> r = bsx::zeros<double>(shape[0], shape[1]);
                r = bsx::cumsum(x, k);  // into r
                BOOST_TEST(same_array_bits(r, fresh));
                bsx::array<double, 2> y = x;
                y = bsx::cumsum(y, k);  // in place
                BOOST_TEST(same_array_bits(y, fresh));
                r = bsx::cumsum(x, k) * 1.0;  // through a buffer
                BOOST_TEST(same_array_bits(r, fresh));
            });
        }
    }
    // An operand reading the destination elsewhere (a reversed view of it) goes through a buffer.
    bsx::array<double, 1> w{1, 2, 3, 4};
    w = bsx::cumsum(bsx::flip(w), 0);
    expect_array(w, {4}, std::vector<double>{4, 7, 9, 10});
    bsx::array<double, 1> u{1, 2, 3, 4};
    bsx::slice(u, bsx::range(1, 4)) = bsx::cumsum(bsx::slice(u, bsx::range(0, 3)), 0);  // shifted by one
    expect_array(u, {4}, std::vector<double>{1, 1, 3, 6});
    // Integers accumulate in int64, written straight into an int64 destination.
    const auto i32 = make_array<1, std::int32_t>(bsx::shape_t<1>{3}, {2147483647, 1, 1});
    bsx::array<std::int64_t, 1> wide({3});
    wide = bsx::cumsum(i32, 0);
    expect_array(wide, {3}, std::vector<double>{2147483647.0, 2147483648.0, 2147483649.0});
    // Lazy: the node reads its operand when it is evaluated, and element access walks the line.
    bsx::array<double, 2> m = make_array<2>(bsx::shape_t<2>{2, 3}, std::vector<double>{1, 2, 3, 4, 5, 6});
    const auto s = bsx::cumsum(m, 1);
    BOOST_TEST(s(1, 2) == 15.0);
    BOOST_TEST(bsx::cumprod(m)(4) == 120.0);
    m(1, 0) = 10;
    expect_array(s, {2, 3}, std::vector<double>{1, 3, 6, 10, 15, 21});
    m = bsx::zeros<double>(3, 3);
    expect_throw<std::logic_error>([&] { (void)bsx::eval(s); }, "bsx: cumsum: an operand was resized");
}

BOOST_AUTO_TEST_CASE(cumsum_error_is_no_worse_than_a_sequential_loop) {
    // 10^6 values, all positive (the sequential loop's worst case: its error grows with the
    // sum) and of both signs. The blocked scan's bound, (4096 + n / 4096 + 1) u sum|x|, is
    // below the sequential loop's (n - 1) u sum|x|; measured, its largest error over all
    // prefixes must not exceed the sequential loop's by more than a factor of 2.
    for (const double lo : {0.0, -1.0}) {
        BOOST_TEST_CONTEXT("values in [" << lo << ", 1)") {
            const std::size_t n = 1000000;
            const auto v = random_values(n, 42, lo, 1.0);
            const auto x = make_array<1>(bsx::shape_t<1>{index_t(n)}, v);
            const auto got = same_at_every_thread_count([&] { return bsx::cumsum(x, 0); });
            long double exact = 0, magnitude = 0;
            double sequential = 0, worst_scan = 0, worst_loop = 0;
            for (std::size_t i = 0; i < n; ++i) {
                exact += v[i];
                magnitude += std::abs(v[i]);
                sequential += v[i];
                worst_scan = std::max(worst_scan, double(std::abs(got(index_t(i)) - exact)));
                worst_loop = std::max(worst_loop, double(std::abs(sequential - exact)));
            }
            const double bound =
                (4096.0 + double(n) / 4096 + 1) * std::numeric_limits<double>::epsilon() / 2 * double(magnitude);
            BOOST_TEST_MESSAGE("largest error: blocked scan " << worst_scan << ", sequential loop " << worst_loop);
            BOOST_TEST(worst_scan <= 2 * worst_loop);
            BOOST_TEST(worst_scan <= bound);
        }
    }
}

// ---------------------------------------------------------------- diff
BOOST_AUTO_TEST_CASE(diff_follows_numpy) {
    const auto x = make_array<1>(bsx::shape_t<1>{5}, std::vector<double>{1, 4, 9, 16, 25});
    expect_array(bsx::diff(x), {4}, std::vector<double>{3, 5, 7, 9});
    expect_array(bsx::diff(x, 0, 2), {3}, std::vector<double>{2, 2, 2});
    expect_array(bsx::diff(x, -1, 3), {2}, std::vector<double>{0, 0});  // np.diff(x, n=3)
    expect_array(bsx::diff(x, 0, 0), {5}, std::vector<double>{1, 4, 9, 16, 25});
    expect_array(bsx::diff(x, 0, 5), {0}, std::vector<double>{});
    expect_array(bsx::diff(x, 0, 9), {0}, std::vector<double>{});
    // A view with a negative stride (x reversed).
    const auto reversed = bsx::slice(x, bsx::range(-1, -6, -1));
    expect_array(bsx::diff(reversed), {4}, std::vector<double>{-9, -7, -5, -3});
    expect_array(bsx::cumsum(reversed, 0), {5}, std::vector<double>{25, 41, 50, 54, 55});
    // 2-D along each axis, of a lazy operand and of a transposed view.
    const auto m = make_array<2>(bsx::shape_t<2>{2, 3}, std::vector<double>{1, 2, 4, 7, 11, 16});
    expect_array(bsx::diff(m), {2, 2}, std::vector<double>{1, 2, 4, 5});
    expect_array(bsx::diff(m, bsx::axis(0)), {1, 3}, std::vector<double>{6, 9, 12});
    expect_array(bsx::diff(m * 2.0, 1), {2, 2}, std::vector<double>{2, 4, 8, 10});
    expect_array(bsx::diff(bsx::transpose(m), 0), {2, 2}, std::vector<double>{1, 4, 2, 5});
    // NaN and infinities: inf - inf is NaN.
    const auto y = make_array<1>(bsx::shape_t<1>{4}, std::vector<double>{inf, inf, qnan, 1});
    expect_array(bsx::diff(y), {3}, std::vector<double>{qnan, qnan, qnan});
}

BOOST_AUTO_TEST_CASE(diff_keeps_the_element_type) {
    // np.diff(np.array([-128, 127, 0], np.int8)) is [-1, -127] (int8 wraps).
    const auto i8 = make_array<1, std::int8_t>(bsx::shape_t<1>{3}, std::vector<std::int8_t>{-128, 127, 0});
    const auto d = bsx::diff(i8);
    static_assert(std::is_same_v<bsx::value_type_t<decltype(d)>, std::int8_t>);
    expect_array(d, {2}, std::vector<double>{-1, -127});
    const auto u8 = make_array<1, std::uint8_t>(bsx::shape_t<1>{2}, std::vector<std::uint8_t>{5, 3});
    expect_array(bsx::diff(u8), {1}, std::vector<double>{254});
    // bool: not_equal, as NumPy ([True, True, False] gives [False, True]).
    const auto b = make_array<1, bool>(bsx::shape_t<1>{3}, std::vector<bool>{true, true, false});
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::diff(b))>, bool>);
    expect_array(bsx::diff(b), {2}, std::vector<double>{0, 1});
}

BOOST_AUTO_TEST_CASE(large_diff_is_the_same_bits_at_any_thread_count) {
    const auto v = random_values(200000, 9);
    const auto x = make_array<2>(bsx::shape_t<2>{400, 500}, v);
    for (std::size_t k = 0; k < 2; ++k) {
        const auto d = same_at_every_thread_count([&] { return bsx::diff(x, k, 2); });
        std::vector<double> want;
        for (index_t i = 0; i < 400 - 2 * index_t(k == 0); ++i)
            for (index_t j = 0; j < 500 - 2 * index_t(k == 1); ++j) {
                const index_t di = k == 0, dj = k == 1;
                const double a = x(i + di, j + dj) - x(i, j), b = x(i + 2 * di, j + 2 * dj) - x(i + di, j + dj);
                want.push_back(b - a);
            }
        expect_same_values(contents(d), want, "diff n=2 axis " + std::to_string(k));
    }
}

// ---------------------------------------------------------------- errors
BOOST_AUTO_TEST_CASE(errors_name_the_axis_and_shape_and_leave_the_destination_alone) {
    const auto x = make_array<2>(bsx::shape_t<2>{2, 3}, std::vector<double>{1, 2, 3, 4, 5, 6});
    auto r = bsx::eval(x);
    BOOST_TEST(message_of<std::out_of_range>([&] { r = bsx::cumsum(x, 2); }) ==
               "bsx: cumsum: axis 2 is out of range for an operand of rank 2 and shape (2,3) (axes -2 to 1)");
    BOOST_TEST(message_of<std::out_of_range>([&] { r = bsx::cumprod(x, bsx::axis(-3)); }) ==
               "bsx: cumprod: axis -3 is out of range for an operand of rank 2 and shape (2,3) (axes -2 to 1)");
    BOOST_TEST(message_of<std::out_of_range>([&] { r = bsx::diff(x, 5); }) ==
               "bsx: diff: axis 5 is out of range for an operand of rank 2 and shape (2,3) (axes -2 to 1)");
    BOOST_TEST(message_of<std::invalid_argument>([&] { r = bsx::diff(x, 1, -1); }) ==
               "bsx: diff: order n = -1 is negative (axis 1 of an operand of shape (2,3))");
    expect_array(r, {2, 3}, std::vector<double>{1, 2, 3, 4, 5, 6});
}

}  // namespace
