// bsx/expr/node.hpp: the node protocol, the members every lazy node kind has (the
// concept detail::expression_node), and node_base, which writes the members derived
// from the others once (size, extent, operator()).
#pragma once

#include <concepts>
#include <cstddef>
#include <type_traits>
#include <utility>

#include <boost/hana/fwd/tuple.hpp>

#include "../shape/shape.hpp"

namespace bsx {

namespace detail {

template <class T>
struct is_hana_tuple : std::false_type {};
template <class... T>
struct is_hana_tuple<boost::hana::tuple<T...>> : std::true_type {};

/// The node protocol. A node kind N (map_node, placed_node, rules_tagged, reduce_node,
/// scalar) declares
///   - `value_type`, `static constexpr std::size_t rank` and `rules_tag` (void: untagged);
///   - `shape()`, a shape_t<rank> fixed (and checked) when the node is built;
///   - `static constexpr shape_t<rank> static_extents`, its shape as far as it is known at
///     compile time (bsx::dynamic_extent elsewhere), computed from its children's by the
///     run-time rule (shape/static_shape.hpp); all known, it is shape() itself;
///   - `element(const shape_t<rank>&)`, one element computed on its own (inspection,
///     printing; assignment never calls it);
///   - `children()`, a hana::tuple of its operands as stored (empty for a leaf);
///   - optionally `operand_types`, a hana::tuple type naming the types of the operands it
///     reads but cannot list in children() (a run-time number of them, as an assembly
///     node's braced list): walks that ask what a tree reads at compile time (bsx::dist's)
///     look there too;
/// and derives from node_base<N> (nodes of one operand from unary_node<N, Held>), which adds `size()`, `extent(axis)` and
/// `operator()(i...)` and marks N as a bsx expression. Evaluation finds how to bind N in
/// its specialization of detail::binder (eval/evaluator.hpp): a new kind is one node
/// type plus one binder.
/// The constructors of map_node, unary_node and scalar assert this concept, so a kind that
/// lacks a member fails where it is built, with one message. node_base cannot: the MPI
/// module's leaves derive from it to be expressions, and have no children.
template <class N>
concept expression_node = requires(const N& n, const shape_t<N::rank>& index) {
    typename N::value_type;
    typename N::rules_tag;
    { N::static_extents } -> std::convertible_to<shape_t<N::rank>>;
    { n.shape() } -> std::convertible_to<shape_t<N::rank>>;
    { n.element(index) } -> std::convertible_to<typename N::value_type>;
    requires is_hana_tuple<std::remove_cvref_t<decltype(n.children())>>::value;
};

}  // namespace detail

/// The members of a node kind derived from the others (detail::expression_node), written once.
template <class Derived>
class node_base {
public:
    using bsx_expression_tag = void;

    index_t size() const noexcept { return shape_size(self().shape()); }
    /// Throws std::out_of_range for an axis >= rank, as arrays do.
    index_t extent(std::size_t axis) const { return detail::checked_extent(self().shape(), axis); }
    template <std::integral... I, class D = Derived>  // D: Derived is complete only at the call
        requires(sizeof...(I) == D::rank)
    auto operator()(I... i) const {
        return self().element({static_cast<index_t>(i)...});
    }

private:
    const Derived& self() const noexcept { return static_cast<const Derived&>(*this); }
};

}  // namespace bsx
