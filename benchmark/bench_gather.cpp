// Indexing by arrays, at 1 and 2 threads:
//
//   take     r = bsx::take(x, idx)         10^6 random int64 indices into 10^6 doubles,
//                                          into a preallocated r (np.take(x, idx, out=r))
//   masked   x(m) = y + 1.0                4000x4000 doubles, a fair random bool mask
//                                          (np.copyto(x, y + 1.0, where=m))
//
// Variants (all in this binary so that ratios come from one run):
//   bsx      the line above
//   hand     the loop a programmer writes, serial: r[k] = x[idx[k]]; for masked, the
//            branch-free select x[i] = m[i] ? y[i] + 1.0 : x[i] (which vectorizes) and
//            the branching `if (m[i]) x[i] = y[i] + 1.0` (hand_branch).
//
// Threads: 1 and 2, or the list in BSX_BENCH_THREADS. NumPy's side of the same cases:
// benchmark/vs_numpy.py.
// Names: BM_<workload>_<variant>/threads:<t>/real_time (parsed by ratios.py).

#include <bsx/bsx.hpp>

#include <benchmark/benchmark.h>

#include "bench_common.hpp"

#include <cstdint>
#include <random>

namespace {

constexpr bsx::index_t take_length = 1'000'000;
constexpr bsx::index_t side = 4000;

struct take_inputs {
    bsx::array<double, 1> x;
    bsx::array<std::int64_t, 1> idx;
};
const take_inputs& take_input() {
    static const take_inputs in = [] {
        take_inputs t{bsx::zeros<double>(take_length), bsx::zeros<std::int64_t>(take_length)};
        std::mt19937_64 rng(42);
        std::uniform_real_distribution<double> u(-1.0, 1.0);
        std::uniform_int_distribution<std::int64_t> i(0, take_length - 1);
        for (double& v : t.x) v = u(rng);
        for (std::int64_t& v : t.idx) v = i(rng);
        return t;
    }();
    return in;
}

struct mask_inputs {
    bsx::array<double, 2> x, y;
    bsx::array<bool, 2> m;
};
mask_inputs& mask_input() {
    static mask_inputs in = [] {
        mask_inputs t{bsx::zeros<double>(side, side), bsx::zeros<double>(side, side), bsx::zeros<bool>(side, side)};
        std::mt19937_64 rng(43);
        std::uniform_real_distribution<double> u(0.5, 2.0);
        for (double& v : t.x) v = u(rng);
        for (double& v : t.y) v = u(rng);
        for (bool& v : t.m) v = (rng() & 1) != 0;
        return t;
    }();
    return in;
}

void BM_take_bsx(benchmark::State& state) {
    set_threads(state, int(state.range(0)));
    const auto& in = take_input();
    bsx::array<double, 1> r = bsx::zeros<double>(take_length);
    for (auto _ : state) {
        r = bsx::take(in.x, in.idx);
        benchmark::DoNotOptimize(r.data());
    }
    state.SetItemsProcessed(state.iterations() * take_length);
}
BENCHMARK(BM_take_bsx)->Apply(thread_args);

void BM_take_hand(benchmark::State& state) {
    set_threads(state, int(state.range(0)));
    const auto& in = take_input();
    bsx::array<double, 1> r = bsx::zeros<double>(take_length);
    for (auto _ : state) {
        const double* x = in.x.data();
        const std::int64_t* idx = in.idx.data();
        double* out = r.data();
        for (bsx::index_t k = 0; k < take_length; ++k) out[k] = x[idx[k]];
        benchmark::DoNotOptimize(r.data());
    }
    state.SetItemsProcessed(state.iterations() * take_length);
}
BENCHMARK(BM_take_hand)->Apply(thread_args);

void BM_masked_bsx(benchmark::State& state) {
    set_threads(state, int(state.range(0)));
    auto& in = mask_input();
    for (auto _ : state) {
        in.x(in.m) = in.y + 1.0;
        benchmark::DoNotOptimize(in.x.data());
    }
    state.SetItemsProcessed(state.iterations() * side * side);
}
BENCHMARK(BM_masked_bsx)->Apply(thread_args);

void BM_masked_hand(benchmark::State& state) {
    set_threads(state, int(state.range(0)));
    auto& in = mask_input();
    for (auto _ : state) {
        double* x = in.x.data();
        const double* y = in.y.data();
        const auto* m = reinterpret_cast<const unsigned char*>(in.m.data());
        for (bsx::index_t i = 0; i < side * side; ++i) x[i] = m[i] ? y[i] + 1.0 : x[i];
        benchmark::DoNotOptimize(in.x.data());
    }
    state.SetItemsProcessed(state.iterations() * side * side);
}
BENCHMARK(BM_masked_hand)->Apply(thread_args);

void BM_masked_hand_branch(benchmark::State& state) {
    set_threads(state, int(state.range(0)));
    auto& in = mask_input();
    for (auto _ : state) {
        double* x = in.x.data();
        const double* y = in.y.data();
        const bool* m = in.m.data();
        for (bsx::index_t i = 0; i < side * side; ++i)
            if (m[i]) x[i] = y[i] + 1.0;
        benchmark::DoNotOptimize(in.x.data());
    }
    state.SetItemsProcessed(state.iterations() * side * side);
}
BENCHMARK(BM_masked_hand_branch)->Apply(thread_args);

}  // namespace

BENCHMARK_MAIN();
