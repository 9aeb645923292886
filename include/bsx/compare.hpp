// bsx/compare.hpp: whole-array comparisons that return a plain bool:
// array_equal (same shape, equal elements) and allclose (NumPy's tolerance test).
#pragma once

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

/// True when a and b have the same shape and equal elements (NaN equals nothing). A number
/// on either side is compared with every element (it broadcasts; NumPy would say false, the
/// shapes differing).
template <operand A, operand B>
    requires detail::involves_expression<A, B>
bool array_equal(const A& a, const B& b) {
    if constexpr (!expression<A> || !expression<B>) {
        return detail::all_true(eval(a == b));
    } else if constexpr (rank_v<A> != rank_v<B>) {
        return false;
    } else {
        if (a.shape() != b.shape()) return false;
        return detail::all_true(eval(a == b));
    }
}

/// NumPy allclose: every element of isclose(a, b, rtol, atol) after broadcasting (either
/// side may be a number). Incompatible shapes throw bsx::broadcast_error.
template <operand A, operand B>
    requires detail::involves_expression<A, B>
bool allclose(const A& a, const B& b, double rtol = 1e-5, double atol = 1e-8) {
    return detail::all_true(eval(bsx::isclose(a, b, rtol, atol)));
}

}  // namespace bsx
