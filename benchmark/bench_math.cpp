// Vector math (exp, sin, pow, sqrt, ...) beside hand-written loops, and every math function
// alone for benchmark/vs_numpy.py (MATH_CASES):
//
//   sum_exp       s = bsx::sum(bsx::exp(x))                    x: 10^7 doubles in [-1, 1)
//                 hand: glibc's AVX-512 vector exp (_ZGVeN8v_exp, libmvec), 8 lanes at a time
//   hypot_outer   r = bsx::sqrt(xc * xc + yr * yr)              xc: 4000 x 1, yr: 1 x 4000
//                 hand: the same loop compiled with -fno-math-errno (math_hand_loops.cpp)
//   math_<f>_<type>_<layout>   r = bsx::<f>(x) (x, y for pow, atan2, hypot), 10^5 elements of
//                 float or double, contiguous (c) or every 2nd / 4th element (s2, s4),
//                 or 10^6 contiguous elements (m); for exp, log, sin, cos, sqrt, pow and
//                 atan2 also 10^6 elements read every 2nd / 4th (ms2, ms4) and the
//                 100 x 100 corner of a 1000 x 1000 array (v100, into a 100 x 100 array);
//                 inputs in [0.5, 2) as vs_numpy.py's rand() (asin, acos: halved)
//   rows_<f>_<type>_<len>   r = bsx::<f>(v) for exp, sin, cos, log: v the first rows_total / len
//                 rows of len elements of a wider array (1000 columns, 2000 for rows of 1000),
//                 as NumPy's a[:100, :100] of a 1000 x 1000 a (issue 36: the cost per row)
//                 hand: rows copied into a buffer of 2048 elements, one call of the vector
//                 kernel bsx calls (vmath) per buffer; hand_per_row: one call per row, in place
//
// Names: BM_<workload>_<variant>/threads:<t>/real_time (ratios.py, vs_numpy.py).
#include <bsx/bsx.hpp>

#include <benchmark/benchmark.h>

#include "bench_common.hpp"
#include "math_hand_loops.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace {

constexpr bsx::index_t sum_length = 10'000'000;
constexpr bsx::index_t outer_n = 4000;
constexpr bsx::index_t function_length = 100'000;
constexpr bsx::index_t long_function_length = 1'000'000;

template <class T>
bsx::array<T, 1> uniform(bsx::index_t n, double lo, double hi, unsigned seed) {
    auto v = bsx::zeros<T>(n);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    for (T& x : v) x = static_cast<T>(u(rng));
    return v;
}

/// An n x n matrix of uniform(lo, hi, seed)'s values.
template <class T>
bsx::array<T, 2> uniform_matrix(bsx::index_t n, double lo, double hi, unsigned seed) {
    const auto flat = uniform<T>(n * n, lo, hi, seed);
    return bsx::reshape<2>(flat, {n, n});
}

void BM_sum_exp_bsx(benchmark::State& state) {
    set_threads(state, int(state.range(0)));
    const auto x = uniform<double>(sum_length, -1, 1, 1);
    for (auto _ : state) benchmark::DoNotOptimize(double(bsx::sum(bsx::exp(x))));
    state.SetItemsProcessed(state.iterations() * sum_length);
}
BENCHMARK(BM_sum_exp_bsx)->Apply(thread_args);

void BM_sum_exp_mvec(benchmark::State& state) {
    set_threads(state, int(state.range(0)));
    if (!hand_sum_exp_available()) {
        state.SkipWithError("glibc's AVX-512 vector exp is not available in this build");
        return;
    }
    const auto x = uniform<double>(sum_length, -1, 1, 1);
    for (auto _ : state) benchmark::DoNotOptimize(hand_sum_exp(x.data(), sum_length));
    state.SetItemsProcessed(state.iterations() * sum_length);
}
BENCHMARK(BM_sum_exp_mvec)->ArgName("threads")->Arg(1)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_hypot_outer_bsx(benchmark::State& state) {
    set_threads(state, int(state.range(0)));
    const auto x = uniform<double>(outer_n, -1, 1, 2), y = uniform<double>(outer_n, -1, 1, 3);
    const auto xc = bsx::reshape<2>(x, {outer_n, 1}), yr = bsx::reshape<2>(y, {1, outer_n});
    auto r = bsx::zeros<double>(outer_n, outer_n);
    for (auto _ : state) {
        r = bsx::sqrt(xc * xc + yr * yr);
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * outer_n * outer_n);
}
BENCHMARK(BM_hypot_outer_bsx)->Apply(thread_args);

void BM_hypot_outer_hand(benchmark::State& state) {
    set_threads(state, int(state.range(0)));
    const auto x = uniform<double>(outer_n, -1, 1, 2), y = uniform<double>(outer_n, -1, 1, 3);
    auto r = bsx::zeros<double>(outer_n, outer_n);
    for (auto _ : state) {
        hand_hypot_outer(x.data(), y.data(), r.data(), outer_n);
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * outer_n * outer_n);
}
BENCHMARK(BM_hypot_outer_hand)->Apply(thread_args);

// ---- every function alone ------------------------------------------------------------

template <class T>
constexpr const char* type_name = sizeof(T) == 8 ? "f64" : "f32";

/// Runs r = f(x) or r = f(x, y) for the benchmark's iterations.
template <class F, class X, class R>
void run_function(benchmark::State& state, F f, const X& x, const X& y, R& r) {
    for (auto _ : state) {
        if constexpr (std::is_invocable_v<F, X>)
            r = f(x);
        else
            r = f(x, y);
        benchmark::ClobberMemory();
    }
}

void function_args(benchmark::internal::Benchmark* b) {
    b->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);
}

/// The name BM_math_<name>_<type>_<layout>_bsx.
template <class T>
std::string function_id(const char* name, const char* layout) {
    return std::string("BM_math_") + name + "_" + type_name<T> + "_" + layout + "_bsx";
}

/// BM_math_<name>_<type>_<layout>_bsx: r = f(x...) over function_length elements, read
/// with stride 1, 2 or 4, or over long_function_length contiguous ones, at 1 and 2 threads;
/// with `more_layouts`, also over long_function_length elements read with stride 2 or 4, and
/// over the 100 x 100 corner of a 1000 x 1000 array.
template <class T, class F>
void register_function(const char* name, F f, double scale = 1.0, bool more_layouts = false) {
    struct layout {
        const char* name;
        bsx::index_t stride, length;
    };
    std::vector<layout> layouts{{"c", 1, function_length},
                                {"s2", 2, function_length},
                                {"s4", 4, function_length},
                                {"m", 1, long_function_length}};
    if (more_layouts) {
        layouts.push_back({"ms2", 2, long_function_length});
        layouts.push_back({"ms4", 4, long_function_length});
        benchmark::RegisterBenchmark(function_id<T>(name, "v100").c_str(), [=](benchmark::State& state) {
            set_threads(state, int(state.range(0)));
            constexpr bsx::index_t whole = 1000, corner = 100;
            const auto x0 = uniform_matrix<T>(whole, 0.5 * scale, 2.0 * scale, 4);
            const auto y0 = uniform_matrix<T>(whole, 0.5, 2.0, 5);
            const auto x = bsx::slice(x0, bsx::range(0, corner), bsx::range(0, corner));
            const auto y = bsx::slice(y0, bsx::range(0, corner), bsx::range(0, corner));
            auto r = bsx::zeros<T>(corner, corner);
            run_function(state, f, x, y, r);
            state.SetItemsProcessed(state.iterations() * corner * corner);
        })->Apply(function_args);
    }
    for (const layout lay : layouts) {
        benchmark::RegisterBenchmark(function_id<T>(name, lay.name).c_str(), [=](benchmark::State& state) {
            set_threads(state, int(state.range(0)));
            const bsx::index_t stride = lay.stride, n = lay.length;
            const auto x0 = uniform<T>(n * stride, 0.5 * scale, 2.0 * scale, 4);
            const auto y0 = uniform<T>(n * stride, 0.5, 2.0, 5);
            const auto x = bsx::slice(x0, bsx::range(0, x0.size(), stride));
            const auto y = bsx::slice(y0, bsx::range(0, y0.size(), stride));
            auto r = bsx::zeros<T>(n);
            run_function(state, f, x, y, r);
            state.SetItemsProcessed(state.iterations() * n);
        })->Apply(function_args);
    }
}

template <class T>
void register_functions() {
    register_function<T>("sqrt", bsx::sqrt, 1.0, true);
    register_function<T>("cbrt", bsx::cbrt);
    register_function<T>("exp", bsx::exp, 1.0, true);
    register_function<T>("expm1", bsx::expm1);
    register_function<T>("log", bsx::log, 1.0, true);
    register_function<T>("log2", bsx::log2);
    register_function<T>("log10", bsx::log10);
    register_function<T>("log1p", bsx::log1p);
    register_function<T>("sin", bsx::sin, 1.0, true);
    register_function<T>("cos", bsx::cos, 1.0, true);
    register_function<T>("tan", bsx::tan);
    register_function<T>("asin", bsx::asin, 0.5);
    register_function<T>("acos", bsx::acos, 0.5);
    register_function<T>("atan", bsx::atan);
    register_function<T>("sinh", bsx::sinh);
    register_function<T>("cosh", bsx::cosh);
    register_function<T>("tanh", bsx::tanh);
    register_function<T>("pow", bsx::pow, 1.0, true);
    register_function<T>("atan2", bsx::atan2, 1.0, true);
    register_function<T>("hypot", bsx::hypot);
}

// ---- short rows (issue 36) -------------------------------------------------------------

constexpr bsx::index_t rows_total = 10'000;

/// The first rows_total / len rows of len elements of a wider array, and a destination.
template <class T>
struct short_rows {
    bsx::index_t len, rows, cols;
    bsx::array<T, 2> a;
    bsx::array<T, 2> r;
    explicit short_rows(bsx::index_t len_)
        : len(len_),
          rows(rows_total / len_),
          cols(std::max<bsx::index_t>(1000, 2 * len_)),
          a(bsx::zeros<T>(rows, cols)),
          r(bsx::zeros<T>(rows, len)) {
        const auto values = uniform<T>(rows * cols, 0.5, 2.0, 6);
        std::copy(values.begin(), values.end(), a.begin());
    }
    auto view() const { return bsx::slice(a, bsx::range(0, rows), bsx::range(0, len)); }
};

/// Rows copied into a buffer, one kernel call per buffer (`staged`), or one call per row in
/// place: the kernel bsx calls (K::run).
template <class K, class T>
void hand_rows(const T* a, bsx::index_t rows, bsx::index_t len, bsx::index_t stride, T* r, bool staged_rows) {
    constexpr bsx::index_t buffer = 2048;
    alignas(64) static thread_local T staged[buffer];
    const bsx::index_t per_call = staged_rows ? std::max<bsx::index_t>(1, buffer / len) : 1;
    for (bsx::index_t i = 0; i < rows; i += per_call) {
        const bsx::index_t n = std::min(per_call, rows - i);
        if (n == 1) {
            K::run(r + i * len, len, a + i * stride, a + i * stride);
            continue;
        }
        for (bsx::index_t k = 0; k < n; ++k) std::memcpy(staged + k * len, a + (i + k) * stride, sizeof(T) * len);
        K::run(r + i * len, n * len, staged, staged);
    }
}

template <class T, class K, class F>
void register_rows(const char* name, F f) {
    for (const bsx::index_t len : {bsx::index_t{16}, bsx::index_t{100}, bsx::index_t{1000}}) {
        const std::string id = std::string("BM_rows_") + name + "_" + type_name<T> + "_" + std::to_string(len) + "_";
        const auto add = [&](const char* variant, auto body) {
            benchmark::RegisterBenchmark((id + variant).c_str(),
                                         [=](benchmark::State& state) {
                                             set_threads(state, int(state.range(0)));
                                             short_rows<T> s(len);
                                             for (auto _ : state) {
                                                 body(s);
                                                 benchmark::ClobberMemory();
                                             }
                                             state.SetItemsProcessed(state.iterations() * s.rows * s.len);
                                             state.counters["rows"] = double(s.rows);
                                         })
                ->ArgName("threads")
                ->Arg(1)
                ->UseRealTime()
                ->Unit(benchmark::kMicrosecond);
        };
        add("bsx", [f](short_rows<T>& s) { s.r = f(s.view()); });
        add("hand", [](short_rows<T>& s) { hand_rows<K>(s.a.data(), s.rows, s.len, s.cols, s.r.data(), true); });
        add("hand_per_row",
            [](short_rows<T>& s) { hand_rows<K>(s.a.data(), s.rows, s.len, s.cols, s.r.data(), false); });
    }
}

template <class T>
void register_short_rows() {
    namespace vm = bsx::detail::vmath;
    register_rows<T, vm::exp>("exp", bsx::exp);
    register_rows<T, vm::sin>("sin", bsx::sin);
    register_rows<T, vm::cos>("cos", bsx::cos);
    register_rows<T, vm::log>("log", bsx::log);
}

}  // namespace

int main(int argc, char** argv) {
    register_functions<double>();
    register_functions<float>();
    register_short_rows<double>();
    register_short_rows<float>();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
}
