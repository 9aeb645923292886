// expect: bsx: the right-hand side must be a bsx expression or an arithmetic scalar
// Assigning something that is neither a bsx expression nor a number to an array must not
// compile (and std::is_assignable says false, test_compile_time_checks.cpp).
#include <bsx/bsx.hpp>

#include <string>

int main() {
    bsx::array<double, 2> r = bsx::zeros<double>(2, 2);
    r = std::string("1");
}
