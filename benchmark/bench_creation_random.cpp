// Generated leaves beside hand-written loops, at 1 and 2 OpenMP threads:
//
//   linspace     r = bsx::linspace<double>(0, 1, n)       vs  r[i] = start + i * step
//   eye_add      r = a + bsx::eye<double>(m)              vs  r[i][j] = a[i][j] + (i == j)
//   normal       r = g.normal<double>(shape)              vs  the same Philox and Box-Muller per
//                                                              element in a plain loop
//
// with n = 10^7 (linspace, normal) and m = 3000 (eye). The hand loops share the work with
// `omp parallel for`. It measures what a generated leaf costs beside the loop it stands
// for: its values are computed a chunk at a time into a tile, then read.
//
// Names: BM_<case>_<bsx|hand>/threads:<t>/real_time.

#include <bsx/bsx.hpp>

#include <benchmark/benchmark.h>

#include "bench_common.hpp"

#include <cmath>
#include <cstdint>

namespace {

constexpr bsx::index_t n = 10'000'000, m = 3000;

void set_counters(benchmark::State& state, std::int64_t elements) {
    state.SetItemsProcessed(state.iterations() * elements);
    state.SetBytesProcessed(state.iterations() * elements * std::int64_t{sizeof(double)});
}

void BM_linspace_bsx(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    bsx::array<double, 1> r(bsx::shape_t<1>{n});
    for (auto _ : state) {
        r = bsx::linspace<double>(0.0, 1.0, n);
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    set_counters(state, n);
}

void BM_linspace_hand(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    bsx::array<double, 1> r(bsx::shape_t<1>{n});
    double* out = r.data();
    for (auto _ : state) {
        const double step = 1.0 / double(n - 1);
#pragma omp parallel for schedule(static)
        for (bsx::index_t i = 0; i < n; ++i) out[i] = double(i) * step;
        out[n - 1] = 1.0;
        benchmark::DoNotOptimize(out);
        benchmark::ClobberMemory();
    }
    set_counters(state, n);
}

void BM_eye_add_bsx(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const bsx::array<double, 2> a(bsx::shape_t<2>{m, m}, 0.5);
    bsx::array<double, 2> r(bsx::shape_t<2>{m, m});
    for (auto _ : state) {
        r = a + bsx::eye<double>(m);
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    set_counters(state, m * m);
}

void BM_eye_add_hand(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const bsx::array<double, 2> a(bsx::shape_t<2>{m, m}, 0.5);
    bsx::array<double, 2> r(bsx::shape_t<2>{m, m});
    const double* in = a.data();
    double* out = r.data();
    for (auto _ : state) {
#pragma omp parallel for schedule(static)
        for (bsx::index_t i = 0; i < m; ++i)
            for (bsx::index_t j = 0; j < m; ++j) out[i * m + j] = in[i * m + j] + (i == j ? 1.0 : 0.0);
        benchmark::DoNotOptimize(out);
        benchmark::ClobberMemory();
    }
    set_counters(state, m * m);
}

void BM_normal_bsx(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    bsx::random::generator g(1);
    bsx::array<double, 1> r(bsx::shape_t<1>{n});
    for (auto _ : state) {
        r = g.normal<double>(r.shape());
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    set_counters(state, n);
}

void BM_normal_hand(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    bsx::array<double, 1> r(bsx::shape_t<1>{n});
    double* out = r.data();
    std::uint32_t call = 0;
    for (auto _ : state) {
        ++call;
#pragma omp parallel for schedule(static)
        for (bsx::index_t i = 0; i < n; ++i) {
            const auto w = bsx::random::philox4x32({std::uint32_t(i), 0, call, 0}, {1, 0});
            const double u1 = 1.0 - double((std::uint64_t(w[0]) << 32 | w[1]) >> 11) * 0x1p-53;
            const double u2 = double((std::uint64_t(w[2]) << 32 | w[3]) >> 11) * 0x1p-53;
            out[i] = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
        }
        benchmark::DoNotOptimize(out);
        benchmark::ClobberMemory();
    }
    set_counters(state, n);
}

}  // namespace

BENCHMARK(BM_linspace_bsx)->Apply(thread_args);
BENCHMARK(BM_linspace_hand)->Apply(thread_args);
BENCHMARK(BM_eye_add_bsx)->Apply(thread_args);
BENCHMARK(BM_eye_add_hand)->Apply(thread_args);
BENCHMARK(BM_normal_bsx)->Apply(thread_args);
BENCHMARK(BM_normal_hand)->Apply(thread_args);

BENCHMARK_MAIN();
