// expect: bsx: a reduction takes \(x\), \(x, axis\) or \(x, axis, bsx::keepdims\)
// A reduction's axis is an integer, bsx::axis(k) or bsx::axes(...): a double there must
// give one short diagnostic that says so, not the list of every overload.
#include <bsx/bsx.hpp>

int main() {
    bsx::array<double, 2> a{{1, 2}, {3, 4}};
    auto r = bsx::sum(a, 1.5);
    (void)r;
}
