// bsx/expr/unary_node.hpp: the base of the node kinds with one operand (placed_node,
// rules_tagged, reduce_node): the operand's storage and the children() and operand()
// of the node protocol (expr/node.hpp).
#pragma once

#include <utility>

#include <boost/hana/at.hpp>
#include <boost/hana/tuple.hpp>

#include "../detail/refusals.hpp"
#include "operand.hpp"
#include "node.hpp"

namespace bsx {

/// A node of one operand (placed_node, rules_tagged, reduce_node): the operand is held
/// as detail::hold stores it (lvalue arrays by reference, the rest by value).
template <class Derived, class Held>
class unary_node : public node_base<Derived> {
public:
    using operand_type = detail::unwrapped_t<Held>;

    const operand_type& operand() const noexcept { return detail::unwrap(boost::hana::at_c<0>(children_)); }
    const boost::hana::tuple<Held>& children() const noexcept { return children_; }

protected:
    explicit unary_node(Held held) : children_(std::move(held)) {
        static_assert(detail::expression_node<Derived>, BSX_REFUSAL_NODE_PROTOCOL(message));
    }

private:
    boost::hana::tuple<Held> children_;
};

}  // namespace bsx
