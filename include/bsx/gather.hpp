// bsx/gather.hpp: bsx::take, NumPy's gather by an index expression, as a lazy node that
// fuses into the assignment loop. Its indices are checked once, when the node is bound,
// before anything is written; its operand is read at computed addresses, so it reads all
// of it (a copy is made when it overlaps the destination, or when it is not memory).
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <boost/hana/at.hpp>
#include <boost/hana/tuple.hpp>

#include "array.hpp"
#include "eval/assign.hpp"
#include "eval/evaluator.hpp"
#include "expr/node.hpp"
#include "expr/operand.hpp"
#include "expr/static_extents.hpp"
#include "expr/with_rules.hpp"
#include "reduce/reductions.hpp"
#include "view/strided_access.hpp"

namespace bsx {

namespace detail {

/// An expression of integers (not bool) usable as indices.
template <class I>
concept index_expression = expression<I> && std::integral<value_type_t<I>> && !std::same_as<value_type_t<I>, bool>;

/// f(offset) for the offset of every element of a strided shape, in row-major order.
template <std::size_t N, class F>
void for_each_offset(const shape_t<N>& shape, const shape_t<N>& strides, F&& f) {
    if (shape_size(shape) == 0) return;
    if constexpr (N == 0) {
        f(index_t{0});
    } else {
        shape_t<N> i{};
        index_t offset = 0;
        const index_t n = shape[N - 1], step = strides[N - 1];
        for (;;) {
            for (index_t j = 0; j < n; ++j) f(offset + j * step);
            std::size_t d = N - 1;
            for (;;) {
                if (d == 0) return;
                --d;
                offset += strides[d];
                if (++i[d] < shape[d]) break;
                offset -= i[d] * strides[d];
                i[d] = 0;
            }
        }
    }
}

/// Throws std::out_of_range for the first index of `indices` outside [-extent, extent),
/// naming it, the axis and the extent. The common case, all in range, is one pass of one
/// unsigned comparison per index (extent <= 2^62, as sizes are checked, so the sum below
/// wraps only for indices below -extent, which it leaves at 2^63 or more).
template <class I, std::size_t M>
void check_indices(std::string_view function, const I* data, const shape_t<M>& shape, const shape_t<M>& strides,
                   std::size_t axis, index_t extent) {
    using U = std::uint64_t;
    const U shift = std::is_signed_v<I> ? U(extent) : 0, limit = std::is_signed_v<I> ? 2 * U(extent) : U(extent);
    const auto outside = [&](I v) { return U(v) + shift >= limit; };
    bool bad = false;
    if (is_contiguous(shape, strides)) {
        const index_t n = shape_size(shape);
        unsigned char any = 0;
#if defined(_OPENMP)
#pragma omp simd reduction(| : any)
#endif
        for (index_t k = 0; k < n; ++k) any |= static_cast<unsigned char>(U(data[k]) + shift >= limit);
        bad = any != 0;
    } else {
        for_each_offset(shape, strides, [&](index_t at) { bad |= outside(data[at]); });
    }
    if (!bad) return;
    for_each_offset(shape, strides, [&](index_t at) {
        if (outside(data[at])) throw_index_error(function, data[at], axis, extent);
    });
}

/// Writes the positions first, first + step, ... (len of them) as index_t: the addresses,
/// in elements, at which the gather reads its operand before the index is added.
inline void write_positions(const void*, index_t first, index_t step, index_t len, std::byte* out) noexcept {
    index_t* to = reinterpret_cast<index_t*>(out);
    BSX_SIMD_LOOP
    for (index_t t = 0; t < len; ++t) to[t] = first + t * step;
}

}  // namespace detail

/// x read at the indices of `idx` along one axis: shape x.shape[:axis] + idx.shape +
/// x.shape[axis+1:] (rank R = N - 1 + M); or, flattened, x's elements in row-major order
/// read at idx (shape idx.shape, R = M). An index may be negative (counted from the end).
template <class HeldX, class HeldI, std::size_t R, bool Flat>
class gather_node : public node_base<gather_node<HeldX, HeldI, R, Flat>> {
public:
    using operand_type = detail::unwrapped_t<HeldX>;
    using index_type = detail::unwrapped_t<HeldI>;
    static constexpr std::size_t N = rank_v<operand_type>, M = rank_v<index_type>;

    using value_type = value_type_t<operand_type>;
    using rules_tag = detail::rules_tag_t<operand_type>;
    static constexpr std::size_t rank = R;
    static constexpr shape_t<R> static_extents = detail::dynamic_shape<R>();

    /// Precondition (checked by take): axis < N unless flattened (then it is 0).
    gather_node(std::string_view function, HeldX x, HeldI idx, std::size_t axis)
        : children_(std::move(x), std::move(idx)), function_(function), axis_(axis) {
        static_assert(detail::expression_node<gather_node>, BSX_REFUSAL_NODE_PROTOCOL(message));
        shape_ = current_shape();
    }

    /// The shape the operands give now: shape() unless one was resized since the node was
    /// built (then binding throws, as the stored shape would read out of range).
    shape_t<R> current_shape() const {
        const auto xs = operand().shape();
        const auto is = indices().shape();
        shape_t<R> s{};
        if constexpr (Flat) {
            for (std::size_t k = 0; k < M; ++k) s[k] = is[k];
        } else {
            for (std::size_t k = 0; k < R; ++k)
                s[k] = k < axis_ ? xs[k] : k < axis_ + M ? is[k - axis_] : xs[k - M + 1];
        }
        return s;
    }

    const operand_type& operand() const noexcept { return detail::unwrap(boost::hana::at_c<0>(children_)); }
    const index_type& indices() const noexcept { return detail::unwrap(boost::hana::at_c<1>(children_)); }
    const boost::hana::tuple<HeldX, HeldI>& children() const noexcept { return children_; }
    const shape_t<R>& shape() const noexcept { return shape_; }
    std::string_view function() const noexcept { return function_; }
    static constexpr bool flattened = Flat;
    /// The gathered axis (0 when flattened).
    std::size_t axis() const noexcept { return axis_; }
    /// The extent the indices index: x's along the axis, or x's size when flattened.
    index_t extent() const noexcept { return Flat ? operand().size() : operand().shape()[axis_]; }

    /// One element; an index out of range throws std::out_of_range.
    value_type element(const shape_t<R>& i) const {
        const std::size_t a = axis();
        shape_t<M> at{};
        for (std::size_t k = 0; k < M; ++k) at[k] = i[a + k];
        // Checked in its own type: an unsigned index above PTRDIFF_MAX is not a negative one.
        const std::remove_cv_t<value_type_t<index_type>> raw = indices().element(at);
        const index_t n = extent();
        detail::check_indices(function_, &raw, shape_t<0>{}, shape_t<0>{}, a, n);
        index_t v = index_t(raw);
        if (v < 0) v += n;
        shape_t<N> xi{};
        if constexpr (Flat) {
            xi = detail::unravel_index(v, shape_t<N>(operand().shape()));
        } else {
            for (std::size_t k = 0; k < N; ++k) xi[k] = k < a ? i[k] : k == a ? v : i[k + M - 1];
        }
        return operand().element(xi);
    }

private:
    boost::hana::tuple<HeldX, HeldI> children_;
    std::string_view function_;
    std::size_t axis_;
    shape_t<R> shape_{};
};

namespace detail {

/// The position reader of a gather whose operand has no axis besides the gathered one
/// (1-D, or flattened): every position is 0.
struct no_positions {
    static constexpr std::size_t leaf_count = 0;
    static constexpr std::size_t tile_bytes = 0;
    std::byte* attach_tiles(std::byte* scratch) noexcept { return scratch; }
    template <class P>
    P* collect_leaves(P* out) noexcept {
        return out;
    }
    template <std::size_t Mask, bool Strided = false>
    no_positions chunk_reader() const noexcept {
        return {};
    }
    static constexpr index_t load(index_t) noexcept { return 0; }
    void next_row() noexcept {}
};

/// A gather, bound: the position leaf (Positions: x's address at each destination index
/// before the index is added, an affine function of the index, so a generated leaf), the
/// index leaf, and the gathered memory.
template <class V, std::size_t D, class IndexEv, bool Positions>
struct gather_evaluator {
    using position_evaluator = std::conditional_t<Positions, leaf_evaluator<index_t, D>, no_positions>;
    position_evaluator positions;
    IndexEv indices;
    const V* base;
    index_t extent;
    index_t stride;  // between elements along the gathered axis
    buffer_owner copy;

    static constexpr std::size_t leaf_count = position_evaluator::leaf_count + IndexEv::leaf_count;
    static constexpr std::size_t tile_bytes = position_evaluator::tile_bytes + IndexEv::tile_bytes;
    static constexpr bool has_math = IndexEv::has_math;

    std::byte* attach_tiles(std::byte* scratch) noexcept {
        return indices.attach_tiles(positions.attach_tiles(scratch));
    }
    template <class P>
    P* collect_leaves(P* out) noexcept {
        return indices.collect_leaves(positions.collect_leaves(out));
    }
    void prepare(index_t j0, index_t len) noexcept { indices.prepare(j0, len); }
    bool reads_memory_of_destination() const noexcept { return indices.reads_memory_of_destination(); }

    template <class PositionReader, class IndexReader>
    struct reader {
        PositionReader at;
        IndexReader index;
        const V* base;
        index_t extent, stride;
        // The indices were checked when bound: a negative one only needs its extent added.
        V load(index_t j) const noexcept {
            const auto i = index_t(index.load(j));
            return base[at.load(j) + (i < 0 ? i + extent : i) * stride];
        }
        void next_row() noexcept {
            at.next_row();
            index.next_row();
        }
    };
    template <std::size_t Mask, bool Strided = false>
    auto chunk_reader() const noexcept {
        constexpr std::size_t own = position_evaluator::leaf_count;
        auto at = positions.template chunk_reader<(Mask & ((std::size_t{1} << own) - 1)), Strided>();
        auto index = indices.template chunk_reader<(Mask >> own), Strided>();
        return reader<decltype(at), decltype(index)>{at, index, base, extent, stride};
    }
};

/// A contiguous copy of `x` in a new buffer (an operand that is not memory, or memory the
/// destination overlaps).
template <class V, class X>
line_aligned_buffer<V> evaluated_copy(const X& x) {
    auto buffer = make_line_aligned_buffer<V>(std::size_t(x.size()));
    if (x.size() > 0) assign_broadcast(buffer.first, x.shape(), contiguous_strides(x.shape()), x);
    return buffer;
}

template <class HeldX, class HeldI, std::size_t R, bool Flat>
struct binder<gather_node<HeldX, HeldI, R, Flat>> : binder_defaults {
    /// The indices are read as a view, strided where the index operand may be; a position
    /// leaf (of a gather along one axis of several) is generated, which no strided plan reads.
    static constexpr bool may_read_strided =
        (Flat || gather_node<HeldX, HeldI, R, Flat>::N == 1) && binder<unwrapped_t<HeldI>>::may_read_strided;
    template <class E, class T, std::size_t D>
    static auto bind(const E& e, const index_map<R, D>& map, const destination<T, D>& dest) {
        using X = typename E::operand_type;
        using I = typename E::index_type;
        using V = std::remove_const_t<value_type_t<X>>;
        using IV = std::remove_const_t<value_type_t<I>>;
        constexpr std::size_t N = E::N, M = E::M;
        if (const auto now = e.current_shape(); now != e.shape()) throw_resized_operand(e.function(), now, e.shape());
        const std::size_t a = e.axis();
        const index_t extent = e.extent();

        // The indices: memory is read where it lies, anything else is evaluated once. All
        // are checked before anything is written.
        const I& idx = e.indices();
        line_aligned_buffer<IV> index_copy{};
        const strided_view<const IV, M> index_view = [&] {
            if constexpr (strided_expression<I>) {
                return strided_view<const IV, M>(idx.data(), idx.shape(), idx.strides());
            } else {
                index_copy = evaluated_copy<IV>(idx);
                return strided_view<const IV, M>(index_copy.first, idx.shape(), contiguous_strides(idx.shape()));
            }
        }();
        check_indices(e.function(), index_view.data(), index_view.shape(), index_view.strides(), a, extent);
        index_map<M, D> index_placement{};
        for (std::size_t k = 0; k < M; ++k) {
            index_placement.first[k] = map.first[a + k];
            index_placement.step[k] = map.step[a + k];
        }
        auto indices = make_evaluator(index_view, index_placement, dest);
        if (index_copy.owner) indices.copy = buffer_owner(std::move(index_copy.owner));

        // The operand: memory is read where it lies unless the destination overlaps it (the
        // gather may read any of it: value semantics) or, flattened, it is not contiguous.
        const X& x = e.operand();
        const V* base = nullptr;
        shape_t<N> strides = contiguous_strides(x.shape());
        buffer_owner copy;
        bool in_place = false;
        if constexpr (strided_expression<X>) {
            in_place = (!E::flattened || is_contiguous(x.shape(), x.strides())) &&
                       !memory_range(x.data(), x.shape(), x.strides())
                            .overlaps(memory_range(dest.data, dest.shape, dest.strides));
            if (in_place) {
                base = x.data();
                strides = x.strides();
            }
        }
        if (!in_place) {
            auto buffer = evaluated_copy<V>(x);
            base = buffer.first;
            copy = buffer_owner(std::move(buffer.owner));
        }

        const index_t stride = E::flattened ? 1 : strides[a];
        using Ev = gather_evaluator<V, D, decltype(indices), !E::flattened && (N > 1)>;
        typename Ev::position_evaluator positions;
        if constexpr (!E::flattened && N > 1) {
            // x's address at each destination index, the gathered axis left out: its other
            // axes are the node's outside the index axes.
            index_map<N, R> outer{};
            for (std::size_t k = 0; k < N; ++k)
                if (k != a) outer.step[k][k < a ? k : k + M - 1] = 1;
            const auto through = compose(outer, map);
            positions.cursor.steps.bytes = sizeof(index_t);
            positions.cursor.steps.stride = strides_through(strides, through);
            positions.cursor.steps.generated = true;
            positions.cursor.generate = &write_positions;
            positions.cursor.origin = offset_through(strides, through);
        }
        return Ev{std::move(positions), std::move(indices), base, extent, stride, std::move(copy)};
    }
};

template <class X, class I, std::size_t R, bool Flat>
using gather_node_t = gather_node<held_t<X>, held_t<I>, R, Flat>;

}  // namespace detail

/// NumPy's take: the elements of x, flattened, at the indices `idx` (shape idx.shape).
/// Lazy: it fuses into the assignment that reads it. Negative indices count from the end;
/// one out of range throws std::out_of_range, naming it, when the expression is assigned,
/// before anything is written.
template <expression X, detail::index_expression I>
auto take(X&& x, I&& idx) {
    return detail::gather_node_t<X, I, rank_v<I>, true>("take", detail::hold(std::forward<X>(x)),
                                                        detail::hold(std::forward<I>(idx)), 0);
}

/// The elements of x at the indices `idx` along an axis: shape x.shape[:axis] +
/// idx.shape + x.shape[axis+1:] (a 1-D idx keeps x's rank).
template <expression X, detail::index_expression I, detail::axis_argument Axis>
    requires(rank_v<X> >= 1)
auto take(X&& x, I&& idx, Axis a) {
    const std::size_t k = detail::checked_axis("take", detail::axis_value(a), x.shape());
    return detail::gather_node_t<X, I, rank_v<X> - 1 + rank_v<I>, false>("take", detail::hold(std::forward<X>(x)),
                                                                         detail::hold(std::forward<I>(idx)), k);
}

}  // namespace bsx
