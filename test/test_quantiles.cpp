// bsx::quantile with several q at once (NumPy's np.quantile(x, [q...], axis)): a leading
// axis of one entry per q, each entry the same bits as the single-q quantile, checked against
// plain loops over sorted copies and NumPy's results written out (NumPy 1.24); and the
// operands NumPy takes for var, std and nanmean that bsx takes too (bools, integers).
#define BOOST_TEST_MODULE bsx_quantiles
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace test_support;
using bsx::index_t;

const double qnan = std::numeric_limits<double>::quiet_NaN();

/// The linear quantile q of s from a sorted copy, by the textbook formula (NaN if any is NaN).
double loop_quantile(std::vector<double> s, double q) {
    for (double v : s)
        if (std::isnan(v)) return qnan;
    std::sort(s.begin(), s.end());
    const double h = double(s.size() - 1) * q;
    const std::size_t lo = std::size_t(std::floor(h)), hi = std::min(lo + 1, s.size() - 1);
    return s[lo] + (s[hi] - s[lo]) * (h - double(lo));
}

/// A (rows, cols) array of values with repeats, so that ties meet the selection.
bsx::array<double, 2> table(index_t rows, index_t cols) {
    const auto v = random_values(std::size_t(rows * cols), 31, -5, 5);
    std::vector<double> rounded(v.size());
    std::transform(v.begin(), v.end(), rounded.begin(), [](double x) { return std::round(x * 4) / 4; });
    return make_array<2>(std::vector<index_t>{rows, cols}, rounded);
}

const std::vector<double> some_q{0.9, 0.0, 0.1, 0.5, 0.5, 1.0, 0.25, 0.73};

BOOST_AUTO_TEST_CASE(several_q_of_the_whole) {
    const auto x = table(7, 9);
    const auto qs = make_array<1>(std::vector<index_t>{index_t(some_q.size())}, some_q);
    const bsx::array<double, 1> r = bsx::quantile(x, qs);
    BOOST_TEST(r.shape()[0] == index_t(some_q.size()));
    const std::vector<double> all(x.begin(), x.end());
    for (std::size_t j = 0; j < some_q.size(); ++j) {
        BOOST_TEST_CONTEXT("q " << some_q[j]) {
            BOOST_TEST(same_bits(r(index_t(j)), bsx::quantile(x, some_q[j])));
            BOOST_TEST(std::abs(r(index_t(j)) - loop_quantile(all, some_q[j])) <= 1e-12);
        }
    }
    const auto listed = bsx::quantile(x * 2, {0.25, 0.75});  // a braced list, of an expression
    BOOST_TEST(same_bits(listed(0), bsx::quantile(x * 2, 0.25)));
    BOOST_TEST(same_bits(listed(1), bsx::quantile(x * 2, 0.75)));
    const auto one = bsx::quantile(x, {0.5});  // a list of one: an array, as np.quantile(x, [0.5])
    static_assert(std::is_same_v<decltype(one), const bsx::array<double, 1>>);
    BOOST_TEST(same_bits(one(0), bsx::median(x)));
}

BOOST_AUTO_TEST_CASE(several_q_along_axes) {
    const auto x = table(6, 11);
    const auto qs = make_array<1>(std::vector<index_t>{index_t(some_q.size())}, some_q);
    const bsx::array<double, 2> rows = bsx::quantile(x, qs, 1);
    const bsx::array<double, 2> cols = bsx::quantile(x, qs, bsx::axis(-2));
    const bsx::array<double, 3> kept = bsx::quantile(x, qs, 1, bsx::keepdims);
    BOOST_TEST(fmt(rows.shape()) == "(8,6)");
    BOOST_TEST(fmt(cols.shape()) == "(8,11)");
    BOOST_TEST(fmt(kept.shape()) == "(8,6,1)");
    for (std::size_t j = 0; j < some_q.size(); ++j) {
        BOOST_TEST_CONTEXT("q " << some_q[j]) {
            const bsx::array<double, 1> row_q = bsx::quantile(x, some_q[j], 1);
            const bsx::array<double, 1> col_q = bsx::quantile(x, some_q[j], 0);
            for (index_t i = 0; i < 6; ++i) {
                std::vector<double> line;
                for (index_t c = 0; c < 11; ++c) line.push_back(x(i, c));
                BOOST_TEST(same_bits(rows(index_t(j), i), row_q(i)));
                BOOST_TEST(same_bits(kept(index_t(j), i, 0), row_q(i)));
                BOOST_TEST(std::abs(rows(index_t(j), i) - loop_quantile(line, some_q[j])) <= 1e-12);
            }
            for (index_t c = 0; c < 11; ++c) BOOST_TEST(same_bits(cols(index_t(j), c), col_q(c)));
        }
    }
    // Several axes at once, of integers (the result in double, as NumPy's).
    const auto g = grid3(3, 4, 5);
    const auto n = bsx::eval(bsx::cast<int>(g * 10));
    const auto both = bsx::quantile(n, {0.1, 0.5, 0.9}, bsx::axes(0, 2));
    static_assert(std::is_same_v<decltype(both), const bsx::array<double, 2>>);
    BOOST_TEST(fmt(both.shape()) == "(3,4)");
    for (index_t k = 0; k < 4; ++k) {
        std::vector<double> slice;
        for (index_t i = 0; i < 3; ++i)
            for (index_t m = 0; m < 5; ++m) slice.push_back(n(i, k, m));
        for (index_t j = 0; j < 3; ++j)
            BOOST_TEST(std::abs(both(j, k) - loop_quantile(slice, 0.1 + 0.4 * double(j))) <= 1e-12);
    }
}

BOOST_AUTO_TEST_CASE(several_q_with_nan_and_empty) {
    // NumPy: np.quantile([[1, nan, 3], [4, 5, 6]], [0.1, 0.5, 0.9], axis=1)
    const auto x = make_array<2>(std::vector<index_t>{2, 3}, std::vector<double>{1, qnan, 3, 4, 5, 6});
    expect_array(bsx::quantile(x, {0.1, 0.5, 0.9}, 1), {3, 2}, std::vector<double>{qnan, 4.2, qnan, 5, qnan, 5.8},
                 1e-15);
    expect_array(bsx::quantile(x, {0.5, 1.0}), {2}, std::vector<double>{qnan, qnan});
    // NumPy: np.quantile(np.zeros((2, 0)), [0.1, 0.5], axis=0) has shape (2, 0); along axis 1 it raises.
    const auto e = make_array<2>(std::vector<index_t>{2, 0}, std::vector<double>{});
    expect_array(bsx::quantile(e, {0.1, 0.5}, 0), {2, 0}, std::vector<double>{});
    expect_throw<std::invalid_argument>([&] { (void)bsx::quantile(e, {0.1, 0.5}, 1); }, "no elements");
    expect_throw<std::invalid_argument>([&] { (void)bsx::quantile(e, {0.5}); }, "no elements");
    // No q at all: a leading axis of extent 0, as np.quantile(x, [], axis=1).
    expect_array(bsx::quantile(x, std::initializer_list<double>{}, 1), {0, 2}, std::vector<double>{});
}

BOOST_AUTO_TEST_CASE(several_q_errors_leave_the_destination) {
    const auto x = table(3, 4);
    bsx::array<double, 2> r = bsx::quantile(x, {0.2, 0.4}, 0);
    const std::vector<double> before(r.begin(), r.end());
    expect_throw<std::invalid_argument>([&] { r = bsx::quantile(x, {0.2, 1.5}, 0); }, "q[1] = 1.500000");
    expect_throw<std::invalid_argument>([&] { r = bsx::quantile(x, {-0.1, 0.5}, 0); }, "q[0] = -0.100000");
    expect_throw<std::invalid_argument>([&] { r = bsx::quantile(x, {0.5, qnan}, 0); }, "outside [0, 1]");
    const auto qs = make_array<1>(std::vector<index_t>{2}, std::vector<double>{0.5, 2.0});
    expect_throw<std::invalid_argument>([&] { r = bsx::quantile(x, qs, 0); }, "q[1] = 2.000000");
    expect_throw<std::out_of_range>([&] { r = bsx::quantile(x, {0.5}, 2); }, "axis 2");
    BOOST_TEST(std::vector<double>(r.begin(), r.end()) == before);
}

BOOST_AUTO_TEST_CASE(numpy_operands_of_var_std_nanmean) {
    // NumPy 1.24: np.var([True, False, True]) = 0.22222222222222224, np.std = 0.4714045207910317,
    // np.nanmean([1, 2, 4]) = 2.3333333333333335, np.median of the bools = 1.0.
    const auto b = make_array<1, bool>(std::vector<index_t>{3}, std::vector<bool>{true, false, true});
    const auto i = make_array<1, int>(std::vector<index_t>{3}, std::vector<int>{1, 2, 4});
    BOOST_TEST(double(bsx::var(b)) == 0.22222222222222224);
    BOOST_TEST(double(bsx::std(b)) == 0.4714045207910317);
    BOOST_TEST(double(bsx::median(b)) == 1.0);
    BOOST_TEST(double(bsx::nanmean(i)) == 2.3333333333333335);
    BOOST_TEST(double(bsx::quantile(i, 1)) == 4.0);  // an integer q, as NumPy takes
}

}  // namespace
