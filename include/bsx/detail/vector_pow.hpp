// bsx/detail/vector_pow.hpp: bsx's own pow of 16 floats at once, for CPUs with AVX-512.
// Neither SLEEF nor libmvec comes near NumPy's float pow (SVML), so bsx computes it itself:
// log2 and exp2 in double precision, each with a 16-entry table held in two registers.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "../config.hpp"

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

namespace bsx::detail::vmath {

/// The largest error of pow_f32x16 in ulps (test_vector_math measures it). log2(x) is
/// within 2^-42 relative, so y log2(x) is within 2^-34.5 wherever the result is a float
/// (|y log2 x| < 150), and 2^e within 2^-38.5: the double result is within 2^-34 relative,
/// and rounding it to float gives the correctly rounded result or, very near a midpoint,
/// its neighbour.
inline constexpr double own_pow_float_max_ulp = 0.501;

namespace pow_tables {
// From scripts/vector_pow_tables.py. x = 2^k z with z in [0x1.6ap-1, 0x1.6ap0): the top 4
// bits of z's significand (after subtracting the offset) pick an interval, its reciprocal
// 1/c (6 significant bits, 1 for the interval holding 1) and log2(c); r = z/c - 1 then lies
// in [-0.0362, 0.0391].
alignas(64) inline constexpr double inverse_c[16] = {0x1.6p+0,  0x1.5p+0,  0x1.48p+0, 0x1.38p+0, 0x1.3p+0, 0x1.2p+0,
                                                     0x1.18p+0, 0x1.1p+0,  0x1.08p+0, 0x1p+0,    0x1.ep-1, 0x1.cp-1,
                                                     0x1.bp-1,  0x1.98p-1, 0x1.8p-1,  0x1.7p-1};
alignas(64) inline constexpr double log2_c[16] = {
    -0x1.d6753e032ea0fp-2, -0x1.91bba891f1709p-2, -0x1.6e221cd9d0cdep-2, -0x1.24407ab0e073ap-2, -0x1.fbc16b902680ap-3,
    -0x1.5c01a39fbd688p-3, -0x1.08c588cda79e4p-3, -0x1.663f6fac91316p-4, -0x1.6bad3758efd87p-5, 0x0p+0,
    0x1.7d60496cfbb4cp-4,  0x1.8a8980abfbd32p-3,  0x1.f5fd8a9063e35p-3,  0x1.4f6fbb2cec598p-2,  0x1.a8ff971810a5ep-2,
    0x1.e7df5fe538ab3p-2};
/// 2^(j/16).
alignas(64) inline constexpr double exp2_j[16] = {0x1p+0,
                                                  0x1.0b5586cf9890fp+0,
                                                  0x1.172b83c7d517bp+0,
                                                  0x1.2387a6e756238p+0,
                                                  0x1.306fe0a31b715p+0,
                                                  0x1.3dea64c123422p+0,
                                                  0x1.4bfdad5362a27p+0,
                                                  0x1.5ab07dd485429p+0,
                                                  0x1.6a09e667f3bcdp+0,
                                                  0x1.7a11473eb0187p+0,
                                                  0x1.8ace5422aa0dbp+0,
                                                  0x1.9c49182a3f090p+0,
                                                  0x1.ae89f995ad3adp+0,
                                                  0x1.c199bdd85529cp+0,
                                                  0x1.d5818dcfba487p+0,
                                                  0x1.ea4afa2a490dap+0};
/// log2(1 + r) / r and 2^f (|f| <= 1/32), lowest degree first.
inline constexpr double log2_poly[7] = {0x1.71547652b8467p+0,  -0x1.715476532d94ap-1, 0x1.ec709dad0b4c8p-2,
                                        -0x1.715461defe7b4p-2, 0x1.27778b45941f3p-2,  -0x1.ed55fd56b8422p-3,
                                        0x1.a320ac5c4a984p-3};
inline constexpr double exp2_poly[5] = {0x1p+0, 0x1.62e42fec39c7dp-1, 0x1.ebfbdff6988c8p-3, 0x1.c6b3f746c5f99p-5,
                                        0x1.3b2c4ac7da565p-7};
}  // namespace pow_tables

// The kernel is written with vector operators where it can, and maskz forms of the other
// intrinsics: GCC 12 warns (maybe-uninitialized) about the undefined pass-through source of
// many unmasked AVX-512 intrinsics. (Conversions and shuffles stay intrinsics: GCC splits
// __builtin_convertvector into 256-bit halves when tuning for AMD Zen.)
using doubles8 = __m512d;
using int64s8 = __m512i;
using uint64s8 [[gnu::vector_size(64)]] = std::uint64_t;

/// table[index] per lane, for a 16-entry table (the low 4 bits of each index count).
[[gnu::target("avx512f")]] inline doubles8 lookup16(const double* table, int64s8 index) noexcept {
    return _mm512_permutex2var_pd(_mm512_load_pd(table), index, _mm512_load_pd(table + 8));
}

/// c[0] + c[1] v + ... + c[N-1] v^(N-1), with fused multiply-adds.
template <std::size_t N>
[[gnu::target("avx512f")]] inline doubles8 horner(const double (&c)[N], doubles8 v) noexcept {
    doubles8 p = _mm512_set1_pd(c[N - 1]);
    for (std::size_t j = N - 1; j-- > 0;) p = _mm512_fmadd_pd(p, v, _mm512_set1_pd(c[j]));
    return p;
}

/// 2^(y log2 x) for x > 0 and finite, y finite (x, y: floats widened to double), within
/// 2^-34 relative wherever the result is a float; y log2 x is clamped to +-200, beyond which
/// every float result is 0 or infinite.
[[gnu::target("avx512f")]] inline doubles8 pow_of_floats_in_double(doubles8 x, doubles8 y) noexcept {
    using namespace pow_tables;
    constexpr double round_shift = 0x1.8p52;  // adding it rounds to an integer, in the low bits
    const int64s8 bits = int64s8(x);
    const int64s8 from_offset = bits - 0x3FE6A00000000000;
    const int64s8 interval = int64s8(uint64s8(from_offset) >> 48);
    const int64s8 k = from_offset >> 52;
    const doubles8 z = doubles8(bits - (k << 52));
    const doubles8 k_double = doubles8(k + std::int64_t(0x4338000000000000)) - round_shift;
    const doubles8 r = _mm512_fmadd_pd(z, lookup16(inverse_c, interval), _mm512_set1_pd(-1.0));
    const doubles8 log2_x = _mm512_fmadd_pd(horner(log2_poly, r), r, k_double + lookup16(log2_c, interval));
    const doubles8 e =
        _mm512_maskz_min_pd(0xFF, _mm512_maskz_max_pd(0xFF, y * log2_x, _mm512_set1_pd(-200.0)), _mm512_set1_pd(200.0));
    // e = n/16 + f: 2^e = 2^(n >> 4) 2^((n & 15)/16) 2^f.
    const doubles8 n_shifted = _mm512_fmadd_pd(e, _mm512_set1_pd(16.0), _mm512_set1_pd(round_shift));
    const doubles8 f = _mm512_fmadd_pd(n_shifted - round_shift, _mm512_set1_pd(-0.0625), e);
    const int64s8 n = int64s8(n_shifted);
    const doubles8 mantissa = lookup16(exp2_j, n) * horner(exp2_poly, f);
    return doubles8(int64s8(mantissa) + ((n >> 4) << 52));
}

/// The lower and upper 8 of 16 floats.
[[gnu::target("avx512f")]] inline __m256 lower_half(__m512 v) noexcept {
    return _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xF, _mm512_castps_pd(v), 0));
}
[[gnu::target("avx512f")]] inline __m256 upper_half(__m512 v) noexcept {
    return _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xF, _mm512_castps_pd(v), 1));
}

/// r with the lanes not in `regular` replaced by std::pow of x and y (kept out of the
/// kernel's loop, whose registers it would otherwise crowd).
[[gnu::target("avx512f"), gnu::noinline, gnu::cold]] inline __m512 pow_f32_special_lanes(__m512 x, __m512 y, __m512 r,
                                                                                         __mmask16 regular) noexcept {
    alignas(64) float xs[16], ys[16], rs[16];
    _mm512_store_ps(xs, x);
    _mm512_store_ps(ys, y);
    _mm512_store_ps(rs, r);
    for (int l = 0; l < 16; ++l)
        if (!(regular >> l & 1)) rs[l] = std::pow(xs[l], ys[l]);
    return _mm512_load_ps(rs);
}

/// pow(x, y) of 16 floats. Lanes where x is not positive and finite or y is not finite
/// (zeros, negative bases, infinities, NaN) are computed by std::pow, one by one: a rule on
/// the lane's own arguments, so an element's value does not depend on where it falls.
[[gnu::target("avx512f")]] inline __m512 pow_f32x16(__m512 x, __m512 y) noexcept {
    const __m512d x_low = _mm512_maskz_cvtps_pd(0xFF, lower_half(x));
    const __m512d y_low = _mm512_maskz_cvtps_pd(0xFF, lower_half(y));
    const __m512d x_high = _mm512_maskz_cvtps_pd(0xFF, upper_half(x));
    const __m512d y_high = _mm512_maskz_cvtps_pd(0xFF, upper_half(y));
    const __m256 low = _mm512_maskz_cvtpd_ps(0xFF, pow_of_floats_in_double(x_low, y_low));
    const __m256 high = _mm512_maskz_cvtpd_ps(0xFF, pow_of_floats_in_double(x_high, y_high));
    __m512 r = _mm512_castpd_ps(
        _mm512_maskz_insertf64x4(0xFF, _mm512_castpd256_pd512(_mm256_castps_pd(low)), _mm256_castps_pd(high), 1));
    const __m512 inf = _mm512_set1_ps(HUGE_VALF);
    const __mmask16 regular = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_GT_OQ) &
                              _mm512_cmp_ps_mask(x, inf, _CMP_LT_OQ) &
                              _mm512_cmp_ps_mask(_mm512_abs_ps(y), inf, _CMP_LT_OQ);
    if (regular != 0xFFFF) [[unlikely]]
        r = pow_f32_special_lanes(x, y, r, regular);
    return r;
}

}  // namespace bsx::detail::vmath

#endif
