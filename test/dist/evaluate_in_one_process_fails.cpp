// expect: bsx::dist: distributed arrays are read only by assignments to a bsx::dist::array and by bsx's reductions
// An ordinary array of a distributed expression would read rows other ranks hold: one
// error naming what reads distributed arrays, not the evaluator's missing binder.
#include <bsx/dist.hpp>

bsx::array<double, 2> misuse(const bsx::dist::array<double, 2>& d) { return bsx::array<double, 2>(d * 2.0); }
