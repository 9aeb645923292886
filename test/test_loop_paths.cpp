// The evaluator's fast paths against plain loops: rows written whole with one operand
// held in a register (the row-constant leaf at every position), streaming stores into
// wide destinations (the threshold is lowered for this file, so that small arrays take
// that path too, with misaligned and non-contiguous rows), strided operands gathered into
// tiles (streamed results keep the tiles; test_evaluation reads small strides in place),
// bool operations read and written as bytes, and the
// alignment of large arrays (huge pages). Also run at 1 and 2 OpenMP threads.
#define BSX_STREAMING_THRESHOLD 256
#define BOOST_TEST_MODULE bsx_loop_paths
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>

namespace {

template <class T>
bsx::array<T, 2> random_matrix(bsx::index_t rows, bsx::index_t cols, unsigned seed) {
    bsx::array<T, 2> a(bsx::shape_t<2>{rows, cols});
    std::mt19937 rng(seed);
    for (T& v : a) {
        if constexpr (std::is_same_v<T, bool>)
            v = rng() % 2 == 0;
        else if constexpr (std::is_integral_v<T>)
            v = static_cast<T>(static_cast<int>(rng() % 201) - 100);
        else
            v = static_cast<T>(static_cast<int>(rng() % 2001) - 1000) / T(8);
    }
    return a;
}

/// Every element of r equals f(i, j).
template <class T, class F>
void check_each(const bsx::array<T, 2>& r, F f) {
    for (bsx::index_t i = 0; i < r.extent(0); ++i)
        for (bsx::index_t j = 0; j < r.extent(1); ++j)
            if (r(i, j) != static_cast<T>(f(i, j))) BOOST_FAIL("element (" << i << ", " << j << ") differs");
}

/// Every element of `big` inside the window [i0, i1) x [j0, j1) equals f(i - i0, j - j0)
/// and every element outside it is still 0.
template <class T, class F>
void check_window(const bsx::array<T, 2>& big, bsx::index_t i0, bsx::index_t i1, bsx::index_t j0, bsx::index_t j1,
                  F f) {
    for (bsx::index_t i = 0; i < big.extent(0); ++i)
        for (bsx::index_t j = 0; j < big.extent(1); ++j) {
            const bool inside = i >= i0 && i < i1 && j >= j0 && j < j1;
            if (big(i, j) != (inside ? static_cast<T>(f(i - i0, j - j0)) : T(0)))
                BOOST_FAIL("element (" << i << ", " << j << ") differs");
        }
}

}  // namespace

BOOST_AUTO_TEST_CASE(row_constant_operand_at_every_position) {
    const auto a = random_matrix<double>(37, 301, 1), b = random_matrix<double>(37, 301, 2);
    const auto x = random_matrix<double>(37, 5, 3);
    const auto y = random_matrix<double>(4, 301, 4);
    bsx::array<double, 2> r;
    r = x.col(2) * a + b;  // the constant leaf first, then second, then last
    check_each(r, [&](auto i, auto j) { return x(i, 2) * a(i, j) + b(i, j); });
    r = a * x.col(2) - b;
    check_each(r, [&](auto i, auto j) { return a(i, j) * x(i, 2) - b(i, j); });
    r = a - b / x.col(4);
    check_each(r, [&](auto i, auto j) { return a(i, j) - b(i, j) / x(i, 4); });
    r = x.col(0) - y.row(3);  // NumPy's outer difference
    check_each(r, [&](auto i, auto j) { return x(i, 0) - y(3, j); });
    r = x.col(1) * x.col(3) + y.row(1);  // two row-constant leaves: the tiled path
    check_each(r, [&](auto i, auto j) { return x(i, 1) * x(i, 3) + y(1, j); });
}

BOOST_AUTO_TEST_CASE(row_constant_operand_reading_its_own_row) {
    auto d = random_matrix<double>(64, 64, 5);
    auto expected = d;
    for (bsx::index_t k = 0; k < 64; k += 7) {
        const auto prev = expected;  // value semantics: every element from before the step
        for (bsx::index_t i = 0; i < 64; ++i)
            for (bsx::index_t j = 0; j < 64; ++j) {
                const double via = prev(i, k) + prev(k, j);
                expected(i, j) = via < prev(i, j) ? via : prev(i, j);
            }
        d = bsx::min(d, d.col(k) + d.row(k));
    }
    BOOST_TEST(bsx::array_equal(d, expected));
}

BOOST_AUTO_TEST_CASE(streaming_stores_into_misaligned_and_strided_rows) {
    const auto a = random_matrix<double>(23, 203, 6), b = random_matrix<double>(23, 203, 7);
    bsx::array<double, 2> big = bsx::zeros<double>(25, 211);
    // A window whose rows start at every alignment and do not merge into one.
    auto window = bsx::slice(big, bsx::range(1, 24), bsx::range(3, 206));
    window = a * b + 1.0;
    check_window(big, 1, 24, 3, 206, [&](auto i, auto j) { return a(i, j) * b(i, j) + 1.0; });
    // Element types of every width, contiguous destinations.
    const auto p = random_matrix<std::int8_t>(19, 333, 8), q = random_matrix<std::int8_t>(19, 333, 9);
    bsx::array<std::int8_t, 2> s = p + q;
    check_each(s, [&](auto i, auto j) { return static_cast<std::int8_t>(p(i, j) + q(i, j)); });
    const auto f = random_matrix<float>(19, 333, 10);
    bsx::array<float, 2> g = f * 2.0f - f.col(7);
    check_each(g, [&](auto i, auto j) { return f(i, j) * 2.0f - f(i, 7); });
}

BOOST_AUTO_TEST_CASE(streaming_stores_from_the_tiled_paths) {
    // Rows of 3 folded into long rows read the centroid from a period tile; a strided
    // operand goes through a gathered tile; exp inside a node through a math node's
    // tiles. Each writes its chunks into a tile, then streams them out, into contiguous
    // and offset rows. exp at the root streams its own results as its kernel computes them
    // (the elements before a row's first cache line with ordinary stores).
    const bsx::fixed_array<double, 3> centroid{1.5, -2.5, 0.5};
    for (const bsx::index_t n : {2001, 12001}) {  // 36003 elements: split across threads, mid-line
        const auto points = random_matrix<double>(n, 3, 14);
        bsx::array<double, 2> centred = points - centroid;
        check_each(centred, [&](auto i, auto j) { return points(i, j) - centroid(j); });
    }
    const auto wide = random_matrix<double>(41, 1203, 15);
    bsx::array<double, 2> big = bsx::zeros<double>(41, 606);
    auto window = bsx::slice(big, bsx::all, bsx::range(1, 602));
    window = bsx::slice(wide, bsx::all, bsx::range(0, 1202, 2)) + 1.0;
    check_window(big, 0, 41, 1, 602, [&](auto i, auto j) { return wide(i, 2 * j) + 1.0; });
    const auto small = random_matrix<float>(17, 1100, 16) / 256.0f;
    bsx::array<float, 2> e = bsx::exp(small);
    bsx::array<float, 2> every_other = bsx::zeros<float>(17, 2200);  // a strided destination: not streamed
    bsx::slice(every_other, bsx::all, bsx::range(0, 2200, 2)) = bsx::exp(small);
    check_each(e, [&](auto i, auto j) { return every_other(i, 2 * j); });
    bsx::array<float, 2> twice = bsx::exp(small) * 2.0f;
    check_each(twice, [&](auto i, auto j) { return e(i, j) * 2.0f; });
    bsx::array<float, 2> wider = bsx::zeros<float>(17, 1103);  // rows off the cache lines
    bsx::slice(wider, bsx::all, bsx::range(3, 1103)) = bsx::exp(small);
    check_window(wider, 0, 17, 3, 1103, [&](auto i, auto j) { return e(i, j); });
    BOOST_TEST(std::abs(e(16, 1099) - std::exp(small(16, 1099))) <= 1e-6f * e(16, 1099));
    // Doubles just below log(max), where SLEEF's exp overflows early: the elements are
    // recomputed after the kernel has streamed them, in rows off the cache lines too.
    auto near_max = random_matrix<double>(9, 1100, 17);
    const double edge = std::nextafter(std::log(std::numeric_limits<double>::max()), 0.0);
    for (bsx::index_t i = 0; i < 9; ++i)
        for (bsx::index_t j = i; j < 1100; j += 97) near_max(i, j) = edge;
    bsx::array<double, 2> wide_exp = bsx::zeros<double>(9, 1105);
    bsx::slice(wide_exp, bsx::all, bsx::range(5, 1105)) = bsx::exp(near_max);
    check_window(wide_exp, 0, 9, 5, 1105, [&](auto i, auto j) { return bsx::exp(near_max)(i, j); });
    BOOST_TEST(std::isfinite(wide_exp(0, 5)));
    BOOST_TEST(std::abs(wide_exp(0, 5) / std::exp(edge) - 1) <= 1e-15);  // a few ulp
}

BOOST_AUTO_TEST_CASE(destination_read_by_the_expression_keeps_its_values) {
    // The destination is read here, so it is not streamed; results are as if copied first.
    auto a = random_matrix<double>(31, 257, 11);
    const auto before = a;
    a = a * 2.0 + a.col(0);
    check_each(a, [&](auto i, auto j) { return before(i, j) * 2.0 + before(i, 0); });
    const auto twice = a;
    a = bsx::slice(a, bsx::all, bsx::range(256, -258, -1)) - 1.0;  // reversed: copied first
    check_each(a, [&](auto i, auto j) { return twice(i, 256 - j) - 1.0; });
}

template <class T>
void check_strided_gathers() {
    const auto base = random_matrix<T>(3, 1000, 12);
    const auto other = random_matrix<T>(3, 1000, 13);
    for (const bsx::index_t step : {2, 3, 4, 5, 9, -1, -2, -3, -4}) {
        const bsx::index_t n = (1000 + (step > 0 ? step : -step) - 1) / (step > 0 ? step : -step);
        const auto in = bsx::slice(base, bsx::all, bsx::range(step > 0 ? 0 : 999, step > 0 ? 1000 : -1001, step));
        const auto in2 = bsx::slice(other, bsx::all, bsx::range(step > 0 ? 0 : 999, step > 0 ? 1000 : -1001, step));
        BOOST_REQUIRE_EQUAL(in.extent(1), n);
        bsx::array<T, 2> r;
        if constexpr (std::is_same_v<T, bool>) {
            r = in ^ in2;
            check_each(r, [&](auto i, auto j) {
                return base(i, step > 0 ? j * step : 999 + j * step) != other(i, step > 0 ? j * step : 999 + j * step);
            });
        } else {
            r = in + in2;
            check_each(r, [&](auto i, auto j) {
                const auto k = step > 0 ? j * step : 999 + j * step;
                return static_cast<T>(base(i, k) + other(i, k));
            });
        }
        // A strided destination as well: copied from strided memory, and written back from
        // the tile a computed chunk lands in.
        bsx::array<T, 2> wide = bsx::zeros<T>(3, 1000), computed = bsx::zeros<T>(3, 1000);
        const auto columns = bsx::range(step > 0 ? 0 : 999, step > 0 ? 1000 : -1001, step);
        bsx::slice(wide, bsx::all, columns) = in;
        if constexpr (std::is_same_v<T, bool>)
            bsx::slice(computed, bsx::all, columns) = in ^ in2;
        else
            bsx::slice(computed, bsx::all, columns) = in + in2;
        for (bsx::index_t i = 0; i < 3; ++i)
            for (bsx::index_t j = 0; j < n; ++j) {
                const auto k = step > 0 ? j * step : 999 + j * step;
                if (wide(i, k) != base(i, k)) BOOST_FAIL("step " << step << ": element (" << i << ", " << k << ")");
                if (computed(i, k) != r(i, j))
                    BOOST_FAIL("step " << step << ": computed element (" << i << ", " << k << ")");
            }
    }
}

BOOST_AUTO_TEST_CASE(strided_operands_of_every_element_type) {
    check_strided_gathers<double>();
    check_strided_gathers<float>();
    check_strided_gathers<std::int64_t>();
    check_strided_gathers<std::int32_t>();
    check_strided_gathers<std::int16_t>();
    check_strided_gathers<std::int8_t>();
    check_strided_gathers<bool>();
}

BOOST_AUTO_TEST_CASE(bool_operations_read_and_write_bytes) {
    const auto p = random_matrix<bool>(7, 1001, 14), q = random_matrix<bool>(7, 1001, 15);
    const auto x = random_matrix<double>(7, 1001, 16), y = random_matrix<double>(7, 1001, 17);
    bsx::array<bool, 2> r;
    r = ~p;
    check_each(r, [&](auto i, auto j) { return !p(i, j); });
    r = !p;
    check_each(r, [&](auto i, auto j) { return !p(i, j); });
    r = p & q;
    check_each(r, [&](auto i, auto j) { return p(i, j) && q(i, j); });
    r = p | ~q;
    check_each(r, [&](auto i, auto j) { return p(i, j) || !q(i, j); });
    r = (p && q) || (x < y);
    check_each(r, [&](auto i, auto j) { return (p(i, j) && q(i, j)) || x(i, j) < y(i, j); });
    r = p != q.col(3);
    check_each(r, [&](auto i, auto j) { return p(i, j) != q(i, 3); });
    r = bsx::where(p, x, y) >= 0.0;
    check_each(r, [&](auto i, auto j) { return (p(i, j) ? x(i, j) : y(i, j)) >= 0.0; });
    bsx::array<bool, 2> copy = bsx::slice(p, bsx::all, bsx::range(1000, -1002, -1));
    check_each(copy, [&](auto i, auto j) { return p(i, 1000 - j); });
    BOOST_TEST(bsx::sum(p) == bsx::sum(bsx::cast<int>(p)));
}

BOOST_AUTO_TEST_CASE(large_arrays_start_on_a_huge_page) {
    const bsx::array<double, 1> large(bsx::shape_t<1>{(std::int64_t{4} << 20) / 8});
    BOOST_TEST(reinterpret_cast<std::uintptr_t>(large.data()) % (std::uintptr_t{2} << 20) == 0u);
    BOOST_TEST(large(12345) == 0.0);  // value-initialized
    const bsx::array<char, 1> small(bsx::shape_t<1>{3});
    BOOST_TEST(reinterpret_cast<std::uintptr_t>(small.data()) % 64 == 0u);
}
