// expect: on_axis<1>, [a-z:]*extents<3, 2>.*cannot be broadcast
// Two fixed_arrays whose known extents clash on axis 1: (2,3) + (2,2) does not compile.
#include <bsx/bsx.hpp>

int main() {
    bsx::fixed_array<double, 2, 3> a{};
    bsx::fixed_array<double, 2, 2> b{};
    auto e = a + b;
    return int(e.size());
}
