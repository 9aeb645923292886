// An outside program that uses bsx, built by each consumer test (run_consumer.cmake) the way
// README.md shows: through find_package(bsx), FetchContent, pkg-config and a plain compiler
// line. It checks a few values, then prints what its build gave it; the test compares that
// with the bsx build under test, so a way that loses the version, vector math, OpenMP or OpenBLAS fails.
#include <bsx/bsx.hpp>

#include <cmath>
#include <iostream>
#include <sstream>

#if defined(_OPENMP)
constexpr bool with_openmp = true;
#else
constexpr bool with_openmp = false;
#endif

int main() {
    bsx::array<double, 1> v{1, 2, 3};
    auto r = bsx::eval(v + 1.0);
    std::ostringstream printed;
    printed << r;
    // exp comes from SLEEF where the build has it, so a missing -lsleef fails at link time;
    // cbrt from libmvec (glibc's libm.so links it too, so -lmvec alone is never missed).
    const double e = bsx::sum(bsx::exp(v) + bsx::cbrt(v));
    double expected = 0;
    for (double x : {1.0, 2.0, 3.0}) expected += std::exp(x) + std::cbrt(x);
    // A matrix product calls cblas_dgemm where the build has OpenBLAS: a missing -lopenblas fails
    // at link time.
    const bsx::array<double, 2> m{{1, 2}, {3, 4}};
    const bool product_ok = bsx::array_equal(bsx::matmul(m, m), bsx::array<double, 2>{{7, 10}, {15, 22}});
    if (r(2) != 4.0 || printed.str() != "[2., 3., 4.]" || std::abs(e - expected) > 1e-13 * expected || !product_ok)
        return 1;
    // Which vector math the headers compiled in: a detail, named here only to check the build.
    std::cout << "bsx " << BSX_VERSION_MAJOR << '.' << BSX_VERSION_MINOR << '.' << BSX_VERSION_PATCH << " sleef "
              << bsx::detail::vmath::uses_sleef << " mvec " << bsx::detail::vmath::uses_mvec << " openmp "
              << with_openmp << " blas " << bsx::detail::uses_blas << '\n';
}
