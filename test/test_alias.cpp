// Value semantics under aliasing (api.md section 5): whenever the destination of an
// assignment is also read on the right-hand side -- directly, through a view, a
// broadcast, a permutation, a reversed or an overlapping slice -- the result must be
// the one obtained by evaluating the whole right-hand side first (NumPy / Octave).
//
// Every case below is checked against a reference computed WITHOUT bsx: plain loops
// over std::vector copies of the inputs, writing into separate output buffers. Sizes
// come in a small form (serial loop) and a large one (> BSX_PARALLEL_THRESHOLD =
// 32768 elements: the OpenMP-parallel loop), and the large cases run with 1, 2 and 3
// threads. Several cases also check that a naive in-place evaluation would give a
// DIFFERENT answer, so that the test could actually catch a missing copy.
#define BOOST_TEST_MODULE bsx_alias
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace test_support;

using bsx::index_t;
using vec = std::vector<double>;

constexpr double inf = std::numeric_limits<double>::infinity();

// ------------------------------------------------------------------ helpers

// ------------------------------------------------------------------ Floyd-Warshall

/// A random directed graph: 0 on the diagonal, an edge with probability 0.2 and a
/// weight in [1, 100), +inf elsewhere.
vec random_graph(index_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution edge(0.2);
    std::uniform_real_distribution<double> w(1.0, 100.0);
    vec d(std::size_t(n * n));
    for (index_t i = 0; i < n; ++i)
        for (index_t j = 0; j < n; ++j) d[std::size_t(i * n + j)] = i == j ? 0.0 : (edge(rng) ? w(rng) : inf);
    return d;
}

/// One Floyd-Warshall step evaluated first into a separate buffer:
/// out(i,j) = min(d(i,j), d(i,k) + d(k,j) - shift). Same operation order as the bsx line.
vec fw_step_reference(const vec& d, index_t n, index_t k, double shift, bool with_shift) {
    vec out(d.size());
    for (index_t i = 0; i < n; ++i)
        for (index_t j = 0; j < n; ++j) {
            double via = d[std::size_t(i * n + k)] + d[std::size_t(k * n + j)];
            if (with_shift) via = via - shift;
            const double cur = d[std::size_t(i * n + j)];
            out[std::size_t(i * n + j)] = via < cur ? via : cur;
        }
    return out;
}

/// The textbook in-place triple loop (correct for a zero diagonal and no negative cycles).
vec fw_triple_loop(vec d, index_t n) {
    for (index_t k = 0; k < n; ++k)
        for (index_t i = 0; i < n; ++i)
            for (index_t j = 0; j < n; ++j) {
                const double via = d[std::size_t(i * n + k)] + d[std::size_t(k * n + j)];
                double& cur = d[std::size_t(i * n + j)];
                if (via < cur) cur = via;
            }
    return d;
}

/// The same step done wrongly in place (what an alias-unaware evaluator would compute).
void fw_step_in_place(vec& d, index_t n, index_t k, double shift) {
    for (index_t i = 0; i < n; ++i)
        for (index_t j = 0; j < n; ++j) {
            const double via = d[std::size_t(i * n + k)] + d[std::size_t(k * n + j)] - shift;
            double& cur = d[std::size_t(i * n + j)];
            cur = via < cur ? via : cur;
        }
}

void run_floyd_warshall(index_t n, std::uint64_t seed) {
    const vec g = random_graph(n, seed);
    const vec expected_tl = fw_triple_loop(g, n);
    vec expected_ef = g;
    for (index_t k = 0; k < n; ++k) expected_ef = fw_step_reference(expected_ef, n, k, 0.0, false);
    BOOST_REQUIRE(expected_tl == expected_ef);  // the two references agree
    // The graph must be non-trivial: some paths got shorter.
    BOOST_REQUIRE(expected_tl != g);
    test_support::for_thread_counts([&] {
        auto dist = make_array<2>({n, n}, g);
        for (index_t k = 0; k < n; ++k) dist = bsx::min(dist, dist.col(k) + dist.row(k));
        expect_array(dist, {n, n}, expected_tl);
    });
}

void run_floyd_warshall_negative(index_t n, std::uint64_t seed, index_t steps) {
    // Random data, non-zero diagonal, negative values: in place without copies the
    // answer differs (row k and column k change during step k).
    const vec g = random_values(std::size_t(n * n), seed, -1.0, 1.0);
    vec expected = g, wrong = g;
    for (index_t k = 0; k < steps; ++k) {
        expected = fw_step_reference(expected, n, k, 1.0, true);
        fw_step_in_place(wrong, n, k, 1.0);
    }
    BOOST_REQUIRE_MESSAGE(expected != wrong, "the case must distinguish value semantics from in-place");
    test_support::for_thread_counts([&] {
        auto a = make_array<2>({n, n}, g);
        for (index_t k = 0; k < steps; ++k) a = bsx::min(a, a.col(k) + a.row(k) - 1.0);
        expect_array(a, {n, n}, expected);
    });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(floyd_warshall)

BOOST_AUTO_TEST_CASE(in_place_small_serial) { run_floyd_warshall(60, 1); }
BOOST_AUTO_TEST_CASE(in_place_large_parallel) { run_floyd_warshall(300, 2); }

BOOST_AUTO_TEST_CASE(negative_diagonal_small) { run_floyd_warshall_negative(60, 3, 60); }
BOOST_AUTO_TEST_CASE(negative_diagonal_large) { run_floyd_warshall_negative(300, 4, 300); }

BOOST_AUTO_TEST_CASE(single_step_each_k_negative) {
    // One step at a time, for every k (first, middle, last row/column), fresh data each time.
    const index_t n = 200;  // 40000 elements: parallel
    const vec g = random_values(std::size_t(n * n), 5, -2.0, 2.0);
    for (index_t k : {index_t(0), index_t(1), n / 2, n - 2, n - 1}) {
        BOOST_TEST_CONTEXT("k = " << k) {
            const vec expected = fw_step_reference(g, n, k, 1.0, true);
            test_support::for_thread_counts([&] {
                auto a = make_array<2>({n, n}, g);
                a = bsx::min(a, a.col(k) + a.row(k) - 1.0);
                expect_array(a, {n, n}, expected);
            });
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()

// ------------------------------------------------------------------ transpose

BOOST_AUTO_TEST_SUITE(transposes)

BOOST_AUTO_TEST_CASE(a_plus_transpose_a) {
    for (index_t n : {index_t(1), index_t(7), index_t(64), index_t(300)}) {
        BOOST_TEST_CONTEXT("n = " << n) {
            const vec g = random_values(std::size_t(n * n), 10 + std::uint64_t(n));
            vec expected(g.size());
            for (index_t i = 0; i < n; ++i)
                for (index_t j = 0; j < n; ++j)
                    expected[std::size_t(i * n + j)] = g[std::size_t(i * n + j)] + g[std::size_t(j * n + i)];
            test_support::for_thread_counts([&] {
                auto a = make_array<2>({n, n}, g);
                a = a + bsx::transpose(a);
                expect_array(a, {n, n}, expected);
                // The result is symmetric: a second pass doubles it (and stays symmetric).
                auto b = make_array<2>({n, n}, g);
                b = bsx::transpose(b) + b;
                expect_array(b, {n, n}, expected);
            });
        }
    }
}

BOOST_AUTO_TEST_CASE(a_equals_transpose_a) {
    for (index_t n : {index_t(2), index_t(5), index_t(250)}) {
        BOOST_TEST_CONTEXT("n = " << n) {
            const vec g = random_values(std::size_t(n * n), 20 + std::uint64_t(n));
            vec expected(g.size());
            for (index_t i = 0; i < n; ++i)
                for (index_t j = 0; j < n; ++j) expected[std::size_t(i * n + j)] = g[std::size_t(j * n + i)];
            test_support::for_thread_counts([&] {
                auto a = make_array<2>({n, n}, g);
                a = bsx::transpose(a);
                expect_array(a, {n, n}, expected);
                // The same, written through a transposed destination view.
                auto b = make_array<2>({n, n}, g);
                bsx::transpose(b) = b;
                expect_array(b, {n, n}, expected);
            });
        }
    }
}

BOOST_AUTO_TEST_CASE(non_square_transpose_onto_itself_resizes) {
    const index_t m = 3, n = 5;
    const vec g = random_values(std::size_t(m * n), 30);
    vec expected(g.size());
    for (index_t i = 0; i < n; ++i)
        for (index_t j = 0; j < m; ++j) expected[std::size_t(i * m + j)] = g[std::size_t(j * n + i)];
    auto a = make_array<2>({m, n}, g);
    a = bsx::transpose(a);
    expect_array(a, {n, m}, expected);
}

BOOST_AUTO_TEST_CASE(a_minus_equals_transpose_a) {
    const index_t n = 260;
    const vec g = random_values(std::size_t(n * n), 31);
    vec expected(g.size());
    for (index_t i = 0; i < n; ++i)
        for (index_t j = 0; j < n; ++j)
            expected[std::size_t(i * n + j)] = g[std::size_t(i * n + j)] - g[std::size_t(j * n + i)];
    test_support::for_thread_counts([&] {
        auto a = make_array<2>({n, n}, g);
        a -= bsx::transpose(a);
        expect_array(a, {n, n}, expected);
    });
}

BOOST_AUTO_TEST_SUITE_END()

// ------------------------------------------------------------------ rows and columns

BOOST_AUTO_TEST_SUITE(rows_and_columns)

BOOST_AUTO_TEST_CASE(a_equals_col0_plus_a) {
    for (const auto& mn : {std::array<index_t, 2>{4, 6}, std::array<index_t, 2>{300, 200}}) {
        const index_t m = mn[0], n = mn[1];
        BOOST_TEST_CONTEXT("shape (" << m << "," << n << ")") {
            const vec g = random_values(std::size_t(m * n), 40 + std::uint64_t(m));
            vec exp_col0(g.size()), exp_last(g.size()), exp_row0(g.size());
            for (index_t i = 0; i < m; ++i)
                for (index_t j = 0; j < n; ++j) {
                    const std::size_t e = std::size_t(i * n + j);
                    exp_col0[e] = g[std::size_t(i * n)] + g[e];
                    exp_last[e] = g[e] + g[std::size_t(i * n + n - 1)];
                    exp_row0[e] = g[std::size_t(j)] * g[e];
                }
            test_support::for_thread_counts([&] {
                auto a = make_array<2>({m, n}, g);
                a = a.col(0) + a;
                expect_array(a, {m, n}, exp_col0);
                auto b = make_array<2>({m, n}, g);
                b = b + b.col(n - 1);
                expect_array(b, {m, n}, exp_last);
                auto c = make_array<2>({m, n}, g);
                c = c.row(0) * c;
                expect_array(c, {m, n}, exp_row0);
            });
        }
    }
}

BOOST_AUTO_TEST_CASE(row0_equals_row1_plus_row0) {
    for (const auto& mn : {std::array<index_t, 2>{3, 5}, std::array<index_t, 2>{4, 50000}}) {
        const index_t m = mn[0], n = mn[1];
        BOOST_TEST_CONTEXT("shape (" << m << "," << n << ")") {
            const vec g = random_values(std::size_t(m * n), 50 + std::uint64_t(n));
            vec expected = g;
            for (index_t j = 0; j < n; ++j) expected[std::size_t(j)] = g[std::size_t(n + j)] + g[std::size_t(j)];
            test_support::for_thread_counts([&] {
                auto a = make_array<2>({m, n}, g);
                a.row(0) = a.row(1) + a.row(0);
                expect_array(a, {m, n}, expected);
            });
        }
    }
}

BOOST_AUTO_TEST_CASE(col0_equals_col1_plus_col0) {
    for (const auto& mn : {std::array<index_t, 2>{5, 3}, std::array<index_t, 2>{40000, 3}}) {
        const index_t m = mn[0], n = mn[1];
        BOOST_TEST_CONTEXT("shape (" << m << "," << n << ")") {
            const vec g = random_values(std::size_t(m * n), 60 + std::uint64_t(m));
            vec expected = g;
            for (index_t i = 0; i < m; ++i)
                expected[std::size_t(i * n)] = g[std::size_t(i * n + 1)] + g[std::size_t(i * n)];
            test_support::for_thread_counts([&] {
                auto a = make_array<2>({m, n}, g);
                a.col(0) = a.col(1) + a.col(0);
                expect_array(a, {m, n}, expected);
            });
        }
    }
}

BOOST_AUTO_TEST_CASE(outer_product_of_own_row_and_col) {
    // Every element of a is overwritten by a product of two elements of its row 0 / column 0.
    const index_t n = 200;
    const vec g = random_values(std::size_t(n * n), 65);
    vec expected(g.size());
    for (index_t i = 0; i < n; ++i)
        for (index_t j = 0; j < n; ++j) expected[std::size_t(i * n + j)] = g[std::size_t(i * n)] * g[std::size_t(j)];
    test_support::for_thread_counts([&] {
        auto a = make_array<2>({n, n}, g);
        a = a.col(0) * a.row(0);
        expect_array(a, {n, n}, expected);
    });
}

BOOST_AUTO_TEST_CASE(compound_plus_row0) {
    for (const auto& mn : {std::array<index_t, 2>{3, 4}, std::array<index_t, 2>{250, 200}}) {
        const index_t m = mn[0], n = mn[1];
        BOOST_TEST_CONTEXT("shape (" << m << "," << n << ")") {
            const vec g = random_values(std::size_t(m * n), 70 + std::uint64_t(m));
            vec exp_row(g.size()), exp_col(g.size()), exp_self(g.size());
            for (index_t i = 0; i < m; ++i)
                for (index_t j = 0; j < n; ++j) {
                    const std::size_t e = std::size_t(i * n + j);
                    exp_row[e] = g[e] + g[std::size_t(j)];
                    exp_col[e] = g[e] * g[std::size_t(i * n)];
                    exp_self[e] = g[e] - g[e];
                }
            test_support::for_thread_counts([&] {
                auto a = make_array<2>({m, n}, g);
                a += a.row(0);
                expect_array(a, {m, n}, exp_row);
                auto b = make_array<2>({m, n}, g);
                b *= b.col(0);
                expect_array(b, {m, n}, exp_col);
                auto c = make_array<2>({m, n}, g);
                const auto& same_c = c;  // (through a reference: clang warns on a literal `c -= c`)
                c -= same_c;
                expect_array(c, {m, n}, exp_self);
            });
        }
    }
}

BOOST_AUTO_TEST_CASE(broadcast_to_of_own_row) {
    const index_t m = 220, n = 180;
    const vec g = random_values(std::size_t(m * n), 75);
    vec expected(g.size());
    for (index_t i = 0; i < m; ++i)
        for (index_t j = 0; j < n; ++j)
            expected[std::size_t(i * n + j)] = g[std::size_t(3 * n + j)] - g[std::size_t(i * n + j)];
    test_support::for_thread_counts([&] {
        auto a = make_array<2>({m, n}, g);
        a = bsx::broadcast_to(a.row(3), a.shape()) - a;
        expect_array(a, {m, n}, expected);
    });
}

BOOST_AUTO_TEST_CASE(where_reading_own_row) {
    const index_t m = 200, n = 200;
    const vec g = random_values(std::size_t(m * n), 77);
    vec expected(g.size());
    for (index_t i = 0; i < m; ++i)
        for (index_t j = 0; j < n; ++j) {
            const std::size_t e = std::size_t(i * n + j);
            expected[e] = g[e] > 0 ? g[std::size_t((m - 1) * n + j)] : g[e];
        }
    test_support::for_thread_counts([&] {
        auto a = make_array<2>({m, n}, g);
        a = bsx::where(a > 0.0, a.row(m - 1), a);
        expect_array(a, {m, n}, expected);
    });
}

BOOST_AUTO_TEST_SUITE_END()

// ------------------------------------------------------------------ shifted slices

BOOST_AUTO_TEST_SUITE(shifted_slices)

BOOST_AUTO_TEST_CASE(one_dimensional_both_directions) {
    for (index_t n : {index_t(2), index_t(10), index_t(100000)}) {
        BOOST_TEST_CONTEXT("n = " << n) {
            const vec g = random_values(std::size_t(n), 80 + std::uint64_t(n));
            vec right = g, left = g, mixed = g;
            for (index_t i = 1; i < n; ++i) right[std::size_t(i)] = g[std::size_t(i - 1)];
            for (index_t i = 0; i + 1 < n; ++i) left[std::size_t(i)] = g[std::size_t(i + 1)];
            for (index_t i = 1; i < n; ++i) mixed[std::size_t(i)] = g[std::size_t(i - 1)] + g[std::size_t(i)];
            // A naive forward in-place copy smears the first element: the case can fail.
            if (n > 2) {
                vec smear = g;
                for (index_t i = 1; i < n; ++i) smear[std::size_t(i)] = smear[std::size_t(i - 1)];
                BOOST_REQUIRE(smear != right);
            }
            test_support::for_thread_counts([&] {
                auto v = make_array<1>({n}, g);
                bsx::slice(v, bsx::range(1, n)) = bsx::slice(v, bsx::range(0, n - 1));
                expect_array(v, {n}, right);

                auto w = make_array<1>({n}, g);
                bsx::slice(w, bsx::range(0, n - 1)) = bsx::slice(w, bsx::range(1, n));
                expect_array(w, {n}, left);

                auto x = make_array<1>({n}, g);
                bsx::slice(x, bsx::range(1, n)) = bsx::slice(x, bsx::range(0, n - 1)) + bsx::slice(x, bsx::range(1, n));
                expect_array(x, {n}, mixed);

                // The same shift with a negative start (NumPy: counts from the end).
                auto y = make_array<1>({n}, g);
                bsx::slice(y, bsx::range(-(n - 1), n)) = bsx::slice(y, bsx::range(0, -1));
                expect_array(y, {n}, right);
            });
        }
    }
}

BOOST_AUTO_TEST_CASE(two_dimensional_each_axis) {
    for (const auto& mn : {std::array<index_t, 2>{4, 5}, std::array<index_t, 2>{300, 210}}) {
        const index_t m = mn[0], n = mn[1];
        BOOST_TEST_CONTEXT("shape (" << m << "," << n << ")") {
            const vec g = random_values(std::size_t(m * n), 90 + std::uint64_t(m));
            auto at = [&](index_t i, index_t j) { return g[std::size_t(i * n + j)]; };
            vec down = g, up = g, rightw = g, leftw = g;
            for (index_t i = 0; i < m; ++i)
                for (index_t j = 0; j < n; ++j) {
                    const std::size_t e = std::size_t(i * n + j);
                    if (i >= 1) down[e] = at(i - 1, j);
                    if (i + 1 < m) up[e] = at(i + 1, j);
                    if (j >= 1) rightw[e] = at(i, j - 1);
                    if (j + 1 < n) leftw[e] = at(i, j + 1);
                }
            test_support::for_thread_counts([&] {
                auto a = make_array<2>({m, n}, g);
                bsx::slice(a, bsx::range(1, m)) = bsx::slice(a, bsx::range(0, m - 1));
                expect_array(a, {m, n}, down);

                auto b = make_array<2>({m, n}, g);
                bsx::slice(b, bsx::range(0, m - 1)) = bsx::slice(b, bsx::range(1, m));
                expect_array(b, {m, n}, up);

                auto c = make_array<2>({m, n}, g);
                bsx::slice(c, bsx::all, bsx::range(1, n)) = bsx::slice(c, bsx::all, bsx::range(0, n - 1));
                expect_array(c, {m, n}, rightw);

                auto d = make_array<2>({m, n}, g);
                bsx::slice(d, bsx::all, bsx::range(0, n - 1)) = bsx::slice(d, bsx::all, bsx::range(1, n));
                expect_array(d, {m, n}, leftw);
            });
        }
    }
}

BOOST_AUTO_TEST_CASE(strided_slices_overlapping) {
    // Even elements <- odd elements shifted: v[0:n-1:2] = v[1:n:2] + v[0:n-1:2] (one read is
    // the destination itself, the other interleaves with it), and a step-2 shift by 2.
    const index_t n = 70001;
    const vec g = random_values(std::size_t(n), 95);
    vec e1 = g, e2 = g;
    for (index_t i = 0; i + 1 < n; i += 2) e1[std::size_t(i)] = g[std::size_t(i + 1)] + g[std::size_t(i)];
    for (index_t i = 2; i < n; i += 2) e2[std::size_t(i)] = g[std::size_t(i - 2)];
    test_support::for_thread_counts([&] {
        auto v = make_array<1>({n}, g);
        bsx::slice(v, bsx::range(0, n - 1, 2)) =
            bsx::slice(v, bsx::range(1, n, 2)) + bsx::slice(v, bsx::range(0, n - 1, 2));
        expect_array(v, {n}, e1);
        auto w = make_array<1>({n}, g);
        bsx::slice(w, bsx::range(2, n, 2)) = bsx::slice(w, bsx::range(0, n - 2, 2));
        expect_array(w, {n}, e2);
    });
}

BOOST_AUTO_TEST_SUITE_END()

// ------------------------------------------------------------------ reversed views

BOOST_AUTO_TEST_SUITE(reversed_views)

BOOST_AUTO_TEST_CASE(reverse_into_same_array) {
    for (index_t n : {index_t(1), index_t(2), index_t(9), index_t(50001)}) {
        BOOST_TEST_CONTEXT("n = " << n) {
            const vec g = random_values(std::size_t(n), 100 + std::uint64_t(n));
            vec rev(g.size()), sum(g.size());
            for (index_t i = 0; i < n; ++i) {
                rev[std::size_t(i)] = g[std::size_t(n - 1 - i)];
                sum[std::size_t(i)] = g[std::size_t(i)] + g[std::size_t(n - 1 - i)];
            }
            test_support::for_thread_counts([&] {
                auto v = make_array<1>({n}, g);
                v = bsx::slice(v, bsx::range(-1, -n - 1, -1));
                expect_array(v, {n}, rev);

                auto w = make_array<1>({n}, g);
                bsx::slice(w, bsx::range(-1, -n - 1, -1)) = w;  // write reversed
                expect_array(w, {n}, rev);

                auto x = make_array<1>({n}, g);
                x = x + bsx::slice(x, bsx::range(-1, -n - 1, -1));
                expect_array(x, {n}, sum);

                auto y = make_array<1>({n}, g);
                y += bsx::slice(y, bsx::range(n - 1, -n - 1, -1));
                expect_array(y, {n}, sum);
            });
        }
    }
}

BOOST_AUTO_TEST_CASE(reversed_source_starting_outside_the_destination) {
    // v[0:h] = v[h:0:-1]: the source's first element v[h] lies just outside the
    // destination, its other elements inside (a negative-stride overlap).
    for (index_t n : {index_t(12), index_t(80001)}) {
        BOOST_TEST_CONTEXT("n = " << n) {
            const index_t h = n / 2;
            const vec g = random_values(std::size_t(n), 105 + std::uint64_t(n));
            vec expected = g;
            for (index_t i = 0; i < h; ++i) expected[std::size_t(i)] = g[std::size_t(h - i)];
            vec wrong = g;  // the same copy done in place, front to back
            for (index_t i = 0; i < h; ++i) wrong[std::size_t(i)] = wrong[std::size_t(h - i)];
            BOOST_REQUIRE(wrong != expected);
            test_support::for_thread_counts([&] {
                auto v = make_array<1>({n}, g);
                bsx::slice(v, bsx::range(0, h)) = bsx::slice(v, bsx::range(h, 0, -1));
                expect_array(v, {n}, expected);
                // And a reversed destination over a forward source: w[h:0:-1] = w[0:h].
                vec e2 = g;
                for (index_t i = 0; i < h; ++i) e2[std::size_t(h - i)] = g[std::size_t(i)];
                auto w = make_array<1>({n}, g);
                bsx::slice(w, bsx::range(h, 0, -1)) = bsx::slice(w, bsx::range(0, h));
                expect_array(w, {n}, e2);
            });
        }
    }
}

BOOST_AUTO_TEST_CASE(reverse_along_each_axis_2d) {
    const index_t m = 190, n = 230;
    const vec g = random_values(std::size_t(m * n), 110);
    vec r0(g.size()), r1(g.size());
    for (index_t i = 0; i < m; ++i)
        for (index_t j = 0; j < n; ++j) {
            r0[std::size_t(i * n + j)] = g[std::size_t((m - 1 - i) * n + j)];
            r1[std::size_t(i * n + j)] = g[std::size_t(i * n + (n - 1 - j))];
        }
    test_support::for_thread_counts([&] {
        auto a = make_array<2>({m, n}, g);
        a = bsx::slice(a, bsx::range(-1, -m - 1, -1));
        expect_array(a, {m, n}, r0);
        auto b = make_array<2>({m, n}, g);
        b = bsx::slice(b, bsx::all, bsx::range(-1, -n - 1, -1));
        expect_array(b, {m, n}, r1);
    });
}

BOOST_AUTO_TEST_SUITE_END()

// ------------------------------------------------------------------ permutations

BOOST_AUTO_TEST_SUITE(permutations)

BOOST_AUTO_TEST_CASE(permute_cube_onto_itself) {
    for (index_t n : {index_t(3), index_t(41)}) {  // 41^3 = 68921: parallel
        BOOST_TEST_CONTEXT("n = " << n) {
            const vec g = random_values(std::size_t(n * n * n), 120 + std::uint64_t(n));
            auto G = [&](index_t i, index_t j, index_t k) { return g[std::size_t((i * n + j) * n + k)]; };
            // permute(x, {1,2,0})(i,j,k) = x(k,i,j); permute(x, {2,0,1})(i,j,k) = x(j,k,i);
            // permute(x, {0,2,1})(i,j,k) = x(i,k,j).
            vec p120(g.size()), p201(g.size()), p021(g.size()), plus(g.size());
            for (index_t i = 0; i < n; ++i)
                for (index_t j = 0; j < n; ++j)
                    for (index_t k = 0; k < n; ++k) {
                        const std::size_t e = std::size_t((i * n + j) * n + k);
                        p120[e] = G(k, i, j);
                        p201[e] = G(j, k, i);
                        p021[e] = G(i, k, j);
                        plus[e] = G(i, j, k) + G(k, i, j);
                    }
            test_support::for_thread_counts([&] {
                auto a = make_array<3>({n, n, n}, g);
                a = bsx::permute(a, {1, 2, 0});
                expect_array(a, {n, n, n}, p120);
                auto b = make_array<3>({n, n, n}, g);
                b = bsx::permute(b, {2, 0, 1});
                expect_array(b, {n, n, n}, p201);
                auto c = make_array<3>({n, n, n}, g);
                c = bsx::permute(c, {0, 2, 1});
                expect_array(c, {n, n, n}, p021);
                auto d = make_array<3>({n, n, n}, g);
                d = d + bsx::permute(d, {1, 2, 0});
                expect_array(d, {n, n, n}, plus);
                auto e = make_array<3>({n, n, n}, g);
                bsx::permute(e, {2, 0, 1}) = e;  // written through the inverse permutation
                expect_array(e, {n, n, n}, p120);
            });
        }
    }
}

BOOST_AUTO_TEST_CASE(permute_non_cube_onto_itself_resizes) {
    const index_t A = 2, B = 3, C = 4;
    const vec g = random_values(std::size_t(A * B * C), 130);
    // permute(x, {1,2,0}): shape (B, C, A), element (i,j,k) = x(k,i,j).
    vec expected(g.size());
    for (index_t i = 0; i < B; ++i)
        for (index_t j = 0; j < C; ++j)
            for (index_t k = 0; k < A; ++k)
                expected[std::size_t((i * C + j) * A + k)] = g[std::size_t((k * B + i) * C + j)];
    auto a = make_array<3>({A, B, C}, g);
    a = bsx::permute(a, {1, 2, 0});
    expect_array(a, {B, C, A}, expected);
}

BOOST_AUTO_TEST_SUITE_END()

// ------------------------------------------------------------------ shape changes

BOOST_AUTO_TEST_SUITE(shape_changes)

BOOST_AUTO_TEST_CASE(destination_grows_and_is_read) {
    // r (1,5) = r + col (4,1): result (4,5), r read on the right.
    const vec g = random_values(5, 140), c = random_values(4, 141);
    vec expected(20);
    for (index_t i = 0; i < 4; ++i)
        for (index_t j = 0; j < 5; ++j) expected[std::size_t(i * 5 + j)] = g[std::size_t(j)] + c[std::size_t(i)];
    auto r = make_array<2>({1, 5}, g);
    const auto col = make_array<2>({4, 1}, c);
    r = r + col;
    expect_array(r, {4, 5}, expected);

    // s (3,1) = s * transpose(s): result (3,3).
    const vec h = random_values(3, 142);
    vec outer(9);
    for (index_t i = 0; i < 3; ++i)
        for (index_t j = 0; j < 3; ++j) outer[std::size_t(i * 3 + j)] = h[std::size_t(i)] * h[std::size_t(j)];
    auto s = make_array<2>({3, 1}, h);
    s = s * bsx::transpose(s);
    expect_array(s, {3, 3}, outer);
}

BOOST_AUTO_TEST_CASE(destination_grows_large) {
    // r (1,300) = r.T + r : (300,300), parallel.
    const index_t n = 300;
    const vec g = random_values(std::size_t(n), 143);
    vec expected(std::size_t(n * n));
    for (index_t i = 0; i < n; ++i)
        for (index_t j = 0; j < n; ++j) expected[std::size_t(i * n + j)] = g[std::size_t(i)] + g[std::size_t(j)];
    test_support::for_thread_counts([&] {
        auto r = make_array<2>({1, n}, g);
        r = bsx::transpose(r) + r;
        expect_array(r, {n, n}, expected);
    });
}

BOOST_AUTO_TEST_CASE(destination_shrinks_and_is_read) {
    // v (6,) = v[1:4] * 2: result (3,), reads v.
    const vec g = random_values(6, 144);
    vec expected{g[1] * 2.0, g[2] * 2.0, g[3] * 2.0};
    auto v = make_array<1>({6}, g);
    v = bsx::slice(v, bsx::range(1, 4)) * 2.0;
    expect_array(v, {3}, expected);

    // a (4,5) = a[0:4:2, 1:2] + a[3:4, 0:3]: (2,1) + (1,3) -> (2,3), both read a.
    const vec h = random_values(20, 145);
    vec e2(6);
    for (index_t i = 0; i < 2; ++i)
        for (index_t j = 0; j < 3; ++j)
            e2[std::size_t(i * 3 + j)] = h[std::size_t((2 * i) * 5 + 1)] + h[std::size_t(3 * 5 + j)];
    auto a = make_array<2>({4, 5}, h);
    a = bsx::slice(a, bsx::range(0, 4, 2), bsx::range(1, 2)) + bsx::slice(a, bsx::range(3, 4), bsx::range(0, 3));
    expect_array(a, {2, 3}, e2);
}

BOOST_AUTO_TEST_CASE(copies_start_on_a_cache_line_inside_their_allocation) {
    // The buffer of an aliasing copy (or of a nested reduction's result): its first element
    // on a 64-byte boundary, and all `count` elements inside the one allocation.
    const auto check = [](auto element, std::size_t count) {
        using V = decltype(element);
        const auto [owner, first] = bsx::detail::make_line_aligned_buffer<V>(count);
        const auto at = reinterpret_cast<std::uintptr_t>(first), base = reinterpret_cast<std::uintptr_t>(owner.get());
        BOOST_TEST(at % 64 == 0u, sizeof(V) << "-byte elements, count " << count << ": starts at " << at % 64);
        BOOST_TEST(at >= base);
        BOOST_TEST(at + count * sizeof(V) <= base + (count + 64 / sizeof(V) - 1) * sizeof(V));
    };
    for (std::size_t count : {0u, 1u, 3u, 100u, 1001u}) {
        check(bool{}, count);
        check(std::int32_t{}, count);
        check(double{}, count);
    }
}

BOOST_AUTO_TEST_SUITE_END()
