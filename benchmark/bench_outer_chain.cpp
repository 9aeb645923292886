// Outer broadcast chain on a 4000 x 4000 result, at 1 and 2 OpenMP threads:
//
//   r = sqrt(x.col(0) * x.col(0) + y.row(0) * y.row(0))
//
// x is (4000, 3) and y is (3, 4000), so x.col(0) is a strided (4000, 1) column and
// y.row(0) a contiguous (1, 4000) row; r is preallocated (4000, 4000).
//
// Variants (all in this binary so that ratios come from one run):
//   bsx          the line above
//   hand_serial  loop over i, x(i,0)^2 hoisted, inner loop over j
//   hand_omp     the same with `omp parallel for` over i and `omp simd` over j
//   eager        one fresh buffer per operation, as NumPy / Octave:
//                x^2 (n), y^2 (n), outer sum (n*n), sqrt (n*n), then r = that;
//                tight loops, parallel at the same thread count
//
// Names: BM_outer_chain_<variant>/threads:<t>/real_time (parsed by ratios.py).

// std::sqrt sets errno, so without -fno-math-errno neither GCC nor clang vectorizes it,
// in the library's loop or in ours; clang says so under `omp simd` (-Wpass-failed).
// Every variant pays the same scalar sqrt, so the comparison stays fair.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpass-failed"
#endif

#include <bsx/bsx.hpp>

#include <benchmark/benchmark.h>

#include "bench_common.hpp"

#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <utility>

namespace {

constexpr bsx::index_t n = 4000;  // result is n x n
constexpr bsx::index_t m = 3;     // x is (n, m), y is (m, n); we use column / row 0

void set_counters(benchmark::State& state) {
    state.SetItemsProcessed(state.iterations() * n * n);                                 // result elements
    state.SetBytesProcessed(state.iterations() * n * n * std::int64_t{sizeof(double)});  // written
}

struct inputs {
    bsx::array<double, 2> x = bsx::zeros<double>(n, m);
    bsx::array<double, 2> y = bsx::zeros<double>(m, n);
    inputs() {
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> u(-1.0, 1.0);
        for (double& v : x) v = u(rng);
        for (double& v : y) v = u(rng);
    }
};

void BM_outer_chain_bsx(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const inputs in;
    const auto& x = in.x;
    const auto& y = in.y;
    bsx::array<double, 2> r = bsx::zeros<double>(n, n);
    for (auto _ : state) {
        r = bsx::sqrt(x.col(0) * x.col(0) + y.row(0) * y.row(0));
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    set_counters(state);
}

void BM_outer_chain_hand_serial(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const inputs in;
    bsx::array<double, 2> r = bsx::zeros<double>(n, n);
    for (auto _ : state) {
        const double* xp = in.x.data();  // x(i, 0) = xp[i * m]
        const double* y0 = in.y.data();  // y(0, j) = y0[j]
        double* rp = r.data();
        for (bsx::index_t i = 0; i < n; ++i) {
            const double xi2 = xp[i * m] * xp[i * m];
            double* ri = rp + i * n;
            for (bsx::index_t j = 0; j < n; ++j) ri[j] = std::sqrt(xi2 + y0[j] * y0[j]);
        }
        benchmark::DoNotOptimize(rp);
        benchmark::ClobberMemory();
    }
    set_counters(state);
}

void BM_outer_chain_hand_omp(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const inputs in;
    bsx::array<double, 2> r = bsx::zeros<double>(n, n);
    for (auto _ : state) {
        const double* xp = in.x.data();
        const double* y0 = in.y.data();
        double* rp = r.data();
#pragma omp parallel for schedule(static)
        for (bsx::index_t i = 0; i < n; ++i) {
            const double xi2 = xp[i * m] * xp[i * m];
            double* ri = rp + i * n;
#pragma omp simd
            for (bsx::index_t j = 0; j < n; ++j) ri[j] = std::sqrt(xi2 + y0[j] * y0[j]);
        }
        benchmark::DoNotOptimize(rp);
        benchmark::ClobberMemory();
    }
    set_counters(state);
}

// NumPy:  r = np.sqrt(x[:, 0, None] * x[:, 0, None] + y[None, 0, :] * y[None, 0, :])
// allocates four results (two of n, two of n*n) and rebinds r to the last one.
void BM_outer_chain_eager(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const inputs in;
    const auto nn = static_cast<std::size_t>(n * n);
    std::unique_ptr<double[]> r(new double[nn]);
    for (auto _ : state) {
        const double* xp = in.x.data();
        const double* y0 = in.y.data();
        // t1 = x(:,0) .* x(:,0)            (n)
        std::unique_ptr<double[]> t1(new double[n]);
        for (bsx::index_t i = 0; i < n; ++i) t1[i] = xp[i * m] * xp[i * m];
        // t2 = y(0,:) .* y(0,:)            (n)
        std::unique_ptr<double[]> t2(new double[n]);
#pragma omp simd
        for (bsx::index_t j = 0; j < n; ++j) t2[j] = y0[j] * y0[j];
        // t3 = t1 + t2, outer sum          (n*n)
        std::unique_ptr<double[]> t3(new double[nn]);
        double* t3p = t3.get();
        const double* t1p = t1.get();
        const double* t2p = t2.get();
#pragma omp parallel for schedule(static)
        for (bsx::index_t i = 0; i < n; ++i) {
            const double a = t1p[i];
            double* row = t3p + i * n;
#pragma omp simd
            for (bsx::index_t j = 0; j < n; ++j) row[j] = a + t2p[j];
        }
        // t4 = sqrt(t3)                    (n*n)
        std::unique_ptr<double[]> t4(new double[nn]);
        double* t4p = t4.get();
#pragma omp parallel for schedule(static)
        for (bsx::index_t i = 0; i < n; ++i) {
            const double* src = t3p + i * n;
            double* dst = t4p + i * n;
#pragma omp simd
            for (bsx::index_t j = 0; j < n; ++j) dst[j] = std::sqrt(src[j]);
        }
        r = std::move(t4);  // r = ...: rebinding, no copy; the old r is freed
        benchmark::DoNotOptimize(r.get());
        benchmark::ClobberMemory();
    }
    set_counters(state);
}

}  // namespace

BENCHMARK(BM_outer_chain_bsx)->Apply(thread_args);
BENCHMARK(BM_outer_chain_hand_serial)->Apply(thread_args);
BENCHMARK(BM_outer_chain_hand_omp)->Apply(thread_args);
BENCHMARK(BM_outer_chain_eager)->Apply(thread_args);

BENCHMARK_MAIN();
