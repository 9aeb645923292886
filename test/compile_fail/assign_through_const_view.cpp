// expect: cannot assign through a view of const elements
// Views of a const array are read-only: assigning through one must not compile.
#include <bsx/bsx.hpp>

int main() {
    const bsx::array<double, 2> a{{1, 2}, {3, 4}};
    a.row(0) = 5.0;
}
