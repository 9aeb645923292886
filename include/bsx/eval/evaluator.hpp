// bsx/eval/evaluator.hpp: binding an expression tree to a destination. Each node
// becomes an evaluator, made by the binder of its kind; per chunk it hands the inner
// loop a reader, a small value whose `load(j)` reads element j from unit-stride memory.
// Each memory leaf is bound to its strides in the destination's index space (0 on
// broadcast axes) and copied first if it overlaps the destination unsafely.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include <boost/hana/at.hpp>
#include <boost/hana/unpack.hpp>

#include "../config.hpp"
#include "../detail/message.hpp"
#include "../fwd.hpp"
#include "../expr/expression.hpp"
#include "../expr/generated.hpp"
#include "../expr/index_map.hpp"
#include "../expr/map_node.hpp"
#include "../expr/ops.hpp"
#include "../expr/placed_node.hpp"
#include "../expr/scalar.hpp"
#include "../expr/static_extents.hpp"
#include "../expr/with_rules.hpp"
#include "alias.hpp"
#include "evaluator_protocol.hpp"
#include "leaf_cursor.hpp"
#include "loop.hpp"
#include "math_evaluator.hpp"
#include "parallel.hpp"
#include "strided_copy.hpp"

namespace bsx::detail {

// ---- leaves ------------------------------------------------------------------------

/// A value that is the same at every element: a scalar operand, and its own reader.
template <class T>
struct scalar_evaluator : evaluator_defaults {
    T value;
    T load(index_t) const noexcept { return value; }
    void next_row() noexcept {}
    template <std::size_t Mask, bool Strided = false>
    scalar_evaluator chunk_reader() const noexcept {
        return *this;
    }
};

/// Owns the buffer a leaf reads when binding made one (an aliasing operand's copy, a
/// nested reduction's result). Only the bound evaluator owns it: the copies the threads
/// make of it borrow, so that making or dropping one touches no reference count. The
/// pointer lives in a union, so that a leaf's destructor is a test and a call, not the
/// reference count's code inlined per leaf. The pointer is always constructed, and empty
/// unless owns_ (an empty shared_ptr needs no destructor): so no path reads it
/// uninitialized, which g++ -O2 -Wall would otherwise suspect in its users' code.
class buffer_owner {
public:
    buffer_owner() noexcept : buffer_() {}
    explicit buffer_owner(std::shared_ptr<void> buffer) noexcept : buffer_(std::move(buffer)), owns_(true) {}
    buffer_owner(const buffer_owner&) noexcept : buffer_() {}
    buffer_owner(buffer_owner&& other) noexcept : buffer_() { take(other); }
    buffer_owner& operator=(const buffer_owner&) = delete;
    buffer_owner& operator=(buffer_owner&& other) noexcept {
        if (this != &other) {
            if (owns_) release();
            take(other);
        }
        return *this;
    }
    ~buffer_owner() {
        if (owns_) release();
    }

private:
    // Called with buffer_ empty; leaves other's empty.
    void take(buffer_owner& other) noexcept {
        owns_ = std::exchange(other.owns_, false);
        if (owns_) buffer_.swap(other.buffer_);
    }
    [[gnu::noinline]] void release() noexcept {
        buffer_.reset();
        owns_ = false;
    }
    union {
        std::shared_ptr<void> buffer_;
    };
    bool owns_ = false;
};

/// A memory operand: its leaf_cursor, which the loops move, and the readers that read
/// the chunk the cursor exposes as elements of T.
template <class T, std::size_t D>
struct leaf_evaluator : evaluator_defaults {
    leaf_cursor<D> cursor;
    buffer_owner copy;  // the buffer it reads, where binding made one

    // Tiles live in the loop's stack frame, not here, so evaluators stay small and
    // cheap to build and to copy per thread.
    static_assert(std::is_trivially_copyable_v<T>, "bsx: array elements must be trivially copyable");
    static constexpr std::size_t leaf_count = 1;
    // The longest chunk, plus one period of slack for repeating operands. Only what a
    // row uses is ever touched: a gathered or constant tile the row's chunk (up to
    // periodic_chunk when the row runs through tiles or a math node).
    static constexpr std::size_t tile_bytes = ((periodic_chunk + max_fold_period) * sizeof(T) + 63) / 64 * 64;

    /// The leaf that reads the memory at `first` with destination-space `strides`.
    void read(const T* first, const shape_t<D>& strides) noexcept {
        cursor.base = reinterpret_cast<const std::byte*>(first);
        cursor.steps.bytes = sizeof(T);
        cursor.steps.stride = strides;
    }
    const T* first() const noexcept { return reinterpret_cast<const T*>(cursor.base); }

    std::byte* attach_tiles(std::byte* scratch) noexcept {
        cursor.tile = scratch;
        return scratch + tile_bytes;
    }
    leaf_cursor<D>** collect_leaves(leaf_cursor<D>** out) noexcept {
        *out = &cursor;
        return out + 1;
    }
    bool reads_memory_of_destination() const noexcept { return cursor.reads_destination; }

    /// Element i at q (a bool read as its byte: bool loads do not vectorize with GCC).
    static T element(const T* q, index_t i) noexcept {
        if constexpr (std::is_same_v<T, bool>)
            return reinterpret_cast<const unsigned char*>(q)[i] != 0;
        else
            return q[i];
    }
    struct reader {
        const T* q;
        index_t next;  // to the same element of the next row (runs of rows in place)
        T load(index_t j) const noexcept { return element(q, j); }
        void next_row() noexcept { q += next; }
        const T* data() const noexcept { return q; }
    };
    /// A row read in place with the stride the cursor was placed with (loop_kind::strided).
    struct strided_reader {
        const T* q;
        index_t step, next;
        T load(index_t j) const noexcept { return element(q, j * step); }
        void next_row() noexcept { q += next; }
    };
    /// An operand constant along the row: its value, read when the reader is made, before
    /// any of the row is written (see reads_own_row), and where it is.
    struct constant_reader {
        T value;
        const T* at;
        index_t next;
        T load(index_t) const noexcept { return value; }
        void next_row() noexcept { value = *(at += next); }
    };
    template <std::size_t Mask, bool Strided = false>
    auto chunk_reader() const noexcept {
        const T* q = reinterpret_cast<const T*>(cursor.q);
        if constexpr (Strided)
            return strided_reader{q, cursor.inner, cursor.next};
        else if constexpr ((Mask & 1) != 0)
            return constant_reader{*q, q, cursor.next};
        else
            return reader{q, cursor.next};
    }
};

/// What the inner loop sees of a node: its operation and its children's readers.
template <class Op, class Indices, class... R>
struct node_reader;
template <class Op, std::size_t... I, class... R>
struct node_reader<Op, std::index_sequence<I...>, R...> {
    const Op* op;
    child_list<std::index_sequence<I...>, R...> readers;

    /// Whether a load cannot throw: bsx's own operations never do; a user function only
    /// when it is declared noexcept (then an exception from it terminates, as C++ says).
    static constexpr bool never_throws =
        (noexcept(std::declval<const R&>().load(0)) && ...) &&
        (!ops::is_user_function<Op> ||
         std::is_nothrow_invocable_v<const Op&, decltype(std::declval<const R&>().load(0))...>);

    auto load(index_t j) const noexcept(never_throws) { return (*op)(child<I>(readers).load(j)...); }
    void next_row() noexcept { (child<I>(readers).next_row(), ...); }
};

/// An inner node: its operation and its children's evaluators.
template <class Op, class Indices, class... C>
struct node_evaluator;
template <class Op, std::size_t... I, class... C>
struct node_evaluator<Op, std::index_sequence<I...>, C...> {
    using indices = std::index_sequence<I...>;
    Op op;
    child_list<indices, C...> children;

    static constexpr std::size_t leaf_count = (std::size_t{0} + ... + C::leaf_count);
    static constexpr std::size_t tile_bytes = (std::size_t{0} + ... + C::tile_bytes);
    static constexpr bool has_math = (false || ... || C::has_math);
    /// Whether preparing a chunk cannot throw: only a math node over a user function may.
    static constexpr bool prepare_never_throws = (noexcept(std::declval<C&>().prepare(0, 0)) && ...);
    /// How many memory leaves come before child i (leaves are numbered left to right).
    static constexpr std::array<std::size_t, sizeof...(C)> leaf_offset = [] {
        std::array<std::size_t, sizeof...(C)> offset{};
        std::size_t next = 0, i = 0;
        ((offset[i++] = next, next += C::leaf_count), ...);
        return offset;
    }();

    template <std::size_t Mask, bool Strided = false>
    auto chunk_reader() const noexcept {
        return node_reader<
            Op, indices,
            decltype(std::declval<const C&>().template chunk_reader<(Mask >> leaf_offset[I]), Strided>())...>{
            &op, {{child<I>(children).template chunk_reader<(Mask >> leaf_offset[I]), Strided>()}...}};
    }
    bool reads_memory_of_destination() const noexcept {
        return (false || ... || child<I>(children).reads_memory_of_destination());
    }
    std::byte* attach_tiles(std::byte* scratch) noexcept {
        ((scratch = child<I>(children).attach_tiles(scratch)), ...);
        return scratch;
    }
    void prepare(index_t j0, index_t len) noexcept(prepare_never_throws) { (child<I>(children).prepare(j0, len), ...); }
    template <class P>
    P* collect_leaves(P* out) noexcept {
        ((out = child<I>(children).collect_leaves(out)), ...);
        return out;
    }
    /// f(child) for each child in order (a math node evaluates its arguments so).
    template <class F>
    void visit_children(F&& f) const {
        (f(child<I>(children)), ...);
    }
};

// ---- the static path ------------------------------------------------------------------

/// Where an operand sits in an all-static assignment (eval/static_loop.hpp): Root is the
/// assigned expression, whose static shape is the destination's; the operand's axis k
/// lies on destination axis Axis_k. Everything here is a constant, so the loads below
/// fold to fixed offsets.
template <class Root, std::size_t... Axis>
struct static_place {
    static constexpr shape_t<rank_v<Root>> dest = static_shape_v<Root>;
    static constexpr shape_t<rank_v<Root>> dest_strides = contiguous_strides(dest);
    static constexpr std::array<std::size_t, sizeof...(Axis)> axis{Axis...};

    /// The place of the children of a rank-R node here, under its rule set.
    template <class Rules, std::size_t r, std::size_t R, std::size_t... K>
    static auto child(std::index_sequence<K...>) -> static_place<Root, axis[Rules::result_axis(K, r, R)]...>;

    /// Whether a contiguous operand of static shape `ext` placed here lines up with the
    /// destination: its element i is read for destination element i.
    template <std::size_t r>
    static constexpr bool aligned_with(const shape_t<r>& ext) noexcept {
        if constexpr (r != rank_v<Root>) {
            return false;
        } else {
            for (std::size_t k = 0; k < r; ++k)
                if (axis[k] != k || ext[k] != dest[k]) return false;
            return true;
        }
    }

    /// The offset of destination element i in a contiguous operand of E's static shape
    /// (extent-1 axes broadcast).
    template <class E>
    static constexpr index_t offset(index_t i) noexcept {
        constexpr auto ext = static_shape_v<E>;
        if constexpr (aligned_with(ext)) {
            return i;
        } else {
            constexpr auto strides = contiguous_strides(ext);
            index_t off = 0;
            for (std::size_t k = 0; k < ext.size(); ++k)
                if (ext[k] != 1) off += i / dest_strides[axis[k]] % dest[axis[k]] * strides[k];
            return off;
        }
    }
};
template <class Root, std::size_t... D>
auto root_place(std::index_sequence<D...>) -> static_place<Root, D...>;
/// The place of the assigned expression itself: its axes are the destination's.
template <class Root>
using root_place_t = decltype(root_place<Root>(std::make_index_sequence<rank_v<Root>>{}));

// ---- binding -------------------------------------------------------------------------

/// How an expression kind becomes an evaluator: one specialization per kind (Eigen's
/// evaluator<T>), each with `static auto bind(const E&, const index_map<rank, D>&,
/// const destination<T, D>&)`. A kind without one stops here instead of being taken
/// for another.
template <class E>
struct binder {
    static_assert(sizeof(E) == 0,
                  "bsx: no detail::binder specialization for this expression kind "
                  "(every node kind needs one, see eval/evaluator.hpp)");
};

/// What every binder may add: `write_into` evaluates the expression straight into a
/// destination of its own shape when the kind has a faster way than the fused loop
/// (reductions do) and `can_write_into` says so (false by default). Kinds that can be read on the static path
/// set `static_loads` and give `static_load<Place>(e, i)`, element i of the destination,
/// and `static_reads_elsewhere<Place>(e, out, n)`: whether e reads any of the n
/// destination elements at `out` other than the one being written (then the static loop
/// writes a copy first).
struct binder_defaults {
    static constexpr bool static_loads = false;
    /// Whether a memory leaf below may be read with a stride of 2 or more along the
    /// destination's rows (a view, a remapped operand): only then, and without a math node,
    /// is the strided kernel compiled (loop_kind::strided). An array's rows are read with
    /// stride 1, or 0 where they broadcast. False where unknown: the tiles then read such a
    /// leaf, as correctly.
    static constexpr bool may_read_strided = false;
    /// True when write_into writes every destination of type T and rank D (that the
    /// expression broadcasts to): then assigning it compiles no loop.
    template <class T, std::size_t D>
    static constexpr bool writes_every_destination = false;
    template <class E, class T, std::size_t D>
    static bool can_write_into(const E&, const T*, const shape_t<D>&, const shape_t<D>&) noexcept {
        return false;
    }
    template <class E, class T, std::size_t D>
    static void write_into(const E&, T*, const shape_t<D>&, const shape_t<D>&) noexcept {}
};

/// Binds `e`, read through `map`, to the destination.
template <class E, class T, std::size_t D>
auto make_evaluator(const E& e, index_map<rank_v<E>, D> map, const destination<T, D>& dest) {
    map.pin_unit_axes(e.shape());
    auto ev = binder<std::remove_cvref_t<E>>::bind(e, map, dest);
    static_assert(evaluator<decltype(ev), D>,
                  "bsx: a binder returned an evaluator that lacks part of the protocol "
                  "(eval/evaluator_protocol.hpp)");
    return ev;
}

/// A shared buffer of `count` elements, uninitialized, whose first element (`first`, in
/// `owner`) starts on a cache line as an array's does (for element types aligned to their
/// size, every arithmetic type), in one allocation: read beside the destination's rows, a
/// copy of `dist.row(k)` whose vector loads split cache lines slows Floyd-Warshall down.
template <class V>
struct line_aligned_buffer {
    std::shared_ptr<V[]> owner;
    V* first;
};
template <class V>
line_aligned_buffer<V> make_line_aligned_buffer(std::size_t count) {
    constexpr std::size_t line = 64, slack = line % sizeof(V) == 0 ? line / sizeof(V) - 1 : 0;
    std::shared_ptr<V[]> owner = std::make_shared_for_overwrite<V[]>(count + slack);
    V* first = owner.get();
    if (const auto misalignment = reinterpret_cast<std::uintptr_t>(first) % line;
        slack != 0 && misalignment != 0 && misalignment % sizeof(V) == 0)
        first += (line - misalignment) / sizeof(V);
    return {std::move(owner), first};
}

/// Binds a memory leaf that overlaps the destination: it reads the destination's memory
/// where that is safe, else a copy of its own elements (value semantics; not of its
/// broadcast, so only the overlapping operand is duplicated). `dest` is null where the
/// destination holds another type, whose elements the leaf never reads as its own. Out of
/// line and shared by every leaf of these types: the common case, no overlap, stays small
/// enough to inline.
template <class V, std::size_t N, std::size_t D>
[[gnu::noinline]] void bind_overlapping(leaf_evaluator<V, D>& ev, const V* data, const shape_t<N>& shape,
                                        const shape_t<N>& strides, const index_map<N, D>& map,
                                        const destination<V, D>* dest) {
    const shape_t<D>& stride = ev.cursor.steps.stride;
    if (dest && (reads_written_element(ev.first(), stride, *dest) || reads_own_row(ev.first(), stride, *dest))) {
        ev.cursor.reads_destination = true;
        return;
    }
    auto [copy, first] = make_line_aligned_buffer<V>(std::size_t(shape_size(shape)));
    const auto packed = contiguous_strides(shape);
    copy_strided(reinterpret_cast<const std::byte*>(data), strides, reinterpret_cast<std::byte*>(first), packed, shape,
                 sizeof(V));
    ev.read(first + offset_through(packed, map), strides_through(packed, map));
    ev.copy = buffer_owner(std::move(copy));
}

/// Whether memory of type E is contiguous whatever its value: arrays, not views.
template <class E>
inline constexpr bool contiguous_by_type = false;
template <class T, std::size_t N>
inline constexpr bool contiguous_by_type<array<T, N>> = true;
template <class T, index_t... E>
inline constexpr bool contiguous_by_type<fixed_array<T, E...>> = true;

/// A memory leaf (an array, a view, any type with data() and strides()).
template <strided_expression E>
struct binder<E> : binder_defaults {
    static constexpr bool may_read_strided = !contiguous_by_type<E>;
    template <class T, std::size_t D>
    static auto bind(const E& e, const index_map<rank_v<E>, D>& map, const destination<T, D>& dest) {
        using V = std::remove_const_t<value_type_t<E>>;
        leaf_evaluator<V, D> ev;
        const auto shape = e.shape();
        const auto strides = e.strides();
        ev.read(offset_pointer(e.data(), offset_through(strides, map)), strides_through(strides, map));
        if (memory_range(e.data(), shape, strides).overlaps(memory_range(dest.data, dest.shape, dest.strides))) {
            if constexpr (std::is_same_v<T, V>)
                bind_overlapping<V>(ev, e.data(), shape, strides, map, &dest);
            else
                bind_overlapping<V>(ev, e.data(), shape, strides, map, static_cast<const destination<V, D>*>(nullptr));
        }
        return ev;
    }

    static constexpr bool static_loads = statically_shaped<E>;
    template <class Place>
    static auto static_load(const E& e, index_t i) noexcept {
        return e.data()[Place::template offset<E>(i)];
    }
    template <class Place, class T>
    static bool static_reads_elsewhere(const E& e, const T* out, index_t n) noexcept {
        const bool overlaps =
            memory_range(e.data(), e.shape(), e.strides()).overlaps(memory_range(out, shape_t<1>{n}, shape_t<1>{1}));
        if constexpr (std::is_same_v<std::remove_const_t<value_type_t<E>>, T>)
            return overlaps && !(Place::aligned_with(static_shape_v<E>) && e.data() == out);
        else
            return overlaps;
    }
};

template <class T>
struct binder<scalar<T>> : binder_defaults {
    template <class U, std::size_t D>
    static auto bind(const scalar<T>& e, const index_map<0, D>&, const destination<U, D>&) {
        return scalar_evaluator<T>{{}, e.value};
    }
    static constexpr bool static_loads = true;
    template <class Place>
    static T static_load(const scalar<T>& e, index_t) noexcept {
        return e.value;
    }
    template <class Place, class U>
    static bool static_reads_elsewhere(const scalar<T>&, const U*, index_t) noexcept {
        return false;
    }
};

#if defined(__clang__)
// Functions with libm calls or loops of their own (a user's, a rare draw's) keep clang from
// vectorizing the loop: no warning about the user's code.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpass-failed"
#endif
/// The cursor's generate function for a leaf of function F, one loop per function type.
template <class F>
void generate_elements(const void* source, index_t first, index_t step, index_t len, std::byte* out) noexcept {
    const F f = *static_cast<const F*>(source);  // a copy: the stores to `out` cannot change it
    using T = decltype(f(first));
    T* to = reinterpret_cast<T*>(out);
    if constexpr (requires { f.fill(first, step, len, to); }) {
        f.fill(first, step, len, to);
    } else {
        BSX_SIMD_LOOP
        for (index_t t = 0; t < len; ++t) to[t] = f(first + t * step);
    }
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

/// A generated leaf binds as a memory leaf whose addresses are positions: its strides
/// in the destination's index space are those of a contiguous array of its shape.
/// The cursor reads the function in the node itself, which outlives the evaluation.
template <class F, std::size_t N>
struct binder<generated<F, N>> : binder_defaults {
    template <class T, std::size_t D>
    static auto bind(const generated<F, N>& e, const index_map<N, D>& map, const destination<T, D>&) noexcept {
        using V = value_type_t<generated<F, N>>;
        leaf_evaluator<V, D> ev;
        const auto positions = contiguous_strides(e.shape());
        ev.cursor.steps.bytes = sizeof(V);
        ev.cursor.steps.stride = strides_through(positions, map);
        ev.cursor.steps.generated = true;
        ev.cursor.generate = &generate_elements<F>;
        ev.cursor.source = &e.values();
        ev.cursor.origin = offset_through(positions, map);
        return ev;
    }

    /// Assigned alone to contiguous memory of its shape and type (`r = linspace(...)`): the
    /// function fills the destination itself, a block per thread (whole cache lines of
    /// 1-byte elements at least), with no tile between.
    template <class T, std::size_t D>
    static bool can_write_into(const generated<F, N>& e, const T*, const shape_t<D>& shape,
                               const shape_t<D>& strides) noexcept {
        if constexpr (N != D || !std::is_same_v<value_type_t<generated<F, N>>, T>)
            return false;
        else
            return e.shape() == shape && is_contiguous(shape, strides);
    }
    template <class T, std::size_t D>
    static void write_into(const generated<F, N>& e, T* data, const shape_t<D>&, const shape_t<D>&) {
        if constexpr (N == D && std::is_same_v<value_type_t<generated<F, N>>, T>) {
            const index_t total = e.size();
            parallel_for(total, region_threads(total), 64, [&](index_t begin, index_t end, const first_exception*) {
                generate_elements<F>(&e.values(), begin, 1, end - begin, reinterpret_cast<std::byte*>(data + begin));
            });
        }
    }
};

/// A rule tag changes nothing once the tree is built.
template <rule_set R, class Held>
struct binder<rules_tagged<R, Held>> : binder_defaults {
    template <class E, class T, std::size_t D>
    static auto bind(const E& e, const index_map<rank_v<E>, D>& map, const destination<T, D>& dest) {
        return make_evaluator(e.operand(), map, dest);
    }
    using operand_binder = binder<unwrapped_t<Held>>;
    static constexpr bool static_loads = operand_binder::static_loads;
    static constexpr bool may_read_strided = operand_binder::may_read_strided;
    template <class Place, class E>
    static auto static_load(const E& e, index_t i) {
        return operand_binder::template static_load<Place>(e.operand(), i);
    }
    template <class Place, class E, class T>
    static bool static_reads_elsewhere(const E& e, const T* out, index_t n) noexcept {
        return operand_binder::template static_reads_elsewhere<Place>(e.operand(), out, n);
    }
};

/// The node's own map, then the one it is read through: only the leaves below see strides.
template <class Held, std::size_t R>
struct binder<placed_node<Held, R>> : binder_defaults {
    static constexpr bool may_read_strided = true;  // a transposed or sliced operand
    template <class E, class T, std::size_t D>
    static auto bind(const E& e, const index_map<R, D>& map, const destination<T, D>& dest) {
        return make_evaluator(e.operand(), compose(e.map(), map), dest);
    }
};

/// Out of line, and one function for every node, so that the check stays cheap for
/// small assignments.
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_resized_operand(std::string_view operation,
                                                                         std::span<const index_t> now,
                                                                         std::span<const index_t> built) {
    message text;
    text << "bsx: " << operation
         << ": an operand was resized after the expression was built (the operands now give shape " << shape_text{now}
         << ", not " << shape_text{built} << ")";
    throw std::logic_error(text.c_str());
}

/// An inner node: each child's axes map through the node's own alignment rule.
template <class Op, class... Held>
struct binder<map_node<Op, Held...>> : binder_defaults {
    template <class E, class T, std::size_t D>
    static auto bind(const E& e, const index_map<rank_v<E>, D>& map, const destination<T, D>& dest) {
        if (const auto now = e.current_shape(); now != e.shape())
            throw_resized_operand(op_name(e.op()), now, e.shape());
        return bind_children(e, map, dest, std::index_sequence_for<Held...>{});
    }

    static constexpr bool static_loads = (binder<unwrapped_t<Held>>::static_loads && ...);
    static constexpr bool may_read_strided = (binder<unwrapped_t<Held>>::may_read_strided || ...);
    template <class Place, class E>
    static auto static_load(const E& e, index_t i) {
        return boost::hana::unpack(e.children(), [&](const auto&... held) {
            return e.op()(binder<unwrapped_t<Held>>::template static_load<child_place_t<Place, unwrapped_t<Held>>>(
                unwrap(held), i)...);
        });
    }
    template <class Place, class E, class T>
    static bool static_reads_elsewhere(const E& e, const T* out, index_t n) noexcept {
        return boost::hana::unpack(e.children(), [&](const auto&... held) {
            return (binder<unwrapped_t<Held>>::template static_reads_elsewhere<child_place_t<Place, unwrapped_t<Held>>>(
                        unwrap(held), out, n) ||
                    ...);
        });
    }

private:
    /// The map of a rank-r child of a rank-R node read through `map`: the child's axes
    /// line up with the node's by the rule set.
    template <std::size_t r, class Rules, std::size_t R, std::size_t D>
    static index_map<r, D> child_map(const index_map<R, D>& map) noexcept {
        index_map<r, D> m;
        for (std::size_t k = 0; k < r; ++k) {
            const std::size_t j = Rules::result_axis(k, r, R);
            m.first[k] = map.first[j];
            m.step[k] = map.step[j];
        }
        return m;
    }
    template <std::size_t I, class E, class T, std::size_t D>
    static auto bind_child(const E& e, const index_map<rank_v<E>, D>& map, const destination<T, D>& dest) {
        const auto& c = unwrap(boost::hana::at_c<I>(e.children()));
        return make_evaluator(c, child_map<rank_v<decltype(c)>, rules_of_t<E>, rank_v<E>>(map), dest);
    }
    /// The children are bound straight into the node, not moved there: binding a small
    /// assignment costs little more than copying its evaluators.
    template <class E, class T, std::size_t D, std::size_t... I>
    static auto bind_children(const E& e, const index_map<rank_v<E>, D>& map, const destination<T, D>& dest,
                              std::index_sequence<I...>) {
        using node = node_evaluator<Op, std::index_sequence<I...>, decltype(bind_child<I>(e, map, dest))...>;
        if constexpr (vector_math_op<Op, value_type_t<E>>)
            return math_evaluator<node, value_type_t<E>, sizeof...(Held)>{{e.op(), {{bind_child<I>(e, map, dest)}...}}};
        else
            return node{e.op(), {{bind_child<I>(e, map, dest)}...}};
    }

    /// Where child C of this node sits, the node sitting at Place.
    template <class Place, class C>
    using child_place_t =
        decltype(Place::template child<rules_of_t<map_node<Op, Held...>>, rank_v<C>, rank_v<map_node<Op, Held...>>>(
            std::make_index_sequence<rank_v<C>>{}));
};

}  // namespace bsx::detail
