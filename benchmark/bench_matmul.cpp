// Matrix products of n x n doubles (n = 200, 1000, 2000), uniform in [-1, 1), at 1 and 2
// threads:
//
//   bsx   c = bsx::matmul(a, b): on OpenBLAS when bsx was built with it (BSX_HAVE_BLAS),
//         else on bsx's own kernel; a new result each time
//   into  bsx::matmul(a, b, c): the same into a result allocated once
//   own   c = bsx::detail::matmul_with(bsx::detail::gemm_backend::own, a, b): bsx's own
//         kernel, also in a BLAS build
//   blas  cblas_dgemm called directly on a, b and a result allocated once (the reference;
//         only in a BLAS build)
//
// OpenBLAS gets the thread count through openblas_set_num_threads, bsx through OpenMP.
// NumPy's `a @ b` on the same inputs: benchmark/vs_numpy.py.
// Names: BM_matmul_<variant><n>/threads:<t>/real_time (parsed by ratios.py).

#include <bsx/bsx.hpp>

#include <benchmark/benchmark.h>

#include "bench_common.hpp"

#include <cstdint>
#include <map>
#include <random>
#include <utility>

namespace {

const bsx::array<double, 2>& input(bsx::index_t n, std::uint64_t seed) {
    static std::map<std::pair<bsx::index_t, std::uint64_t>, bsx::array<double, 2>> made;
    auto& a = made[{n, seed}];
    if (a.size() != n * n) {
        a = bsx::zeros<double>(n, n);
        std::mt19937_64 rng(seed);
        std::uniform_real_distribution<double> u(-1.0, 1.0);
        for (double& x : a) x = u(rng);
    }
    return a;
}

void setup(benchmark::State& state) {
    const int threads = int(state.range(0));
    set_threads(state, threads);
#ifdef BSX_HAVE_BLAS
    openblas_set_num_threads(threads);
#endif
}

void count(benchmark::State& state, bsx::index_t size) {
    const double n = double(size);
    state.counters["flops"] =
        benchmark::Counter(2 * n * n * n * double(state.iterations()), benchmark::Counter::kIsRate);
}

template <bsx::index_t n>
void BM_matmul_bsx(benchmark::State& state) {
    setup(state);
    const auto& a = input(n, 1);
    const auto& b = input(n, 2);
    for (auto _ : state) {
        auto c = bsx::matmul(a, b);
        benchmark::DoNotOptimize(c.data());
    }
    count(state, n);
}
BENCHMARK(BM_matmul_bsx<200>)->Apply(thread_args);
BENCHMARK(BM_matmul_bsx<1000>)->Apply(thread_args);
BENCHMARK(BM_matmul_bsx<2000>)->Apply(thread_args);

// Into an existing result, as cblas_dgemm writes into its C: np.matmul(a, b, out=c).
template <bsx::index_t n>
void BM_matmul_into(benchmark::State& state) {
    setup(state);
    const auto& a = input(n, 1);
    const auto& b = input(n, 2);
    bsx::array<double, 2> c(bsx::shape_t<2>{n, n});
    for (auto _ : state) {
        bsx::matmul(a, b, c);
        benchmark::DoNotOptimize(c.data());
    }
    count(state, n);
}
BENCHMARK(BM_matmul_into<200>)->Apply(thread_args);
BENCHMARK(BM_matmul_into<1000>)->Apply(thread_args);
BENCHMARK(BM_matmul_into<2000>)->Apply(thread_args);

template <bsx::index_t n>
void BM_matmul_own(benchmark::State& state) {
    setup(state);
    const auto& a = input(n, 1);
    const auto& b = input(n, 2);
    for (auto _ : state) {
        auto c = bsx::detail::matmul_with(bsx::detail::gemm_backend::own, a, b);
        benchmark::DoNotOptimize(c.data());
    }
    count(state, n);
}
BENCHMARK(BM_matmul_own<200>)->Apply(thread_args);
BENCHMARK(BM_matmul_own<1000>)->Apply(thread_args);
BENCHMARK(BM_matmul_own<2000>)->Apply(thread_args);

#ifdef BSX_HAVE_BLAS
template <bsx::index_t n>
void BM_matmul_blas(benchmark::State& state) {
    setup(state);
    const auto& a = input(n, 1);
    const auto& b = input(n, 2);
    bsx::array<double, 2> c(bsx::shape_t<2>{n, n});
    for (auto _ : state) {
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(n), int(n), int(n), 1.0, a.data(), int(n), b.data(),
                    int(n), 0.0, c.data(), int(n));
        benchmark::DoNotOptimize(c.data());
    }
    count(state, n);
}
BENCHMARK(BM_matmul_blas<200>)->Apply(thread_args);
BENCHMARK(BM_matmul_blas<1000>)->Apply(thread_args);
BENCHMARK(BM_matmul_blas<2000>)->Apply(thread_args);
#endif

}  // namespace

BENCHMARK_MAIN();
