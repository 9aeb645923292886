// expect: view of a temporary array would dangle
// A row of a temporary array would outlive its elements: it must not compile.
#include <bsx/bsx.hpp>

int main() {
    auto v = bsx::zeros<double>(2, 3).row(0);
    (void)v;
}
