// Sorting 10^7 random doubles in [-1, 1), at 1 and 2 threads and the default thread count:
//
//   sort       r = bsx::sort(a)            (a new array, as np.sort)
//   argsort    i = bsx::argsort(a)         (stable, as np.argsort(kind="stable"))
//
// Variants (all in this binary so that ratios come from one run):
//   bsx   the line above
//   std   the loop a programmer writes: copy a into a buffer allocated once, then
//         std::sort it; for argsort, fill an index buffer with 0..n-1 and std::stable_sort
//         it by a[i]. Serial at every thread count (the standard library's own).
//
// Threads: 1, 2 and OpenMP's default count, or the list in BSX_BENCH_THREADS. NumPy's side
// of the same cases: benchmark/vs_numpy.py.
// Names: BM_<workload>_<variant>/threads:<t>/real_time (parsed by ratios.py).

#include <bsx/bsx.hpp>

#include <benchmark/benchmark.h>

#include "bench_common.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace {

constexpr bsx::index_t length = 10'000'000;

const bsx::array<double, 1>& input() {
    static const bsx::array<double, 1> a = [] {
        auto v = bsx::zeros<double>(length);
        std::mt19937_64 rng(42);
        std::uniform_real_distribution<double> u(-1.0, 1.0);
        for (double& x : v) x = u(rng);
        return v;
    }();
    return a;
}

void count(benchmark::State& state) { state.SetItemsProcessed(state.iterations() * length); }

// 1 and 2 threads (the counts vs_numpy.py and ratios.py read) and OpenMP's default count,
// or the list in BSX_BENCH_THREADS.
void sort_args(benchmark::internal::Benchmark* b) {
    std::vector<std::int64_t> counts = {1, 2};
#ifdef _OPENMP
    if (omp_get_max_threads() > 2) counts.push_back(omp_get_max_threads());
#endif
    b->ArgName("threads");
    for (const std::int64_t threads : env_numbers("BSX_BENCH_THREADS", counts)) b->Arg(threads);
    b->UseRealTime()->Unit(benchmark::kMillisecond);
}

void BM_sort_bsx(benchmark::State& state) {
    set_threads(state, int(state.range(0)));
    const auto& a = input();
    for (auto _ : state) {
        auto r = bsx::sort(a);
        benchmark::DoNotOptimize(r.data());
    }
    count(state);
}
BENCHMARK(BM_sort_bsx)->Apply(sort_args);

void BM_sort_std(benchmark::State& state) {
    set_threads(state, int(state.range(0)));
    const auto& a = input();
    std::vector<double> r(std::size_t(a.size()));
    for (auto _ : state) {
        std::copy(a.begin(), a.end(), r.begin());
        std::sort(r.begin(), r.end());
        benchmark::DoNotOptimize(r.data());
    }
    count(state);
}
BENCHMARK(BM_sort_std)->Apply(sort_args);

void BM_argsort_bsx(benchmark::State& state) {
    set_threads(state, int(state.range(0)));
    const auto& a = input();
    for (auto _ : state) {
        auto r = bsx::argsort(a);
        benchmark::DoNotOptimize(r.data());
    }
    count(state);
}
BENCHMARK(BM_argsort_bsx)->Apply(sort_args);

void BM_argsort_std(benchmark::State& state) {
    set_threads(state, int(state.range(0)));
    const auto& a = input();
    const double* x = a.data();
    std::vector<bsx::index_t> r(std::size_t(a.size()));
    for (auto _ : state) {
        std::iota(r.begin(), r.end(), bsx::index_t(0));
        std::stable_sort(r.begin(), r.end(), [x](bsx::index_t i, bsx::index_t j) { return x[i] < x[j]; });
        benchmark::DoNotOptimize(r.data());
    }
    count(state);
}
BENCHMARK(BM_argsort_std)->Apply(sort_args);

}  // namespace

BENCHMARK_MAIN();
