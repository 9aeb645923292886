// expect: under xla rules, operands of different rank need explicit broadcast dimensions
// XLA has no implicit rank promotion: a (2,3) matrix plus a (3,) vector needs dims.
#include <bsx/bsx.hpp>

int main() {
    bsx::array<double, 2> a{{1, 2, 3}, {4, 5, 6}};
    bsx::array<double, 1> v{7, 8, 9};
    auto e = bsx::with_rules<bsx::xla_rules>(a) + v;
    return int(e.size());
}
