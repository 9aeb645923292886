// expect: bsx: every operand must be a bsx expression or an arithmetic scalar
// A function applied to an operand that is a plain struct must not compile, and the
// diagnostic must say why in words.
#include <bsx/bsx.hpp>

struct point {
    double x, y;
};

int main() {
    bsx::array<double, 1> a{1, 2, 3};
    auto e = bsx::atan2(a, point{1, 2});
    (void)e;
}
