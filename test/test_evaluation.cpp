// Evaluation (api.md section 5): construction, assignment with resize, compound
// assignment, bsx::eval, assignment into views without resize, scalar fills; the
// parallel loop (results identical, bit for bit, for 1, 2 and 3 threads, and equal to
// a plain-loop reference), evaluation inside an enclosing OpenMP parallel region,
// small inner extents (the RGB case), zero-size shapes, and expressions kept in
// `auto` over temporaries and evaluated later.
//
// The `minimal` preset builds this file WITHOUT OpenMP: everything that names OpenMP
// is guarded by _OPENMP, and the same checks then run serially.
#define BOOST_TEST_MODULE bsx_evaluation
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include "test_support.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace {

using namespace test_support;

using bsx::index_t;
using vec = std::vector<double>;

// With FMA instructions enabled the compiler may contract a*b + c differently in the
// reference loop and in bsx's loop; results then agree only to rounding. Thread-count
// comparisons stay bit-exact either way (same code, different partition).
#if defined(__FMA__)
constexpr double ref_tol = 1e-13;
#else
constexpr double ref_tol = 0.0;
#endif

/// Same shape and the same bytes.
template <class T, std::size_t N>
bool bitwise_equal(const bsx::array<T, N>& a, const bsx::array<T, N>& b) {
    return a.shape() == b.shape() &&
           (a.size() == 0 || std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(T)) == 0);
}

/// Runs f with 1, 2 and 3 OpenMP threads (once without OpenMP), and checks that every
/// result is bit-identical to the first. Returns the first.
template <class F>
auto same_for_thread_counts(F&& f) {
#ifdef _OPENMP
    const int saved = omp_get_max_threads();
    omp_set_num_threads(1);
    auto first = f();
    for (int t : {2, 3}) {
        omp_set_num_threads(t);
        auto again = f();
        BOOST_CHECK_MESSAGE(bitwise_equal(first, again), "result with " << t << " threads differs from 1 thread");
    }
    omp_set_num_threads(saved);
    return first;
#else
    return f();
#endif
}

constexpr index_t M = 301, N = 299;  // 89999 elements: parallel, partitions split rows unevenly

struct inputs {
    vec x = random_values(std::size_t(M * N), 1);
    vec y = random_values(std::size_t(N), 2);  // a row (N,)
    vec z = random_values(std::size_t(M), 3);  // a column (M,1)
    bsx::array<double, 2> X = make_array<2>({M, N}, x);
    bsx::array<double, 1> Y = make_array<1>({N}, y);
    bsx::array<double, 2> Z = make_array<2>({M, 1}, z);
};

}  // namespace

// ============================================================== parallel determinism

BOOST_AUTO_TEST_SUITE(parallel_results)

BOOST_AUTO_TEST_CASE(double_chain_with_broadcasts_and_math) {
    const inputs in;
    // (plain references, not a structured binding: clang 14 cannot capture bindings in lambdas)
    const vec &x = in.x, &y = in.y, &z = in.z;
    const bsx::array<double, 2>& X = in.X;
    const bsx::array<double, 1>& Y = in.Y;
    const bsx::array<double, 2>& Z = in.Z;
    vec expected(std::size_t(M * N));
    for (index_t i = 0; i < M; ++i)
        for (index_t j = 0; j < N; ++j) {
            const double xv = x[std::size_t(i * N + j)], yv = y[std::size_t(j)], zv = z[std::size_t(i)];
            // exp as bsx computes one element (vector math, test_vector_math.cpp checks its
            // accuracy), so that the comparison stays exact.
            expected[std::size_t(i * N + j)] =
                std::sqrt(std::abs(xv * yv + zv)) - bsx::ops::exp{}(zv * 0.01) / (1.0 + xv * xv);
        }
    const auto r = same_for_thread_counts([&] {
        bsx::array<double, 2> out = bsx::sqrt(bsx::abs(X * Y + Z)) - bsx::exp(Z * 0.01) / (1.0 + X * X);
        return out;
    });
    expect_array(r, {M, N}, expected, ref_tol);
}

BOOST_AUTO_TEST_CASE(where_into_int_and_bool_destinations) {
    const inputs in;
    // (plain references, not a structured binding: clang 14 cannot capture bindings in lambdas)
    const vec &x = in.x, &y = in.y, &z = in.z;
    const bsx::array<double, 2>& X = in.X;
    const bsx::array<double, 1>& Y = in.Y;
    const bsx::array<double, 2>& Z = in.Z;
    std::vector<int> e_int(std::size_t(M * N));
    std::vector<bool> e_bool(std::size_t(M * N));
    std::vector<std::uint8_t> e_u8(std::size_t(M * N));
    std::vector<float> e_f(std::size_t(M * N));
    for (index_t i = 0; i < M; ++i)
        for (index_t j = 0; j < N; ++j) {
            const std::size_t k = std::size_t(i * N + j);
            const double xv = x[k], yv = y[std::size_t(j)], zv = z[std::size_t(i)];
            e_int[k] = xv > yv ? int(xv * 10.0) : -7 - int(zv);
            e_bool[k] = (xv > zv) && !(yv < 0.5);
            const double u8 = (xv + 3.0) * 40.0;  // saturates to [0, 255] (api.md: bsx::cast)
            e_u8[k] = u8 <= 0.0 ? 0 : u8 >= 255.0 ? 255 : static_cast<std::uint8_t>(u8);
            e_f[k] = static_cast<float>(xv * yv - zv);
        }
    const auto ri = same_for_thread_counts([&] {
        bsx::array<int, 2> out = bsx::where(X > Y, bsx::cast<int>(X * 10.0), -7 - bsx::cast<int>(Z));
        return out;
    });
    expect_array(ri, {M, N}, e_int, ref_tol);
    const auto rb = same_for_thread_counts([&] {
        bsx::array<bool, 2> out = (X > Z) && !(Y < 0.5);
        return out;
    });
    expect_array(rb, {M, N}, e_bool, ref_tol);
    const auto ru = same_for_thread_counts([&] {
        bsx::array<std::uint8_t, 2> out = bsx::cast<std::uint8_t>((X + 3.0) * 40.0);
        return out;
    });
    expect_array(ru, {M, N}, e_u8, ref_tol);
    const auto rf = same_for_thread_counts([&] {
        bsx::array<float, 2> out = X * Y - Z;
        return out;
    });
    expect_array(rf, {M, N}, e_f, ref_tol);
}

BOOST_AUTO_TEST_CASE(integer_arithmetic_chain) {
    std::vector<int> a(static_cast<std::size_t>(M * N)), b(static_cast<std::size_t>(N));
    std::mt19937 rng(7);
    for (auto& v : a) v = int(rng() % 2001) - 1000;
    for (auto& v : b) v = int(rng() % 97) + 1;
    const auto A = make_array<2>({M, N}, a);
    const auto B = make_array<1>({N}, b);
    std::vector<long> expected(a.size());
    for (index_t i = 0; i < M; ++i)
        for (index_t j = 0; j < N; ++j) {
            const int av = a[std::size_t(i * N + j)], bv = b[std::size_t(j)];
            expected[std::size_t(i * N + j)] = long(av * bv + av % bv - (av ^ bv) + (av & 0xff));
        }
    const auto r = same_for_thread_counts([&] {
        bsx::array<long, 2> out = A * B + A % B - (A ^ B) + (A & 0xff);
        return out;
    });
    expect_array(r, {M, N}, expected, ref_tol);
}

BOOST_AUTO_TEST_CASE(strided_destinations) {
    const inputs in;
    // (plain references, not a structured binding: clang 14 cannot capture bindings in lambdas)
    const vec &x = in.x, &y = in.y, &z = in.z;
    const bsx::array<double, 2>& X = in.X;
    const bsx::array<double, 1>& Y = in.Y;
    const bsx::array<double, 2>& Z = in.Z;
    // 1. Into a transposed view of an (N, M) array: t(j, i) = X(i,j) * Y(j) + Z(i).
    vec e_t(std::size_t(M * N));
    for (index_t i = 0; i < M; ++i)
        for (index_t j = 0; j < N; ++j)
            e_t[std::size_t(j * M + i)] = x[std::size_t(i * N + j)] * y[std::size_t(j)] + z[std::size_t(i)];
    const auto rt = same_for_thread_counts([&] {
        bsx::array<double, 2> t = bsx::zeros<double>(N, M);
        bsx::transpose(t) = X * Y + Z;
        return t;
    });
    expect_array(rt, {N, M}, e_t, ref_tol);

    // 2. Into one column of a wide array (strided, 40000 x 1, parallel); other columns untouched.
    const index_t R = 40000;
    const vec c = random_values(std::size_t(R), 11);
    const auto C = make_array<2>({R, 1}, c);
    vec e_c(std::size_t(R * 3), -1.0);
    for (index_t i = 0; i < R; ++i) e_c[std::size_t(i * 3 + 1)] = c[std::size_t(i)] * 2.0 - 1.0;
    const auto rc = same_for_thread_counts([&] {
        bsx::array<double, 2> w = bsx::full<double, 2>({R, 3}, -1.0);
        w.col(1) = C * 2.0 - 1.0;
        return w;
    });
    expect_array(rc, {R, 3}, e_c, ref_tol);

    // 3. Into every second row of a (2M, N) array, with a negative column step.
    vec e_s(std::size_t(2 * M * N), 0.5);
    for (index_t i = 0; i < M; ++i)
        for (index_t j = 0; j < N; ++j)
            e_s[std::size_t((2 * i) * N + (N - 1 - j))] = x[std::size_t(i * N + j)] - y[std::size_t(j)];
    const auto rs = same_for_thread_counts([&] {
        bsx::array<double, 2> s = bsx::full<double, 2>({2 * M, N}, 0.5);
        bsx::slice(s, bsx::range(0, 2 * M, 2), bsx::range(-1, -N - 1, -1)) = X - Y;
        return s;
    });
    expect_array(rs, {2 * M, N}, e_s, ref_tol);

    // 4. bool into a transposed view.
    std::vector<bool> e_b(std::size_t(M * N));
    for (index_t i = 0; i < M; ++i)
        for (index_t j = 0; j < N; ++j) e_b[std::size_t(j * M + i)] = x[std::size_t(i * N + j)] >= z[std::size_t(i)];
    const auto rb = same_for_thread_counts([&] {
        bsx::array<bool, 2> b(std::array<index_t, 2>{N, M});
        bsx::transpose(b) = X >= Z;
        return b;
    });
    expect_array(rb, {N, M}, e_b, ref_tol);
}

/// `r = view` for a lone view that rows cannot read in place, copied row by row with no
/// kernel (loop_kind::copy): flipped, transposed and strided, into contiguous and strided
/// destinations, and from 3-D permutations; element by element against index arithmetic,
/// bit-identical for 1, 2 and 3 threads.
template <class T>
T pattern_value(index_t k) {
    if constexpr (std::is_same_v<T, bool>)
        return (k / 3) % 2 == 1;  // as many of each, in runs that no shift lines up
    else
        return static_cast<T>(k % 101);
}

template <class T>
void check_lone_view_copies() {
    const index_t m = 301, n = 299;
    bsx::array<T, 2> a(std::array<index_t, 2>{m, n});
    for (index_t i = 0; i < m; ++i)
        for (index_t j = 0; j < n; ++j) a(i, j) = pattern_value<T>(i * 7 + j * 3);
    const auto flipped = same_for_thread_counts([&] {
        bsx::array<T, 2> r = bsx::zeros<T>(m, n);
        r = bsx::flip(a);
        return r;
    });
    const auto transposed = same_for_thread_counts([&] {
        bsx::array<T, 2> r = bsx::zeros<T>(n, m);
        r = bsx::transpose(a);
        return r;
    });
    const auto strided = same_for_thread_counts([&] {
        bsx::array<T, 2> r = bsx::zeros<T>((m + 1) / 2, (n + 2) / 3);
        r = bsx::slice(a, bsx::range(0, m, 2), bsx::range(n - 1, -n - 1, -3));
        return r;
    });
    const auto into_columns = same_for_thread_counts([&] {  // a strided destination
        bsx::array<T, 2> r = bsx::zeros<T>(n, 2 * m);
        bsx::slice(r, bsx::all, bsx::range(1, 2 * m, 2)) = bsx::transpose(a);
        return r;
    });
    const auto into_flipped = same_for_thread_counts([&] {  // destination strides negative
        bsx::array<T, 2> r = bsx::zeros<T>(n, m);
        bsx::flip(r) = bsx::transpose(a);
        return r;
    });
    const auto few_rows = same_for_thread_counts([&] {  // fewer outer rows than threads
        bsx::array<T, 2> r = bsx::zeros<T>(2, m);
        r = bsx::transpose(bsx::slice(a, bsx::all, bsx::range(0, 2)));
        return r;
    });
    for (index_t i = 0; i < m; ++i)
        for (index_t j = 0; j < n; ++j) {
            if (flipped(m - 1 - i, n - 1 - j) != a(i, j)) BOOST_FAIL("flip: element (" << i << ", " << j << ")");
            if (transposed(j, i) != a(i, j)) BOOST_FAIL("transpose: element (" << i << ", " << j << ")");
            if (into_columns(j, 2 * i + 1) != a(i, j) || into_columns(j, 2 * i) != T{})
                BOOST_FAIL("strided destination: element (" << i << ", " << j << ")");
            if (i % 2 == 0 && (n - 1 - j) % 3 == 0 && strided(i / 2, (n - 1 - j) / 3) != a(i, j))
                BOOST_FAIL("strided slice: element (" << i << ", " << j << ")");
            if (into_flipped(n - 1 - j, m - 1 - i) != a(i, j))
                BOOST_FAIL("flipped destination: element (" << i << ", " << j << ")");
            if (j < 2 && few_rows(j, i) != a(i, j)) BOOST_FAIL("two rows: element (" << i << ", " << j << ")");
        }
    bsx::array<T, 3> c(std::array<index_t, 3>{13, 17, 19});
    for (index_t i = 0; i < c.size(); ++i) c.data()[i] = pattern_value<T>(i);
    const auto permuted = same_for_thread_counts([&] {
        bsx::array<T, 3> r = bsx::zeros<T>(19, 13, 17);
        r = bsx::permute(c, {2, 0, 1});
        return r;
    });
    for (index_t i = 0; i < 13; ++i)
        for (index_t j = 0; j < 17; ++j)
            for (index_t k = 0; k < 19; ++k)
                if (permuted(k, i, j) != c(i, j, k))
                    BOOST_FAIL("permute: element (" << i << ", " << j << ", " << k << ")");
}

/// x - y (x != y for bool), of elements or of expressions: pattern values are at most 100,
/// so no difference overflows an int8.
template <class T, class X, class Y>
auto strided_combination(const X& x, const Y& y) {
    if constexpr (std::is_same_v<T, bool>)
        return x != y;
    else
        return x - y;
}

/// Operands read in place with small strides (loop_kind::strided): strides 2 to 8 beside a
/// contiguous operand, in runs of rows and in one long row that threads split mid-row, into
/// a contiguous destination, and a small transposed matrix; element by element against
/// index arithmetic, bit-identical for 1, 2 and 3 threads. The plan is asserted too, so that
/// the values checked are the strided kernel's (1- and 2-byte elements at stride 2 keep the
/// tiles).
template <class T>
void check_strided_reads() {
    const index_t m = 37, n = 160, long_row = 40001;
    const auto expect_plan = [](index_t step, const auto& dest, const auto& expr) {
        const bool strided = !(step == 2 && sizeof(T) < 4);
        const auto plan = bsx::detail::plan_assignment(dest.data(), dest.shape(), dest.strides(), expr);
        BOOST_TEST((plan.kind == bsx::detail::loop_kind::strided) == strided, "step " << step);
    };
    bsx::array<T, 2> a(std::array<index_t, 2>{m, 8 * n + 1}), b(std::array<index_t, 2>{m, n});
    for (index_t i = 0; i < a.size(); ++i) a.data()[i] = pattern_value<T>(i);
    for (index_t i = 0; i < b.size(); ++i) b.data()[i] = pattern_value<T>(3 * i + 1);
    bsx::array<T, 1> c(std::array<index_t, 1>{8 * long_row}), d(std::array<index_t, 1>{long_row});
    for (index_t i = 0; i < c.size(); ++i) c.data()[i] = pattern_value<T>(i);
    for (index_t i = 0; i < d.size(); ++i) d.data()[i] = pattern_value<T>(5 * i + 2);
    for (index_t step = 2; step <= bsx::detail::max_strided_read; ++step) {
        const auto in = bsx::slice(a, bsx::all, bsx::range(1, 1 + n * step, step));
        bsx::array<T, 2> probe = bsx::zeros<T>(m, n);
        expect_plan(step, probe, strided_combination<T>(in, b));
        const auto rows = same_for_thread_counts([&] {
            bsx::array<T, 2> r = bsx::zeros<T>(m, n);
            r = strided_combination<T>(in, b);
            return r;
        });
        for (index_t i = 0; i < m; ++i)
            for (index_t j = 0; j < n; ++j)
                if (rows(i, j) != static_cast<T>(strided_combination<T>(a(i, 1 + j * step), b(i, j))))
                    BOOST_FAIL("step " << step << ": element (" << i << ", " << j << ")");
        const auto line = bsx::slice(c, bsx::range(step - 1, step - 1 + long_row * step, step));
        const auto one_row = same_for_thread_counts([&] {
            bsx::array<T, 1> r = bsx::zeros<T>(long_row);
            r = strided_combination<T>(d, line);
            return r;
        });
        for (index_t j = 0; j < long_row; ++j)
            if (one_row(j) != static_cast<T>(strided_combination<T>(d(j), c(step - 1 + j * step))))
                BOOST_FAIL("step " << step << ", one row: element " << j);
    }
    bsx::array<T, 2> s(std::array<index_t, 2>{7, 7});
    for (index_t i = 0; i < s.size(); ++i) s.data()[i] = pattern_value<T>(2 * i);
    bsx::array<T, 2> t = bsx::zeros<T>(7, 7);
    expect_plan(7, t, strided_combination<T>(bsx::transpose(s), s));
    t = strided_combination<T>(bsx::transpose(s), s);
    for (index_t i = 0; i < 7; ++i)
        for (index_t j = 0; j < 7; ++j)
            if (t(i, j) != static_cast<T>(strided_combination<T>(s(j, i), s(i, j))))
                BOOST_FAIL("transpose: element (" << i << ", " << j << ")");
}

/// A destination written in place with small strides (loop_kind::strided, views only):
/// every other column, third column, ... of a larger matrix, from contiguous operands (the
/// kernel that only writes strided), from a strided operand (the kernel that reads and
/// writes strided, also at destination stride 1), by a compound assignment (the view read
/// at the stride it is written), by a masked one, and from an operand that overlaps the
/// destination at other elements (copied first). Matrices of many short rows, of long rows
/// that threads split mid-row, and of runs of rows per thread; element by
/// element against index arithmetic, the elements between those written left as they were,
/// bit-identical for 1, 2 and 3 threads, the plan asserted.
template <class T>
void check_strided_writes(index_t m, index_t n, index_t max_step) {
    using bsx::detail::destination_rows;
    const auto expect_plan = [](bsx::detail::loop_kind kind, const auto& dest, const auto& expr) {
        const auto plan =
            bsx::detail::plan_assignment<destination_rows::any_stride>(dest.data(), dest.shape(), dest.strides(), expr);
        BOOST_TEST((plan.kind == kind));
    };
    using enum bsx::detail::loop_kind;
    const auto untouched = [](index_t i) { return pattern_value<T>(7 * i + 3); };
    bsx::array<T, 2> x(std::array<index_t, 2>{m, n}), y(std::array<index_t, 2>{m, n});
    for (index_t i = 0; i < x.size(); ++i) x.data()[i] = pattern_value<T>(i);
    for (index_t i = 0; i < y.size(); ++i) y.data()[i] = pattern_value<T>(3 * i + 1);
    bsx::array<T, 2> a(std::array<index_t, 2>{m, 3 * n});  // read at stride 3
    for (index_t i = 0; i < a.size(); ++i) a.data()[i] = pattern_value<T>(5 * i + 2);
    const auto in = bsx::slice(a, bsx::all, bsx::range(0, 3 * n, 3));
    const auto mask = bsx::eval(bsx::mod(bsx::arange<index_t>(m * n), index_t(3)) == index_t(0));
    const auto masked = [&](index_t i, index_t j) { return mask.data()[i * n + j]; };
    for (index_t step = 1; step <= max_step; ++step) {
        BOOST_TEST_CONTEXT("shape (" << m << ", " << n << "), destination step " << step) {
            const index_t width = n * step + 1;
            const auto fresh = [&] {
                bsx::array<T, 2> big(std::array<index_t, 2>{m, width});
                for (index_t i = 0; i < big.size(); ++i) big.data()[i] = untouched(i);
                return big;
            };
            const auto out = [&](bsx::array<T, 2>& big) {
                return bsx::slice(big, bsx::all, bsx::range(1, 1 + n * step, step));
            };
            // Element (i, k) of the matrix after writing f(i, j) at its column k = 1 + j * step.
            const auto check = [&](const char* what, const bsx::array<T, 2>& got, auto f) {
                for (index_t i = 0; i < m; ++i)
                    for (index_t k = 0; k < width; ++k) {
                        const index_t j = (k - 1) / step;
                        const bool written = k >= 1 && (k - 1) % step == 0 && j < n;
                        const T want = written ? static_cast<T>(f(i, j)) : untouched(i * width + k);
                        if (got(i, k) != want) BOOST_FAIL(what << ": element (" << i << ", " << k << ")");
                    }
            };
            const auto old = [&](index_t i, index_t j) { return untouched(i * width + 1 + j * step); };
            bsx::array<T, 2> probe = fresh();
            auto view = out(probe);
            expect_plan(step > 1 ? strided : rows, view, strided_combination<T>(x, y));
            expect_plan(strided, view, strided_combination<T>(in, y));
            // As view op= y reads the view: the reading rule's exception at stride 2 holds.
            expect_plan(step == 1                    ? rows
                        : step == 2 && sizeof(T) < 4 ? tiles
                                                     : strided,
                        view, strided_combination<T>(view, y));
            check("from arrays", same_for_thread_counts([&] {
                      bsx::array<T, 2> big = fresh();
                      out(big) = strided_combination<T>(x, y);
                      return big;
                  }),
                  [&](index_t i, index_t j) { return strided_combination<T>(x(i, j), y(i, j)); });
            check("from a view", same_for_thread_counts([&] {
                      bsx::array<T, 2> big = fresh();
                      out(big) = strided_combination<T>(in, y);
                      return big;
                  }),
                  [&](index_t i, index_t j) { return strided_combination<T>(a(i, 3 * j), y(i, j)); });
            if constexpr (!std::is_same_v<T, bool>) {
                check("compound", same_for_thread_counts([&] {
                          bsx::array<T, 2> big = fresh();
                          out(big) -= y;
                          return big;
                      }),
                      [&](index_t i, index_t j) { return old(i, j) - y(i, j); });
            }
            check("masked", same_for_thread_counts([&] {
                      bsx::array<T, 2> big = fresh();
                      auto v = out(big);
                      v(bsx::reshape<2>(mask, bsx::shape_t<2>{m, n})) = x;
                      return big;
                  }),
                  [&](index_t i, index_t j) { return masked(i, j) ? x(i, j) : old(i, j); });
            // The columns one to the left of those written, read while they are written over
            // (step 1: each element is the previous one's old value).
            check(
                "overlapping", same_for_thread_counts([&] {
                    bsx::array<T, 2> big = fresh();
                    out(big) = strided_combination<T>(bsx::slice(big, bsx::all, bsx::range(0, n * step, step)), y);
                    return big;
                }),
                [&](index_t i, index_t j) { return strided_combination<T>(untouched(i * width + j * step), y(i, j)); });
        }
    }
}

BOOST_AUTO_TEST_CASE(small_strides_are_written_in_place) {
    // Many short rows, one thread; one long row that threads split mid-row; two long rows
    // that three threads split mid-row (where the machine has three cores); runs of rows
    // per thread.
    for (const auto [m, n, max_step] :
         {std::array<index_t, 3>{37, 160, bsx::detail::max_strided_read}, std::array<index_t, 3>{1, 40001, 3},
          std::array<index_t, 3>{2, 20000, 3}, std::array<index_t, 3>{37, 1000, 2}}) {
        check_strided_writes<double>(m, n, max_step);
        check_strided_writes<float>(m, n, max_step);
        check_strided_writes<std::int32_t>(m, n, max_step);
        check_strided_writes<std::int16_t>(m, n, max_step);
        check_strided_writes<std::int8_t>(m, n, max_step);
        check_strided_writes<bool>(m, n, max_step);
    }
}

BOOST_AUTO_TEST_CASE(small_strides_are_read_in_place) {
    check_strided_reads<double>();
    check_strided_reads<float>();
    check_strided_reads<std::int32_t>();
    check_strided_reads<std::int16_t>();
    check_strided_reads<std::int8_t>();
    check_strided_reads<bool>();
}

BOOST_AUTO_TEST_CASE(lone_views_are_copied_row_by_row) {
    check_lone_view_copies<double>();
    check_lone_view_copies<float>();
    check_lone_view_copies<std::int16_t>();
    check_lone_view_copies<std::int8_t>();
    check_lone_view_copies<bool>();
    check_lone_view_copies<long double>();  // 16 bytes: element by element
    // A flip of the destination itself: binding copies the operand first.
    bsx::array<std::int32_t, 2> x(std::array<index_t, 2>{300, 301});
    for (index_t i = 0; i < x.size(); ++i) x.data()[i] = std::int32_t(i);
    x = bsx::flip(x);
    for (index_t i = 0; i < x.size(); ++i)
        if (x.data()[i] != std::int32_t(x.size() - 1 - i)) BOOST_FAIL("x = flip(x): element " << i);
}

BOOST_AUTO_TEST_CASE(threshold_boundaries) {
    // Element counts just below, at and above the parallel threshold (32768).
    for (index_t n : {index_t(32767), index_t(32768), index_t(32769), index_t(65537)}) {
        BOOST_TEST_CONTEXT("n = " << n) {
            const vec a = random_values(std::size_t(n), 20 + std::uint64_t(n));
            const auto A = make_array<1>({n}, a);
            vec expected(a.size());
            for (std::size_t i = 0; i < a.size(); ++i) expected[i] = bsx::index_t(i) % 3 == 0 ? a[i] * a[i] : -a[i];
            bsx::array<double, 1> idx = bsx::arange<double>(n);
            const auto r = same_for_thread_counts([&] {
                bsx::array<double, 1> out = bsx::where(bsx::mod(idx, 3.0) == 0.0, A * A, -A);
                return out;
            });
            expect_array(r, {n}, expected, ref_tol);
        }
    }
}

BOOST_AUTO_TEST_CASE(compound_assignment_parallel) {
    const inputs in;
    // (plain references, not a structured binding: clang 14 cannot capture bindings in lambdas)
    const vec &x = in.x, &y = in.y, &z = in.z;
    const bsx::array<double, 2>& X = in.X;
    const bsx::array<double, 1>& Y = in.Y;
    const bsx::array<double, 2>& Z = in.Z;
    vec expected(x.size());
    for (index_t i = 0; i < M; ++i)
        for (index_t j = 0; j < N; ++j) {
            const std::size_t k = std::size_t(i * N + j);
            double v = x[k];
            v += y[std::size_t(j)] * z[std::size_t(i)];
            v *= 0.5;
            v -= z[std::size_t(i)];
            v /= (y[std::size_t(j)] * y[std::size_t(j)] + 1.0);
            expected[k] = v;
        }
    const auto r = same_for_thread_counts([&] {
        bsx::array<double, 2> out = X;
        out += Y * Z;
        out *= 0.5;
        out -= Z;
        out /= Y * Y + 1.0;
        return out;
    });
    expect_array(r, {M, N}, expected, ref_tol);
}

BOOST_AUTO_TEST_SUITE_END()

// ============================================================== enclosing parallel region

BOOST_AUTO_TEST_CASE(evaluation_inside_enclosing_parallel_region) {
    // Each thread of an enclosing region evaluates its own large expression into its own
    // array (the library must run serially there, and be correct and race-free).
    constexpr int teams = 4;
    const index_t n = 200;  // 40000 elements each: above the threshold
    std::vector<vec> src(teams);
    for (int t = 0; t < teams; ++t) src[std::size_t(t)] = random_values(std::size_t(n * n), 30 + std::uint64_t(t));
    std::vector<bsx::array<double, 2>> a(teams), out(teams);
    for (int t = 0; t < teams; ++t) a[std::size_t(t)] = make_array<2>({n, n}, src[std::size_t(t)]);
    std::vector<int> in_parallel(teams, 0);
#ifdef _OPENMP
#pragma omp parallel for num_threads(teams) schedule(static, 1)
#endif
    for (int t = 0; t < teams; ++t) {
#ifdef _OPENMP
        in_parallel[std::size_t(t)] = omp_in_parallel() ? 1 : 0;
#endif
        const auto& A = a[std::size_t(t)];
        out[std::size_t(t)] = A * double(t + 1) + bsx::transpose(A) - A.row(0);
        a[std::size_t(t)] += A.col(0) * 0.0 + double(t);  // in-place, aliasing, inside the region
    }
    for (int t = 0; t < teams; ++t) {
        BOOST_TEST_CONTEXT("team " << t) {
            const vec& g = src[std::size_t(t)];
            vec e_out(g.size()), e_a(g.size());
            for (index_t i = 0; i < n; ++i)
                for (index_t j = 0; j < n; ++j) {
                    const std::size_t k = std::size_t(i * n + j);
                    e_out[k] = g[k] * double(t + 1) + g[std::size_t(j * n + i)] - g[std::size_t(j)];
                    e_a[k] = g[k] + (g[std::size_t(i * n)] * 0.0 + double(t));
                }
            expect_array(out[std::size_t(t)], {n, n}, e_out, ref_tol);
            expect_array(a[std::size_t(t)], {n, n}, e_a, ref_tol);
        }
    }
#ifdef _OPENMP
    // Sanity: the region really was parallel when more than one thread was available.
    if (omp_get_thread_limit() >= teams) {
        int seen = 0;
        for (int v : in_parallel) seen += v;
        BOOST_CHECK_EQUAL(seen, teams);
    }
#endif
}

// ============================================================== entry points

BOOST_AUTO_TEST_SUITE(entry_points)

BOOST_AUTO_TEST_CASE(construction_from_expression) {
    const bsx::array<double, 2> a{{1, 2, 3}, {4, 5, 6}};
    const bsx::array<double, 1> b{10, 20, 30};
    bsx::array<double, 2> r = a * b - 1.0;
    expect_array(r, {2, 3}, vec{9, 39, 89, 39, 99, 179}, ref_tol);
    bsx::array<int, 2> ri = bsx::cast<int>(a) * 2;
    expect_array(ri, {2, 3}, std::vector<int>{2, 4, 6, 8, 10, 12}, ref_tol);
}

BOOST_AUTO_TEST_CASE(assignment_with_resize) {
    const bsx::array<double, 2> col{{1}, {2}, {3}};  // (3,1)
    const bsx::array<double, 1> row{10, 20};         // (2,)
    bsx::array<double, 2> r;                         // (0,0)
    BOOST_TEST(r.size() == 0);
    r = col + row;  // resized to (3,2)
    expect_array(r, {3, 2}, vec{11, 21, 12, 22, 13, 23}, ref_tol);
    r = row * 2.0 + bsx::zeros<double>(1, 2);  // resized to (1,2)
    expect_array(r, {1, 2}, vec{20, 40}, ref_tol);
    const double* before = nullptr;
    r = bsx::zeros<double>(4, 5) + 1.5;  // (4,5)
    before = r.data();
    r = bsx::ones<double>(4, 5) * 3.0;  // same shape: written in place
    BOOST_TEST(r.data() == before);
    expect_array(r, {4, 5}, vec(20, 3.0), ref_tol);
}

BOOST_AUTO_TEST_CASE(compound_assignment_all_operators) {
    const std::vector<int> a0{7, -8, 9, 12, -5, 6};
    const bsx::array<int, 1> b{3, 5};
    auto run = [&](auto op) {
        auto a = make_array<2>({3, 2}, a0);
        op(a);
        return a;
    };
    auto expect = [&](auto f) {
        std::vector<int> e(a0.size());
        for (std::size_t i = 0; i < a0.size(); ++i) e[i] = f(a0[i], i % 2 == 0 ? 3 : 5);
        return e;
    };
    expect_array(run([&](auto& a) { a += b; }), {3, 2}, expect([](int x, int y) { return x + y; }), ref_tol);
    expect_array(run([&](auto& a) { a -= b; }), {3, 2}, expect([](int x, int y) { return x - y; }), ref_tol);
    expect_array(run([&](auto& a) { a *= b; }), {3, 2}, expect([](int x, int y) { return x * y; }), ref_tol);
    expect_array(run([&](auto& a) { a /= b; }), {3, 2}, expect([](int x, int y) { return x / y; }), ref_tol);
    expect_array(run([&](auto& a) { a %= b; }), {3, 2}, expect([](int x, int y) { return x % y; }), ref_tol);
    expect_array(run([&](auto& a) { a &= b; }), {3, 2}, expect([](int x, int y) { return x & y; }), ref_tol);
    expect_array(run([&](auto& a) { a |= b; }), {3, 2}, expect([](int x, int y) { return x | y; }), ref_tol);
    expect_array(run([&](auto& a) { a ^= b; }), {3, 2}, expect([](int x, int y) { return x ^ y; }), ref_tol);
    expect_array(run([&](auto& a) { a += 2; }), {3, 2}, expect([](int x, int) { return x + 2; }), ref_tol);
    // Into a view: only the viewed elements change.
    auto a = make_array<2>({3, 2}, a0);
    a.row(1) *= b;
    expect_array(a, {3, 2}, std::vector<int>{7, -8, 27, 60, -5, 6}, ref_tol);
    // The right-hand side must broadcast to the destination; the destination never grows.
    auto c = make_array<2>({3, 2}, a0);
    const bsx::array<int, 2> wide = bsx::zeros<int>(3, 3);
    BOOST_CHECK_THROW(c += wide, bsx::broadcast_error);
    const bsx::array<int, 2> tall = bsx::zeros<int>(6, 2);
    BOOST_CHECK_THROW(c -= tall, bsx::broadcast_error);
    expect_array(c, {3, 2}, a0, ref_tol);
}

BOOST_AUTO_TEST_CASE(eval_returns_new_array) {
    const bsx::array<double, 1> v{1, 4, 9};
    auto e = bsx::eval(bsx::sqrt(v) + 0.5);
    static_assert(std::is_same_v<decltype(e), bsx::array<double, 1>>);
    expect_array(e, {3}, vec{1.5, 2.5, 3.5}, ref_tol);
    auto c = bsx::eval(v > 2.0);
    static_assert(std::is_same_v<decltype(c), bsx::array<bool, 1>>);
    expect_array(c, {3}, std::vector<bool>{false, true, true}, ref_tol);
    auto i = bsx::eval(bsx::cast<int>(v) + 1);
    static_assert(std::is_same_v<decltype(i), bsx::array<int, 1>>);
    expect_array(i, {3}, std::vector<int>{2, 5, 10}, ref_tol);
}

BOOST_AUTO_TEST_CASE(view_assignment_never_resizes) {
    bsx::array<double, 2> a = bsx::zeros<double>(3, 4);
    const double* data = a.data();
    const bsx::array<double, 1> r{1, 2, 3, 4};
    a.row(1) = r * 10.0;                                         // (4,) into (1,4)
    bsx::slice(a, bsx::range(0, 3, 2), bsx::range(1, 3)) = 7.0;  // scalar fill of a view
    a.col(3) = bsx::ones<double>(3, 1) * -1.0;                   // (3,1) into (3,1)
    bsx::slice(a, 2) = bsx::slice(a, 1) + 0.5;                   // rank-1 views
    BOOST_TEST(a.data() == data);
    expect_array(a, {3, 4}, vec{0, 7, 7, -1, 10, 20, 30, -1, 10.5, 20.5, 30.5, -0.5}, ref_tol);
    // Broadcast from a smaller shape fills the whole view.
    bsx::slice(a, bsx::range(0, 2)) = bsx::array<double, 1>{1, 2, 3, 4};
    expect_array(a, {3, 4}, vec{1, 2, 3, 4, 1, 2, 3, 4, 10.5, 20.5, 30.5, -0.5}, ref_tol);
    // A view never grows: an expression that would need a bigger shape throws and writes nothing.
    const bsx::array<double, 2> big = bsx::zeros<double>(3, 4) + 99.0;
    BOOST_CHECK_THROW(a.row(0) = big, bsx::broadcast_error);
    BOOST_CHECK_THROW((bsx::slice(a, bsx::range(0, 2)) = bsx::array<double, 1>{1, 2, 3}), bsx::broadcast_error);
    expect_array(a, {3, 4}, vec{1, 2, 3, 4, 1, 2, 3, 4, 10.5, 20.5, 30.5, -0.5}, ref_tol);
    // Scalar assignment to an array keeps its shape.
    a = 0.25;
    expect_array(a, {3, 4}, vec(12, 0.25), ref_tol);
}

BOOST_AUTO_TEST_CASE(rank_zero_and_high_rank) {
    bsx::array<double, 0> s(2.5);
    bsx::array<double, 0> t = s * 4.0 + 1.0;
    BOOST_TEST(t() == 11.0);
    t = bsx::sqrt(t - 2.0);
    BOOST_TEST(t() == 3.0);
    // A rank-0 array broadcast against a rank-2 one.
    const bsx::array<double, 2> m{{1, 2}, {3, 4}};
    bsx::array<double, 2> r = m * s;
    expect_array(r, {2, 2}, vec{2.5, 5, 7.5, 10}, ref_tol);
    // Rank 8 with broadcasting on alternate axes.
    const std::array<index_t, 8> sa{2, 1, 3, 1, 2, 1, 2, 3}, sb{1, 2, 1, 2, 1, 3, 2, 1};
    std::vector<double> va(std::size_t(bsx::shape_size(sa))), vb(std::size_t(bsx::shape_size(sb)));
    for (std::size_t i = 0; i < va.size(); ++i) va[i] = double(i);
    for (std::size_t i = 0; i < vb.size(); ++i) vb[i] = double(i) * 100.0;
    const auto A = make_array<8>(sa, va);
    const auto B = make_array<8>(sb, vb);
    bsx::array<double, 8> c = A + B;
    const std::array<index_t, 8> sc{2, 2, 3, 2, 2, 3, 2, 3};
    BOOST_REQUIRE(c.shape() == sc);
    vec expected(std::size_t(bsx::shape_size(sc)));
    std::array<index_t, 8> idx{};
    for (std::size_t flat = 0; flat < expected.size(); ++flat) {
        std::size_t rem = flat;
        for (std::size_t k = 8; k-- > 0;) {
            idx[k] = index_t(rem % std::size_t(sc[k]));
            rem /= std::size_t(sc[k]);
        }
        index_t ia = 0, ib = 0;
        for (std::size_t k = 0; k < 8; ++k) {
            ia = ia * sa[k] + (sa[k] == 1 ? 0 : idx[k]);
            ib = ib * sb[k] + (sb[k] == 1 ? 0 : idx[k]);
        }
        expected[flat] = va[std::size_t(ia)] + vb[std::size_t(ib)];
    }
    expect_array(c, sc, expected, ref_tol);
}

BOOST_AUTO_TEST_SUITE_END()

// ============================================================== small inner extents

BOOST_AUTO_TEST_SUITE(small_inner_extents)

BOOST_AUTO_TEST_CASE(rows_of_three_times_vector) {
    const index_t R = 1000;
    const vec p = random_values(std::size_t(R * 3), 40), f = random_values(3, 41);
    const auto P = make_array<2>({R, 3}, p);
    const auto F = make_array<1>({3}, f);
    vec expected(p.size());
    for (index_t i = 0; i < R; ++i)
        for (index_t c = 0; c < 3; ++c)
            expected[std::size_t(i * 3 + c)] = p[std::size_t(i * 3 + c)] * f[std::size_t(c)];
    bsx::array<double, 2> r = P * F;
    expect_array(r, {R, 3}, expected, ref_tol);
    // Larger: (40000, 3), parallel.
    const index_t L = 40000;
    const vec q = random_values(std::size_t(L * 3), 42);
    const auto Q = make_array<2>({L, 3}, q);
    vec e2(q.size());
    for (index_t i = 0; i < L; ++i)
        for (index_t c = 0; c < 3; ++c)
            e2[std::size_t(i * 3 + c)] = q[std::size_t(i * 3 + c)] * f[std::size_t(c)] + f[std::size_t(c)];
    const auto r2 = same_for_thread_counts([&] {
        bsx::array<double, 2> out = Q * F + F;
        return out;
    });
    expect_array(r2, {L, 3}, e2, ref_tol);
}

BOOST_AUTO_TEST_CASE(rgb_image_times_factors) {
    for (index_t n : {index_t(5), index_t(200)}) {  // 200*200*3 = 120000: parallel
        BOOST_TEST_CONTEXT("n = " << n) {
            const vec img = random_values(std::size_t(n * n * 3), 50 + std::uint64_t(n), 0.0, 1.0);
            const vec fac{0.299, 0.587, 0.114};
            const auto I = make_array<3>({n, n, 3}, img);
            const auto Fc = make_array<3>({1, 1, 3}, fac);
            vec expected(img.size());
            for (std::size_t k = 0; k < img.size(); ++k) expected[k] = img[k] * fac[k % 3];
            const auto r = same_for_thread_counts([&] {
                bsx::array<double, 3> out = I * Fc;
                return out;
            });
            expect_array(r, {n, n, 3}, expected, ref_tol);
            // Octave's img .*= factors.
            const auto r2 = same_for_thread_counts([&] {
                bsx::array<double, 3> out = I;
                out *= Fc;
                return out;
            });
            expect_array(r2, {n, n, 3}, expected, ref_tol);
            // uint8 image scaled by float factors, written back as uint8.
            std::vector<std::uint8_t> u(img.size());
            for (std::size_t k = 0; k < u.size(); ++k) u[k] = std::uint8_t(img[k] * 255.0);
            const auto U = make_array<3>({n, n, 3}, u);
            std::vector<std::uint8_t> eu(u.size());
            for (std::size_t k = 0; k < u.size(); ++k) eu[k] = std::uint8_t(double(u[k]) * fac[k % 3]);
            const auto r3 = same_for_thread_counts([&] {
                bsx::array<std::uint8_t, 3> out = bsx::cast<std::uint8_t>(U * Fc);
                return out;
            });
            expect_array(r3, {n, n, 3}, eu, ref_tol);
        }
    }
}

BOOST_AUTO_TEST_CASE(repeating_operands_of_different_periods) {
    // (m, 4, 3) rows fold into one long row in which A (1, 1, 3) repeats every 3 elements
    // and B (1, 4, 3) every 12: chunks are cut at multiples of both.
    const index_t m = 10000;  // 120000 elements: parallel
    const vec x = random_values(std::size_t(m * 12), 62), a = random_values(3, 63), b = random_values(12, 64);
    const auto X = make_array<3>({m, 4, 3}, x);
    const auto A = make_array<3>({1, 1, 3}, a);
    const auto B = make_array<3>({1, 4, 3}, b);
    vec expected(x.size());
    for (std::size_t k = 0; k < x.size(); ++k) expected[k] = x[k] + a[k % 3] * b[k % 12];
    const auto r = same_for_thread_counts([&] {
        bsx::array<double, 3> out = X + A * B;
        return out;
    });
    expect_array(r, {m, 4, 3}, expected, ref_tol);
}

BOOST_AUTO_TEST_CASE(inner_extent_two_column_broadcast) {
    // (m, 2) + (m, 1): the column operand is broadcast along a 2-long inner axis.
    const index_t m = 20000;
    const vec a = random_values(std::size_t(m * 2), 60), b = random_values(std::size_t(m), 61);
    const auto A = make_array<2>({m, 2}, a);
    const auto B = make_array<2>({m, 1}, b);
    vec expected(a.size());
    for (index_t i = 0; i < m; ++i)
        for (index_t c = 0; c < 2; ++c)
            expected[std::size_t(i * 2 + c)] = a[std::size_t(i * 2 + c)] - b[std::size_t(i)];
    const auto r = same_for_thread_counts([&] {
        bsx::array<double, 2> out = A - B;
        return out;
    });
    expect_array(r, {m, 2}, expected, ref_tol);
}

BOOST_AUTO_TEST_SUITE_END()

// ============================================================== zero-size shapes

BOOST_AUTO_TEST_CASE(zero_size_shapes) {
    const bsx::array<double, 2> e03 = bsx::zeros<double>(0, 3);
    const bsx::array<double, 1> v3{1, 2, 3};
    bsx::array<double, 2> r = e03 + v3;
    BOOST_TEST((r.shape() == std::array<index_t, 2>{0, 3}));
    BOOST_TEST(r.size() == 0);
    // (4,1) with (1,0) -> (4,0)
    const bsx::array<double, 2> c41 = bsx::ones<double>(4, 1);
    const bsx::array<double, 2> e10 = bsx::zeros<double>(1, 0);
    bsx::array<double, 2> q = c41 * e10;
    BOOST_TEST((q.shape() == std::array<index_t, 2>{4, 0}));
    // Resizing a non-empty array to empty and back.
    bsx::array<double, 2> s = bsx::ones<double>(2, 2);
    s = e03 - 1.0;
    BOOST_TEST((s.shape() == std::array<index_t, 2>{0, 3}));
    s = c41 + v3;
    expect_array(s, {4, 3}, vec{2, 3, 4, 2, 3, 4, 2, 3, 4, 2, 3, 4}, ref_tol);
    // Compound assignment and view assignment on zero elements do nothing and do not throw.
    bsx::array<double, 2> z = bsx::zeros<double>(0, 3);
    z += v3;
    z = 5.0;
    BOOST_TEST(z.size() == 0);
    bsx::array<double, 1> w{1, 2, 3};
    bsx::slice(w, bsx::range(1, 1)) = 9.0;
    bsx::slice(w, bsx::range(2, 2)) = bsx::slice(w, bsx::range(0, 0)) * 3.0;
    expect_array(w, {3}, vec{1, 2, 3}, ref_tol);
    // 0 with n > 1 is an error (NumPy).
    const bsx::array<double, 1> e0 = bsx::zeros<double>(0);
    BOOST_CHECK_THROW((void)(e0 + v3), bsx::broadcast_error);
    // eval of an empty expression.
    auto ev = bsx::eval(bsx::sqrt(e03) * 2.0);
    BOOST_TEST((ev.shape() == std::array<index_t, 2>{0, 3}));
}

// ============================================================== lifetimes

BOOST_AUTO_TEST_CASE(auto_expression_over_temporaries) {
    auto e = bsx::zeros<double>(3, 3) + 1.0;
    auto f = bsx::sqrt(bsx::ones<double>(4) * 16.0) - bsx::arange<double>(4);
    auto g = bsx::where(bsx::arange<double>(5) > 2.0, bsx::full<double, 1>({5}, 7.0), -bsx::ones<double>(5));
    // Churn the heap so a dangling reference would read garbage (ASan: use after free).
    std::vector<std::vector<double>> churn;
    for (int i = 0; i < 50; ++i) churn.emplace_back(std::size_t(9 + i), 123.0);
    bsx::array<double, 2> re = e;
    expect_array(re, {3, 3}, vec(9, 1.0), ref_tol);
    bsx::array<double, 1> rf = f;
    expect_array(rf, {4}, vec{4, 3, 2, 1}, ref_tol);
    bsx::array<double, 1> rg = g;
    expect_array(rg, {5}, vec{-1, -1, -1, 7, 7}, ref_tol);
    // Evaluate the same kept expression twice, and element access on it.
    bsx::array<double, 2> re2 = e * 2.0;
    expect_array(re2, {3, 3}, vec(9, 2.0), ref_tol);
    BOOST_TEST(e(2, 1) == 1.0);
    BOOST_TEST((e.shape() == std::array<index_t, 2>{3, 3}));
}

// An expression holds lvalue arrays by reference. Resizing one after the expression was
// built must not make evaluation read or write out of range: it throws, names the
// operation and both shapes, and leaves the destination unchanged.
BOOST_AUTO_TEST_CASE(operand_resized_after_building_throws) {
    auto a = bsx::zeros<double>(4, 3);
    const bsx::array<double, 1> v{1, 2, 3};
    const auto e = a + v;
    a = bsx::zeros<double>(2, 3);
    bsx::array<double, 2> r = bsx::full<double>(std::array<index_t, 2>{4, 3}, 7.0);
    try {
        r = e;
        BOOST_ERROR("no exception");
    } catch (const std::logic_error& ex) {
        const std::string what = ex.what();
        BOOST_TEST(what.find("operator+") != std::string::npos);
        BOOST_TEST(what.find("resized") != std::string::npos);
        BOOST_TEST(what.find("(2,3)") != std::string::npos);
        BOOST_TEST(what.find("(4,3)") != std::string::npos);
    }
    BOOST_TEST((r.shape() == std::array<index_t, 2>{4, 3}));
    for (double x : r) BOOST_TEST(x == 7.0);
    a = bsx::ones<double>(4, 3);  // the original shape again: the expression is usable
    r = e;
    BOOST_TEST(r(3, 2) == 4.0);
}
