// expect: view of a temporary array would dangle
// A slice of a temporary array would outlive its elements: it must not compile.
#include <bsx/bsx.hpp>

int main() {
    auto v = bsx::slice(bsx::zeros<double>(4), bsx::range(1, 3));
    (void)v;
}
