// expect: view of a temporary array would dangle
// The row of a temporary distributed array would outlive it: one error, naming the reason
// (compile-fail test: test/CMakeLists.txt compiles it with MPI's include directories).
#include <bsx/dist.hpp>

auto misuse() { return bsx::dist::zeros<double>(4, 4).row(1); }
