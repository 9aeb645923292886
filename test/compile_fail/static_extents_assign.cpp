// expect: on_axis<0>, [a-z:]*extents<3, 2>.*cannot be broadcast
// Assigning into a fixed_array: a (2,1) result cannot fill a (3,3) destination.
#include <bsx/bsx.hpp>

int main() {
    bsx::fixed_array<double, 3, 3> r{};
    bsx::fixed_array<double, 2, 1> x{};
    r = x * 2.0;
    return int(r.size());
}
