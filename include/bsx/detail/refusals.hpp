// bsx/detail/refusals.hpp: the reasons bsx gives for refusing a program at compile time,
// each written once, as the string literal on one line of one macro.
//
// A refused call selects a deleted overload (expr/constraints.hpp). g++ 12 and clang 14
// quote the line that spells the deleted function's name, and the lines of the macros that
// name was expanded from, but no comment elsewhere in its declaration. So a reason's macro
// spells the name too: BSX_REFUSAL_<REASON>(AS) pastes AS onto BSX_REFUSAL_AS_, whose
// macro keeps one part of what it is given:
//   - (message): the text, for a static_assert;
//   - (operator), (map), (bsxfun), (array), (fixed_array), (row), (col), (matmul): the name of the
//     deleted overload, as in `void BSX_REFUSAL_MIXED_RULE_SETS(operator)()(X&&...) const = delete;`,
//     and the diagnostic's macro backtrace quotes the reason's line.
// (C++26's `= delete("reason")` would say it directly.)
#pragma once

#define BSX_REFUSAL_AS_message(TEXT) TEXT
#define BSX_REFUSAL_AS_operator(TEXT) operator
#define BSX_REFUSAL_AS_map(TEXT) map
#define BSX_REFUSAL_AS_bsxfun(TEXT) bsxfun
#define BSX_REFUSAL_AS_array(TEXT) array
#define BSX_REFUSAL_AS_fixed_array(TEXT) fixed_array
#define BSX_REFUSAL_AS_row(TEXT) row
#define BSX_REFUSAL_AS_col(TEXT) col
#define BSX_REFUSAL_AS_matmul(TEXT) matmul

// Each reason on one line, the one the compilers quote, whatever its length.
// clang-format off

// Operands and right-hand sides: what an element-wise operation or an assignment takes.
#define BSX_REFUSAL_NON_NUMERIC_OPERAND(AS) BSX_REFUSAL_AS_##AS("bsx: every operand must be a bsx expression or an arithmetic scalar")
#define BSX_REFUSAL_NON_NUMERIC_SOURCE(AS) BSX_REFUSAL_AS_##AS("bsx: the right-hand side must be a bsx expression or an arithmetic scalar")
#define BSX_REFUSAL_MIXED_RULE_SETS(AS) BSX_REFUSAL_AS_##AS("bsx: operands tagged with different rule sets (with_rules) cannot meet in one node")
#define BSX_REFUSAL_DIMS_PER_AXIS(AS) BSX_REFUSAL_AS_##AS("bsx: give one broadcast dimension per axis of the operand placed (in the XLA form, of the lower-rank operand)")
#define BSX_REFUSAL_XLA_RANKS(AS) BSX_REFUSAL_AS_##AS("bsx: under xla rules, operands of different rank need explicit broadcast dimensions (bsx::in_dims, or the XLA form such as bsx::add(a, b, {dims}))")
#define BSX_REFUSAL_INTEGRAL_OPERANDS(AS) BSX_REFUSAL_AS_##AS("bsx: % and %= need integral operands (bsx::mod or bsx::rem for floating point); ~, &, |, ^, &=, |= and ^= need integral or bool operands")

// Known extents (expr/static_extents.hpp): the deleted overload's template argument Why
// names the axis and the extents, which a string literal cannot. (map_node asserts the
// first reason too, for the XLA form of equal ranks, whose signature does not check it:
// no Why there.)
#define BSX_REFUSAL_STATIC_CLASH(AS) BSX_REFUSAL_AS_##AS("bsx: static extents cannot be broadcast")
#define BSX_REFUSAL_STATIC_MISFIT(AS) BSX_REFUSAL_AS_##AS("bsx: static extents cannot be broadcast to the destination (Why names the axis, the destination's extent, then the source's)")

// Destinations.
#define BSX_REFUSAL_RANK_INITIALIZES(AS) BSX_REFUSAL_AS_##AS("bsx: the rank of the expression differs from the rank of the array it initializes")
#define BSX_REFUSAL_RANK_ASSIGNED(AS) BSX_REFUSAL_AS_##AS("bsx: the rank of the expression differs from the rank of the array it is assigned to")
#define BSX_REFUSAL_CONST_VIEW(AS) BSX_REFUSAL_AS_##AS("bsx: cannot assign through a view of const elements")
#define BSX_REFUSAL_MATMUL_OF_SCALAR(AS) BSX_REFUSAL_AS_##AS("bsx: matmul takes operands of rank 1 or more, as NumPy's; multiply by a scalar with *")

// Views of memory (view/, dist/array.hpp): a temporary array dies at the end of its full-expression.
#define BSX_REFUSAL_VIEW_OF_TEMPORARY(AS) BSX_REFUSAL_AS_##AS("bsx: a view of a temporary array would dangle; name the array first")

// Element types of arrays and files.
#define BSX_REFUSAL_ELEMENT_OBJECT(AS) BSX_REFUSAL_AS_##AS("bsx: array elements must be plain objects")
#define BSX_REFUSAL_NPY_DTYPE(AS) BSX_REFUSAL_AS_##AS("bsx: the element type has no .npy dtype (bool, int8..int64, uint8..uint64, float, double)")

// Node kinds (expr/node.hpp).
#define BSX_REFUSAL_NODE_PROTOCOL(AS) BSX_REFUSAL_AS_##AS("bsx: a node kind declares value_type, rank, rules_tag, static_extents, shape(), element(index) and children() (the node protocol, expr/node.hpp)")

// Reductions (reduce/).
#define BSX_REFUSAL_REDUCTION_ARGUMENTS(AS) BSX_REFUSAL_AS_##AS("bsx: a reduction takes (x), (x, axis) or (x, axis, bsx::keepdims), where x is an expression and axis an integer, bsx::axis(k) or bsx::axes(i, j, ...)")
#define BSX_REFUSAL_DISTRIBUTED_INDEX_REDUCTION(AS) BSX_REFUSAL_AS_##AS("bsx: argmin, argmax, nanargmin and nanargmax do not take expressions over distributed arrays")
#define BSX_REFUSAL_VARIANCE_ARGUMENTS(AS) BSX_REFUSAL_AS_##AS("bsx: var and std take (x), (x, axis) or (x, axis, bsx::keepdims), then optionally bsx::ddof(d), where x is an expression and axis an integer, bsx::axis(k) or bsx::axes(i, j, ...)")
#define BSX_REFUSAL_QUANTILE_ARGUMENTS(AS) BSX_REFUSAL_AS_##AS("bsx: median takes (x[, axis[, bsx::keepdims]]) and quantile (x, q[, axis[, bsx::keepdims]]), where x is an expression, q an arithmetic scalar, a rank-1 expression of them or a braced list, and axis an integer, bsx::axis(k) or bsx::axes(i, j, ...)")
#define BSX_REFUSAL_QUANTILE_OF_BOOL(AS) BSX_REFUSAL_AS_##AS("bsx: quantile interpolates between numbers, not bools (as NumPy's); cast the operand first, e.g. bsx::cast<double>(x)")
#define BSX_REFUSAL_DISTRIBUTED_AXES(AS) BSX_REFUSAL_AS_##AS("bsx: expressions over distributed arrays reduce along one axis at a time")

// Distributed arrays (dist/): what bsx::dist cannot rewrite into this rank's part.
#define BSX_REFUSAL_DISTRIBUTED_VIEW(AS) BSX_REFUSAL_AS_##AS("bsx::dist: distributed arrays combine through element-wise operations, with_rules and reductions only; views of a distributed expression are not supported")
#define BSX_REFUSAL_DISTRIBUTED_ASSEMBLY(AS) BSX_REFUSAL_AS_##AS("bsx::dist: concatenate, stack, hstack, vstack, tile, repeat, roll and pad do not take expressions over distributed arrays; assemble a gathered copy (bsx::dist::gather)")
#define BSX_REFUSAL_DISTRIBUTED_IN_ONE_PROCESS(AS) BSX_REFUSAL_AS_##AS("bsx::dist: distributed arrays are read only by assignments to a bsx::dist::array and by bsx's reductions; an ordinary array, a view or an eager function (sort, cumsum, matmul, quantile, ...) takes a gathered copy (bsx::dist::gather)")
// clang-format on
