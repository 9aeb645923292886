// expect: no matching function for call to .*sort
// A rank-0 array has no axis to sort along (NumPy: "axis -1 is out of bounds for array of
// dimension 0"), so bsx::sort of one must not compile.
#include <bsx/bsx.hpp>

int main() {
    bsx::array<double, 0> x(1.0);
    auto s = bsx::sort(x);
    (void)s;
}
