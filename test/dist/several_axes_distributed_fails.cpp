// expect: bsx: expressions over distributed arrays reduce along one axis at a time
// A reduction over several axes copies its operand in one process: over a distributed
// array it must refuse with one error that says so.
#include <bsx/dist.hpp>

double misuse(const bsx::dist::array<double, 2>& d) { return bsx::eval(bsx::sum(d, bsx::axes(0, 1)))(); }
