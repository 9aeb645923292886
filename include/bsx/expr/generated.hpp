// bsx/expr/generated.hpp: a leaf whose elements are computed from their position
// (arange, linspace, eye, random numbers): it stores a shape and a small function of
// the row-major element number, never memory, so it aliases nothing and fuses into any
// assignment or reduction as a memory leaf would (its binder: eval/evaluator.hpp).
#pragma once

#include <concepts>
#include <cstddef>
#include <string_view>
#include <type_traits>

#include <boost/hana/tuple.hpp>

#include "../config.hpp"
#include "../shape/shape.hpp"
#include "node.hpp"
#include "static_extents.hpp"

namespace bsx {

/// A function of an element's row-major number (0 .. size - 1): what a generated leaf
/// computes. It must not throw (it runs inside the evaluation loops). It may also have
/// `fill(first, step, len, out)`, writing the values at first, first + step, ... to out at
/// once, where that is cheaper than one call per element.
template <class F>
concept element_function = std::copy_constructible<F> && requires(const F& f, index_t i) {
    { f(i) } noexcept;
    requires std::is_arithmetic_v<decltype(f(i))>;
};

/// The leaf: rank N, a run-time shape, and element i (row-major) `values(i)`.
template <element_function F, std::size_t N>
class generated : public node_base<generated<F, N>> {
public:
    using value_type = decltype(std::declval<const F&>()(index_t{}));
    using rules_tag = void;
    static constexpr std::size_t rank = N;
    static constexpr shape_t<N> static_extents = detail::dynamic_shape<N>();

    /// Throws std::invalid_argument for a negative extent and std::length_error for a size
    /// past index_t, naming `operation`.
    generated(std::string_view operation, const shape_t<N>& shape, F values)
        : values_(std::move(values)), shape_(shape) {
        detail::checked_size(operation, shape, sizeof(value_type));
    }

    const shape_t<N>& shape() const noexcept { return shape_; }
    const F& values() const noexcept { return values_; }
    value_type element(const shape_t<N>& idx) const noexcept {
        index_t at = 0;
        for (std::size_t k = 0; k < N; ++k) at = at * shape_[k] + idx[k];
        return values_(at);
    }
    static boost::hana::tuple<> children() noexcept { return {}; }

private:
    F values_;
    shape_t<N> shape_;
};

}  // namespace bsx
