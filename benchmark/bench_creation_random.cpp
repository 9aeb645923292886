// Generated leaves beside hand-written loops, at 1 and 2 OpenMP threads:
//
//   linspace     r = bsx::linspace<double>(0, 1, n)       vs  r[i] = start + i * step
//   eye_add      r = a + bsx::eye<double>(m)              vs  r[i][j] = a[i][j] + (i == j)
//   normal       r = g.normal<double>(shape)              vs  the same Philox and ziggurat per
//                                                              element in a plain loop (its rare
//                                                              draws through bsx's own slow path)
//   uniform      r = g.uniform<double>(shape)             vs  the same Philox (two values a block),
//                                                              scaled to [0, 1)
//
// with n = 10^7 (linspace, normal, uniform) and m = 3000 (eye). The hand loops share the work with
// `omp parallel for`. It measures what a generated leaf costs beside the loop it stands
// for: its values are computed a chunk at a time into a tile, then read.
//
// And the fixed cost of a small new array, float and double, 100 and 1000 elements:
//
//   zeros_<type>_<k>    bsx::zeros<T>(k)     vs  std::unique_ptr<T[]>(new T[k]())
//   arange_<type>_<k>   bsx::arange<T>(k)    vs  new T[k], then p[i] = i
//
// (the hand versions from the plain operator new: bsx's storage is aligned to a cache
// line besides, which the hand code skips).
//
// Names: BM_<case>_<bsx|hand>/threads:<t>/real_time.

#include <bsx/bsx.hpp>

#include <benchmark/benchmark.h>

#include "bench_common.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <utility>

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

// Philox4x32-10 of counters (first + t, 0, call, 0) for t < len <= 64, word j of block t
// into c[j][t]: the rounds one pass each over the block, so that they vectorize (four lanes
// for GCC, whose wider vectors spend the time repacking the 32-bit products).
void philox_block(bsx::index_t first, bsx::index_t len, std::uint32_t call, std::uint32_t (&c)[4][64]) {
    for (bsx::index_t t = 0; t < len; ++t) c[0][t] = std::uint32_t(first + t), c[1][t] = 0, c[2][t] = call, c[3][t] = 0;
    std::uint32_t k0 = 1, k1 = 0;
    for (int round = 0; round < 10; ++round) {
        if (round > 0) k0 += 0x9E3779B9, k1 += 0xBB67AE85;
        BSX_SIMD_LOOP_4_LANES
        for (bsx::index_t t = 0; t < len; ++t) {
            const std::uint64_t p0 = 0xD2511F53ull * c[0][t], p1 = 0xCD9E8D57ull * c[2][t];
            c[0][t] = std::uint32_t(p1 >> 32) ^ c[1][t] ^ k0, c[1][t] = std::uint32_t(p1);
            c[2][t] = std::uint32_t(p0 >> 32) ^ c[3][t] ^ k1, c[3][t] = std::uint32_t(p0);
        }
    }
}

/// The top 53 bits of `word` in [0, 1), converted as two exact halves (AVX2 has no
/// conversion from 64-bit integers; this one vectorizes).
double unit_double(std::uint64_t word) {
    const std::uint64_t top = word >> 11;
    const double high = std::bit_cast<double>(0x4330000000000000 | top >> 32) - 0x1p52;
    const double low = std::bit_cast<double>(0x4330000000000000 | (top & 0xFFFFFFFF)) - 0x1p52;
    return (high * 0x1p32 + low) * 0x1p-53;
}

// Blocks of 64 elements: Philox, then the ziggurat's rectangle test per element, then the
// rare draws.
void BM_normal_hand(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    bsx::array<double, 1> r(bsx::shape_t<1>{n});
    double* out = r.data();
    namespace rd = bsx::random::detail;
    const rd::ziggurat_layers& z = rd::normal_layers();
    std::uint32_t call = 0;
    for (auto _ : state) {
        ++call;
        const rd::stream s{{1, 0}, call};
        constexpr bsx::index_t block = 64;
#pragma omp parallel for schedule(static)
        for (bsx::index_t b = 0; b < n; b += block) {
            const bsx::index_t len = std::min(block, n - b);
            std::uint32_t c[4][block];
            philox_block(b, len, call, c);
            std::uint64_t words[block];
#pragma omp simd
            for (bsx::index_t t = 0; t < len; ++t) words[t] = std::uint64_t(c[0][t]) << 32 | c[1][t];
            std::uint64_t rare = 0;
#pragma omp simd reduction(| : rare)
            for (bsx::index_t t = 0; t < len; ++t) {
                const std::uint64_t layer = words[t] & 0xFF;
                const double x = unit_double(words[t]) * z.x[layer];
                out[b + t] = words[t] & 0x100 ? -x : x;
                rare |= !(x < z.x[layer + 1]);
            }
            if (rare != 0)
                for (bsx::index_t t = 0; t < len; ++t)
                    if (!(std::abs(out[b + t]) < z.x[(words[t] & 0xFF) + 1]))
                        out[b + t] = rd::standard_normal_slow(s, b + t);
        }
        benchmark::DoNotOptimize(out);
        benchmark::ClobberMemory();
    }
    set_counters(state, n);
}

void BM_uniform_bsx(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    bsx::random::generator g(1);
    bsx::array<double, 1> r(bsx::shape_t<1>{n});
    for (auto _ : state) {
        r = g.uniform<double>(r.shape());
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    set_counters(state, n);
}

void BM_uniform_hand(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    bsx::array<double, 1> r(bsx::shape_t<1>{n});
    double* out = r.data();
    std::uint32_t call = 0;
    for (auto _ : state) {
        ++call;
        constexpr bsx::index_t block = 64;  // Philox blocks, two doubles each
#pragma omp parallel for schedule(static)
        for (bsx::index_t b = 0; b < (n + 1) / 2; b += block) {
            const bsx::index_t len = std::min(block, (n + 1) / 2 - b);
            std::uint32_t c[4][block];
            philox_block(b, len, call, c);
            double* o = out + 2 * b;
            const bsx::index_t values = std::min(2 * len, n - 2 * b);
#pragma omp simd
            for (bsx::index_t t = 0; t < values / 2; ++t) {
                o[2 * t] = unit_double(std::uint64_t(c[0][t]) << 32 | c[1][t]);
                o[2 * t + 1] = unit_double(std::uint64_t(c[2][t]) << 32 | c[3][t]);
            }
            if (values % 2 != 0) o[values - 1] = unit_double(std::uint64_t(c[0][len - 1]) << 32 | c[1][len - 1]);
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
BENCHMARK(BM_uniform_bsx)->Apply(thread_args);
BENCHMARK(BM_uniform_hand)->Apply(thread_args);

namespace {

template <class T>
constexpr const char* type_name = sizeof(T) == 8 ? "f64" : "f32";

/// One new array per iteration, made by make(k): k items each.
template <class Make>
void time_new_arrays(benchmark::State& state, bsx::index_t k, Make make) {
    set_threads(state, static_cast<int>(state.range(0)));
    for (auto _ : state) {
        auto a = make(k);
        benchmark::DoNotOptimize(a);
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * k);
}

/// BM_<zeros|arange>_<type>_<k>_<bsx|hand> for k = 100 and 1000; the hand side allocates
/// with new T[k] (zeroed for zeros) and writes i into element i for arange.
template <class T>
void register_small_arrays() {
    using maker = std::function<void(benchmark::State&, bsx::index_t)>;
    const auto timed = [](auto make) -> maker {
        return [make](benchmark::State& state, bsx::index_t k) { time_new_arrays(state, k, make); };
    };
    const std::pair<const char*, maker> variants[] = {
        {"zeros_bsx", timed([](bsx::index_t k) { return bsx::zeros<T>(k); })},
        {"zeros_hand", timed([](bsx::index_t k) { return std::unique_ptr<T[]>(new T[std::size_t(k)]()); })},
        {"arange_bsx", timed([](bsx::index_t k) { return bsx::arange<T>(k); })},
        {"arange_hand", timed([](bsx::index_t k) {
             std::unique_ptr<T[]> a(new T[std::size_t(k)]);
             for (bsx::index_t i = 0; i < k; ++i) a[std::size_t(i)] = T(i);
             return a;
         })},
    };
    for (const bsx::index_t k : {100, 1000})
        for (const auto& variant : variants) {  // not a structured binding: clang 14 cannot capture one
            const char* name = variant.first;
            const auto run = variant.second;
            const std::string kind(name, std::strchr(name, '_'));
            const std::string id = "BM_" + kind + "_" + type_name<T> + "_" + std::to_string(k) + std::strchr(name, '_');
            benchmark::RegisterBenchmark(id.c_str(), [run, k](benchmark::State& state) { run(state, k); })
                ->Apply(thread_args)
                ->Unit(benchmark::kNanosecond);
        }
}

}  // namespace

int main(int argc, char** argv) {
    register_small_arrays<double>();
    register_small_arrays<float>();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
}
