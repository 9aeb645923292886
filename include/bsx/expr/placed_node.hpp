// bsx/expr/placed_node.hpp: an operand read at other indices: placed at a higher rank
// or a larger shape (XLA's InDim, BroadcastInDim), or permuted, sliced, reshaped or
// broadcast by the view functions. The node holds an affine index map (expr/index_map.hpp)
// and computes nothing: binding composes the map into the leaves' strides. Memory
// operands get a strided view instead (view/remap.hpp); this node serves the lazy ones.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>
#include <utility>

#include "../shape/broadcast_dims.hpp"
#include "expression.hpp"
#include "index_map.hpp"
#include "operand.hpp"
#include "static_extents.hpp"
#include "unary_node.hpp"
#include "with_rules.hpp"

namespace bsx {

template <class Held, std::size_t R>
class placed_node : public unary_node<placed_node<Held, R>, Held> {
    using base = unary_node<placed_node<Held, R>, Held>;
    using typename base::operand_type;
    static constexpr std::size_t r = rank_v<operand_type>;

public:
    using base::operand;
    using rules_tag = detail::rules_tag_t<operand_type>;
    using value_type = value_type_t<operand_type>;
    static constexpr std::size_t rank = R;
    /// The index map is a run-time value, so no extent is known at compile time.
    static constexpr shape_t<R> static_extents = detail::dynamic_shape<R>();

    /// Precondition (checked by the callers): `map` takes every index of `shape` to an
    /// index of the operand, or to 0 on the operand's axes of extent 1.
    placed_node(Held held, const detail::index_map<r, R>& map, const shape_t<R>& shape)
        : base(std::move(held)), map_(map), shape_(shape) {
        map_.pin_unit_axes(operand().shape());
    }

    const detail::index_map<r, R>& map() const noexcept { return map_; }
    const shape_t<R>& shape() const noexcept { return shape_; }
    value_type element(const shape_t<R>& idx) const { return operand().element(map_(idx)); }

private:
    detail::index_map<r, R> map_;
    shape_t<R> shape_;
};

namespace detail {

/// Any operand read through `map` as a node of shape `shape` (lazily, whatever it is).
template <std::size_t R, class X>
auto place_lazily(X&& x, const index_map<operand_rank<X>(), R>& map, const shape_t<R>& shape) {
    return placed_node<held_t<X>, R>(hold(std::forward<X>(x)), map, shape);
}

/// Any operand placed at rank R, its axis k on axis dims[k], as a node: the broadcast
/// dimensions of `bsx::add(a, b, {dims})`. `operation` names the caller in errors.
template <std::size_t R, class X>
auto place_in_dims(std::string_view operation, X&& x, std::span<const index_t> dims) {
    const auto s = operand_shape(x);
    const auto at = placement_from_dims<R>(operation, s, dims);
    return place_lazily<R>(std::forward<X>(x), index_map<operand_rank<X>(), R>::aligned(at), placed_shape<R>(s, at));
}

}  // namespace detail
}  // namespace bsx
