// Heap allocations of assignments (api.md section 5): one assignment allocates only
// copies of the operands that overlap the destination (each the size of that operand),
// never an intermediate node. Global operator new/delete are replaced in this binary
// by counting versions (every usual overload: plain, array, sized, aligned, nothrow;
// counts and bytes in thread-safe atomics, so allocations made by OpenMP worker
// threads are counted too).
//
// Measured:
//   * Floyd-Warshall step `dist = bsx::min(dist, dist.col(k) + dist.row(k))` at
//     n = 512: at most 2n doubles plus a small constant (the row and column copies).
//   * `r = a*b + c*d - e/(f + 1.0)` into a correctly sized r (1000 x 1000): nothing.
//   * `r += a`, `r = a + transpose(a)` (no aliasing), building an expression: nothing.
//   * a few aliasing cases: only the overlapping operand is copied.
//   * new arrays (zeros, ones, full, arange, a copy): one buffer each, from the plain
//     operator new a cache line longer than the elements below 2 MiB, from the aligned one
//     of exactly their size from there; freed once.
//   * the fused matrix product `r = sum(in_dims<3>(a, {0,1}) * in_dims<3>(b, {1,2}), axis(1))`
//     at n = 100 into a preallocated r: nothing (the reduction writes straight into r),
//     never the n^3 product, with 1 and 2 threads.
//   * `r = sum(x, axis(k))` along each axis into a preallocated r: nothing; constructing r
//     from it: r alone; a destination the reduction reads: one copy of the operand.
//   * all-static assignments (fixed_array operands, into a fixed_array or an array of the
//     right shape), aliased ones included: nothing.
//   * views of lazy expressions (`transpose(a + b)`, permute, slice with steps, a split
//     reshape, broadcast_to, a reduction over a transposed expression) into preallocated
//     destinations: nothing, no temporary of the expression; `a = transpose(a + 1)`: one
//     copy of a, never a temporary of a + 1 besides.
//   * generated leaves: `r = a + eye<double>(n)`, random expressions and the like into a
//     preallocated r: nothing.
//   * assembly (concatenate, pad, flip, roll, stack, tile): building the node and assigning
//     it into a preallocated destination, whole or inside a larger expression: nothing;
//     `x = roll(x, 1, 0)`, which reads x elsewhere: one buffer of x's size.
//   * lazy gathers: `r = take(x, idx) * 2` (flattened) and `r = take(a, idx, 1) + 1` (along
//     an axis: a generated position leaf) into a preallocated r: nothing; the masked
//     assignment `x(m) = x * 2`: nothing.
// The exact numbers are printed (run with --log_level=message to see them).
#define BOOST_TEST_MODULE bsx_allocations
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <new>
#include <random>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

// ============================================================== counting operator new

namespace counting {
std::atomic<std::size_t> calls{0};
std::atomic<std::size_t> bytes{0};
std::atomic<std::size_t> frees{0};
std::atomic<std::size_t> aligned_calls{0};  // of the calls, those to the aligned operator new

void* allocate(std::size_t n) {
    calls.fetch_add(1, std::memory_order_relaxed);
    bytes.fetch_add(n, std::memory_order_relaxed);
    return std::malloc(n == 0 ? 1 : n);
}
void* allocate_aligned(std::size_t n, std::align_val_t al) {
    calls.fetch_add(1, std::memory_order_relaxed);
    aligned_calls.fetch_add(1, std::memory_order_relaxed);
    bytes.fetch_add(n, std::memory_order_relaxed);
    const std::size_t a = static_cast<std::size_t>(al) < sizeof(void*) ? sizeof(void*) : static_cast<std::size_t>(al);
    const std::size_t rounded = ((n == 0 ? 1 : n) + a - 1) / a * a;  // aligned_alloc needs a multiple
    return std::aligned_alloc(a, rounded);
}
void release(void* p) noexcept {
    if (p) frees.fetch_add(1, std::memory_order_relaxed);
    std::free(p);
}
}  // namespace counting

void* operator new(std::size_t n) {
    if (void* p = counting::allocate(n)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
    if (void* p = counting::allocate(n)) return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counting::allocate(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return counting::allocate(n); }
void* operator new(std::size_t n, std::align_val_t al) {
    if (void* p = counting::allocate_aligned(n, al)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t al) {
    if (void* p = counting::allocate_aligned(n, al)) return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
    return counting::allocate_aligned(n, al);
}
void* operator new[](std::size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
    return counting::allocate_aligned(n, al);
}
void operator delete(void* p) noexcept { counting::release(p); }
void operator delete[](void* p) noexcept { counting::release(p); }
void operator delete(void* p, std::size_t) noexcept { counting::release(p); }
void operator delete[](void* p, std::size_t) noexcept { counting::release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { counting::release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { counting::release(p); }
void operator delete(void* p, std::align_val_t) noexcept { counting::release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { counting::release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { counting::release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { counting::release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { counting::release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { counting::release(p); }

namespace {

using bsx::index_t;

double* volatile sink = nullptr;

/// Allocation calls and bytes made while `f` runs (on any thread).
struct usage {
    std::size_t calls = 0, bytes = 0, aligned_calls = 0, frees = 0;
};
template <class F>
usage measure(F&& f) {
    const std::size_t c0 = counting::calls.load(), b0 = counting::bytes.load(), a0 = counting::aligned_calls.load(),
                      f0 = counting::frees.load();
    f();
    return {counting::calls.load() - c0, counting::bytes.load() - b0, counting::aligned_calls.load() - a0,
            counting::frees.load() - f0};
}

/// Thread counts to measure with: 1 and 2 (the parallel path) with OpenMP, else one pass.
std::vector<int> thread_counts() {
#ifdef _OPENMP
    return {1, 2};
#else
    return {1};
#endif
}
void set_threads([[maybe_unused]] int t) {
#ifdef _OPENMP
    omp_set_num_threads(t);
#endif
}

bsx::array<double, 2> random_matrix(index_t m, index_t n, std::uint64_t seed, double lo = 1.0, double hi = 100.0) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> d(lo, hi);
    bsx::array<double, 2> a(std::array<index_t, 2>{m, n});
    for (double& x : a) x = d(rng);
    return a;
}

}  // namespace

BOOST_AUTO_TEST_CASE(counting_operator_new_works) {
    // The replacement is in effect: a known allocation is seen with its size.
    // (The pointers escape through a volatile sink, so the compiler cannot elide the
    // allocations, which C++14 allows for new-expressions and clang does.)
    const auto u = measure([] {
        sink = new double[100];
        delete[] sink;
    });
    BOOST_TEST(u.calls == 1u);
    BOOST_TEST(u.bytes == 800u);
    const auto v = measure([] {
        std::vector<double> w(10);
        sink = w.data();
    });
    BOOST_TEST(v.calls == 1u);
    BOOST_TEST(v.bytes == 80u);
}

BOOST_AUTO_TEST_CASE(floyd_warshall_step_n512) {
    const index_t n = 512;
    const std::size_t bound = 2 * std::size_t(n) * sizeof(double) + 512;
    for (int t : thread_counts()) {
        set_threads(t);
        BOOST_TEST_CONTEXT("threads = " << t) {
            auto dist = random_matrix(n, n, 1);
            const auto before = dist;  // reference copy for the value check
            // Warm-up: the first parallel region creates OpenMP's thread pool.
            dist = bsx::min(dist, dist.col(0) + dist.row(0));
            for (index_t k : {index_t(1), index_t(255), index_t(511)}) {
                const auto u = measure([&] { dist = bsx::min(dist, dist.col(k) + dist.row(k)); });
                BOOST_TEST_MESSAGE("Floyd-Warshall step n=512 k=" << k << " threads=" << t << ": " << u.calls
                                                                  << " allocations, " << u.bytes << " bytes (bound "
                                                                  << bound << ")");
                BOOST_TEST(u.bytes <= bound, "k = " << k << ": " << u.bytes << " bytes allocated, bound " << bound);
                BOOST_TEST(u.calls <= 4u, "k = " << k << ": " << u.calls << " allocation calls");
            }
            // The steps computed the right thing (plain loops on the saved copy).
            std::vector<double> d(before.begin(), before.end());
            for (index_t k : {index_t(0), index_t(1), index_t(255), index_t(511)})
                for (index_t i = 0; i < n; ++i)
                    for (index_t j = 0; j < n; ++j) {
                        const double via = d[std::size_t(i * n + k)] + d[std::size_t(k * n + j)];
                        double& cur = d[std::size_t(i * n + j)];
                        cur = via < cur ? via : cur;
                    }
            bool equal = true;
            for (std::size_t e = 0; e < d.size(); ++e) equal = equal && d[e] == dist.data()[e];
            BOOST_TEST(equal);
        }
    }
}

BOOST_AUTO_TEST_CASE(six_operand_chain_allocates_nothing) {
    const index_t n = 1000;
    const auto a = random_matrix(n, n, 2), b = random_matrix(n, n, 3), c = random_matrix(n, n, 4),
               d = random_matrix(n, n, 5), e = random_matrix(n, n, 6), f = random_matrix(n, n, 7);
    bsx::array<double, 2> r = bsx::zeros<double>(n, n);
    for (int t : thread_counts()) {
        set_threads(t);
        BOOST_TEST_CONTEXT("threads = " << t) {
            r = a * b + c * d - e / (f + 1.0);  // warm-up
            const auto u = measure([&] { r = a * b + c * d - e / (f + 1.0); });
            BOOST_TEST_MESSAGE("r = a*b + c*d - e/(f + 1.0), 1000x1000, threads="
                               << t << ": " << u.calls << " allocations, " << u.bytes << " bytes");
            BOOST_TEST(u.calls == 0u);
            BOOST_TEST(u.bytes == 0u);
            // Spot-check values.
            for (std::size_t k : {std::size_t(0), std::size_t(123457), std::size_t(999999)}) {
                const double want =
                    a.data()[k] * b.data()[k] + c.data()[k] * d.data()[k] - e.data()[k] / (f.data()[k] + 1.0);
                BOOST_TEST(r.data()[k] == want);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(compound_and_transpose_allocate_nothing) {
    const index_t n = 1000;
    const auto a = random_matrix(n, n, 8);
    bsx::array<double, 2> r = random_matrix(n, n, 9);
    for (int t : thread_counts()) {
        set_threads(t);
        BOOST_TEST_CONTEXT("threads = " << t) {
            r += a;  // warm-up
            const double r0 = r(3, 7), a0 = a(3, 7);
            const auto u1 = measure([&] { r += a; });
            BOOST_TEST_MESSAGE("r += a, 1000x1000, threads=" << t << ": " << u1.calls << " allocations");
            BOOST_TEST(u1.calls == 0u);
            BOOST_TEST(r(3, 7) == r0 + a0);
            const auto u2 = measure([&] { r = a + bsx::transpose(a); });
            BOOST_TEST_MESSAGE("r = a + transpose(a), 1000x1000, threads=" << t << ": " << u2.calls << " allocations");
            BOOST_TEST(u2.calls == 0u);
            BOOST_TEST(r(3, 7) == a(3, 7) + a(7, 3));
            const auto u3 = measure([&] { r -= bsx::transpose(a) * 0.5; });
            BOOST_TEST(u3.calls == 0u);
            const auto u4 = measure([&] { r = 0.0; });
            BOOST_TEST(u4.calls == 0u);
        }
    }
}

BOOST_AUTO_TEST_CASE(building_an_expression_allocates_nothing) {
    const auto a = random_matrix(50, 60, 10);
    const bsx::array<double, 1> v = bsx::ones<double>(60);
    double s = 0;
    const auto u = measure([&] {
        auto e = bsx::where(a > v, bsx::sqrt(a) * 2.0, bsx::min(a, v + 1.0)) - bsx::transpose(bsx::transpose(a));
        s = e(1, 2) + double(e.size());
    });
    BOOST_TEST(u.calls == 0u);
    BOOST_TEST(s > 0.0);
}

BOOST_AUTO_TEST_CASE(construction_allocates_only_the_result) {
    const index_t n = 300;
    const auto a = random_matrix(n, n, 11);
    const bsx::array<double, 1> v = bsx::ones<double>(n);
    bsx::array<double, 2> warm = a * v + 1.0;
    BOOST_TEST(warm.size() == n * n);
    std::size_t size = 0;
    const auto u = measure([&] {
        bsx::array<double, 2> r = bsx::sqrt(a * v + 1.0) - a / 3.0;
        size = std::size_t(r.size());
    });
    BOOST_TEST_MESSAGE("construction of a 300x300 result: " << u.calls << " allocations, " << u.bytes << " bytes");
    BOOST_TEST(size == std::size_t(n * n));
    BOOST_TEST(u.calls == 1u);
    BOOST_TEST(u.bytes >= std::size_t(n * n) * sizeof(double));
    BOOST_TEST(u.bytes <= std::size_t(n * n) * sizeof(double) + 256);
}

/// `make()` allocates exactly one buffer of `bytes`, from the plain operator new (never the
/// aligned one), starting on a multiple of `alignment`; destroying the array frees it.
template <class F>
void expect_one_buffer(F make, std::size_t bytes, std::size_t alignment) {
    std::uintptr_t start = 0;
    const auto u = measure([&] {
        const auto a = make();
        start = reinterpret_cast<std::uintptr_t>(a.data());
    });
    BOOST_TEST(u.calls == 1u);
    BOOST_TEST(u.bytes == bytes);
    BOOST_TEST(u.aligned_calls == 0u);
    BOOST_TEST(u.frees == 1u);
    BOOST_TEST(start % alignment == 0u);
}

BOOST_AUTO_TEST_CASE(new_arrays_allocate_one_buffer) {
    // Small arrays: one plain allocation a cache line longer than the elements (the aligned
    // operator new costs several times as much on small sizes), aligned to a cache line
    // within it; no second pass over the elements is visible here, but the values are
    // checked. Arrays of 2 MiB and more: one plain allocation a huge page longer, aligned to
    // a huge-page boundary within it (glibc reuses a freed block of that size where it
    // would map every aligned one afresh).
    constexpr std::size_t line = bsx::detail::cache_line_bytes, huge = bsx::detail::huge_page_bytes;
    for (const index_t n : {index_t(1), index_t(100), index_t(1000), index_t(12345)}) {
        BOOST_TEST_CONTEXT("n = " << n) {
            const std::size_t d = std::size_t(n) * sizeof(double), f = std::size_t(n) * sizeof(float);
            expect_one_buffer([n] { return bsx::zeros<double>(n); }, d + line, line);
            expect_one_buffer([n] { return bsx::ones<float>(n); }, f + line, line);
            expect_one_buffer([n] { return bsx::arange<double>(n); }, d + line, line);
            expect_one_buffer([n] { return bsx::arange<std::int32_t>(n); }, std::size_t(n) * 4 + line, line);
            expect_one_buffer([n] { return bsx::full(bsx::shape_t<2>{1, n}, 2.5); }, d + line, line);
            const auto z = bsx::zeros<double>(n);
            const auto r = bsx::arange<double>(n);
            const auto i = bsx::arange<std::int32_t>(n);
            for (index_t k = 0; k < n; ++k) {
                BOOST_TEST(z(k) == 0.0);
                BOOST_TEST(r(k) == double(k));
                BOOST_TEST(i(k) == std::int32_t(k));
            }
        }
    }
    constexpr index_t big = index_t(huge / sizeof(double));
    expect_one_buffer([] { return bsx::zeros<double>(big); }, 2 * huge, huge);
    expect_one_buffer([] { return bsx::arange<double>(big); }, 2 * huge, huge);
    // One element short of a huge page: the plain path, a cache line more.
    expect_one_buffer([] { return bsx::zeros<double>(big - 1); }, huge - sizeof(double) + line, line);
    const auto r = bsx::arange<double>(big);
    BOOST_TEST(r(0) == 0.0);
    BOOST_TEST(r(big - 1) == double(big - 1));
    const auto z = bsx::zeros<double>(big);
    BOOST_TEST(std::all_of(z.begin(), z.end(), [](double v) { return v == 0.0; }));
    // A copy: one buffer of the same kind.
    const auto small = bsx::arange<double>(100);
    expect_one_buffer([&] { return bsx::array<double, 1>(small); }, 800 + line, line);
    // Nothing for an empty array.
    const auto none = measure([] { sink = bsx::zeros<double>(0).data(); });
    BOOST_TEST(none.calls == 0u);
}

BOOST_AUTO_TEST_CASE(aliasing_copies_only_the_overlapping_operand) {
    const index_t n = 400;
    for (int t : thread_counts()) {
        set_threads(t);
        BOOST_TEST_CONTEXT("threads = " << t) {
            auto a = random_matrix(n, n, 12);
            const auto other = random_matrix(n, n, 13);
            a = a + bsx::transpose(a);  // warm-up
            // Only transpose(a) overlaps unsafely: one n*n copy.
            const auto u1 = measure([&] { a = a + bsx::transpose(a) + other; });
            BOOST_TEST_MESSAGE("a = a + transpose(a) + other, n=400, threads="
                               << t << ": " << u1.calls << " allocations, " << u1.bytes << " bytes");
            BOOST_TEST(u1.bytes <= std::size_t(n * n) * sizeof(double) + 256);
            // Disjoint rows of the destination's array: no copy at all.
            const auto u2 = measure([&] { a.row(0) = a.row(1) + a.row(2); });
            BOOST_TEST(u2.calls == 0u);
            // The destination read at the very element written: no copy.
            const auto u3 = measure([&] { a = a * 0.5 + other; });
            BOOST_TEST(u3.calls == 0u);
            // Reading its own row: one copy of n elements.
            const auto u4 = measure([&] { a += a.row(5); });
            BOOST_TEST_MESSAGE("a += a.row(5), n=400, threads=" << t << ": " << u4.calls << " allocations, " << u4.bytes
                                                                << " bytes");
            BOOST_TEST(u4.bytes <= std::size_t(n) * sizeof(double) + 256);
            // A slice shifted onto itself: one copy of (n-1) rows... of a 1-D vector here.
            bsx::array<double, 1> v = bsx::arange<double>(100000);
            const auto u5 =
                measure([&] { bsx::slice(v, bsx::range(1, 100000)) = bsx::slice(v, bsx::range(0, 99999)); });
            BOOST_TEST_MESSAGE("v[1:] = v[:-1], n=100000, threads=" << t << ": " << u5.calls << " allocations, "
                                                                    << u5.bytes << " bytes");
            BOOST_TEST(u5.bytes <= std::size_t(99999) * sizeof(double) + 256);
            BOOST_TEST(v(0) == 0.0);
            BOOST_TEST(v(1) == 0.0);
            BOOST_TEST(v(99999) == 99998.0);
        }
    }
}

BOOST_AUTO_TEST_CASE(fused_matrix_product_allocates_nothing) {
    // The (n,n,n) product is never stored, and the reduction writes its outputs straight
    // into r: no buffer of r's size, no copy pass.
    const index_t n = 100;
    const auto a = random_matrix(n, n, 14), b = random_matrix(n, n, 15);
    bsx::array<double, 2> r = bsx::zeros<double>(n, n);
    // The reference: a plain triple loop.
    std::vector<double> want(std::size_t(n * n), 0.0);
    for (index_t i = 0; i < n; ++i)
        for (index_t k = 0; k < n; ++k)
            for (index_t j = 0; j < n; ++j) want[std::size_t(i * n + j)] += a(i, k) * b(k, j);
    for (int t : thread_counts()) {
        set_threads(t);
        BOOST_TEST_CONTEXT("threads = " << t) {
            r = bsx::sum(bsx::in_dims<3>(a, {0, 1}) * bsx::in_dims<3>(b, {1, 2}), bsx::axis(1));  // warm-up
            r = 0.0;
            const auto u = measure([&] {
                r = bsx::sum(bsx::in_dims<3>(a, {0, 1}) * bsx::in_dims<3>(b, {1, 2}), bsx::axis(1));
            });
            BOOST_TEST_MESSAGE("r = sum(in_dims<3>(a,{0,1}) * in_dims<3>(b,{1,2}), axis(1)), n=100, threads="
                               << t << ": " << u.calls << " allocations, " << u.bytes << " bytes");
            BOOST_TEST(u.calls == 0u, u.calls << " allocation calls, " << u.bytes << " bytes");
            BOOST_TEST(r.shape() == (std::array<index_t, 2>{n, n}));
            double worst = 0;
            for (index_t i = 0; i < n; ++i)
                for (index_t j = 0; j < n; ++j) {
                    const double w = want[std::size_t(i * n + j)];
                    worst = std::max(worst, std::abs(r(i, j) - w) / std::abs(w));
                }
            BOOST_TEST_MESSAGE("  largest relative difference from the triple loop: " << worst);
            BOOST_TEST(worst <= 1e-12, "largest relative difference from the triple loop: " << worst);
        }
    }
}

BOOST_AUTO_TEST_CASE(reductions_write_straight_into_the_destination) {
    // (300, 400): axis 0 takes the outer traversal (a tile of adjacent outputs at a time),
    // axis 1 the inner one; both above the parallel threshold.
    const index_t m = 300, n = 400;
    const auto x = random_matrix(m, n, 16);
    std::vector<double> col(std::size_t(n), 0.0), row(std::size_t(m), 0.0);
    for (index_t i = 0; i < m; ++i)
        for (index_t j = 0; j < n; ++j) {
            col[std::size_t(j)] += x(i, j);
            row[std::size_t(i)] += x(i, j);
        }
    const auto close = [](double got, double want) { return std::abs(got - want) <= 1e-12 * std::abs(want); };
    for (int t : thread_counts()) {
        set_threads(t);
        BOOST_TEST_CONTEXT("threads = " << t) {
            bsx::array<double, 1> c(std::array<index_t, 1>{n}), r(std::array<index_t, 1>{m});
            const auto into = measure([&] {
                c = bsx::sum(x, bsx::axis(0));
                r = bsx::sum(x, bsx::axis(-1));
            });
            BOOST_TEST(into.calls == 0u, into.calls << " allocations, " << into.bytes << " bytes");
            std::size_t size = 0;
            const auto built = measure([&] {
                const bsx::array<double, 2> k = bsx::sum(x, bsx::axis(0), bsx::keepdims);
                size = std::size_t(k.size());
                BOOST_TEST(close(k(0, n - 1), col[std::size_t(n - 1)]));
            });
            BOOST_TEST(size == std::size_t(n));
            BOOST_TEST(built.calls == 1u);
            // A buffer below huge_page_bytes asks for a cache line more, to align within it.
            BOOST_TEST(built.bytes == std::size_t(n) * sizeof(double) + bsx::detail::cache_line_bytes,
                       built.bytes << " bytes");
            for (index_t j = 0; j < n; ++j) BOOST_TEST(close(c(j), col[std::size_t(j)]), "column " << j);
            for (index_t i = 0; i < m; ++i) BOOST_TEST(close(r(i), row[std::size_t(i)]), "row " << i);
            // A destination inside the operand: the operand is read from one copy, so every
            // output still sees the original values.
            auto y = x;
            const auto aliased = measure([&] { y.row(0) = bsx::sum(y, bsx::axis(0)); });
            BOOST_TEST(aliased.bytes <= std::size_t(m * n) * sizeof(double) + 256, aliased.bytes << " bytes");
            for (index_t j = 0; j < n; ++j) BOOST_TEST(close(y(0, j), col[std::size_t(j)]), "aliased column " << j);
            auto z = x;
            z.col(0) = bsx::sum(z, bsx::axis(1), bsx::keepdims);
            for (index_t i = 0; i < m; ++i) BOOST_TEST(close(z(i, 0), row[std::size_t(i)]), "aliased row " << i);
            BOOST_TEST(z(0, 1) == x(0, 1));
        }
    }
}

BOOST_AUTO_TEST_CASE(views_of_lazy_expressions_allocate_no_temporary) {
    const index_t n = 400;
    const auto a = random_matrix(n, n, 21);
    const auto b = random_matrix(n, n, 22);
    const bsx::array<double, 1> v = bsx::arange<double>(n);
    bsx::array<double, 2> r = random_matrix(n, n, 23);
    bsx::array<double, 2> half(std::array<index_t, 2>{n / 2, n});
    bsx::array<double, 3> split(std::array<index_t, 3>{n, n / 2, 2});
    bsx::array<double, 1> sums(std::array<index_t, 1>{n});
    for (int t : thread_counts()) {
        set_threads(t);
        BOOST_TEST_CONTEXT("threads = " << t) {
            r = bsx::transpose(a + b);  // warm-up
            const auto u1 = measure([&] { r = bsx::transpose(a + b); });
            BOOST_TEST_MESSAGE("r = transpose(a + b), n=400, threads=" << t << ": " << u1.calls << " allocations");
            BOOST_TEST(u1.calls == 0u);
            BOOST_TEST(r(3, 7) == a(7, 3) + b(7, 3));
            const auto u2 = measure([&] { r = bsx::permute(a * b, {1, 0}) - a; });
            BOOST_TEST(u2.calls == 0u);
            BOOST_TEST(r(5, 2) == a(2, 5) * b(2, 5) - a(5, 2));
            const auto u3 = measure([&] { half = bsx::slice(a - b, bsx::range(n - 1, 0, -2)); });
            BOOST_TEST(u3.calls == 0u);
            BOOST_TEST(half(1, 4) == a(n - 3, 4) - b(n - 3, 4));
            const auto u4 = measure([&] { split = bsx::reshape<3>(a + v, {n, n / 2, 2}); });
            BOOST_TEST(u4.calls == 0u);
            BOOST_TEST(split(9, 3, 1) == a(9, 7) + v(7));
            const auto u5 = measure([&] { r = bsx::broadcast_to(v * 2.0, {n, n}); });
            BOOST_TEST(u5.calls == 0u);
            BOOST_TEST(r(4, 6) == 12.0);
            const auto u6 = measure([&] { sums = bsx::sum(bsx::transpose(a * b), bsx::axis(1)); });
            BOOST_TEST_MESSAGE("sums = sum(transpose(a * b), axis(1)), threads=" << t << ": " << u6.calls
                                                                                 << " allocations");
            BOOST_TEST(u6.calls == 0u);
            // Aliasing: the one leaf that reads other elements than those written is copied
            // (n*n doubles); a + 1 itself is never stored.
            r = a;
            const auto u7 = measure([&] { r = bsx::transpose(r + 1.0); });
            BOOST_TEST_MESSAGE("r = transpose(r + 1), n=400, threads=" << t << ": " << u7.calls << " allocations, "
                                                                       << u7.bytes << " bytes");
            BOOST_TEST(u7.calls == 1u);
            BOOST_TEST(u7.bytes <= std::size_t(n * n) * sizeof(double) + 256);
            BOOST_TEST(r(3, 7) == a(7, 3) + 1.0);
        }
    }
}

BOOST_AUTO_TEST_CASE(all_static_assignments_allocate_nothing) {
    // fixed_array (api.md section 7): inline storage, and the static loop or a stack copy
    // wherever an assignment needs one, so no all-static assignment touches the heap,
    // aliased or not, into a fixed_array or into an array of the right shape.
    using mat44 = bsx::fixed_array<double, 4, 4>;
    mat44 a, b, c, r;
    for (index_t i = 0; i < 16; ++i) {
        a.data()[i] = double(i) - 7.5;
        b.data()[i] = 0.5 * double(i);
        c.data()[i] = 1.0;
    }
    const bsx::fixed_array<double, 4> row{1, 2, 3, 4};
    bsx::array<double, 2> dynamic_dest({4, 4});
    for (int t : thread_counts()) {
        set_threads(t);
        BOOST_TEST_CONTEXT("threads = " << t) {
            const auto u = measure([&] {
                r = a * b + c;
                r = bsx::where(a > 0, a, -a);
                r += row;
                r = r * 2.0 + r;                  // reads each element where it is written
                r = r / bsx::slice(r, 1, 1) + r;  // reads r(1, 1), written before the end: stack copy
                r = bsx::transpose(r);            // a view of the destination: stack copy
                r += bsx::transpose(r);           // the same for a compound assignment
                mat44 made = a - row;
                dynamic_dest = made * c;  // the static loop into an array
                sink = made.data();
            });
            BOOST_TEST_MESSAGE("all-static assignments, threads=" << t << ": " << u.calls << " allocations");
            BOOST_TEST(u.calls == 0u);
            // Before the two transposes, r(1, 2) and r(2, 1) held v12 and v21; after them both hold v12 + v21.
            const double r11 = 3.0 * (std::abs(a(1, 1)) + row(1));
            const double v12 = 3.0 * (std::abs(a(1, 2)) + row(2)) / r11 + 3.0 * (std::abs(a(1, 2)) + row(2));
            const double v21 = 3.0 * (std::abs(a(2, 1)) + row(1)) / r11 + 3.0 * (std::abs(a(2, 1)) + row(1));
            BOOST_TEST(r(1, 2) == v21 + v12);
            BOOST_TEST(r(2, 1) == v12 + v21);
            BOOST_TEST(dynamic_dest(1, 2) == (a(1, 2) - 3.0) * 1.0);
        }
    }
}

// Generated leaves (arange, linspace, eye, random numbers) store parameters, not
// elements: `r = a + eye(n)` into a preallocated r allocates nothing, no n x n matrix.
BOOST_AUTO_TEST_CASE(generated_leaves_allocate_nothing) {
    const index_t n = 600;
    const auto a = random_matrix(n, n, 11);
    bsx::array<double, 2> r({n, n});
    bsx::random::generator g(1);
    for (int t : thread_counts()) {
        set_threads(t);
        BOOST_TEST_CONTEXT("threads = " << t) {
            const auto u = measure([&] {
                r = a + bsx::eye<double>(n);
                r += bsx::transpose(bsx::eye<double>(n, n, 2)) * bsx::linspace<double>(0.0, 1.0, n);
                r -= bsx::arange<double>(0.0, double(n));
                r = r + g.normal<double>(r.shape()) * 0.0;  // a random expression stores nothing either
            });
            BOOST_TEST_MESSAGE("generated leaves, threads=" << t << ": " << u.calls << " allocations");
            BOOST_TEST(u.calls == 0u);
            BOOST_TEST(r(5, 5) == a(5, 5) + 1.0 - 5.0);
            BOOST_TEST(r(7, 5) == a(7, 5) + 5.0 / double(n - 1) - 5.0);
        }
    }
}

BOOST_AUTO_TEST_CASE(scans_into_a_preallocated_destination_allocate_only_block_totals) {
    // As doc/reference.md says: written straight into r, so nothing on one thread; on several,
    // where the axis is longer than one block (4096), one total per block but the last of
    // each line. Inside a larger expression, the scan's own buffer as well.
    const index_t rows = 10000, cols = 8;  // 3 blocks down each column
    const auto a = random_matrix(rows, cols, 5);
    bsx::array<double, 2> r({rows, cols});
    const std::size_t result = std::size_t(rows * cols) * sizeof(double), totals = 2 * cols * sizeof(double);
    for (int t : thread_counts()) {
        set_threads(t);
        BOOST_TEST_CONTEXT("threads = " << t) {
            const auto u = measure([&] { r = bsx::cumsum(a, 0); });
            BOOST_TEST_MESSAGE("cumsum of (10000, 8) along axis 0, threads=" << t << ": " << u.calls << " allocations, "
                                                                             << u.bytes << " bytes");
            BOOST_TEST(u.calls <= (t == 1 ? 0u : 1u));
            BOOST_TEST(u.bytes <= (t == 1 ? 0u : totals + 256));
            double column = 0.0;  // the last running sum is the column's sum, up to rounding
            for (index_t i = 0; i < rows; ++i) column += a(i, 3);
            BOOST_TEST(std::abs(r(rows - 1, 3) - column) <= 1e-9 * std::max(1.0, std::abs(column)));
            const auto in_expression = measure([&] { r = bsx::cumsum(a, 0) * 2.0; });
            BOOST_TEST(in_expression.calls >= 1u);
            BOOST_TEST(in_expression.calls <= 2u);
            BOOST_TEST(in_expression.bytes >= result);
            BOOST_TEST(in_expression.bytes <= result + totals + 512);
            BOOST_TEST(std::abs(r(rows - 1, 3) - 2 * column) <= 2e-9 * std::max(1.0, std::abs(column)));
        }
    }
}

BOOST_AUTO_TEST_CASE(lazy_take_and_masked_assignment_allocate_nothing) {
    const index_t n = 1000;
    const auto a = random_matrix(n, n, 9);
    bsx::array<index_t, 1> idx(bsx::shape_t<1>{n});
    for (index_t k = 0; k < n; ++k) idx.data()[k] = (k * 37) % n - (k % 2 == 0 ? n : 0);
    bsx::array<double, 1> flat(bsx::shape_t<1>{n});
    bsx::array<double, 2> r({n, n});
    auto x = random_matrix(n, n, 10);
    const auto m = a > 50.0;
    for (int t : thread_counts()) {
        set_threads(t);
        BOOST_TEST_CONTEXT("threads = " << t) {
            r = bsx::take(a, idx, 1) + 1.0;  // warm-up
            const auto u = measure([&] {
                flat = bsx::take(a, idx) * 2.0;
                r = bsx::take(a, idx, 1) + 1.0;
            });
            BOOST_TEST_MESSAGE("take into preallocated destinations, threads="
                               << t << ": " << u.calls << " allocations, " << u.bytes << " bytes");
            BOOST_TEST(u.calls == 0u);
            BOOST_TEST(u.bytes == 0u);
            BOOST_TEST(flat(3) == a.data()[111] * 2.0);  // idx(3) is 111
            BOOST_TEST(r(5, 2) == a(5, 74) + 1.0);       // idx(2) is 74 - n
            const auto v = measure([&] { x(m) = x * 2.0; });
            BOOST_TEST_MESSAGE("x(m) = x * 2, threads=" << t << ": " << v.calls << " allocations");
            BOOST_TEST(v.calls == 0u);
        }
    }
}

BOOST_AUTO_TEST_CASE(assembly_into_a_preallocated_destination_allocates_nothing) {
    const index_t n = 400;
    const auto a = random_matrix(n, n, 31);
    const auto b = random_matrix(n, n, 32);
    bsx::array<double, 2> r(std::array<index_t, 2>{2 * n, n});
    bsx::array<double, 2> p(std::array<index_t, 2>{n + 3, n + 5});
    bsx::array<double, 2> s(std::array<index_t, 2>{n, n});
    bsx::array<double, 3> st(std::array<index_t, 3>{n, 2, n});
    for (int t : thread_counts()) {
        set_threads(t);
        BOOST_TEST_CONTEXT("threads = " << t) {
            // Arrays listed in braces are copied by C++ (the list's elements), then kept by
            // the node: two copies each. concatenate(a, b, axis) and views copy nothing.
            const auto u1 = measure([&] { r = bsx::concatenate({a, b}, 0); });
            BOOST_TEST_MESSAGE("concatenate({a, b}, 0), threads=" << t << ": " << u1.calls << " allocations");
            BOOST_TEST(u1.calls <= 4u);
            const auto u2 = measure([&] {
                r = bsx::concatenate(a * 2.0, b + 1.0, 0);
                r = bsx::concatenate(a, b, 0) + 1.0;
                r = bsx::concatenate({bsx::slice(a, bsx::all), bsx::slice(b, bsx::all)}, 0);
                st = bsx::stack({bsx::slice(a, bsx::all), bsx::slice(b, bsx::all)}, 1);
            });
            BOOST_TEST_MESSAGE("concatenate and stack, no arrays in braces, threads=" << t << ": " << u2.calls
                                                                                      << " allocations");
            BOOST_TEST(u2.calls == 0u);
            BOOST_TEST(r(n + 3, 4) == b(3, 4));
            BOOST_TEST(st(3, 1, 4) == b(3, 4));
            const auto u3 = measure([&] {
                p = bsx::pad(a, {{1, 2}, {2, 3}}, bsx::pad_reflect);
                p = bsx::pad(a * 2.0, {{1, 2}, {2, 3}}, bsx::pad_constant(1.0));
                p = bsx::pad(a, {{1, 2}, {2, 3}}, bsx::pad_edge) + 1.0;
            });
            BOOST_TEST_MESSAGE("pad, threads=" << t << ": " << u3.calls << " allocations");
            BOOST_TEST(u3.calls == 0u);
            BOOST_TEST(p(0, 0) == a(0, 0) + 1.0);
            const auto u4 = measure([&] {
                s = bsx::flip(a);
                s = bsx::flip(a * 2.0, 1) + b;
                s = bsx::roll(a, 3, 1);
                s = bsx::tile(bsx::slice(a, bsx::range(0, n / 2)), {2, 1});
            });
            BOOST_TEST_MESSAGE("flip, roll, tile, threads=" << t << ": " << u4.calls << " allocations");
            BOOST_TEST(u4.calls == 0u);
            BOOST_TEST(s(n / 2 + 1, 3) == a(1, 3));
            s = a;
            const auto u5 = measure([&] { s = bsx::roll(s, 1, 0); });
            BOOST_TEST_MESSAGE("s = roll(s, 1, 0), threads=" << t << ": " << u5.calls << " allocations, " << u5.bytes
                                                             << " bytes");
            BOOST_TEST(u5.calls == 1u);
            BOOST_TEST(u5.bytes <= std::size_t(n * n) * sizeof(double) + 256);
            BOOST_TEST(s(1, 5) == a(0, 5));
        }
    }
}
