// expect: bsx: einsum: a letter of the result is in no operand
#include <bsx/bsx.hpp>
int main() {
    bsx::array<double, 2> a;
    (void)bsx::einsum<"ij->iz">(a);
}
