// expect: operands tagged with different rule sets \(with_rules\) cannot meet in one node
// Two different rule tags meeting in one node: which alignment would apply is ambiguous.
#include <bsx/bsx.hpp>

int main() {
    bsx::array<double, 2> a{{1, 2, 3}, {4, 5, 6}};
    bsx::array<double, 1> b{7, 8};
    auto e = bsx::with_rules<bsx::octave_rules>(a) + bsx::with_rules<bsx::numpy_rules>(b);
    return int(e.size());
}
