// bsx/expr/operand.hpp: how a node stores each operand. Lvalue arrays are held by
// reference, everything else (views, nodes, temporaries, scalars) by value, so an
// expression kept in `auto` never dangles on a temporary.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "expression.hpp"
#include "scalar.hpp"

namespace bsx::detail {

/// Owning arrays declare `using bsx_owning_tag = void;`: copying them copies all elements.
template <class E>
concept owning_array = requires { typename std::remove_cvref_t<E>::bsx_owning_tag; };

/// An lvalue array held by a node: a pointer to it. (std::reference_wrapper would do, but
/// <functional> costs every translation unit more to parse than all of this header.)
template <class A>
struct array_ref {
    const A* array;
};

template <class X>
auto hold(X&& x) {
    if constexpr (arithmetic_scalar<X>)
        return scalar<std::remove_cvref_t<X>>{x};
    else if constexpr (owning_array<X> && std::is_lvalue_reference_v<X>)
        return array_ref<std::remove_cvref_t<X>>{&x};
    else
        return std::remove_cvref_t<X>(std::forward<X>(x));
}

/// The stored form of an operand of (reference) type X.
template <class X>
using held_t = decltype(hold(std::declval<X>()));

template <class H>
const H& unwrap(const H& h) noexcept {
    return h;
}
template <class A>
const A& unwrap(array_ref<A> h) noexcept {
    return *h.array;
}

/// The rank of an operand; plain scalars are rank 0.
template <class X>
constexpr std::size_t operand_rank() noexcept {
    if constexpr (expression<X>)
        return rank_v<X>;
    else
        return 0;
}

/// The shape of an operand; plain scalars have shape ().
template <class X>
auto operand_shape(const X& x) {
    if constexpr (expression<X>)
        return x.shape();
    else
        return shape_t<0>{};
}

/// The expression type behind a stored operand.
template <class H>
using unwrapped_t = std::remove_cvref_t<decltype(unwrap(std::declval<const H&>()))>;

}  // namespace bsx::detail
