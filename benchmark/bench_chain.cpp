// Same-shape 6-operand chain over 10^7 elements (2000 x 5000), at 1 and 2 OpenMP threads:
//
//   r = a*b + c*d - e/(f + 1.0)
//
// into a preallocated r of the right shape (so bsx allocates nothing).
//
// Variants (all in this binary so that ratios come from one run):
//   bsx          the line above
//   hand_serial  one flat loop
//   hand_omp     the same with `omp parallel for simd`
//   eager        one fresh buffer per operation, as NumPy / Octave:
//                a*b, c*d, (a*b)+(c*d), f+1, e/(f+1), the difference, then r = that
//                (6 temporaries of 10^7); tight loops, parallel at the same thread count
//   eigen        the line on Eigen arrays, where Eigen is installed (BSX_BENCH_WITH_EIGEN); one
//                thread only: Eigen threads matrix products, not coefficient-wise expressions
//   xtensor      the line on xtensor arrays with xt::noalias, where xtensor is installed
//                (BSX_BENCH_WITH_XTENSOR), built with xsimd and its OpenMP assignment loop
//
// The same shape of chain on int32 (issue 10: integer + - * wrap instead of being
// undefined on overflow; this shows the wrapping forms still vectorize):
//
//   ri = -(ia*ib) + ic*id - (ie + if)
//
//   int_bsx          that line
//   int_hand_serial  one flat loop in plain int arithmetic (inputs small enough not to
//                    overflow, so the hand loop is defined too)
//
// Names: BM_chain_<variant>/threads:<t>/real_time (parsed by ratios.py).

#include <bsx/bsx.hpp>

#include <benchmark/benchmark.h>

#include "bench_common.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <utility>

#ifdef BSX_BENCH_WITH_EIGEN
#include <Eigen/Core>
#endif
#ifdef BSX_BENCH_WITH_XTENSOR
#include <xtensor/xnoalias.hpp>
#include <xtensor/xtensor.hpp>
#endif

namespace {

constexpr bsx::index_t rows = 2000, cols = 5000;
constexpr bsx::index_t count = rows * cols;  // 10^7

void set_counters(benchmark::State& state) {
    state.SetItemsProcessed(state.iterations() * count);
    // 6 operands read + 1 result written
    state.SetBytesProcessed(state.iterations() * count * 7 * std::int64_t{sizeof(double)});
}

struct inputs {
    bsx::array<double, 2> a, b, c, d, e, f;
    inputs() {
        std::mt19937_64 rng(11);
        std::uniform_real_distribution<double> u(0.5, 2.0);  // f + 1 is never 0
        for (auto* x : {&a, &b, &c, &d, &e, &f}) {
            *x = bsx::zeros<double>(rows, cols);
            for (double& v : *x) v = u(rng);
        }
    }
};

void BM_chain_bsx(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const inputs in;
    const auto& [a, b, c, d, e, f] = in;
    bsx::array<double, 2> r = bsx::zeros<double>(rows, cols);
    for (auto _ : state) {
        r = a * b + c * d - e / (f + 1.0);
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    set_counters(state);
}

void BM_chain_hand_serial(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const inputs in;
    bsx::array<double, 2> r = bsx::zeros<double>(rows, cols);
    for (auto _ : state) {
        const double *a = in.a.data(), *b = in.b.data(), *c = in.c.data(), *d = in.d.data(), *e = in.e.data(),
                     *f = in.f.data();
        double* rp = r.data();
        for (bsx::index_t i = 0; i < count; ++i) rp[i] = a[i] * b[i] + c[i] * d[i] - e[i] / (f[i] + 1.0);
        benchmark::DoNotOptimize(rp);
        benchmark::ClobberMemory();
    }
    set_counters(state);
}

void BM_chain_hand_omp(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const inputs in;
    bsx::array<double, 2> r = bsx::zeros<double>(rows, cols);
    for (auto _ : state) {
        const double *a = in.a.data(), *b = in.b.data(), *c = in.c.data(), *d = in.d.data(), *e = in.e.data(),
                     *f = in.f.data();
        double* rp = r.data();
#pragma omp parallel for simd schedule(static)
        for (bsx::index_t i = 0; i < count; ++i) rp[i] = a[i] * b[i] + c[i] * d[i] - e[i] / (f[i] + 1.0);
        benchmark::DoNotOptimize(rp);
        benchmark::ClobberMemory();
    }
    set_counters(state);
}

// One element-wise operation, eager: a fresh result buffer (uninitialized, like
// malloc in NumPy), one tight parallel loop.
template <class Op>
std::unique_ptr<double[]> eager(const double* x, const double* y, Op op) {
    std::unique_ptr<double[]> out(new double[count]);
    double* o = out.get();
#pragma omp parallel for simd schedule(static)
    for (bsx::index_t i = 0; i < count; ++i) o[i] = op(x[i], y[i]);
    return out;
}

template <class Op>
std::unique_ptr<double[]> eager(const double* x, double s, Op op) {
    std::unique_ptr<double[]> out(new double[count]);
    double* o = out.get();
#pragma omp parallel for simd schedule(static)
    for (bsx::index_t i = 0; i < count; ++i) o[i] = op(x[i], s);
    return out;
}

// NumPy:  r = a*b + c*d - e/(f + 1.0)   evaluates one operation at a time,
// each into a new array, and rebinds r to the last one.
void BM_chain_eager(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const inputs in;
    std::unique_ptr<double[]> r(new double[count]);
    const auto add = [](double x, double y) { return x + y; };
    const auto sub = [](double x, double y) { return x - y; };
    const auto mul = [](double x, double y) { return x * y; };
    const auto div = [](double x, double y) { return x / y; };
    for (auto _ : state) {
        auto t1 = eager(in.a.data(), in.b.data(), mul);  // a*b
        auto t2 = eager(in.c.data(), in.d.data(), mul);  // c*d
        auto t3 = eager(t1.get(), t2.get(), add);        // a*b + c*d
        t1.reset();                                      // freed as soon as unused,
        t2.reset();                                      // as reference counting does
        auto t4 = eager(in.f.data(), 1.0, add);          // f + 1
        auto t5 = eager(in.e.data(), t4.get(), div);     // e / (f + 1)
        t4.reset();
        auto t6 = eager(t3.get(), t5.get(), sub);  // (...) - (...)
        r = std::move(t6);                         // r = ...: rebinding, no copy
        benchmark::DoNotOptimize(r.get());
        benchmark::ClobberMemory();
    }
    set_counters(state);
}

#ifdef BSX_BENCH_WITH_EIGEN
void BM_chain_eigen(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    using earray = Eigen::Array<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const inputs in;
    const auto copy = [](const bsx::array<double, 2>& x) {
        return earray(Eigen::Map<const earray>(x.data(), rows, cols));
    };
    const earray a = copy(in.a), b = copy(in.b), c = copy(in.c), d = copy(in.d), e = copy(in.e), f = copy(in.f);
    earray r = earray::Zero(rows, cols);
    for (auto _ : state) {
        r = a * b + c * d - e / (f + 1.0);
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    set_counters(state);
}
#endif

#ifdef BSX_BENCH_WITH_XTENSOR
void BM_chain_xtensor(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    using xarray = xt::xtensor<double, 2>;
    const inputs in;
    const auto copy = [](const bsx::array<double, 2>& x) {
        xarray out = xarray::from_shape({static_cast<std::size_t>(rows), static_cast<std::size_t>(cols)});
        std::copy(x.data(), x.data() + count, out.data());
        return out;
    };
    const xarray a = copy(in.a), b = copy(in.b), c = copy(in.c), d = copy(in.d), e = copy(in.e), f = copy(in.f);
    xarray r = copy(in.a);
    for (auto _ : state) {
        xt::noalias(r) = a * b + c * d - e / (f + 1.0);
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    set_counters(state);
}
#endif

struct int_inputs {
    bsx::array<std::int32_t, 2> a, b, c, d, e, f;
    int_inputs() {
        std::mt19937_64 rng(12);
        std::uniform_int_distribution<std::int32_t> u(-1000, 1000);
        for (auto* x : {&a, &b, &c, &d, &e, &f}) {
            *x = bsx::zeros<std::int32_t>(rows, cols);
            for (std::int32_t& v : *x) v = u(rng);
        }
    }
};

void set_int_counters(benchmark::State& state) {
    state.SetItemsProcessed(state.iterations() * count);
    state.SetBytesProcessed(state.iterations() * count * 7 * std::int64_t{sizeof(std::int32_t)});
}

void BM_chain_int_bsx(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const int_inputs in;
    const auto& [a, b, c, d, e, f] = in;
    bsx::array<std::int32_t, 2> r = bsx::zeros<std::int32_t>(rows, cols);
    for (auto _ : state) {
        r = -(a * b) + c * d - (e + f);
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    set_int_counters(state);
}

void BM_chain_int_hand_serial(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    const int_inputs in;
    bsx::array<std::int32_t, 2> r = bsx::zeros<std::int32_t>(rows, cols);
    for (auto _ : state) {
        const std::int32_t *a = in.a.data(), *b = in.b.data(), *c = in.c.data(), *d = in.d.data(), *e = in.e.data(),
                           *f = in.f.data();
        std::int32_t* rp = r.data();
        for (bsx::index_t i = 0; i < count; ++i) rp[i] = -(a[i] * b[i]) + c[i] * d[i] - (e[i] + f[i]);
        benchmark::DoNotOptimize(rp);
        benchmark::ClobberMemory();
    }
    set_int_counters(state);
}

}  // namespace

BENCHMARK(BM_chain_int_bsx)->Apply(thread_args);
BENCHMARK(BM_chain_int_hand_serial)->Apply(thread_args);
BENCHMARK(BM_chain_bsx)->Apply(thread_args);
BENCHMARK(BM_chain_hand_serial)->Apply(thread_args);
BENCHMARK(BM_chain_hand_omp)->Apply(thread_args);
BENCHMARK(BM_chain_eager)->Apply(thread_args);
#ifdef BSX_BENCH_WITH_EIGEN
BENCHMARK(BM_chain_eigen)->Apply(serial_args);
#endif
#ifdef BSX_BENCH_WITH_XTENSOR
BENCHMARK(BM_chain_xtensor)->Apply(thread_args);
#endif

BENCHMARK_MAIN();
