// Fixed sizes (issue 12): bsx::fixed_array expressions against the same arithmetic
// written by hand, in one binary.
//
//   fixed44_fma    c = a * b + c on 4x4 doubles, 10^6 times per iteration
//   fixed44_abs    a = where(a > 0, a, -a) - b on 4x4 doubles, 10^6 times per iteration
//   centroid       (n, 3) points minus a fixed (3,) centroid, n = 10^6, 1 and 2 threads
//
// Variants: bsx (fixed_array; the static loop for the 4x4 cases, the fused loop for the
// points), hand_serial (plain loops over double[16] or the points), hand_omp (the points
// with `omp parallel for`), eigen (Matrix4d array operations, when Eigen is installed).
// Each 4x4 iteration depends on the previous one, so nothing is hoisted out of the loop,
// in every variant alike.
//
// Names: BM_<workload>_<variant>[/threads:<t>]/real_time.

#include <bsx/bsx.hpp>

#include <benchmark/benchmark.h>

#include "bench_common.hpp"

#include <cstdint>
#include <random>

#ifdef BSX_BENCH_WITH_EIGEN
#include <Eigen/Dense>
#endif

namespace {

constexpr int repeats = 1'000'000;
using mat44 = bsx::fixed_array<double, 4, 4>;

/// The same 16 values for every variant: a in [-1, 1), b in [0.25, 1), c in [-1, 1).
struct inputs44 {
    double a[16], b[16], c[16];
    inputs44() {
        std::mt19937_64 rng(12);
        std::uniform_real_distribution<double> u(-1.0, 1.0), pos(0.25, 1.0);
        for (int i = 0; i < 16; ++i) a[i] = u(rng), b[i] = pos(rng), c[i] = u(rng);
    }
};

void set_counters44(benchmark::State& state) {
    state.SetItemsProcessed(state.iterations() * std::int64_t{repeats} * 16);
}

void BM_fixed44_fma_bsx(benchmark::State& state) {
    const inputs44 in;
    mat44 a, b, c;
    std::copy(in.a, in.a + 16, a.begin());
    std::copy(in.b, in.b + 16, b.begin());
    std::copy(in.c, in.c + 16, c.begin());
    for (auto _ : state) {
        for (int k = 0; k < repeats; ++k) c = a * b + c;
        benchmark::DoNotOptimize(c.data());
    }
    set_counters44(state);
}

void BM_fixed44_fma_hand_serial(benchmark::State& state) {
    inputs44 in;
    for (auto _ : state) {
        for (int k = 0; k < repeats; ++k)
            for (int i = 0; i < 16; ++i) in.c[i] = in.a[i] * in.b[i] + in.c[i];
        benchmark::DoNotOptimize(in.c);
    }
    set_counters44(state);
}

void BM_fixed44_abs_bsx(benchmark::State& state) {
    const inputs44 in;
    mat44 a, b;
    std::copy(in.a, in.a + 16, a.begin());
    std::copy(in.b, in.b + 16, b.begin());
    for (auto _ : state) {
        for (int k = 0; k < repeats; ++k) a = bsx::where(a > 0, a, -a) - b;
        benchmark::DoNotOptimize(a.data());
    }
    set_counters44(state);
}

void BM_fixed44_abs_hand_serial(benchmark::State& state) {
    inputs44 in;
    for (auto _ : state) {
        for (int k = 0; k < repeats; ++k)
            for (int i = 0; i < 16; ++i) in.a[i] = (in.a[i] > 0 ? in.a[i] : -in.a[i]) - in.b[i];
        benchmark::DoNotOptimize(in.a);
    }
    set_counters44(state);
}

#ifdef BSX_BENCH_WITH_EIGEN
void BM_fixed44_fma_eigen(benchmark::State& state) {
    const inputs44 in;
    Eigen::Matrix4d a = Eigen::Map<const Eigen::Matrix<double, 4, 4, Eigen::RowMajor>>(in.a);
    Eigen::Matrix4d b = Eigen::Map<const Eigen::Matrix<double, 4, 4, Eigen::RowMajor>>(in.b);
    Eigen::Matrix4d c = Eigen::Map<const Eigen::Matrix<double, 4, 4, Eigen::RowMajor>>(in.c);
    for (auto _ : state) {
        for (int k = 0; k < repeats; ++k) c.array() = a.array() * b.array() + c.array();
        benchmark::DoNotOptimize(c.data());
    }
    set_counters44(state);
}

void BM_fixed44_abs_eigen(benchmark::State& state) {
    const inputs44 in;
    Eigen::Matrix4d a = Eigen::Map<const Eigen::Matrix<double, 4, 4, Eigen::RowMajor>>(in.a);
    Eigen::Matrix4d b = Eigen::Map<const Eigen::Matrix<double, 4, 4, Eigen::RowMajor>>(in.b);
    for (auto _ : state) {
        for (int k = 0; k < repeats; ++k) a.array() = (a.array() > 0).select(a.array(), -a.array()) - b.array();
        benchmark::DoNotOptimize(a.data());
    }
    set_counters44(state);
}
BENCHMARK(BM_fixed44_fma_eigen)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_fixed44_abs_eigen)->UseRealTime()->Unit(benchmark::kMillisecond);
#endif

// ---- (n, 3) points minus a fixed centroid

constexpr bsx::index_t points = 1'000'000;

bsx::array<double, 2> make_points() {
    bsx::array<double, 2> p({points, 3});
    std::mt19937_64 rng(13);
    std::uniform_real_distribution<double> u(-10.0, 10.0);
    for (double& v : p) v = u(rng);
    return p;
}

void set_counters_points(benchmark::State& state) {
    state.SetItemsProcessed(state.iterations() * points * 3);
    state.SetBytesProcessed(state.iterations() * points * 3 * std::int64_t{2 * sizeof(double)});
}

void BM_centroid_bsx(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto p = make_points();
    const bsx::fixed_array<double, 3> centroid{1.5, -2.5, 0.5};
    bsx::array<double, 2> out({points, 3});
    for (auto _ : state) {
        out = p - centroid;
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_counters_points(state);
}

void BM_centroid_hand_serial(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto p = make_points();
    const double centroid[3] = {1.5, -2.5, 0.5};
    bsx::array<double, 2> out({points, 3});
    for (auto _ : state) {
        const double* in = p.data();
        double* o = out.data();
        for (bsx::index_t i = 0; i < points; ++i)
            for (int k = 0; k < 3; ++k) o[3 * i + k] = in[3 * i + k] - centroid[k];
        benchmark::DoNotOptimize(o);
        benchmark::ClobberMemory();
    }
    set_counters_points(state);
}

void BM_centroid_hand_omp(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto p = make_points();
    const double c0 = 1.5, c1 = -2.5, c2 = 0.5;
    bsx::array<double, 2> out({points, 3});
    for (auto _ : state) {
        const double* in = p.data();
        double* o = out.data();
#pragma omp parallel for schedule(static)
        for (bsx::index_t i = 0; i < points; ++i) {
            o[3 * i] = in[3 * i] - c0;
            o[3 * i + 1] = in[3 * i + 1] - c1;
            o[3 * i + 2] = in[3 * i + 2] - c2;
        }
        benchmark::DoNotOptimize(o);
        benchmark::ClobberMemory();
    }
    set_counters_points(state);
}

}  // namespace

BENCHMARK(BM_fixed44_fma_bsx)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_fixed44_fma_hand_serial)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_fixed44_abs_bsx)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_fixed44_abs_hand_serial)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_centroid_bsx)->Apply(thread_args);
BENCHMARK(BM_centroid_hand_serial)->Apply(thread_args);
BENCHMARK(BM_centroid_hand_omp)->Apply(thread_args);

BENCHMARK_MAIN();
