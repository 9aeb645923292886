// expect: bsx: the rank of the expression differs from the rank of the array it initializes
// An array built from an array of another rank: ranks are static, so this must not compile
// (and std::is_constructible says false, test_compile_time_checks.cpp).
#include <bsx/bsx.hpp>

int main() {
    const bsx::array<double, 3> a = bsx::zeros<double>(2, 3, 4);
    bsx::array<double, 2> r(a);
    return int(r.size());
}
