// bsx/masks.hpp: selection by bool masks and by flat indices: `x(mask)` (the selected
// elements, eager; `x(mask) = expr`, a masked assignment in one fused pass), put,
// compress, nonzero, argwhere and flatnonzero. Eager ones return new bsx::arrays.
#pragma once

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "array.hpp"
#include "eval/assign.hpp"
#include "expr/functions.hpp"
#include "expr/operand.hpp"
#include "gather.hpp"
#include "reduce/reductions.hpp"
#include "shape/rules.hpp"
#include "view/strided_view.hpp"

namespace bsx {

namespace detail {

/// The mask `m` broadcast to `shape`, as one byte per element in row-major order.
template <class M, std::size_t N>
array<bool, N> mask_of_shape(std::string_view function, const M& m, const shape_t<N>& shape) {
    check_broadcast_to<rules_of_t<M>>(function, m.shape(), shape);
    array<bool, N> out(shape);
    if (out.size() > 0) assign_broadcast(out.data(), shape, out.strides(), cast<bool>(m));
    return out;
}

/// How many of the n bytes at `b` are true.
inline index_t count_true(const bool* b, index_t n) noexcept {
    const auto* bytes = reinterpret_cast<const unsigned char*>(b);
    index_t count = 0;
    BSX_SIMD_LOOP
    for (index_t i = 0; i < n; ++i) count += bytes[i];
    return count;
}

}  // namespace detail

/// `x(mask)`: the elements of an array or view x where a bool expression broadcast to
/// x's shape is true. Converting it to an array selects them (eager, row-major order,
/// 1-D); assigning to it writes an expression broadcast to x's shape where the mask is
/// true and leaves the other elements as they are, in one fused pass that reads and
/// writes each element once (alias-safe: `x(mask) = x * 2`).
template <class T, std::size_t N, class HeldMask>
class masked {
public:
    using value_type = std::remove_const_t<T>;
    using mask_type = detail::unwrapped_t<HeldMask>;

    /// Throws bsx::broadcast_error when the mask does not broadcast to x's shape.
    masked(strided_view<T, N> target, HeldMask mask) : target_(target), mask_(std::move(mask)) {
        detail::check_broadcast_to<rules_of_t<mask_type>>("x(mask)", this->mask().shape(), target_.shape());
    }

    const mask_type& mask() const noexcept { return detail::unwrap(mask_); }
    const strided_view<T, N>& target() const noexcept { return target_; }

    /// Writes x where the mask is true (a number or an expression broadcast to x's shape);
    /// a shape that does not broadcast throws bsx::broadcast_error and writes nothing.
    template <operand X>
        requires(!std::is_const_v<T>)
    masked& operator=(X&& x) {
        const strided_view<const value_type, N> old(target_);
        if constexpr (arithmetic_scalar<X>)
            detail::assign_to("x(mask) = ...", target_.data(), target_.shape(), target_.strides(),
                              where(mask(), static_cast<value_type>(x), old));
        else {
            detail::check_broadcast_to<rules_of_t<X>>("x(mask) = ...", x.shape(), target_.shape());
            detail::assign_to("x(mask) = ...", target_.data(), target_.shape(), target_.strides(),
                              where(mask(), cast<value_type>(std::forward<X>(x)), old));
        }
        return *this;
    }
    // A selection is not rebound, and assigning one selection to another would broadcast
    // the compacted values: convert it to an array first.
    masked& operator=(const masked&) = delete;
    masked(const masked&) = default;

    /// The selected elements in row-major order.
    array<value_type, 1> values() const {
        const auto keep = detail::mask_of_shape("x(mask)", mask(), target_.shape());
        array<value_type, 1> out(shape_t<1>{detail::count_true(keep.data(), keep.size())});
        value_type* to = out.data();
        const bool* k = keep.data();
        const T* from = target_.data();
        detail::for_each_offset(target_.shape(), target_.strides(), [&](index_t at) {
            if (*k++) *to++ = from[at];
        });
        return out;
    }
    operator array<value_type, 1>() const { return values(); }

private:
    strided_view<T, N> target_;
    HeldMask mask_;
};

namespace detail {

/// The multi-index of each true byte of `keep` (a row-major shape), in order: f(index).
template <std::size_t N, class F>
void for_each_true(const bool* keep, const shape_t<N>& shape, F&& f) {
    const index_t n = shape_size(shape);
    shape_t<N> i{};
    for (index_t flat = 0; flat < n; ++flat) {
        if (keep[flat]) f(flat, i);
        for (std::size_t d = N; d-- > 0;) {
            if (++i[d] < shape[d]) break;
            i[d] = 0;
        }
    }
}

}  // namespace detail

/// The flat (row-major) indices of the nonzero elements of x (true, for bool; NaN counts
/// as nonzero, as in NumPy).
template <expression X>
array<index_t, 1> flatnonzero(const X& x) {
    const auto keep = detail::mask_of_shape("flatnonzero", x, x.shape());
    array<index_t, 1> out(shape_t<1>{detail::count_true(keep.data(), keep.size())});
    index_t* to = out.data();
    for (index_t flat = 0; flat < keep.size(); ++flat)
        if (keep.data()[flat]) *to++ = flat;
    return out;
}

/// For each axis, the indices along it of the nonzero elements of x, in row-major order:
/// x's nonzero elements are x(r[0][i], r[1][i], ...).
template <expression X>
    requires(rank_v<X> >= 1)
std::array<array<index_t, 1>, rank_v<X>> nonzero(const X& x) {
    constexpr std::size_t N = rank_v<X>;
    const auto keep = detail::mask_of_shape("nonzero", x, x.shape());
    const shape_t<1> count{detail::count_true(keep.data(), keep.size())};
    std::array<array<index_t, 1>, N> out;
    for (auto& axis : out) axis = array<index_t, 1>(count);
    index_t at = 0;
    detail::for_each_true(keep.data(), keep.shape(), [&](index_t, const shape_t<N>& i) {
        for (std::size_t d = 0; d < N; ++d) out[d].data()[at] = i[d];
        ++at;
    });
    return out;
}

/// The indices of the nonzero elements of x, one row each: shape (count, rank).
template <expression X>
    requires(rank_v<X> >= 1)
array<index_t, 2> argwhere(const X& x) {
    constexpr std::size_t N = rank_v<X>;
    const auto keep = detail::mask_of_shape("argwhere", x, x.shape());
    array<index_t, 2> out(shape_t<2>{detail::count_true(keep.data(), keep.size()), index_t(N)});
    index_t* to = out.data();
    detail::for_each_true(keep.data(), keep.shape(), [&](index_t, const shape_t<N>& i) {
        for (std::size_t d = 0; d < N; ++d) *to++ = i[d];
    });
    return out;
}

/// NumPy's compress: the slices of x along an axis where the 1-D `mask` is true (a mask
/// shorter than the axis counts as false beyond its end; a true past the axis throws
/// std::out_of_range); without an axis, over the flattened x (a 1-D result).
template <expression Mask, expression X, detail::axis_argument Axis>
    requires(rank_v<Mask> == 1 && rank_v<X> >= 1)
array<std::remove_cv_t<value_type_t<X>>, rank_v<X>> compress(const Mask& mask, const X& x, Axis a) {
    const std::size_t k = detail::checked_axis("compress", detail::axis_value(a), x.shape());
    const auto at = flatnonzero(mask);
    return detail::gather_node_t<const X&, const array<index_t, 1>&, rank_v<X>, false>("compress", detail::hold(x),
                                                                                       detail::hold(at), k);
}
template <expression Mask, expression X>
    requires(rank_v<Mask> == 1)
array<std::remove_cv_t<value_type_t<X>>, 1> compress(const Mask& mask, const X& x) {
    const auto at = flatnonzero(mask);
    return detail::gather_node_t<const X&, const array<index_t, 1>&, 1, true>("compress", detail::hold(x),
                                                                              detail::hold(at), 0);
}

/// NumPy's put: x's elements at the flat (row-major) indices `idx` become `values`,
/// flattened and repeated as often as needed; where an index repeats, the last write
/// wins. Negative indices count from the end. Every index is checked (std::out_of_range)
/// and both operands are evaluated before anything is written, so they may read x.
/// An empty `values` writes nothing.
template <class T, std::size_t N, detail::index_expression I, operand Values>
    requires(!std::is_const_v<T>)
void put(strided_view<T, N> x, const I& idx, const Values& values) {
    // Checked in their own type: an unsigned index above PTRDIFF_MAX is not a negative one.
    const array<std::remove_cv_t<value_type_t<I>>, rank_v<I>> at = idx;
    const index_t n = x.size();
    detail::check_indices("put", at.data(), at.shape(), at.strides(), 0, n);
    array<T, 1> v;
    if constexpr (arithmetic_scalar<Values>) {
        v = array<T, 1>(shape_t<1>{1}, static_cast<T>(values));
    } else {
        v = array<T, 1>(shape_t<1>{values.size()});
        if (v.size() > 0)
            assign_broadcast(v.data(), values.shape(), contiguous_strides(values.shape()), cast<T>(values));
    }
    if (v.size() == 0) return;
    const auto shape = x.shape();
    const auto strides = x.strides();
    const bool contiguous = is_contiguous(shape, strides);
    for (index_t j = 0, cycle = 0; j < at.size(); ++j) {
        auto flat = index_t(at.data()[j]);
        if (flat < 0) flat += n;
        index_t offset = flat;
        if (!contiguous) {
            const shape_t<N> at_index = detail::unravel_index(flat, shape);
            offset = 0;
            for (std::size_t d = 0; d < N; ++d) offset += at_index[d] * strides[d];
        }
        x.data()[offset] = v.data()[cycle];
        if (++cycle == v.size()) cycle = 0;
    }
}
/// put into an array.
template <class T, std::size_t N, detail::index_expression I, operand Values>
void put(array<T, N>& x, const I& idx, const Values& values) {
    put(strided_view<T, N>(x.data(), x.shape(), x.strides()), idx, values);
}

}  // namespace bsx
