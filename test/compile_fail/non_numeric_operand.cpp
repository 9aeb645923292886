// expect: every operand must be a bsx expression or an arithmetic scalar
// An operator applied to a non-numeric operand (a std::string) must not compile, and
// the diagnostic must say why in words.
#include <bsx/bsx.hpp>

#include <string>

int main() {
    bsx::array<double, 1> a{1, 2, 3};
    auto e = a + std::string("x");
    (void)e;
}
