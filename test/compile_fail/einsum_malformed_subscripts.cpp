// expect: bsx: einsum: subscripts are letters
#include <bsx/bsx.hpp>
int main() {
    bsx::array<double, 2> a, b;
    (void)bsx::einsum<"ij,jk-ik">(a, b);
}
