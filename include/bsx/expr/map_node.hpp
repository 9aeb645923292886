// bsx/expr/map_node.hpp: the one inner node of the expression tree. It applies a
// scalar operation to k broadcast operands (k = 1 for `-x`, 2 for `a + b`, 3 for
// `where`, any k for `map`). Its shape is computed, and checked, once at construction.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include <boost/hana/at.hpp>
#include <boost/hana/tuple.hpp>

#include "../detail/refusals.hpp"
#include "operand.hpp"
#include "../shape/rules.hpp"
#include "expression.hpp"
#include "node.hpp"
#include "static_extents.hpp"
#include "with_rules.hpp"

namespace bsx {

namespace detail {
/// The name an operation carries into error messages ("operator+", "atan2", "map").
template <class Op>
std::string_view op_name(const Op& op) {
    return op.name;
}
}  // namespace detail

template <class Op, class... Held>
class map_node : public node_base<map_node<Op, Held...>> {
public:
    /// The operands' common rule set (void when none is tagged), passed up the tree.
    using rules_tag = detail::common_tag_t<detail::unwrapped_t<Held>...>;
    using rules = detail::rules_or_default_t<rules_tag>;
    using value_type = std::remove_cvref_t<std::invoke_result_t<const Op&, value_type_t<detail::unwrapped_t<Held>>...>>;
    static constexpr std::size_t rank = std::max({std::size_t{0}, rank_v<detail::unwrapped_t<Held>>...});

private:
    // The children's static shapes broadcast by the run-time rule (shape/static_shape.hpp).
    static constexpr auto static_result =
        detail::static_broadcast<rules>(detail::static_extents_of<detail::unwrapped_t<Held>>()...);
    static_assert(!static_result.clashes(), BSX_REFUSAL_STATIC_CLASH(message));

public:
    static constexpr shape_t<rank> static_extents = static_result.shape;

    template <class... X>
    explicit map_node(Op op, X&&... operands)
        : op_(std::move(op)), children_(std::forward<X>(operands)...), shape_(broadcast_children()) {
        static_assert(detail::expression_node<map_node>, BSX_REFUSAL_NODE_PROTOCOL(message));
    }

    const shape_t<rank>& shape() const noexcept { return shape_; }
    const Op& op() const noexcept { return op_; }

    /// The shape the operands give now. Differs from shape() only if an array the node
    /// refers to was resized after the node was built; evaluation checks this.
    shape_t<rank> current_shape() const { return broadcast_children(); }
    const boost::hana::tuple<Held...>& children() const noexcept { return children_; }

    /// Computes one element (slow path for inspection; assignment uses the evaluator).
    value_type element(const shape_t<rank>& idx) const { return element_at(idx, std::index_sequence_for<Held...>{}); }

private:
    Op op_;
    boost::hana::tuple<Held...> children_;
    shape_t<rank> shape_;

    shape_t<rank> broadcast_children() const {
        // Every child's extents known: checked when the node's type was formed. (A known
        // result alone is not enough: a dynamic child must still match it.)
        if constexpr ((statically_shaped<detail::unwrapped_t<Held>> && ...)) {
            return static_extents;
        } else {
            return broadcast_shapes_of(std::index_sequence_for<Held...>{});
        }
    }

    template <std::size_t... I>
    shape_t<rank> broadcast_shapes_of(std::index_sequence<I...>) const {
        if constexpr (sizeof...(I) >= 3)
            return detail::broadcast_many<rules>(detail::op_name(op_),
                                                 detail::unwrap(boost::hana::at_c<I>(children_)).shape()...);
        else if constexpr (sizeof...(I) == 2)
            return detail::broadcast_pair<rules>(detail::op_name(op_),
                                                 detail::unwrap(boost::hana::at_c<0>(children_)).shape(),
                                                 detail::unwrap(boost::hana::at_c<1>(children_)).shape());
        else
            return detail::broadcast_pair<rules>(detail::op_name(op_), shape_t<0>{},
                                                 detail::unwrap(boost::hana::at_c<0>(children_)).shape());
    }
    template <std::size_t... I>
    value_type element_at(const shape_t<rank>& idx, std::index_sequence<I...>) const {
        return static_cast<value_type>(op_(child_element(detail::unwrap(boost::hana::at_c<I>(children_)), idx)...));
    }

    template <class C>
    static auto child_element(const C& c, const shape_t<rank>& idx) {
        constexpr std::size_t r = rank_v<C>;
        shape_t<r> ci{};
        const auto cs = c.shape();
        for (std::size_t k = 0; k < r; ++k) ci[k] = cs[k] == 1 ? 0 : idx[rules::result_axis(k, r, rank)];
        return c.element(ci);
    }
};

namespace detail {

/// Builds the node for `op` applied to `xs...`, after one readable check of the operands.
/// (The public operators and functions reject mixed tags and unaligned ranks in their
/// signatures already; these checks keep internal callers honest.)
template <class Op, class... X>
auto make_node(Op op, X&&... xs) {
    if constexpr (!(operand<X> && ...)) {
        static_assert((operand<X> && ...), BSX_REFUSAL_NON_NUMERIC_OPERAND(message));
    } else if constexpr (!one_rule_set<X...>) {
        static_assert(one_rule_set<X...>, BSX_REFUSAL_MIXED_RULE_SETS(message));
    } else if constexpr (!ranks_align<X...>) {
        static_assert(ranks_align<X...>, BSX_REFUSAL_XLA_RANKS(message));
    } else {
        return map_node<Op, held_t<X>...>(std::move(op), hold(std::forward<X>(xs))...);
    }
}

}  // namespace detail
}  // namespace bsx
