// bsx/reduce/custom_reduction.hpp: the customization point through which an expression
// kind whose elements this process cannot read alone (bsx::dist's distributed arrays)
// takes over sum, prod, mean, min, max, all and any of every expression containing it,
// whole and along an axis. reduce/ cannot name such kinds (they live in higher layers),
// so it finds them by argument-dependent lookup.
#pragma once

#include <cstddef>

#include "../eval/reduce.hpp"

namespace bsx::detail {

/// Satisfied when argument-dependent lookup finds `bsx_reduce(Op{}, x, axis, out, direct)`
/// for X, which then does what reduce_expression<Op>(x, axis, out, direct) does. A node's
/// template arguments name its operands' types, so a function in the namespace of a leaf
/// kind is found for every expression over that leaf. The reductions branch on it with
/// `if constexpr`; ordinary expressions find no such function, so for them the check is a
/// lookup and instantiates nothing.
template <class Op, class X>
concept custom_reduction =
    requires(const X& x, reduced_t<Op, X>* out) { bsx_reduce(Op{}, x, std::size_t{}, out, false); };

}  // namespace bsx::detail
