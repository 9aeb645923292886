// expect: bsx: var and std take \(x\), \(x, axis\) or \(x, axis, bsx::keepdims\), then optionally bsx::ddof\(d\)
// var's operand is a bsx expression, and ddof is spelled bsx::ddof(d): a plain number there
// must give one short diagnostic that says so, not the list of every overload.
#include <bsx/bsx.hpp>

int main() {
    bsx::array<double, 2> a{{1, 2}, {3, 4}};
    auto v = bsx::var(a, 0, 1);
    (void)v;
}
