// expect: on_axis<0>, [a-z:]*extents<3, 4>.*cannot be broadcast
// A function of two operands checks known extents too: a 3-vector with a 4-vector.
#include <bsx/bsx.hpp>

int main() {
    bsx::fixed_array<double, 3> y{};
    bsx::fixed_array<double, 4> x{};
    auto e = bsx::atan2(y, x);
    return int(e.size());
}
