// benchmark/math_hand_loops.cpp: the hand-written loops bench_math.cpp measures bsx
// against, in their fastest plain-C++ form. This file alone is compiled with
// -fno-math-errno (benchmark/CMakeLists.txt), so std::sqrt here is one vector instruction;
// the sum of exp calls glibc's AVX-512 vector exp (libmvec) directly.
#include "math_hand_loops.hpp"

#include <cmath>

#if defined(__AVX512F__) && defined(BSX_BENCH_HAVE_MVEC)
#include <immintrin.h>
extern "C" __m512d _ZGVeN8v_exp(__m512d);
#endif

void hand_hypot_outer(const double* x, const double* y, double* r, long n) {
#pragma omp parallel for
    for (long i = 0; i < n; ++i) {
        const double xi = x[i];
        double* row = r + i * n;
#pragma omp simd
        for (long j = 0; j < n; ++j) row[j] = std::sqrt(xi * xi + y[j] * y[j]);
    }
}

bool hand_sum_exp_available() noexcept {
#if defined(__AVX512F__) && defined(BSX_BENCH_HAVE_MVEC)
    return true;
#else
    return false;
#endif
}

double hand_sum_exp(const double* x, long n) {
#if defined(__AVX512F__) && defined(BSX_BENCH_HAVE_MVEC)
    // Four independent accumulators hide the latency of the adds.
    __m512d acc[4] = {_mm512_setzero_pd(), _mm512_setzero_pd(), _mm512_setzero_pd(), _mm512_setzero_pd()};
    long i = 0;
    for (; i + 32 <= n; i += 32)
        for (int k = 0; k < 4; ++k) acc[k] = _mm512_add_pd(acc[k], _ZGVeN8v_exp(_mm512_loadu_pd(x + i + 8 * k)));
    alignas(64) double lanes[8];  // (not _mm512_reduce_add_pd: GCC 12 warns inside it)
    _mm512_store_pd(lanes, _mm512_add_pd(_mm512_add_pd(acc[0], acc[1]), _mm512_add_pd(acc[2], acc[3])));
    double s = 0;
    for (const double l : lanes) s += l;
    for (; i < n; ++i) s += std::exp(x[i]);
    return s;
#else
    double s = 0;
    for (long i = 0; i < n; ++i) s += std::exp(x[i]);
    return s;
#endif
}
