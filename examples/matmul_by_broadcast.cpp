// A matrix product written as a broadcast followed by a reduction, the trick from GNU
// Octave's broadcasting chapter, and checked against a plain triple loop:
//
//   Octave:  c = sum(permute(a, [1, 3, 2]) .* permute(b, [3, 2, 1]), 3);
//   NumPy:   c = (a[:, :, None] * b[None, :, :]).sum(axis=1)
//   bsx:     c = bsx::sum(bsx::in_dims<3>(a, {0, 1}) * bsx::in_dims<3>(b, {1, 2}), bsx::axis(1));
//
// With a of shape (n, k) and b of shape (k, m), in_dims<3>(a, {0, 1}) is a view of shape
// (n, k, 1) and in_dims<3>(b, {1, 2}) one of shape (1, k, m); their product broadcasts to
// (n, k, m): element (i, p, j) is a(i, p) * b(p, j). Summing over axis 1 (p) leaves
// c(i, j) = sum_p a(i, p) * b(p, j), the matrix product.
//
// Octave and NumPy build the (n, k, m) array of products before summing it. In bsx the
// product is a lazy expression and the reduction is fused with it: each c(i, j) is
// accumulated straight from a and b, and nothing of size n * k * m is ever allocated.
//
// Usage: matmul_by_broadcast [n]  or  matmul_by_broadcast [n k m]   (default: n = k = m = 200)
// Prints a corner of c, the largest relative error against the triple loop and both
// times (best of 3 runs, for information only). Exit code 1 if the two results disagree.

#include <bsx/bsx.hpp>

#include "arguments.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <exception>
#include <iomanip>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace {

// A (rows, cols) matrix of random values in [-1, 1) from a fixed seed.
bsx::array<double, 2> random_matrix(bsx::index_t rows, bsx::index_t cols, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    bsx::array<double, 2> x = bsx::zeros<double>(rows, cols);
    for (auto& v : x) v = value(rng);
    return x;
}

// The reference: the textbook triple loop on plain row-major storage, in i-p-j order so
// that the inner loop walks rows of b and c contiguously. It also accumulates
// sum_p |a(i, p)| * |b(p, j)|, the scale the rounding error of c(i, j) is measured against.
void matmul_plain(const double* a, const double* b, double* c, double* scale, bsx::index_t n, bsx::index_t k,
                  bsx::index_t m) {
    std::fill(c, c + n * m, 0.0);
    std::fill(scale, scale + n * m, 0.0);
    for (bsx::index_t i = 0; i < n; ++i)
        for (bsx::index_t p = 0; p < k; ++p) {
            const double aip = a[i * k + p];
            for (bsx::index_t j = 0; j < m; ++j) {
                c[i * m + j] += aip * b[p * m + j];
                scale[i * m + j] += std::abs(aip) * std::abs(b[p * m + j]);
            }
        }
}

// The fastest of `runs` calls of f(), in seconds. The first call also pays one-off costs
// (page faults in fresh buffers, starting the OpenMP threads), which the later ones don't.
template <class F>
double best_time(int runs, F&& f) {
    double best = 0.0;
    for (int r = 0; r < runs; ++r) {
        const auto start = std::chrono::steady_clock::now();
        f();
        const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        best = r == 0 ? t : std::min(best, t);
    }
    return best;
}

}  // namespace

int main(int argc, char** argv) {
    bsx::index_t n = 200, k = 200, m = 200;
    bool ok = argc == 1;
    if (argc == 2 && examples::parse_number(argv[1], 1, n)) {
        k = m = n;
        ok = true;
    }
    if (argc == 4)
        ok = examples::parse_number(argv[1], 1, n) && examples::parse_number(argv[2], 1, k) &&
             examples::parse_number(argv[3], 1, m);
    if (!ok) {
        std::cerr << "usage: matmul_by_broadcast [n] | [n k m]   (all >= 1; default 200)\n";
        return 2;
    }

#ifdef _OPENMP
    const int threads = omp_get_max_threads();  // set with OMP_NUM_THREADS
#else
    const int threads = 1;  // built without OpenMP
#endif

    constexpr int runs = 3;  // each version is timed as the best of 3 runs
    const bsx::array<double, 2> a = random_matrix(n, k, 1);
    const bsx::array<double, 2> b = random_matrix(k, m, 2);

    // --- bsx: broadcast, then reduce -------------------------------------------------
    // The two placements are strided views of a and b (no copy), and `products` is a lazy
    // expression of shape (n, k, m): building it computes and allocates nothing.
    const auto a3 = bsx::in_dims<3>(a, {0, 1});  // (n, k, 1)
    const auto b3 = bsx::in_dims<3>(b, {1, 2});  // (1, k, m)
    const auto products = a3 * b3;               // (n, k, m), never stored
    std::cout << "a " << bsx::format_shape(a.shape()) << " placed as " << bsx::format_shape(a3.shape()) << ", b "
              << bsx::format_shape(b.shape()) << " placed as " << bsx::format_shape(b3.shape()) << ", their product "
              << bsx::format_shape(products.shape()) << " summed over axis 1\n";

    bsx::array<double, 2> c;
    const double t_bsx = best_time(runs, [&] {
        c = bsx::sum(bsx::in_dims<3>(a, {0, 1}) * bsx::in_dims<3>(b, {1, 2}), bsx::axis(1));
    });

    // --- the plain triple loop (serial) -----------------------------------------------
    std::vector<double> ref(std::size_t(n * m)), scale(std::size_t(n * m));
    const double t_plain =
        best_time(runs, [&] { matmul_plain(a.data(), b.data(), ref.data(), scale.data(), n, k, m); });

    // --- the check ----------------------------------------------------------------------
    // The two add the same k products in different orders (bsx pairwise, the loop one by
    // one), so they agree to rounding, not bit for bit. The error of c(i, j) is bounded
    // by a small multiple of eps * sum_p |a(i, p) * b(p, j)|, so that is the denominator:
    // dividing by |c(i, j)| itself would blow up wherever the products cancel to near 0.
    if (c.shape() != bsx::shape_t<2>{n, m}) {
        std::cerr << "matmul_by_broadcast: result has shape " << bsx::format_shape(c.shape()) << ", expected (" << n
                  << "," << m << ")\n";
        return 1;
    }
    double max_rel = 0.0;
    for (bsx::index_t i = 0; i < n; ++i)
        for (bsx::index_t j = 0; j < m; ++j) {
            const std::size_t at = std::size_t(i * m + j);
            const double rel = std::abs(c(i, j) - ref[at]) / scale[at];
            max_rel = std::isnan(rel) ? rel : std::max(max_rel, rel);  // NaN must fail the check
        }

    const bsx::index_t rows = std::min<bsx::index_t>(n, 3), cols = std::min<bsx::index_t>(m, 4);
    std::cout << "c = a b, top-left " << rows << " x " << cols << " corner (bsx | plain loop):\n"
              << std::fixed << std::setprecision(6);
    for (bsx::index_t i = 0; i < rows; ++i) {
        std::cout << "  ";
        for (bsx::index_t j = 0; j < cols; ++j) std::cout << std::setw(11) << c(i, j);
        std::cout << "   |";
        for (bsx::index_t j = 0; j < cols; ++j) std::cout << std::setw(11) << ref[std::size_t(i * m + j)];
        std::cout << '\n';
    }
    std::cout << std::defaultfloat << std::setprecision(3);

    // Timing, for information only. Fused, the broadcast costs the same n k m
    // multiply-adds as the triple loop and no temporary at all, which removes the memory
    // bill Octave and NumPy pay for this formulation. It is still the wrong tool for a
    // matrix product: a real matrix-multiply routine (BLAS dgemm, or any blocked,
    // cache-aware kernel) reuses every block of a and b it loads many times from cache
    // and registers, and is typically many times faster than either version here. When the
    // operation is a matrix product, call a matrix product.
    std::cout << "n = " << n << ", k = " << k << ", m = " << m << ": bsx " << t_bsx << " s (OpenMP threads: " << threads
              << "), plain loop " << t_plain << " s (serial), best of " << runs << " runs each; max relative error "
              << max_rel << '\n';

    constexpr double tolerance = 1e-12;
    if (!(max_rel <= tolerance)) {
        std::cerr << "matmul_by_broadcast: MISMATCH: max relative error " << max_rel << " exceeds " << tolerance
                  << '\n';
        return 1;
    }
    std::cout << "matmul_by_broadcast: bsx and the plain loop agree within " << tolerance << '\n';
    return 0;
}
