// Assembly and rearrangement against hand-written loops, at 1 and 2 OpenMP threads:
//
//   concat_plus    r = bsx::concatenate(a, b, 0) + 1.0        a, b: 2000 x 4000 doubles
//   concat_lazy    r = bsx::concatenate(a * 2.0, b + 1.0, 0)
//   concat_axis1   r = bsx::concatenate(a, b, 1) + 1.0        (each row: a run of a, one of b)
//   pad_reflect    r = bsx::pad(img, {{8, 8}}, bsx::pad_reflect)   img: 1080 x 1920 doubles
//   flip           r = bsx::flip(img)
//   roll           r = bsx::roll(img, 5, 1)
//
// Variants: bsx (the line above, into a preallocated r) and hand: the fastest plain loop
// into the same r, `omp parallel for` over rows with a vectorized inner loop.

#include <bsx/bsx.hpp>

#include <benchmark/benchmark.h>

#include "bench_common.hpp"

#include <cstdint>
#include <cstring>

namespace {

using bsx::index_t;
constexpr index_t rows = 2000, cols = 4000, img_rows = 1080, img_cols = 1920, border = 8;

template <class F>
void run(benchmark::State& state, bsx::array<double, 2>& r, std::int64_t elements, F&& f) {
    set_threads(state, static_cast<int>(state.range(0)));
    for (auto _ : state) {
        f();
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
    }
    count_read_written(state, elements);
}

void BM_concat_plus_bsx(benchmark::State& state) {
    const auto a = random_array<2>({rows, cols}, 1), b = random_array<2>({rows, cols}, 2);
    bsx::array<double, 2> r({2 * rows, cols});
    run(state, r, 2 * rows * cols, [&] { r = bsx::concatenate(a, b, 0) + 1.0; });
}
void BM_concat_plus_hand(benchmark::State& state) {
    const auto a = random_array<2>({rows, cols}, 1), b = random_array<2>({rows, cols}, 2);
    bsx::array<double, 2> r({2 * rows, cols});
    run(state, r, 2 * rows * cols, [&] {
        const double *pa = a.data(), *pb = b.data();
        double* out = r.data();
#pragma omp parallel for
        for (index_t i = 0; i < 2 * rows; ++i) {
            const double* in = i < rows ? pa + i * cols : pb + (i - rows) * cols;
            double* o = out + i * cols;
#pragma omp simd
            for (index_t j = 0; j < cols; ++j) o[j] = in[j] + 1.0;
        }
    });
}

/// The same as two bsx assignments into the halves of r: what the node's blocks cost.
void BM_concat_plus_halves_bsx(benchmark::State& state) {
    const auto a = random_array<2>({rows, cols}, 1), b = random_array<2>({rows, cols}, 2);
    bsx::array<double, 2> r({2 * rows, cols});
    run(state, r, 2 * rows * cols, [&] {
        bsx::slice(r, bsx::range(0, rows)) = a + 1.0;
        bsx::slice(r, bsx::range(rows, 2 * rows)) = b + 1.0;
    });
}

void BM_concat_lazy_bsx(benchmark::State& state) {
    const auto a = random_array<2>({rows, cols}, 1), b = random_array<2>({rows, cols}, 2);
    bsx::array<double, 2> r({2 * rows, cols});
    run(state, r, 2 * rows * cols, [&] { r = bsx::concatenate(a * 2.0, b + 1.0, 0); });
}
void BM_concat_lazy_hand(benchmark::State& state) {
    const auto a = random_array<2>({rows, cols}, 1), b = random_array<2>({rows, cols}, 2);
    bsx::array<double, 2> r({2 * rows, cols});
    run(state, r, 2 * rows * cols, [&] {
        const double *pa = a.data(), *pb = b.data();
        double* out = r.data();
#pragma omp parallel for
        for (index_t i = 0; i < 2 * rows; ++i) {
            double* o = out + i * cols;
            if (i < rows) {
                const double* in = pa + i * cols;
#pragma omp simd
                for (index_t j = 0; j < cols; ++j) o[j] = in[j] * 2.0;
            } else {
                const double* in = pb + (i - rows) * cols;
#pragma omp simd
                for (index_t j = 0; j < cols; ++j) o[j] = in[j] + 1.0;
            }
        }
    });
}

void BM_concat_axis1_bsx(benchmark::State& state) {
    const auto a = random_array<2>({rows, cols}, 1), b = random_array<2>({rows, cols}, 2);
    bsx::array<double, 2> r({rows, 2 * cols});
    run(state, r, 2 * rows * cols, [&] { r = bsx::concatenate(a, b, 1) + 1.0; });
}
void BM_concat_axis1_hand(benchmark::State& state) {
    const auto a = random_array<2>({rows, cols}, 1), b = random_array<2>({rows, cols}, 2);
    bsx::array<double, 2> r({rows, 2 * cols});
    run(state, r, 2 * rows * cols, [&] {
        const double *pa = a.data(), *pb = b.data();
        double* out = r.data();
#pragma omp parallel for
        for (index_t i = 0; i < rows; ++i) {
            double* o = out + i * 2 * cols;
            const double *ia = pa + i * cols, *ib = pb + i * cols;
#pragma omp simd
            for (index_t j = 0; j < cols; ++j) o[j] = ia[j] + 1.0;
#pragma omp simd
            for (index_t j = 0; j < cols; ++j) o[cols + j] = ib[j] + 1.0;
        }
    });
}

constexpr index_t padded_rows = img_rows + 2 * border, padded_cols = img_cols + 2 * border;

void BM_pad_reflect_bsx(benchmark::State& state) {
    const auto img = random_array<2>({img_rows, img_cols}, 3);
    bsx::array<double, 2> r({padded_rows, padded_cols});
    run(state, r, padded_rows * padded_cols, [&] { r = bsx::pad(img, {{border, border}}, bsx::pad_reflect); });
}
void BM_pad_reflect_hand(benchmark::State& state) {
    const auto img = random_array<2>({img_rows, img_cols}, 3);
    bsx::array<double, 2> r({padded_rows, padded_cols});
    run(state, r, padded_rows * padded_cols, [&] {
        const double* in = img.data();
        double* out = r.data();
#pragma omp parallel for
        for (index_t i = 0; i < padded_rows; ++i) {
            const index_t s = i < border               ? border - i
                              : i >= img_rows + border ? 2 * (img_rows - 1) - (i - border)
                                                       : i - border;
            const double* row = in + s * img_cols;
            double* o = out + i * padded_cols;
            for (index_t j = 0; j < border; ++j) o[j] = row[border - j];
#pragma omp simd
            for (index_t j = 0; j < img_cols; ++j) o[border + j] = row[j];
            for (index_t j = 0; j < border; ++j) o[border + img_cols + j] = row[img_cols - 2 - j];
        }
    });
}

void BM_flip_bsx(benchmark::State& state) {
    const auto img = random_array<2>({img_rows, img_cols}, 3);
    bsx::array<double, 2> r({img_rows, img_cols});
    run(state, r, img_rows * img_cols, [&] { r = bsx::flip(img); });
}
void BM_flip_hand(benchmark::State& state) {
    const auto img = random_array<2>({img_rows, img_cols}, 3);
    bsx::array<double, 2> r({img_rows, img_cols});
    run(state, r, img_rows * img_cols, [&] {
        const double* in = img.data();
        double* out = r.data();
#pragma omp parallel for
        for (index_t i = 0; i < img_rows; ++i) {
            const double* row = in + (img_rows - 1 - i) * img_cols + (img_cols - 1);
            double* o = out + i * img_cols;
#pragma omp simd
            for (index_t j = 0; j < img_cols; ++j) o[j] = row[-j];
        }
    });
}

void BM_roll_bsx(benchmark::State& state) {
    const auto img = random_array<2>({img_rows, img_cols}, 3);
    bsx::array<double, 2> r({img_rows, img_cols});
    run(state, r, img_rows * img_cols, [&] { r = bsx::roll(img, 5, 1); });
}
void BM_roll_hand(benchmark::State& state) {
    const auto img = random_array<2>({img_rows, img_cols}, 3);
    bsx::array<double, 2> r({img_rows, img_cols});
    run(state, r, img_rows * img_cols, [&] {
        const double* in = img.data();
        double* out = r.data();
#pragma omp parallel for
        for (index_t i = 0; i < img_rows; ++i) {
            const double* row = in + i * img_cols;
            double* o = out + i * img_cols;
            std::memcpy(o, row + img_cols - 5, 5 * sizeof(double));
            std::memcpy(o + 5, row, (img_cols - 5) * sizeof(double));
        }
    });
}

}  // namespace

BENCHMARK(BM_concat_plus_bsx)->Apply(thread_args);
BENCHMARK(BM_concat_plus_hand)->Apply(thread_args);
BENCHMARK(BM_concat_plus_halves_bsx)->Apply(thread_args);
BENCHMARK(BM_concat_lazy_bsx)->Apply(thread_args);
BENCHMARK(BM_concat_lazy_hand)->Apply(thread_args);
BENCHMARK(BM_concat_axis1_bsx)->Apply(thread_args);
BENCHMARK(BM_concat_axis1_hand)->Apply(thread_args);
BENCHMARK(BM_pad_reflect_bsx)->Apply(thread_args);
BENCHMARK(BM_pad_reflect_hand)->Apply(thread_args);
BENCHMARK(BM_flip_bsx)->Apply(thread_args);
BENCHMARK(BM_flip_hand)->Apply(thread_args);
BENCHMARK(BM_roll_bsx)->Apply(thread_args);
BENCHMARK(BM_roll_hand)->Apply(thread_args);

BENCHMARK_MAIN();
