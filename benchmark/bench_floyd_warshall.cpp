// Floyd-Warshall, n = 100, 1000, 2000, at 1 and 2 OpenMP threads.
//
// One benchmark iteration = the whole k loop (n steps of n*n work) on a fresh copy
// of the same input graph. The n*n copy that restores the input is inside the
// timed region: it is one pass against n passes, i.e. 1/n of the work.
//
// Variants (all in this binary so that ratios come from one run):
//   bsx          dist = bsx::min(dist, dist.col(k) + dist.row(k));
//   hand_serial  triple loop, row pointers, min (std::min semantics, see relax)
//   hand_omp     the same with `omp simd` over j and, at 2 threads, `omp parallel for` over i
//   hand_nan     hand_omp with bsx::min's semantics: a NaN in either operand gives NaN
//                (relax_nan). hand_serial and hand_omp compute std::min, which bsx does not
//                offer: with a NaN it returns whichever operand came first.
//   eager        what NumPy / Octave do per step: t = col + row as a fresh n*n
//                buffer, then min(dist, t) into a second fresh n*n buffer, which
//                becomes dist; plain tight loops, parallelized with OpenMP as well.
//   eigen        dist = dist.min(colk.rowwise().replicate(n) + rowk.colwise().replicate(n)) on Eigen
//                arrays, column k and row k copied first as bsx does, where Eigen is installed
//                (BSX_BENCH_WITH_EIGEN); one thread only: Eigen threads matrix products, not
//                coefficient-wise expressions
//   xtensor      xt::noalias(dist) = xt::minimum(dist, colk[:, newaxis] + rowk), the same copies,
//                where xtensor is installed (BSX_BENCH_WITH_XTENSOR); one thread only: xtensor's
//                OpenMP loop covers same-shape assignments, not broadcasting ones
//
// Names: BM_fw_<variant>/n:<n>/threads:<t>/real_time (parsed by ratios.py).

#include <bsx/bsx.hpp>

#include <benchmark/benchmark.h>

#include "bench_common.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#ifdef BSX_BENCH_WITH_EIGEN
#include <Eigen/Core>
#endif
#ifdef BSX_BENCH_WITH_XTENSOR
#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>
#endif

namespace {

// Random directed graph: edge probability 0.1, weights in [1, 100), +inf where
// there is no edge, 0 on the diagonal. Deterministic (fixed seed).
std::vector<double> random_graph(bsx::index_t n) {
    std::mt19937_64 rng(42);
    std::bernoulli_distribution has_edge(0.1);
    std::uniform_real_distribution<double> weight(1.0, 100.0);
    std::vector<double> d(static_cast<std::size_t>(n * n));
    for (bsx::index_t i = 0; i < n; ++i)
        for (bsx::index_t j = 0; j < n; ++j)
            d[i * n + j] = i == j ? 0.0 : has_edge(rng) ? weight(rng) : std::numeric_limits<double>::infinity();
    return d;
}

// std::min(d, via), written as an unconditional store: `rowi[j] = std::min(rowi[j], x)`
// is turned by GCC 12 into "store only if x is smaller", which it does not vectorize
// under `omp simd` (a scalar loop, 3x slower); this form compiles to vminpd.
inline double relax(double d, double via) { return via < d ? via : d; }

// bsx::min(d, via) (NumPy's minimum) in the form that compiles to vminpd plus one compare
// and blend: `d < via ? d : via` is via when either is NaN, then a NaN d is kept.
inline double relax_nan(double d, double via) {
    const double m = d < via ? d : via;
    return d != d ? d : m;
}

void set_counters(benchmark::State& state, bsx::index_t n) {
    // one "item" = one relaxation dist(i,j) = min(dist(i,j), dist(i,k) + dist(k,j))
    state.SetItemsProcessed(state.iterations() * n * n * n);
}

void BM_fw_bsx(benchmark::State& state) {
    const bsx::index_t n = state.range(0);
    set_threads(state, static_cast<int>(state.range(1)));
    const std::vector<double> input = random_graph(n);
    bsx::array<double, 2> dist = bsx::zeros<double>(n, n);
    for (auto _ : state) {
        std::copy(input.begin(), input.end(), dist.data());
        for (bsx::index_t k = 0; k < n; ++k) dist = bsx::min(dist, dist.col(k) + dist.row(k));
        benchmark::DoNotOptimize(dist.data());
        benchmark::ClobberMemory();
    }
    set_counters(state, n);
}

void BM_fw_hand_serial(benchmark::State& state) {
    const bsx::index_t n = state.range(0);
    set_threads(state, static_cast<int>(state.range(1)));
    const std::vector<double> input = random_graph(n);
    std::vector<double> dist(input.size());
    for (auto _ : state) {
        std::copy(input.begin(), input.end(), dist.begin());
        double* d = dist.data();
        for (bsx::index_t k = 0; k < n; ++k) {
            const double* rowk = d + k * n;
            for (bsx::index_t i = 0; i < n; ++i) {
                double* rowi = d + i * n;
                const double dik = rowi[k];
                for (bsx::index_t j = 0; j < n; ++j) rowi[j] = relax(rowi[j], dik + rowk[j]);
            }
        }
        benchmark::DoNotOptimize(d);
        benchmark::ClobberMemory();
    }
    set_counters(state, n);
}

template <double (*Relax)(double, double)>
void hand_omp(benchmark::State& state) {
    const bsx::index_t n = state.range(0);
    set_threads(state, static_cast<int>(state.range(1)));
    const std::vector<double> input = random_graph(n);
    std::vector<double> dist(input.size());
    for (auto _ : state) {
        std::copy(input.begin(), input.end(), dist.begin());
        double* d = dist.data();
        // In place is correct here: during step k, row k and column k do not change,
        // because dist(k,k) == 0 and there are no negative cycles:
        //   dist(k,j) = min(dist(k,j), dist(k,k) + dist(k,j)) = dist(k,j)
        //   dist(i,k) = min(dist(i,k), dist(i,k) + dist(k,k)) = dist(i,k)
        // so every thread may read row k and dist(i,k) while others write.
        // (A general library cannot assume this; bsx copies row k and column k.)
        const auto relax_row = [d, n](bsx::index_t k, bsx::index_t i) {
            const double* rowk = d + k * n;
            double* rowi = d + i * n;
            const double dik = rowi[k];
#pragma omp simd
            for (bsx::index_t j = 0; j < n; ++j) rowi[j] = Relax(rowi[j], dik + rowk[j]);
        };
        if (state.range(1) == 1) {  // no parallel region at 1 thread: its fixed cost shows at n = 100
            for (bsx::index_t k = 0; k < n; ++k)
                for (bsx::index_t i = 0; i < n; ++i) relax_row(k, i);
        } else {
            for (bsx::index_t k = 0; k < n; ++k) {
#pragma omp parallel for schedule(static)
                for (bsx::index_t i = 0; i < n; ++i) relax_row(k, i);
            }
        }
        benchmark::DoNotOptimize(d);
        benchmark::ClobberMemory();
    }
    set_counters(state, n);
}

// Eager evaluation, one fresh result buffer per operation, as NumPy's
//   dist = np.minimum(dist, dist[:, k, None] + dist[None, k, :])
// and Octave's  dist = min(dist, dist(:,k) + dist(k,:))  do: the outer sum is
// materialized into a new n*n array, np.minimum writes a second new n*n array,
// and the name dist is rebound to it (the old buffer is freed). The loops are
// as tight as the hand-written ones and parallel at the same thread count.
void BM_fw_eager(benchmark::State& state) {
    const bsx::index_t n = state.range(0);
    set_threads(state, static_cast<int>(state.range(1)));
    const std::vector<double> input = random_graph(n);
    const auto nn = static_cast<std::size_t>(n * n);
    for (auto _ : state) {
        std::unique_ptr<double[]> dist(new double[nn]);
        std::copy(input.begin(), input.end(), dist.get());
        for (bsx::index_t k = 0; k < n; ++k) {
            const double* d = dist.get();
            // t = dist(:,k) + dist(k,:)   (fresh n*n buffer, uninitialized like malloc)
            std::unique_ptr<double[]> t(new double[nn]);
            double* tp = t.get();
#pragma omp parallel for schedule(static)
            for (bsx::index_t i = 0; i < n; ++i) {
                const double dik = d[i * n + k];
                const double* rowk = d + k * n;
                double* ti = tp + i * n;
#pragma omp simd
                for (bsx::index_t j = 0; j < n; ++j) ti[j] = dik + rowk[j];
            }
            // r = min(dist, t)            (second fresh n*n buffer)
            std::unique_ptr<double[]> r(new double[nn]);
            double* rp = r.get();
#pragma omp parallel for schedule(static)
            for (bsx::index_t i = 0; i < n; ++i) {
                const double* di = d + i * n;
                const double* ti = tp + i * n;
                double* ri = rp + i * n;
#pragma omp simd
                for (bsx::index_t j = 0; j < n; ++j) ri[j] = std::min(di[j], ti[j]);
            }
            dist = std::move(r);  // dist = ...: the old dist and t are freed
        }
        benchmark::DoNotOptimize(dist.get());
        benchmark::ClobberMemory();
    }
    set_counters(state, n);
}

#ifdef BSX_BENCH_WITH_EIGEN
void BM_fw_eigen(benchmark::State& state) {
    const bsx::index_t n = state.range(0);
    set_threads(state, static_cast<int>(state.range(1)));
    using earray = Eigen::Array<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const std::vector<double> input = random_graph(n);
    earray dist(n, n);
    Eigen::ArrayXd colk(n);
    Eigen::Array<double, 1, Eigen::Dynamic> rowk(n);
    for (auto _ : state) {
        std::copy(input.begin(), input.end(), dist.data());
        for (bsx::index_t k = 0; k < n; ++k) {
            colk = dist.col(k);
            rowk = dist.row(k);
            dist = dist.min(colk.rowwise().replicate(n) + rowk.colwise().replicate(n));
        }
        benchmark::DoNotOptimize(dist.data());
        benchmark::ClobberMemory();
    }
    set_counters(state, n);
}
#endif

#ifdef BSX_BENCH_WITH_XTENSOR
void BM_fw_xtensor(benchmark::State& state) {
    const bsx::index_t n = state.range(0);
    set_threads(state, static_cast<int>(state.range(1)));
    const auto size = static_cast<std::size_t>(n);
    const std::vector<double> input = random_graph(n);
    xt::xtensor<double, 2> dist = xt::xtensor<double, 2>::from_shape({size, size});
    xt::xtensor<double, 1> colk = xt::xtensor<double, 1>::from_shape({size});
    xt::xtensor<double, 1> rowk = xt::xtensor<double, 1>::from_shape({size});
    for (auto _ : state) {
        std::copy(input.begin(), input.end(), dist.data());
        for (std::size_t k = 0; k < size; ++k) {
            colk = xt::view(dist, xt::all(), k);
            rowk = xt::view(dist, k, xt::all());
            xt::noalias(dist) = xt::minimum(dist, xt::view(colk, xt::all(), xt::newaxis()) + rowk);
        }
        benchmark::DoNotOptimize(dist.data());
        benchmark::ClobberMemory();
    }
    set_counters(state, n);
}
#endif

void BM_fw_hand_omp(benchmark::State& state) { hand_omp<relax>(state); }
void BM_fw_hand_nan(benchmark::State& state) { hand_omp<relax_nan>(state); }

void fw_args(benchmark::internal::Benchmark* b) {
    b->ArgNames({"n", "threads"});
    for (const std::int64_t n : env_numbers("BSX_BENCH_FW_N", {100, 400, 1000, 2000}))
        for (const std::int64_t threads : bench_thread_counts()) b->Args({n, threads});
    b->UseRealTime()->Unit(benchmark::kMillisecond);
}

/// fw_args at one thread: for peers that run on one thread whatever the OpenMP setting.
[[maybe_unused]] void fw_serial_args(benchmark::internal::Benchmark* b) {
    b->ArgNames({"n", "threads"});
    for (const std::int64_t n : env_numbers("BSX_BENCH_FW_N", {100, 400, 1000, 2000})) b->Args({n, 1});
    b->UseRealTime()->Unit(benchmark::kMillisecond);
}

}  // namespace

BENCHMARK(BM_fw_bsx)->Apply(fw_args);
BENCHMARK(BM_fw_hand_serial)->Apply(fw_args);
BENCHMARK(BM_fw_hand_omp)->Apply(fw_args);
BENCHMARK(BM_fw_hand_nan)->Apply(fw_args);
BENCHMARK(BM_fw_eager)->Apply(fw_args);
#ifdef BSX_BENCH_WITH_EIGEN
BENCHMARK(BM_fw_eigen)->Apply(fw_serial_args);
#endif
#ifdef BSX_BENCH_WITH_XTENSOR
BENCHMARK(BM_fw_xtensor)->Apply(fw_serial_args);
#endif

BENCHMARK_MAIN();
