// bsx/scans.hpp: NumPy's cumsum, cumprod and diff. cumsum and cumprod are lazy nodes: an
// element of a scan depends on every element before it along the axis, which the fused
// loop, computing any chunk on its own, could only give by recomputing them, so a scan is
// computed whole, straight into the destination of `r = cumsum(x)` where it can be, else
// into a buffer the outer loop reads. diff of order n is n differences in turn (NumPy's
// bits), each a lazy difference of two views, assigned; it returns an array.
#pragma once

#include <concepts>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "array.hpp"
#include "eval/alias.hpp"
#include "eval/computed_whole.hpp"
#include "eval/evaluator.hpp"
#include "eval/scan.hpp"
#include "expr/functions.hpp"
#include "expr/operators.hpp"
#include "expr/unary_node.hpp"
#include "reduce/reduce_ops.hpp"
#include "reduce/reductions.hpp"

namespace bsx {

/// cumsum or cumprod of an operand (Op: the reduction whose running `combine` it is;
/// integers and bool accumulate in int64 as sum and prod do), along an axis, or over the
/// flattened operand when Flat (a 1-D result in row-major order).
template <class Op, class Held, bool Flat>
class scan_node : public unary_node<scan_node<Op, Held, Flat>, Held> {
    using base = unary_node<scan_node<Op, Held, Flat>, Held>;

public:
    using base::operand;
    using typename base::operand_type;
    using rules_tag = detail::rules_tag_t<operand_type>;
    using value_type = typename Op::template accumulator<value_type_t<operand_type>>;
    static constexpr std::size_t rank = Flat ? 1 : rank_v<operand_type>;
    static constexpr shape_t<rank> static_extents = detail::dynamic_shape<rank>();

    /// Precondition (checked by cumsum and cumprod): axis < N, or Flat.
    scan_node(std::string_view name, Held held, std::size_t axis)
        : base(std::move(held)), name_(name), axis_(axis), shape_(scanned_shape()) {}

    const shape_t<rank>& shape() const noexcept { return shape_; }
    std::string_view name() const noexcept { return name_; }

    /// One element: the running combine up to it (each call walks the line before it).
    value_type element(const shape_t<rank>& idx) const {
        const shape_t<N> s = operand().shape();
        shape_t<N> at{};
        index_t last = 0;  // the flattened position, or the position along the axis
        if constexpr (Flat) {
            last = idx[0];
        } else {
            at = idx;
            last = idx[axis_];
        }
        value_type acc{};
        for (index_t i = 0; i <= last; ++i) {
            if constexpr (Flat)
                at = detail::unravel_index(i, s);
            else
                at[axis_] = i;
            const auto x = static_cast<value_type>(operand().element(at));
            acc = i == 0 ? x : Op::combine(acc, x);
        }
        return acc;
    }

    /// Writes the scan into contiguous memory of shape(): the operand cast in first (read
    /// where it lies when it is contiguous memory of the result's type), then the scan.
    /// `out` may be the operand's own memory, not a part of it elsewhere.
    void write(value_type* out) const {
        if (const shape_t<rank> now = scanned_shape(); now != shape_) detail::throw_resized_operand(name_, now, shape_);
        const shape_t<N> s = operand().shape();
        index_t outer = 1, len = shape_size(s), inner = 1;
        if constexpr (!Flat) {
            len = s[axis_];
            for (std::size_t d = 0; d < axis_; ++d) outer *= s[d];
            for (std::size_t d = axis_ + 1; d < N; ++d) inner *= s[d];
        }
        if (outer * len * inner == 0) return;
        const auto combine = [](value_type x, value_type y) { return Op::combine(x, y); };
        if constexpr (strided_expression<operand_type> &&
                      std::is_same_v<std::remove_const_t<value_type_t<operand_type>>, value_type>) {
            if (is_contiguous(s, operand().strides()))
                return detail::scan_into(operand().data(), out, outer, len, inner, combine);
        }
        strided_view<value_type, N>(out, s, contiguous_strides(s)) = cast<value_type>(operand());
        detail::scan_into(out, out, outer, len, inner, combine);
    }

    /// Whether the scan reads memory in `range` (the operand's, where it is memory).
    bool reads_memory_in(const detail::byte_range& range) const noexcept {
        if constexpr (strided_expression<operand_type>)
            return detail::memory_range(operand().data(), operand().shape(), operand().strides()).overlaps(range);
        else
            return true;
    }
    /// Whether write(data) is right although the scan reads data's memory: in place, the
    /// operand must be exactly that memory, element for element, of the result's type.
    bool writes_over_operand(const value_type* data) const noexcept {
        if constexpr (strided_expression<operand_type> &&
                      std::is_same_v<std::remove_const_t<value_type_t<operand_type>>, value_type>)
            return operand().data() == data && is_contiguous(operand().shape(), operand().strides()) &&
                   operand().size() == this->size();
        else
            return false;
    }

private:
    static constexpr std::size_t N = rank_v<operand_type>;

    shape_t<rank> scanned_shape() const noexcept {
        if constexpr (Flat)
            return {operand().size()};
        else
            return operand().shape();
    }

    std::string_view name_;
    std::size_t axis_;
    shape_t<rank> shape_;
};

namespace detail {

/// A scan inside a larger expression: computed once, now, into a buffer of its size, which
/// the outer loop reads like any memory operand. Assigned alone to contiguous memory of its
/// shape and type that the operand reads all of or none of, it is written there directly.
template <class Op, class Held, bool Flat>
struct binder<scan_node<Op, Held, Flat>> : computed_whole_binder {};

/// cumsum and cumprod: scan_node builders, along an axis or over the flattened operand.
template <class Op>
struct scan_function {
    std::string_view name;

    template <expression X, axis_argument Axis>
    auto operator()(X&& x, Axis a) const {
        static_assert(rank_v<std::remove_cvref_t<X>> > 0,
                      "bsx: a rank-0 expression has no axis to scan; scan it flattened: cumsum(x)");
        const std::size_t k = checked_axis(name, axis_value(a), x.shape());
        auto held = hold(std::forward<X>(x));
        return scan_node<Op, decltype(held), false>(name, std::move(held), k);
    }
    /// Over the elements of x in row-major order: a 1-D result of x.size() elements.
    template <expression X>
    auto operator()(X&& x) const {
        auto held = hold(std::forward<X>(x));
        return scan_node<Op, decltype(held), true>(name, std::move(held), 0);
    }
};

/// The first difference of the elements a view reads along axis k (x[i + 1] - x[i]; for
/// bool, x[i + 1] != x[i], as NumPy), in the view's element type (integers wrap).
template <class T, std::size_t N>
array<T, N> difference(const strided_view<const T, N>& v, std::size_t k) {
    shape_t<N> shape = v.shape();
    shape[k] = shape[k] > 0 ? shape[k] - 1 : 0;
    if (shape_size(shape) == 0) return array<T, N>(shape);
    const strided_view<const T, N> lo(v.data(), shape, v.strides()), hi(v.data() + v.strides()[k], shape, v.strides());
    if constexpr (std::is_same_v<T, bool>)
        return array<T, N>(hi != lo);
    else
        return array<T, N>(cast<T>(hi - lo));
}

}  // namespace detail

/// cumsum(x, axis), cumsum(x): NumPy's running sums (lazy; integers and bool give int64).
inline constexpr detail::scan_function<ops::sum_reduction> cumsum{"cumsum"};
/// cumprod(x, axis), cumprod(x): NumPy's running products (lazy; integers and bool give int64).
inline constexpr detail::scan_function<ops::prod_reduction> cumprod{"cumprod"};

/// diff(x, axis = -1, n = 1): NumPy's n-th discrete difference along the axis (eager), of
/// x's element type; the axis shrinks by n (to 0 at least). n = 0 gives a copy of x.
template <expression X, detail::axis_argument Axis = axis_t>
array<value_type_t<X>, rank_v<X>> diff(const X& x, Axis a = axis_t{-1}, index_t n = 1) {
    using T = value_type_t<X>;
    constexpr std::size_t N = rank_v<X>;
    static_assert(N > 0, "bsx: diff: a rank-0 expression has no axis to take differences along");
    const std::size_t k = detail::checked_axis("diff", detail::axis_value(a), x.shape());
    if (n < 0)
        throw std::invalid_argument("bsx: diff: order n = " + std::to_string(n) + " is negative (axis " +
                                    std::to_string(detail::axis_value(a)) + " of an operand of shape " +
                                    format_shape(x.shape()) + ")");
    if (n == 0) return array<T, N>(x);
    array<T, N> r;
    if constexpr (strided_expression<X>) {
        r = detail::difference(strided_view<const T, N>(x.data(), x.shape(), x.strides()), k);
    } else {
        const array<T, N> whole(x);
        r = detail::difference(strided_view<const T, N>(whole.data(), whole.shape(), whole.strides()), k);
    }
    for (index_t i = 1; i < n && r.extent(k) > 0; ++i)
        r = detail::difference(strided_view<const T, N>(r.data(), r.shape(), r.strides()), k);
    return r;
}

}  // namespace bsx
