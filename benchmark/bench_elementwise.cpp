// Element-wise assignments beside hand-written loops, at 1 and 2 OpenMP threads: the
// bsx side of benchmark/vs_numpy.py (ELEMENTWISE_CASES) and the issue 9 targets.
//
//   outer_diff          r = x[:, None] - y, x and y of 4000, into a preallocated 4000x4000 r
//   fill, fill_stream   the write-bandwidth limit for that r: a constant stored with
//                       ordinary stores, and with non-temporal (streaming) stores
//   <op>_<type>_<lay>   r = a <op> b on 10^5 elements; <type> f64 f32 i32 i64;
//                       <lay> c (contiguous), s2 / s4 (inputs read with inner stride 2 / 4),
//                       v2d (a 400x250 window of a 400x252 array: rows do not merge),
//                       so2 (contiguous inputs, destination written with stride 2)
//   not/and/or_bool     ~p, p & q, p | q on bool; less_<type>, a < b giving bool
//   small_fma           r = a * b + c on 1000 doubles; small_add: r = a + b on 100
//
// Variants: bsx, and hand_omp (serial at 1 thread, `omp parallel` split by hand at 2,
// `omp simd` inner loop). Names: BM_ew_<case>_<variant>/threads:<t>/real_time.

#include <bsx/bsx.hpp>

#include <benchmark/benchmark.h>

#include "bench_common.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <type_traits>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace {

constexpr bsx::index_t count = 100000;                  // elements of the 1-D cases
constexpr bsx::index_t v2d_rows = 400, v2d_cols = 250;  // the 2-D window, 10^5 elements
constexpr bsx::index_t outer_n = 4000;

template <class T>
void randomize(T* p, bsx::index_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    if constexpr (std::is_same_v<T, bool>) {
        std::bernoulli_distribution u(0.5);
        for (bsx::index_t i = 0; i < n; ++i) p[i] = u(rng);
    } else if constexpr (std::is_integral_v<T>) {
        std::uniform_int_distribution<int> u(-1000, 1000);
        for (bsx::index_t i = 0; i < n; ++i) p[i] = static_cast<T>(u(rng));
    } else {
        std::uniform_real_distribution<T> u(0.5, 2.0);
        for (bsx::index_t i = 0; i < n; ++i) p[i] = u(rng);
    }
}

/// Runs body(begin, end) over [0, n): directly at 1 thread, split in contiguous halves
/// across the team otherwise (what a hand-written `omp parallel for` does, minus the
/// parallel region when it would be one thread).
template <class Body>
void hand_split(int threads, bsx::index_t n, Body&& body) {
    if (threads == 1) {
        body(bsx::index_t{0}, n);
        return;
    }
#pragma omp parallel num_threads(threads)
    {
#ifdef _OPENMP
        const bsx::index_t t = omp_get_thread_num(), nt = omp_get_num_threads();
#else
        const bsx::index_t t = 0, nt = 1;
#endif
        body(n * t / nt, n * (t + 1) / nt);
    }
}

// ---- the operations, each in its bsx form and its scalar form ----------------------

struct add_op {
    static auto apply(const auto& a, const auto& b) { return a + b; }
};
struct mul_op {
    static auto apply(const auto& a, const auto& b) { return a * b; }
};
struct div_op {
    static auto apply(const auto& a, const auto& b) { return a / b; }
};
struct less_op {
    static auto apply(const auto& a, const auto& b) { return a < b; }
};
struct and_op {
    static auto apply(const auto& a, const auto& b) { return a & b; }
};
struct or_op {
    static auto apply(const auto& a, const auto& b) { return a | b; }
};

enum class layout { c, s2, s4, v2d, so2 };

bsx::index_t stride_of(layout l) { return l == layout::s2 ? 2 : l == layout::s4 ? 4 : 1; }

/// r = op(a, b) with In operands laid out as `lay`, Out results (contiguous).
template <class Op, class In, class Out, bool use_bsx>
void binary_case(benchmark::State& state, layout lay) {
    const int threads = static_cast<int>(state.range(0));
    set_threads(state, threads);
    const bsx::index_t s = stride_of(lay);
    if (lay == layout::v2d) {
        constexpr bsx::index_t width = v2d_cols + 2;
        bsx::array<In, 2> a(bsx::shape_t<2>{v2d_rows, width}), b(bsx::shape_t<2>{v2d_rows, width});
        randomize(a.data(), a.size(), 1);
        randomize(b.data(), b.size(), 2);
        bsx::array<Out, 2> r(bsx::shape_t<2>{v2d_rows, v2d_cols});
        const auto va = bsx::slice(a, bsx::all, bsx::range(1, v2d_cols + 1));
        const auto vb = bsx::slice(b, bsx::all, bsx::range(1, v2d_cols + 1));
        for (auto _ : state) {
            if constexpr (use_bsx) {
                r = Op::apply(va, vb);
            } else {
                const In* pa = a.data() + 1;
                const In* pb = b.data() + 1;
                Out* pr = r.data();
                hand_split(threads, v2d_rows, [&](bsx::index_t i0, bsx::index_t i1) {
                    for (bsx::index_t i = i0; i < i1; ++i) {
#pragma omp simd
                        for (bsx::index_t j = 0; j < v2d_cols; ++j)
                            pr[i * v2d_cols + j] = static_cast<Out>(Op::apply(pa[i * width + j], pb[i * width + j]));
                    }
                });
            }
            benchmark::DoNotOptimize(r.data());
            benchmark::ClobberMemory();
        }
    } else {
        bsx::array<In, 1> a(bsx::shape_t<1>{count * s}), b(bsx::shape_t<1>{count * s});
        randomize(a.data(), a.size(), 1);
        randomize(b.data(), b.size(), 2);
        const bsx::index_t so = lay == layout::so2 ? 2 : 1;  // the destination's stride
        bsx::array<Out, 1> r(bsx::shape_t<1>{count * so});
        const auto va = bsx::slice(a, bsx::range(0, count * s, s));
        const auto vb = bsx::slice(b, bsx::range(0, count * s, s));
        auto vr = bsx::slice(r, bsx::range(0, count * so, so));
        for (auto _ : state) {
            if constexpr (use_bsx) {
                vr = Op::apply(va, vb);
            } else {
                const In* pa = a.data();
                const In* pb = b.data();
                Out* pr = r.data();
                hand_split(threads, count, [&](bsx::index_t i0, bsx::index_t i1) {
                    if (so == 2) {
#pragma omp simd
                        for (bsx::index_t i = i0; i < i1; ++i) pr[2 * i] = static_cast<Out>(Op::apply(pa[i], pb[i]));
                    } else if (s == 1) {
#pragma omp simd
                        for (bsx::index_t i = i0; i < i1; ++i) pr[i] = static_cast<Out>(Op::apply(pa[i], pb[i]));
                    } else {
#pragma omp simd
                        for (bsx::index_t i = i0; i < i1; ++i)
                            pr[i] = static_cast<Out>(Op::apply(pa[i * s], pb[i * s]));
                    }
                });
            }
            benchmark::DoNotOptimize(r.data());
            benchmark::ClobberMemory();
        }
    }
    state.SetItemsProcessed(state.iterations() * count);
}

template <bool use_bsx>
void not_bool(benchmark::State& state) {
    const int threads = static_cast<int>(state.range(0));
    set_threads(state, threads);
    bsx::array<bool, 1> p(bsx::shape_t<1>{count}), r(bsx::shape_t<1>{count});
    randomize(p.data(), count, 3);
    for (auto _ : state) {
        if constexpr (use_bsx) {
            r = ~p;
        } else {
            // Bytes, not bools: GCC vectorizes no loop that loads or stores bool itself.
            const auto* pp = reinterpret_cast<const unsigned char*>(p.data());
            auto* pr = reinterpret_cast<unsigned char*>(r.data());
            hand_split(threads, count, [&](bsx::index_t i0, bsx::index_t i1) {
                const unsigned char* from = pp;  // locals: a char store could change the captured pointers
                unsigned char* to = pr;
#pragma omp simd
                for (bsx::index_t i = i0; i < i1; ++i) to[i] = from[i] ^ 1u;
            });
        }
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * count);
}

// ---- outer difference and the write-bandwidth limit ---------------------------------

void set_outer_counters(benchmark::State& state) {
    state.SetItemsProcessed(state.iterations() * outer_n * outer_n);
    state.SetBytesProcessed(state.iterations() * outer_n * outer_n * std::int64_t{sizeof(double)});  // written
}

template <bool use_bsx>
void outer_diff(benchmark::State& state) {
    const int threads = static_cast<int>(state.range(0));
    set_threads(state, threads);
    bsx::array<double, 1> x(bsx::shape_t<1>{outer_n}), y(bsx::shape_t<1>{outer_n});
    randomize(x.data(), outer_n, 4);
    randomize(y.data(), outer_n, 5);
    bsx::array<double, 2> r = bsx::zeros<double>(outer_n, outer_n);
    for (auto _ : state) {
        if constexpr (use_bsx) {
            r = bsx::slice(x, bsx::all, bsx::newaxis) - y;
        } else {
            const double* px = x.data();
            const double* py = y.data();
            double* pr = r.data();
            hand_split(threads, outer_n, [&](bsx::index_t i0, bsx::index_t i1) {
                for (bsx::index_t i = i0; i < i1; ++i) {
                    const double xi = px[i];
                    double* ri = pr + i * outer_n;
#pragma omp simd
                    for (bsx::index_t j = 0; j < outer_n; ++j) ri[j] = xi - py[j];
                }
            });
        }
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    set_outer_counters(state);
}

/// STREAM-like fill of the outer difference's destination: ordinary stores, or
/// non-temporal ones (no read for ownership). The faster one is the write limit.
template <bool streaming>
void fill(benchmark::State& state) {
    const int threads = static_cast<int>(state.range(0));
    set_threads(state, threads);
    bsx::array<double, 2> r = bsx::zeros<double>(outer_n, outer_n);
    const bsx::index_t total = outer_n * outer_n;
    for (auto _ : state) {
        double* pr = r.data();
        hand_split(threads, total, [&](bsx::index_t i0, bsx::index_t i1) {
            if constexpr (streaming) {
#if defined(__AVX__)
                bsx::index_t i = i0;
                for (; i < i1 && reinterpret_cast<std::uintptr_t>(pr + i) % 32 != 0; ++i) pr[i] = 1.5;
                const __m256d v = _mm256_set1_pd(1.5);
                for (; i + 4 <= i1; i += 4) _mm256_stream_pd(pr + i, v);
                for (; i < i1; ++i) pr[i] = 1.5;
                _mm_sfence();
#else
                for (bsx::index_t i = i0; i < i1; ++i) pr[i] = 1.5;
#endif
            } else {
#pragma omp simd
                for (bsx::index_t i = i0; i < i1; ++i) pr[i] = 1.5;
            }
        });
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    set_outer_counters(state);
}

// ---- small arrays: the fixed cost of one assignment ---------------------------------

template <bool use_bsx>
void small_fma(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    constexpr bsx::index_t n = 1000;
    bsx::array<double, 1> a(bsx::shape_t<1>{n}), b(bsx::shape_t<1>{n}), c(bsx::shape_t<1>{n}), r(bsx::shape_t<1>{n});
    randomize(a.data(), n, 6);
    randomize(b.data(), n, 7);
    randomize(c.data(), n, 8);
    for (auto _ : state) {
        if constexpr (use_bsx) {
            r = a * b + c;
        } else {
            const double *pa = a.data(), *pb = b.data(), *pc = c.data();
            double* pr = r.data();
#pragma omp simd
            for (bsx::index_t i = 0; i < n; ++i) pr[i] = pa[i] * pb[i] + pc[i];
        }
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * n);
}

template <bool use_bsx>
void small_add(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    constexpr bsx::index_t n = 100;
    bsx::array<double, 1> a(bsx::shape_t<1>{n}), b(bsx::shape_t<1>{n}), r(bsx::shape_t<1>{n});
    randomize(a.data(), n, 9);
    randomize(b.data(), n, 10);
    for (auto _ : state) {
        if constexpr (use_bsx) {
            r = a + b;
        } else {
            const double *pa = a.data(), *pb = b.data();
            double* pr = r.data();
#pragma omp simd
            for (bsx::index_t i = 0; i < n; ++i) pr[i] = pa[i] + pb[i];
        }
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * n);
}

// ---- registration -------------------------------------------------------------------

/// 1 and 2 threads, in microseconds (the small cases take well under one).
void ew_args(benchmark::internal::Benchmark* b) {
    thread_args(b);
    b->Unit(benchmark::kMicrosecond);
}

template <class F>
void register_both(const std::string& name, F bsx_case, F hand_case) {
    ew_args(benchmark::RegisterBenchmark(("BM_ew_" + name + "_bsx").c_str(), bsx_case));
    ew_args(benchmark::RegisterBenchmark(("BM_ew_" + name + "_hand_omp").c_str(), hand_case));
}

template <class Op, class In, class Out>
void register_binary(const std::string& op, const std::string& type, layout lay) {
    static const char* const layout_names[] = {"c", "s2", "s4", "v2d", "so2"};
    const std::string name = op + "_" + type + "_" + layout_names[static_cast<int>(lay)];
    ew_args(benchmark::RegisterBenchmark(("BM_ew_" + name + "_bsx").c_str(),
                                         [lay](benchmark::State& s) { binary_case<Op, In, Out, true>(s, lay); }));
    ew_args(benchmark::RegisterBenchmark(("BM_ew_" + name + "_hand_omp").c_str(),
                                         [lay](benchmark::State& s) { binary_case<Op, In, Out, false>(s, lay); }));
}

template <class T>
void register_arithmetic(const std::string& type) {
    for (layout lay : {layout::c, layout::s2, layout::s4, layout::v2d, layout::so2})
        register_binary<add_op, T, T>("add", type, lay);
    register_binary<mul_op, T, T>("mul", type, layout::c);
    if constexpr (std::is_floating_point_v<T>) register_binary<div_op, T, T>("div", type, layout::c);
}

void register_all() {
    register_both("outer_diff", outer_diff<true>, outer_diff<false>);
    ew_args(benchmark::RegisterBenchmark("BM_ew_fill_hand_omp", fill<false>));
    ew_args(benchmark::RegisterBenchmark("BM_ew_fill_stream_hand_omp", fill<true>));
    register_arithmetic<double>("f64");
    register_arithmetic<float>("f32");
    register_arithmetic<std::int32_t>("i32");
    register_arithmetic<std::int64_t>("i64");
    register_both("not_bool_c", not_bool<true>, not_bool<false>);
    register_binary<and_op, bool, bool>("and", "bool", layout::c);
    register_binary<or_op, bool, bool>("or", "bool", layout::c);
    register_binary<less_op, double, bool>("less", "f64", layout::c);
    register_binary<less_op, float, bool>("less", "f32", layout::c);
    register_binary<less_op, std::int32_t, bool>("less", "i32", layout::c);
    register_binary<less_op, std::int64_t, bool>("less", "i64", layout::c);
    register_both("small_fma", small_fma<true>, small_fma<false>);
    register_both("small_add", small_add<true>, small_add<false>);
}

}  // namespace

int main(int argc, char** argv) {
    register_all();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
