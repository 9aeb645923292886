// bsx/compare.hpp: whole-array comparisons that return a plain bool:
// array_equal (same shape, equal elements) and allclose (NumPy's tolerance test).
#pragma once

#include <cmath>
#include <cstddef>

#include "expr/functions.hpp"
#include "expr/operators.hpp"
#include "factories.hpp"

namespace bsx {

namespace detail {
template <std::size_t N>
bool all_true(const array<bool, N>& a) {
    for (bool b : a)
        if (!b) return false;
    return true;
}
}  // namespace detail

/// True when a and b have the same shape and equal elements (NaN equals nothing).
template <expression A, expression B>
bool array_equal(const A& a, const B& b) {
    if constexpr (rank_v<A> != rank_v<B>) {
        return false;
    } else {
        if (a.shape() != b.shape()) return false;
        return detail::all_true(eval(a == b));
    }
}

/// NumPy allclose: |a - b| <= atol + rtol * |b| element-wise after broadcasting where
/// both are finite; infinities are close only to themselves, NaN to nothing.
/// Incompatible shapes throw bsx::broadcast_error.
template <expression A, expression B>
bool allclose(const A& a, const B& b, double rtol = 1e-5, double atol = 1e-8) {
    return detail::all_true(
        eval(bsx::where(bsx::isfinite(a) && bsx::isfinite(b), bsx::abs(a - b) <= atol + rtol * bsx::abs(b), a == b)));
}

}  // namespace bsx
