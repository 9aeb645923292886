// expect: bsx: median takes \(x\[, axis\[, bsx::keepdims\]\]\)
// median's axis is an integer, bsx::axis(k) or bsx::axes(...): a double there must give
// one short diagnostic that says so.
#include <bsx/bsx.hpp>

int main() {
    bsx::array<double, 2> a{{1, 2}, {3, 4}};
    auto m = bsx::median(a, 1.5);
    (void)m;
}
