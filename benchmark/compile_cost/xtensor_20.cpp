// Compile cost: the 20 assignments of bsx_20.cpp in xtensor (noalias, as its docs advise
// where the destination is not read).
#include <xtensor/xtensor.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xview.hpp>
#include <xtensor/xreducer.hpp>
#include <xtensor/xmanipulation.hpp>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xnoalias.hpp>

using matrix = xt::xtensor<double, 2>;
using vector = xt::xtensor<double, 1>;

double everyday(matrix& r, matrix& a, matrix& b, matrix& c, matrix& d, vector& v, vector& s, std::size_t k) {
    xt::noalias(r) = a + b;                                                                                         // 1
    xt::noalias(r) = a * b + c;                                                                                     // 2
    xt::noalias(r) = xt::sqrt(a * a + b * b);                                                                       // 3
    xt::noalias(r) = xt::where(a > b, a, b);                                                                        // 4
    xt::noalias(r) = xt::exp(a);                                                                                    // 5
    xt::noalias(r) = a + v;                                                                                         // 6
    xt::noalias(r) = a - xt::view(c, xt::all(), xt::range(0, 1));                                                   // 7
    d = xt::minimum(d, xt::view(d, xt::all(), xt::range(k, k + 1)) + xt::view(d, xt::range(k, k + 1), xt::all()));  // 8
    xt::noalias(s) = xt::sum(a, {0});                                                                               // 9
    xt::noalias(s) = xt::sum(a, {1});                        // 10
    xt::noalias(s) = xt::amax(a, {0});                       // 11
    xt::noalias(s) = xt::amax(a, {1});                       // 12
    xt::noalias(r) = xt::transpose(a) + b;                   // 13
    xt::noalias(r) = xt::sin(a) * xt::cos(b);                // 14
    xt::noalias(r) = xt::pow(a, b);                          // 15
    xt::noalias(r) = 2.0 * a - 1.0;                          // 16
    xt::noalias(r) = xt::abs(a - b);                         // 17
    xt::noalias(r) = a - xt::mean(a, {1}, xt::keep_dims);    // 18
    xt::noalias(r) = xt::minimum(xt::maximum(a, 0.0), 1.0);  // 19
    return xt::sum(a * b)();                                 // 20
}

int main() {
    const std::size_t n = 64;
    matrix r = xt::zeros<double>({n, n}), a = xt::ones<double>({n, n}), b = a, c = a, d = a;
    vector v = xt::ones<double>({n}), s = v;
    return everyday(r, a, b, c, d, v, s, 3) > 0 ? 0 : 1;
}
