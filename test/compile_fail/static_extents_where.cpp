// expect: on_axis<1>, [a-z:]*extents<4, 3>.*cannot be broadcast
// where's three operands broadcast together: a (4,) choice against (2,3) arrays, and a
// dynamic operand beside them changes nothing.
#include <bsx/bsx.hpp>

int main() {
    bsx::fixed_array<bool, 4> c{};
    bsx::fixed_array<double, 2, 3> a{};
    bsx::array<double, 2> b({2, 3});
    auto e = bsx::where(c, b, a);
    return int(e.size());
}
