// expect: bsx::dist: distributed arrays are read only by assignments to a bsx::dist::array and by bsx's reductions
// The eager functions (sort, scans, products, quantile, selections) evaluate their operand
// in one process: given a distributed array, one error says so.
#include <bsx/dist.hpp>

bsx::array<double, 2> misuse(const bsx::dist::array<double, 2>& d) { return bsx::sort(d); }
