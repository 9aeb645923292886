// bsx/bsx.hpp: the whole library. Lazy broadcasting array expressions: arrays and
// views (array.hpp, view/), operators and functions (expr/), broadcasting rule sets
// (shape/), the fused evaluator (eval/).
#pragma once

#include "config.hpp"
#include "fwd.hpp"
#include "version.hpp"
#include "shape/broadcast_dims.hpp"
#include "shape/broadcast_error.hpp"
#include "shape/rules.hpp"
#include "shape/shape.hpp"
#include "shape/static_shape.hpp"

#include "expr/expression.hpp"
#include "expr/functions.hpp"
#include "expr/map_node.hpp"
#include "expr/node.hpp"
#include "expr/operators.hpp"
#include "expr/placed_node.hpp"
#include "expr/static_extents.hpp"
#include "expr/unary_node.hpp"
#include "expr/with_rules.hpp"

#include "reduce/index_reductions.hpp"
#include "reduce/reduce_node.hpp"
#include "reduce/reduce_ops.hpp"
#include "reduce/reductions.hpp"
#include "reduce/statistics.hpp"

#include "eval/compound_assignment.hpp"

#include "array.hpp"
#include "assembly.hpp"
#include "creation.hpp"
#include "factories.hpp"
#include "fixed_array.hpp"
#include "random.hpp"
#include "view/in_dims.hpp"
#include "view/permute.hpp"
#include "view/reshape.hpp"
#include "view/slice.hpp"
#include "view/strided_view.hpp"

#include "compare.hpp"
#include "scans.hpp"
#include "gather.hpp"
#include "masks.hpp"
#include "algorithm/einsum.hpp"
#include "algorithm/products.hpp"
#include "algorithm/quantile.hpp"
#include "algorithm/sort.hpp"
#include "io/npy.hpp"
#ifdef BSX_HAVE_ZLIB
#include "io/npz.hpp"
#endif
#include "io/print.hpp"
#include "io/text.hpp"
