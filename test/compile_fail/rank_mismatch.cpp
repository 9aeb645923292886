// expect: rank of the expression
#include <bsx/bsx.hpp>
int main() { bsx::array<double, 3> a; bsx::array<double, 2> r = a + 1.0; (void)r; }
