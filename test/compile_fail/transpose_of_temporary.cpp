// expect: view of a temporary array would dangle
// A transposed view of a temporary array would outlive its elements: it must not compile.
#include <bsx/bsx.hpp>

int main() {
    auto t = bsx::transpose(bsx::zeros<double>(2, 2));
    (void)t;
}
