// expect: view of a temporary array would dangle
// A reshaped view of a temporary array would outlive its elements: it must not compile.
#include <bsx/bsx.hpp>

int main() {
    auto v = bsx::reshape<2>(bsx::zeros<double>(6), {2, 3});
    (void)v;
}
