// Compile cost: 20 everyday assignments in bsx. The same 20 are in eigen_20.cpp and
// xtensor_20.cpp; measure.sh compiles each and prints user time, peak memory and text.
#include <bsx/bsx.hpp>

using matrix = bsx::array<double, 2>;
using vector = bsx::array<double, 1>;

double everyday(matrix& r, matrix& a, matrix& b, matrix& c, matrix& d, vector& v, vector& s, bsx::index_t k) {
    r = a + b;                                          // 1  sum
    r = a * b + c;                                      // 2  multiply-add
    r = bsx::sqrt(a * a + b * b);                       // 3  magnitude
    r = bsx::where(a > b, a, b);                        // 4  select
    r = bsx::exp(a);                                    // 5  exp
    r = a + v;                                          // 6  a row broadcast
    r = a - c.col(0);                                   // 7  a column broadcast
    d = bsx::min(d, d.col(k) + d.row(k));               // 8  a Floyd-Warshall step
    s = bsx::sum(a, bsx::axis(0));                      // 9  sums along axis 0
    s = bsx::sum(a, bsx::axis(1));                      // 10 sums along axis 1
    s = bsx::max(a, bsx::axis(0));                      // 11 maxima along axis 0
    s = bsx::max(a, bsx::axis(1));                      // 12 maxima along axis 1
    r = bsx::transpose(a) + b;                          // 13 a transposed operand
    r = bsx::sin(a) * bsx::cos(b);                      // 14 sin, cos
    r = bsx::pow(a, b);                                 // 15 pow
    r = 2.0 * a - 1.0;                                  // 16 scalars
    r = bsx::abs(a - b);                                // 17 abs of a difference
    r = a - bsx::mean(a, bsx::axis(1), bsx::keepdims);  // 18 centre the rows
    r = bsx::min(bsx::max(a, 0.0), 1.0);                // 19 clamp
    return bsx::sum(a * b);                             // 20 a dot product
}

int main() {
    const bsx::index_t n = 64;
    matrix r = bsx::zeros<double>(n, n), a = bsx::ones<double>(n, n), b = a, c = a, d = a;
    vector v = bsx::ones<double>(n), s = v;
    return everyday(r, a, b, c, d, v, s, 3) > 0 ? 0 : 1;
}
