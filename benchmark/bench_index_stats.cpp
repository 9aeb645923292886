// argmax and std along each axis of a 2000 x 2000 matrix of doubles, beside hand-written
// loops, at 1 and 2 OpenMP threads (the hand loops are serial: argmax's scan is serial in
// bsx too):
//
//   argmax_axis0/axis1   r = bsx::argmax(x, k)           hand: axis 0 one scan in memory order,
//                                                        keeping the first index of the max;
//                                                        axis 1 each row's max in vector lanes,
//                                                        then the first place it occurs
//   std_axis0/axis1      r = bsx::std(x, k)              hand: the two passes, mean then the
//                                                        sum of squared deviations

#include <bsx/bsx.hpp>

#include <benchmark/benchmark.h>

#include "bench_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace {

constexpr bsx::index_t n = 2000;

bsx::array<double, 2> random_matrix() {
    bsx::array<double, 2> x(bsx::shape_t<2>{n, n});
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (double& v : x) v = u(rng);
    return x;
}

void count(benchmark::State& state) {
    state.SetItemsProcessed(state.iterations() * n * n);
    state.SetBytesProcessed(state.iterations() * n * n * 8);
}

template <int Axis>
void BM_argmax_bsx(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto x = random_matrix();
    bsx::array<bsx::index_t, 1> r(bsx::shape_t<1>{n});
    for (auto _ : state) {
        r = bsx::argmax(x, Axis);
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    count(state);
}

// The first index of the max along `Axis`, reading x in memory order (NaN-free data).
template <int Axis>
void BM_argmax_hand(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto x = random_matrix();
    std::vector<bsx::index_t> r(n);
    std::vector<double> best(n);
    for (auto _ : state) {
        const double* p = x.data();
        if (Axis == 0) {
            for (bsx::index_t j = 0; j < n; ++j) best[j] = p[j], r[j] = 0;
            for (bsx::index_t i = 1; i < n; ++i)
                for (bsx::index_t j = 0; j < n; ++j) {
                    const bool more = p[i * n + j] > best[j];
                    best[j] = more ? p[i * n + j] : best[j];
                    r[j] = more ? i : r[j];
                }
        } else {
            for (bsx::index_t i = 0; i < n; ++i) {  // the max in vector lanes, then its first place
                const double* row = p + i * n;
                double most = row[0];
#pragma omp simd reduction(max : most)
                for (bsx::index_t j = 0; j < n; ++j) most = std::max(most, row[j]);
                bsx::index_t at = 0;
                while (row[at] != most) ++at;
                r[i] = at;
            }
        }
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    count(state);
}

template <int Axis>
void BM_std_bsx(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto x = random_matrix();
    bsx::array<double, 1> r(bsx::shape_t<1>{n});
    for (auto _ : state) {
        r = bsx::std(x, Axis);
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    count(state);
}

template <int Axis>
void BM_std_hand(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto x = random_matrix();
    std::vector<double> mean(n), ss(n);
    for (auto _ : state) {
        const double* p = x.data();
        if (Axis == 0) {
            std::fill(mean.begin(), mean.end(), 0.0);
            std::fill(ss.begin(), ss.end(), 0.0);
            for (bsx::index_t i = 0; i < n; ++i)
                for (bsx::index_t j = 0; j < n; ++j) mean[j] += p[i * n + j];
            for (double& m : mean) m /= n;
            for (bsx::index_t i = 0; i < n; ++i)
                for (bsx::index_t j = 0; j < n; ++j) {
                    const double d = p[i * n + j] - mean[j];
                    ss[j] += d * d;
                }
            for (double& s : ss) s = std::sqrt(s / n);
        } else {
            for (bsx::index_t i = 0; i < n; ++i) {
                const double* row = p + i * n;
                double m = 0, s = 0;
#pragma omp simd reduction(+ : m)
                for (bsx::index_t j = 0; j < n; ++j) m += row[j];
                m /= n;
#pragma omp simd reduction(+ : s)
                for (bsx::index_t j = 0; j < n; ++j) s += (row[j] - m) * (row[j] - m);
                ss[i] = std::sqrt(s / n);
            }
        }
        benchmark::DoNotOptimize(ss.data());
        benchmark::ClobberMemory();
    }
    count(state);
}

}  // namespace

BENCHMARK(BM_argmax_bsx<0>)->Apply(thread_args);
BENCHMARK(BM_argmax_hand<0>)->Apply(thread_args);
BENCHMARK(BM_argmax_bsx<1>)->Apply(thread_args);
BENCHMARK(BM_argmax_hand<1>)->Apply(thread_args);
BENCHMARK(BM_std_bsx<0>)->Apply(thread_args);
BENCHMARK(BM_std_hand<0>)->Apply(thread_args);
BENCHMARK(BM_std_bsx<1>)->Apply(thread_args);
BENCHMARK(BM_std_hand<1>)->Apply(thread_args);

BENCHMARK_MAIN();
