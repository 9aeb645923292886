// bsx/assembly.hpp: assembly and rearrangement (NumPy's concatenate, stack, hstack,
// vstack, tile, repeat, flip, roll, pad, squeeze, expand_dims, ravel). flip, squeeze and
// expand_dims are views (affine index maps); the others are lazy piecewise nodes whose
// index map is, on each axis, a run of affine pieces (assembly_node), or a flat view (ravel).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <boost/hana/at.hpp>
#include <boost/hana/tuple.hpp>

#include "detail/convert.hpp"
#include "eval/alias.hpp"
#include "eval/assign.hpp"
#include "eval/static_loop.hpp"
#include "expr/expression.hpp"
#include "expr/index_map.hpp"
#include "expr/node.hpp"
#include "expr/operand.hpp"
#include "expr/placed_node.hpp"
#include "expr/unary_node.hpp"
#include "expr/static_extents.hpp"
#include "reduce/reductions.hpp"
#include "shape/shape.hpp"
#include "view/remap.hpp"
#include "view/reshape.hpp"
#include "view/strided_view.hpp"

namespace bsx {

/// The most operands the braced form `concatenate({a, b, ...}, axis)` (and stack, hstack,
/// vstack) takes: the node stores them inline, so building it allocates nothing.
inline constexpr std::size_t max_assembly_operands = 16;

/// pad's modes: a constant border (NumPy's default, 0), the edge value repeated, or the
/// reflection about the edge (the edge itself not repeated).
template <class V>
struct pad_constant_t {
    V value;
};
template <arithmetic_scalar V>
constexpr pad_constant_t<V> pad_constant(V value) noexcept {
    return {value};
}
struct pad_edge_t {};
struct pad_reflect_t {};
inline constexpr pad_edge_t pad_edge{};
inline constexpr pad_reflect_t pad_reflect{};

namespace detail {

/// How one axis of an assembly node reads its operands. At each index i it lies in a run
/// of indices read with one step from one operand (or filled with the node's constant):
/// `pieces` picks the operand by offsets along the axis (concatenate), the others read
/// the one operand on that axis: unchanged, tiled (i mod n), rolled, repeated (i / count)
/// or padded.
enum class axis_kind : unsigned char { same, pieces, tile, roll, repeat, pad_constant, pad_edge, pad_reflect };

struct axis_rule {
    axis_kind kind = axis_kind::same;
    index_t n = 0;  // the operand's extent
    index_t a = 0;  // roll: shift in [0, n); repeat: count; pad: the width before
};

/// The run that index i of an axis lies in: `len` indices from i, reading index src,
/// src + step, ... of operand `piece` (on the pieces axis), or the constant (`fill`).
struct axis_run {
    index_t src = 0, step = 1, len = 0, piece = 0;
    bool fill = false;
};

/// The run at index i of an axis of extent `out` under `rule` (the pieces axis aside).
inline axis_run run_at(const axis_rule& rule, index_t i, index_t out) noexcept {
    const index_t n = rule.n, a = rule.a;
    axis_run r;
    switch (rule.kind) {
        case axis_kind::same:
        case axis_kind::pieces:
            r = {i, 1, out - i};
            break;
        case axis_kind::tile:
            r = {i % n, 1, n - i % n};
            break;
        case axis_kind::roll:
            r = i >= a ? axis_run{i - a, 1, out - i} : axis_run{i - a + n, 1, a - i};
            break;
        case axis_kind::repeat:
            r = {i / a, 0, a - i % a};
            break;
        case axis_kind::pad_constant:
            if (i < a || i >= a + n)
                r = {0, 0, i < a ? a - i : out - i, 0, true};
            else
                r = {i - a, 1, a + n - i};
            break;
        case axis_kind::pad_edge:
            if (i < a)
                r = {0, 0, a - i};
            else if (i < a + n)
                r = {i - a, 1, a + n - i};
            else
                r = {n - 1, 0, out - i};
            break;
        case axis_kind::pad_reflect: {
            if (n == 1) {
                r = {0, 0, out - i};
                break;
            }
            const index_t period = 2 * (n - 1);
            const index_t t = ((i - a) % period + period) % period;
            r = t < n - 1 ? axis_run{t, 1, n - 1 - t} : axis_run{period - t, -1, period - t};
            break;
        }
    }
    r.len = std::min(r.len, out - i);
    return r;
}

/// The operands of an assembly node given in braces: one type, held by value (a braced
/// list copies its elements), at most max_assembly_operands of them, stored inline.
template <class X>
class piece_list {
public:
    using value_type = value_type_t<X>;
    static constexpr std::size_t capacity = max_assembly_operands;
    static constexpr bool in_memory = strided_expression<X>;
    using operand_types = boost::hana::tuple<X>;

    /// Holds f(y) for each y of `pieces`.
    template <class Y, class F>
    piece_list(std::string_view operation, std::initializer_list<Y> pieces, F&& f) : count_(pieces.size()) {
        if (pieces.size() == 0) throw std::invalid_argument("bsx: " + std::string(operation) + ": no operands");
        if (pieces.size() > capacity)
            throw std::invalid_argument("bsx: " + std::string(operation) + ": " + std::to_string(pieces.size()) +
                                        " operands given, at most " + std::to_string(capacity) +
                                        " in braces (assemble them in groups)");
        std::size_t i = 0;
        for (const Y& y : pieces) held_[i++].emplace(f(y));
    }

    std::size_t count() const noexcept { return count_; }
    template <class F>
    void visit(std::size_t p, F&& f) const {
        f(*held_[p]);
    }
    bool reads_memory_in(const byte_range& range) const noexcept {
        for (std::size_t i = 0; i < count_; ++i)
            if (detail::reads_memory_in(*held_[i], range)) return true;
        return false;
    }

private:
    std::size_t count_;
    std::array<std::optional<X>, capacity> held_;
};
template <class Y, class F>
auto make_piece_list(std::string_view operation, std::initializer_list<Y> pieces, F&& f) {
    return piece_list<std::remove_cvref_t<decltype(f(std::declval<const Y&>()))>>(operation, pieces, f);
}

/// The operands of an assembly node given one by one, of any expression types (held as
/// nodes hold operands: lvalue arrays by reference).
template <class... Held>
class piece_tuple {
public:
    using value_type = std::common_type_t<value_type_t<unwrapped_t<Held>>...>;
    static constexpr std::size_t capacity = sizeof...(Held);
    static constexpr bool in_memory = (strided_expression<unwrapped_t<Held>> && ...);
    using operand_types = boost::hana::tuple<Held...>;

    explicit piece_tuple(Held... held) : held_(std::move(held)...) {}
    std::size_t count() const noexcept { return sizeof...(Held); }
    template <class F>
    void visit(std::size_t p, F&& f) const {
        visit_each(p, f, std::index_sequence_for<Held...>{});
    }
    bool reads_memory_in(const byte_range& range) const noexcept {
        return reads_each(range, std::index_sequence_for<Held...>{});
    }

private:
    template <std::size_t... I>
    bool reads_each(const byte_range& range, std::index_sequence<I...>) const noexcept {
        return (detail::reads_memory_in(unwrap(boost::hana::at_c<I>(held_)), range) || ...);
    }
    template <class F, std::size_t... I>
    void visit_each(std::size_t p, F& f, std::index_sequence<I...>) const {
        ((p == I ? f(unwrap(boost::hana::at_c<I>(held_))) : void()), ...);
    }
    boost::hana::tuple<Held...> held_;
};

}  // namespace detail

/// A lazy piecewise rearrangement of one or more operands of rank R (concatenate, stack,
/// tile, repeat, roll, pad): on each axis an axis_rule, on at most one axis (`pieces`)
/// the operand chosen by offsets. Assigned as a whole, each block of the destination that
/// reads one operand with one step per axis is one fused assignment of that operand.
template <class Pieces, std::size_t R>
class assembly_node : public node_base<assembly_node<Pieces, R>> {
    static_assert(R >= 1, "bsx: assembly of rank-0 operands: give them an axis first (expand_dims)");

public:
    using value_type = typename Pieces::value_type;
    using rules_tag = void;
    static constexpr std::size_t rank = R;
    static constexpr shape_t<R> static_extents = detail::dynamic_shape<R>();

    /// Preconditions (checked by the functions that build it): the rules and offsets agree
    /// with the operands' shapes and with `shape`.
    assembly_node(Pieces pieces, const std::array<detail::axis_rule, R>& rules, const shape_t<R>& shape,
                  value_type fill, std::size_t pieces_axis, const std::array<index_t, Pieces::capacity + 1>& offsets)
        : pieces_(std::move(pieces)),
          rules_(rules),
          shape_(shape),
          fill_(fill),
          pieces_axis_(pieces_axis),
          offsets_(offsets) {}

    const shape_t<R>& shape() const noexcept { return shape_; }
    /// The operands are not children the node protocol walks (a braced list's count is
    /// known at run time only): reads_memory_in asks the node instead, and operand_types
    /// names their types (expr/node.hpp), which is how bsx::dist sees a distributed one.
    using operand_types = typename Pieces::operand_types;
    boost::hana::tuple<> children() const noexcept { return {}; }
    bool reads_memory_in(const detail::byte_range& range) const noexcept { return pieces_.reads_memory_in(range); }

    /// The run that index i of axis d lies in.
    detail::axis_run run(std::size_t d, index_t i) const noexcept {
        if (d != pieces_axis_) return detail::run_at(rules_[d], i, shape_[d]);
        std::size_t p = 0;
        while (offsets_[p + 1] <= i) ++p;
        return {i - offsets_[p], 1, offsets_[p + 1] - i, index_t(p)};
    }

    value_type element(const shape_t<R>& idx) const {
        shape_t<R> src{};
        std::size_t piece = 0;
        for (std::size_t d = 0; d < R; ++d) {
            const auto r = run(d, idx[d]);
            if (r.fill) return fill_;
            src[d] = r.src;
            if (d == pieces_axis_) piece = std::size_t(r.piece);
        }
        value_type v{};
        pieces_.visit(piece, [&](const auto& x) { v = detail::convert<value_type>(x.element(src)); });
        return v;
    }

    /// An operand resized since the node was built would be read out of range: throws
    /// std::logic_error, before anything is written.
    void check_not_resized() const {
        for (std::size_t p = 0; p < pieces_.count(); ++p)
            pieces_.visit(p, [&](const auto& x) {
                shape_t<R> built{};
                for (std::size_t d = 0; d < R; ++d)
                    built[d] = d == pieces_axis_ ? offsets_[p + 1] - offsets_[p] : rules_[d].n;
                if (const shape_t<R> now = x.shape(); now != built)
                    detail::throw_resized_operand("concatenate, stack, tile, repeat, roll or pad", now, built);
            });
    }

    /// Whether writing block by block pays: blocks (one per combination of runs along the
    /// axes) of a few dozen elements on average, or only a few of them. tile(v, {1000000})
    /// of a short v would otherwise be a million assignments.
    bool few_blocks() const noexcept {
        constexpr index_t few = 16, least_average = 32;
        const index_t budget = std::max(few, shape_size(shape_) / least_average);
        index_t blocks = 1;
        for (std::size_t d = 0; d < R; ++d) {
            index_t runs = 0;
            for (index_t i = 0; i < shape_[d]; i += run(d, i).len)
                if (++runs * blocks > budget) return false;
            blocks *= std::max<index_t>(runs, 1);
        }
        return true;
    }

    /// Writes the node into strided memory of its own shape: block by block where blocks are
    /// few, else through the loops' chunks (operands in memory are read where they lie; a
    /// lazy one is computed once into a buffer of its own size first).
    template <class T>
    void write(T* data, const shape_t<R>& strides) const {
        if (few_blocks()) {
            write_blocks(data, strides);
        } else if constexpr (Pieces::in_memory) {
            detail::assign_broadcast(data, shape_, strides, *this);
        } else if constexpr (Pieces::capacity == 1) {
            pieces_.visit(0, [&](const auto& x) {
                using V = value_type_t<decltype(x)>;
                const shape_t<R> xs = x.shape();
                auto [buffer, first] = detail::make_line_aligned_buffer<V>(std::size_t(shape_size(xs)));
                detail::assign_broadcast(first, xs, contiguous_strides(xs), x);
                using view = strided_view<const V, R>;
                using P = detail::piece_tuple<view>;
                const assembly_node<P, R> in_memory(P(view(first, xs, contiguous_strides(xs))), rules_, shape_, fill_,
                                                    R, {});
                detail::assign_broadcast(data, shape_, strides, in_memory);
            });
        } else {
            write_blocks(data, strides);
        }
    }

    /// Writes the node into strided memory of its own shape, block by block.
    template <class T>
    void write_blocks(T* data, const shape_t<R>& strides) const {
        if (shape_size(shape_) == 0) return;
        shape_t<R> start{};
        std::array<detail::axis_run, R> runs;
        for (std::size_t d = 0; d < R; ++d) runs[d] = run(d, 0);
        for (;;) {
            write_block(data, strides, start, runs);
            std::size_t d = R;
            while (d-- > 0) {
                start[d] += runs[d].len;
                if (start[d] < shape_[d]) {
                    runs[d] = run(d, start[d]);
                    break;
                }
                start[d] = 0;
                runs[d] = run(d, 0);
                if (d == 0) return;
            }
        }
    }

    /// Elements at positions (row-major numbers) first, first + step, ... of the node;
    /// only when every operand is memory (then nothing here can throw).
    template <class T>
    void fill_positions(index_t first, index_t step, index_t len, T* to) const noexcept {
        if (step != 1) {
            for (index_t t = 0; t < len; ++t) fill_row(detail::unravel_index(first + t * step, shape_), 1, to + t);
            return;
        }
        while (len > 0) {
            const shape_t<R> idx = detail::unravel_index(first, shape_);
            const index_t n = std::min(len, shape_[R - 1] - idx[R - 1]);
            fill_row(idx, n, to);
            to += n;
            first += n;
            len -= n;
        }
    }

private:
    template <class T>
    void write_block(T* data, const shape_t<R>& strides, const shape_t<R>& start,
                     const std::array<detail::axis_run, R>& runs) const {
        shape_t<R> extent{};
        detail::index_map<R, R> map;
        index_t offset = 0;
        bool fill = false;
        std::size_t piece = 0;
        for (std::size_t d = 0; d < R; ++d) {
            extent[d] = runs[d].len;
            offset += start[d] * strides[d];
            fill = fill || runs[d].fill;
            map.first[d] = runs[d].src;
            map.step[d][d] = runs[d].step;
            if (d == pieces_axis_) piece = std::size_t(runs[d].piece);
        }
        T* out = data + offset;
        if (fill) {
            detail::assign_broadcast(out, extent, strides, scalar<value_type>{fill_});
            return;
        }
        pieces_.visit(piece, [&](const auto& x) {
            using X = std::remove_cvref_t<decltype(x)>;
            if constexpr (strided_expression<X>) {
                using E = std::remove_pointer_t<decltype(x.data())>;
                auto m = map;
                m.pin_unit_axes(x.shape());
                detail::assign_broadcast(out, extent, strides,
                                         strided_view<const E, R>(x.data() + detail::offset_through(x.strides(), m),
                                                                  extent, detail::strides_through(x.strides(), m)));
            } else {
                detail::assign_broadcast(out, extent, strides,
                                         placed_node<detail::array_ref<X>, R>(detail::array_ref<X>{&x}, map, extent));
            }
        });
    }

    /// `n` elements of the row at idx, from idx's own index on the last axis.
    template <class T>
    void fill_row(shape_t<R> idx, index_t n, T* to) const noexcept {
        shape_t<R> src{};
        std::size_t piece = 0;
        for (std::size_t d = 0; d + 1 < R; ++d) {
            const auto r = run(d, idx[d]);
            if (r.fill) {
                std::fill_n(to, n, detail::convert<T>(fill_));
                return;
            }
            src[d] = r.src;
            if (d == pieces_axis_) piece = std::size_t(r.piece);
        }
        for (index_t i = idx[R - 1]; n > 0;) {
            const auto r = run(R - 1, i);
            const index_t len = std::min(r.len, n);
            if (r.fill) {
                std::fill_n(to, len, detail::convert<T>(fill_));
            } else {
                src[R - 1] = r.src;
                pieces_.visit(R - 1 == pieces_axis_ ? std::size_t(r.piece) : piece, [&](const auto& x) {
                    if constexpr (strided_expression<decltype(x)>) {
                        const auto& st = x.strides();
                        const auto* q = x.data();
                        for (std::size_t d = 0; d < R; ++d) q += (x.shape()[d] == 1 ? 0 : src[d]) * st[d];
                        const index_t s = r.step * st[R - 1];
                        if (s == 1) {
                            // The loops ask for a page or so at a time, and the hardware's
                            // prefetch stops at page ends: ask for the run's continuation now,
                            // as far as the operand's memory goes (q + t past its end is UB).
                            constexpr index_t line = 64 / index_t(sizeof(*q));
                            const auto end = detail::memory_range(x.data(), x.shape(), x.strides()).hi;
                            const index_t ahead =
                                std::min(2 * len, index_t((end - reinterpret_cast<std::uintptr_t>(q)) / sizeof(*q)));
                            for (index_t t = len; t < ahead; t += line) __builtin_prefetch(q + t);
                            for (index_t t = 0; t < len; ++t) to[t] = detail::convert<T>(q[t]);
                        } else
                            for (index_t t = 0; t < len; ++t) to[t] = detail::convert<T>(q[t * s]);
                    }
                });
            }
            to += len;
            i += len;
            n -= len;
        }
    }

    Pieces pieces_;
    std::array<detail::axis_rule, R> rules_;
    shape_t<R> shape_;
    value_type fill_;
    std::size_t pieces_axis_;
    std::array<index_t, Pieces::capacity + 1> offsets_;
};

/// A lazy expression of rank N seen flat, in row-major order (ravel of what is not
/// contiguous memory).
template <class Held>
class raveled_node : public unary_node<raveled_node<Held>, Held> {
    using base = unary_node<raveled_node<Held>, Held>;
    static constexpr std::size_t n = rank_v<typename base::operand_type>;

public:
    using base::operand;
    using value_type = value_type_t<typename base::operand_type>;
    using rules_tag = void;
    static constexpr std::size_t rank = 1;
    static constexpr shape_t<1> static_extents = detail::dynamic_shape<1>();

    explicit raveled_node(Held held) : base(std::move(held)), shape_{operand().size()} {}
    const shape_t<1>& shape() const noexcept { return shape_; }
    /// An operand resized since the node was built throws std::logic_error.
    void check_not_resized() const {
        if (operand().size() != shape_[0]) detail::throw_resized_operand("ravel", shape_t<1>{operand().size()}, shape_);
    }
    value_type element(const shape_t<1>& i) const {
        return operand().element(detail::unravel_index(i[0], shape_t<n>(operand().shape())));
    }

private:
    shape_t<1> shape_;
};

namespace detail {

/// Elements of an assembly node whose operands are all memory, computed where the loops
/// ask for them (the cursor's generate function).
template <class Node>
void generate_assembly(const void* source, index_t first, index_t step, index_t len, std::byte* out) noexcept {
    using V = value_type_t<Node>;
    static_cast<const Node*>(source)->fill_positions(first, step, len, reinterpret_cast<V*>(out));
}

/// An assembly node: assigned as a whole, block by block into the destination; inside a
/// larger expression, read where the loops ask when its operands are memory that the
/// destination does not overlap, else computed once into a buffer of its size first.
template <class Pieces, std::size_t R>
struct binder<assembly_node<Pieces, R>> : binder_defaults {
    template <class E, class T, std::size_t D>
    static auto bind(const E& e, const index_map<R, D>& map, const destination<T, D>& dest) {
        using V = value_type_t<E>;
        e.check_not_resized();
        leaf_evaluator<V, D> ev;
        const auto positions = contiguous_strides(e.shape());
        if constexpr (Pieces::in_memory) {
            if (!reads_memory_in(e, memory_range(dest.data, dest.shape, dest.strides))) {
                ev.cursor.steps.bytes = sizeof(V);
                ev.cursor.steps.stride = strides_through(positions, map);
                ev.cursor.steps.generated = true;
                ev.cursor.generate = &generate_assembly<E>;
                ev.cursor.source = &e;
                ev.cursor.origin = offset_through(positions, map);
                return ev;
            }
        }
        auto [buffer, first] = make_line_aligned_buffer<V>(std::size_t(e.size()));
        e.write(first, positions);
        ev.read(first + offset_through(positions, map), strides_through(positions, map));
        ev.copy = buffer_owner(std::move(buffer));
        return ev;
    }
    template <class E, class T, std::size_t D>
    static bool can_write_into(const E& e, const T* data, const shape_t<D>& shape, const shape_t<D>& strides) {
        if constexpr (D != R)
            return false;
        else
            return e.shape() == shape && !reads_memory_in(e, memory_range(data, shape, strides)) &&
                   (!Pieces::in_memory || e.few_blocks());
    }
    template <class E, class T, std::size_t D>
    static void write_into(const E& e, T* data, const shape_t<D>&, const shape_t<D>& strides) {
        e.check_not_resized();
        if constexpr (D == R) e.write(data, strides);
    }
};

/// ravel: assigned as a whole, the destination is viewed at the operand's shape (no
/// buffer); inside a larger expression the operand is computed once into a buffer.
template <class Held>
struct binder<raveled_node<Held>> : binder_defaults {
    template <class E, class T, std::size_t D>
    static auto bind(const E& e, const index_map<1, D>& map, const destination<T, D>&) {
        using V = value_type_t<E>;
        e.check_not_resized();
        const auto& x = e.operand();
        leaf_evaluator<V, D> ev;
        auto [buffer, first] = make_line_aligned_buffer<V>(std::size_t(e.size()));
        assign_broadcast(first, x.shape(), contiguous_strides(x.shape()), x);
        ev.read(first + map.first[0], strides_through(shape_t<1>{1}, map));
        ev.copy = buffer_owner(std::move(buffer));
        return ev;
    }
    template <class E, class T, std::size_t D>
    static bool can_write_into(const E& e, const T* data, const shape_t<D>& shape, const shape_t<D>& strides) {
        if constexpr (D != 1)
            return false;
        else
            return e.shape() == shape && !reads_memory_in(e, memory_range(data, shape, strides));
    }
    template <class E, class T, std::size_t D>
    static void write_into(const E& e, T* data, const shape_t<D>&, const shape_t<D>& strides) {
        e.check_not_resized();
        if constexpr (D == 1) {
            const auto& x = e.operand();
            auto st = contiguous_strides(x.shape());
            for (auto& s : st) s *= strides[0];
            assign_broadcast(data, x.shape(), st, x);
        }
    }
};

// ---- building ------------------------------------------------------------------------

/// An axis argument (k or bsx::axis(k)) as an axis of a rank-N shape.
template <std::size_t N, class A>
std::size_t assembly_axis(std::string_view operation, A axis, const shape_t<N>& shape) {
    return checked_axis(operation, axis_value(axis), shape);
}

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_assembly_mismatch(std::string_view operation,
                                                                           std::span<const index_t> first,
                                                                           std::span<const index_t> other,
                                                                           std::size_t index, index_t axis,
                                                                           std::size_t along) {
    throw broadcast_error("bsx: " + std::string(operation) + ": operand 0 has shape " + format_shape(first) +
                          " and operand " + std::to_string(index) + " has shape " + format_shape(other) +
                          ": they differ on axis " + std::to_string(axis) + ", which is not the axis joined (" +
                          std::to_string(along) + ")");
}
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_stack_mismatch(std::string_view operation,
                                                                        std::span<const index_t> first,
                                                                        std::span<const index_t> other,
                                                                        std::size_t index) {
    throw broadcast_error("bsx: " + std::string(operation) + ": operand 0 has shape " + format_shape(first) +
                          " and operand " + std::to_string(index) + " has shape " + format_shape(other) +
                          ": stacked operands must have one shape");
}

/// The concatenation of the operands in `pieces` along `axis` (k or bsx::axis(k)).
template <std::size_t R, class Pieces, class A>
auto concatenate_pieces(std::string_view operation, Pieces pieces, A axis_arg) {
    shape_t<R> shape{};
    pieces.visit(0, [&](const auto& x) { shape = x.shape(); });
    const std::size_t axis = assembly_axis(operation, axis_arg, shape);
    std::array<index_t, Pieces::capacity + 1> offsets{};
    for (std::size_t p = 0; p < pieces.count(); ++p)
        pieces.visit(p, [&](const auto& x) {
            const shape_t<R> s = x.shape();
            for (std::size_t d = 0; d < R; ++d)
                if (d != axis && s[d] != shape[d]) throw_assembly_mismatch(operation, shape, s, p, index_t(d), axis);
            if (s[axis] > std::numeric_limits<index_t>::max() - offsets[p])
                throw std::length_error("bsx: " + std::string(operation) + ": operand " + std::to_string(p) +
                                        " of shape " + format_shape(s) + " makes the extents along axis " +
                                        std::to_string(axis) + " sum past PTRDIFF_MAX");
            offsets[p + 1] = offsets[p] + s[axis];
        });
    for (std::size_t p = pieces.count() + 1; p < offsets.size(); ++p) offsets[p] = offsets[pieces.count()];
    shape[axis] = offsets[pieces.count()];
    checked_size(operation, shape);
    std::array<axis_rule, R> rules{};
    for (std::size_t d = 0; d < R; ++d) rules[d].n = shape[d];
    rules[axis].kind = axis_kind::pieces;
    return assembly_node<Pieces, R>(std::move(pieces), rules, shape, {}, axis, offsets);
}

/// One operand read through per-axis rules into `shape` (tile, repeat, roll, pad).
template <class X, std::size_t R, class V>
auto rearranged(X&& x, const std::array<axis_rule, R>& rules, const shape_t<R>& shape, V fill) {
    using P = piece_tuple<held_t<X>>;
    using node = assembly_node<P, R>;
    return node(P(hold(std::forward<X>(x))), rules, shape, convert<typename node::value_type>(fill), R, {});
}

/// How a rank-N operand of shape `in` is read at rank N + 1 with an extent-1 axis
/// inserted at `axis` (in [0, N]), and the shape it then has.
template <std::size_t N>
std::pair<index_map<N, N + 1>, shape_t<N + 1>> inserted_placement(const shape_t<N>& in, std::size_t axis) {
    shape_t<N + 1> shape{};
    std::array<std::size_t, N> to{};
    for (std::size_t k = 0, j = 0; j < N + 1; ++j) {
        if (j == axis) {
            shape[j] = 1;
        } else {
            to[k] = j;
            shape[j] = in[k++];
        }
    }
    return {index_map<N, N + 1>::aligned(to), shape};
}
template <class X>
auto inserted_axis(X&& x, std::size_t axis) {
    const auto [map, shape] = inserted_placement(shape_t<rank_v<X>>(x.shape()), axis);
    return remap<rank_v<X> + 1>(std::forward<X>(x), map, shape);
}

/// The error of insertion_axis, naming the operand's own shape (not the widened one).
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_insertion_axis_out_of_range(std::string_view operation,
                                                                                     index_t axis,
                                                                                     std::span<const index_t> shape) {
    const auto n = index_t(shape.size());
    throw std::out_of_range("bsx: " + std::string(operation) + ": axis " + std::to_string(axis) +
                            " is out of range for inserting an axis into an operand of rank " + std::to_string(n) +
                            " and shape " + format_shape(shape) + " (axes -" + std::to_string(n + 1) + " to " +
                            std::to_string(n) + ")");
}

/// An axis of the result of inserting one into a rank-N shape: in [-(N+1), N].
template <std::size_t N, class A>
std::size_t insertion_axis(std::string_view operation, A axis, const shape_t<N>& shape) {
    const index_t k = axis_value(axis);
    constexpr auto n = index_t(N) + 1;
    if (k < -n || k >= n) throw_insertion_axis_out_of_range(operation, k, shape);
    return std::size_t(k < 0 ? k + n : k);
}

}  // namespace detail

// ---- concatenate, stack, hstack, vstack --------------------------------------------------

/// NumPy's concatenate: the operands (one expression type, in braces) joined along `axis`;
/// their shapes agree on every other axis. Arrays listed in braces are copied (C++ copies
/// a braced list's elements); concatenate(a, b, axis) holds them by reference.
template <expression X, detail::axis_argument A>
auto concatenate(std::initializer_list<X> pieces, A axis) {
    return detail::concatenate_pieces<rank_v<X>>(
        "concatenate", detail::make_piece_list("concatenate", pieces, [](const X& x) -> const X& { return x; }), axis);
}
/// The same for operands of different expression types, given one by one.
template <expression X, expression Y, detail::axis_argument A>
auto concatenate(X&& x, Y&& y, A axis) {
    static_assert(rank_v<X> == rank_v<Y>, "bsx: concatenate: the operands must have the same rank");
    using P = detail::piece_tuple<detail::held_t<X>, detail::held_t<Y>>;
    return detail::concatenate_pieces<rank_v<X>>(
        "concatenate", P(detail::hold(std::forward<X>(x)), detail::hold(std::forward<Y>(y))), axis);
}
template <expression X, expression Y, expression Z, detail::axis_argument A>
auto concatenate(X&& x, Y&& y, Z&& z, A axis) {
    static_assert(rank_v<X> == rank_v<Y> && rank_v<X> == rank_v<Z>,
                  "bsx: concatenate: the operands must have the same rank");
    using P = detail::piece_tuple<detail::held_t<X>, detail::held_t<Y>, detail::held_t<Z>>;
    return detail::concatenate_pieces<rank_v<X>>(
        "concatenate",
        P(detail::hold(std::forward<X>(x)), detail::hold(std::forward<Y>(y)), detail::hold(std::forward<Z>(z))), axis);
}

/// NumPy's stack: operands of one shape joined along a new axis (in [-(N+1), N]).
template <expression X, detail::axis_argument A>
auto stack(std::initializer_list<X> pieces, A axis) {
    constexpr std::size_t N = rank_v<X>;
    if (pieces.size() == 0) throw std::invalid_argument("bsx: stack: no operands");
    const shape_t<N> shape = pieces.begin()->shape();
    std::size_t i = 0;
    for (const X& x : pieces) {
        if (x.shape() != shape) detail::throw_stack_mismatch("stack", shape, x.shape(), i);
        ++i;
    }
    const std::size_t k = detail::insertion_axis("stack", axis, shape);
    const auto placement = detail::inserted_placement(shape, k);
    const auto& map = placement.first;
    const auto& placed = placement.second;
    // An array in braces is a copy that dies with the list: the node keeps its own.
    const auto place = [&](const X& x) {
        if constexpr (detail::owning_array<X>)
            return detail::place_lazily<N + 1>(X(x), map, placed);
        else
            return detail::remap<N + 1>(x, map, placed);
    };
    return detail::concatenate_pieces<N + 1>("stack", detail::make_piece_list("stack", pieces, place), index_t(k));
}
template <expression X, expression Y, detail::axis_argument A>
auto stack(X&& x, Y&& y, A axis) {
    static_assert(rank_v<X> == rank_v<Y>, "bsx: stack: the operands must have the same rank");
    if (x.shape() != y.shape()) detail::throw_stack_mismatch("stack", x.shape(), y.shape(), 1);
    const std::size_t k = detail::insertion_axis("stack", axis, x.shape());
    return concatenate(detail::inserted_axis(std::forward<X>(x), k), detail::inserted_axis(std::forward<Y>(y), k),
                       index_t(k));
}

/// NumPy's hstack: concatenate along axis 1, or axis 0 for rank-1 operands.
template <expression X>
auto hstack(std::initializer_list<X> pieces) {
    return concatenate(pieces, rank_v<X> == 1 ? 0 : 1);
}
template <expression X, expression Y>
auto hstack(X&& x, Y&& y) {
    return concatenate(std::forward<X>(x), std::forward<Y>(y), rank_v<X> == 1 ? 0 : 1);
}
/// NumPy's vstack: concatenate along axis 0; rank-1 operands become rows first (stack).
template <expression X>
auto vstack(std::initializer_list<X> pieces) {
    if constexpr (rank_v<X> == 1)
        return stack(pieces, 0);
    else
        return concatenate(pieces, 0);
}
template <expression X, expression Y>
auto vstack(X&& x, Y&& y) {
    if constexpr (rank_v<X> == 1)
        return stack(std::forward<X>(x), std::forward<Y>(y), 0);
    else
        return concatenate(std::forward<X>(x), std::forward<Y>(y), 0);
}

// ---- tile, repeat, roll, pad ---------------------------------------------------------

/// NumPy's tile: x repeated reps[k] times along each axis. Fewer reps than axes apply to
/// the last axes; more give x leading axes of extent 1 first.
template <expression X, std::size_t M>
auto tile(X&& x, const std::array<index_t, M>& reps) {
    constexpr std::size_t N = rank_v<X>;
    if constexpr (M > N) {
        shape_t<M> shape{};
        std::array<std::size_t, N> to{};
        const auto in = x.shape();
        std::fill(shape.begin(), shape.end(), 1);
        for (std::size_t k = 0; k < N; ++k) {
            to[k] = M - N + k;
            shape[M - N + k] = in[k];
        }
        return tile(detail::remap<M>(std::forward<X>(x), detail::index_map<N, M>::aligned(to), shape), reps);
    } else {
        const shape_t<N> in = x.shape();
        shape_t<N> shape = in;
        std::array<detail::axis_rule, N> rules{};
        for (std::size_t k = 0; k < N; ++k) {
            rules[k].n = in[k];
            if (k + M < N) continue;
            const index_t r = reps[k + M - N];
            if (r < 0)
                throw std::invalid_argument("bsx: tile: reps " + format_shape(reps) + " for shape " + format_shape(in) +
                                            ": a repetition count is negative");
            if (in[k] != 0 && r > std::numeric_limits<index_t>::max() / in[k])
                throw std::length_error("bsx: tile: reps " + format_shape(reps) + " for shape " + format_shape(in) +
                                        " give an extent too large");
            shape[k] = in[k] * r;  // checked below: the extents multiply into the size
            if (r != 1) rules[k].kind = detail::axis_kind::tile;
        }
        detail::checked_size("tile", shape);
        return detail::rearranged(std::forward<X>(x), rules, shape, 0);
    }
}
template <expression X, std::size_t M>
auto tile(X&& x, const index_t (&reps)[M]) {
    return tile(std::forward<X>(x), std::to_array(reps));
}

/// NumPy's repeat with one count: each element repeated `count` times along `axis`.
template <expression X, std::integral C, detail::axis_argument A>
auto repeat(X&& x, C count, A axis) {
    constexpr std::size_t N = rank_v<X>;
    const shape_t<N> in = x.shape();
    const std::size_t k = detail::assembly_axis("repeat", axis, in);
    if (count < 0)
        throw std::invalid_argument("bsx: repeat: count " + std::to_string(count) + " is negative (shape " +
                                    format_shape(in) + ", axis " + std::to_string(k) + ")");
    std::array<detail::axis_rule, N> rules{};
    shape_t<N> shape = in;
    for (std::size_t d = 0; d < N; ++d) rules[d].n = in[d];
    // Compared in count's own type: an unsigned count above PTRDIFF_MAX would turn negative
    // as an index_t (NumPy refuses such a count even for an empty axis).
    if (std::cmp_greater(count, std::numeric_limits<index_t>::max()) ||
        (in[k] != 0 && std::cmp_greater(count, std::numeric_limits<index_t>::max() / in[k])))
        throw std::length_error("bsx: repeat: count " + std::to_string(count) + " along axis " + std::to_string(k) +
                                " of shape " + format_shape(in) + " gives an extent too large");
    shape[k] = in[k] * index_t(count);
    detail::checked_size("repeat", shape);
    if (count != 1) rules[k] = {detail::axis_kind::repeat, in[k], index_t(count)};
    return detail::rearranged(std::forward<X>(x), rules, shape, 0);
}

/// NumPy's roll along an axis: element i moves to (i + shift) mod n.
template <expression X, std::integral S, detail::axis_argument A>
auto roll(X&& x, S shift, A axis) {
    constexpr std::size_t N = rank_v<X>;
    const shape_t<N> in = x.shape();
    const std::size_t k = detail::assembly_axis("roll", axis, in);
    std::array<detail::axis_rule, N> rules{};
    for (std::size_t d = 0; d < N; ++d) rules[d].n = in[d];
    if (in[k] > 0) {
        // Reduced in shift's own type: an unsigned shift above PTRDIFF_MAX would turn
        // negative as an index_t and roll the other way.
        index_t s;
        if constexpr (std::is_signed_v<S>)
            s = ((index_t(shift) % in[k]) + in[k]) % in[k];
        else
            s = index_t(std::uint64_t(shift) % std::uint64_t(in[k]));
        if (s != 0) rules[k] = {detail::axis_kind::roll, in[k], s};
    }
    return detail::rearranged(std::forward<X>(x), rules, in, 0);
}

/// Without an axis, over the elements in row-major order (NumPy's flattened roll), at x's shape.
template <expression X, std::integral S>
auto roll(X&& x, S shift) {
    constexpr std::size_t N = rank_v<X>;
    static_assert(N >= 1, "bsx: roll: a rank-0 operand has no axis to roll");
    const shape_t<N> in = x.shape();
    if constexpr (N == 1)
        return roll(std::forward<X>(x), shift, 0);
    else
        return reshape<N>(roll(ravel(std::forward<X>(x)), shift, 0), in);
}

/// NumPy's flip along one axis (a view: the axis read backwards).
template <expression X, detail::axis_argument A>
auto flip(X&& x, A axis) {
    constexpr std::size_t N = rank_v<X>;
    const shape_t<N> in = x.shape();
    const std::size_t k = detail::assembly_axis("flip", axis, in);
    std::array<std::size_t, N> to{};
    for (std::size_t d = 0; d < N; ++d) to[d] = d;
    auto map = detail::index_map<N, N>::aligned(to);
    map.first[k] = in[k] - 1;
    map.step[k][k] = -1;
    return detail::remap<N>(std::forward<X>(x), map, in);
}
/// Every axis reversed.
template <expression X>
auto flip(X&& x) {
    constexpr std::size_t N = rank_v<X>;
    const shape_t<N> in = x.shape();
    detail::index_map<N, N> map;
    for (std::size_t d = 0; d < N; ++d) {
        map.first[d] = in[d] - 1;
        map.step[d][d] = -1;
    }
    return detail::remap<N>(std::forward<X>(x), map, in);
}

/// NumPy's pad: `widths` is {{before, after}} per axis, or one pair for every axis.
template <expression X, std::size_t M, class Mode>
    requires(std::same_as<Mode, pad_edge_t> || std::same_as<Mode, pad_reflect_t> ||
             requires(Mode m) { pad_constant(m.value); })
auto pad(X&& x, const index_t (&widths)[M][2], Mode mode) {
    constexpr std::size_t N = rank_v<X>;
    static_assert(M == N || M == 1, "bsx: pad: give one {before, after} pair per axis, or one for every axis");
    const shape_t<N> in = x.shape();
    std::array<detail::axis_rule, N> rules{};
    shape_t<N> shape{};
    double fill = 0;
    for (std::size_t d = 0; d < N; ++d) {
        const index_t before = widths[M == 1 ? 0 : d][0], after = widths[M == 1 ? 0 : d][1];
        const auto where = [&] {
            return " (shape " + format_shape(in) + ", axis " + std::to_string(d) + ", widths {" +
                   std::to_string(before) + ", " + std::to_string(after) + "})";
        };
        if (before < 0 || after < 0) throw std::invalid_argument("bsx: pad: a width is negative" + where());
        if (before > std::numeric_limits<index_t>::max() - in[d] - after)
            throw std::length_error("bsx: pad: the padded extent is too large" + where());
        shape[d] = in[d] + before + after;
        rules[d].n = in[d];
        rules[d].a = before;
        if (before == 0 && after == 0) continue;
        if constexpr (std::same_as<Mode, pad_edge_t> || std::same_as<Mode, pad_reflect_t>)
            if (in[d] == 0)
                throw std::invalid_argument("bsx: pad: an empty axis has no " +
                                            std::string(std::same_as<Mode, pad_edge_t> ? "edge" : "values to reflect") +
                                            where());
        if constexpr (std::same_as<Mode, pad_edge_t>)
            rules[d].kind = detail::axis_kind::pad_edge;
        else if constexpr (std::same_as<Mode, pad_reflect_t>)
            rules[d].kind = detail::axis_kind::pad_reflect;
        else
            rules[d].kind = detail::axis_kind::pad_constant;
    }
    detail::checked_size("pad", shape);
    if constexpr (requires { mode.value; })
        return detail::rearranged(std::forward<X>(x), rules, shape, mode.value);
    else
        return detail::rearranged(std::forward<X>(x), rules, shape, fill);
}
/// Zeros around x.
template <expression X, std::size_t M>
auto pad(X&& x, const index_t (&widths)[M][2]) {
    return pad(std::forward<X>(x), widths, pad_constant(0));
}

// ---- squeeze, expand_dims, ravel -----------------------------------------------------------

/// NumPy's squeeze of one axis (of extent 1; the rank is static, so the axis is required).
template <expression X, detail::axis_argument A>
auto squeeze(X&& x, A axis) {
    constexpr std::size_t N = rank_v<X>;
    static_assert(N >= 1, "bsx: squeeze: a rank-0 operand has no axis to remove");
    const shape_t<N> in = x.shape();
    const std::size_t k = detail::assembly_axis("squeeze", axis, in);
    if (in[k] != 1)
        throw std::invalid_argument("bsx: squeeze: axis " + std::to_string(k) + " of shape " + format_shape(in) +
                                    " has extent " + std::to_string(in[k]) + ", not 1");
    shape_t<N - 1> shape{};
    detail::index_map<N, N - 1> map;
    for (std::size_t d = 0; d < N; ++d)
        if (d != k) {
            const std::size_t j = d < k ? d : d - 1;
            shape[j] = in[d];
            map.step[d][j] = 1;
        }
    return detail::remap<N - 1>(std::forward<X>(x), map, shape);
}

/// NumPy's expand_dims: an extent-1 axis inserted at `axis` (in [-(N+1), N]).
template <expression X, detail::axis_argument A>
auto expand_dims(X&& x, A axis) {
    const std::size_t k = detail::insertion_axis("expand_dims", axis, x.shape());
    return detail::inserted_axis(std::forward<X>(x), k);
}

/// NumPy's ravel: the elements in row-major order, rank 1. Contiguous memory gives a view;
/// anything else a lazy node.
template <expression X>
auto ravel(X&& x) {
    if constexpr (detail::owning_array<X> && std::is_lvalue_reference_v<X>) {
        const auto v = detail::view_of(std::forward<X>(x));
        return strided_view<std::remove_pointer_t<decltype(v.data())>, 1>(v.data(), {v.size()}, {1});
    } else {
        return raveled_node<detail::held_t<X>>(detail::hold(std::forward<X>(x)));
    }
}

}  // namespace bsx
