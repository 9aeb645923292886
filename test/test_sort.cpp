// Sorting and sets (api.md section 10): sort, argsort, unique and searchsorted against
// plain std::stable_sort, std::unique and std::lower_bound/upper_bound references written
// here, on random data with duplicates, NaNs (of both signs, with payloads), infinities and
// signed zeros; empty extents; integer, bool, float and long double elements; every axis of
// 3-D arrays (negative ones too); lines short enough for the comparison sort and long
// enough for the parallel radix sort; at 1, 2 and 3 threads. Also the axis errors.
#define BOOST_TEST_MODULE bsx_sort
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include "test_support.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

using bsx::index_t;
using test_support::for_thread_counts;

namespace {

// Sizes that take each path: comparison sort, serial radix sort, radix sort in parallel
// blocks (above BSX_PARALLEL_THRESHOLD).
const std::vector<index_t> sizes = {0, 1, 2, 7, 100, 1000, 5000, 70000};

/// The reference order, written apart from bsx: NaNs after everything else, -0.0 before
/// +0.0, otherwise `<`. Used with std::stable_sort, so NaNs keep their order.
template <class T>
bool ref_less(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(a) || std::isnan(b)) return !std::isnan(a) && std::isnan(b);
        if (a == b) return std::signbit(a) && !std::signbit(b);
    }
    return a < b;
}

/// Whether two values are the same (every bit for float and double; value and sign for
/// long double, whose padding bytes hold nothing).
template <class T>
bool same(T a, T b) {
    if constexpr (std::is_same_v<T, long double>)
        return (a == b && std::signbit(a) == std::signbit(b)) || (std::isnan(a) && std::isnan(b));
    else
        return std::memcmp(&a, &b, sizeof a) == 0;
}

template <class T>
std::string text(T v) {
    return test_support::num(double(v));
}

/// n values with many duplicates; for floating types also NaNs of both signs and two
/// payloads, infinities and zeros of both signs.
template <class T>
std::vector<T> test_values(index_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<T> v(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < v.size(); ++i) {
        const auto r = rng();
        T x{};
        if constexpr (std::is_same_v<T, bool>) {
            x = (r & 1) != 0;
        } else if constexpr (std::is_integral_v<T>) {
            // Half from a small range (duplicates), some extremes, the rest over the whole
            // type (both signs: the bits of r as they come).
            if (r & 1)
                x = T(T((r >> 8) % 13) - T(std::is_signed_v<T> ? 6 : 0));
            else if (r % 16 == 2)
                x = (r & 32) ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
            else
                std::memcpy(&x, &r, sizeof x);
        } else {
            switch (r % 16) {
                case 0:
                    x = std::numeric_limits<T>::quiet_NaN();
                    break;
                case 1:
                    x = -std::numeric_limits<T>::quiet_NaN();
                    break;
                case 2:
                    x = std::numeric_limits<T>::infinity();
                    break;
                case 3:
                    x = -std::numeric_limits<T>::infinity();
                    break;
                case 4:
                    x = T(0.0);
                    break;
                case 5:
                    x = T(-0.0);
                    break;
                case 6:
                    x = T(double((r >> 8) % 5) - 2);
                    break;  // duplicates
                case 7:
                    x = (r & 32) ? std::numeric_limits<T>::denorm_min() : -std::numeric_limits<T>::denorm_min();
                    break;
                case 8:
                    x = (r & 32) ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
                    break;
                default:
                    x = T((double((r >> 11) % 2000001) - 1000000.0) * 1e-3);
            }
            if constexpr (std::is_same_v<T, double>) {
                if (r % 64 == 7) {  // a NaN with a payload
                    std::uint64_t bits = 0x7ff8000000000000u | ((r >> 20) & 0xffff);
                    std::memcpy(&x, &bits, sizeof x);
                }
            }
        }
        v[i] = x;
    }
    return v;
}

template <class T, std::size_t N>
bsx::array<T, N> make(const bsx::shape_t<N>& shape, const std::vector<T>& values) {
    bsx::array<T, N> a(shape);
    std::copy(values.begin(), values.end(), a.data());
    return a;
}

/// The offset of element i of line l along axis k of a row-major shape.
template <std::size_t N>
index_t line_offset(const bsx::shape_t<N>& shape, std::size_t k, index_t l, index_t i) {
    index_t inner = 1;
    for (std::size_t j = k + 1; j < N; ++j) inner *= shape[j];
    return (l / inner) * shape[k] * inner + l % inner + i * inner;
}

/// sort and argsort of `values` (shape `shape`) along axis a, checked line by line against
/// std::stable_sort.
template <class T, std::size_t N>
void check_sort_and_argsort(const bsx::shape_t<N>& shape, const std::vector<T>& values, index_t a) {
    const auto x = make<T, N>(shape, values);
    const std::size_t k = std::size_t(a < 0 ? a + index_t(N) : a);
    const index_t n = shape[k], lines = n == 0 ? 0 : index_t(values.size()) / n;
    BOOST_TEST_CONTEXT("shape " << test_support::fmt(shape) << ", axis " << a) {
        const bsx::array<T, N> sorted = bsx::sort(x, bsx::axis(a));
        const bsx::array<index_t, N> order = bsx::argsort(x, bsx::axis(a));
        // A plain integer axis is the same axis.
        const bsx::array<T, N> by_integer = bsx::sort(x, int(a));
        BOOST_TEST(std::equal(by_integer.data(), by_integer.data() + by_integer.size(), sorted.data(),
                              [](const T& p, const T& q) { return same(p, q); }));
        BOOST_TEST(bsx::array_equal(bsx::argsort(x, a), order));
        BOOST_TEST(sorted.shape() == shape);
        BOOST_TEST(order.shape() == shape);
        std::size_t bad = 0;
        for (index_t l = 0; l < lines; ++l) {
            std::vector<index_t> idx(static_cast<std::size_t>(n));
            std::iota(idx.begin(), idx.end(), index_t(0));
            const auto at = [&](index_t i) { return values[std::size_t(line_offset(shape, k, l, i))]; };
            std::stable_sort(idx.begin(), idx.end(), [&](index_t p, index_t q) { return ref_less(at(p), at(q)); });
            for (index_t i = 0; i < n; ++i) {
                const index_t o = line_offset(shape, k, l, i);
                const T want = at(idx[std::size_t(i)]);
                if (!same(sorted.data()[o], want) || order.data()[o] != idx[std::size_t(i)]) {
                    if (++bad <= 3)
                        BOOST_ERROR("line " << l << ", place " << i << ": sort gives " << text(sorted.data()[o])
                                            << ", argsort " << order.data()[o] << "; want " << text(want)
                                            << " from index " << idx[std::size_t(i)]);
                }
            }
        }
        BOOST_TEST(bad == 0u);
    }
}

template <class T>
void check_one_dimensional() {
    for_thread_counts([] {
        for (index_t n : sizes) check_sort_and_argsort<T, 1>({n}, test_values<T>(n, std::uint64_t(n) + 1), -1);
    });
}

}  // namespace

BOOST_AUTO_TEST_CASE(sort_and_argsort_doubles_match_stable_sort) { check_one_dimensional<double>(); }
BOOST_AUTO_TEST_CASE(sort_and_argsort_floats_match_stable_sort) { check_one_dimensional<float>(); }
BOOST_AUTO_TEST_CASE(sort_and_argsort_long_doubles_match_stable_sort) { check_one_dimensional<long double>(); }
BOOST_AUTO_TEST_CASE(sort_and_argsort_integers_match_stable_sort) {
    check_one_dimensional<int>();
    check_one_dimensional<std::int64_t>();
    check_one_dimensional<std::uint64_t>();
    check_one_dimensional<std::int16_t>();
    check_one_dimensional<std::uint8_t>();
    check_one_dimensional<signed char>();
}
BOOST_AUTO_TEST_CASE(sort_and_argsort_bools_match_stable_sort) { check_one_dimensional<bool>(); }

BOOST_AUTO_TEST_CASE(sort_and_argsort_every_axis_of_3d_arrays) {
    for_thread_counts([] {
        // Small lines (comparison sort), long lines (radix sort) along each axis in turn,
        // many lines in parallel or a few long ones, and empty extents.
        const std::vector<bsx::shape_t<3>> shapes = {{4, 5, 6},     {3, 4000, 5}, {2, 3, 9000}, {12000, 2, 3},
                                                     {1, 1, 40000}, {0, 3, 4},    {3, 0, 4}};
        for (const auto& shape : shapes) {
            const auto values = test_values<double>(shape[0] * shape[1] * shape[2], 7);
            for (index_t a = -3; a < 3; ++a) check_sort_and_argsort<double, 3>(shape, values, a);
            check_sort_and_argsort<int, 3>(shape, test_values<int>(shape[0] * shape[1] * shape[2], 8), 1);
        }
    });
}

BOOST_AUTO_TEST_CASE(sort_by_default_sorts_the_last_axis_of_an_expression) {
    const auto x = make<double, 2>({2, 3}, {3, 1, 2, -1, -3, -2});
    test_support::expect_array(bsx::sort(x * 2.0 + 1.0), {2, 3}, std::vector<double>{3, 5, 7, -5, -3, -1});
    test_support::expect_array(bsx::argsort(-x), {2, 3}, std::vector<double>{0, 2, 1, 0, 2, 1});
    test_support::expect_array(bsx::sort(bsx::array<double, 2>(x), bsx::axis(0)), {2, 3},
                               std::vector<double>{-1, -3, -2, 3, 1, 2});
    // A strided view as the operand.
    test_support::expect_array(bsx::sort(bsx::slice(x, bsx::all, bsx::range(0, 3, 2))), {2, 2},
                               std::vector<double>{2, 3, -2, -1});
}

BOOST_AUTO_TEST_CASE(every_operand_is_evaluated_once) {
    for_thread_counts([] {
        const auto x = make<double, 2>({300, 200}, test_values<double>(60000, 31));
        std::atomic<long> calls{0};
        const auto counted = [&](double v) {
            calls.fetch_add(1, std::memory_order_relaxed);
            return v;
        };
        const auto expect_calls = [&](long want, const char* what) {
            BOOST_TEST(calls.exchange(0) == want, what << ": " << want << " calls wanted");
        };
        (void)bsx::sort(bsx::map(counted, x), bsx::axis(0));
        expect_calls(60000, "sort");
        (void)bsx::argsort(bsx::map(counted, x));
        expect_calls(60000, "argsort");
        (void)bsx::unique(bsx::map(counted, x));
        expect_calls(60000, "unique");
        const auto sorted = bsx::sort(bsx::slice(x, 0));
        (void)bsx::searchsorted(bsx::map(counted, sorted), bsx::map(counted, x));
        expect_calls(200 + 60000, "searchsorted");
    });
}

BOOST_AUTO_TEST_CASE(argsort_is_stable_and_puts_nans_last) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto x = make<double, 1>({9}, {2, nan, 1, 2, -0.0, nan, 0.0, 1, -0.0});
    test_support::expect_array(bsx::argsort(x), {9}, std::vector<double>{4, 8, 6, 2, 7, 0, 3, 1, 5});
    const auto s = bsx::sort(x);
    BOOST_TEST(std::signbit(s.data()[0]));
    BOOST_TEST(std::signbit(s.data()[1]));
    BOOST_TEST(!std::signbit(s.data()[2]));
}

BOOST_AUTO_TEST_CASE(axis_errors_name_the_axis_and_the_rank) {
    const auto x = make<double, 3>({2, 3, 4}, std::vector<double>(24, 1.0));
    bsx::array<double, 3> dest = x * 2.0;
    const auto expect_throw = [&](auto f, const std::string& want) {
        try {
            f();
            BOOST_ERROR("no exception, want: " << want);
        } catch (const std::out_of_range& e) {
            BOOST_TEST(std::string(e.what()) == want);
        }
        BOOST_TEST(dest.data()[0] == 2.0);  // the destination of a failed call keeps its values
        BOOST_TEST(dest.shape() == (bsx::shape_t<3>{2, 3, 4}));
    };
    expect_throw([&] { dest = bsx::sort(x, bsx::axis(3)); },
                 "bsx: sort: axis 3 is out of range for an operand of rank 3 and shape (2,3,4) (axes -3 to 2)");
    expect_throw([&] { dest = bsx::sort(x, bsx::axis(-4)); },
                 "bsx: sort: axis -4 is out of range for an operand of rank 3 and shape (2,3,4) (axes -3 to 2)");
    bsx::array<index_t, 3> order(bsx::shape_t<3>{2, 3, 4});
    expect_throw([&] { order = bsx::argsort(x, bsx::axis(5)); },
                 "bsx: argsort: axis 5 is out of range for an operand of rank 3 and shape (2,3,4) (axes -3 to 2)");
}

namespace {

/// unique's reference: sorted, then equal neighbours (and all NaNs) kept once, the first.
template <class T>
std::vector<T> ref_unique(std::vector<T> v) {
    std::stable_sort(v.begin(), v.end(), ref_less<T>);
    std::vector<T> out;
    for (const T x : v) {
        if (!out.empty()) {
            const T last = out.back();
            if (x == last) continue;
            if constexpr (std::is_floating_point_v<T>)
                if (std::isnan(x) && std::isnan(last)) continue;
        }
        out.push_back(x);
    }
    return out;
}

template <class T>
void check_unique() {
    for_thread_counts([] {
        for (index_t n : sizes) {
            BOOST_TEST_CONTEXT("n = " << n) {
                const auto values = test_values<T>(n, std::uint64_t(n) + 11);
                // Flattened: a 2-D operand when n splits.
                const auto got =
                    n % 2 == 0 ? bsx::unique(make<T, 2>({2, n / 2}, values)) : bsx::unique(make<T, 1>({n}, values));
                const auto want = ref_unique(values);
                BOOST_TEST_REQUIRE(got.size() == index_t(want.size()));
                std::size_t bad = 0;
                for (std::size_t i = 0; i < want.size(); ++i) {
                    if (!same(got.data()[i], want[i]) && ++bad <= 3)
                        BOOST_ERROR("element " << i << ": got " << text(got.data()[i]) << ", want " << text(want[i]));
                }
                BOOST_TEST(bad == 0u);
            }
        }
    });
}

}  // namespace

BOOST_AUTO_TEST_CASE(unique_matches_sort_and_unique) {
    check_unique<double>();
    check_unique<float>();
    check_unique<int>();
    check_unique<std::uint16_t>();
    check_unique<bool>();
}

BOOST_AUTO_TEST_CASE(unique_keeps_one_nan_and_minus_zero) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto got = bsx::unique(make<double, 1>({8}, {3, nan, 0.0, 1, -0.0, nan, 1, 3}));
    BOOST_TEST_REQUIRE(got.size() == 4);
    BOOST_TEST(test_support::same_bits(got.data()[0], -0.0));
    BOOST_TEST(got.data()[1] == 1.0);
    BOOST_TEST(got.data()[2] == 3.0);
    BOOST_TEST(std::isnan(got.data()[3]));
    BOOST_TEST(bsx::unique(bsx::array<double, 2>(bsx::shape_t<2>{0, 4})).size() == 0);
    // A rank-0 operand has one element.
    test_support::expect_array(bsx::unique(bsx::array<int, 0>(5)), {1}, std::vector<int>{5});
}

namespace {

/// searchsorted's reference: NumPy's comparison (NaN after everything, -0.0 == +0.0).
bool np_less(double a, double b) { return a < b || (std::isnan(b) && !std::isnan(a)); }

index_t ref_search(const std::vector<double>& sorted, double v, bool right) {
    const auto it = right ? std::upper_bound(sorted.begin(), sorted.end(), v, np_less)
                          : std::lower_bound(sorted.begin(), sorted.end(), v, np_less);
    return index_t(it - sorted.begin());
}

}  // namespace

BOOST_AUTO_TEST_CASE(searchsorted_matches_lower_and_upper_bound) {
    for_thread_counts([] {
        for (index_t n : {index_t(0), index_t(1), index_t(50), index_t(3000)}) {
            BOOST_TEST_CONTEXT("n = " << n) {
                const auto data = test_values<double>(n, 21);
                const auto sorted = bsx::sort(make<double, 1>({n}, data));
                const std::vector<double> ref(sorted.begin(), sorted.end());
                // Queries: the sorted values themselves (ties), and others, with NaNs and zeros;
                // enough of them for the parallel loop.
                auto queries = test_values<double>(40000, 22);
                std::copy(ref.begin(), ref.end(), queries.begin());
                const auto v = make<double, 2>({200, 200}, queries);
                const auto left = bsx::searchsorted(sorted, v);
                const auto left_too = bsx::searchsorted(sorted * 1.0, v, bsx::side_left);
                const auto right = bsx::searchsorted(sorted, v + 0.0, bsx::side_right);
                BOOST_TEST(left.shape() == v.shape());
                std::size_t bad = 0;
                for (std::size_t i = 0; i < queries.size(); ++i) {
                    const index_t want_left = ref_search(ref, queries[i], false),
                                  want_right = ref_search(ref, queries[i], true);
                    if (left.data()[i] != want_left || left_too.data()[i] != want_left ||
                        right.data()[i] != want_right) {
                        if (++bad <= 3)
                            BOOST_ERROR("value " << text(queries[i]) << ": got " << left.data()[i] << ", "
                                                 << left_too.data()[i] << ", " << right.data()[i] << "; want "
                                                 << want_left << ", " << want_right);
                    }
                }
                BOOST_TEST(bad == 0u);
            }
        }
    });
}

BOOST_AUTO_TEST_CASE(searchsorted_of_scalars_and_mixed_types) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto sorted = make<double, 1>({6}, {-1, -0.0, 0.0, 2, 2, nan});
    BOOST_TEST(bsx::searchsorted(sorted, 0.0) == 1);  // -0.0 and +0.0 are equal here, as in NumPy
    BOOST_TEST(bsx::searchsorted(sorted, -0.0, bsx::side_right) == 3);
    BOOST_TEST(bsx::searchsorted(sorted, 2) == 3);
    BOOST_TEST(bsx::searchsorted(sorted, 2, bsx::side_right) == 5);
    BOOST_TEST(bsx::searchsorted(sorted, nan) == 5);
    BOOST_TEST(bsx::searchsorted(sorted, nan, bsx::side_right) == 6);
    BOOST_TEST(bsx::searchsorted(sorted, 1e300) == 5);
    // Integers against doubles, and signed against unsigned (compared as doubles).
    const auto ints = make<int, 1>({4}, {-5, 0, 3, 3});
    test_support::expect_array(bsx::searchsorted(ints, make<double, 1>({4}, {-5.5, 0.5, 3.0, 4.0})), {4},
                               std::vector<double>{0, 2, 2, 4});
    BOOST_TEST(bsx::searchsorted(ints, 3u, bsx::side_right) == 4);
    BOOST_TEST(bsx::searchsorted(make<unsigned, 1>({3}, {1u, 2u, 4000000000u}), -1) == 0);
    BOOST_TEST(bsx::searchsorted(bsx::array<double, 1>(bsx::shape_t<1>{0}), 1.0) == 0);
    // A float array and an int compare as doubles: 16777217 is not rounded to 16777216.f.
    const auto floats = make<float, 1>({3}, {1.0f, 16777216.0f, 16777218.0f});
    BOOST_TEST(bsx::searchsorted(floats, 16777217) == 2);
    BOOST_TEST(bsx::searchsorted(floats, 16777216, bsx::side_right) == 2);
}
