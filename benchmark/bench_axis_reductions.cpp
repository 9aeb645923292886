// Reductions along every axis against hand-written loops, at 1 and 2 OpenMP threads:
//
//   colsum     r = bsx::sum(x, bsx::axis(0))      x: 4000 x 4000 doubles
//   rowsum     r = bsx::sum(x, bsx::axis(1))
//   colmin/rowmin/min, colmax/rowmax/max          the same x
//   colall/rowall/all, colany/rowany/any          b: 4000 x 4000 bools (all true for all,
//                                                 all false for any: both read everything)
//
// Variants: bsx (the line above) and hand_omp, the fastest plain loop: `omp simd
// reduction` along rows; for columns a row-accumulating loop (out[j] op= x[i][j], the
// columns split among the threads), which reads x once in memory order, four rows per
// pass over out.
//
// Then, for benchmark/vs_numpy.py (REDUCTION_CASES), every reduction at 1 thread on the
// element types NumPy's own benchmarks use: BM_np_<reduction>_<dtype>_<axis>_<shape>_bsx,
// axis one of whole, axis0, axis1, shape 100x100 (NumPy's suite) or 2000x2000; and along
// axis 1 (row sums, all, any) of views: BM_np_<reduction>_<dtype>_axis1_<view>_bsx, view
// stride2 (2000 x 2000, every 2nd column of 2000 x 4000) or view100 (the 100 x 100 corner
// of 1000 x 1000).

#include <bsx/bsx.hpp>

#include <benchmark/benchmark.h>

#include "bench_common.hpp"

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr bsx::index_t rows = 4000, cols = 4000;

template <class T>
bsx::array<T, 2> random_matrix(bsx::index_t m, bsx::index_t n, unsigned seed) {
    bsx::array<T, 2> x(bsx::shape_t<2>{m, n});
    std::mt19937_64 rng(seed);
    if constexpr (std::is_floating_point_v<T>) {
        std::uniform_real_distribution<T> u(T(0.5), T(1.5));  // products stay finite-ish
        for (T& v : x) v = u(rng);
    } else {
        std::uniform_int_distribution<int> u(1, 3);
        for (T& v : x) v = static_cast<T>(u(rng));
    }
    return x;
}

void count(benchmark::State& state, std::int64_t elements) {
    state.SetItemsProcessed(state.iterations() * elements);
    state.SetBytesProcessed(state.iterations() * elements * 8);
}

// The hand loops' element operations (NaN-propagating like bsx::min / bsx::max).
struct hand_sum {
    static double op(double a, double b) { return a + b; }
};
struct hand_min {
    static double op(double a, double b) { return a != a ? a : (a < b ? a : b); }
};
struct hand_max {
    static double op(double a, double b) { return a != a ? a : (a > b ? a : b); }
};

// ---- doubles -------------------------------------------------------------------------

template <int Axis, class Red>
void bsx_axis(benchmark::State& state, Red red) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto x = random_matrix<double>(rows, cols, 1);
    bsx::array<double, 1> r(bsx::shape_t<1>{Axis == 0 ? cols : rows});
    for (auto _ : state) {
        r = red(x, bsx::axis(Axis));
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    count(state, rows * cols);
}

template <class Red>
void bsx_whole(benchmark::State& state, Red red) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto x = random_matrix<double>(rows, cols, 1);
    for (auto _ : state) benchmark::DoNotOptimize(red(x));
    count(state, rows * cols);
}

// The contiguous range of columns this thread of a parallel region owns.
std::pair<bsx::index_t, bsx::index_t> own_columns() {
#ifdef _OPENMP
    const bsx::index_t n = omp_get_num_threads(), t = omp_get_thread_num();
    return {cols * t / n, cols * (t + 1) / n};
#else
    return {0, cols};
#endif
}

// Columns: out[j] = x[0][j], then out[j] op= x[i][j] row by row, four rows per pass (each
// pass reads and writes out once); each thread owns a contiguous range of columns, so its
// part of out stays in cache.
template <class H>
void hand_columns(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto x = random_matrix<double>(rows, cols, 1);
    bsx::array<double, 1> r(bsx::shape_t<1>{cols});
    for (auto _ : state) {
        const double* xp = x.data();
        double* out = r.data();
#pragma omp parallel
        {
            // Named locals, not a structured binding: clang 14 cannot refer to one inside an
            // OpenMP construct.
            const auto columns = own_columns();
            const bsx::index_t first = columns.first, last = columns.second;
#pragma omp simd
            for (bsx::index_t j = first; j < last; ++j) out[j] = xp[j];
            bsx::index_t i = 1;
            for (; i + 4 <= rows; i += 4) {  // four rows per pass over out: a quarter of its traffic
                const double *r0 = xp + i * cols, *r1 = r0 + cols, *r2 = r1 + cols, *r3 = r2 + cols;
#pragma omp simd
                for (bsx::index_t j = first; j < last; ++j)
                    out[j] = H::op(H::op(H::op(H::op(out[j], r0[j]), r1[j]), r2[j]), r3[j]);
            }
            for (; i < rows; ++i) {
                const double* row = xp + i * cols;
#pragma omp simd
                for (bsx::index_t j = first; j < last; ++j) out[j] = H::op(out[j], row[j]);
            }
        }
        benchmark::DoNotOptimize(out);
        benchmark::ClobberMemory();
    }
    count(state, rows * cols);
}

// Rows: one `omp simd reduction` per row, rows split among the threads. min and max use
// OpenMP's min/max reductions (they ignore NaN ordering, which only makes them faster).
enum class hand_op { sum, min, max };

template <hand_op Op>
void hand_rows(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto x = random_matrix<double>(rows, cols, 1);
    bsx::array<double, 1> r(bsx::shape_t<1>{rows});
    for (auto _ : state) {
        const double* xp = x.data();
        double* out = r.data();
#pragma omp parallel for schedule(static)
        for (bsx::index_t i = 0; i < rows; ++i) {
            const double* row = xp + i * cols;
            double s = Op == hand_op::sum ? 0.0 : row[0];
            if constexpr (Op == hand_op::sum) {
#pragma omp simd reduction(+ : s)
                for (bsx::index_t j = 0; j < cols; ++j) s += row[j];
            } else if constexpr (Op == hand_op::min) {
#pragma omp simd reduction(min : s)
                for (bsx::index_t j = 0; j < cols; ++j) s = std::min(s, row[j]);
            } else {
#pragma omp simd reduction(max : s)
                for (bsx::index_t j = 0; j < cols; ++j) s = std::max(s, row[j]);
            }
            out[i] = s;
        }
        benchmark::DoNotOptimize(out);
        benchmark::ClobberMemory();
    }
    count(state, rows * cols);
}

void hand_whole_minmax(benchmark::State& state, bool is_min) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto x = random_matrix<double>(rows, cols, 1);
    for (auto _ : state) {
        const double* xp = x.data();
        double s = xp[0];
        if (is_min) {
#pragma omp parallel for simd reduction(min : s) schedule(static)
            for (bsx::index_t i = 0; i < rows * cols; ++i) s = std::min(s, xp[i]);
        } else {
#pragma omp parallel for simd reduction(max : s) schedule(static)
            for (bsx::index_t i = 0; i < rows * cols; ++i) s = std::max(s, xp[i]);
        }
        benchmark::DoNotOptimize(s);
    }
    count(state, rows * cols);
}

void BM_colsum_bsx(benchmark::State& s) { bsx_axis<0>(s, bsx::sum); }
void BM_colsum_hand_omp(benchmark::State& s) { hand_columns<hand_sum>(s); }
void BM_rowsum_bsx(benchmark::State& s) { bsx_axis<1>(s, bsx::sum); }
void BM_rowsum_hand_omp(benchmark::State& s) { hand_rows<hand_op::sum>(s); }
void BM_colmin_bsx(benchmark::State& s) { bsx_axis<0>(s, bsx::min); }
void BM_colmin_hand_omp(benchmark::State& s) { hand_columns<hand_min>(s); }
void BM_rowmin_bsx(benchmark::State& s) { bsx_axis<1>(s, bsx::min); }
void BM_rowmin_hand_omp(benchmark::State& s) { hand_rows<hand_op::min>(s); }
void BM_colmax_bsx(benchmark::State& s) { bsx_axis<0>(s, bsx::max); }
void BM_colmax_hand_omp(benchmark::State& s) { hand_columns<hand_max>(s); }
void BM_rowmax_bsx(benchmark::State& s) { bsx_axis<1>(s, bsx::max); }
void BM_rowmax_hand_omp(benchmark::State& s) { hand_rows<hand_op::max>(s); }
void BM_min_bsx(benchmark::State& s) { bsx_whole(s, bsx::min); }
void BM_min_hand_omp(benchmark::State& s) { hand_whole_minmax(s, true); }
void BM_max_bsx(benchmark::State& s) { bsx_whole(s, bsx::max); }
void BM_max_hand_omp(benchmark::State& s) { hand_whole_minmax(s, false); }

// ---- bools ---------------------------------------------------------------------------

// all reads an all-true matrix, any an all-false one: neither can stop early.
template <bool All>
bsx::array<bool, 2> full_scan_bools() {
    return bsx::array<bool, 2>(bsx::shape_t<2>{rows, cols}, All);
}

void count_bytes(benchmark::State& state) {
    state.SetItemsProcessed(state.iterations() * rows * cols);
    state.SetBytesProcessed(state.iterations() * rows * cols);
}

template <bool All, int Axis>
void bsx_bools(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto b = full_scan_bools<All>();
    bsx::array<bool, 1> r(bsx::shape_t<1>{Axis == 0 ? cols : rows});
    for (auto _ : state) {
        if constexpr (Axis < 0) {
            benchmark::DoNotOptimize(All ? bsx::all(b) : bsx::any(b));
        } else {
            if constexpr (All)
                r = bsx::all(b, bsx::axis(Axis));
            else
                r = bsx::any(b, bsx::axis(Axis));
            benchmark::DoNotOptimize(r.data());
            benchmark::ClobberMemory();
        }
    }
    count_bytes(state);
}

// The bools as bytes: and/or over unsigned char vectorize as byte operations.
template <bool All, int Axis>
void hand_bools(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const auto b = full_scan_bools<All>();
    std::vector<unsigned char> r(std::size_t(Axis == 0 ? cols : rows));
    for (auto _ : state) {
        const auto* bp = reinterpret_cast<const unsigned char*>(b.data());
        unsigned char* out = r.data();
        if constexpr (Axis < 0) {
            unsigned char s = All ? 1 : 0;
            if constexpr (All) {
#pragma omp parallel for simd reduction(& : s) schedule(static)
                for (bsx::index_t i = 0; i < rows * cols; ++i) s &= bp[i];
            } else {
#pragma omp parallel for simd reduction(| : s) schedule(static)
                for (bsx::index_t i = 0; i < rows * cols; ++i) s |= bp[i];
            }
            benchmark::DoNotOptimize(s);
        } else if constexpr (Axis == 1) {
#pragma omp parallel for schedule(static)
            for (bsx::index_t i = 0; i < rows; ++i) {
                const unsigned char* row = bp + i * cols;
                unsigned char s = All ? 1 : 0;
                if constexpr (All) {
#pragma omp simd reduction(& : s)
                    for (bsx::index_t j = 0; j < cols; ++j) s &= row[j];
                } else {
#pragma omp simd reduction(| : s)
                    for (bsx::index_t j = 0; j < cols; ++j) s |= row[j];
                }
                out[i] = s;
            }
        } else {
#pragma omp parallel
            {
                const auto columns = own_columns();  // named locals, as in hand_columns
                const bsx::index_t first = columns.first, last = columns.second;
                const auto op = [](unsigned char a, unsigned char b) { return All ? a & b : a | b; };
                for (bsx::index_t j = first; j < last; ++j) out[j] = bp[j];
                bsx::index_t i = 1;
                for (; i + 4 <= rows; i += 4) {  // four rows per pass, as for the other columns
                    const unsigned char *r0 = bp + i * cols, *r1 = r0 + cols, *r2 = r1 + cols, *r3 = r2 + cols;
#pragma omp simd
                    for (bsx::index_t j = first; j < last; ++j)
                        out[j] = op(op(op(op(out[j], r0[j]), r1[j]), r2[j]), r3[j]);
                }
                for (; i < rows; ++i) {
                    const unsigned char* row = bp + i * cols;
#pragma omp simd
                    for (bsx::index_t j = first; j < last; ++j) out[j] = op(out[j], row[j]);
                }
            }
        }
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    count_bytes(state);
}

void BM_all_bsx(benchmark::State& s) { bsx_bools<true, -1>(s); }
void BM_all_hand_omp(benchmark::State& s) { hand_bools<true, -1>(s); }
void BM_colall_bsx(benchmark::State& s) { bsx_bools<true, 0>(s); }
void BM_colall_hand_omp(benchmark::State& s) { hand_bools<true, 0>(s); }
void BM_rowall_bsx(benchmark::State& s) { bsx_bools<true, 1>(s); }
void BM_rowall_hand_omp(benchmark::State& s) { hand_bools<true, 1>(s); }
void BM_any_bsx(benchmark::State& s) { bsx_bools<false, -1>(s); }
void BM_any_hand_omp(benchmark::State& s) { hand_bools<false, -1>(s); }
void BM_colany_bsx(benchmark::State& s) { bsx_bools<false, 0>(s); }
void BM_colany_hand_omp(benchmark::State& s) { hand_bools<false, 0>(s); }
void BM_rowany_bsx(benchmark::State& s) { bsx_bools<false, 1>(s); }
void BM_rowany_hand_omp(benchmark::State& s) { hand_bools<false, 1>(s); }

// ---- against NumPy (benchmark/vs_numpy.py) ----------------------------------------------------

// The data NumPy gets for the same case (vs_numpy.py makes it the same way): all ones for
// `all` and zeros for `any` (full scans), else small positive values.
template <class T>
bsx::array<T, 2> numpy_case_data(const std::string& reduction, bsx::index_t m, bsx::index_t n) {
    if (reduction == "all") return bsx::array<T, 2>(bsx::shape_t<2>{m, n}, T(1));
    if (reduction == "any") return bsx::array<T, 2>(bsx::shape_t<2>{m, n}, T(0));
    if constexpr (std::is_same_v<T, bool>)
        return bsx::array<T, 2>(bsx::shape_t<2>{m, n}, true);
    else
        return random_matrix<T>(m, n, 7);
}

template <class T, class Red>
void numpy_case(benchmark::State& state, Red red, const std::string& reduction, int axis, bsx::index_t size) {
    set_threads(state, 1);
    const auto x = numpy_case_data<T>(reduction, size, size);
    using R = bsx::value_type_t<decltype(red(x, bsx::axis(0)))>;
    bsx::array<R, 1> r(bsx::shape_t<1>{size});
    for (auto _ : state) {
        if (axis < 0) {
            benchmark::DoNotOptimize(red(x));
        } else {
            r = red(x, bsx::axis(axis));
            benchmark::DoNotOptimize(r.data());
            benchmark::ClobberMemory();
        }
    }
    state.SetItemsProcessed(state.iterations() * size * size);
}

template <class T>
void register_numpy_cases(const std::string& dtype) {
    const auto add = [&](const std::string& reduction, auto red) {
        for (int axis : {-1, 0, 1})
            for (bsx::index_t size : {100, 2000}) {
                const std::string name = "BM_np_" + reduction + "_" + dtype + "_" +
                                         (axis < 0 ? std::string("whole") : "axis" + std::to_string(axis)) + "_" +
                                         std::to_string(size) + "x" + std::to_string(size) + "_bsx";
                benchmark::RegisterBenchmark(name.c_str(),
                                             [=](benchmark::State& s) { numpy_case<T>(s, red, reduction, axis, size); })
                    ->ArgName("threads")
                    ->Arg(1)
                    ->UseRealTime()
                    ->Unit(benchmark::kMicrosecond);
            }
    };
    if constexpr (!std::is_same_v<T, bool>) {
        add("sum", bsx::sum);
        add("prod", bsx::prod);
        add("min", bsx::min);
        add("max", bsx::max);
    }
    add("all", bsx::all);
    add("any", bsx::any);
}

/// `reduction` along axis 1 of a view: every 2nd column of (rows, 2 * cols), or the
/// (rows, cols) corner of (10 * rows, 10 * cols).
template <class T, class Red>
void numpy_view_case(benchmark::State& state, Red red, const std::string& reduction, bool strided, bsx::index_t rows,
                     bsx::index_t cols) {
    set_threads(state, 1);
    const auto x0 =
        strided ? numpy_case_data<T>(reduction, rows, 2 * cols) : numpy_case_data<T>(reduction, 10 * rows, 10 * cols);
    const auto x = strided ? bsx::slice(x0, bsx::range(0, rows), bsx::range(0, 2 * cols, 2))
                           : bsx::slice(x0, bsx::range(0, rows), bsx::range(0, cols));
    using R = bsx::value_type_t<decltype(red(x, bsx::axis(1)))>;
    bsx::array<R, 1> r(bsx::shape_t<1>{rows});
    for (auto _ : state) {
        r = red(x, bsx::axis(1));
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * rows * cols);
}

template <class T, class Red>
void register_numpy_view_cases(const std::string& dtype, const std::string& reduction, Red red) {
    for (const bool strided : {true, false}) {
        const bsx::index_t n = strided ? 2000 : 100;
        const std::string name =
            "BM_np_" + reduction + "_" + dtype + "_axis1_" + (strided ? "stride2" : "view100") + "_bsx";
        benchmark::RegisterBenchmark(name.c_str(),
                                     [=](benchmark::State& s) { numpy_view_case<T>(s, red, reduction, strided, n, n); })
            ->ArgName("threads")
            ->Arg(1)
            ->UseRealTime()
            ->Unit(benchmark::kMicrosecond);
    }
}

const int numpy_cases_registered = [] {
    register_numpy_cases<float>("float32");
    register_numpy_cases<double>("float64");
    register_numpy_cases<std::int32_t>("int32");
    register_numpy_cases<std::int64_t>("int64");
    register_numpy_cases<bool>("bool");
    register_numpy_view_cases<float>("float32", "sum", bsx::sum);
    register_numpy_view_cases<double>("float64", "sum", bsx::sum);
    register_numpy_view_cases<bool>("bool", "all", bsx::all);
    register_numpy_view_cases<bool>("bool", "any", bsx::any);
    return 0;
}();

}  // namespace

BENCHMARK(BM_colsum_bsx)->Apply(thread_args);
BENCHMARK(BM_colsum_hand_omp)->Apply(thread_args);
BENCHMARK(BM_rowsum_bsx)->Apply(thread_args);
BENCHMARK(BM_rowsum_hand_omp)->Apply(thread_args);
BENCHMARK(BM_colmin_bsx)->Apply(thread_args);
BENCHMARK(BM_colmin_hand_omp)->Apply(thread_args);
BENCHMARK(BM_rowmin_bsx)->Apply(thread_args);
BENCHMARK(BM_rowmin_hand_omp)->Apply(thread_args);
BENCHMARK(BM_min_bsx)->Apply(thread_args);
BENCHMARK(BM_min_hand_omp)->Apply(thread_args);
BENCHMARK(BM_colmax_bsx)->Apply(thread_args);
BENCHMARK(BM_colmax_hand_omp)->Apply(thread_args);
BENCHMARK(BM_rowmax_bsx)->Apply(thread_args);
BENCHMARK(BM_rowmax_hand_omp)->Apply(thread_args);
BENCHMARK(BM_max_bsx)->Apply(thread_args);
BENCHMARK(BM_max_hand_omp)->Apply(thread_args);
BENCHMARK(BM_all_bsx)->Apply(thread_args);
BENCHMARK(BM_all_hand_omp)->Apply(thread_args);
BENCHMARK(BM_colall_bsx)->Apply(thread_args);
BENCHMARK(BM_colall_hand_omp)->Apply(thread_args);
BENCHMARK(BM_rowall_bsx)->Apply(thread_args);
BENCHMARK(BM_rowall_hand_omp)->Apply(thread_args);
BENCHMARK(BM_any_bsx)->Apply(thread_args);
BENCHMARK(BM_any_hand_omp)->Apply(thread_args);
BENCHMARK(BM_colany_bsx)->Apply(thread_args);
BENCHMARK(BM_colany_hand_omp)->Apply(thread_args);
BENCHMARK(BM_rowany_bsx)->Apply(thread_args);
BENCHMARK(BM_rowany_hand_omp)->Apply(thread_args);

BENCHMARK_MAIN();
