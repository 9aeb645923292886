// expect: bsx::dist: concatenate, stack, hstack, vstack, tile, repeat, roll and pad do not take expressions over distributed arrays
// An assembly node holds its pieces outside children(): assigned to a distributed array it
// must refuse with one error, not be read as a replicated operand.
#include <bsx/dist.hpp>

void misuse(bsx::dist::array<double, 2>& out, const bsx::dist::array<double, 2>& d) {
    out = bsx::concatenate({d, d}, 1);
}
