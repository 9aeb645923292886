// Compile cost: the 20 assignments of bsx_20.cpp in Eigen 3.4 arrays.
#include <Eigen/Dense>

using matrix = Eigen::ArrayXXd;
using vector = Eigen::ArrayXd;

double everyday(matrix& r, matrix& a, matrix& b, matrix& c, matrix& d, vector& v, vector& s, Eigen::Index k) {
    r = a + b;                                                                            // 1
    r = a * b + c;                                                                        // 2
    r = (a * a + b * b).sqrt();                                                           // 3
    r = (a > b).select(a, b);                                                             // 4
    r = a.exp();                                                                          // 5
    r = a.rowwise() + v.transpose();                                                      // 6
    r = a.colwise() - c.col(0);                                                           // 7
    d = d.min(d.col(k).replicate(1, d.cols()) + d.row(k).replicate(d.rows(), 1)).eval();  // 8
    s = a.colwise().sum().transpose();                                                    // 9
    s = a.rowwise().sum();                                                                // 10
    s = a.colwise().maxCoeff().transpose();                                               // 11
    s = a.rowwise().maxCoeff();                                                           // 12
    r = a.transpose() + b;                                                                // 13
    r = a.sin() * b.cos();                                                                // 14
    r = a.pow(b);                                                                         // 15
    r = 2.0 * a - 1.0;                                                                    // 16
    r = (a - b).abs();                                                                    // 17
    r = a.colwise() - a.rowwise().mean();                                                 // 18
    r = a.max(0.0).min(1.0);                                                              // 19
    return (a * b).sum();                                                                 // 20
}

int main() {
    const Eigen::Index n = 64;
    matrix r = matrix::Zero(n, n), a = matrix::Ones(n, n), b = a, c = a, d = a;
    vector v = vector::Ones(n), s = v;
    return everyday(r, a, b, c, d, v, s, 3) > 0 ? 0 : 1;
}
