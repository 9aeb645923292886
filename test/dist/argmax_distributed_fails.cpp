// expect: bsx: argmin, argmax, nanargmin and nanargmax do not take expressions over distributed arrays
// The index reductions scan every element in one process: over a distributed array they
// must refuse with one error that says so, not fail inside bsx::dist's reduction.
#include <bsx/dist.hpp>

bsx::index_t misuse(const bsx::dist::array<double, 2>& d) { return bsx::argmax(d); }
