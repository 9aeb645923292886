// bsx/expr/placed_node.hpp: an operand seen at a higher rank or a larger shape (XLA's
// InDim placement, BroadcastInDim). Operand axis k lies on result axis at[k]; every
// other result axis, and every operand axis of extent 1, is broadcast. Memory operands
// get a strided view instead (view/in_dims.hpp); this node serves the lazy ones.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>
#include <utility>

#include "operand.hpp"
#include "../shape/broadcast_dims.hpp"
#include "expression.hpp"
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

    /// Precondition (checked by the callers): shape[at[k]] is the operand's extent k, or
    /// that extent is 1.
    placed_node(Held held, const detail::placement_t<r>& at, const shape_t<R>& shape)
        : base(std::move(held)), at_(at), shape_(shape) {}

    const detail::placement_t<r>& placement() const noexcept { return at_; }
    const shape_t<R>& shape() const noexcept { return shape_; }

    value_type element(const shape_t<R>& idx) const {
        const auto s = operand().shape();
        shape_t<r> at_idx{};
        for (std::size_t k = 0; k < r; ++k) at_idx[k] = s[k] == 1 ? 0 : idx[at_[k]];
        return operand().element(at_idx);
    }

private:
    detail::placement_t<r> at_;
    shape_t<R> shape_;
};

namespace detail {

/// Any operand placed at rank R, its axis k on axis dims[k], as a node: the broadcast
/// dimensions of `bsx::add(a, b, {dims})`. `operation` names the caller in errors.
template <std::size_t R, class X>
auto place_in_dims(std::string_view operation, X&& x, std::span<const index_t> dims) {
    const auto s = operand_shape(x);
    const auto at = placement_from_dims<R>(operation, s, dims);
    return placed_node<held_t<X>, R>(hold(std::forward<X>(x)), at, placed_shape<R>(s, at));
}

}  // namespace detail

}  // namespace bsx
