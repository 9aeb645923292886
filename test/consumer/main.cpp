// Built by test/consumer/run_consumer.cmake against an installed bsx.
#include <bsx/bsx.hpp>

int main() {
  bsx::array<double, 1> v{1, 2, 3};
  auto r = bsx::eval(v + 1.0);
  return r(2) == 4.0 ? 0 : 1;
}
