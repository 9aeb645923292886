// bsx/detail/own_vector_math.hpp: bsx's own vector kernels, for CPUs with AVX-512, where
// SLEEF and libmvec are far from NumPy's (SVML): pow of floats (four vectors of 16 at a
// time), log and pow of 8 doubles. All split x = 2^k z and read 16-entry tables held in two
// registers (no gathers).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "../config.hpp"

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

namespace bsx::detail::vmath {

/// The largest errors of the kernels in ulps, on the lanes they compute (test_vector_math
/// measures them); lanes they hand to libm have libm's accuracy (glibc: powf 0.82, log and
/// pow 0.52), which the bounds vector_math.hpp states for the functions cover.
/// - Float pow: log2 x is within 2^-35 relative (the polynomial within 2^-35.1 of log2(1 + r),
///   also relative to log2 x where k = 0), so y log2 x is within 2^-27.8 wherever the result
///   is a float (|y log2 x| < 150); with 2^f's polynomial (2^-28.7) the double result is within
///   2^-27.4 relative, 0.09 ulp of the float, and rounding it adds half an ulp. (A term more
///   in each polynomial would give 0.501 ulp, for more time than the accuracy is worth:
///   doc/design.md, "Vector math".)
/// - Double log: hi + lo is within 0.003 ulp of ln x (the polynomial's 2^-52.6 |r|^3 at most
///   0.002), and rounding it adds half an ulp.
/// - Double pow: ln x is within 2^-51.4 |r|^3 (the polynomial and the roundings of r^3 p(r));
///   times y that is at most 0.134 ulp of the result on the lanes the kernel keeps: those
///   with k != 0 (|ln x| >= 0.34) and |y ln x| <= 708, and those with k = 0 and
///   |y ln x| <= 32 (|ln x| >= 0.038, or c = 1 and ln x close to r). Reducing e and the sum
///   for e^f add 0.05, and rounding half an ulp.
inline constexpr double own_pow_float_max_ulp = 0.59;
inline constexpr double own_log_double_max_ulp = 0.503;
inline constexpr double own_pow_double_max_ulp = 0.7;

namespace own_tables {
// From scripts/vector_math_tables.py. x = 2^k z with z in [0x1.6ap-1, 0x1.6ap0): the top 4
// bits of z's significand (after subtracting the offset) pick an interval, its reciprocal
// 1/c (5 significant bits, so that r = z/c - 1 is exact in one fused multiply-add; 1 for the
// interval holding 1), log2(c) and ln(c) = ln_c_hi + ln_c_lo (hi: a multiple of 2^-42, as
// is ln2_hi, so k ln2_hi + ln_c_hi is exact); r lies in [-0.0430, 0.0416].
inline constexpr std::uint64_t offset = 0x3FE6A00000000000;  // the bits of 0x1.6ap-1
/// 1.5 2^52: adding it rounds a double (below 2^51) to an integer, which lands in the low bits.
inline constexpr double round_shift = 0x1.8p52;
inline constexpr std::int64_t round_shift_bits = 0x4338000000000000;
alignas(64) inline constexpr double inverse_c[16] = {0x1.6p+0, 0x1.5p+0, 0x1.4p+0, 0x1.4p+0, 0x1.3p+0, 0x1.2p+0,
                                                     0x1.2p+0, 0x1.1p+0, 0x1p+0,   0x1p+0,   0x1.ep-1, 0x1.cp-1,
                                                     0x1.bp-1, 0x1.9p-1, 0x1.8p-1, 0x1.7p-1};
alignas(64) inline constexpr double log2_c[16] = {-0x1.d6753e032ea0fp-2,
                                                  -0x1.91bba891f1709p-2,
                                                  -0x1.49a784bcd1b8bp-2,
                                                  -0x1.49a784bcd1b8bp-2,
                                                  -0x1.fbc16b902680ap-3,
                                                  -0x1.5c01a39fbd688p-3,
                                                  -0x1.5c01a39fbd688p-3,
                                                  -0x1.663f6fac91316p-4,
                                                  0x0p+0,
                                                  0x0p+0,
                                                  0x1.7d60496cfbb4cp-4,
                                                  0x1.8a8980abfbd32p-3,
                                                  0x1.f5fd8a9063e35p-3,
                                                  0x1.6cb0f6865c8eap-2,
                                                  0x1.a8ff971810a5ep-2,
                                                  0x1.e7df5fe538ab3p-2};
alignas(64) inline constexpr double ln_c_hi[16] = {-0x1.4618bc21c6p-2,
                                                   -0x1.1675cababap-2,
                                                   -0x1.c8ff7c79aap-3,
                                                   -0x1.c8ff7c79aap-3,
                                                   -0x1.5ff3070a7ap-3,
                                                   -0x1.e27076e2bp-4,
                                                   -0x1.e27076e2bp-4,
                                                   -0x1.f0a30c0118p-5,
                                                   0x0p+0,
                                                   0x0p+0,
                                                   0x1.08598b59e4p-4,
                                                   0x1.1178e8227ep-3,
                                                   0x1.5bf406b544p-3,
                                                   0x1.f991c6cb3cp-3,
                                                   0x1.269621134ep-2,
                                                   0x1.522ae0738ap-2};
alignas(64) inline constexpr double ln_c_lo[16] = {0x1.3d82f484c84ccp-46,
                                                   -0x1.8380e731f55c4p-44,
                                                   0x1.7794f689f8434p-45,
                                                   0x1.7794f689f8434p-45,
                                                   0x1.8586f183bebf2p-44,
                                                   0x1.a342c2af0003cp-45,
                                                   0x1.a342c2af0003cp-45,
                                                   0x1.d599e83368e91p-45,
                                                   0x0p+0,
                                                   0x0p+0,
                                                   -0x1.7e5dd7009902cp-46,
                                                   0x1.1ef78ce2d07f2p-45,
                                                   -0x1.27023eb68981cp-46,
                                                   -0x1.90d04cd7cc834p-44,
                                                   -0x1.1b61f10522625p-44,
                                                   0x1.ebe708164c759p-45};
inline constexpr double ln2_hi = 0x1.62e42fefa38p-1, ln2_lo = 0x1.ef35793c7673p-45;
/// ln(2)/16 split the same way (n ln2_16_hi is exact for |n| < 2^15).
inline constexpr double ln2_16_hi = 0x1.62e42fefap-5, ln2_16_lo = 0x1.cf79abc9e3b3ap-44;
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
/// The rounding errors of exp2_j.
alignas(64) inline constexpr double exp2_j_lo[16] = {0x0p+0,
                                                     0x1.8a62e4adc610bp-54,
                                                     -0x1.19041b9d78a76p-55,
                                                     0x1.9b07eb6c70573p-54,
                                                     0x1.6f46ad23182e4p-55,
                                                     0x1.ada0911f09ebcp-55,
                                                     0x1.d4397afec42e2p-56,
                                                     0x1.6324c054647adp-54,
                                                     -0x1.bdd3413b26456p-54,
                                                     -0x1.41577ee04992fp-55,
                                                     0x1.6e9f156864b27p-54,
                                                     0x1.c7c46b071f2bep-56,
                                                     0x1.7a1cd345dcc81p-54,
                                                     0x1.11065895048ddp-55,
                                                     0x1.2ed02d75b3707p-55,
                                                     -0x1.e9c23179c2893p-54};
/// log2(1 + r) / r, (ln(1 + r) - r + r^2/2) / r^3, (2^f - 1) / f (|f| <= 1/32) and
/// (e^f - 1 - f) / f^2 (|f| <= 0.022), lowest degree first.
inline constexpr double log2_poly[6] = {0x1.71547652e068cp+0,  -0x1.71547657a824dp-1, 0x1.ec7085030fe04p-2,
                                        -0x1.7153f3b2f7b2dp-2, 0x1.280750c3c8f88p-2,  -0x1.ef4b440507b71p-3};
inline constexpr double log_poly[9] = {0x1.5555555555556p-2,  -0x1.ffffffffffbd6p-3, 0x1.99999999950c6p-3,
                                       -0x1.5555555ced1f2p-3, 0x1.2492496445631p-3,  -0x1.ffff8833509dcp-4,
                                       0x1.c71a3330915d4p-4,  -0x1.9af7e99658fcap-4, 0x1.77e5fc325e52bp-4};
inline constexpr double exp2_poly[3] = {0x1.62e42fefa39efp-1, 0x1.ebff917b28217p-3, 0x1.c6b299bd67a41p-5};
inline constexpr double exp_poly[6] = {0x1.0000000000001p-1, 0x1.5555555555556p-3,  0x1.55555554e258ep-5,
                                       0x1.11111110ddf63p-7, 0x1.6c17f6c39583fp-10, 0x1.a01b149876dbfp-13};
}  // namespace own_tables

// The kernels are written with vector operators where they can, and maskz forms of the other
// intrinsics: GCC 12 warns (maybe-uninitialized) about the undefined pass-through source of
// many unmasked AVX-512 intrinsics. (Conversions and shuffles stay intrinsics: GCC splits
// __builtin_convertvector into 256-bit halves under some -mtune settings.)
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

/// The same polynomial by Estrin's scheme: pairs c[2i] + c[2i+1] v, joined by v^2, v^4, ...
/// Fewer dependent steps than Horner's, where a kernel's chain of latencies limits it.
template <std::size_t N>
[[gnu::target("avx512f")]] inline doubles8 estrin(const double (&c)[N], doubles8 v) noexcept {
    doubles8 terms[(N + 1) / 2];
    for (std::size_t i = 0; i < (N + 1) / 2; ++i)
        terms[i] = 2 * i + 1 < N ? _mm512_fmadd_pd(_mm512_set1_pd(c[2 * i + 1]), v, _mm512_set1_pd(c[2 * i]))
                                 : _mm512_set1_pd(c[2 * i]);
    doubles8 power = v * v;
    for (std::size_t m = (N + 1) / 2; m > 1; m = (m + 1) / 2, power = power * power) {
        for (std::size_t i = 0; i < m / 2; ++i) terms[i] = _mm512_fmadd_pd(terms[2 * i + 1], power, terms[2 * i]);
        if (m % 2) terms[m / 2] = terms[m - 1];
    }
    return terms[0];
}

/// m 2^e, by adding e to m's exponent field (m 2^e normal; elsewhere any bits, which the
/// kernels' callers replace).
[[gnu::target("avx512f")]] inline doubles8 times_power_of_two(doubles8 m, int64s8 e) noexcept {
    return doubles8(uint64s8(m) + (uint64s8(e) << 52));
}

/// x = 2^k z (x positive and normal), with the interval of z and r = z/c - 1 (exact).
struct split_argument {
    doubles8 k, r;
    int64s8 interval;
};
[[gnu::target("avx512f")]] inline split_argument split(doubles8 x) noexcept {
    // Bits in unsigned arithmetic, which wraps (lanes that libm redoes may have any bits).
    const uint64s8 bits = uint64s8(x);
    const uint64s8 from_offset = bits - own_tables::offset;
    const int64s8 interval = int64s8(from_offset >> 48);
    const int64s8 k = int64s8(from_offset) >> 52;  // arithmetic: below 1/sqrt(2), negative
    const doubles8 z = doubles8(bits - (uint64s8(k) << 52));
    const doubles8 k_double = doubles8(k + own_tables::round_shift_bits) - own_tables::round_shift;
    return {k_double, _mm512_fmadd_pd(z, lookup16(own_tables::inverse_c, interval), _mm512_set1_pd(-1.0)), interval};
}

/// The lower and upper 8 of 16 floats.
[[gnu::target("avx512f")]] inline __m256 lower_half(__m512 v) noexcept {
    return _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xF, _mm512_castps_pd(v), 0));
}
[[gnu::target("avx512f")]] inline __m256 upper_half(__m512 v) noexcept {
    return _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xF, _mm512_castps_pd(v), 1));
}

/// The lower (0) or upper (1) 8 of 16 floats, as doubles.
[[gnu::target("avx512f")]] inline __m512d widened_half(__m512 v, int upper) noexcept {
    return _mm512_maskz_cvtps_pd(0xFF, upper ? upper_half(v) : lower_half(v));
}

/// The lanes of `result` not in `regular` replaced by f of the same lanes of the arguments,
/// one by one. Kept out of the kernels' loops, whose registers it would crowd, and given
/// memory rather than vectors: clang passes vectors wider than a translation unit's target
/// in memory, so a call with vectors would differ between translation units.
template <class T, class M, class F, class... A>
[[gnu::noinline, gnu::cold]] void redo_lanes(M regular, int lanes, T* result, F f, const A*... args) noexcept {
    for (int l = 0; l < lanes; ++l)
        if (!(regular >> l & 1)) result[l] = f(args[l]...);
}

/// r with the lanes not in `regular` recomputed by redo_lanes; inlined into the kernels, so
/// their vectors reach it in registers and leave through memory.
template <class T, class V, class M, class F, class... A>
[[gnu::target("avx512f")]] inline V with_libm_lanes(M regular, V r, F f, A... args) noexcept {
    constexpr int lanes = sizeof(V) / sizeof(T);
    alignas(64) T result[lanes], in[sizeof...(A)][lanes];
    std::memcpy(result, &r, sizeof r);
    int a = 0;
    (std::memcpy(in[a++], &args, sizeof args), ...);
    [&]<std::size_t... I>(std::index_sequence<I...>) {
        redo_lanes(regular, lanes, result, f, in[I]...);
    }(std::make_index_sequence<sizeof...(A)>{});
    std::memcpy(&r, result, sizeof r);
    return r;
}

/// pow(x, y) of G vectors of 16 floats, widened to 2G vectors of 8 doubles: log2 x, then
/// 2^(y log2 x), within 2^-27.4 relative wherever the result is a float, rounded once to
/// float. Each step runs over all 2G vectors before the next starts: one vector alone is
/// limited by its chain of latencies, and independent chains side by side overlap (with
/// the chains hidden, Horner's scheme, fewer instructions than Estrin's, is as fast; the
/// measurements are in doc/design.md, "Vector math"). Lanes where x is not
/// positive and finite or y is not finite (zeros, negative bases, infinities, NaN) are
/// computed by std::pow, one by one: a rule on the lane's own arguments, so an element's
/// value does not depend on G or on where it falls.
template <int G>
[[gnu::target("avx512f")]] inline void pow_f32(const __m512 (&x)[G], const __m512 (&y)[G], __m512 (&out)[G]) noexcept {
    using namespace own_tables;
    constexpr int H = 2 * G;
    doubles8 r[H], log2_x[H], e[H], f[H];
    int64s8 n[H];
    for (int h = 0; h < H; ++h) {
        const split_argument s = split(widened_half(x[h / 2], h % 2));
        r[h] = s.r;
        log2_x[h] = s.k + lookup16(log2_c, s.interval);
    }
    for (int h = 0; h < H; ++h) log2_x[h] = _mm512_fmadd_pd(horner(log2_poly, r[h]), r[h], log2_x[h]);
    // y log2 x clamped to +-200, beyond which every float result is 0 or infinite.
    for (int h = 0; h < H; ++h)
        e[h] = _mm512_maskz_min_pd(
            0xFF, _mm512_maskz_max_pd(0xFF, widened_half(y[h / 2], h % 2) * log2_x[h], _mm512_set1_pd(-200.0)),
            _mm512_set1_pd(200.0));
    // e = n/16 + f: 2^e = 2^(n >> 4) 2^((n & 15)/16) 2^f.
    for (int h = 0; h < H; ++h) {
        const doubles8 n_shifted = _mm512_fmadd_pd(e[h], _mm512_set1_pd(16.0), _mm512_set1_pd(round_shift));
        f[h] = _mm512_fmadd_pd(n_shifted - round_shift, _mm512_set1_pd(-0.0625), e[h]);
        n[h] = int64s8(n_shifted);
    }
    __m256 result[H];
    for (int h = 0; h < H; ++h)
        result[h] = _mm512_maskz_cvtpd_ps(
            0xFF, times_power_of_two(
                      lookup16(exp2_j, n[h]) * _mm512_fmadd_pd(horner(exp2_poly, f[h]), f[h], _mm512_set1_pd(1.0)),
                      n[h] >> 4));
    const __m512 inf = _mm512_set1_ps(HUGE_VALF);
    for (int g = 0; g < G; ++g) {
        out[g] = _mm512_castpd_ps(_mm512_maskz_insertf64x4(
            0xFF, _mm512_castpd256_pd512(_mm256_castps_pd(result[2 * g])), _mm256_castps_pd(result[2 * g + 1]), 1));
        const __mmask16 regular = _mm512_cmp_ps_mask(x[g], _mm512_setzero_ps(), _CMP_GT_OQ) &
                                  _mm512_cmp_ps_mask(x[g], inf, _CMP_LT_OQ) &
                                  _mm512_cmp_ps_mask(_mm512_abs_ps(y[g]), inf, _CMP_LT_OQ);
        if (regular != 0xFFFF) [[unlikely]]
            out[g] = with_libm_lanes<float>(
                regular, out[g], [](float a, float b) { return std::pow(a, b); }, x[g], y[g]);
    }
}

/// pow of one vector of 16 floats (pow_f32 with G = 1), for the vectors that do not fill a
/// group and for block tails.
[[gnu::target("avx512f")]] inline __m512 pow_f32x16(__m512 x, __m512 y) noexcept {
    __m512 r[1];
    pow_f32<1>({x}, {y}, r);
    return r[0];
}

/// ln x as hi + lo: k ln2_hi + ln_c_hi + r - r^2/2 as hi, the rounding errors of its sums
/// with k ln2_lo + ln_c_lo + r^3 p(r) as lo. Within 2^-51.4 |r|^3 + 2^-104 |ln x|.
struct double_double {
    doubles8 hi, lo;
};
[[gnu::target("avx512f")]] inline double_double log_parts(const split_argument& s) noexcept {
    using namespace own_tables;
    const doubles8 w = _mm512_fmadd_pd(s.k, _mm512_set1_pd(ln2_hi), lookup16(ln_c_hi, s.interval));  // exact
    // w + r, with its rounding error: a fast two-sum, as w = 0 or |w| > 0.06 > |r|.
    const doubles8 sum = w + s.r;
    const doubles8 sum_error = (w - sum) + s.r;
    // - r^2/2, exact as a pair; |sum| > r^2/2, so a fast two-sum adds it.
    const doubles8 r2 = s.r * s.r;
    const doubles8 r2_error = _mm512_fmadd_pd(s.r, s.r, -r2);
    const doubles8 half_r2 = r2 * -0.5;
    const doubles8 hi = sum + half_r2;
    const doubles8 half_r2_error = half_r2 - (hi - sum);
    const doubles8 lo = _mm512_fmadd_pd(s.k, _mm512_set1_pd(ln2_lo), lookup16(ln_c_lo, s.interval)) + sum_error +
                        _mm512_fmadd_pd(r2_error, _mm512_set1_pd(-0.5), half_r2_error);
    return {hi, _mm512_fmadd_pd(r2 * s.r, estrin(log_poly, s.r), lo)};
}

/// Lanes of x that are positive, normal and finite.
[[gnu::target("avx512f")]] inline __mmask8 positive_normal(__m512d x) noexcept {
    return _mm512_cmp_pd_mask(x, _mm512_set1_pd(0x1p-1022), _CMP_GE_OQ) &
           _mm512_cmp_pd_mask(x, _mm512_set1_pd(HUGE_VAL), _CMP_LT_OQ);
}

/// log(x) of 8 doubles; lanes where x is not positive, normal and finite go to std::log, one
/// by one.
[[gnu::target("avx512f")]] inline __m512d log_f64x8(__m512d x) noexcept {
    const double_double l = log_parts(split(x));
    const doubles8 r = l.hi + l.lo;
    const __mmask8 regular = positive_normal(x);
    if (regular != 0xFF) [[unlikely]]
        return with_libm_lanes<double>(
            regular, r, [](double a) { return std::log(a); }, x);
    return r;
}

/// pow(x, y) of 8 doubles: e = y ln x as a double-double, then e^e = 2^(n/16) e^f with
/// 2^(j/16) as a double-double too. Lanes go to std::pow, one by one, where x is not positive,
/// normal and finite, y is not finite, |e| > 708 (results near or beyond the ends of the
/// normal range), or x is in [0x1.6ap-1, 0x1.6ap0) and |e| > 32: there |ln x| can be as small
/// as |r|, and the error of its lo part, times |y|, would pass 0.1 ulp.
[[gnu::target("avx512f")]] inline __m512d pow_f64x8(__m512d x, __m512d y) noexcept {
    using namespace own_tables;
    const split_argument s = split(x);
    const double_double l = log_parts(s);
    // ln x = log_hi + log_lo with |log_lo| <= half an ulp of log_hi (l.lo holds r^3 p(r), up to
    // 2^-15.2, which times y would push f beyond the polynomial's interval).
    const doubles8 log_hi = l.hi + l.lo;
    const doubles8 log_lo = (l.hi - log_hi) + l.lo;
    const doubles8 e = y * log_hi;
    const doubles8 e_lo = _mm512_fmadd_pd(y, log_lo, _mm512_fmadd_pd(y, log_hi, -e));
    // e = n ln2/16 + f, |f| <= ln2/32 (+ e_lo); e - n ln2_16_hi is exact.
    const doubles8 n_shifted = _mm512_fmadd_pd(e, _mm512_set1_pd(0x1.71547652b82fep+4), _mm512_set1_pd(round_shift));
    const doubles8 n_double = n_shifted - round_shift;
    const doubles8 f = _mm512_fmadd_pd(n_double, _mm512_set1_pd(-ln2_16_lo),
                                       _mm512_fmadd_pd(n_double, _mm512_set1_pd(-ln2_16_hi), e)) +
                       e_lo;
    const doubles8 expm1_f = _mm512_fmadd_pd(f * f, horner(exp_poly, f), f);
    const int64s8 n = int64s8(n_shifted);
    const doubles8 t = lookup16(exp2_j, n);
    const doubles8 mantissa = t + _mm512_fmadd_pd(t, expm1_f, lookup16(exp2_j_lo, n));
    const doubles8 r = times_power_of_two(mantissa, n >> 4);
    const doubles8 abs_e = _mm512_abs_pd(e);
    const __mmask8 k_zero = _mm512_cmp_pd_mask(s.k, _mm512_setzero_pd(), _CMP_EQ_OQ);
    const __mmask8 regular = positive_normal(x) &
                             _mm512_cmp_pd_mask(_mm512_abs_pd(y), _mm512_set1_pd(HUGE_VAL), _CMP_LT_OQ) &
                             _mm512_cmp_pd_mask(abs_e, _mm512_set1_pd(708.0), _CMP_LE_OQ) &
                             ~(k_zero & _mm512_cmp_pd_mask(abs_e, _mm512_set1_pd(32.0), _CMP_GT_OQ));
    if (regular != 0xFF) [[unlikely]]
        return with_libm_lanes<double>(
            regular, r, [](double a, double b) { return std::pow(a, b); }, x, y);
    return r;
}

}  // namespace bsx::detail::vmath

#endif
