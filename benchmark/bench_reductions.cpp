// Reductions, fused with the expression they reduce, at 1 and 2 OpenMP threads:
//
//   dot        s = bsx::sum(a * b)                                  a, b: 10^7 doubles
//   centre     r = x - bsx::mean(x, bsx::axis(1), bsx::keepdims)    x, r: 4000 x 4000
//   sum_exp    s = bsx::sum(bsx::exp(x))                            x: 10^7 doubles
//   product    c = bsx::sum(in_dims<3>(a, {0, 1}) * in_dims<3>(b, {1, 2}), axis(1))   n = 200
//   softmax    e = exp(x - max(x, axis(1), keepdims)); r = e / sum(e, axis(1), keepdims)
//              x, e, r: 2000 x 2000 (bsx alone: benchmark/scaling.sh's workload)
//
// Variants (all in this binary so that ratios come from one run):
//   bsx          the line above
//   hand_omp     the loop a programmer writes: `omp parallel for simd reduction`; for
//                centre the two-pass loop (all means, then the subtraction); for product
//                an i-k-j triple loop
//   hand_rowwise centre only: both passes over one row at a time (the second from cache)
//   eager        NumPy / Octave: every intermediate stored (a*b, exp(x), the mean
//                column, the n*n*n product) before it is reduced
//
// Names: BM_<workload>_<variant>/threads:<t>/real_time (parsed by ratios.py).

// std::exp sets errno, so without -fno-math-errno neither GCC nor clang vectorizes it,
// in the library's loop or in ours (clang says so under `omp simd`, -Wpass-failed).
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

namespace {

constexpr bsx::index_t vector_length = 10'000'000;
constexpr bsx::index_t rows = 4000, cols = 4000;
constexpr bsx::index_t product_n = 200;

bsx::array<double, 1> random_vector(bsx::index_t n, unsigned seed) {
    auto v = bsx::zeros<double>(n);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (double& x : v) x = u(rng);
    return v;
}

bsx::array<double, 2> random_matrix(bsx::index_t m, bsx::index_t n, unsigned seed) {
    const auto v = random_vector(m * n, seed);
    return bsx::reshape<2>(v, {m, n});
}

void count(benchmark::State& state, std::int64_t elements) { state.SetItemsProcessed(state.iterations() * elements); }

// ---- dot ---------------------------------------------------------------------------

void BM_dot_bsx(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto a = random_vector(vector_length, 1), b = random_vector(vector_length, 2);
    for (auto _ : state) benchmark::DoNotOptimize(bsx::sum(a * b));
    count(state, vector_length);
}

void BM_dot_hand_omp(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto a = random_vector(vector_length, 1), b = random_vector(vector_length, 2);
    for (auto _ : state) {
        const double* ap = a.data();
        const double* bp = b.data();
        double s = 0;
#pragma omp parallel for simd reduction(+ : s) schedule(static)
        for (bsx::index_t i = 0; i < vector_length; ++i) s += ap[i] * bp[i];
        benchmark::DoNotOptimize(s);
    }
    count(state, vector_length);
}

void BM_dot_eager(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto a = random_vector(vector_length, 1), b = random_vector(vector_length, 2);
    for (auto _ : state) {
        const bsx::array<double, 1> t = a * b;  // the stored product
        benchmark::DoNotOptimize(bsx::sum(t));
    }
    count(state, vector_length);
}

// ---- centre ------------------------------------------------------------------------

void BM_centre_bsx(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto x = random_matrix(rows, cols, 3);
    auto r = bsx::zeros<double>(rows, cols);
    for (auto _ : state) {
        r = x - bsx::mean(x, bsx::axis(1), bsx::keepdims);
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    count(state, rows * cols);
}

// The baseline: two passes, all row means first, then the subtraction.
void BM_centre_hand_omp(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto x = random_matrix(rows, cols, 3);
    auto r = bsx::zeros<double>(rows, cols);
    std::unique_ptr<double[]> means(new double[rows]);
    for (auto _ : state) {
        const double* xp = x.data();
        double* rp = r.data();
        double* mp = means.get();
#pragma omp parallel
        {
#pragma omp for schedule(static)
            for (bsx::index_t i = 0; i < rows; ++i) {
                const double* row = xp + i * cols;
                double s = 0;
#pragma omp simd reduction(+ : s)
                for (bsx::index_t j = 0; j < cols; ++j) s += row[j];
                mp[i] = s / cols;
            }
#pragma omp for schedule(static)
            for (bsx::index_t i = 0; i < rows; ++i) {
                const double* row = xp + i * cols;
                double* out = rp + i * cols;
                const double mean = mp[i];
#pragma omp simd
                for (bsx::index_t j = 0; j < cols; ++j) out[j] = row[j] - mean;
            }
        }
        benchmark::DoNotOptimize(rp);
        benchmark::ClobberMemory();
    }
    count(state, rows * cols);
}

// Both passes over one row at a time, the second from cache: less memory traffic than
// any evaluation that finishes the means before the subtraction starts.
void BM_centre_hand_rowwise(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto x = random_matrix(rows, cols, 3);
    auto r = bsx::zeros<double>(rows, cols);
    for (auto _ : state) {
        const double* xp = x.data();
        double* rp = r.data();
#pragma omp parallel for schedule(static)
        for (bsx::index_t i = 0; i < rows; ++i) {
            const double* row = xp + i * cols;
            double s = 0;
#pragma omp simd reduction(+ : s)
            for (bsx::index_t j = 0; j < cols; ++j) s += row[j];
            const double mean = s / cols;
            double* out = rp + i * cols;
#pragma omp simd
            for (bsx::index_t j = 0; j < cols; ++j) out[j] = row[j] - mean;
        }
        benchmark::DoNotOptimize(rp);
        benchmark::ClobberMemory();
    }
    count(state, rows * cols);
}

void BM_centre_eager(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto x = random_matrix(rows, cols, 3);
    auto r = bsx::zeros<double>(rows, cols);
    for (auto _ : state) {
        const bsx::array<double, 2> m = bsx::mean(x, bsx::axis(1), bsx::keepdims);  // stored (rows, 1)
        bsx::array<double, 2> t = x - m;                                            // a fresh result
        r = std::move(t);
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    count(state, rows * cols);
}

// ---- sum_exp -----------------------------------------------------------------------

void BM_sum_exp_bsx(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto x = random_vector(vector_length, 4);
    for (auto _ : state) benchmark::DoNotOptimize(bsx::sum(bsx::exp(x)));
    count(state, vector_length);
}

void BM_sum_exp_hand_omp(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto x = random_vector(vector_length, 4);
    for (auto _ : state) {
        const double* xp = x.data();
        double s = 0;
#pragma omp parallel for simd reduction(+ : s) schedule(static)
        for (bsx::index_t i = 0; i < vector_length; ++i) s += std::exp(xp[i]);
        benchmark::DoNotOptimize(s);
    }
    count(state, vector_length);
}

void BM_sum_exp_eager(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto x = random_vector(vector_length, 4);
    for (auto _ : state) {
        const bsx::array<double, 1> t = bsx::exp(x);  // stored
        benchmark::DoNotOptimize(bsx::sum(t));
    }
    count(state, vector_length);
}

// ---- product -----------------------------------------------------------------------

void BM_product_bsx(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto a = random_matrix(product_n, product_n, 5), b = random_matrix(product_n, product_n, 6);
    auto c = bsx::zeros<double>(product_n, product_n);
    for (auto _ : state) {
        c = bsx::sum(bsx::in_dims<3>(a, {0, 1}) * bsx::in_dims<3>(b, {1, 2}), bsx::axis(1));
        benchmark::DoNotOptimize(c.data());
        benchmark::ClobberMemory();
    }
    count(state, product_n * product_n * product_n);
}

void BM_product_hand_omp(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto a = random_matrix(product_n, product_n, 5), b = random_matrix(product_n, product_n, 6);
    auto c = bsx::zeros<double>(product_n, product_n);
    for (auto _ : state) {
        const double* ap = a.data();
        const double* bp = b.data();
        double* cp = c.data();
        constexpr bsx::index_t n = product_n;
#pragma omp parallel for schedule(static)
        for (bsx::index_t i = 0; i < n; ++i) {
            double* ci = cp + i * n;
            for (bsx::index_t j = 0; j < n; ++j) ci[j] = 0;
            for (bsx::index_t k = 0; k < n; ++k) {
                const double aik = ap[i * n + k];
#pragma omp simd
                for (bsx::index_t j = 0; j < n; ++j) ci[j] += aik * bp[k * n + j];
            }
        }
        benchmark::DoNotOptimize(cp);
        benchmark::ClobberMemory();
    }
    count(state, product_n * product_n * product_n);
}

// Octave: sum(permute(a, [1 3 2]) .* permute(b, [3 2 1]), 2) stores the n*n*n product.
void BM_product_eager(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto a = random_matrix(product_n, product_n, 5), b = random_matrix(product_n, product_n, 6);
    auto c = bsx::zeros<double>(product_n, product_n);
    for (auto _ : state) {
        const bsx::array<double, 3> t = bsx::in_dims<3>(a, {0, 1}) * bsx::in_dims<3>(b, {1, 2});
        bsx::array<double, 2> s = bsx::sum(t, bsx::axis(1));
        c = std::move(s);
        benchmark::DoNotOptimize(c.data());
        benchmark::ClobberMemory();
    }
    count(state, product_n * product_n * product_n);
}

// ---- softmax -----------------------------------------------------------------------

void BM_softmax_bsx(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    constexpr bsx::index_t n = 2000;
    const auto x = random_matrix(n, n, 5);
    bsx::array<double, 2> e = bsx::zeros<double>(n, n), r = e;
    for (auto _ : state) {
        e = bsx::exp(x - bsx::max(x, bsx::axis(1), bsx::keepdims));
        r = e / bsx::sum(e, bsx::axis(1), bsx::keepdims);
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    count(state, n * n);
}

}  // namespace

BENCHMARK(BM_dot_bsx)->Apply(thread_args);
BENCHMARK(BM_dot_hand_omp)->Apply(thread_args);
BENCHMARK(BM_dot_eager)->Apply(thread_args);
BENCHMARK(BM_centre_bsx)->Apply(thread_args);
BENCHMARK(BM_centre_hand_omp)->Apply(thread_args);
BENCHMARK(BM_centre_hand_rowwise)->Apply(thread_args);
BENCHMARK(BM_centre_eager)->Apply(thread_args);
BENCHMARK(BM_sum_exp_bsx)->Apply(thread_args);
BENCHMARK(BM_sum_exp_hand_omp)->Apply(thread_args);
BENCHMARK(BM_sum_exp_eager)->Apply(thread_args);
BENCHMARK(BM_product_bsx)->Apply(thread_args);
BENCHMARK(BM_product_hand_omp)->Apply(thread_args);
BENCHMARK(BM_product_eager)->Apply(thread_args);
BENCHMARK(BM_softmax_bsx)->Apply(thread_args);

BENCHMARK_MAIN();
