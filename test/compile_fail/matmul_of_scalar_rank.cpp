// expect: bsx: matmul takes operands of rank 1 or more
#include <bsx/bsx.hpp>
int main() {
    bsx::array<double, 0> a;
    bsx::array<double, 2> b;
    (void)bsx::matmul(a, b);
}
