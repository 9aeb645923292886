// A point cloud with fixed-size helpers: n points of shape (n, 3) (n known at run time)
// are centred by their (3,) centroid and rotated by a 3x3 matrix, both bsx::fixed_array.
//
//   centroid  = mean(points, axis 0)                    a fixed (3,) from a reduction
//   centred   = points - centroid                       (n, 3) with (3,): axis 1 is known
//   rotated   = sum over k of centred(i, k) R(j, k)     a fused broadcast product
//
// The centroid's extent 3 is checked against the points' axis 1 at compile time as far
// as it is known: `points - bsx::fixed_array<double, 2>{}` compiles (the points' extents
// are run-time values) but throws bsx::broadcast_error, while
// `centroid + bsx::fixed_array<double, 2>{}` does not compile ("cannot be broadcast").
//
// Usage: point_cloud [n]      (n >= 1; default 1000). Prints the first points and the
// checks; exit code 1 if a result differs from plain loops.

#include <bsx/bsx.hpp>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <numbers>
#include <random>
#include <string>

int main(int argc, char** argv) {
    const bsx::index_t n = argc > 1 ? std::atol(argv[1]) : 1000;
    if (n < 1) {
        std::cerr << "usage: point_cloud [n]   (n >= 1)\n";
        return 2;
    }
    bsx::array<double, 2> points({n, 3});
    std::mt19937_64 rng(3);
    std::normal_distribution<double> spread(0.0, 2.0);
    for (bsx::index_t i = 0; i < n; ++i)
        for (bsx::index_t k = 0; k < 3; ++k) points(i, k) = spread(rng) + 10.0 * double(k + 1);

    // A rotation by 30 degrees about the z axis.
    const double c = std::cos(std::numbers::pi / 6), s = std::sin(std::numbers::pi / 6);
    const bsx::fixed_array<double, 3, 3> rotation{{c, -s, 0}, {s, c, 0}, {0, 0, 1}};

    const bsx::fixed_array<double, 3> centroid = bsx::mean(points, bsx::axis(0));
    const bsx::array<double, 2> centred = points - centroid;
    static_assert(bsx::is_static_axis_v<decltype(points - centroid), 1> &&
                  !bsx::is_static_axis_v<decltype(points - centroid), 0>);
    const bsx::array<double, 2> rotated =
        bsx::sum(bsx::in_dims<3>(centred, {0, 2}) * bsx::in_dims<3>(rotation, {1, 2}), bsx::axis(2));

    // The same with plain loops.
    double want_centroid[3] = {0, 0, 0};
    for (bsx::index_t i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k) want_centroid[k] += points(i, k);
    for (double& v : want_centroid) v /= double(n);
    double worst = 0.0;
    for (int k = 0; k < 3; ++k) worst = std::max(worst, std::abs(centroid(k) - want_centroid[k]));
    for (bsx::index_t i = 0; i < n; ++i)
        for (int j = 0; j < 3; ++j) {
            double r = 0.0;
            for (int k = 0; k < 3; ++k) r += (points(i, k) - want_centroid[k]) * rotation(j, k);
            worst = std::max(worst, std::abs(rotated(i, j) - r));
        }

    bool refused = false;
    try {
        const bsx::array<double, 2> wrong = points - bsx::fixed_array<double, 2>{};
        (void)wrong;
    } catch (const bsx::broadcast_error& e) {
        refused = true;
        std::cout << "dynamic (n,3) against a fixed (2,): " << e.what() << "\n";
    }

    std::cout << "centroid: " << centroid << "\n";
    std::cout << "first rotated points:\n" << bsx::slice(rotated, bsx::range(0, std::min<bsx::index_t>(n, 3))) << "\n";
    std::cout << "largest difference from plain loops: " << worst << "\n";
    const bool ok = worst < 1e-9 && refused;
    std::cout << (ok ? "OK" : "FAILED") << "\n";
    return ok ? 0 : 1;
}
