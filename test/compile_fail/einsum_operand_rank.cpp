// expect: bsx: einsum: an operand's subscripts must name each of its axes
#include <bsx/bsx.hpp>
int main() {
    bsx::array<double, 3> a;
    bsx::array<double, 2> b;
    (void)bsx::einsum<"ij,jk->ik">(a, b);
}
