// RGB scaling in place on a 2000 x 2000 x 3 image, at 1 and 2 OpenMP threads: Octave's
//
//   img .*= permute([0.8, 0.9, 1.2], [1, 3, 2])
//
// which rests on Octave's rule that missing trailing axes are 1. Rows of the
// destination are only 3 long, so this measures what the rule set and the short
// innermost axis cost against a loop written by hand.
//
// Variants (all in this binary so that ratios come from one run):
//   bsx          img *= bsx::with_rules<bsx::octave_rules>(w) with w of shape (1, 1, 3)
//   bsx_numpy    img *= v with v of shape (3,) (NumPy right-aligns it with the channels)
//   hand_serial  loop over pixels, three multiplies each
//   hand_omp     the same with `omp parallel for` over image rows
//   eager        Octave's evaluation: a fresh (2000, 2000, 3) product, then img rebinds to it
//
// Iterations alternate between the weights and their reciprocals (every variant the
// same way) so that repeated in-place scaling neither overflows nor turns denormal.
//
// Names: BM_rgb_scale_<variant>/threads:<t>/real_time (parsed by ratios.py).

#include <bsx/bsx.hpp>

#include <benchmark/benchmark.h>

#include "bench_common.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <utility>

namespace {

constexpr bsx::index_t rows = 2000, cols = 2000, channels = 3;
constexpr double weight[channels] = {0.8, 0.9, 1.2};

void set_counters(benchmark::State& state) {
    const std::int64_t n = rows * cols * channels;
    state.SetItemsProcessed(state.iterations() * n);
    state.SetBytesProcessed(state.iterations() * n * std::int64_t{2 * sizeof(double)});  // read + written
}

bsx::array<double, 3> make_image() {
    auto img = bsx::zeros<double>(rows, cols, channels);
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (double& v : img) v = u(rng);
    return img;
}

/// The weights and their reciprocals, as Octave's (1, 3) row vectors.
struct weights {
    bsx::array<double, 2> w{{weight[0], weight[1], weight[2]}};
    bsx::array<double, 2> inverse{{1 / weight[0], 1 / weight[1], 1 / weight[2]}};
    const bsx::array<double, 2>& at(std::int64_t iteration) const { return iteration % 2 ? inverse : w; }
};

void BM_rgb_scale_bsx(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    auto img = make_image();
    const weights ws;
    std::int64_t k = 0;
    for (auto _ : state) {
        // permute([...], [1, 3, 2]) puts the row vector's axis 1 on axis 2: (1, 1, 3).
        img *= bsx::with_rules<bsx::octave_rules>(bsx::in_dims<3>(ws.at(k++), {0, 2}));
        benchmark::DoNotOptimize(img.data());
        benchmark::ClobberMemory();
    }
    set_counters(state);
}

void BM_rgb_scale_bsx_numpy(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    auto img = make_image();
    const weights ws;
    std::int64_t k = 0;
    for (auto _ : state) {
        img *= bsx::slice(ws.at(k++), 0);  // shape (3,)
        benchmark::DoNotOptimize(img.data());
        benchmark::ClobberMemory();
    }
    set_counters(state);
}

void BM_rgb_scale_hand_serial(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    auto img = make_image();
    const weights ws;
    std::int64_t k = 0;
    for (auto _ : state) {
        const double* w = ws.at(k++).data();
        double* p = img.data();
        for (bsx::index_t i = 0; i < rows * cols; ++i) {
            p[3 * i] *= w[0];
            p[3 * i + 1] *= w[1];
            p[3 * i + 2] *= w[2];
        }
        benchmark::DoNotOptimize(p);
        benchmark::ClobberMemory();
    }
    set_counters(state);
}

void BM_rgb_scale_hand_omp(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    auto img = make_image();
    const weights ws;
    std::int64_t k = 0;
    for (auto _ : state) {
        const double* w = ws.at(k++).data();
        const double w0 = w[0], w1 = w[1], w2 = w[2];
        double* p = img.data();
#pragma omp parallel for schedule(static)
        for (bsx::index_t r = 0; r < rows; ++r) {
            double* row = p + r * cols * channels;
#pragma omp simd
            for (bsx::index_t c = 0; c < cols; ++c) {
                row[3 * c] *= w0;
                row[3 * c + 1] *= w1;
                row[3 * c + 2] *= w2;
            }
        }
        benchmark::DoNotOptimize(p);
        benchmark::ClobberMemory();
    }
    set_counters(state);
}

// Octave: img .* w makes a new image, and img is rebound to it.
void BM_rgb_scale_eager(benchmark::State& state) {
    set_threads(state, static_cast<int>(state.range(0)));
    auto img = make_image();
    const auto n = static_cast<std::size_t>(rows * cols * channels);
    std::unique_ptr<double[]> cur(new double[n]);
    std::copy(img.data(), img.data() + n, cur.get());
    const weights ws;
    std::int64_t k = 0;
    for (auto _ : state) {
        const double* w = ws.at(k++).data();
        const double w0 = w[0], w1 = w[1], w2 = w[2];
        std::unique_ptr<double[]> next(new double[n]);
        const double* src = cur.get();
        double* dst = next.get();
#pragma omp parallel for schedule(static)
        for (bsx::index_t r = 0; r < rows; ++r) {
            const bsx::index_t o = r * cols * channels;
#pragma omp simd
            for (bsx::index_t c = 0; c < cols; ++c) {
                dst[o + 3 * c] = src[o + 3 * c] * w0;
                dst[o + 3 * c + 1] = src[o + 3 * c + 1] * w1;
                dst[o + 3 * c + 2] = src[o + 3 * c + 2] * w2;
            }
        }
        cur = std::move(next);
        benchmark::DoNotOptimize(cur.get());
        benchmark::ClobberMemory();
    }
    set_counters(state);
}

}  // namespace

BENCHMARK(BM_rgb_scale_bsx)->Apply(thread_args);
BENCHMARK(BM_rgb_scale_bsx_numpy)->Apply(thread_args);
BENCHMARK(BM_rgb_scale_hand_serial)->Apply(thread_args);
BENCHMARK(BM_rgb_scale_hand_omp)->Apply(thread_args);
BENCHMARK(BM_rgb_scale_eager)->Apply(thread_args);

BENCHMARK_MAIN();
