// expect: view of a temporary array would dangle
// The masked selection of a temporary array would outlive its elements: it must not compile.
#include <bsx/bsx.hpp>

int main() {
    auto s = bsx::zeros<double>(2, 3)(bsx::zeros<bool>(2, 3));
    (void)s;
}
