// expect: view of a temporary array would dangle
// A broadcast view of a temporary array would outlive its elements: it must not compile.
#include <bsx/bsx.hpp>

int main() {
    auto v = bsx::broadcast_to(bsx::zeros<double>(3), {2, 3});
    (void)v;
}
