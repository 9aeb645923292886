// bsx/view/remap.hpp: the step behind every view function: an operand read through an
// index map at a new shape. Memory gives a strided view (the map folded into its pointer
// and strides; nothing is copied); any other expression gives a placed_node, which
// binding sees through, so a view of a lazy expression stays lazy.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "../expr/expression.hpp"
#include "../expr/index_map.hpp"
#include "../expr/placed_node.hpp"
#include "../shape/shape.hpp"
#include "strided_view.hpp"

namespace bsx::detail {

/// `x` of rank r read through `map` as an expression of shape `shape`. A view of a
/// temporary array does not compile (view_of); callers that may hold one by value
/// (in_dims) call place_lazily themselves.
template <std::size_t R, class X>
auto remap(X&& x, index_map<operand_rank<X>(), R> map, const shape_t<R>& shape) {
    if constexpr (strided_expression<X>) {
        const auto v = view_of(std::forward<X>(x));
        map.pin_unit_axes(v.shape());
        using elem = std::remove_pointer_t<decltype(v.data())>;
        // An empty view keeps the operand's pointer: its first index need not exist.
        const index_t offset = shape_size(shape) == 0 ? 0 : offset_through(v.strides(), map);
        return strided_view<elem, R>(detail::offset_pointer(v.data(), offset), shape,
                                     strides_through(v.strides(), map));
    } else {
        return place_lazily<R>(std::forward<X>(x), map, shape);
    }
}

}  // namespace bsx::detail
