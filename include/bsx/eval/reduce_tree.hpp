// bsx/eval/reduce_tree.hpp: the one tree every reduction follows, whatever traverses it
// (eval/reduce_inner.hpp, eval/reduce_outer.hpp, bsx::dist). It depends only on the
// reduced length m and the accumulator type: blocks (block_plan), chunks of BSX_CHUNK
// elements from each block's start, and within a chunk interleaved lanes; lanes and
// chunks combine pairwise (integral lanes, exact in any order, in one pass), blocks by
// recursive halving. Written per reduction and accumulator type, never per expression.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "../config.hpp"
#include "../shape/shape.hpp"
#include "loop.hpp"
#include "math_evaluator.hpp"
#include "parallel.hpp"

#if defined(__clang__)
// As in loop.hpp: a lane loop that clang cannot vectorize for some element or operand type
// is not a warning about the user's code.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpass-failed"
#endif

namespace bsx::detail {

/// Lanes per chunk: element j of a chunk goes to lane j % lanes. 64 bytes of accumulators
/// (one AVX-512 vector; at least 8 lanes); a function of the accumulator type alone, so
/// the tree never depends on the machine's vector width. More lanes would cost the outer
/// traversal, which keeps every lane of every output of a tile, more than they gain.
template <class A>
inline constexpr index_t chunk_lanes = std::max<index_t>(8, index_t(64 / sizeof(A)));

/// Integral accumulators combine exactly (integers wrap, bools and/or), so the order of
/// combination cannot change the result and the outer traversal may skip the lanes.
template <class A>
inline constexpr bool order_free = std::is_integral_v<A>;

/// A reduction whose combine returns one of its operands (min, max) may group elements
/// any way it likes: the value stays the same.
template <class Op>
concept selects_an_operand = Op::selects_an_operand;

/// Whether a block may be folded without the tree: its lanes run through the whole block.
/// Integers combine exactly; min and max return one of their operands, so any grouping
/// gives the same value (only which of -0 and +0, or of two NaNs, may change with the
/// traversal; blocks stay as they are, so never with the thread count).
template <class Op, class A>
inline constexpr bool tree_free = order_free<A> || selects_an_operand<Op>;

/// A reduction with an absorbing element (all: false, any: true) may stop reading once a
/// partial result equals it: nothing read afterwards could change the answer.
template <class Op>
concept has_absorbing = requires { Op::absorbing; };

template <class Op, class A>
bool is_absorbing(const A& value) noexcept {
    if constexpr (has_absorbing<Op>)
        return value == A(Op::absorbing);
    else
        return false;
}

template <class Op, class A>
[[gnu::noinline]] void combine_into(A* acc, const A* other, index_t width) noexcept {
    BSX_SIMD_LOOP
    for (index_t t = 0; t < width; ++t) acc[t] = Op::combine(acc[t], other[t]);
}

/// Element j of `reader` as a lane of accumulator type A holds it: bools as their bytes, 0
/// or 1 (GCC vectorizes no loop over bool objects). Bools that lie in memory are read as
/// those bytes, with no compare per byte: that compare ran all/any along rows at half the
/// speed of a hand loop over bytes.
template <class A, class Reader>
bytes_of_t<A> lane_value(const Reader& reader, index_t j) noexcept(noexcept(reader.load(0))) {
    if constexpr (std::is_same_v<A, bool> && contiguous_reader<Reader, bool>)
        return reinterpret_cast<const unsigned char*>(reader.data())[j];
    else
        return static_cast<bytes_of_t<A>>(static_cast<A>(reader.load(j)));
}

/// Whether all/any over `Reader` folds in lanes as wide as its elements (see fold_lanes):
/// then only the first lane is written, once, at the end.
template <class A, class Reader>
inline constexpr bool folds_in_wide_lanes = [] {
    using E = std::remove_cvref_t<decltype(std::declval<const Reader&>().load(0))>;
    return noexcept(std::declval<const Reader&>().load(0)) && std::is_same_v<A, bool> && std::is_arithmetic_v<E> &&
           (sizeof(E) == 2 || sizeof(E) == 4 || sizeof(E) == 8);
}();

/// Folds a chunk into a row of `chunk_lanes` accumulators (element j into lane j % lanes),
/// `lanes` elements at a time: one vector operation per 64 bytes of accumulators. The lanes
/// are held as lane_value holds elements. reduce_chunk folds into lanes of its own, with
/// no copy (a copy in and out weighs on a short row as much as its loads);
/// fold_into_lanes copies a block's lanes in and out around a group of chunks (but for
/// folds_in_wide_lanes, which writes only the first lane, once).
template <class Op, class A, class Reader>
[[gnu::always_inline]] inline void fold_lanes(const Reader& reader, index_t len,
                                              bytes_of_t<A>* lane) noexcept(noexcept(reader.load(0))) {
    if constexpr (folds_in_wide_lanes<A, Reader>) {
        using E = std::remove_cvref_t<decltype(reader.load(0))>;
        // all and any of wider elements. Their lanes combine exactly, so they may be any
        // width: lanes as wide as the elements, so that a compare feeds its lane with no
        // narrowing to bytes (which made the loop twice a hand loop's time), then folded
        // into the first lane.
        using W = std::conditional_t<sizeof(E) == 2, std::uint16_t,
                                     std::conditional_t<sizeof(E) == 4, std::uint32_t, std::uint64_t>>;
        constexpr index_t wide = 64 / index_t(sizeof(W));
        const W identity = Op::template identity<bool>();
        alignas(64) W wide_lane[wide];
        std::fill_n(wide_lane, wide, identity);
        const auto truth = [&](index_t j) { return W(static_cast<bool>(reader.load(j))); };
        index_t j = 0;
        for (; j + wide <= len; j += wide) {
            BSX_SIMD_LOOP
            for (index_t l = 0; l < wide; ++l) wide_lane[l] = Op::combine(wide_lane[l], truth(j + l));
        }
        W all_lanes = identity;
        for (; j < len; ++j) all_lanes = Op::combine(all_lanes, truth(j));
        for (index_t l = 0; l < wide; ++l) all_lanes = Op::combine(all_lanes, wide_lane[l]);
        lane[0] = Op::combine(bool(lane[0]), bool(all_lanes));
        return;
    }
    constexpr index_t lanes = chunk_lanes<A>;
    using B = bytes_of_t<A>;
    const auto at = [&](index_t j) { return lane_value<A>(reader, j); };
    index_t j = 0;
    if constexpr (noexcept(reader.load(0))) {
        // Four elements per lane and step, still in order: the compiler reloads the lanes
        // from memory once per step, so longer steps run closer to the speed of the loads.
        for (; j + 4 * lanes <= len; j += 4 * lanes) {
            BSX_SIMD_LOOP
            for (index_t l = 0; l < lanes; ++l) {
                if constexpr (tree_free<Op, A>) {
                    // The four elements are paired first: one combine per step, not four,
                    // waits for the lane (a min or max combine takes several cycles).
                    const B low = Op::combine(at(j + l), at(j + lanes + l));
                    const B high = Op::combine(at(j + 2 * lanes + l), at(j + 3 * lanes + l));
                    lane[l] = Op::combine(lane[l], Op::combine(low, high));
                } else {
                    B acc = Op::combine(lane[l], at(j + l));
                    acc = Op::combine(acc, at(j + lanes + l));
                    acc = Op::combine(acc, at(j + 2 * lanes + l));
                    lane[l] = Op::combine(acc, at(j + 3 * lanes + l));
                }
            }
        }
        // At most three steps, kept rolled: unrolled, with a select per combine (min,
        // max), they cost GCC's value numbering more than all the rest of the kernel.
#pragma GCC unroll 1
        for (; j + lanes <= len; j += lanes) {
            BSX_SIMD_LOOP
            for (index_t l = 0; l < lanes; ++l) lane[l] = Op::combine(lane[l], at(j + l));
        }
        BSX_SIMD_LOOP
        for (index_t l = 0; l < len - j; ++l) lane[l] = Op::combine(lane[l], at(j + l));
    } else {  // no simd pragma: an exception may not leave a simd loop
        for (; j < len; ++j) lane[j % lanes] = Op::combine(lane[j % lanes], at(j));
    }
}

/// fold_lanes into lanes that live elsewhere (a block's, folded chunk after chunk). They are
/// copied to a local row and back, unless only the first is written once.
template <class Op, class A, class Reader>
[[gnu::always_inline]] inline void fold_into_lanes(const Reader& reader, index_t len,
                                                   A* lanes_out) noexcept(noexcept(reader.load(0))) {
    using B = bytes_of_t<A>;
    if constexpr (folds_in_wide_lanes<A, Reader>) {
        fold_lanes<Op, A>(reader, len, reinterpret_cast<B*>(lanes_out));
    } else {
        alignas(64) B lane[chunk_lanes<A>];
        std::copy_n(reinterpret_cast<const B*>(lanes_out), chunk_lanes<A>, lane);
        fold_lanes<Op, A>(reader, len, lane);
        std::copy_n(lane, chunk_lanes<A>, reinterpret_cast<B*>(lanes_out));
    }
}

/// The lanes combined by halving (which overwrites them). Integral lanes combine exactly,
/// in any order: one pass, which the compiler turns into a vector reduction (the halving
/// ends in scalar steps, a tenth of the time of all/any along rows of 4000 bools).
template <class Op, class A>
A combine_lanes(A* lane) noexcept {
    if constexpr (order_free<A>) {
        using B = bytes_of_t<A>;
        const B* const bytes = reinterpret_cast<const B*>(lane);
        auto result = static_cast<B>(Op::template identity<A>());  // a whole number of vectors to combine
        for (index_t l = 0; l < chunk_lanes<A>; ++l) result = Op::combine(result, bytes[l]);
        return static_cast<A>(result);
    } else {
        // Widths known at compile time: each step is one vector operation, in registers
        // (combine_into is out of line, for the wide rows of the outer traversal).
        [&]<index_t... Step>(std::integer_sequence<index_t, Step...>) {
            const auto halve = [&]<index_t Width>(std::integral_constant<index_t, Width>) {
                for (index_t t = 0; t < Width; ++t) lane[t] = Op::combine(lane[t], lane[t + Width]);
            };
            (halve(std::integral_constant<index_t, (chunk_lanes<A> >> (Step + 1))>{}), ...);
        }(std::make_integer_sequence<index_t, std::bit_width(std::uint64_t(chunk_lanes<A>)) - 1>{});
        return lane[0];
    }
}

/// `reader` from element `shift` of its chunk on: the chunks of the tree that one prepared
/// stretch holds (a math node computes a few at once, see reduce_block).
template <class Reader>
struct shifted_reader {
    Reader reader;
    index_t shift;
    auto load(index_t j) const noexcept(noexcept(reader.load(0))) { return reader.load(shift + j); }
};
template <class Reader>
shifted_reader(Reader, index_t) -> shifted_reader<Reader>;  // (clang 14 deduces no aggregates)

/// A reader of elements that lie one after another in memory.
template <class T>
struct memory_reader {
    const T* q;
    T load(index_t j) const noexcept { return q[j]; }
};

/// One chunk reduced to one value (the inner traversal).
template <class Op, class A, class Reader>
A reduce_chunk(const Reader& reader, index_t len) noexcept(noexcept(reader.load(0))) {
    alignas(64) A lane[chunk_lanes<A>];
    std::fill_n(lane, chunk_lanes<A>, Op::template identity<A>());
    fold_lanes<Op, A>(reader, len, reinterpret_cast<bytes_of_t<A>*>(lane));
    return combine_lanes<Op>(lane);
}

/// Pairwise combination of a stream of partial results (a binary counter: two partials
/// of equal weight merge), so the error of a long sum grows with log n, not n. Each
/// partial is `width` values side by side (one per output of a tile); a stream of n
/// pushes holds at most bit_width(n) partials in its storage.
template <class Op, class A>
class pairwise_stream {
public:
    static constexpr int max_slots = 64;

    pairwise_stream(A* storage, index_t width) noexcept : storage_(storage), width_(width) {}

    /// Pushes a partial that stands for 2^level values. Every partial the stream holds must
    /// stand for at least as many (as when values come in aligned groups of 2^level).
    [[gnu::noinline]] void push(const A* value, int level = 0) noexcept {
        while (size_ > 0 && level_[size_ - 1] == level) {  // the older partial is the left operand
            A* older = slot(size_ - 1);
            combine_into<Op>(older, value, width_);
            value = older;
            --size_;
            ++level;
        }
        if (value != slot(size_)) std::copy_n(value, width_, slot(size_));
        level_[size_++] = level;
    }
    [[gnu::noinline]] void result(A* out) const noexcept {
        std::fill_n(out, width_, Op::template identity<A>());
        for (int i = size_; i-- > 0;) {
            const A* partial = slot(i);
            BSX_SIMD_LOOP
            for (index_t t = 0; t < width_; ++t) out[t] = Op::combine(partial[t], out[t]);
        }
    }

private:
    A* slot(int i) const noexcept { return storage_ + i * width_; }
    A* storage_;
    index_t width_;
    int level_[max_slots];
    int size_ = 0;
};

/// A pairwise_stream of single values that combines them eight at a time, by the tree the
/// stream would build, before one push: the same bits as eight pushes for an eighth of the
/// stream's branches (which weigh on a sum over data in cache).
template <class Op, class A>
class grouped_stream {
public:
    grouped_stream() noexcept = default;
    grouped_stream(const grouped_stream&) = delete;  // the stream points into this object
    grouped_stream& operator=(const grouped_stream&) = delete;

    void push(const A& value) noexcept {
        group_[grouped_++] = value;
        if (grouped_ < group_size) return;
        for (int width = 1; width < group_size; width *= 2)
            for (int i = 0; i < group_size; i += 2 * width) group_[i] = Op::combine(group_[i], group_[i + width]);
        stream_.push(group_, std::countr_zero(unsigned(group_size)));
        grouped_ = 0;
    }
    /// Called once, after the last push.
    A result() noexcept {
        for (int i = 0; i < grouped_; ++i) stream_.push(&group_[i]);
        A out;
        stream_.result(&out);
        return out;
    }

private:
    static constexpr int group_size = 8;
    A storage_[pairwise_stream<Op, A>::max_slots];
    pairwise_stream<Op, A> stream_{storage_, 1};
    A group_[group_size];
    int grouped_ = 0;
};

/// How a range of n elements is cut into blocks: a function of n alone.
struct block_plan {
    static constexpr index_t min_block = 8 * BSX_CHUNK;
    static constexpr index_t max_blocks = 256;
    index_t count;
    index_t length;  // a whole number of chunks: every chunk starts a multiple of BSX_CHUNK
                     // into the range, so where the range is aligned no load straddles two
                     // cache lines
    explicit block_plan(index_t n) noexcept {
        const auto divide_up = [](index_t a, index_t b) { return a / b + (a % b != 0); };
        const index_t wanted = std::clamp<index_t>(divide_up(n, min_block), 1, max_blocks);
        length = divide_up(divide_up(n, wanted), BSX_CHUNK) * BSX_CHUNK;
        count = std::max<index_t>(1, divide_up(n, length));
    }
    index_t begin(index_t b, index_t n) const noexcept { return std::min(b * length, n); }
    /// Partials the chunk stream of the longest block holds at once.
    index_t stream_slots() const noexcept { return std::bit_width(std::uint64_t(length / BSX_CHUNK)); }
    /// Scratch partials that combine_halving needs besides its result.
    index_t halving_slots() const noexcept { return std::bit_width(std::uint64_t(count)); }
};

/// Block partials combined by recursive halving: `leaf(b, out)` writes block b's partial
/// (`width` values) into out. Evaluated depth first, so it needs only halving_slots()
/// partials of scratch, never all blocks at once.
template <class Op, class A>
[[gnu::noinline]] void combine_halving(index_t first, index_t count, A* out, A* scratch, index_t width,
                                       std::type_identity_t<function_ref<void(index_t block, A* partial)>> leaf) {
    if (count == 1) {
        leaf(first, out);
        return;
    }
    const index_t half = count / 2;
    combine_halving<Op>(first, half, out, scratch, width, leaf);
    combine_halving<Op>(first + half, count - half, scratch, scratch + width, width, leaf);
    combine_into<Op>(out, scratch, width);
}

/// The tree above its chunks, for `width` outputs of n elements each: chunk(c0, c1, room)
/// gives the partials (width values) of elements [c0, c1), one chunk of a block, written
/// into `room` or wherever it keeps them (it returns where); the chunks of each block are
/// asked for in order and combine pairwise, the blocks by halving, into out. Scratch:
/// `stream` holds plan.stream_slots() partials, `halving` plan.halving_slots(). The
/// traversals that have chunk partials (the outer one, one element alone, bsx::dist) take
/// the tree from here; the inner traversal folds each block's chunks in the same order
/// (block_fold) and halves its blocks likewise.
template <class Op, class A>
void combine_chunks(const block_plan& plan, index_t n, index_t width, A* out, A* stream, A* halving,
                    std::type_identity_t<function_ref<const A*(index_t c0, index_t c1, A* room)>> chunk) {
    combine_halving<Op, A>(0, plan.count, out, halving, width, [&](index_t b, A* partial) {
        pairwise_stream<Op, A> pairs(stream, width);
        for (index_t c0 = plan.begin(b, n), end = plan.begin(b + 1, n); c0 < end; c0 += BSX_CHUNK)
            pairs.push(chunk(c0, std::min<index_t>(c0 + BSX_CHUNK, end), partial));
        pairs.result(partial);
    });
}

/// The tree's value of the n elements `reader` loads (load(j), j in [0, n)), one output
/// alone: the same bits as every traversal gives an output of n elements.
template <class Op, class A, class Reader>
A tree_value(const Reader& reader, index_t n) noexcept {
    const block_plan plan(n);
    A result, stream[pairwise_stream<Op, A>::max_slots], halving[block_plan::max_blocks];
    combine_chunks<Op, A>(plan, n, 1, &result, stream, halving, [&](index_t c0, index_t c1, A* room) {
        *room = reduce_chunk<Op, A>(shifted_reader{reader, c0}, c1 - c0);
        return static_cast<const A*>(room);
    });
    return result;
}

}  // namespace bsx::detail

#if defined(__clang__)
#pragma clang diagnostic pop
#endif
