// bsx/eval/reduce.hpp: evaluating reductions. Every output follows one fixed tree that
// depends only on the reduced length m: blocks (their number a function of m), chunks of
// BSX_CHUNK elements from each block's start, and within a chunk interleaved lanes; lanes
// and chunks combine pairwise (integral lanes, exact in any order, in one pass), blocks by
// recursive halving. Two traversals compute that
// tree: the inner one when the reduced axis is the operand's fastest (one output is one
// contiguous range), the outer one otherwise (a tile of adjacent outputs is reduced
// together while rows stream by in memory order). Threads take whole outputs or tiles, or
// whole blocks of one output, so results are the same bits for any thread count.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>

#include "../config.hpp"
#include "../shape/shape.hpp"
#include "alias.hpp"
#include "evaluator.hpp"
#include "loop.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

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
void combine_into(A* acc, const A* other, index_t width) noexcept {
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

/// Folds a chunk into a row of `chunk_lanes` accumulators (element j into lane j % lanes),
/// `lanes` elements at a time: one vector operation per 64 bytes of accumulators.
template <class Op, class A, class Reader>
void fold_into_lanes(const Reader& reader, index_t len, A* lanes_out) noexcept(noexcept(reader.load(0))) {
    constexpr index_t lanes = chunk_lanes<A>;
    // A local copy, held as lane_value holds elements.
    using B = bytes_of_t<A>;
    alignas(64) B lane[lanes];
    std::copy_n(reinterpret_cast<const B*>(lanes_out), lanes, lane);
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
        for (; j + lanes <= len; j += lanes) {
            BSX_SIMD_LOOP
            for (index_t l = 0; l < lanes; ++l) lane[l] = Op::combine(lane[l], at(j + l));
        }
        BSX_SIMD_LOOP
        for (index_t l = 0; l < len - j; ++l) lane[l] = Op::combine(lane[l], at(j + l));
    } else {  // no simd pragma: an exception may not leave a simd loop
        for (; j < len; ++j) lane[j % lanes] = Op::combine(lane[j % lanes], at(j));
    }
    std::copy_n(lane, lanes, reinterpret_cast<B*>(lanes_out));
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
        for (index_t width = chunk_lanes<A> / 2; width > 0; width /= 2) combine_into<Op>(lane, lane + width, width);
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

/// One chunk reduced to one value (the inner traversal).
template <class Op, class A, class Reader>
A reduce_chunk(const Reader& reader, index_t len) noexcept(noexcept(reader.load(0))) {
    alignas(64) A lane[chunk_lanes<A>];
    std::fill_n(lane, chunk_lanes<A>, Op::template identity<A>());
    fold_into_lanes<Op>(reader, len, lane);
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
    void push(const A* value, int level = 0) noexcept {
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
    void result(A* out) const noexcept {
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
/// stream's branches (which took a sixth of the time of a sum over data in cache).
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
                     // cache lines (blocks of 39063 doubles ran a dot product at 1.5x)
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
template <class Op, class A, class Leaf>
void combine_halving(index_t first, index_t count, A* out, A* scratch, index_t width, Leaf& leaf) {
    if (count == 1) {
        leaf(first, out);
        return;
    }
    const index_t half = count / 2;
    combine_halving<Op>(first, half, out, scratch, width, leaf);
    combine_halving<Op>(first + half, count - half, scratch, scratch + width, width, leaf);
    combine_into<Op>(out, scratch, width);
}

// ---- the inner traversal: one output is one contiguous range ------------------------------

/// One block's reduction, fed the block's pieces of loop rows in order (fold), then read
/// once (result). Chunks are BSX_CHUNK long (the tree's) unless the block needs no tree
/// and every operand is read in place (`chunk`); without a tree (tree_free) the lanes run
/// through the whole block. Decided early, with the absorbing value, once the lanes reach
/// it (looked at every 8 chunks) or another thread's have (`decided`; null: no other).
template <class Op, class A, class Ev>
class block_fold {
public:
    /// A math node computes its results a tile (periodic_chunk) at a time: several chunks
    /// of the tree per call, which halves what each call costs per element. (chunk is
    /// BSX_CHUNK then: in-place chunks are never taken with math nodes.) Chunks are
    /// reduced one after another, never side by side: reading two chunks at once (two
    /// streams per operand) ran a dot product 10 % slower, four 50 %.
    static constexpr index_t per_prepare = bounded_chunks<Ev> && !tree_free<Op, A> ? periodic_chunk / BSX_CHUNK : 1;

    block_fold(index_t chunk, std::atomic<bool>* decided) noexcept : chunk_(chunk), decided_(decided) {
        std::fill_n(lane_, chunk_lanes<A>, Op::template identity<A>());
    }
    block_fold(const block_fold&) = delete;
    block_fold& operator=(const block_fold&) = delete;

    /// Folds elements [j, stop) of the row `ev` has begun (begin_row with a fill of at
    /// least chunk * per_prepare); false once the result is decided.
    bool fold(Ev& ev, index_t j, index_t stop) {
        const index_t step = chunk_ * per_prepare;
        for (index_t c = j; c < stop && !done_; c += step) {
            if constexpr (has_absorbing<Op>) {
                if (decided_ && decided_->load(std::memory_order_relaxed)) {
                    done_ = true;
                    break;
                }
            }
            const index_t len = std::min<index_t>(step, stop - c);
            ev.prepare(c, len);
            if constexpr (tree_free<Op, A>) {
                fold_into_lanes<Op>(ev.chunk_reader(), len, lane_);
                if constexpr (has_absorbing<Op>) {
                    if ((unprobed_ += len) < 8 * chunk_) continue;
                    unprobed_ = 0;
                    // all and any accumulate bools, whose lanes combine_lanes leaves as they are.
                    static_assert(order_free<A>);
                    if (!is_absorbing<Op>(combine_lanes<Op>(lane_))) continue;
                    done_ = true;
                    if (decided_) decided_->store(true, std::memory_order_relaxed);
                }
            } else if constexpr (per_prepare == 1) {
                stream_.push(reduce_chunk<Op, A>(ev.chunk_reader(), len));
            } else {
                for (index_t s = 0; s < len; s += chunk_)
                    stream_.push(reduce_chunk<Op, A>(shifted_reader{ev.chunk_reader(), s}, std::min(chunk_, len - s)));
            }
        }
        return !done_;
    }
    A result() noexcept {
        if constexpr (has_absorbing<Op>)
            if (done_) return A(Op::absorbing);
        if constexpr (tree_free<Op, A>)
            return combine_lanes<Op>(lane_);
        else
            return stream_.result();
    }

private:
    index_t chunk_;
    std::atomic<bool>* decided_;
    grouped_stream<Op, A> stream_;
    alignas(64) A lane_[chunk_lanes<A>];
    index_t unprobed_ = 0;  // elements folded since the lanes were last looked at
    bool done_ = false;
};

/// Reduces flattened elements [begin, end) of a bound loop nest: one block, whose chunks
/// start at `begin` and stop at the end of each loop row.
template <class Op, class A, class Ev, std::size_t D>
A reduce_block(Ev& ev, const loop_shape<D>& loop, index_t begin, index_t end, index_t chunk,
               std::atomic<bool>* decided) {
    const std::size_t outer = loop.nd - 1;
    block_fold<Op, A, Ev> block(chunk, decided);
    const index_t fill = std::min<index_t>(chunk * block.per_prepare, loop.extent[outer]);
    bool open = true;
    for_each_row(loop, begin, end, [&](const shape_t<D>& idx, index_t j, index_t stop) {
        if (!open) return;
        ev.begin_row(idx.data(), outer, fill);
        open = block.fold(ev, j, stop);
    });
    return block.result();
}

/// Outputs [first, last) when each is one block (outputs no longer than a block, or
/// order-free ones, which need no blocks): what reduce_block computes for each, with one
/// walk over the loop rows for all of them instead of one per output (rows of 4000 bools
/// spent a fifth of their time setting up). Precondition: every loop row holds whole
/// outputs (its length is a multiple of m).
template <class Op, class A, class Ev, std::size_t D>
void reduce_one_block_outputs(Ev& ev, const loop_shape<D>& loop, index_t first, index_t last, index_t m, index_t chunk,
                              A* out, const first_exception* errors) {
    const std::size_t outer = loop.nd - 1;
    const index_t fill = std::min<index_t>(chunk * block_fold<Op, A, Ev>::per_prepare, loop.extent[outer]);
    index_t r = first;
    for_each_row(loop, first * m, last * m, [&](const shape_t<D>& idx, index_t j, index_t stop) {
        for (index_t begin = j; begin < stop && !(errors && errors->stopped()); begin += m) {
            // Anew for each output: a repeating operand's chunks follow on from the
            // row's first, and an output's chunks end short of `fill` or early.
            ev.begin_row(idx.data(), outer, fill);
            block_fold<Op, A, Ev> block(chunk, nullptr);
            block.fold(ev, begin, begin + m);
            out[r++] = Op::finish(block.result(), m);
        }
    });
}

/// Reduces every output: output r is flattened range [r*m, (r+1)*m). Many outputs are
/// shared among threads; a few long ones are split into blocks shared among threads.
template <class Op, class A, class Ev, std::size_t D>
void reduce_outputs(const Ev& ev, const loop_shape<D>& loop, index_t outputs, index_t m, index_t chunk, A* out) {
    const block_plan plan(m);
    // Outputs of one block each (order-free ones need no blocks) share the walk over the
    // rows where each lies within a loop row (a whole-array reduction's one output may
    // span many); longer ones combine their blocks by halving.
    const bool one_block = order_free<A> || plan.count == 1;
    const bool within_rows = loop.extent[loop.nd - 1] % m == 0;
    const auto reduce_range_of_outputs = [&](Ev& own, index_t first, index_t last, const first_exception* errors) {
        if (one_block && within_rows) {
            reduce_one_block_outputs<Op, A>(own, loop, first, last, m, chunk, out, errors);
            return;
        }
        for (index_t r = first; r < last && !(errors && errors->stopped()); ++r) {
            std::atomic<bool> decided{false};
            if (one_block) {
                out[r] = Op::finish(reduce_block<Op, A>(own, loop, r * m, (r + 1) * m, chunk, &decided), m);
                continue;
            }
            auto block = [&](index_t b, A* partial) {
                *partial = reduce_block<Op, A>(own, loop, r * m + plan.begin(b, m), r * m + plan.begin(b + 1, m), chunk,
                                               &decided);
            };
            A result, scratch[block_plan::max_blocks];
            combine_halving<Op>(0, plan.count, &result, scratch, 1, block);
            out[r] = Op::finish(result, m);
        }
    };
    const int threads = loop_threads(outputs * m);
#ifdef _OPENMP
    if (threads > 1 && outputs >= threads) {
        first_exception errors;  // a user function's exception, carried out of the region
#pragma omp parallel num_threads(threads)
        {
            const index_t n = omp_get_num_threads(), t = omp_get_thread_num();
            errors.run([&] {
                with_own_evaluator(ev, [&](Ev& own) {
                    reduce_range_of_outputs(own, outputs * t / n, outputs * (t + 1) / n, &errors);
                });
            });
        }
        errors.rethrow();
        return;
    }
    if (threads > 1 && plan.count > 1) {
        for (index_t r = 0; r < outputs; ++r) {
            A partial[block_plan::max_blocks];
            std::atomic<bool> decided{false};
            first_exception errors;
#pragma omp parallel num_threads(threads)
            {
                const index_t n = omp_get_num_threads(), t = omp_get_thread_num();
                const index_t first = plan.count * t / n, last = plan.count * (t + 1) / n;
                errors.run([&] {
                    with_own_evaluator(ev, [&](Ev& own) {
                        if constexpr (order_free<A>) {
                            // No tree to follow: the thread's blocks as one range, in one call (a
                            // call per block kept all(x) of 16 MB of bools from any speed-up at 2
                            // threads); the other partials are the identity.
                            std::fill(partial + first, partial + last, Op::template identity<A>());
                            if (first < last)
                                partial[first] = reduce_block<Op, A>(own, loop, r * m + plan.begin(first, m),
                                                                     r * m + plan.begin(last, m), chunk, &decided);
                        } else {
                            for (index_t b = first; b < last && !errors.stopped(); ++b)
                                partial[b] = reduce_block<Op, A>(own, loop, r * m + plan.begin(b, m),
                                                                 r * m + plan.begin(b + 1, m), chunk, &decided);
                        }
                    });
                });
            }
            errors.rethrow();
            auto stored = [&](index_t b, A* p) { *p = partial[b]; };
            A result, scratch[block_plan::max_blocks];
            combine_halving<Op>(0, plan.count, &result, scratch, 1, stored);
            out[r] = Op::finish(result, m);
        }
        return;
    }
#else
    (void)threads;
#endif
    with_own_evaluator(ev, [&](Ev& own) { reduce_range_of_outputs(own, 0, outputs, nullptr); });
}

// ---- the outer traversal: a tile of adjacent outputs at a time ---------------------------------

/// The loop nest of the outer traversal: axes [0, kpos) index the outputs' outer part
/// (P of them, flattened), axis kpos is the reduced one (m), the axes after it the
/// outputs' inner part (Q, flattened). Output p*Q + q reduces (p, k, q) over k.
template <std::size_t D>
struct outer_layout {
    loop_shape<D> loop;
    std::size_t kpos;
    index_t P, m, Q;
    loop_shape<D> inner;  // the axes after kpos alone, to walk a tile of q
    index_t chunk;        // the longest piece of a row one prepare covers
    // Rows every operand reads in place (rows_read_in_place), one of them perhaps with
    // stride 0 (1 + its index in constant_leaf): read with row readers, with no tiles.
    bool in_place = false;
    std::size_t constant_leaf = 0;
};

/// The row mask of reduce_tile where rows are read through the evaluators' tiles.
inline constexpr std::size_t rows_through_tiles = ~std::size_t{0};

/// Lanes the outer traversal keeps per output: none are needed when order is free.
template <class A>
inline constexpr index_t outer_lanes = order_free<A> ? 1 : chunk_lanes<A>;

/// Rows the outer traversal reads side by side into one output's accumulators: the rows
/// k, k + lanes, ... that the tree gives one lane (consecutive rows where order is free).
/// The accumulators do not fit L1 (16 lanes of a row of 2000 floats take 128 KiB); each
/// pass reads and writes them once for 4 rows, not for each (column sums of 2000 x 2000
/// floats: 0.42 ms a row per pass, 0.29 four; 8 were no faster).
inline constexpr std::size_t outer_rows_per_pass = 4;

/// acc[j] combined with element j of each reader in turn (the order of the rows they
/// read). Out of line: one vectorized copy per reduction, expression and row count.
/// bool accumulators (all, any) are combined as their bytes (lane_value).
template <class Op, class A, class Reader, std::size_t N>
[[gnu::noinline]] void accumulate_pieces(const std::array<Reader, N> readers, A* acc,
                                         index_t len) noexcept(noexcept(readers[0].load(0))) {
    using B = bytes_of_t<A>;
    B* const bytes = reinterpret_cast<B*>(acc);
    const auto combine_at = [&](index_t j) {
        B value = bytes[j];
        for (std::size_t i = 0; i < N; ++i) value = Op::combine(value, lane_value<A>(readers[i], j));
        bytes[j] = value;
    };
    if constexpr (noexcept(readers[0].load(0))) {
        BSX_SIMD_LOOP
        for (index_t j = 0; j < len; ++j) combine_at(j);
    } else {  // no simd pragma: an exception may not leave a simd loop
        for (index_t j = 0; j < len; ++j) combine_at(j);
    }
}

/// accumulate_pieces with the readers reader_of(0), ..., reader_of(count - 1), count <= R.
template <class Op, std::size_t R, class A, class ReaderOf>
void accumulate_pieces_of(const ReaderOf& reader_of, index_t count, A* acc, index_t len) {
    [&]<std::size_t... N>(std::index_sequence<N...>) {
        const auto first = [&]<std::size_t... I>(std::index_sequence<I...>) { return std::array{reader_of(I)...}; };
        (void)((count == index_t(N + 1) &&
                (accumulate_pieces<Op>(first(std::make_index_sequence<N + 1>{}), acc, len), true)) ||
               ...);
    }(std::make_index_sequence<R>{});
}

/// Reduces outputs p*Q + [q0, q0 + w) into `out`, streaming w-long pieces of the rows
/// (p, k, q0..) in memory order, outer_rows_per_pass rows at a time: each through its own
/// evaluator's tiles, or where Mask is not rows_through_tiles, with row readers in place
/// (Mask as in run_rows). Each output gets exactly the tree of the inner traversal:
/// element k of a chunk goes to lane k % lanes, and each lane takes its elements in order.
template <class Op, std::size_t Mask, class A, class Ev, std::size_t D, std::size_t R>
void reduce_tile(std::array<Ev, R>& evs, const outer_layout<D>& lay, index_t p, index_t q0, index_t w, A* scratch,
                 A* out) {
    constexpr index_t lanes = outer_lanes<A>;
    const block_plan plan(lay.m);
    A* const lane_acc = scratch;                               // lanes * w
    A* const stream_store = lane_acc + lanes * w;              // stream_slots * w
    A* const result = stream_store + plan.stream_slots() * w;  // w
    A* const halving = result + w;                             // halving_slots * w
    const std::size_t outer = lay.loop.nd - 1;
    const index_t fill = std::min<index_t>(lay.chunk, lay.loop.extent[outer]);
    shape_t<D> idx{};
    for (index_t r = p, d = index_t(lay.kpos); d-- > 0;) {
        idx[std::size_t(d)] = r % lay.loop.extent[std::size_t(d)];
        r /= lay.loop.extent[std::size_t(d)];
    }
    // acc combined with rows k, k + lanes, ... (count of them), side by side.
    const auto accumulate_rows = [&](index_t k, index_t count, A* acc) {
        const auto piece = [&](index_t j, index_t stop) {
            if constexpr (Mask != rows_through_tiles) {  // the whole piece at once
                const auto reader_of = [&](std::size_t i) {
                    shape_t<D> row = idx;
                    row[lay.kpos] = k + index_t(i) * lanes;
                    return evs[0].template row_reader<Mask>(row.data(), outer, j);
                };
                accumulate_pieces_of<Op, R>(reader_of, count, acc, stop - j);
                acc += stop - j;
            } else {
                for (index_t i = 0; i < count; ++i) {
                    idx[lay.kpos] = k + i * lanes;
                    evs[std::size_t(i)].begin_row(idx.data(), outer, fill);
                }
                for (index_t c = j; c < stop; c += lay.chunk) {
                    const index_t len = std::min<index_t>(lay.chunk, stop - c);
                    for (index_t i = 0; i < count; ++i) evs[std::size_t(i)].prepare(c, len);
                    accumulate_pieces_of<Op, R>([&](std::size_t i) { return evs[i].chunk_reader(); }, count, acc, len);
                    acc += len;
                }
            }
        };
        if (lay.inner.nd == 1) {  // the usual case: the tile is one piece of one row
            piece(q0, q0 + w);
        } else {
            for_each_row(lay.inner, q0, q0 + w, [&](const shape_t<D>& qidx, index_t j, index_t stop) {
                for (std::size_t d = 0; d + 1 < lay.inner.nd; ++d) idx[lay.kpos + 1 + d] = qidx[d];
                piece(j, stop);
            });
        }
    };
    auto block = [&](index_t b, A* partial) {
        pairwise_stream<Op, A> stream(stream_store, w);
        const index_t end = plan.begin(b + 1, lay.m);
        for (index_t c0 = plan.begin(b, lay.m); c0 < end; c0 += BSX_CHUNK) {
            const index_t c1 = std::min<index_t>(c0 + BSX_CHUNK, end);
            std::fill_n(lane_acc, lanes * w, Op::template identity<A>());
            // Passes of R rows per lane, lanes in turn: the passes move through the chunk in
            // memory order, R streams at a time.
            for (index_t g = c0; g < c1; g += lanes * index_t(R))
                for (index_t l = 0; l < lanes && g + l < c1; ++l)
                    accumulate_rows(g + l, std::min<index_t>(R, (c1 - g - l + lanes - 1) / lanes), lane_acc + l * w);
            for (index_t width = lanes / 2; width > 0; width /= 2)
                for (index_t l = 0; l < width; ++l) combine_into<Op>(lane_acc + l * w, lane_acc + (l + width) * w, w);
            stream.push(lane_acc);
        }
        stream.result(partial);
    };
    combine_halving<Op>(0, plan.count, result, halving, w, block);
    for (index_t t = 0; t < w; ++t) out[p * lay.Q + q0 + t] = Op::finish(result[t], lay.m);
}

/// Every output of the outer traversal: tiles of w adjacent outputs, shared among threads.
template <class Op, class A, class Ev, std::size_t D>
void reduce_tiles(const Ev& ev, const outer_layout<D>& lay, A* out) {
    const block_plan plan(lay.m);
    // The widest tile whose partials fit the scratch: whole rows where possible, since
    // memory streams fastest in long runs (a row cut into tiles costs up to 1.5x).
    constexpr index_t scratch_size = BSX_REDUCTION_SCRATCH / sizeof(A);
    const index_t per_output = outer_lanes<A> + plan.stream_slots() + 1 + plan.halving_slots();
    index_t w = std::min(lay.Q, std::max<index_t>(1, scratch_size / per_output / 16 * 16));
    const int threads = loop_threads(lay.P * lay.m * lay.Q);
    // Enough tiles for every thread, where the outputs allow.
    if (lay.P * ((lay.Q + w - 1) / w) < threads)
        w = std::min(w, std::max<index_t>(16, (lay.Q + threads - 1) / threads));
    const index_t tiles_per_p = (lay.Q + w - 1) / w;
    const index_t units = lay.P * tiles_per_p;
    // Threads take tiles from a shared counter, a few at a time (about 16 takes each): a
    // thread that the machine slows down takes fewer, and the others do not wait for it.
    const index_t take = std::max<index_t>(1, units / (16 * threads));
    std::atomic<index_t> next{0};
    const auto run = [&](const first_exception* errors) {
        with_own_evaluators<outer_rows_per_pass>(ev, [&](std::array<Ev, outer_rows_per_pass>& own) {
            alignas(64) A scratch[scratch_size];
            const auto tiles = [&](auto mask) {
                for (index_t first; (first = next.fetch_add(take, std::memory_order_relaxed)) < units;) {
                    for (index_t u = first; u < std::min(first + take, units); ++u) {
                        if (errors && errors->stopped()) return;
                        const index_t p = u / tiles_per_p, q0 = u % tiles_per_p * w;
                        reduce_tile<Op, decltype(mask)::value>(own, lay, p, q0, std::min(w, lay.Q - q0), scratch, out);
                    }
                }
            };
            if (lay.in_place)
                with_constant_leaf<Ev::leaf_count>(lay.constant_leaf, tiles);
            else
                tiles(std::integral_constant<std::size_t, rows_through_tiles>{});
        });
    };
#ifdef _OPENMP
    if (threads > 1 && units > 1) {
        first_exception errors;
#pragma omp parallel num_threads(threads)
        errors.run([&] { run(&errors); });
        errors.rethrow();
        return;
    }
#endif
    run(nullptr);
}

// ---- choosing the traversal ------------------------------------------------------------

/// Outputs this wide or wider make the outer traversal worth its per-row set-up.
inline constexpr index_t min_outer_outputs = 16;

/// True when reducing `axis` by the outer traversal reads fewer operands through gathers
/// than the inner one: the inner one walks `axis` fastest, the outer one the last axis.
template <std::size_t N>
bool prefer_outer(std::span<operand_steps<N>* const> leaves, const shape_t<N>& shape, std::size_t axis) {
    index_t after = 1;
    for (std::size_t d = axis + 1; d < N; ++d) after *= shape[d];
    if (shape[axis] <= 1 || after < min_outer_outputs) return false;
    const auto gathered = [](index_t stride) { return stride != 0 && stride != 1; };
    int inner_gathers = 0, outer_gathers = 0;
    for (const auto* leaf : leaves) {
        inner_gathers += gathered(leaf->stride[axis]);
        outer_gathers += gathered(leaf->stride[N - 1]);
    }
    return outer_gathers < inner_gathers;
}

/// Chunk length for a loop whose operands `leaves` are all read where they lie along its
/// last axis (unit stride, no period tile) and whose chunks no math node bounds: 64 times
/// BSX_CHUNK, which cuts the per-chunk cost (of byte-sized elements above all); else
/// BSX_CHUNK. Chunks along a row are not the tree's: the tree is cut along the reduced
/// axis alone.
template <class Ev, std::size_t N>
index_t row_chunk(std::span<operand_steps<N>* const> leaves, std::size_t last) {
    std::size_t constant_leaf = 0;  // a constant operand is read from a tile filled per chunk
    const bool in_place =
        !bounded_chunks<Ev> && rows_read_in_place<N>(leaves, last, constant_leaf) && constant_leaf == 0;
    return in_place ? 64 * BSX_CHUNK : BSX_CHUNK;
}

/// The type of a finished reduction of E, which is also its accumulator type.
template <class Op, class E>
using reduced_t = typename Op::template accumulator<value_type_t<E>>;

/// Reduces expression `e` (rank N) along `axis` (N: over all elements) into `out`, one
/// finished value per output in row-major order. A plain buffer, not a callback, so
/// one instantiation serves every caller. `direct`: out is the assignment's own
/// destination (contiguous, of the result's shape), so operands that overlap it are read
/// from copies; otherwise out is a private buffer.
template <class Op, class E>
void reduce_expression(const E& e, std::size_t axis, reduced_t<Op, E>* out, bool direct) {
    constexpr std::size_t N = rank_v<E>;
    using A = reduced_t<Op, E>;
    const auto shape = e.shape();
    const index_t total = shape_size(shape);
    const index_t m = axis == N ? total : shape[axis];
    const index_t outputs = axis == N ? 1 : (m == 0 ? [&] {
        index_t n = 1;
        for (std::size_t d = 0; d < N; ++d)
            if (d != axis) n *= shape[d];
        return n;
    }()
                                                    : total / m);
    if (total == 0) {  // nothing to read: every output is the empty reduction
        for (index_t r = 0; r < outputs; ++r) out[r] = Op::finish(Op::template identity<A>(), 0);
        return;
    }
    if constexpr (N == 0) {
        out[0] = Op::finish(static_cast<A>(e.element({})), 1);
    } else {
        // Where output r of the operand's index i lies: contiguous over the other axes,
        // constant along the reduced one. As a destination it makes binding copy the
        // operands that overlap a direct output.
        shape_t<N> out_strides{};
        for (index_t d = index_t(N), step = 1; d-- > 0;) {
            if (std::size_t(d) == axis) continue;
            out_strides[std::size_t(d)] = step;
            step *= shape[std::size_t(d)];
        }
        const destination<A, N> written =
            direct ? destination<A, N>{out, shape, out_strides, false} : destination<A, N>{nullptr, {}, {}, false};
        std::array<std::size_t, N> identity{};
        for (std::size_t d = 0; d < N; ++d) identity[d] = d;
        auto ev = make_evaluator(e, index_map<N, N>::aligned(identity), written);
        operand_steps<N> flat{};
        std::array<operand_steps<N>*, 1 + decltype(ev)::leaf_count> all{&flat};
        ev.collect_steps(all.data() + 1);
        const std::span<operand_steps<N>* const> leaves(all.data() + 1, all.size() - 1);
        if (axis < N && prefer_outer<N>(leaves, shape, axis)) {
            flat.stride = out_strides;
            outer_layout<N> lay{coalesce<N>(shape, all), 0, 1, m, 1, {}, 0};
            lay.chunk = row_chunk<decltype(ev)>(leaves, lay.loop.nd - 1);
            lay.in_place =
                !bounded_chunks<decltype(ev)> && rows_read_in_place<N>(leaves, lay.loop.nd - 1, lay.constant_leaf);
            while (flat.stride[lay.kpos] != 0) lay.P *= lay.loop.extent[lay.kpos++];
            for (std::size_t d = lay.kpos + 1; d < lay.loop.nd; ++d) {
                lay.inner.extent[lay.inner.nd++] = lay.loop.extent[d];
                lay.Q *= lay.loop.extent[d];
            }
            reduce_tiles<Op, A>(ev, lay, out);
        } else {
            // The inner traversal's index space: the reduced axis moved last.
            shape_t<N> space{};
            std::array<std::size_t, N> to{};
            for (std::size_t d = 0, next = 0; d < N; ++d) {
                to[d] = axis == N ? d : d == axis ? N - 1 : next++;
                space[to[d]] = shape[d];
            }
            for (auto* leaf : leaves) {
                const shape_t<N> s = leaf->stride;
                for (std::size_t d = 0; d < N; ++d) leaf->stride[to[d]] = s[d];
            }
            flat.stride = contiguous_strides(space);
            const auto loop = coalesce<N>(space, all);
            // Here chunks are the tree's, unless the reduction needs no tree.
            const index_t chunk = tree_free<Op, A> ? row_chunk<decltype(ev)>(leaves, loop.nd - 1) : BSX_CHUNK;
            reduce_outputs<Op, A>(ev, loop, outputs, m, chunk, out);
        }
    }
}

/// Reduces `e` along `axis` at the other indices of `idx`, as the value of one element:
/// the same tree as the traversals, so the same bits.
template <class Op, class E>
auto reduce_element(const E& e, std::size_t axis, shape_t<rank_v<E>> idx) {
    using V = value_type_t<E>;
    using A = typename Op::template accumulator<V>;
    const index_t m = e.shape()[axis];
    if (m == 0) return Op::finish(Op::template identity<A>(), 0);
    struct tile_reader {
        const V* q;
        V load(index_t j) const noexcept { return q[j]; }
    };
    const block_plan plan(m);
    auto block = [&](index_t b, A* partial) {
        grouped_stream<Op, A> stream;
        V tile[BSX_CHUNK];
        for (index_t c = plan.begin(b, m); c < plan.begin(b + 1, m); c += BSX_CHUNK) {
            const index_t len = std::min<index_t>(BSX_CHUNK, plan.begin(b + 1, m) - c);
            for (index_t t = 0; t < len; ++t) {
                idx[axis] = c + t;
                tile[t] = e.element(idx);
            }
            stream.push(reduce_chunk<Op, A>(tile_reader{tile}, len));
        }
        *partial = stream.result();
    };
    A result, scratch[block_plan::max_blocks];
    combine_halving<Op>(0, plan.count, &result, scratch, 1, block);
    return Op::finish(result, m);
}

}  // namespace bsx::detail

#if defined(__clang__)
#pragma clang diagnostic pop
#endif
