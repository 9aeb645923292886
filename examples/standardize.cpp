// Standardizing the columns of a data matrix, as a NumPy user writes it:
//
//   NumPy  z = np.clip((x - x.mean(axis=0)) / x.std(axis=0), -3, 3)
//   bsx    z = bsx::clip((x - bsx::mean(x, 0, bsx::keepdims)) / bsx::std(x, 0, bsx::keepdims), -3.0, 3.0);
//
// The column means and standard deviations have shape (1, cols) with keepdims and
// broadcast down the rows; the whole right-hand side is one assignment: the two column
// statistics are computed into cols-long buffers, then one fused pass writes z. The data
// come from bsx::random (normal columns of different means and scales, a few outliers),
// the same bits at any thread count.
//
// Usage: standardize [rows cols]      (rows >= 2, cols >= 1; default 1000 4)
// Checks every element against plain loops (two-pass mean and variance, then clip);
// exit code 1 if a check fails.

#include <bsx/bsx.hpp>

#include "arguments.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
    bsx::index_t rows = 1000, cols = 4;
    if (argc != 1 &&
        (argc != 3 || !examples::parse_number(argv[1], 2, rows) || !examples::parse_number(argv[2], 1, cols))) {
        std::cerr << "usage: standardize [rows cols]   (rows >= 2, cols >= 1; default 1000 4)\n";
        return 2;
    }
    // Column j: normal with mean 10 j and standard deviation j + 1; every 97th row an outlier.
    bsx::random::generator g(42);
    const auto j = bsx::arange<double>(0.0, double(cols));
    bsx::array<double, 2> x = g.normal<double>(bsx::shape_t<2>{rows, cols}) * (j + 1.0) + 10.0 * j;
    for (bsx::index_t i = 0; i < rows; i += 97) x(i, 0) += 50.0;

    const bsx::array<double, 2> z =
        bsx::clip((x - bsx::mean(x, 0, bsx::keepdims)) / bsx::std(x, 0, bsx::keepdims), -3.0, 3.0);

    // Plain loops: the two-pass mean and population standard deviation of each column,
    // then the standardized, clipped value.
    bsx::index_t failures = 0, clipped = 0;
    for (bsx::index_t c = 0; c < cols; ++c) {
        double sum = 0.0;
        for (bsx::index_t i = 0; i < rows; ++i) sum += x(i, c);
        const double mean = sum / double(rows);
        double squares = 0.0;
        for (bsx::index_t i = 0; i < rows; ++i) squares += (x(i, c) - mean) * (x(i, c) - mean);
        const double stddev = std::sqrt(squares / double(rows));
        for (bsx::index_t i = 0; i < rows; ++i) {
            const double want = std::clamp((x(i, c) - mean) / stddev, -3.0, 3.0);
            clipped += std::abs(want) == 3.0;
            if (!(std::abs(z(i, c) - want) <= 1e-12 * std::max(1.0, std::abs(want)))) {
                if (++failures <= 5)
                    std::cerr << "standardize: z(" << i << ", " << c << ") = " << z(i, c) << ", expected " << want
                              << '\n';
            }
        }
    }
    std::cout << "column means of z: " << bsx::mean(z, 0) << "\ncolumn standard deviations of z: " << bsx::std(z, 0)
              << '\n';
    if (failures != 0) {
        std::cerr << "standardize: " << failures << " element(s) differ from the plain loops\n";
        return 1;
    }
    std::cout << "standardize: " << rows << " x " << cols << ": every element matches the plain loops (" << clipped
              << " clipped to +-3)\n";
    return 0;
}
