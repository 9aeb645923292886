// expect: bsx: % and %= need integral operands \(bsx::mod or bsx::rem for floating point\)
// operator% is for integral types; on doubles it must not compile and must point to
// bsx::mod / bsx::rem.
#include <bsx/bsx.hpp>

int main() {
    bsx::array<double, 1> a{7, 8};
    bsx::array<double, 1> b{3, 3};
    bsx::array<double, 1> r = a % b;
    (void)r;
}
