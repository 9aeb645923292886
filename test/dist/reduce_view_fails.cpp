// A reduction of a view of a distributed array: one error, naming what dist supports
// (compile-fail test, registered in test/CMakeLists.txt with MPI's include directories).
#include <bsx/dist.hpp>

double misuse(const bsx::dist::array<double, 2>& d) { return bsx::sum(bsx::transpose(d)); }
