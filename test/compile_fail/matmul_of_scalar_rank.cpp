// expect: no matching function for call to .matmul
#include <bsx/bsx.hpp>
int main() {
    bsx::array<double, 0> a;
    bsx::array<double, 2> b;
    (void)bsx::matmul(a, b);
}
