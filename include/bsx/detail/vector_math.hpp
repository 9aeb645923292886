// bsx/detail/vector_math.hpp: the math functions (exp, sin, pow, sqrt, ...) applied to a
// block of float or double elements at once. With SLEEF (BSX_HAVE_SLEEF, set by CMake)
// each block runs through SLEEF's vector functions for the widest instruction set the CPU
// has (AVX-512F, AVX2+FMA or SSE2, chosen once at run time, so default compiler flags
// suffice); with glibc's libmvec (BSX_HAVE_MVEC) beside SLEEF, the functions where libmvec
// is the faster (expm1, log1p, log10, cbrt, cosh, pow; sinh and tanh of floats) through
// libmvec's, and without SLEEF every function through libmvec's (it has them all); with
// neither, through scalar libm. pow and double log come from bsx's own kernels where the
// CPU has AVX-512 (own_vector_math.hpp).
// sqrt always uses the CPU's vector square root: it is correctly rounded, so it needs no
// library and equals std::sqrt bit for bit.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "../config.hpp"
#include "own_vector_math.hpp"

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define BSX_VECTOR_MATH_X86 1
#include <immintrin.h>
#else
#define BSX_VECTOR_MATH_X86 0
#endif

#if defined(BSX_HAVE_SLEEF) && !BSX_VECTOR_MATH_X86
#undef BSX_HAVE_SLEEF  // only SLEEF's x86 entry points are wired up; elsewhere libm
#endif
#if defined(BSX_HAVE_MVEC) && !(BSX_VECTOR_MATH_X86 && defined(__GLIBC__) && defined(__LP64__))
#undef BSX_HAVE_MVEC  // libmvec: glibc on x86-64 only
#endif
#if defined(BSX_HAVE_MVEC)
#if !__GLIBC_PREREQ(2, 35)
#undef BSX_HAVE_MVEC  // expm1, log1p, log10, cbrt, cosh, sinh and tanh joined libmvec in glibc 2.35
#endif
#endif
#if defined(BSX_HAVE_SLEEF)
#include <sleef.h>
#endif

namespace bsx::detail::vmath {

/// Where the math functions come from in this build.
#if defined(BSX_HAVE_SLEEF)
inline constexpr bool uses_sleef = true;
#else
inline constexpr bool uses_sleef = false;
#endif
#if defined(BSX_HAVE_MVEC)
inline constexpr bool uses_mvec = true;
#else
inline constexpr bool uses_mvec = false;
#endif

template <class T>
inline constexpr bool vector_element = std::is_same_v<T, float> || std::is_same_v<T, double>;

/// What every function's struct holds besides its kernels: the bound bsx states, and
/// libm's function of the same name (its return type in the signature, so that
/// `requires { K::libm(x, y); }` tells functions of two arguments from those of one).
#define BSX_MATH_FUNCTION_HEAD(NAME, BOUND)               \
    static constexpr double max_ulp = BOUND;              \
    template <class... A>                                 \
    static auto libm(A... a)->decltype(std::NAME(a...)) { \
        return std::NAME(a...);                           \
    }

#if BSX_VECTOR_MATH_X86

enum class isa { sse2, avx2, avx512 };

/// The widest instruction set this CPU runs, found once per process: every block of every
/// expression then takes the same kernels, so an element's bits never depend on its path.
inline isa host_isa() noexcept {
    static const isa best = [] {
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx512f")) return isa::avx512;
        if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return isa::avx2;
        return isa::sse2;
    }();
    return best;
}

// A block's tail, its last n < lanes elements, as one vector whose other lanes hold 1 (an
// ordinary argument of every function, so that it takes no lane of a kernel to its slow
// path, nor raises a floating-point flag), and the first n lanes of a result written back.
// AVX-512 and AVX2 load and store the n elements under a mask, so a block of rows of 100
// does not pay a trip through a stack buffer per row; SSE2 goes through the buffer.
[[gnu::target("avx512f")]] inline __m512d load_part(const double* p, index_t n, __m512d) noexcept {
    return _mm512_mask_loadu_pd(_mm512_set1_pd(1), __mmask8((1u << n) - 1), p);
}
[[gnu::target("avx512f")]] inline __m512 load_part(const float* p, index_t n, __m512) noexcept {
    return _mm512_mask_loadu_ps(_mm512_set1_ps(1), __mmask16((1u << n) - 1), p);
}
[[gnu::target("avx512f")]] inline void store_part(double* p, index_t n, __m512d r) noexcept {
    _mm512_mask_storeu_pd(p, __mmask8((1u << n) - 1), r);
}
[[gnu::target("avx512f")]] inline void store_part(float* p, index_t n, __m512 r) noexcept {
    _mm512_mask_storeu_ps(p, __mmask16((1u << n) - 1), r);
}
[[gnu::target("avx2,fma")]] inline __m256i first_lanes_64(index_t n) noexcept {
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_setr_epi64x(0, 1, 2, 3));
}
[[gnu::target("avx2,fma")]] inline __m256i first_lanes_32(index_t n) noexcept {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(int(n)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
[[gnu::target("avx2,fma")]] inline __m256d load_part(const double* p, index_t n, __m256d) noexcept {
    const __m256i m = first_lanes_64(n);
    return _mm256_blendv_pd(_mm256_set1_pd(1), _mm256_maskload_pd(p, m), _mm256_castsi256_pd(m));
}
[[gnu::target("avx2,fma")]] inline __m256 load_part(const float* p, index_t n, __m256) noexcept {
    const __m256i m = first_lanes_32(n);
    return _mm256_blendv_ps(_mm256_set1_ps(1), _mm256_maskload_ps(p, m), _mm256_castsi256_ps(m));
}
[[gnu::target("avx2,fma")]] inline void store_part(double* p, index_t n, __m256d r) noexcept {
    _mm256_maskstore_pd(p, first_lanes_64(n), r);
}
[[gnu::target("avx2,fma")]] inline void store_part(float* p, index_t n, __m256 r) noexcept {
    _mm256_maskstore_ps(p, first_lanes_32(n), r);
}
template <class V, class T>
V load_part(const T* p, index_t n, V) noexcept {
    constexpr index_t lanes = sizeof(V) / sizeof(T);
    T pad[lanes];
    std::fill_n(pad, lanes, T(1));
    std::memcpy(pad, p, std::size_t(n) * sizeof(T));
    V v;
    std::memcpy(&v, pad, sizeof v);
    return v;
}
template <class T, class V>
void store_part(T* p, index_t n, V r) noexcept {
    T lane[sizeof(V) / sizeof(T)];
    std::memcpy(lane, &r, sizeof r);
    std::memcpy(p, lane, std::size_t(n) * sizeof(T));
}

// Whether some lane of v is infinite or NaN (v - v is then NaN, else 0), by one compare.
[[gnu::target("avx512f")]] inline bool any_not_finite(__m512d v) noexcept {
    return _mm512_cmp_pd_mask(_mm512_sub_pd(v, v), _mm512_setzero_pd(), _CMP_NEQ_UQ) != 0;
}
[[gnu::target("avx512f")]] inline bool any_not_finite(__m512 v) noexcept {
    return _mm512_cmp_ps_mask(_mm512_sub_ps(v, v), _mm512_setzero_ps(), _CMP_NEQ_UQ) != 0;
}
[[gnu::target("avx2,fma")]] inline bool any_not_finite(__m256d v) noexcept {
    return _mm256_movemask_pd(_mm256_cmp_pd(_mm256_sub_pd(v, v), _mm256_setzero_pd(), _CMP_NEQ_UQ)) != 0;
}
[[gnu::target("avx2,fma")]] inline bool any_not_finite(__m256 v) noexcept {
    return _mm256_movemask_ps(_mm256_cmp_ps(_mm256_sub_ps(v, v), _mm256_setzero_ps(), _CMP_NEQ_UQ)) != 0;
}
inline bool any_not_finite(__m128d v) noexcept {
    return _mm_movemask_pd(_mm_cmpneq_pd(_mm_sub_pd(v, v), _mm_setzero_pd())) != 0;
}
inline bool any_not_finite(__m128 v) noexcept {
    return _mm_movemask_ps(_mm_cmpneq_ps(_mm_sub_ps(v, v), _mm_setzero_ps())) != 0;
}

// One block kernel per instruction set and element type: the same body compiled for that
// target (a target attribute cannot depend on a template argument, and vector types lose
// their attributes as template arguments, hence the macro). The tail is padded into one
// more vector (load_part), never computed by other code, so an element's value does not
// depend on where in a block it falls. The output must not overlap the inputs.
//
// CheckOverflow: the kernel returns whether some result may be infinite although its
// arguments are finite (see redo_early_overflows): it adds every result vector into one
// vector, which is not finite for good once a result is infinite or NaN (so a block with
// NaN results, or with finite results whose sum overflows, is scanned too, needlessly but
// correctly). That costs an add per vector, where a mask of the lanes (kmov after the call)
// or a second pass over the results costs far more (doc/design.md, "Vector math").
// `stream`: whole vectors are written
// with streaming stores (out must then be aligned to 64 bytes), so a large destination
// is not read first, and the stores drain while the next vectors compute.
#define BSX_VECTOR_MATH_BLOCK(ISA, TARGET, T, V, STREAM)                                                        \
    template <int Arity, auto F, bool CheckOverflow>                                                            \
    [[gnu::target(TARGET)]] bool block_##ISA(T* out, index_t n, const T* x, const T* y, bool stream) noexcept { \
        constexpr index_t lanes = sizeof(V) / sizeof(T);                                                        \
        V a, b, r, not_finite{};                                                                                \
        index_t i = 0;                                                                                          \
        for (; i + lanes <= n; i += lanes) {                                                                    \
            std::memcpy(&a, x + i, sizeof a);                                                                   \
            if constexpr (Arity == 2) {                                                                         \
                std::memcpy(&b, y + i, sizeof b);                                                               \
                r = F(a, b);                                                                                    \
            } else {                                                                                            \
                r = F(a);                                                                                       \
            }                                                                                                   \
            if constexpr (CheckOverflow) not_finite += r;                                                       \
            if (stream)                                                                                         \
                STREAM(out + i, r);                                                                             \
            else                                                                                                \
                std::memcpy(out + i, &r, sizeof r);                                                             \
        }                                                                                                       \
        if (i < n) {                                                                                            \
            a = load_part(x + i, n - i, V{});                                                                   \
            if constexpr (Arity == 2) {                                                                         \
                b = load_part(y + i, n - i, V{});                                                               \
                r = F(a, b);                                                                                    \
            } else {                                                                                            \
                r = F(a);                                                                                       \
            }                                                                                                   \
            if constexpr (CheckOverflow) not_finite += r;                                                       \
            store_part(out + i, n - i, r);                                                                      \
        }                                                                                                       \
        if constexpr (CheckOverflow)                                                                            \
            return any_not_finite(not_finite);                                                                  \
        else                                                                                                    \
            return false;                                                                                       \
    }
BSX_VECTOR_MATH_BLOCK(avx512, "avx512f", double, __m512d, _mm512_stream_pd)
BSX_VECTOR_MATH_BLOCK(avx512, "avx512f", float, __m512, _mm512_stream_ps)
BSX_VECTOR_MATH_BLOCK(avx2, "avx2,fma", double, __m256d, _mm256_stream_pd)
BSX_VECTOR_MATH_BLOCK(avx2, "avx2,fma", float, __m256, _mm256_stream_ps)
BSX_VECTOR_MATH_BLOCK(sse2, "sse2", double, __m128d, _mm_stream_pd)
BSX_VECTOR_MATH_BLOCK(sse2, "sse2", float, __m128, _mm_stream_ps)
#undef BSX_VECTOR_MATH_BLOCK

/// The widest library entry point this translation unit can call. clang (14) passes vectors
/// wider than the translation unit's own target in memory, where the library expects
/// registers, so under clang only the widths the code is compiled for are called.
#if !defined(__clang__) || defined(__AVX512F__)
#define BSX_VECTOR_MATH_LIBRARY_ISA isa::avx512
#elif defined(__AVX2__) && defined(__FMA__)
#define BSX_VECTOR_MATH_LIBRARY_ISA isa::avx2
#else
#define BSX_VECTOR_MATH_LIBRARY_ISA isa::sse2
#endif

/// Runs the kernel of the host's instruction set on n elements (of x, and y if Arity is 2);
/// `Library`: the kernels call an external library, rather than inline instructions.
/// Returns what the kernel returns (CheckOverflow). Out of line: one copy of the three
/// kernels per function and type, however many expressions call it (a call per block).
template <int Arity, bool Library, bool CheckOverflow, auto F512, auto F256, auto F128, class T>
[[gnu::noinline]] bool dispatch(T* out, index_t n, const T* x, const T* y, bool stream) noexcept {
    const isa target = Library ? std::min(host_isa(), BSX_VECTOR_MATH_LIBRARY_ISA) : host_isa();
    switch (target) {
        case isa::avx512:
            return block_avx512<Arity, F512, CheckOverflow>(out, n, x, y, stream);
        case isa::avx2:
            return block_avx2<Arity, F256, CheckOverflow>(out, n, x, y, stream);
        case isa::sse2:
            break;
    }
    return block_sse2<Arity, F128, CheckOverflow>(out, n, x, y, stream);
}
#undef BSX_VECTOR_MATH_LIBRARY_ISA

// The square roots (maskz: GCC 12 warns about the undefined source of the plain form).
[[gnu::target("avx512f")]] inline __m512d sqrt_pd8(__m512d v) noexcept { return _mm512_maskz_sqrt_pd(0xFF, v); }
[[gnu::target("avx512f")]] inline __m512 sqrt_ps16(__m512 v) noexcept { return _mm512_maskz_sqrt_ps(0xFFFF, v); }
[[gnu::target("avx2,fma")]] inline __m256d sqrt_pd4(__m256d v) noexcept { return _mm256_sqrt_pd(v); }
[[gnu::target("avx2,fma")]] inline __m256 sqrt_ps8(__m256 v) noexcept { return _mm256_sqrt_ps(v); }
inline __m128d sqrt_pd2(__m128d v) noexcept { return _mm_sqrt_pd(v); }
inline __m128 sqrt_ps4(__m128 v) noexcept { return _mm_sqrt_ps(v); }

#if defined(__AVX__)
/// The translation unit's own widest vector of T, its square root and its streaming store
/// (sqrt::run_fused): inline instructions of the unit's own target, so that the code that
/// computes the arguments inlines into the same loop. Only for units with vectors of 256
/// bits or more: at 128 bits the fused loop is slower than a tile and the host's kernel.
template <class T>
struct own_roots;
#define BSX_OWN_ROOTS(T, V, ROOT, STREAM)                               \
    template <>                                                         \
    struct own_roots<T> {                                               \
        using vector = V;                                               \
        static vector root(vector v) noexcept { return ROOT; }          \
        static void stream(T* to, vector v) noexcept { STREAM(to, v); } \
    };
#if defined(__AVX512F__)
BSX_OWN_ROOTS(double, __m512d, sqrt_pd8(v), _mm512_stream_pd)
BSX_OWN_ROOTS(float, __m512, sqrt_ps16(v), _mm512_stream_ps)
#else
BSX_OWN_ROOTS(double, __m256d, _mm256_sqrt_pd(v), _mm256_stream_pd)
BSX_OWN_ROOTS(float, __m256, _mm256_sqrt_ps(v), _mm256_stream_ps)
#endif
#undef BSX_OWN_ROOTS
#endif

struct sqrt {
    BSX_MATH_FUNCTION_HEAD(sqrt, 0.5)  // correctly rounded (IEEE 754)
    static void run(double* out, index_t n, const double* x, const double*, bool stream = false) noexcept {
        dispatch<1, false, false, sqrt_pd8, sqrt_pd4, sqrt_pd2>(out, n, x, x, stream);
    }
    static void run(float* out, index_t n, const float* x, const float*, bool stream = false) noexcept {
        dispatch<1, false, false, sqrt_ps16, sqrt_ps8, sqrt_ps4>(out, n, x, x, stream);
    }
#if defined(__AVX__)
    /// out[i] = sqrt(at(i)) for i < n, each vector of arguments computed and rooted at once,
    /// with no tile between: an argument computed into a tile and read back costs a store
    /// and a load per element beside the root, and strided memory gathered into one first
    /// stalls on its loads with no root to overlap them. Vectors are the translation unit's
    /// own (own_roots), perhaps narrower than dispatch's; a square root is correctly
    /// rounded, so the bits are those of run() at any width. `at` must not throw (a simd
    /// loop).
    template <class T, class At>
    static void run_fused(T* out, index_t n, const At& at, bool stream) noexcept {
        using V = typename own_roots<T>::vector;
        constexpr index_t lanes = sizeof(V) / sizeof(T);
        const auto root = [&](index_t i, index_t count) {
            alignas(64) T lane[lanes] = {};  // the tail's unused lanes hold 0
            BSX_SIMD_LOOP
            for (index_t l = 0; l < count; ++l) lane[l] = at(i + l);
            V r;
            std::memcpy(&r, lane, sizeof r);
            return own_roots<T>::root(r);
        };
        index_t i = 0;
        for (; i + lanes <= n; i += lanes) {
            const V r = root(i, lanes);
            if (stream)
                own_roots<T>::stream(out + i, r);
            else
                std::memcpy(out + i, &r, sizeof r);
        }
        if (i < n) {
            const V r = root(i, n - i);
            alignas(64) T lane[lanes];
            std::memcpy(lane, &r, sizeof r);
            std::memcpy(out + i, lane, std::size_t(n - i) * sizeof(T));
        }
    }
#endif
};

#endif  // BSX_VECTOR_MATH_X86

#if defined(BSX_HAVE_SLEEF)

// sleef.h declares the AVX2 and AVX-512 entry points only when the translation unit is
// compiled for them; otherwise bsx declares them itself, for calls from functions compiled
// for that target.
#if defined(__AVX512F__)
#define BSX_SLEEF_DECLARE_AVX512(RESULT, NAME, ARGS)
#else
#define BSX_SLEEF_DECLARE_AVX512(RESULT, NAME, ARGS) extern "C" [[gnu::target("avx512f")]] RESULT NAME ARGS;
#endif
#if defined(__AVX__)
#define BSX_SLEEF_DECLARE_AVX2(RESULT, NAME, ARGS)
#else
#define BSX_SLEEF_DECLARE_AVX2(RESULT, NAME, ARGS) extern "C" [[gnu::target("avx2,fma")]] RESULT NAME ARGS;
#endif

/// SLEEF overflows to infinity a little early for some results near the largest finite
/// value (exp at log(max), pow(max, 1), sinh and cosh between log(max) and log(2 max),
/// float log1p above 1e38). Elements with an infinite result from finite arguments, which
/// are rare (the kernel says whether a block has any), are recomputed by libm: a rule on
/// the element's value alone, so its bits still do not depend on where it falls.
template <class K, class T>
void redo_early_overflows(T* out, index_t n, const T* x, const T* y) noexcept {
    constexpr T inf = std::numeric_limits<T>::infinity();
    for (index_t i = 0; i < n; ++i) {
        if (std::fabs(out[i]) != inf || std::fabs(x[i]) == inf || std::fabs(y[i]) == inf) continue;
        if constexpr (requires { K::libm(x[i], y[i]); })
            out[i] = K::libm(x[i], y[i]);
        else
            out[i] = K::libm(x[i]);
    }
}

/// A function of one argument from SLEEF at accuracy ULP (u10: 1.0 ulp, u35: 3.5 ulp), with
/// the bound bsx states; FIX: whether its early overflows are redone.
#define BSX_SLEEF_UNARY(NAME, ULP, BOUND, FIX)                                                                   \
    BSX_SLEEF_DECLARE_AVX512(__m512d, Sleef_finz_##NAME##d8_##ULP##avx512f, (__m512d))                           \
    BSX_SLEEF_DECLARE_AVX512(__m512, Sleef_finz_##NAME##f16_##ULP##avx512f, (__m512))                            \
    BSX_SLEEF_DECLARE_AVX2(__m256d, Sleef_finz_##NAME##d4_##ULP##avx2, (__m256d))                                \
    BSX_SLEEF_DECLARE_AVX2(__m256, Sleef_finz_##NAME##f8_##ULP##avx2, (__m256))                                  \
    struct NAME {                                                                                                \
        BSX_MATH_FUNCTION_HEAD(NAME, BOUND)                                                                      \
        static void run(double* out, index_t n, const double* x, const double*, bool stream = false) noexcept {  \
            if (dispatch<1, true, FIX, Sleef_finz_##NAME##d8_##ULP##avx512f, Sleef_finz_##NAME##d4_##ULP##avx2,  \
                         Sleef_cinz_##NAME##d2_##ULP##sse2>(out, n, x, x, stream))                               \
                redo_early_overflows<NAME>(out, n, x, x);                                                        \
        }                                                                                                        \
        static void run(float* out, index_t n, const float* x, const float*, bool stream = false) noexcept {     \
            if (dispatch<1, true, FIX, Sleef_finz_##NAME##f16_##ULP##avx512f, Sleef_finz_##NAME##f8_##ULP##avx2, \
                         Sleef_cinz_##NAME##f4_##ULP##sse2>(out, n, x, x, stream))                               \
                redo_early_overflows<NAME>(out, n, x, x);                                                        \
        }                                                                                                        \
    };
#define BSX_SLEEF_BINARY(NAME, ULP, BOUND, FIX)                                                                   \
    BSX_SLEEF_DECLARE_AVX512(__m512d, Sleef_finz_##NAME##d8_##ULP##avx512f, (__m512d, __m512d))                   \
    BSX_SLEEF_DECLARE_AVX512(__m512, Sleef_finz_##NAME##f16_##ULP##avx512f, (__m512, __m512))                     \
    BSX_SLEEF_DECLARE_AVX2(__m256d, Sleef_finz_##NAME##d4_##ULP##avx2, (__m256d, __m256d))                        \
    BSX_SLEEF_DECLARE_AVX2(__m256, Sleef_finz_##NAME##f8_##ULP##avx2, (__m256, __m256))                           \
    struct NAME {                                                                                                 \
        BSX_MATH_FUNCTION_HEAD(NAME, BOUND)                                                                       \
        static void run(double* out, index_t n, const double* x, const double* y, bool stream = false) noexcept { \
            if (dispatch<2, true, FIX, Sleef_finz_##NAME##d8_##ULP##avx512f, Sleef_finz_##NAME##d4_##ULP##avx2,   \
                         Sleef_cinz_##NAME##d2_##ULP##sse2>(out, n, x, y, stream))                                \
                redo_early_overflows<NAME>(out, n, x, y);                                                         \
        }                                                                                                         \
        static void run(float* out, index_t n, const float* x, const float* y, bool stream = false) noexcept {    \
            if (dispatch<2, true, FIX, Sleef_finz_##NAME##f16_##ULP##avx512f, Sleef_finz_##NAME##f8_##ULP##avx2,  \
                         Sleef_cinz_##NAME##f4_##ULP##sse2>(out, n, x, y, stream))                                \
                redo_early_overflows<NAME>(out, n, x, y);                                                         \
        }                                                                                                         \
    };

#elif defined(BSX_HAVE_MVEC)  // no SLEEF: every function of the table from libmvec, which has them all

#define BSX_SLEEF_UNARY(NAME, ULP, BOUND, FIX) BSX_MVEC_UNARY(NAME, ULP, BOUND, FIX)
#define BSX_SLEEF_BINARY(NAME, ULP, BOUND, FIX) BSX_MVEC_BINARY(NAME, ULP, BOUND, FIX)

#else  // scalar libm

/// A function of one or two arguments from libm, element by element.
#define BSX_LIBM_FUNCTION(NAME, BOUND)                                                      \
    struct NAME {                                                                           \
        BSX_MATH_FUNCTION_HEAD(NAME, BOUND)                                                 \
        template <class T>                                                                  \
        static void run(T* out, index_t n, const T* x, const T* y, bool = false) noexcept { \
            (void)y;                                                                        \
            for (index_t i = 0; i < n; ++i) {                                               \
                if constexpr (requires { std::NAME(x[i], y[i]); })                          \
                    out[i] = std::NAME(x[i], y[i]);                                         \
                else                                                                        \
                    out[i] = std::NAME(x[i]);                                               \
            }                                                                               \
        }                                                                                   \
    };
#define BSX_SLEEF_UNARY(NAME, ULP, BOUND, FIX) BSX_LIBM_FUNCTION(NAME, BOUND)
#define BSX_SLEEF_BINARY(NAME, ULP, BOUND, FIX) BSX_LIBM_FUNCTION(NAME, BOUND)
#if !BSX_VECTOR_MATH_X86
BSX_LIBM_FUNCTION(sqrt, 0.5)
#endif

#endif

#if defined(BSX_HAVE_MVEC)

/// glibc's libmvec: the x86-64 vector ABI's names (_ZGV, then b: SSE, d: AVX2, e: AVX-512,
/// N and the lanes, v per vector argument), the same functions as libm's, within 4 ulp
/// (glibc's stated bound). Its vector paths treat each lane alone, and lanes with special
/// arguments are recomputed by its scalar code, lane by lane, so an element's value still
/// depends on its own arguments only. That scalar code is libm's, whose worst cases thus
/// remain (double cos near 1e255 is 8 ulp off in glibc 2.36, in libm and libmvec alike):
/// the bound bsx states is the larger of mvec_max_ulp and the table's BOUND, which is
/// libm's without SLEEF (with SLEEF, libm's bounds of the functions taken from libmvec are
/// all within mvec_max_ulp).
inline constexpr double mvec_max_ulp = 4.0;
#define BSX_MVEC_FUNCTION(NAME, BOUND, ARITY, V, D512, D256, D128, F512, F256, F128)                                  \
    extern "C" [[gnu::target("avx512f")]] __m512d _ZGVeN8##V##_##NAME D512;                                           \
    extern "C" [[gnu::target("avx512f")]] __m512 _ZGVeN16##V##_##NAME##f F512;                                        \
    extern "C" [[gnu::target("avx2")]] __m256d _ZGVdN4##V##_##NAME D256;                                              \
    extern "C" [[gnu::target("avx2")]] __m256 _ZGVdN8##V##_##NAME##f F256;                                            \
    extern "C" __m128d _ZGVbN2##V##_##NAME D128;                                                                      \
    extern "C" __m128 _ZGVbN4##V##_##NAME##f F128;                                                                    \
    struct NAME {                                                                                                     \
        BSX_MATH_FUNCTION_HEAD(NAME, std::max(mvec_max_ulp, BOUND))                                                   \
        static void run(double* out, index_t n, const double* x, const double* y, bool stream = false) noexcept {     \
            dispatch<ARITY, true, false, _ZGVeN8##V##_##NAME, _ZGVdN4##V##_##NAME, _ZGVbN2##V##_##NAME>(out, n, x, y, \
                                                                                                        stream);      \
        }                                                                                                             \
        static void run(float* out, index_t n, const float* x, const float* y, bool stream = false) noexcept {        \
            dispatch<ARITY, true, false, _ZGVeN16##V##_##NAME##f, _ZGVdN8##V##_##NAME##f, _ZGVbN4##V##_##NAME##f>(    \
                out, n, x, y, stream);                                                                                \
        }                                                                                                             \
    };
#define BSX_MVEC_UNARY(NAME, ULP, BOUND, FIX) \
    BSX_MVEC_FUNCTION(NAME, BOUND, 1, v, (__m512d), (__m256d), (__m128d), (__m512), (__m256), (__m128))
#define BSX_MVEC_BINARY(NAME, ULP, BOUND, FIX)                                                        \
    BSX_MVEC_FUNCTION(NAME, BOUND, 2, vv, (__m512d, __m512d), (__m256d, __m256d), (__m128d, __m128d), \
                      (__m512, __m512), (__m256, __m256), (__m128, __m128))

#else  // as the others
#define BSX_MVEC_UNARY BSX_SLEEF_UNARY
#define BSX_MVEC_BINARY BSX_SLEEF_BINARY
#endif

#if BSX_VECTOR_MATH_X86
/// Kernel, which computes G vectors of 16 floats together (own_vector_math.hpp's
/// pow_f32<G>), on the whole groups at the front of n elements of x and y, into out
/// (streaming stores where `stream`, as in block_avx512); returns how many it computed.
template <int G, auto Kernel>
[[gnu::target("avx512f")]] index_t groups_avx512(float* out, index_t n, const float* x, const float* y,
                                                 bool stream) noexcept {
    constexpr index_t step = 16 * G;
    index_t i = 0;
    for (; i + step <= n; i += step) {
        __m512 a[G], b[G], r[G];
        std::memcpy(a, x + i, sizeof a);
        std::memcpy(b, y + i, sizeof b);
        Kernel(a, b, r);
        if (stream)
            for (int g = 0; g < G; ++g) _mm512_stream_ps(out + i + 16 * g, r[g]);
        else
            std::memcpy(out + i, r, sizeof r);
    }
    return i;
}

/// A function whose elements of type T come from bsx's own AVX-512 kernel `Own`
/// (own_vector_math.hpp, within OwnUlp) where the CPU has AVX-512, and otherwise, as do
/// those of the other type, from Library's (which may be another own_kernel_for): pow and
/// double log, where the libraries are far slower than NumPy's. Where Group > 1, OwnGroup
/// computes Group vectors together and Own the vectors left over.
template <class Library, class T, auto Own, const double& OwnUlp, int Group = 1, auto OwnGroup = nullptr>
struct own_kernel_for : Library {
    static constexpr double max_ulp = std::max(OwnUlp, Library::max_ulp);
    static constexpr int arity = requires { Library::libm(T(), T()); } ? 2 : 1;
    using Library::run;
    static void run(T* out, index_t n, const T* x, const T* y, bool stream = false) noexcept {
        if (host_isa() == isa::avx512) {
            index_t done = 0;
            if constexpr (Group > 1) done = groups_avx512<Group, OwnGroup>(out, n, x, y, stream);
            block_avx512<arity, Own, false>(out + done, n - done, x + done, y + done, stream);
        } else {
            Library::run(out, n, x, y, stream);
        }
    }
};
#endif

// The table: BSX_MVEC_ where libmvec is faster than SLEEF (expm1, log1p, cbrt, log10, cosh
// and pow; for floats, sinh and tanh, below; doc/design.md has the timings) and present,
// else SLEEF's faster 3.5-ulp variant where it has one, else its 1-ulp one; without SLEEF,
// every row is libmvec's where it is present. The last column: whether SLEEF's early
// overflows must be redone (redo_early_overflows). The bound is SLEEF's documented worst
// case, or without SLEEF what glibc 2.36's scalar libm reaches in test_vector_math (cos
// and tan of arguments near 1e300 are its worst cases); libmvec's is at least mvec_max_ulp
// (BSX_MVEC_FUNCTION), and its functions need no redo (the variant and last column apply
// when they come from SLEEF or libm). test_vector_math checks every bound.
#if defined(BSX_HAVE_SLEEF)
#define BSX_BOUND(SLEEF, LIBM) SLEEF
#else
#define BSX_BOUND(SLEEF, LIBM) LIBM
#endif
BSX_SLEEF_UNARY(exp, u10, BSX_BOUND(1.0, 1.0), true)
BSX_SLEEF_UNARY(exp2, u35, BSX_BOUND(3.5, 1.0), true)
BSX_MVEC_UNARY(expm1, u10, BSX_BOUND(1.0, 1.0), true)
#if BSX_VECTOR_MATH_X86
namespace from_library {
BSX_SLEEF_UNARY(log, u10, BSX_BOUND(1.0, 1.0), false)
}
struct log : own_kernel_for<from_library::log, double, log_f64x8, own_log_double_max_ulp> {};
#else
BSX_SLEEF_UNARY(log, u10, BSX_BOUND(1.0, 1.0), false)
#endif
BSX_SLEEF_UNARY(log2, u35, BSX_BOUND(3.5, 1.0), false)
BSX_MVEC_UNARY(log10, u10, BSX_BOUND(1.0, 2.0), false)
BSX_MVEC_UNARY(log1p, u10, BSX_BOUND(1.0, 1.0), true)
BSX_SLEEF_UNARY(sin, u35, BSX_BOUND(3.5, 1.0), false)
BSX_SLEEF_UNARY(cos, u35, BSX_BOUND(3.5, 8.0), false)
BSX_SLEEF_UNARY(tan, u35, BSX_BOUND(3.5, 15.0), false)
BSX_SLEEF_UNARY(asin, u35, BSX_BOUND(3.5, 1.0), false)
BSX_SLEEF_UNARY(acos, u35, BSX_BOUND(3.5, 1.0), false)
BSX_SLEEF_UNARY(atan, u35, BSX_BOUND(3.5, 1.0), false)
#if defined(BSX_HAVE_SLEEF) && defined(BSX_HAVE_MVEC)
// sinh and tanh: SLEEF's for doubles, libmvec's for floats, the faster of each
// (doc/design.md, "Vector math"). The stated bound is the larger of the two.
namespace from_sleef {
BSX_SLEEF_UNARY(sinh, u35, 3.5, true)
BSX_SLEEF_UNARY(tanh, u35, 3.5, false)
}  // namespace from_sleef
namespace from_mvec {
BSX_MVEC_UNARY(sinh, u35, mvec_max_ulp, false)
BSX_MVEC_UNARY(tanh, u35, mvec_max_ulp, false)
}  // namespace from_mvec
/// A function whose doubles come from Doubles' kernels and floats from Floats'.
template <class Doubles, class Floats>
struct by_element_type : Doubles {
    static constexpr double max_ulp = std::max(Doubles::max_ulp, Floats::max_ulp);
    using Doubles::run;
    static void run(float* out, index_t n, const float* x, const float* y, bool stream = false) noexcept {
        Floats::run(out, n, x, y, stream);
    }
};
struct sinh : by_element_type<from_sleef::sinh, from_mvec::sinh> {};
struct tanh : by_element_type<from_sleef::tanh, from_mvec::tanh> {};
#else
BSX_SLEEF_UNARY(sinh, u35, BSX_BOUND(3.5, 2.0), true)
BSX_SLEEF_UNARY(tanh, u35, BSX_BOUND(3.5, 3.0), false)
#endif
BSX_MVEC_UNARY(cosh, u35, BSX_BOUND(3.5, 2.0), true)
BSX_MVEC_UNARY(cbrt, u35, BSX_BOUND(3.5, 4.0), false)
BSX_SLEEF_BINARY(atan2, u35, BSX_BOUND(3.5, 1.5), false)
#if BSX_VECTOR_MATH_X86
namespace from_library {
BSX_MVEC_BINARY(pow, u10, BSX_BOUND(1.0, 1.0), true)
}
struct pow : own_kernel_for<own_kernel_for<from_library::pow, float, pow_f32x16, own_pow_float_max_ulp, 4, pow_f32<4>>,
                            double, pow_f64x8, own_pow_double_max_ulp> {};
#else
BSX_MVEC_BINARY(pow, u10, BSX_BOUND(1.0, 1.0), true)
#endif
BSX_SLEEF_BINARY(hypot, u35, BSX_BOUND(3.5, 1.0), true)
#undef BSX_BOUND
#undef BSX_SLEEF_UNARY
#undef BSX_SLEEF_BINARY
#undef BSX_MVEC_UNARY
#undef BSX_MVEC_BINARY
#undef BSX_MVEC_FUNCTION
#undef BSX_MATH_FUNCTION_HEAD
#undef BSX_SLEEF_DECLARE_AVX512
#undef BSX_SLEEF_DECLARE_AVX2
#undef BSX_LIBM_FUNCTION

/// The function K of one element, through the same kernels as a block, so the value of
/// `expr(i)` is the value assignment writes. Other element types (long double) use libm.
template <class K, class... A>
auto apply_one(A... a) noexcept {
    using R = decltype(K::libm(a...));
    if constexpr (vector_element<R>) {
        const R args[] = {static_cast<R>(a)...};
        R out;
        K::run(&out, 1, args, args + (sizeof...(A) - 1));
        return out;
    } else {
        return K::libm(a...);
    }
}

}  // namespace bsx::detail::vmath
