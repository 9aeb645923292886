// bsx/eval/static_loop.hpp: evaluation of all-static expressions below the parallel
// threshold: one loop of constant trip count over the destination, each operand read
// at an offset the compiler knows; no shape logic, threads, tiles or heap. An operand
// that reads destination elements other than the one being written makes the loop
// write a copy on the stack first.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <type_traits>

#include <boost/hana/for_each.hpp>

#include "../config.hpp"
#include "../detail/convert.hpp"
#include "../expr/operand.hpp"
#include "../expr/static_extents.hpp"
#include "alias.hpp"
#include "evaluator.hpp"

namespace bsx::detail {

/// Whether any memory leaf of `e` touches `range` (walking the node protocol's children(),
/// or asking a node whose operands are not children, assembly_node, itself).
template <class E>
bool reads_memory_in(const E& e, const byte_range& range) noexcept {
    if constexpr (strided_expression<E>) {
        return memory_range(e.data(), e.shape(), e.strides()).overlaps(range);
    } else if constexpr (requires { e.reads_memory_in(range); }) {
        return e.reads_memory_in(range);
    } else {
        bool any = false;
        boost::hana::for_each(e.children(),
                              [&](const auto& held) { any = any || reads_memory_in(unwrap(held), range); });
        return any;
    }
}

/// Expressions the static loop evaluates: every extent known, every node kind able to
/// load statically, and small enough to stay serial.
template <class E>
concept static_loop_expression =
    statically_shaped<E> && rank_v<E> >= 1 && binder<std::remove_cvref_t<E>>::static_loads &&
    shape_size(static_shape_v<E>) < BSX_PARALLEL_THRESHOLD;

/// Precondition: no operand reads an element of `out` other than the one being written
/// (the destination itself, read in place, is fine), so iterations are independent and
/// the compiler is told so: it would otherwise keep a scalar version for that overlap.
/// (Not `omp simd`: a user function may throw.)
template <class T, class E>
void run_static_loop(T* out, const E& e) {
    using place = root_place_t<E>;
    constexpr index_t n = shape_size(static_shape_v<E>);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC ivdep
#endif
    for (index_t i = 0; i < n; ++i) out[i] = convert<T>(binder<E>::template static_load<place>(e, i));
}

/// Writes `e` into the contiguous row-major memory at `out`, of e's static shape.
template <class T, static_loop_expression E>
void assign_static(T* out, const E& e) {
    constexpr index_t n = shape_size(static_shape_v<E>);
    if (binder<E>::template static_reads_elsewhere<root_place_t<E>>(e, out, n)) {
        std::array<T, std::size_t(n)> copy;  // value semantics: read everything before writing
        run_static_loop(copy.data(), e);
        std::copy(copy.begin(), copy.end(), out);
    } else {
        run_static_loop(out, e);
    }
}

}  // namespace bsx::detail
