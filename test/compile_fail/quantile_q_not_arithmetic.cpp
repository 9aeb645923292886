// expect: bsx: median takes \(x\[, axis\[, bsx::keepdims\]\]\) and quantile \(x, q
// quantile's q is an arithmetic scalar (or several): a string there must give one short
// diagnostic that says so, not the list of every overload.
#include <bsx/bsx.hpp>

int main() {
    bsx::array<double, 1> x{1, 2, 3};
    auto q = bsx::quantile(x, "0.5");
    (void)q;
}
