// expect: bsx: a reduction takes \(x\), \(x, axis\) or \(x, axis, bsx::keepdims\)
// nanmean takes the arguments of sum, and its operand is a bsx expression: a plain double
// must give one short diagnostic. (nanmean of an integer array is allowed, as in NumPy.)
#include <bsx/bsx.hpp>

int main() {
    auto m = bsx::nanmean(2.5);
    (void)m;
}
