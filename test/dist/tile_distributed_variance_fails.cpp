// expect: bsx::dist: concatenate, stack, hstack, vstack, tile, repeat, roll and pad do not take expressions over distributed arrays
// var reduces tile(d) twice (the mean, then the squared deviations): one error, not one per
// reduction, and none from the single-process reduction it must not fall back to.
#include <bsx/dist.hpp>

double misuse(const bsx::dist::array<double, 2>& d) { return bsx::var(bsx::tile(d, {1, 2})); }
