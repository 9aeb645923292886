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
        for (const auto& p : parts)
            BOOST_CHECK_MESSAGE(what.find(p) != std::string::npos, "'" << what << "' lacks '" << p << "'");
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
void check_axes_of(F f, Ref ref, bool nan = false, double tol = 0) {
    const auto expect_values = [tol](const auto& e, const std::string& shape, const std::vector<double>& want) {
        expect_flat(evaluated(e), shape, want, tol);
    };
    const auto same_value = [tol](double got, double want) {
        return test_support::same_value(got, want) || std::abs(got - want) <= tol * std::abs(want);
    };
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
    expect_values(bsx::sum(x + x, bsx::axes(0, 2)), "(4,)",
                  reference(shape, doubled, {true, false, true}, ref_sum<double>));
    const auto t = bsx::eval(bsx::transpose(x));  // shape (5,4,3)
    expect_values(bsx::sum(bsx::transpose(x), bsx::axes(0, 2)), "(4,)",
                  reference(shape, v, {true, false, true}, ref_sum<double>));
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

// ================================================================== 2. index reductions

/// The first index of the largest (Max) or smallest element of s, a NaN beating everything
/// (the first NaN wins); with skip_nan, NaNs are passed over (-1 when all are NaN).
template <bool Max, bool skip_nan = false, class T>
index_t ref_arg(const std::vector<T>& s) {
    index_t at = -1;
    for (std::size_t j = 0; j < s.size(); ++j) {
        const double v = double(s[j]);
        if (std::isnan(v)) {
            if (skip_nan) continue;
            return index_t(j);
        }
        if (at < 0 || (Max ? v > double(s[std::size_t(at)]) : v < double(s[std::size_t(at)]))) at = index_t(j);
    }
    return at;
}
template <class T>
index_t ref_count_nonzero(const std::vector<T>& s) {
    index_t n = 0;
    for (T x : s) n += x != T(0);
    return n;
}

template <class T>
void check_index_reductions(bool nan) {
    check_axes_of<T>(BSX_REDUCTION(argmax), ref_arg<true, false, T>, nan);
    check_axes_of<T>(BSX_REDUCTION(argmin), ref_arg<false, false, T>, nan);
    check_axes_of<T>(BSX_REDUCTION(count_nonzero), ref_count_nonzero<T>, nan);
}

BOOST_AUTO_TEST_CASE(argmin_argmax_count_nonzero_double) { check_index_reductions<double>(false); }
BOOST_AUTO_TEST_CASE(argmin_argmax_count_nonzero_with_nan) { check_index_reductions<double>(true); }
BOOST_AUTO_TEST_CASE(argmin_argmax_count_nonzero_int) { check_index_reductions<int>(false); }
BOOST_AUTO_TEST_CASE(argmin_argmax_count_nonzero_bool) { check_index_reductions<bool>(false); }

BOOST_AUTO_TEST_CASE(index_reductions_ties_nan_types_and_views) {
    const auto x =
        make_array<2>(std::vector<index_t>{3, 4}, std::vector<double>{1, 5, 5, 2, qnan, 3, 9, qnan, 0, -1, -1, 7});
    static_assert(std::is_same_v<decltype(bsx::argmax(x)), index_t>);
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::argmin(x, 0))>, index_t>);
    BOOST_TEST(bsx::argmax(x) == 4);  // the first NaN
    BOOST_TEST(bsx::argmin(x) == 4);
    expect_values(bsx::argmax(x, 1), "(3,)", {1, 0, 3});  // ties: the first
    expect_values(bsx::argmin(x, -1, bsx::keepdims), "(3,1)", {0, 0, 1});
    expect_values(bsx::argmax(x, bsx::axis(0)), "(4,)", {1, 0, 1, 1});
    BOOST_TEST(bsx::argmax(x, 1)(2) == 3);  // one element on its own
    // Lazy operands, views, and a reduction inside a larger expression.
    expect_values(bsx::argmin(-x, 1), "(3,)", {1, 0, 3});
    expect_values(bsx::argmax(bsx::transpose(x), 0), "(3,)", {1, 0, 3});
    expect_values(bsx::argmax(x, 1) * 10 + 1, "(3,)", {11, 1, 31});
    const auto plain = make_array<2>(std::vector<index_t>{2, 3}, std::vector<double>{-0.0, 0.0, -2, 3, 3, -4});
    BOOST_TEST(bsx::argmin(plain) == 5);
    BOOST_TEST(bsx::argmax(bsx::slice(plain, bsx::all, bsx::range(0, 2))) == 2);  // a strided view: 3 at (1,0)
    expect_values(bsx::count_nonzero(plain, 1), "(2,)", {1, 3});
    BOOST_TEST(bsx::count_nonzero(plain) == 4);
    // Assigned straight into an index array.
    bsx::array<index_t, 1> r(bsx::shape_t<1>{3});
    r = bsx::argmax(x, 1);
    expect_array(r, {3}, std::vector<double>{1, 0, 3});
}

BOOST_AUTO_TEST_CASE(index_reductions_errors) {
    const auto e = make_array<2>(std::vector<index_t>{0, 3}, std::vector<double>{});
    expect_error<std::invalid_argument>([&] { (void)bsx::argmax(e); }, {"argmax", "(0,3)", "no elements"});
    expect_error<std::invalid_argument>([&] { (void)bsx::argmin(e, 0); }, {"argmin", "axis 0", "empty"});
    expect_values(bsx::argmin(e, 1), "(0,)", {});
    expect_error<std::out_of_range>([&] { (void)bsx::argmax(e, 2); }, {"argmax", "axis 2", "rank 2"});
    BOOST_TEST(bsx::count_nonzero(e) == 0);
    expect_values(bsx::count_nonzero(e, 0), "(3,)", {0, 0, 0});
}

// Lines longer than the scan's blocks of 256: the extreme, its ties, NaNs and infinities in
// later blocks and in the tail, and lines whose extreme is the type's own limit.
BOOST_AUTO_TEST_CASE(index_reductions_along_long_lines) {
    const double inf = std::numeric_limits<double>::infinity();
    const auto check = [](const std::vector<double>& line) {
        const auto x = make_array<1>({index_t(line.size())}, line);
        BOOST_TEST(bsx::argmax(x) == ref_arg<true>(line));
        BOOST_TEST(bsx::argmin(x) == ref_arg<false>(line));
        if (ref_arg<true, true>(line) >= 0) {
            BOOST_TEST(bsx::nanargmax(x) == (ref_arg<true, true>(line)));
            BOOST_TEST(bsx::nanargmin(x) == (ref_arg<false, true>(line)));
        }
    };
    for (const index_t m : {1000, 1037}) {
        BOOST_TEST_CONTEXT("length " << m) {
            auto v = random_values(std::size_t(m), 11);
            for (auto& d : v) d = std::round(d / 8);  // ties within and across blocks
            check(v);
            v[700] = 1e9, v[900] = 1e9, v[3] = -1e9, v[600] = -1e9;  // in later blocks, tied
            check(v);
            v[std::size_t(m) - 1] = inf, v[std::size_t(m) - 2] = -inf;  // in the tail
            check(v);
            v[520] = qnan, v[800] = qnan;  // the first NaN wins; nan* forms skip both
            check(v);
            check(std::vector<double>(std::size_t(m), -inf));
            check(std::vector<double>(std::size_t(m), inf));
            std::vector<double> nans(std::size_t(m), qnan);
            nans[600] = -inf;
            check(nans);
            BOOST_TEST(bsx::nanargmax(make_array<1>({m}, nans)) == 600);
            const std::vector<index_t> shape{m};
            std::vector<double> lowest(std::size_t(m), static_cast<double>(std::numeric_limits<int>::min()));
            const auto ints = make_array<1>(shape, lowest);
            BOOST_TEST(bsx::argmax(bsx::cast<int>(ints)) == 0);
            BOOST_TEST(bsx::argmin(bsx::cast<int>(ints) + 0) == 0);
            lowest[900] = 0;
            BOOST_TEST(bsx::argmax(bsx::eval(bsx::cast<int>(make_array<1>(shape, lowest)))) == 900);
            BOOST_TEST(bsx::argmax(bsx::eval(make_array<1>(shape, lowest) > 1.0)) == 0);  // all false
        }
    }
}

BOOST_AUTO_TEST_CASE(index_reductions_same_result_at_any_thread_count) {
    // Many ties (values rounded to a few levels) and a few NaNs, along each axis.
    const std::vector<index_t> shape{50, 60, 70};
    auto v = random_values(210000, 7);
    for (auto& d : v) d = std::round(d / 4);
    for (std::size_t i = 1000; i < v.size(); i += 5003) v[i] = qnan;
    const auto x = make_array<3>(shape, v);
    for_thread_counts([&] {
        for (index_t k = 0; k < 3; ++k) {
            const std::vector<bool> red{k == 0, k == 1, k == 2};
            BOOST_TEST_CONTEXT("axis " << k) {
                expect_values(bsx::argmax(x, k), reduced_shape(shape, red, false),
                              reference(shape, v, red, ref_arg<true, false, double>));
                expect_values(bsx::argmin(x + 0.0, k), reduced_shape(shape, red, false),
                              reference(shape, v, red, ref_arg<false, false, double>));
            }
        }
        BOOST_TEST(bsx::argmax(x) == ref_arg<true>(v));
    });
}

// ================================================================== 3. statistics

/// The two-pass variance of s, as NumPy computes it (NaN in, NaN out).
template <class T>
double ref_var(const std::vector<T>& s, index_t ddof) {
    const double m = ref_sum(s) / double(s.size());
    double ss = 0;
    for (T x : s) ss += (double(x) - m) * (double(x) - m);
    return ss / double(std::max<index_t>(index_t(s.size()) - ddof, 0));
}
template <class T>
std::vector<T> without_nan(const std::vector<T>& s) {
    std::vector<T> out;
    for (T x : s)
        if (!std::isnan(double(x))) out.push_back(x);
    return out;
}
const double tolerance = 1e-13;  // pairwise and plain sums of 60 values of a few ulps each

template <class T>
void check_statistics(bool nan) {
    check_axes_of<T>(
        BSX_REDUCTION(var), [](const std::vector<T>& s) { return ref_var(s, 0); }, nan, tolerance);
    check_axes_of<T>([](auto&&... a) { return bsx::var(a..., bsx::ddof(1)); },
                     [](const std::vector<T>& s) { return ref_var(s, 1); }, nan, tolerance);
    check_axes_of<T>([](auto&&... a) { return bsx::std(a..., bsx::ddof(2)); },
                     [](const std::vector<T>& s) { return std::sqrt(ref_var(s, 2)); }, nan, tolerance);
    check_axes_of<T>(
        BSX_REDUCTION(std), [](const std::vector<T>& s) { return std::sqrt(ref_var(s, 0)); }, nan, tolerance);
    check_axes_of<T>(
        BSX_REDUCTION(nansum), [](const std::vector<T>& s) { return ref_sum(without_nan(s)); }, nan);
    check_axes_of<T>(
        BSX_REDUCTION(nanmean), [](const std::vector<T>& s) { return ref_mean(without_nan(s)); }, nan, tolerance);
    check_axes_of<T>(
        BSX_REDUCTION(nanmin), [](const std::vector<T>& s) { return ref_min(without_nan(s)); }, nan);
    check_axes_of<T>(
        BSX_REDUCTION(nanmax), [](const std::vector<T>& s) { return ref_max(without_nan(s)); }, nan);
    check_axes_of<T>(BSX_REDUCTION(nanargmin), ref_arg<false, true, T>, nan);
    check_axes_of<T>(BSX_REDUCTION(nanargmax), ref_arg<true, true, T>, nan);
}

BOOST_AUTO_TEST_CASE(statistics_double) { check_statistics<double>(false); }
BOOST_AUTO_TEST_CASE(statistics_with_nan) { check_statistics<double>(true); }
BOOST_AUTO_TEST_CASE(statistics_int) { check_statistics<int>(false); }
BOOST_AUTO_TEST_CASE(statistics_bool) { check_statistics<bool>(false); }

BOOST_AUTO_TEST_CASE(statistics_types_ddof_and_all_nan_slices) {
    const auto i = make_array<1, int>(std::vector<index_t>{4}, std::vector<int>{1, 2, 3, 4});
    static_assert(std::is_same_v<decltype(bsx::var(i)), double>);
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::std(i, 0))>, double>);
    const auto f = make_array<1, float>(std::vector<index_t>{4}, std::vector<float>{1, 2, 3, 4});
    static_assert(std::is_same_v<decltype(bsx::var(f)), float>);
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::nanmean(f, 0))>, float>);
    BOOST_TEST(bsx::var(i) == 1.25);
    // A ddof far below 0 divides by n - ddof without overflow (in floating point).
    const index_t low = std::numeric_limits<index_t>::min();
    BOOST_TEST(bsx::var(i, bsx::ddof(low)) == 5.0 / (4.0 - double(low)));
    BOOST_TEST(bsx::var(f, bsx::ddof(1)) == 5.0f / 3.0f);
    BOOST_TEST(bsx::std(i + 0, 0, bsx::keepdims)(0) == std::sqrt(1.25));
    // n <= ddof divides by 0, as NumPy: inf, or NaN for no spread.
    const auto two = make_array<2>(std::vector<index_t>{2, 2}, std::vector<double>{1, 2, 3, 3});
    expect_values(bsx::var(two, 1, bsx::ddof(2)), "(2,)", {std::numeric_limits<double>::infinity(), qnan});
    // Inside a larger expression: standardised columns.
    const auto x = make_array<2>(std::vector<index_t>{3, 2}, std::vector<double>{1, 10, 2, 20, 3, 60});
    const double s1 = std::sqrt(700.0);  // column 1: deviations -20, -10, 30
    expect_flat(evaluated((x - bsx::mean(x, 0, bsx::keepdims)) / bsx::std(x, 0, bsx::keepdims, bsx::ddof(1))), "(3,2)",
                {-1, -20 / s1, 0, -10 / s1, 1, 30 / s1}, 1e-15);
    // All-NaN slices: nansum 0, nanmean and nanmin/nanmax NaN, nanargmin/nanargmax throw
    // and leave the destination as it was.
    const auto a = make_array<2>(std::vector<index_t>{2, 3}, std::vector<double>{qnan, qnan, qnan, 1, qnan, -1});
    expect_values(bsx::nansum(a, 1), "(2,)", {0, 0});
    expect_values(bsx::nanmean(a, -1), "(2,)", {qnan, 0});
    expect_values(bsx::nanmin(a, 1), "(2,)", {qnan, -1});
    expect_values(bsx::nanmax(a, 1, bsx::keepdims), "(2,1)", {qnan, 1});
    const auto b = make_array<2>(std::vector<index_t>{2, 3}, std::vector<double>{qnan, 2, 0, 1, qnan, -1});
    expect_values(bsx::nanargmin(b, 0), "(3,)", {1, 0, 1});
    expect_values(bsx::nanargmax(b, -1, bsx::keepdims), "(2,1)", {1, 0});
    BOOST_TEST(bsx::nanargmax(a) == 3);
    BOOST_TEST(std::isnan(bsx::nanmin(bsx::slice(a, 0))));
    expect_error<std::invalid_argument>([&] { (void)bsx::nanargmin(bsx::slice(a, 0)); }, {"nanargmin", "all-NaN"});
    auto r = bsx::full<index_t>(bsx::shape_t<1>{2}, 7);
    expect_error<std::invalid_argument>([&] { r = bsx::nanargmax(a, 1); }, {"nanargmax", "all-NaN"});
    expect_array(r, {2}, std::vector<double>{7, 7});
    // Errors name the function.
    expect_error<std::out_of_range>([&] { (void)bsx::var(a, 2); }, {"var", "axis 2", "rank 2"});
    expect_error<std::out_of_range>([&] { (void)bsx::std(a, bsx::axes(0, -3)); }, {"std", "axis -3", "rank 2"});
    expect_error<std::invalid_argument>([&] { (void)bsx::nanmin(bsx::slice(a, bsx::range(0, 0)), 0); },
                                        {"nanmin", "empty"});
}

BOOST_AUTO_TEST_CASE(statistics_same_bits_at_any_thread_count) {
    const std::vector<index_t> shape{40, 50, 200};
    auto v = random_values(400000, 11, 1e3, 1e3 + 1);  // a large mean: the two passes matter
    for (std::size_t i = 77; i < v.size(); i += 1009) v[i] = qnan;
    const auto x = make_array<3>(shape, v);
    std::vector<std::vector<double>> first;
    for_thread_counts([&] {
        std::vector<std::vector<double>> got;
        for (index_t k = 0; k < 3; ++k) {
            got.push_back(contents(bsx::eval(bsx::var(x, k, bsx::ddof(1)))));
            got.push_back(contents(bsx::eval(bsx::nanmean(x, k))));
            got.push_back(contents(bsx::eval(bsx::nanargmax(x, k))));
        }
        got.push_back({bsx::nanmean(x), bsx::std(x + 0.0), double(bsx::nanargmin(x))});
        if (first.empty()) {
            first = got;
            const std::vector<bool> red{false, true, false};
            expect_same_values(got[3],
                               reference(shape, v, red, [](const std::vector<double>& s) { return ref_var(s, 1); }),
                               "var along 1", 1e-9);
            expect_same_values(
                got[4], reference(shape, v, red, [](const std::vector<double>& s) { return ref_mean(without_nan(s)); }),
                "nanmean along 1", 1e-13);
            expect_same_values(got[5], reference(shape, v, red, ref_arg<true, true, double>), "nanargmax along 1");
        }
        for (std::size_t c = 0; c < got.size(); ++c)
            for (std::size_t i = 0; i < got[c].size(); ++i) BOOST_TEST(same_bits(got[c][i], first[c][i]));
    });
}

/// Whether two results hold the same bits, element for element (NaN included).
bool identical(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!same_bits(a[i], b[i])) return false;
    return true;
}

BOOST_AUTO_TEST_CASE(statistics_of_arrays_by_slabs_equal_the_lazy_formula) {
    // var and std of an array or view are computed slab by slab of the first axis; x + 0.0
    // (not memory) takes the lazy formula over the whole operand. Several slabs, the last
    // one short, along every axis, through views and inside a larger expression: the same
    // bits at every thread count.
    const std::vector<index_t> shape{700, 3, 400};  // 6.7 MB of doubles: four slabs
    auto v = random_values(700 * 3 * 400, 5, 1e3, 1e3 + 1);
    for (std::size_t i = 901; i < v.size(); i += 7919) v[i] = qnan;
    const auto x = make_array<3>(shape, v);
    const auto t = bsx::permute(x, {1, 0, 2});  // slabs of a view whose first stride is not the largest
    const auto back = bsx::flip(x, 0);          // and of one with a negative stride
    static_assert(!std::is_same_v<decltype(bsx::var(x, 1)), decltype(bsx::var(x + 0.0, 1))>,
                  "an array's var is the slab node, not the lazy formula");
    const auto same_results = [](const auto& a, const auto& b) {
        return identical(contents(bsx::eval(a)), contents(bsx::eval(b)));
    };
    for_thread_counts([&] {
        for (index_t k : {1, 2, -1}) {
            BOOST_TEST(same_results(bsx::var(x, k), bsx::var(x + 0.0, k)));
            BOOST_TEST(same_results(bsx::std(back, k, bsx::keepdims, bsx::ddof(1)),
                                    bsx::std(back + 0.0, k, bsx::keepdims, bsx::ddof(1))));
        }
        BOOST_TEST(same_results(bsx::var(x, bsx::axes(1, 2)), bsx::var(x + 0.0, bsx::axes(1, 2))));
        BOOST_TEST(same_results(bsx::std(t, 2), bsx::std(t + 0.0, 2)));
        BOOST_TEST(same_results(bsx::var(x, 0), bsx::var(x + 0.0, 0)));
        // Inside a larger expression the node is computed into a buffer first.
        BOOST_TEST(same_results((x - bsx::mean(x, 2, bsx::keepdims)) / bsx::std(x, 2, bsx::keepdims),
                                (x - bsx::mean(x, 2, bsx::keepdims)) / bsx::std(x + 0.0, 2, bsx::keepdims)));
        // One element asked for alone.
        BOOST_TEST(same_bits(bsx::std(x, 2)(3, 1), bsx::eval(bsx::std(x + 0.0, 2))(3, 1)));
    });
    // The values themselves: NumPy's two passes, row by row.
    const auto f = make_array<2, float>(std::vector<index_t>{3000, 200}, [] {
        std::vector<float> w;
        for (const double d : random_values(3000 * 200, 9, -3, 3)) w.push_back(float(d));
        return w;
    }());
    const auto vf = bsx::eval(bsx::var(f, 1));
    for (const index_t i : {index_t(0), index_t(1234), index_t(2999)}) {
        std::vector<float> row;
        for (index_t j = 0; j < 200; ++j) row.push_back(f(i, j));
        BOOST_TEST(double(vf(i)) == ref_var(row, 0), boost::test_tools::tolerance(1e-5));
    }
    // An array resized after the node was built: an error, the destination unchanged.
    auto y = make_array<2>(std::vector<index_t>{2, 3}, std::vector<double>{1, 2, 3, 4, 5, 9});
    const auto s = bsx::std(y, 1);
    y = bsx::zeros<double>(3, 3);
    auto out = bsx::full<double>(bsx::shape_t<1>{2}, 7.0);
    expect_error<std::logic_error>([&] { out = s; }, {"std", "resized"});
    expect_array(out, {2}, std::vector<double>{7, 7});
}

BOOST_AUTO_TEST_CASE(statistics_of_contiguous_runs_equal_the_lazy_formula) {
    // Where the reduced axes are an array's last and contiguous, and there are many outputs,
    // var and std reduce each output's run alone: the runs here are one element, shorter
    // than a chunk, several chunks and several blocks of the tree long, in doubles and
    // floats, with NaNs, below and above the outputs that path needs: the formula's bits.
    const auto same_results = [](const auto& a, const auto& b) {
        return identical(contents(bsx::eval(a)), contents(bsx::eval(b)));
    };
    for (const auto& size :
         std::vector<std::pair<index_t, index_t>>{{300, 1}, {200, 7}, {64, 257}, {63, 257}, {80, 2048}, {70, 5001}}) {
        const index_t rows = size.first, run = size.second;  // (clang 14 captures no bindings)
        auto v = random_values(std::size_t(rows * run), 11, -1e3, 1e3 + 7);
        for (std::size_t i = 13; i < v.size(); i += 4999) v[i] = qnan;
        const auto x = make_array<2>(std::vector<index_t>{rows, run}, v);
        std::vector<float> w(v.begin(), v.end());
        const auto f = make_array<3, float>(std::vector<index_t>{rows, 1, run}, w);
        for_thread_counts([&] {
            BOOST_TEST(same_results(bsx::var(x, 1), bsx::var(x + 0.0, 1)), rows << " x " << run);
            BOOST_TEST(same_results(bsx::std(x, -1, bsx::keepdims, bsx::ddof(1)),
                                    bsx::std(x + 0.0, -1, bsx::keepdims, bsx::ddof(1))));
            BOOST_TEST(same_results(bsx::std(f, bsx::axes(2, 1)), bsx::std(f + 0.0f, bsx::axes(2, 1))));
            BOOST_TEST(same_results(bsx::var(bsx::flip(f, 0), 2, bsx::ddof(run)),
                                    bsx::var(bsx::flip(f, 0) + 0.0f, 2, bsx::ddof(run))));
        });
    }
    // Runs that are not contiguous (every other column) take the slab path: the same bits.
    const auto x = make_array<2>(std::vector<index_t>{100, 600}, random_values(60000, 12, 0, 1));
    const auto odd = bsx::slice(x, bsx::all, bsx::range(1, 600, 2));
    BOOST_TEST(same_results(bsx::std(odd, 1), bsx::std(odd + 0.0, 1)));
}

/// all and any of elements wider than a byte, along rows and whole: one element (zero for
/// all, nonzero for any) at each telling position of rows from 1 to 5000 long decides.
template <class T>
void check_all_any_deciding_element() {
    for (const index_t len : {1, 7, 31, 32, 33, 64, 255, 256, 257, 1000, 5000}) {
        for (const index_t pos : {index_t(0), len / 2, len - 1}) {
            BOOST_TEST_CONTEXT("length " << len << ", deciding element at " << pos) {
                std::vector<T> ones(std::size_t(3 * len), T(1)), zeros(std::size_t(3 * len), T(0));
                ones[std::size_t(len + pos)] = T(0);
                zeros[std::size_t(len + pos)] = T(3);
                const auto x = make_array<2>(std::vector<index_t>{3, len}, ones);
                const auto y = make_array<2>(std::vector<index_t>{3, len}, zeros);
                expect_array(bsx::all(x, 1), {3}, std::vector<bool>{true, false, true});
                expect_array(bsx::any(y, 1), {3}, std::vector<bool>{false, true, false});
                BOOST_TEST(!bsx::all(x));
                BOOST_TEST(bsx::any(y));
                BOOST_TEST(bsx::all(bsx::slice(x, 0)));
                BOOST_TEST(!bsx::any(bsx::slice(y, 2)));
            }
        }
    }
    // Far into a long array (many blocks), and at its very end.
    std::vector<T> ones(1000003, T(1));
    ones.back() = T(0);
    BOOST_TEST(!bsx::all(make_array<1>(std::vector<index_t>{1000003}, ones)));
    ones.back() = T(1);
    BOOST_TEST(bsx::all(make_array<1>(std::vector<index_t>{1000003}, ones)));
}

BOOST_AUTO_TEST_CASE(all_and_any_of_wide_elements_find_the_deciding_element) {
    check_all_any_deciding_element<std::int16_t>();
    check_all_any_deciding_element<std::int32_t>();
    check_all_any_deciding_element<std::int64_t>();
    check_all_any_deciding_element<float>();
    check_all_any_deciding_element<double>();
    // As bool: -0 is false, NaN true.
    const auto z = make_array<2>(std::vector<index_t>{2, 100}, std::vector<double>(200, -0.0));
    BOOST_TEST(!bsx::any(z));
    const auto n = make_array<2>(std::vector<index_t>{2, 100}, std::vector<double>(200, qnan));
    BOOST_TEST(bsx::all(n));
}

// ================================================================== median and quantile

/// NumPy's median and linear quantile of s, from a sorted copy: NaN if any is NaN.
template <class T>
double ref_quantile(const std::vector<T>& s, double q, bool median) {
    std::vector<double> v(s.begin(), s.end());
    for (double x : v)
        if (std::isnan(x)) return qnan;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    if (median) return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    const double h = double(n - 1) * q;
    const std::size_t lo = std::min(std::size_t(std::floor(h)), n - 1), hi = std::min(lo + 1, n - 1);
    const double t = h - double(lo), d = v[hi] - v[lo];
    return t >= 0.5 ? v[hi] - d * (1 - t) : v[lo] + d * t;
}

template <class T>
void check_median_quantile(bool nan) {
    check_axes_of<T>(
        BSX_REDUCTION(median), [](const std::vector<T>& s) { return ref_quantile(s, 0.5, true); }, nan);
    if constexpr (!std::is_same_v<T, bool>)  // NumPy's quantile refuses bools, and bsx's too
        for (double q : {0.0, 0.1, 0.25, 0.5, 0.7, 0.9, 1.0}) {
            BOOST_TEST_CONTEXT("q " << q) {
                check_axes_of<T>([q](const auto& x, auto... a) { return bsx::quantile(x, q, a...); },
                                 [q](const std::vector<T>& s) { return ref_quantile(s, q, false); }, nan);
            }
        }
}

BOOST_AUTO_TEST_CASE(median_and_quantile_double) { check_median_quantile<double>(false); }
BOOST_AUTO_TEST_CASE(median_and_quantile_with_nan) { check_median_quantile<double>(true); }
BOOST_AUTO_TEST_CASE(median_and_quantile_int) { check_median_quantile<int>(false); }
BOOST_AUTO_TEST_CASE(median_of_bool) { check_median_quantile<bool>(false); }

BOOST_AUTO_TEST_CASE(median_and_quantile_types_and_errors) {
    const auto i = make_array<1, int>(std::vector<index_t>{4}, std::vector<int>{4, 1, 3, 2});
    static_assert(std::is_same_v<decltype(bsx::median(i)), double>);
    static_assert(std::is_same_v<decltype(bsx::quantile(i, 0.5, 0)), bsx::array<double, 0>>);
    BOOST_TEST(bsx::median(i) == 2.5);
    BOOST_TEST(bsx::quantile(i + 1, 0.4) == 3.2);  // NumPy: np.quantile([5, 2, 4, 3], 0.4)
    BOOST_TEST(bsx::median(i) == 2.5);
    BOOST_TEST(i(0) == 4);  // the operand is not reordered
    const auto e = make_array<2>(std::vector<index_t>{2, 0}, std::vector<double>{});
    expect_values(bsx::median(e, 1), "(2,)", {qnan, qnan});  // NumPy: NaN (with a warning)
    expect_values(bsx::quantile(e, 0.5, 0), "(0,)", {});
    expect_error<std::invalid_argument>([&] { (void)bsx::quantile(e, 0.5, 1); }, {"quantile", "no elements"});
    expect_error<std::invalid_argument>([&] { (void)bsx::quantile(i, 1.5); }, {"quantile", "outside [0, 1]"});
    expect_error<std::invalid_argument>([&] { (void)bsx::quantile(i, qnan, 0); }, {"quantile", "outside [0, 1]"});
    expect_error<std::out_of_range>([&] { (void)bsx::median(e, 2); }, {"median", "axis 2", "rank 2"});
}

}  // namespace
