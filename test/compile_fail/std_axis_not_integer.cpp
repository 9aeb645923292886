// expect: bsx: var and std take \(x\), \(x, axis\) or \(x, axis, bsx::keepdims\)
// std's axis is an integer, bsx::axis(k) or bsx::axes(...): a double there must give one
// short diagnostic that says so.
#include <bsx/bsx.hpp>

int main() {
    bsx::array<double, 2> a{{1, 2}, {3, 4}};
    auto s = bsx::std(a, 0.5);
    (void)s;
}
