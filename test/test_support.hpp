// test/test_support.hpp: the vocabulary the unit tests share. NumPy-style shape text written
// independently of bsx; results flattened to doubles and checked by one element-wise
// comparison (non-template, so that each check costs no compile time per expression type);
// arrays made from row-major values, and random values from a fixed seed.
#pragma once

#include <bsx/bsx.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

// BSX_TEST_SANITIZED: defined under AddressSanitizer (CI's sanitizer build, at -O0), where
// every access costs a check: tests that run long there take fewer repeats or smaller
// operands that reach the same code paths; the optimized builds run them in full.
#if defined(__SANITIZE_ADDRESS__)
#define BSX_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BSX_TEST_SANITIZED 1
#endif
#endif

namespace test_support {

#ifdef BSX_TEST_SANITIZED
inline constexpr bool sanitized = true;
#else
inline constexpr bool sanitized = false;
#endif

/// Runs f once per thread count (1, 2, 3 with OpenMP; once without), restoring the
/// previous setting afterwards. Large cases then take both the serial and the parallel path.
/// Under sanitizers, 1 and 3: the serial path and an uneven parallel split.
template <class F>
void for_thread_counts(F&& f) {
#ifdef _OPENMP
    const int saved = omp_get_max_threads();
    for (int t = 1; t <= 3; ++t) {
        if (sanitized && t == 2) continue;
        omp_set_num_threads(t);
        BOOST_TEST_CONTEXT("threads = " << t) { f(); }
    }
    omp_set_num_threads(saved);
#else
    f();
#endif
}

/// Whether two values have the same bits (which tells -0 from +0 and one NaN from another).
inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
inline bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// Checks that two expressions of one shape (arrays, views, lazy expressions; evaluated
/// first) hold the same bits element for element, compared as T; says how many differ.
template <class T, class A, class B>
void expect_same_bits(const A& got_expression, const B& want_expression, const std::string& what) {
    const auto got = bsx::eval(got_expression);
    const auto want = bsx::eval(want_expression);
    BOOST_TEST_REQUIRE(got.size() == want.size());
    std::size_t differing = 0;
    for (auto g = got.begin(), w = want.begin(); g != got.end(); ++g, ++w) differing += !same_bits(T(*g), T(*w));
    BOOST_TEST(differing == 0u, what << ": " << differing << " elements differ");
}

/// A shape as NumPy prints it: `()`, `(3,)`, `(2,3)`.
template <class S>
std::string fmt(const S& s) {
    std::string out = "(";
    for (std::size_t k = 0; k < s.size(); ++k) {
        if (k) out += ',';
        out += std::to_string(s[k]);
    }
    if (s.size() == 1) out += ',';
    out += ')';
    return out;
}

/// A double with all its digits (17 significant), for messages.
inline std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

/// Runs f, which must throw exactly E (not a subclass chosen by accident) with `what()`
/// containing `text`.
template <class E, class F>
void expect_throw(F&& f, const std::string& text) {
    try {
        f();
        BOOST_ERROR("no exception; expected: " + text);
    } catch (const E& e) {
        BOOST_TEST(std::string(e.what()).find(text) != std::string::npos, "message: " << e.what());
    } catch (const std::exception& e) {
        BOOST_ERROR(std::string("wrong exception: ") + e.what());
    }
}

/// Equal, or both NaN.
inline bool same_value(double got, double want) { return got == want || (std::isnan(got) && std::isnan(want)); }

/// The one element-wise check: `got` must be `want`, element by element, NaN matching
/// NaN; with rel_tol > 0, values within rel_tol of each other (relative) also pass. Names
/// the first five differing elements (prefixed with `what`) and counts them.
inline void expect_same_values(const std::vector<double>& got, const std::vector<double>& want,
                               const std::string& what = "values", double rel_tol = 0) {
    BOOST_TEST_REQUIRE(got.size() == want.size(), what << ": " << got.size() << " values, want " << want.size());
    std::size_t bad = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
        const double g = got[i], w = want[i];
        if (same_value(g, w) || (rel_tol > 0 && std::abs(g - w) <= rel_tol * std::max(std::abs(g), std::abs(w))))
            continue;
        if (bad < 5) BOOST_ERROR(what << ": row-major element " << i << ": got " << num(g) << ", want " << num(w));
        ++bad;
    }
    BOOST_CHECK_MESSAGE(bad == 0, what << ": " << bad << " of " << want.size() << " elements differ");
}

/// The message of the exception of type Ex that f throws ("" when it throws none).
template <class Ex, class F>
std::string message_of(F&& f) {
    try {
        f();
    } catch (const Ex& e) {
        return e.what();
    }
    return "";
}

/// Shape and row-major values of a result.
struct flat {
    std::string shape;
    std::vector<double> values;
};

/// The elements of an array, in row-major order, as doubles.
template <class A>
std::vector<double> contents(const A& a) {
    if constexpr (requires { a.begin(); }) {
        return std::vector<double>(a.begin(), a.end());
    } else {  // a lazy expression
        const auto r = bsx::eval(a);
        return std::vector<double>(r.begin(), r.end());
    }
}

/// An expression evaluated by bsx::eval, flattened.
template <class E>
flat evaluated(const E& e) {
    const auto r = bsx::eval(e);
    return {fmt(r.shape()), contents(r)};
}

/// `got` must have the shape `want_shape` (NumPy text, "(2,3)") and, in row-major order,
/// the values `want`.
inline void expect_flat(const flat& got, const std::string& want_shape, const std::vector<double>& want,
                        double rel_tol = 0) {
    BOOST_TEST(got.shape == want_shape);
    expect_same_values(got.values, want, "shape " + want_shape, rel_tol);
}

/// `e`, evaluated, must have the shape `want_shape` and the values `want`.
template <class E>
void expect_values(const E& e, const std::string& want_shape, const std::vector<double>& want) {
    expect_flat(evaluated(e), want_shape, want);
}

/// The array `got` itself (not a copy; a bsx::array or bsx::fixed_array) must have the
/// shape `want_shape` and the values `want`.
template <class A, class U>
void expect_array(const A& got, const bsx::shape_t<A::rank>& want_shape, const std::vector<U>& want,
                  double rel_tol = 0) {
    expect_flat({fmt(got.shape()), contents(got)}, fmt(want_shape), std::vector<double>(want.begin(), want.end()),
                rel_tol);
}

/// An array of the given shape (a bsx::shape_t<N>, or any sequence of N extents) holding
/// `values` in row-major order (copied by hand).
template <std::size_t N, class T = double, class Shape = bsx::shape_t<N>>
bsx::array<T, N> make_array(const Shape& shape, const std::vector<T>& values) {
    BOOST_REQUIRE_EQUAL(std::size(shape), N);
    bsx::shape_t<N> extents{};
    std::copy(std::begin(shape), std::end(shape), extents.begin());
    bsx::array<T, N> a(extents);
    BOOST_REQUIRE_EQUAL(std::size_t(a.size()), values.size());
    std::copy(values.begin(), values.end(), a.data());
    return a;
}

/// n values uniform in [lo, hi), the same for the same seed.
inline std::vector<double> random_values(std::size_t n, std::uint64_t seed, double lo = -10.0, double hi = 10.0) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> d(lo, hi);
    std::vector<double> v(n);
    for (auto& x : v) x = d(rng);
    return v;
}

/// a(i, j, k) = 100 i + 10 j + k, shape (p, q, r): every element names its index.
inline bsx::array<double, 3> grid3(bsx::index_t p, bsx::index_t q, bsx::index_t r) {
    auto a = bsx::zeros<double>(p, q, r);
    for (bsx::index_t i = 0; i < p; ++i)
        for (bsx::index_t j = 0; j < q; ++j)
            for (bsx::index_t k = 0; k < r; ++k) a(i, j, k) = 100.0 * i + 10.0 * j + k;
    return a;
}

}  // namespace test_support
