// expect: bsx: quantile interpolates between numbers, not bools
// NumPy's quantile refuses a bool array (its interpolation subtracts), so bsx::quantile
// must not compile for one; median, var and std of bools are allowed, as in NumPy.
#include <bsx/bsx.hpp>

int main() {
    bsx::array<bool, 1> b{true, false, true};
    auto q = bsx::quantile(b, 0.5);
    (void)q;
}
