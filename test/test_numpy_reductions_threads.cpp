// The NumPy reductions of api.md section 10 (issue 31): integer axes and several axes for
// every reduction, index reductions (argmin, argmax, count_nonzero), statistics (var, std,
// the nan* family). Expected values come from plain loops written here, never from bsx;
// the operands' values make every sum exact in any order, so comparisons are exact. The
// file's name ends in _threads: CTest runs it at 1 and 2 threads, and the big cases loop
// over 1, 2 and 3 threads themselves.
#define BOOST_TEST_MODULE bsx_numpy_reductions
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include "test_support.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace test_support;
using bsx::index_t;

const double qnan = std::numeric_limits<double>::quiet_NaN();

/// A row-major array of `shape` reduced over the axes marked in `reduced` by `f`, which gets
/// each output's elements in row-major order of the reduced axes: the outputs in row-major
/// order of the kept axes.
template <class T, class F>
std::vector<double> reference(const std::vector<index_t>& shape, const std::vector<T>& v,
                              const std::vector<bool>& reduced, F f) {
    const std::size_t n = shape.size();
    std::size_t outputs = 1;
    for (std::size_t d = 0; d < n; ++d)
        if (!reduced[d]) outputs *= std::size_t(shape[d]);
    std::vector<std::vector<T>> slices(outputs);
    std::vector<index_t> idx(n, 0);
    for (std::size_t i = 0; i < v.size(); ++i) {
        std::size_t out = 0;
        for (std::size_t d = 0; d < n; ++d)
            if (!reduced[d]) out = out * std::size_t(shape[d]) + std::size_t(idx[d]);
        slices[out].push_back(v[i]);
        for (std::size_t d = n; d-- > 0;) {
            if (++idx[d] < shape[d]) break;
            idx[d] = 0;
        }
    }
    std::vector<double> result;
    for (const auto& s : slices) result.push_back(double(f(s)));
    return result;
}

/// The shape NumPy gives a reduction over `reduced`, with or without keepdims.
std::string reduced_shape(const std::vector<index_t>& shape, const std::vector<bool>& reduced, bool keep) {
    std::vector<index_t> out;
    for (std::size_t d = 0; d < shape.size(); ++d)
        if (!reduced[d])
            out.push_back(shape[d]);
        else if (keep)
            out.push_back(1);
    return fmt(out);
}

template <class T>
double ref_sum(const std::vector<T>& s) {
    double a = 0;
    for (T x : s) a += double(x);
    return a;
}
template <class T>
double ref_prod(const std::vector<T>& s) {
    double a = 1;
    for (T x : s) a *= double(x);
    return a;
}
template <class T>
double ref_mean(const std::vector<T>& s) {
    return s.empty() ? qnan : ref_sum(s) / double(s.size());
}
template <class T>
double ref_min(const std::vector<T>& s) {
    double a = double(s.at(0));
    for (T x : s) a = (std::isnan(a) || double(x) < a || std::isnan(double(x))) && !std::isnan(a) ? double(x) : a;
    return a;
}
template <class T>
double ref_max(const std::vector<T>& s) {
    double a = double(s.at(0));
    for (T x : s) a = (double(x) > a || std::isnan(double(x))) && !std::isnan(a) ? double(x) : a;
    return a;
}
template <class T>
double ref_all(const std::vector<T>& s) {
    for (T x : s)
        if (!(x != T(0))) return 0;
    return 1;
}
template <class T>
double ref_any(const std::vector<T>& s) {
    for (T x : s)
        if (x != T(0)) return 1;
    return 0;
}

/// An error of type Error whose text contains every one of `parts`.
template <class Error, class F>
void expect_error(F f, const std::vector<std::string>& parts) {
    bool thrown = false;
    try {
        f();
    } catch (const Error& e) {
        thrown = true;
        const std::string what = e.what();
        for (const auto& p : parts) BOOST_CHECK_MESSAGE(what.find(p) != std::string::npos, "'" << what << "' lacks '" << p << "'");
    }
    BOOST_CHECK_MESSAGE(thrown, "no exception of the expected type");
}

/// Rank-3 values: small integers and halves, so sums are exact; `nan` puts NaNs at a few places.
template <class T>
std::vector<T> values3(std::size_t n, bool nan = false) {
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        if constexpr (std::is_same_v<T, bool>)
            v[i] = (i * 7 + 3) % 5 < 3;
        else if constexpr (std::is_floating_point_v<T>)
            v[i] = T(double(int((i * 37 + 11) % 17) - 8) / 2);
        else
            v[i] = T(int((i * 37 + 11) % 17) - 8);
    }
    if constexpr (std::is_floating_point_v<T>)
        if (nan)
            for (std::size_t i = 5; i < n; i += 11) v[i] = T(qnan);
    return v;
}

// ================================================================== 1. axes

/// Reduction f over every set of axes of a (3,4,5) array of T, with and without keepdims:
/// one axis as a plain integer (when `plain`, else axis(k)) and as its negative, several as
/// axes(...) in any order and sign.
template <class T, bool plain = true, class F, class Ref>
void check_axes_of(F f, Ref ref, bool nan = false) {
    const std::vector<index_t> shape{3, 4, 5};
    const auto v = values3<T>(60, nan);
    const auto x = make_array<3, T>(shape, v);
    const auto one = [](index_t k) {
        if constexpr (plain)
            return k;
        else
            return bsx::axis(k);
    };
    for (index_t k = 0; k < 3; ++k) {
        const std::vector<bool> red{k == 0, k == 1, k == 2};
        BOOST_TEST_CONTEXT("axis " << k) {
            const auto want = reference(shape, v, red, ref);
            expect_values(f(x, one(k)), reduced_shape(shape, red, false), want);
            expect_values(f(x, one(k - 3)), reduced_shape(shape, red, false), want);
            expect_values(f(x, one(k - 3), bsx::keepdims), reduced_shape(shape, red, true), want);
            expect_values(f(x, bsx::axes(k)), reduced_shape(shape, red, false), want);
        }
    }
    for (index_t a = 0; a < 3; ++a)
        for (index_t b = a + 1; b < 3; ++b) {
            const std::vector<bool> red{a == 0 || b == 0, a == 1 || b == 1, a == 2 || b == 2};
            BOOST_TEST_CONTEXT("axes " << a << ", " << b) {
                const auto want = reference(shape, v, red, ref);
                expect_values(f(x, bsx::axes(a, b)), reduced_shape(shape, red, false), want);
                expect_values(f(x, bsx::axes(b - 3, a)), reduced_shape(shape, red, false), want);
                expect_values(f(x, bsx::axes(b, a - 3), bsx::keepdims), reduced_shape(shape, red, true), want);
                // One element on its own (reduce_node::element) gives the same value.
                const auto lazy = f(x, bsx::axes(a, b));
                BOOST_TEST(same_value(double(lazy(1)), want[1]));
            }
        }
    const std::vector<bool> all3{true, true, true};
    const auto want = reference(shape, v, all3, ref);
    expect_values(f(x, bsx::axes(2, 0, 1)), "()", want);
    expect_values(f(x, bsx::axes(0, -2, 2), bsx::keepdims), "(1,1,1)", want);
    BOOST_TEST(same_value(double(f(x)), want[0]));
}

#define BSX_REDUCTION(F) [](auto&&... a) { return bsx::F(a...); }

template <class T>
void check_every_reduction(bool nan) {
    check_axes_of<T>(BSX_REDUCTION(sum), ref_sum<T>, nan);
    check_axes_of<T>(BSX_REDUCTION(prod), ref_prod<T>, nan);
    check_axes_of<T>(BSX_REDUCTION(mean), ref_mean<T>, nan);
    check_axes_of<T>(BSX_REDUCTION(all), ref_all<T>, nan);
    check_axes_of<T>(BSX_REDUCTION(any), ref_any<T>, nan);
    check_axes_of<T, false>(BSX_REDUCTION(min), ref_min<T>, nan);
    check_axes_of<T, false>(BSX_REDUCTION(max), ref_max<T>, nan);
}

BOOST_AUTO_TEST_CASE(integer_axes_and_several_axes_double) { check_every_reduction<double>(false); }
BOOST_AUTO_TEST_CASE(integer_axes_and_several_axes_with_nan) { check_every_reduction<double>(true); }
BOOST_AUTO_TEST_CASE(integer_axes_and_several_axes_int) { check_every_reduction<int>(false); }
BOOST_AUTO_TEST_CASE(integer_axes_and_several_axes_bool) { check_every_reduction<bool>(false); }

BOOST_AUTO_TEST_CASE(integer_axis_types_and_result_types) {
    const auto x = make_array<2>(std::vector<index_t>{2, 3}, std::vector<double>{1, 2, 3, 4, 5, 6});
    expect_values(bsx::sum(x, 0), "(3,)", {5, 7, 9});
    expect_values(bsx::sum(x, std::size_t(1)), "(2,)", {6, 15});
    expect_values(bsx::sum(x, short(-1), bsx::keepdims), "(2,1)", {6, 15});
    expect_values(bsx::mean(x, std::int64_t(0)), "(3,)", {2.5, 3.5, 4.5});
    const auto i = make_array<2, int>(std::vector<index_t>{2, 3}, std::vector<int>{1, 2, 3, 4, 5, 6});
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::sum(i, bsx::axes(0, 1)))>, std::int64_t>);
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::mean(i, bsx::axes(0, 1)))>, double>);
    static_assert(bsx::rank_v<decltype(bsx::sum(i, bsx::axes(0, 1)))> == 0);
    static_assert(bsx::rank_v<decltype(bsx::sum(i, bsx::axes(0, 1), bsx::keepdims))> == 2);
    expect_values(bsx::mean(i, bsx::axes(1, 0)), "()", {3.5});
}

BOOST_AUTO_TEST_CASE(min_and_max_with_a_number_stay_element_wise) {
    const auto x = make_array<2>(std::vector<index_t>{2, 2}, std::vector<double>{-1, 2, -3, 4});
    expect_values(bsx::min(x, 0), "(2,2)", {-1, 0, -3, 0});
    expect_values(bsx::max(x, 1), "(2,2)", {1, 2, 1, 4});
    expect_values(bsx::min(x, bsx::axis(0)), "(2,)", {-3, 2});
    expect_values(bsx::max(x, bsx::axes(0, 1)), "()", {4});
}

BOOST_AUTO_TEST_CASE(several_axes_inside_a_larger_expression_and_views) {
    const std::vector<index_t> shape{3, 4, 5};
    const auto v = values3<double>(60);
    const auto x = make_array<3>(shape, v);
    const auto means = reference(shape, v, {true, false, true}, ref_mean<double>);
    std::vector<double> want(60);
    for (std::size_t i = 0; i < 60; ++i) want[i] = v[i] - means[(i / 5) % 4];
    expect_values(x - bsx::mean(x, bsx::axes(0, 2), bsx::keepdims), "(3,4,5)", want);
    // A lazy operand and a transposed view.
    std::vector<double> doubled(v);
    for (auto& d : doubled) d *= 2;
    expect_values(bsx::sum(x + x, bsx::axes(0, 2)), "(4,)", reference(shape, doubled, {true, false, true}, ref_sum<double>));
    const auto t = bsx::eval(bsx::transpose(x));  // shape (5,4,3)
    expect_values(bsx::sum(bsx::transpose(x), bsx::axes(0, 2)), "(4,)", reference(shape, v, {true, false, true}, ref_sum<double>));
    expect_values(bsx::sum(t, bsx::axes(1, 2)), "(5,)", reference(shape, v, {true, true, false}, ref_sum<double>));
    // Assigned straight into an array of its shape.
    bsx::array<double, 1> r(bsx::shape_t<1>{4});
    r = bsx::sum(x, bsx::axes(2, 0));
    expect_array(r, {4}, reference(shape, v, {true, false, true}, ref_sum<double>));
}

BOOST_AUTO_TEST_CASE(axis_errors_name_the_axis_and_rank) {
    const auto x = make_array<3>(std::vector<index_t>{2, 0, 3}, std::vector<double>{});
    expect_error<std::out_of_range>([&] { (void)bsx::sum(x, 3); }, {"sum", "axis 3", "rank 3", "(2,0,3)"});
    expect_error<std::out_of_range>([&] { (void)bsx::prod(x, -4, bsx::keepdims); }, {"prod", "axis -4", "rank 3"});
    expect_error<std::out_of_range>([&] { (void)bsx::mean(x, bsx::axes(0, 5)); }, {"mean", "axis 5", "rank 3"});
    expect_error<std::invalid_argument>([&] { (void)bsx::all(x, bsx::axes(0, -3)); },
                                        {"all", "axis -3", "twice", "rank 3"});
    expect_error<std::invalid_argument>([&] { (void)bsx::any(x, bsx::axes(1, 2, 1), bsx::keepdims); },
                                        {"any", "axis 1", "twice"});
    // An empty axis among several: min and max have no identity.
    expect_error<std::invalid_argument>([&] { (void)bsx::min(x, bsx::axes(0, 1)); }, {"min", "axis 1", "empty"});
    // sum of empty extents: 0, mean NaN.
    expect_values(bsx::sum(x, bsx::axes(0, 1)), "(3,)", {0, 0, 0});
    expect_values(bsx::mean(x, bsx::axes(1, 2), bsx::keepdims), "(2,1,1)", {qnan, qnan});
    // The destination is left as it was.
    auto r = bsx::full<double>(bsx::shape_t<1>{3}, 7.0);
    BOOST_CHECK_THROW(r = bsx::sum(x, bsx::axes(0, 0)), std::invalid_argument);
    expect_array(r, {3}, std::vector<double>{7, 7, 7});
}

BOOST_AUTO_TEST_CASE(several_axes_same_bits_at_any_thread_count) {
    // Large enough for the parallel paths; random values, so the order of the sum shows.
    const std::vector<index_t> shape{40, 30, 300};
    const auto v = random_values(360000, 31);
    const auto x = make_array<3>(shape, v);
    std::vector<double> first_02, first_12, first_01;
    double whole = 0;
    for_thread_counts([&] {
        const auto r02 = contents(bsx::eval(bsx::sum(x, bsx::axes(0, 2))));
        const auto r12 = contents(bsx::eval(bsx::mean(x, bsx::axes(-1, 1))));
        const auto r01 = contents(bsx::eval(bsx::sum(x, bsx::axes(0, 1))));
        const double w = bsx::sum(x, bsx::axes(0, 1, 2))();
        if (first_02.empty()) {
            first_02 = r02, first_12 = r12, first_01 = r01, whole = w;
            // Close to a plain loop, and the element path gives the same bits.
            expect_same_values(r02, reference(shape, v, {true, false, true}, ref_sum<double>), "sum 0,2", 1e-12);
            BOOST_TEST(same_bits(bsx::sum(x, bsx::axes(0, 2))(7), r02[7]));
            // All axes at once follow the whole reduction's tree.
            BOOST_TEST(same_bits(w, bsx::sum(x)));
        }
        for (std::size_t i = 0; i < r02.size(); ++i) BOOST_TEST(same_bits(r02[i], first_02[i]));
        for (std::size_t i = 0; i < r12.size(); ++i) BOOST_TEST(same_bits(r12[i], first_12[i]));
        for (std::size_t i = 0; i < r01.size(); ++i) BOOST_TEST(same_bits(r01[i], first_01[i]));
        BOOST_TEST(same_bits(w, whole));
    });
}

}  // namespace
