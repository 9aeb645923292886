// bsx/algorithm/gemm.hpp: the matrix product under matmul, dot, inner and einsum, C = A B
// for row-major matrices with any row strides. With BSX_HAVE_BLAS, float and double go to
// cblas_sgemm/cblas_dgemm; every other case runs bsx's own kernel: packed, cache-blocked,
// a register-tiled micro-kernel, parallel over blocks of C.
#pragma once

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>

#include "../config.hpp"
#include "../eval/parallel.hpp"
#include "../fwd.hpp"

#ifdef BSX_HAVE_BLAS
#include <cblas.h>
#endif

// The own kernel's multiply-adds may be fused (one rounding instead of two), as every BLAS
// does; the order of the additions, and so the result, never depends on the thread count.
#if defined(__clang__)
#define BSX_GEMM_CONTRACT_FUNCTION
#define BSX_GEMM_CONTRACT_BODY _Pragma("clang fp contract(fast)")
#elif defined(__GNUC__)
#define BSX_GEMM_CONTRACT_FUNCTION [[gnu::optimize("fp-contract=fast")]]
#define BSX_GEMM_CONTRACT_BODY
#else
#define BSX_GEMM_CONTRACT_FUNCTION
#define BSX_GEMM_CONTRACT_BODY
#endif

namespace bsx::detail {

/// The widest vector register the compiler may use in this translation unit.
#if defined(__AVX512F__)
inline constexpr std::size_t gemm_vector_bytes = 64;
#elif defined(__AVX__)
inline constexpr std::size_t gemm_vector_bytes = 32;
#else
inline constexpr std::size_t gemm_vector_bytes = 16;
#endif

/// The types the own kernel computes in: integers as their unsigned twins, so that
/// products and sums wrap as bsx's integer arithmetic does (same bits as signed).
template <class T>
struct gemm_compute {
    using type = T;
};
template <class T>
    requires std::is_integral_v<T>
struct gemm_compute<T> {
    using type = std::make_unsigned_t<T>;
};
template <class T>
using gemm_compute_t = typename gemm_compute<T>::type;

/// The element types a product takes: arithmetic, not bool, no wider than a vector lane.
template <class T>
concept gemm_element = std::is_arithmetic_v<T> && !std::is_same_v<T, bool> && sizeof(T) <= 8;

/// The register tile (mr rows by nr columns of C, two vectors wide) and the cache blocks:
/// a kc x nr sliver of B is reused from L1 across a block of mc rows of A kept in L2.
template <class T>
struct gemm_blocking {
    static constexpr index_t lanes = index_t(gemm_vector_bytes / sizeof(T));
    static constexpr index_t mr = 6;
    static constexpr index_t nr = 2 * lanes;
    static constexpr index_t kc = 256;
    static constexpr index_t mc = 96;
    static constexpr index_t nc = 4096 / nr * nr;
};

template <class T>
struct gemm_vector {
    using type [[gnu::vector_size(gemm_vector_bytes)]] = T;
};

/// C[0:m, 0:n] = (or +=) the product of a packed mr x kc sliver of A and a packed kc x nr
/// sliver of B. Edge tiles compute the full tile and store the part that is there.
template <class T>
BSX_GEMM_CONTRACT_FUNCTION void gemm_micro_kernel(index_t kc, const T* __restrict a, const T* __restrict b,
                                                  T* __restrict c, index_t ldc, index_t m, index_t n, bool accumulate) {
    BSX_GEMM_CONTRACT_BODY
    using B = gemm_blocking<T>;
    using V = typename gemm_vector<T>::type;
    constexpr index_t mr = B::mr, lanes = B::lanes;
    V acc[mr][2] = {};
    for (index_t k = 0; k < kc; ++k) {
        V b0, b1;
        std::memcpy(&b0, b + k * B::nr, sizeof(V));
        std::memcpy(&b1, b + k * B::nr + lanes, sizeof(V));
        for (index_t i = 0; i < mr; ++i) {
            const T ai = a[k * mr + i];
            acc[i][0] += ai * b0;
            acc[i][1] += ai * b1;
        }
    }
    if (m == mr && n == B::nr) {
        for (index_t i = 0; i < mr; ++i)
            for (index_t v = 0; v < 2; ++v) {
                T* at = c + i * ldc + v * lanes;
                V sum = acc[i][v];
                if (accumulate) {
                    V old;
                    std::memcpy(&old, at, sizeof(V));
                    sum = old + sum;
                }
                std::memcpy(at, &sum, sizeof(V));
            }
        return;
    }
    T tile[mr][B::nr];
    std::memcpy(tile, acc, sizeof(tile));
    for (index_t i = 0; i < m; ++i)
        for (index_t j = 0; j < n; ++j) c[i * ldc + j] = accumulate ? T(c[i * ldc + j] + tile[i][j]) : tile[i][j];
}

/// Rows [0, m) and columns [0, k) of A (row stride lda) as mr-row slivers, k-major within
/// each, the rows past m as zeros.
template <class T>
void gemm_pack_a(const T* a, index_t lda, index_t m, index_t k, T* out) {
    constexpr index_t mr = gemm_blocking<T>::mr;
    for (index_t r = 0; r < m; r += mr) {
        const index_t rows = std::min(mr, m - r);
        for (index_t p = 0; p < k; ++p) {
            for (index_t i = 0; i < rows; ++i) out[p * mr + i] = a[(r + i) * lda + p];
            for (index_t i = rows; i < mr; ++i) out[p * mr + i] = T(0);
        }
        out += k * mr;
    }
}

/// Rows [0, k) and columns [0, n) of B (row stride ldb) as nr-column slivers, k-major
/// within each, the columns past n as zeros.
template <class T>
void gemm_pack_b(const T* b, index_t ldb, index_t k, index_t n, T* out) {
    constexpr index_t nr = gemm_blocking<T>::nr;
    for (index_t c = 0; c < n; c += nr) {
        const index_t cols = std::min(nr, n - c);
        for (index_t p = 0; p < k; ++p) {
            std::copy_n(b + p * ldb + c, cols, out + p * nr);
            std::fill_n(out + p * nr + cols, nr - cols, T(0));
        }
        out += k * nr;
    }
}

/// The own kernel on one thread: C (m x n, row stride ldc) = A (m x k) B (k x n). Every
/// element of C sums its k products in the same order (kc blocks one after another, each
/// from its first k), whatever part of C a call computes.
template <class T>
void gemm_serial(index_t m, index_t n, index_t k, const T* a, index_t lda, const T* b, index_t ldb, T* c, index_t ldc) {
    using B = gemm_blocking<T>;
    if (k == 0) {
        for (index_t i = 0; i < m; ++i) std::fill_n(c + i * ldc, n, T(0));
        return;
    }
    const index_t kc_max = std::min(B::kc, k);
    const index_t mc_max = std::min(B::mc, (m + B::mr - 1) / B::mr * B::mr);
    const index_t nc_max = std::min(B::nc, (n + B::nr - 1) / B::nr * B::nr);
    constexpr std::size_t align = 64 / sizeof(T);
    const auto buffer = std::make_unique<T[]>(std::size_t(kc_max * (mc_max + nc_max)) + 2 * align);
    T* packed_b = buffer.get() + (align - reinterpret_cast<std::uintptr_t>(buffer.get()) / sizeof(T) % align) % align;
    T* packed_a = packed_b + (kc_max * nc_max + align - 1) / align * align;
    for (index_t jc = 0; jc < n; jc += B::nc) {
        const index_t nc = std::min(B::nc, n - jc);
        for (index_t pc = 0; pc < k; pc += B::kc) {
            const index_t kc = std::min(B::kc, k - pc);
            gemm_pack_b(b + pc * ldb + jc, ldb, kc, nc, packed_b);
            for (index_t ic = 0; ic < m; ic += B::mc) {
                const index_t mc = std::min(B::mc, m - ic);
                gemm_pack_a(a + ic * lda + pc, lda, mc, kc, packed_a);
                for (index_t jr = 0; jr < nc; jr += B::nr)
                    for (index_t ir = 0; ir < mc; ir += B::mr)
                        gemm_micro_kernel(kc, packed_a + ir * kc, packed_b + jr * kc, c + (ic + ir) * ldc + jc + jr,
                                          ldc, std::min(B::mr, mc - ir), std::min(B::nr, nc - jr), pc > 0);
            }
        }
    }
}

/// The own kernel: C = A B on up to `threads` threads, each computing a band of C's rows
/// (or columns, when C is wide), bounds on tile multiples. The same bits at any thread count.
template <class T>
void gemm_own(index_t m, index_t n, index_t k, const T* a, index_t lda, const T* b, index_t ldb, T* c, index_t ldc,
              int threads) {
    using U = gemm_compute_t<T>;
    using B = gemm_blocking<U>;
    const auto ua = reinterpret_cast<const U*>(a);
    const auto ub = reinterpret_cast<const U*>(b);
    const auto uc = reinterpret_cast<U*>(c);
    if (m == 0 || n == 0) return;
    const bool by_rows = m / B::mr >= n / B::nr;
    const index_t tiles = by_rows ? (m + B::mr - 1) / B::mr : (n + B::nr - 1) / B::nr;
    threads = int(std::min<index_t>(threads, tiles));
    parallel_for(tiles, threads, 1, [&](index_t first, index_t last, const first_exception*) {
        if (by_rows) {
            const index_t r0 = first * B::mr, r1 = std::min(m, last * B::mr);
            gemm_serial<U>(r1 - r0, n, k, ua + r0 * lda, lda, ub, ldb, uc + r0 * ldc, ldc);
        } else {
            const index_t c0 = first * B::nr, c1 = std::min(n, last * B::nr);
            gemm_serial<U>(m, c1 - c0, k, ua, lda, ub + c0, ldb, uc + c0, ldc);
        }
    });
}

/// The element types the BLAS multiplies.
template <class T>
constexpr bool gemm_blas_type = std::is_same_v<T, float> || std::is_same_v<T, double>;

/// Whether this translation unit sends float and double products to the BLAS.
#ifdef BSX_HAVE_BLAS
inline constexpr bool uses_blas = true;
#else
inline constexpr bool uses_blas = false;
#endif

/// C = A B: the BLAS where there is one for T and the sizes fit its int, else the own kernel.
template <class T>
void gemm(index_t m, index_t n, index_t k, const T* a, index_t lda, const T* b, index_t ldb, T* c, index_t ldc,
          int threads) {
#ifdef BSX_HAVE_BLAS
    if constexpr (gemm_blas_type<T>) {
        const index_t largest = std::max({m, n, k, lda, ldb, ldc});
        if (m > 0 && n > 0 && k > 0 && largest <= INT_MAX) {
            const int im = int(m), in = int(n), ik = int(k);
            const int ia = int(std::max<index_t>(lda, k)), ib = int(std::max<index_t>(ldb, n)),
                      ic = int(std::max<index_t>(ldc, n));
            if constexpr (std::is_same_v<T, double>)
                cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, im, in, ik, 1.0, a, ia, b, ib, 0.0, c, ic);
            else
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, im, in, ik, 1.0f, a, ia, b, ib, 0.0f, c, ic);
            return;
        }
    }
#endif
    gemm_own(m, n, k, a, lda, b, ldb, c, ldc, threads);
}

}  // namespace bsx::detail

#undef BSX_GEMM_CONTRACT_FUNCTION
#undef BSX_GEMM_CONTRACT_BODY
