// Compile cost of static extents (issue 12, point 5): 20 distinct expressions over
// fixed_array operands, or (with -DBSX_COST_DYNAMIC) the same over bsx::array, each
// assigned once. Not part of the build; measured by hand, e.g.
//
//   /usr/bin/time -v g++ -std=c++20 -O3 -fopenmp -Iinclude -c benchmark/compile_cost_fixed.cpp -o /dev/null
//   /usr/bin/time -v g++ -std=c++20 -O3 -fopenmp -Iinclude -DBSX_COST_DYNAMIC -c benchmark/compile_cost_fixed.cpp -o /dev/null
//
// (doc/performance.md, "Fixed sizes", has the numbers.)

#include <bsx/bsx.hpp>

#ifdef BSX_COST_DYNAMIC
using v3 = bsx::array<double, 1>;
using m33 = bsx::array<double, 2>;
using m44 = bsx::array<double, 2>;
using r13 = bsx::array<double, 2>;
using c31 = bsx::array<double, 2>;
using t243 = bsx::array<double, 3>;
using i4 = bsx::array<int, 1>;
#define BSX_COST_INIT(T, ...) T(bsx::shape_t<T::rank>{__VA_ARGS__}, 1)
#else
using v3 = bsx::fixed_array<double, 3>;
using m33 = bsx::fixed_array<double, 3, 3>;
using m44 = bsx::fixed_array<double, 4, 4>;
using r13 = bsx::fixed_array<double, 1, 3>;
using c31 = bsx::fixed_array<double, 3, 1>;
using t243 = bsx::fixed_array<double, 2, 4, 3>;
using i4 = bsx::fixed_array<int, 4>;
#define BSX_COST_INIT(T, ...) T()
#endif

double run() {
    v3 a = BSX_COST_INIT(v3, 3), b = BSX_COST_INIT(v3, 3), rv = BSX_COST_INIT(v3, 3);
    m33 m = BSX_COST_INIT(m33, 3, 3), n = BSX_COST_INIT(m33, 3, 3), rm = BSX_COST_INIT(m33, 3, 3);
    m44 p = BSX_COST_INIT(m44, 4, 4), q = BSX_COST_INIT(m44, 4, 4), rp = BSX_COST_INIT(m44, 4, 4);
    r13 row = BSX_COST_INIT(r13, 1, 3);
    c31 col = BSX_COST_INIT(c31, 3, 1);
    t243 t = BSX_COST_INIT(t243, 2, 4, 3), rt = BSX_COST_INIT(t243, 2, 4, 3);
    i4 k = BSX_COST_INIT(i4, 4), rk = BSX_COST_INIT(i4, 4);
    double total = 0;
    rv = a + b;
    total += rv(0);
    rv = a * b - 1.0;
    total += rv(0);
    rv = bsx::sqrt(bsx::abs(a)) / (b + 2.0);
    total += rv(0);
    rv = bsx::where(a > b, a, b);
    total += rv(0);
    rv = bsx::atan2(a, b);
    total += rv(0);
    rm = m * n + m;
    total += rm(0, 0);
    rm = m - a;
    total += rm(0, 0);
    rm = col * row;
    total += rm(0, 0);
    rm = col + row - m;
    total += rm(0, 0);
    rm = bsx::max(m, n) * 0.5;
    total += rm(0, 0);
    rm = bsx::exp(-m) + bsx::log1p(n * n);
    total += rm(0, 0);
    rm = bsx::where(m < 0.0, -m, m) + a;
    total += rm(0, 0);
    rp = p * q + p;
    total += rp(0, 0);
    rp = bsx::where(p > 0.0, p, -p);
    total += rp(0, 0);
    rp = bsx::min(p, q) - bsx::fmax(q, 1.0);
    total += rp(0, 0);
    rp = bsx::cast<double>(p > q) * p;
    total += rp(0, 0);
    rt = t * a + 1.0;
    total += rt(0, 0, 0);
    rt = t - t * t;
    total += rt(0, 0, 0);
    rk = k * 3 + (k & 1);
    total += rk(0);
    rk = bsx::where(k % 2 == 0, k, -k);
    total += rk(0);
    return total;
}
