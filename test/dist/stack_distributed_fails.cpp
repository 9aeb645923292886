// expect: bsx::dist: concatenate, stack, hstack, vstack, tile, repeat, roll and pad do not take expressions over distributed arrays
// stack's pieces are views of distributed arrays, held outside children(): the implicit
// conversion to a distributed array must refuse with one error.
#include <bsx/dist.hpp>

bsx::dist::array<double, 3> misuse(const bsx::dist::array<double, 2>& d) { return bsx::stack(d, d + 1.0, 0); }
