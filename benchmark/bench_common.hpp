// benchmark/bench_common.hpp: what every bsx benchmark binary shares: the OpenMP
// thread count as a benchmark argument (1 and 2), recorded as a counter.
#pragma once

#include <benchmark/benchmark.h>

#ifdef _OPENMP
#include <omp.h>
#endif

inline void set_threads(benchmark::State& state, int threads) {
#ifdef _OPENMP
    omp_set_num_threads(threads);
#endif
    state.counters["omp_threads"] = threads;  // not "threads": the JSON has that key already
}

/// Benchmarks whose only argument is the thread count.
inline void thread_args(benchmark::internal::Benchmark* b) {
    b->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
}
