// A few Lloyd steps of k-means, as a NumPy user writes them:
//
//   NumPy  d2 = ((x[:, None, :] - c[None, :, :]) ** 2).sum(axis=2)     # (n, k)
//          labels = d2.argmin(axis=1)
//          onehot = labels[:, None] == np.arange(k)                  # (n, k)
//          c = (onehot.T @ x) / onehot.sum(axis=0)[:, None]
//   bsx    d2 = sum(square(in_dims<3>(x, {0, 2}) - in_dims<3>(c, {1, 2})), 2)   (no n x k x d array)
//          labels = argmin(d2, 1)
//          ...
//
// The points are k clusters drawn with bsx::random; the initial centres are k points chosen
// by g.permutation and gathered with bsx::take. Each step is checked against the same step
// in plain loops (labels equal, centres within 1e-12), and its centres against the masked
// means (NumPy's x[labels == j].mean(axis=0)); exit code 1 if a check fails.
//
// Usage: kmeans [n k steps]      (n >= k >= 1, steps >= 1; default 2000 4 5)

#include <bsx/bsx.hpp>

#include "arguments.hpp"

#include <cmath>
#include <exception>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

namespace {

using bsx::index_t;
constexpr index_t dims = 2;

// One Lloyd step in plain loops: the nearest centre of each point (the first on a tie),
// then each centre the mean of its points (kept where it has none).
std::vector<index_t> lloyd_by_loops(const bsx::array<double, 2>& x, bsx::array<double, 2>& c) {
    const index_t n = x.extent(0), k = c.extent(0);
    std::vector<index_t> labels(std::size_t(n), 0);
    for (index_t i = 0; i < n; ++i) {
        double best = std::numeric_limits<double>::infinity();
        for (index_t j = 0; j < k; ++j) {
            double d2 = 0.0;
            for (index_t d = 0; d < dims; ++d) d2 += (x(i, d) - c(j, d)) * (x(i, d) - c(j, d));
            if (d2 < best) best = d2, labels[std::size_t(i)] = j;
        }
    }
    for (index_t j = 0; j < k; ++j) {
        double count = 0.0, sum[dims] = {};
        for (index_t i = 0; i < n; ++i)
            if (labels[std::size_t(i)] == j) {
                count += 1.0;
                for (index_t d = 0; d < dims; ++d) sum[d] += x(i, d);
            }
        if (count > 0)
            for (index_t d = 0; d < dims; ++d) c(j, d) = sum[d] / count;
    }
    return labels;
}

}  // namespace

int main(int argc, char** argv) {
    index_t n = 2000, k = 4, steps = 5;
    if (argc != 1 && (argc != 4 || !examples::parse_number(argv[1], 1, n) || !examples::parse_number(argv[2], 1, k) ||
                      k > n || !examples::parse_number(argv[3], 1, steps))) {
        std::cerr << "usage: kmeans [n k steps]   (n >= k >= 1, steps >= 1; default 2000 4 5)\n";
        return 2;
    }
    // k clusters around (10 j, -5 j), unit spread: point i belongs to cluster i % k.
    bsx::random::generator g(7);
    const auto cluster = bsx::in_dims<2>(bsx::arange<index_t>(0, n) % k, {0});  // (n, 1)
    const bsx::array<double, 1> offset{10.0, -5.0};
    const bsx::array<double, 2> x = g.normal<double>(bsx::shape_t<2>{n, dims}) + bsx::cast<double>(cluster) * offset;

    // Random initialisation: k distinct points.
    const bsx::array<index_t, 1> pick = g.permutation(n);
    bsx::array<double, 2> c = bsx::take(x, bsx::slice(pick, bsx::range(0, k)), 0);
    bsx::array<double, 2> c_loops = c;

    const auto centre_index = bsx::in_dims<2>(bsx::arange<index_t>(0, k), {1});  // (1, k)
    index_t failures = 0;
    for (index_t step = 0; step < steps; ++step) {
        const bsx::array<double, 2> d2 =
            bsx::sum(bsx::square(bsx::in_dims<3>(x, {0, 2}) - bsx::in_dims<3>(c, {1, 2})), 2);
        const bsx::array<index_t, 1> labels = bsx::argmin(d2, 1);
        const auto onehot = bsx::cast<double>(bsx::in_dims<2>(labels, {0}) == centre_index);  // (n, k)
        const bsx::array<double, 1> counts = bsx::sum(onehot, 0);
        const bsx::array<double, 2> sums = bsx::sum(bsx::in_dims<3>(onehot, {0, 1}) * bsx::in_dims<3>(x, {0, 2}), 0);
        // A centre with no points stays where it is.
        c = bsx::where(bsx::in_dims<2>(counts, {0}) > 0.0, sums / bsx::in_dims<2>(counts, {0}), c);

        const std::vector<index_t> want = lloyd_by_loops(x, c_loops);
        for (index_t i = 0; i < n; ++i)
            if (labels(i) != want[std::size_t(i)] && ++failures <= 5)
                std::cerr << "kmeans: step " << step << ": point " << i << " has label " << labels(i) << ", expected "
                          << want[std::size_t(i)] << '\n';
        for (index_t j = 0; j < k; ++j)
            for (index_t d = 0; d < dims; ++d)
                if (!(std::abs(c(j, d) - c_loops(j, d)) <= 1e-12 * std::max(1.0, std::abs(c_loops(j, d)))) &&
                    ++failures <= 5)
                    std::cerr << "kmeans: step " << step << ": centre " << j << " coordinate " << d << " is " << c(j, d)
                              << ", expected " << c_loops(j, d) << '\n';
        for (index_t j = 0; j < k; ++j)  // the masked means of the centres that have points
            for (index_t d = 0; d < dims; ++d)
                if (const bsx::array<double, 1> mine = x.col(d)(bsx::in_dims<2>(labels == j, {0})); mine.size() > 0) {
                    const double mean = bsx::mean(mine);
                    if (!(std::abs(c(j, d) - mean) <= 1e-12 * std::max(1.0, std::abs(mean))) && ++failures <= 5)
                        std::cerr << "kmeans: step " << step << ": centre " << j << " coordinate " << d << " is "
                                  << c(j, d) << ", the masked mean " << mean << '\n';
                }
        std::cout << "step " << step << ": inertia " << bsx::sum(bsx::min(d2, bsx::axis(1))) << '\n';
    }
    std::cout << "centres:\n" << c << '\n';
    if (failures != 0) {
        std::cerr << "kmeans: " << failures << " check(s) failed\n";
        return 1;
    }
    std::cout << "kmeans: " << n << " points, " << k << " centres, " << steps
              << " steps: labels and centres match the plain loops\n";
    return 0;
}
