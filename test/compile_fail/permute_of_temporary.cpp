// expect: view of a temporary array would dangle
// A permuted view of a temporary array would outlive its elements: it must not compile.
#include <bsx/bsx.hpp>

int main() {
    auto v = bsx::permute(bsx::zeros<double>(2, 3, 4), {2, 0, 1});
    (void)v;
}
