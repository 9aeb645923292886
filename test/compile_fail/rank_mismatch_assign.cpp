// expect: bsx: the rank of the expression differs from the rank of the array it is assigned to
// Assigning a rank-3 expression to an existing rank-2 array must not compile (ranks are
// static; assignment resizes extents, never the rank).
#include <bsx/bsx.hpp>

int main() {
    bsx::array<double, 3> a = bsx::zeros<double>(2, 3, 4);
    bsx::array<double, 2> r = bsx::zeros<double>(3, 4);
    r = a * 2.0;
}
