// Row-wise normalisations of a matrix: a reduction with keepdims broadcast back against
// the matrix it came from. Each is checked against plain loops.
//
//   centring:  NumPy  x - x.mean(axis=1, keepdims=True)          Octave  x - mean(x, 2)
//              bsx    x - bsx::mean(x, bsx::axis(1), bsx::keepdims)
//
//   softmax:   e = exp(x - max over the row);  s = e / (sum of e over the row)
//              bsx    e = bsx::exp(x - bsx::max(x, bsx::axis(1), bsx::keepdims));
//                     s = e / bsx::sum(e, bsx::axis(1), bsx::keepdims);
//
// The row reduction of a (rows, cols) matrix with keepdims has shape (rows, 1), which
// broadcasts along the columns of x; without keepdims it would have shape (rows,), which
// NumPy rules align with the COLUMNS of x instead (and reject unless rows == cols).
//
// Usage: normalize [rows cols]      (rows >= 3, cols >= 1; default 6 5)
// Row 0 holds values around +1000 and row 1 values around -1000, where a softmax without
// the max subtraction overflows or underflows; row 2 is constant; the other rows are
// random. Prints the (top-left corner of the) results. Exit code 1 if a check fails.

#include <bsx/bsx.hpp>

#include "arguments.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <iomanip>
#include <iostream>
#include <random>
#include <string>

namespace {

bsx::array<double, 2> make_input(bsx::index_t rows, bsx::index_t cols) {
    std::mt19937_64 rng(7);  // fixed seed: every run sees the same matrix
    std::uniform_real_distribution<double> value(-3.0, 3.0);
    bsx::array<double, 2> x = bsx::zeros<double>(rows, cols);
    for (bsx::index_t j = 0; j < cols; ++j) {
        x(0, j) = 1000.0 + double(j % 10);   // exp(1000) overflows to +inf
        x(1, j) = -1000.0 - double(j % 10);  // exp(-1000) underflows to 0
        x(2, j) = 3.0;                       // constant: uniform softmax, centred row all 0
    }
    for (bsx::index_t i = 3; i < rows; ++i)
        for (bsx::index_t j = 0; j < cols; ++j) x(i, j) = value(rng);
    return x;
}

// The top-left corner of a matrix expression, at most 6 rows and 6 columns.
template <class E>
auto corner(const E& e) {
    return bsx::slice(e, bsx::range(0, std::min<bsx::index_t>(e.extent(0), 6)),
                      bsx::range(0, std::min<bsx::index_t>(e.extent(1), 6)));
}

// |got - want| <= rtol * scale, false for NaN.
bool close(double got, double want, double scale, double rtol = 1e-12) { return std::abs(got - want) <= rtol * scale; }

}  // namespace

int main(int argc, char** argv) {
    bsx::index_t rows = 6, cols = 5;
    if (argc != 1 &&
        (argc != 3 || !examples::parse_number(argv[1], 3, rows) || !examples::parse_number(argv[2], 1, cols))) {
        std::cerr << "usage: normalize [rows cols]   (rows >= 3, cols >= 1; default 6 5)\n";
        return 2;
    }
    const bsx::array<double, 2> x = make_input(rows, cols);
    const bool shows_all = rows <= 6 && cols <= 6;
    std::cout << std::setprecision(6) << "x " << bsx::format_shape(x.shape()) << (shows_all ? "" : ", top-left corner")
              << ":\n"
              << corner(x) << '\n';
    bsx::index_t failures = 0;

    // --- centring ---------------------------------------------------------------------
    // mean(x, axis(1), keepdims) has shape (rows, 1); the subtraction broadcasts it along
    // each row. One assignment: the row means are computed once into a rows-long buffer,
    // then one fused pass writes the result.
    const bsx::array<double, 2> centred = x - bsx::mean(x, bsx::axis(1), bsx::keepdims);
    std::cout << "\ncentred = x - mean(x, axis(1), keepdims):\n" << corner(centred) << '\n';

    // Checks, in plain loops: each row matches x(i, j) - (sum of the row) / cols, and sums
    // to 0 up to rounding relative to the size of the row's values.
    for (bsx::index_t i = 0; i < rows; ++i) {
        double sum = 0.0, abs_sum = 0.0, row_max = 0.0;
        for (bsx::index_t j = 0; j < cols; ++j) {
            sum += x(i, j);
            abs_sum += std::abs(x(i, j));
            row_max = std::max(row_max, std::abs(x(i, j)));
        }
        const double row_mean = sum / double(cols);
        double centred_sum = 0.0;
        for (bsx::index_t j = 0; j < cols; ++j) {
            centred_sum += centred(i, j);
            if (!close(centred(i, j), x(i, j) - row_mean, row_max)) {
                std::cerr << "normalize: centred(" << i << ", " << j << ") = " << centred(i, j) << ", expected "
                          << x(i, j) - row_mean << '\n';
                ++failures;
            }
        }
        if (!close(centred_sum, 0.0, abs_sum)) {
            std::cerr << "normalize: centred row " << i << " sums to " << centred_sum << ", not 0\n";
            ++failures;
        }
    }

    // --- softmax ----------------------------------------------------------------------
    // Subtracting the row maximum first changes nothing mathematically (the factor
    // exp(-max) cancels between numerator and denominator) but keeps exp in range: every
    // exponent is <= 0, so every e is in (0, 1] and the row's largest e is exactly 1,
    // which also keeps the sum >= 1. Without it, exp(1000) is +inf and exp(-1000) is 0,
    // and those rows come out as inf/inf or 0/0, both NaN.
    //
    // e is evaluated into an array first, so the exponentials are computed once; the
    // second line then computes the row sums of e into a (rows, 1) buffer and divides in
    // one pass.
    const bsx::array<double, 2> e = bsx::exp(x - bsx::max(x, bsx::axis(1), bsx::keepdims));
    const bsx::array<double, 2> s = e / bsx::sum(e, bsx::axis(1), bsx::keepdims);
    std::cout << "\nsoftmax s = e / sum(e, axis(1), keepdims), e = exp(x - max(x, axis(1), keepdims)):\n"
              << corner(s) << '\n';

    // The same in one expression: exp is then evaluated twice per element (once for the
    // row sums, once for the numerator), but no (rows, cols) array e is stored.
    const auto shifted = x - bsx::max(x, bsx::axis(1), bsx::keepdims);
    const bsx::array<double, 2> s_one = bsx::exp(shifted) / bsx::sum(bsx::exp(shifted), bsx::axis(1), bsx::keepdims);
    std::cout << "one-expression softmax identical to the two-step one: " << (bsx::array_equal(s, s_one) ? "yes" : "no")
              << '\n';

    // The naive formula, for contrast: fine on the moderate rows, NaN on rows 0 and 1.
    const bsx::array<double, 2> naive = bsx::exp(x) / bsx::sum(bsx::exp(x), bsx::axis(1), bsx::keepdims);
    std::cout << "naive exp(x) / sum(exp(x), axis(1), keepdims), without the max subtraction:\n"
              << corner(naive) << '\n';

    // Checks, in plain loops: the textbook softmax of each row (max, exp, sequential sum,
    // divide), every value finite and within 1e-12 (relative) of it, each row summing to 1.
    for (bsx::index_t i = 0; i < rows; ++i) {
        double row_max = x(i, 0);
        for (bsx::index_t j = 1; j < cols; ++j) row_max = std::max(row_max, x(i, j));
        double denom = 0.0;
        for (bsx::index_t j = 0; j < cols; ++j) denom += std::exp(x(i, j) - row_max);
        double row_sum = 0.0;
        for (bsx::index_t j = 0; j < cols; ++j) {
            const double want = std::exp(x(i, j) - row_max) / denom;
            row_sum += s(i, j);
            for (const auto* got : {&s, &s_one})
                if (!std::isfinite((*got)(i, j)) || !close((*got)(i, j), want, want)) {
                    std::cerr << "normalize: softmax" << (got == &s ? "" : " (one expression)") << " (" << i << ", "
                              << j << ") = " << (*got)(i, j) << ", expected " << want << '\n';
                    ++failures;
                }
        }
        if (!close(row_sum, 1.0, 1.0)) {
            std::cerr << "normalize: softmax row " << i << " sums to " << std::setprecision(17) << row_sum
                      << std::setprecision(6) << ", not 1\n";
            ++failures;
        }
    }

    if (failures != 0) {
        std::cerr << "normalize: " << failures << " check(s) failed\n";
        return 1;
    }
    std::cout << "\nnormalize: " << rows << " x " << cols
              << ": centred rows sum to 0 and softmax rows to 1 (within 1e-12), both match the plain loops\n";
    return 0;
}
