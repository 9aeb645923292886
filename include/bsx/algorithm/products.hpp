// bsx/algorithm/products.hpp: matrix and vector products, eager, as NumPy: matmul (the
// `@` operator: 1-D operands promoted, batch axes broadcast), dot, vdot, inner, outer.
// Operands are any expressions, evaluated once; the products run on gemm.hpp's kernel.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <span>
#include <utility>
#include <vector>

#include "../array.hpp"
#include "../detail/refusals.hpp"
#include "../eval/alias.hpp"
#include "../eval/parallel.hpp"
#include "../expr/ops.hpp"
#include "../factories.hpp"
#include "../reduce/reductions.hpp"
#include "../shape/broadcast_error.hpp"
#include "../shape/shape.hpp"
#include "../view/permute.hpp"
#include "../view/reshape.hpp"
#include "gemm.hpp"

namespace bsx {

namespace detail {

/// The element type of a product of X and Y: that of x * y.
template <class X, class Y>
using product_t = ops::detail::arithmetic_t<std::remove_cv_t<value_type_t<X>>, std::remove_cv_t<value_type_t<Y>>>;

/// Two expressions whose elements a product takes (arithmetic, not bool).
template <class X, class Y>
concept product_operands = expression<X> && expression<Y> && gemm_element<std::remove_cv_t<value_type_t<X>>> &&
                           gemm_element<std::remove_cv_t<value_type_t<Y>>>;

/// Which kernel a product runs: the BLAS where there is one (the default), or always
/// bsx's own (for benchmarks and tests of the own kernel).
enum class gemm_backend { any, own };

template <class T>
void run_gemm(gemm_backend backend, index_t m, index_t n, index_t k, const T* a, index_t lda, const T* b, index_t ldb,
              T* c, index_t ldc, int threads) {
    if (backend == gemm_backend::own)
        gemm_own(m, n, k, a, lda, b, ldb, c, ldc, threads);
    else
        gemm(m, n, k, a, lda, b, ldb, c, ldc, threads);
}

/// Threads for `count` products of m x k by k x n: by their multiply-adds.
inline int product_threads(index_t count, index_t m, index_t n, index_t k) {
    const double work = double(count) * double(m) * double(n) * double(std::max<index_t>(k, 1));
    return region_threads(work > double(index_t(1) << 62) ? index_t(1) << 62 : index_t(work));
}

/// `count` products C_q = A_q B_q, C_q (m x n) at c + q m n, A_q at a + a_offset[q], B_q
/// at b + b_offset[q], all contiguous. Many small ones run in parallel, one per task; large
/// ones one after another, each on all the threads (the BLAS's own threads with a BLAS).
template <class T>
void batched_gemm(gemm_backend backend, index_t count, index_t m, index_t n, index_t k, const T* a,
                  const index_t* a_offset, const T* b, const index_t* b_offset, T* c) {
    const int threads = product_threads(count, m, n, k);
#ifdef BSX_HAVE_BLAS
    const bool blas = backend == gemm_backend::any && gemm_blas_type<T>;
#else
    const bool blas = false;
#endif
    constexpr index_t small = 64 * 64 * 64;
    if (!blas && count >= threads && m * n * k <= small) {
        parallel_for(count, threads, 1, [&](index_t first, index_t last, const first_exception*) {
            for (index_t q = first; q < last; ++q)
                gemm_own(m, n, k, a + a_offset[q], k, b + b_offset[q], n, c + q * m * n, n, 1);
        });
        return;
    }
    for (index_t q = 0; q < count; ++q)
        run_gemm(backend, m, n, k, a + a_offset[q], k, b + b_offset[q], n, c + q * m * n, n, threads);
}

/// The rank of matmul's result for operands of ranks A and B (0: a scalar).
template <std::size_t A, std::size_t B>
inline constexpr std::size_t matmul_rank = A == 1 && B == 1 ? 0
                                           : A == 1         ? B - 1
                                           : B == 1         ? A - 1
                                                            : std::max(A, B);

template <class T, std::size_t R>
using product_result_t = std::conditional_t<R == 0, T, array<T, R>>;

[[noreturn, gnu::cold]] inline void throw_core_mismatch(const char* operation, std::span<const index_t> a,
                                                        std::span<const index_t> b, index_t ka, index_t kb) {
    throw std::invalid_argument("bsx: " + std::string(operation) + ": shapes " + format_shape(a) + " and " +
                                format_shape(b) + " do not match: the " + (a.size() == 1 ? "only" : "last") +
                                " axis of the first (" + std::to_string(ka) + ") differs from the " +
                                (b.size() == 1 ? "only" : "second-to-last") + " axis of the second (" +
                                std::to_string(kb) + ")");
}

/// The result of summing the last axis of an operand of shape sa against axis KB of one of
/// shape sb (dot: the second-to-last, inner: the last): its shape (sa's extents but the
/// last, then sb's but axis KB; checked for size), the product of sa's extents but the
/// last, and that of sb's extents before axis KB.
template <class T, std::size_t KB, std::size_t RA, std::size_t RB>
std::tuple<shape_t<RA + RB - 2>, index_t, index_t> contraction_of(const char* operation, const shape_t<RA>& sa,
                                                                  const shape_t<RB>& sb) {
    shape_t<RA + RB - 2> shape{};
    index_t p = 1, q = 1;
    for (std::size_t d = 0; d + 1 < RA; ++d) p *= shape[d] = sa[d];
    for (std::size_t d = 0; d < KB; ++d) q *= shape[RA - 1 + d] = sb[d];
    for (std::size_t d = KB + 1; d < RB; ++d) shape[RA - 2 + d] = sb[d];
    checked_size(operation, shape, sizeof(T));
    return {shape, p, q};
}

/// matmul on contiguous operands; the result's rank R drops the axes that 1-D operands
/// were promoted with. With `out` (R >= 1), the product goes there instead: straight in
/// where out shares no memory with a or b, else computed aside and copied (NumPy's out=).
template <class T, std::size_t R, std::size_t RA, std::size_t RB>
product_result_t<T, R> matmul_contiguous(const char* operation, gemm_backend backend, const array<T, RA>& a,
                                         const array<T, RB>& b, array<T, R>* out = nullptr) {
    const shape_t<RA> sa = a.shape();
    const shape_t<RB> sb = b.shape();
    const index_t m = RA == 1 ? 1 : sa[RA - 2], k = sa[RA - 1];
    const index_t kb = RB == 1 ? sb[0] : sb[RB - 2], n = RB == 1 ? 1 : sb[RB - 1];
    if (k != kb) throw_core_mismatch(operation, sa, sb, k, kb);
    // The batch axes, aligned from the right; an operand without one has extent 1 there.
    constexpr std::size_t BA = RA >= 2 ? RA - 2 : 0, BB = RB >= 2 ? RB - 2 : 0, NB = std::max(BA, BB);
    std::array<index_t, NB> batch{}, ea{}, eb{};
    for (std::size_t d = 0; d < NB; ++d) {
        ea[d] = d + BA >= NB ? sa[d + BA - NB] : 1;
        eb[d] = d + BB >= NB ? sb[d + BB - NB] : 1;
        if (ea[d] != eb[d] && ea[d] != 1 && eb[d] != 1)
            throw broadcast_error("bsx: " + std::string(operation) + ": the batch axes of shapes " + format_shape(sa) +
                                  " and " + format_shape(sb) + " do not broadcast: " + std::to_string(ea[d]) +
                                  " against " + std::to_string(eb[d]));
        batch[d] = ea[d] == 1 ? eb[d] : ea[d];
    }
    shape_t<R> shape{};
    for (std::size_t d = 0; d < NB; ++d) shape[d] = batch[d];
    if constexpr (RA >= 2) shape[NB] = m;
    if constexpr (RB >= 2) shape[R - 1] = n;
    checked_size(operation, shape, sizeof(T));
    if (out && out->shape() != shape)
        throw std::invalid_argument("bsx: " + std::string(operation) + ": out has shape " + format_shape(out->shape()) +
                                    ", the product of " + format_shape(sa) + " and " + format_shape(sb) + " has " +
                                    format_shape(shape));
    const auto apart = [&](const auto& operand) {
        return !memory_range(out->data(), shape, out->strides())
                    .overlaps(memory_range(operand.data(), operand.shape(), operand.strides()));
    };
    const bool direct = out && apart(a) && apart(b);
    array<T, R> result = direct ? array<T, R>() : array<T, R>(shape);
    T* const c = direct ? out->data() : result.data();
    // A batch of b alone (b 1-D or 2-D) is one product with the batch folded into m.
    index_t count = 1;
    for (index_t e : batch) count *= e;
    if constexpr (BB == 0) {
        const index_t zero = 0;
        batched_gemm(backend, 1, count * m, n, k, a.data(), &zero, b.data(), &zero, c);
    } else {
        std::vector<index_t> a_offset(static_cast<std::size_t>(count)), b_offset(static_cast<std::size_t>(count));
        std::array<index_t, NB> index{};
        for (index_t q = 0; q < count; ++q) {
            index_t oa = 0, ob = 0, wa = m * k, wb = k * n;
            for (std::size_t d = NB; d-- > 0;) {
                if (ea[d] != 1) oa += index[d] * wa;
                if (eb[d] != 1) ob += index[d] * wb;
                wa *= ea[d];
                wb *= eb[d];
            }
            a_offset[std::size_t(q)] = oa;
            b_offset[std::size_t(q)] = ob;
            for (std::size_t d = NB; d-- > 0;)
                if (++index[d] < batch[d])
                    break;
                else
                    index[d] = 0;
        }
        batched_gemm(backend, count, m, n, k, a.data(), a_offset.data(), b.data(), b_offset.data(), c);
    }
    if (out && !direct) std::copy_n(result.data(), result.size(), out->data());
    if constexpr (R == 0)
        return *result.data();
    else
        return result;
}

/// matmul with a chosen kernel (matmul itself takes the BLAS where there is one); errors
/// name `operation`.
template <expression X, expression Y>
    requires(product_operands<X, Y> && rank_v<X> >= 1 && rank_v<Y> >= 1)
auto matmul_with(gemm_backend backend, X&& x, Y&& y, const char* operation = "matmul") {
    using T = product_t<X, Y>;
    constexpr std::size_t R = matmul_rank<rank_v<X>, rank_v<Y>>;
    return matmul_contiguous<T, R>(operation, backend, contiguous_as<T>(std::forward<X>(x)),
                                   contiguous_as<T>(std::forward<Y>(y)));
}

}  // namespace detail

/// NumPy's matmul (`a @ b`): the matrix product over the last two axes, the leading
/// (batch) axes broadcast; a 1-D first operand is a row and a 1-D second one a column, and
/// their axis is dropped from the result. Two 1-D operands give the scalar. Runs on a BLAS
/// for float and double when bsx was built with one (BSX_HAVE_BLAS), else on bsx's own
/// kernel (the same bits at any thread count). Throws std::invalid_argument naming both
/// shapes when the inner extents differ, broadcast_error when the batch axes do not broadcast.
template <expression X, expression Y>
    requires(detail::product_operands<X, Y> && rank_v<X> >= 1 && rank_v<Y> >= 1)
auto matmul(X&& x, Y&& y) {
    return detail::matmul_with(detail::gemm_backend::any, std::forward<X>(x), std::forward<Y>(y));
}

/// matmul into an existing array, NumPy's `np.matmul(x, y, out=r)`: no new result is
/// allocated. `out` must have the product's shape and element type, else
/// std::invalid_argument naming the shapes and out is unchanged; an out that is also an
/// operand (`matmul(a, b, a)`) gets the product of the values before the call.
template <expression X, expression Y, class T, std::size_t R>
    requires(detail::product_operands<X, Y> && rank_v<X> >= 1 && rank_v<Y> >= 1 &&
             std::is_same_v<T, detail::product_t<X, Y>> && R == detail::matmul_rank<rank_v<X>, rank_v<Y>>)
void matmul(X&& x, Y&& y, array<T, R>& out) {
    detail::matmul_contiguous<T, R>("matmul", detail::gemm_backend::any, detail::contiguous_as<T>(std::forward<X>(x)),
                                    detail::contiguous_as<T>(std::forward<Y>(y)), &out);
}

// A 0-D operand selects a deleted overload, whose name's macro quotes the reason.
// clang-format off
template <expression X, expression Y>
    requires(rank_v<X> == 0 || rank_v<Y> == 0)
void BSX_REFUSAL_MATMUL_OF_SCALAR(matmul)(X&&, Y&&) = delete;
// clang-format on

/// NumPy's dot: the scalar product of two vectors, the matrix product of two matrices, the
/// sum over the last axis of x and the second-to-last of y otherwise (result: x's shape
/// without its last axis, then y's without its second-to-last); a 0-D operand multiplies.
template <expression X, expression Y>
    requires detail::product_operands<X, Y>
auto dot(X&& x, Y&& y) {
    using T = detail::product_t<X, Y>;
    constexpr std::size_t RA = rank_v<X>, RB = rank_v<Y>;
    if constexpr (RA == 0 || RB == 0) {
        return array<T, std::max(RA, RB)>(std::forward<X>(x) * std::forward<Y>(y));
    } else if constexpr (RB <= 2) {
        return detail::matmul_with(detail::gemm_backend::any, std::forward<X>(x), std::forward<Y>(y), "dot");
    } else {
        // (P, K) times each (K, N) matrix of y, into result[p, q, n].
        const auto& a = detail::contiguous_as<T>(std::forward<X>(x));
        const auto& b = detail::contiguous_as<T>(std::forward<Y>(y));
        const auto sa = a.shape();
        const auto sb = b.shape();
        const index_t k = sa[RA - 1], kb = sb[RB - 2], n = sb[RB - 1];
        if (k != kb) detail::throw_core_mismatch("dot", sa, sb, k, kb);
        const auto [shape, p, q] = detail::contraction_of<T, RB - 2>("dot", sa, sb);
        array<T, RA + RB - 2> result(shape);
        const int threads = detail::product_threads(q, p, n, k);
        for (index_t j = 0; j < q; ++j)
            detail::gemm(p, n, k, a.data(), k, b.data() + j * k * n, n, result.data() + j * n, q * n, threads);
        return result;
    }
}

/// NumPy's inner: the sum over the last axes of x and y (result: x's shape without its last
/// axis, then y's without its last; the scalar for two vectors); a 0-D operand multiplies.
template <expression X, expression Y>
    requires detail::product_operands<X, Y>
auto inner(X&& x, Y&& y) {
    using T = detail::product_t<X, Y>;
    constexpr std::size_t RA = rank_v<X>, RB = rank_v<Y>;
    if constexpr (RA == 0 || RB == 0) {
        return array<T, std::max(RA, RB)>(std::forward<X>(x) * std::forward<Y>(y));
    } else {
        const auto& a = detail::contiguous_as<T>(std::forward<X>(x));
        const auto& b = detail::contiguous_as<T>(std::forward<Y>(y));
        const auto sa = a.shape();
        const auto sb = b.shape();
        const index_t k = sa[RA - 1];
        if (k != sb[RB - 1]) {
            throw std::invalid_argument("bsx: inner: shapes " + format_shape(sa) + " and " + format_shape(sb) +
                                        " do not match: their last axes differ (" + std::to_string(k) + " and " +
                                        std::to_string(sb[RB - 1]) + ")");
        }
        if constexpr (RA + RB == 2) {
            return T(sum(a * b));
        } else {
            const auto [shape, p, q] = detail::contraction_of<T, RB - 1>("inner", sa, sb);
            // y's rows as columns: (K, Q).
            const array<T, 2> bt(transpose(reshape<2>(b, shape_t<2>{q, k})));
            array<T, RA + RB - 2> result(shape);
            detail::gemm(p, q, k, a.data(), k, bt.data(), q, result.data(), q, detail::product_threads(1, p, q, k));
            return result;
        }
    }
}

/// NumPy's outer: x and y flattened, result[i, j] = x[i] * y[j].
template <expression X, expression Y>
    requires detail::product_operands<X, Y>
array<detail::product_t<X, Y>, 2> outer(X&& x, Y&& y) {
    using T = detail::product_t<X, Y>;
    const auto& a = detail::contiguous_as<T>(std::forward<X>(x));
    const auto& b = detail::contiguous_as<T>(std::forward<Y>(y));
    return array<T, 2>(reshape<2>(a, shape_t<2>{a.size(), 1}) * reshape<2>(b, shape_t<2>{1, b.size()}));
}

/// NumPy's vdot: x and y flattened (the same number of elements), the sum of their
/// products, as sum(x * y) adds them.
template <expression X, expression Y>
    requires detail::product_operands<X, Y>
detail::product_t<X, Y> vdot(X&& x, Y&& y) {
    using T = detail::product_t<X, Y>;
    const auto& a = detail::contiguous_as<T>(std::forward<X>(x));
    const auto& b = detail::contiguous_as<T>(std::forward<Y>(y));
    if (a.size() != b.size())
        throw std::invalid_argument("bsx: vdot: shapes " + format_shape(a.shape()) + " and " + format_shape(b.shape()) +
                                    " have different sizes (" + std::to_string(a.size()) + " and " +
                                    std::to_string(b.size()) + ")");
    return sum(reshape<1>(a, shape_t<1>{a.size()}) * reshape<1>(b, shape_t<1>{b.size()}));
}

}  // namespace bsx
