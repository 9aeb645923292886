// expect: bsx: the rank of the expression differs from the rank of the array it initializes
#include <bsx/bsx.hpp>
int main() {
    bsx::array<double, 3> a;
    bsx::array<double, 2> r = a + 1.0;
    (void)r;
}
