// expect: views of a distributed expression are not supported
// A reduction of a view of a distributed array: one error, naming what dist supports
// (compile-fail test: test/CMakeLists.txt compiles it with MPI's include directories).
#include <bsx/dist.hpp>

double misuse(const bsx::dist::array<double, 2>& d) { return bsx::sum(bsx::transpose(d)); }
