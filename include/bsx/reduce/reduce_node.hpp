// bsx/reduce/reduce_node.hpp: a lazy reduction along one axis, `sum(x, axis(1))`, or
// several, `sum(x, axes(0, 2))`. Its shape drops the axes (or keeps them with extent 1).
// Used inside a larger expression it is computed once, into a buffer the size of its
// result, before the outer loop runs.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "../detail/message.hpp"
#include "../detail/refusals.hpp"
#include "../expr/operand.hpp"
#include "../eval/evaluator.hpp"
#include "../eval/reduce.hpp"
#include "../eval/reduce_axes.hpp"
#include "../eval/strided_copy.hpp"
#include "../expr/expression.hpp"
#include "../expr/static_extents.hpp"
#include "../expr/unary_node.hpp"
#include "../expr/with_rules.hpp"
#include "custom_reduction.hpp"

namespace bsx {

/// K: how many axes it reduces (sorted and distinct).
template <class Op, class Held, bool KeepDims, std::size_t K = 1>
class reduce_node : public unary_node<reduce_node<Op, Held, KeepDims, K>, Held> {
    using base = unary_node<reduce_node<Op, Held, KeepDims, K>, Held>;
    using typename base::operand_type;
    static constexpr std::size_t N = rank_v<operand_type>;
    using accumulator = typename Op::template accumulator<value_type_t<operand_type>>;
    static_assert(K >= 1 && K <= N);

public:
    using base::operand;
    using rules_tag = detail::rules_tag_t<operand_type>;
    using reduction = Op;
    using value_type = decltype(Op::finish(accumulator{}, index_t{}));
    static constexpr std::size_t rank = KeepDims ? N : N - K;
    /// The reduced axes are run-time values, so no extent is known at compile time.
    static constexpr shape_t<rank> static_extents = detail::dynamic_shape<rank>();

    /// Precondition (checked by the reduction functions): axes sorted, distinct, < N.
    reduce_node(Held held, const std::array<std::size_t, K>& axes)
        : base(std::move(held)), axes_(axes), shape_(reduced_shape()) {}
    reduce_node(Held held, std::size_t axis)
        requires(K == 1)
        : reduce_node(std::move(held), std::array<std::size_t, 1>{axis}) {}

    /// The shape the operand reduces to now. Differs from shape() only if an array the
    /// node refers to was resized after the node was built.
    shape_t<rank> reduced_shape() const noexcept {
        const auto s = operand().shape();
        shape_t<rank> out{};
        for (std::size_t d = 0, to = 0; d < N; ++d) {
            if (!is_reduced(d))
                out[to++] = s[d];
            else if constexpr (KeepDims)
                out[to++] = 1;
        }
        return out;
    }

    std::size_t reduced_axis() const noexcept
        requires(K == 1)
    {
        return axes_[0];
    }
    const std::array<std::size_t, K>& reduced_axes() const noexcept { return axes_; }
    const shape_t<rank>& shape() const noexcept { return shape_; }

    value_type element(const shape_t<rank>& idx) const {
        shape_t<N> at{};
        for (std::size_t d = 0, from = 0; d < N; ++d) {
            if (!is_reduced(d))
                at[d] = idx[from++];
            else if constexpr (KeepDims)
                ++from;
        }
        if constexpr (K > 1)
            return detail::reduce_axes_element<Op>(operand(), axes_, at);
        else if constexpr (detail::finds_index<Op>)
            return detail::index_of_element<Op>(operand(), axes_[0], at);
        else
            return detail::reduce_element<Op>(operand(), axes_[0], at);
    }

private:
    bool is_reduced(std::size_t d) const noexcept {
        for (const std::size_t a : axes_)
            if (a == d) return true;
        return false;
    }
    std::array<std::size_t, K> axes_;
    shape_t<rank> shape_;
};

namespace detail {

/// The error of check_not_resized, one function for every reduction.
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_resized_reduction(std::string_view reduction,
                                                                           std::span<const index_t> now,
                                                                           std::span<const index_t> built) {
    message text;
    text << "bsx: " << reduction << ": the operand was resized after the reduction was built (it now reduces to "
         << shape_text{now} << ", not " << shape_text{built} << ")";
    throw std::logic_error(text.c_str());
}

/// A lazy reduction about to be evaluated: its operand must still reduce to the shape the
/// node was built with.
template <class E>
void check_not_resized(const E& e) {
    if (const auto now = e.reduced_shape(); now != e.shape())
        throw_resized_reduction(E::reduction::name, now, e.shape());
}

/// Evaluates reduce_node e into `out` (see reduce_expression; `direct`: out is the
/// assignment's own destination).
template <class Op, class Held, bool KeepDims, std::size_t K>
void reduce_node_into(const reduce_node<Op, Held, KeepDims, K>& e,
                      value_type_t<reduce_node<Op, Held, KeepDims, K>>* out, bool direct) {
    check_not_resized(e);
    if constexpr (K > 1) {
        constexpr bool distributed = custom_reduction<Op, unwrapped_t<Held>>;
        static_assert(!distributed, BSX_REFUSAL_DISTRIBUTED_AXES(message));
        if constexpr (!distributed) reduce_axes_expression<Op>(e.operand(), e.reduced_axes(), out);
    } else if constexpr (custom_reduction<Op, unwrapped_t<Held>>) {
        // The scan of eval/reduce_index.hpp reads every element in this process.
        static_assert(!finds_index<Op>, BSX_REFUSAL_DISTRIBUTED_INDEX_REDUCTION(message));
        if constexpr (!finds_index<Op>) bsx_reduce(Op{}, e.operand(), e.reduced_axis(), out, direct);
    } else {
        reduce_expression<Op>(e.operand(), e.reduced_axis(), out, direct);
    }
}

/// A reduction inside a larger expression: computed once, now, into a buffer the size of
/// its result, which the outer loop then reads like any memory operand.
template <class Op, class Held, bool KeepDims, std::size_t K>
struct binder<reduce_node<Op, Held, KeepDims, K>> : binder_defaults {
    template <class E, class T, std::size_t D>
    static auto bind(const E& e, const index_map<rank_v<E>, D>& map, const destination<T, D>&) {
        using V = value_type_t<E>;
        auto [result, first] = make_line_aligned_buffer<V>(std::size_t(e.size()));
        static_assert(std::is_same_v<V, reduced_t<Op, decltype(e.operand())>>);
        reduce_node_into(e, first, false);
        const auto strides = contiguous_strides(e.shape());
        leaf_evaluator<V, D> ev;
        ev.read(first + offset_through(strides, map), strides_through(strides, map));
        ev.copy = buffer_owner(std::move(result));
        return ev;
    }

    /// `r = sum(x, axis(k))` into any r of the reduction's rank and type: the outputs go
    /// straight into r where it is contiguous and of the reduction's own shape (no buffer
    /// of r's size, no copy pass), else into a buffer copied into r by copy_strided. So no
    /// such assignment compiles a loop nest of its own.
    template <class T, std::size_t D>
    static constexpr bool writes_every_destination =
        rank_v<reduce_node<Op, Held, KeepDims, K>> == D &&
        std::is_same_v<value_type_t<reduce_node<Op, Held, KeepDims, K>>, T>;
    template <class E, class T, std::size_t D>
    static bool can_write_into(const E&, const T*, const shape_t<D>&, const shape_t<D>&) {
        return writes_every_destination<T, D>;
    }
    /// Precondition: the reduction's shape broadcasts to `shape`, which is not empty.
    template <class E, class T, std::size_t D>
    static void write_into(const E& e, T* data, const shape_t<D>& shape, const shape_t<D>& strides) {
        if constexpr (writes_every_destination<T, D>) {
            if (e.shape() == shape && is_contiguous(shape, strides)) {
                reduce_node_into(e, data, true);
                return;
            }
            auto [result, first] = make_line_aligned_buffer<T>(std::size_t(e.size()));
            reduce_node_into(e, first, false);
            shape_t<D> from = contiguous_strides(e.shape());
            for (std::size_t d = 0; d < D; ++d)
                if (e.shape()[d] != shape[d]) from[d] = 0;  // an extent 1 broadcast
            copy_strided(reinterpret_cast<const std::byte*>(first), from, reinterpret_cast<std::byte*>(data), strides,
                         shape, sizeof(T));
        }
    }
};

}  // namespace detail
}  // namespace bsx
