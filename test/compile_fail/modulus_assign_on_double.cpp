// expect: bsx: % and %= need integral operands \(bsx::mod or bsx::rem for floating point\)
// Compound % on doubles must not compile, like operator%.
#include <bsx/bsx.hpp>

int main() {
    bsx::array<double, 1> a{7, 8};
    a %= 2.0;
}
