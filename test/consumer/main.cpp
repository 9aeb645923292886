// Built by test/consumer/run_consumer.cmake against an installed bsx, once through
// find_package(bsx) and once with the flags of `pkg-config --cflags --libs bsx`.
#include <bsx/bsx.hpp>

#include <sstream>

int main() {
    bsx::array<double, 1> v{1, 2, 3};
    auto r = bsx::eval(v + 1.0);
    std::ostringstream printed;
    printed << r;
    return r(2) == 4.0 && printed.str() == "[2., 3., 4.]" ? 0 : 1;
}
