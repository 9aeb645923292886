// Scans and clip against hand-written loops, at 1 and 2 OpenMP threads:
//
//   cumsum_axis0   r = bsx::cumsum(x, 0)            x: 2000 x 2000 doubles
//   cumsum_axis1   r = bsx::cumsum(x, 1)
//   cumsum_flat    r = bsx::cumsum(v)               v: 4,000,000 doubles
//   clip           r = bsx::clip(x, 0.75, 1.25)
//
// Variants: bsx (the line above, into a preallocated r, which the scans write directly)
// and hand: for the scans the plain sequential loop into a preallocated r (down the
// columns: row i = row i - 1 + x's row i, vectorized across the row; along rows and flat:
// one running sum), for clip `omp parallel for simd` over a min(max()) select.

#include <bsx/bsx.hpp>

#include <benchmark/benchmark.h>

#include "bench_common.hpp"

#include <cstdint>

namespace {

constexpr bsx::index_t rows = 2000, cols = 2000, flat = 4000000;

template <int Axis>
void BM_cumsum_bsx(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto x = random_array<2>({rows, cols}, 1);
    bsx::array<double, 2> r(x.shape());
    for (auto _ : state) {
        r = bsx::cumsum(x, Axis);
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    count_read_written(state, rows * cols);
}

void BM_cumsum_axis0_hand(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto x = random_array<2>({rows, cols}, 1);
    bsx::array<double, 2> r(x.shape());
    for (auto _ : state) {
        const double* in = x.data();
        double* out = r.data();
        for (bsx::index_t j = 0; j < cols; ++j) out[j] = in[j];
        for (bsx::index_t i = 1; i < rows; ++i)
            for (bsx::index_t j = 0; j < cols; ++j) out[i * cols + j] = out[(i - 1) * cols + j] + in[i * cols + j];
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    count_read_written(state, rows * cols);
}

void BM_cumsum_axis1_hand(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto x = random_array<2>({rows, cols}, 1);
    bsx::array<double, 2> r(x.shape());
    for (auto _ : state) {
        for (bsx::index_t i = 0; i < rows; ++i) {
            const double* in = x.data() + i * cols;
            double* out = r.data() + i * cols;
            double s = 0;
            for (bsx::index_t j = 0; j < cols; ++j) out[j] = s += in[j];
        }
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    count_read_written(state, rows * cols);
}

void BM_cumsum_flat_bsx(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto v = random_array<1>({flat}, 2);
    bsx::array<double, 1> r(v.shape());
    for (auto _ : state) {
        r = bsx::cumsum(v);
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    count_read_written(state, flat);
}

void BM_cumsum_flat_hand(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto v = random_array<1>({flat}, 2);
    bsx::array<double, 1> r(v.shape());
    for (auto _ : state) {
        double s = 0;
        for (bsx::index_t i = 0; i < flat; ++i) r.data()[i] = s += v.data()[i];
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    count_read_written(state, flat);
}

void BM_clip_bsx(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto x = random_array<2>({rows, cols}, 3);
    bsx::array<double, 2> r(x.shape());
    for (auto _ : state) {
        r = bsx::clip(x, 0.75, 1.25);
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    count_read_written(state, rows * cols);
}

void BM_clip_hand(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto x = random_array<2>({rows, cols}, 3);
    bsx::array<double, 2> r(x.shape());
    for (auto _ : state) {
        const double* in = x.data();
        double* out = r.data();
        const bsx::index_t n = rows * cols;
#pragma omp parallel for simd
        for (bsx::index_t i = 0; i < n; ++i) {
            const double lo = in[i] > 0.75 ? in[i] : 0.75;
            out[i] = lo < 1.25 ? lo : 1.25;
        }
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    count_read_written(state, rows * cols);
}

BENCHMARK(BM_cumsum_bsx<0>)->Name("BM_cumsum_axis0_bsx")->Apply(thread_args);
BENCHMARK(BM_cumsum_axis0_hand)->Apply(thread_args);
BENCHMARK(BM_cumsum_bsx<1>)->Name("BM_cumsum_axis1_bsx")->Apply(thread_args);
BENCHMARK(BM_cumsum_axis1_hand)->Apply(thread_args);
BENCHMARK(BM_cumsum_flat_bsx)->Apply(thread_args);
BENCHMARK(BM_cumsum_flat_hand)->Apply(thread_args);
BENCHMARK(BM_clip_bsx)->Apply(thread_args);
BENCHMARK(BM_clip_hand)->Apply(thread_args);

}  // namespace

BENCHMARK_MAIN();
