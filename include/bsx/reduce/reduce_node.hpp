// bsx/reduce/reduce_node.hpp: a lazy reduction along one axis, `sum(x, axis(1))`. Its
// shape drops the axis (or keeps it with extent 1). Used inside a larger expression it
// is computed once, into a buffer the size of its result, before the outer loop runs.
#pragma once

#include <concepts>
#include <cstddef>
#include <utility>

#include "../detail/operand.hpp"
#include "../expr/expression.hpp"
#include "../expr/with_rules.hpp"

namespace bsx {

namespace detail {
template <class Op, class E>
auto reduce_element(const E& e, std::size_t axis, shape_t<rank_v<E>> idx);
}  // namespace detail

template <class Op, class Held, bool KeepDims>
class reduce_node {
    using operand_type = detail::unwrapped_t<Held>;
    static constexpr std::size_t N = rank_v<operand_type>;
    using accumulator = typename Op::template accumulator<value_type_t<operand_type>>;

public:
    using bsx_expression_tag = void;
    using rules_tag = detail::rules_tag_t<operand_type>;
    using reduction = Op;
    using value_type = decltype(Op::finish(accumulator{}, index_t{}));
    static constexpr std::size_t rank = KeepDims ? N : N - 1;

    /// Precondition (checked by the reduction functions): axis < N.
    reduce_node(Held held, std::size_t axis) : held_(std::move(held)), axis_(axis), shape_(reduced_shape()) {}

    /// The shape the operand reduces to now. Differs from shape() only if an array the
    /// node refers to was resized after the node was built.
    shape_t<rank> reduced_shape() const noexcept {
        const auto s = operand().shape();
        shape_t<rank> out{};
        for (std::size_t d = 0, to = 0; d < N; ++d) {
            if (d != axis_) out[to++] = s[d];
            else if constexpr (KeepDims) out[to++] = 1;
        }
        return out;
    }

    const operand_type& operand() const noexcept { return detail::unwrap(held_); }
    std::size_t reduced_axis() const noexcept { return axis_; }
    const shape_t<rank>& shape() const noexcept { return shape_; }
    index_t size() const noexcept { return shape_size(shape_); }
    index_t extent(std::size_t axis) const { return shape_.at(axis); }

    value_type element(const shape_t<rank>& idx) const {
        shape_t<N> at{};
        for (std::size_t d = 0, from = 0; d < N; ++d) {
            if (d != axis_) at[d] = idx[from++];
            else if constexpr (KeepDims) ++from;
        }
        return detail::reduce_element<Op>(operand(), axis_, at);
    }
    template <std::integral... I>
        requires(sizeof...(I) == rank)
    value_type operator()(I... i) const {
        return element({static_cast<index_t>(i)...});
    }

private:
    Held held_;
    std::size_t axis_;
    shape_t<rank> shape_;
};

}  // namespace bsx
