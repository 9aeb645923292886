// benchmark/bench_common.hpp: what every bsx benchmark binary shares: the OpenMP
// thread count as a benchmark argument (1 and 2, or the list in BSX_BENCH_THREADS, as
// benchmark/scaling.sh and contention.sh give it), recorded as a counter; random operands
// and the counters of element-wise passes.
#pragma once

#include <bsx/array.hpp>

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

inline void set_threads(benchmark::State& state, int threads) {
#ifdef _OPENMP
    omp_set_num_threads(threads);
#endif
    state.counters["omp_threads"] = threads;  // not "threads": the JSON has that key already
}

/// The numbers in environment variable `name` ("1,2,4,8"), else `otherwise`.
inline std::vector<std::int64_t> env_numbers(const char* name, std::vector<std::int64_t> otherwise) {
    std::vector<std::int64_t> numbers;
    if (const char* list = std::getenv(name)) {
        for (std::string rest = list; !rest.empty();) {
            const auto comma = rest.find(',');
            numbers.push_back(std::stoll(rest.substr(0, comma)));
            rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
        }
    }
    return numbers.empty() ? otherwise : numbers;
}

/// The thread counts every benchmark runs at: BSX_BENCH_THREADS, else 1 and 2.
inline std::vector<std::int64_t> bench_thread_counts() { return env_numbers("BSX_BENCH_THREADS", {1, 2}); }

/// Benchmarks whose only argument is the thread count.
inline void thread_args(benchmark::internal::Benchmark* b) {
    b->ArgName("threads");
    for (const std::int64_t threads : bench_thread_counts()) b->Arg(threads);
    b->UseRealTime()->Unit(benchmark::kMillisecond);
}

/// Benchmarks of code that runs on one thread whatever the OpenMP setting (a peer library
/// that does not thread the operation): the argument threads:1 only.
inline void serial_args(benchmark::internal::Benchmark* b) {
    b->ArgName("threads")->Arg(1);
    b->UseRealTime()->Unit(benchmark::kMillisecond);
}

/// An array of `shape` holding values drawn uniformly from [0.5, 1.5) by a generator
/// seeded with `seed`.
template <std::size_t N>
bsx::array<double, N> random_array(const bsx::shape_t<N>& shape, unsigned seed) {
    bsx::array<double, N> x(shape);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0.5, 1.5);
    for (double& v : x) v = u(rng);
    return x;
}

/// Counters of a pass that reads and writes `elements` doubles per iteration.
inline void count_read_written(benchmark::State& state, std::int64_t elements) {
    state.SetItemsProcessed(state.iterations() * elements);
    state.SetBytesProcessed(state.iterations() * elements * 16);
}
