// bsx/eval/reduce_inner.hpp: the inner traversal of a reduction, for a reduced axis that
// is the operand's fastest: output r is the contiguous range [r*m, (r+1)*m) of the loop
// nest. Threads take whole outputs, or whole blocks of one output. What it compiles per
// expression is inner_kernels_of (folding a stretch of a row); the walk over outputs,
// blocks and rows is compiled per reduction, accumulator type and rank.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>

#include "../config.hpp"
#include "../detail/first_exception.hpp"
#include "loop.hpp"
#include "evaluator_protocol.hpp"
#include "math_evaluator.hpp"
#include "parallel.hpp"
#include "reduce_tree.hpp"

namespace bsx::detail {

/// What the inner traversal needs of the operand, for copies of rank D.
template <class A, std::size_t D>
struct inner_kernels {
    /// Folds elements [c, stop) of the row a copy's leaves have begun, `chunk` at a time:
    /// into the lanes `out` where the reduction needs no tree (tree_free), else one value
    /// per chunk into out[0], out[1], ...
    void (*fold)(const evaluator_copy<D>& copy, index_t c, index_t stop, index_t chunk, A* out);
    /// Chunks one prepare computes: a math node computes its results a tile
    /// (periodic_chunk) at a time, several chunks of the tree per call, which halves what
    /// each call costs per element. (chunk is BSX_CHUNK then: in-place chunks are never
    /// taken with math nodes.) The chunks are still reduced one after another, never side
    /// by side: two streams per operand read more slowly than one.
    index_t per_prepare;
};

/// inner_kernels for evaluator Ev: the only inner-traversal code compiled per expression.
template <class Op, class A, class Ev, std::size_t D>
struct inner_kernels_of {
    static constexpr index_t per_prepare = bounded_chunks<Ev> && !tree_free<Op, A> ? periodic_chunk / BSX_CHUNK : 1;

    static void fold(const evaluator_copy<D>& copy, index_t c, index_t stop, index_t chunk, A* out) {
        Ev& ev = *static_cast<Ev*>(copy.ev);
        if constexpr (!Ev::has_math) {
            if (copy.leaves.read_in_place()) {  // one reader for the stretch, no prepare per chunk
                copy.leaves.prepare(c, stop - c);
                const auto reader = ev.template chunk_reader<0>();
                if constexpr (tree_free<Op, A>) {
                    fold_into_lanes<Op>(reader, stop - c, out);
                } else {
                    for (index_t s = 0; s < stop - c; s += chunk)
                        *out++ = reduce_chunk<Op, A>(shifted_reader{reader, s}, std::min(chunk, stop - c - s));
                }
                return;
            }
        }
        const index_t step = chunk * per_prepare;
        for (; c < stop; c += step) {
            const index_t len = std::min(step, stop - c);
            copy.leaves.prepare(c, len);
            ev.prepare(c, len);
            const auto reader = ev.template chunk_reader<0>();
            if constexpr (tree_free<Op, A>) {
                fold_into_lanes<Op>(reader, len, out);
            } else if constexpr (per_prepare == 1) {
                // As a shifted_reader, as in the branch above: one reduce_chunk for both.
                *out++ = reduce_chunk<Op, A>(shifted_reader{reader, 0}, len);
            } else {
                for (index_t s = 0; s < len; s += chunk)
                    *out++ = reduce_chunk<Op, A>(shifted_reader{reader, s}, std::min(chunk, len - s));
            }
        }
    }
    static constexpr inner_kernels<A, D> kernels{&fold, per_prepare};
};

/// One block's reduction, fed the block's pieces of loop rows in order (fold), then read
/// once (result). Chunks are BSX_CHUNK long (the tree's) unless the block needs no tree
/// and every operand is read in place (`chunk`); without a tree (tree_free) the lanes run
/// through the whole block. Decided early, with the absorbing value, once the lanes reach
/// it (looked at every 8 chunks) or another thread's have (`decided`; null: no other).
template <class Op, class A, std::size_t D>
class block_fold {
public:
    block_fold(const inner_kernels<A, D>& kernels, index_t chunk, std::atomic<bool>* decided) noexcept
        : kernels_(kernels), chunk_(chunk), decided_(decided) {
        std::fill_n(lane_, chunk_lanes<A>, Op::template identity<A>());
    }
    block_fold(const block_fold&) = delete;
    block_fold& operator=(const block_fold&) = delete;

    /// Folds elements [j, stop) of the row the copy's leaves have begun (with a fill of at
    /// least chunk * per_prepare); false once the result is decided. The kernel folds up
    /// to eight chunk steps per call, which the stream takes as one group.
    bool fold(const evaluator_copy<D>& ev, index_t j, index_t stop) {
        const index_t group = group_steps * chunk_ * kernels_.per_prepare;
        for (index_t c = j; c < stop && !done_; c += group) {
            if constexpr (has_absorbing<Op>) {
                if (decided_ && decided_->load(std::memory_order_relaxed)) {
                    done_ = true;
                    break;
                }
            }
            const index_t end = std::min(stop, c + group);
            if constexpr (tree_free<Op, A>) {
                kernels_.fold(ev, c, end, chunk_, lane_);
                if constexpr (has_absorbing<Op>) {
                    if ((unprobed_ += end - c) < group_steps * chunk_) continue;
                    unprobed_ = 0;
                    // all and any accumulate bools, whose lanes combine_lanes leaves as they are.
                    static_assert(order_free<A>);
                    if (!is_absorbing<Op>(combine_lanes<Op>(lane_))) continue;
                    done_ = true;
                    if (decided_) decided_->store(true, std::memory_order_relaxed);
                }
            } else {
                A values[max_values];
                kernels_.fold(ev, c, end, chunk_, values);
                for (index_t i = 0, n = (end - c + chunk_ - 1) / chunk_; i < n; ++i) stream_.push(values[i]);
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
    static constexpr index_t group_steps = 8;
    static constexpr index_t max_values = group_steps * (periodic_chunk / BSX_CHUNK);
    const inner_kernels<A, D>& kernels_;
    index_t chunk_;
    std::atomic<bool>* decided_;
    grouped_stream<Op, A> stream_;
    alignas(64) A lane_[chunk_lanes<A>];
    index_t unprobed_ = 0;  // elements folded since the lanes were last looked at
    bool done_ = false;
};

/// Reduces flattened elements [begin, end) of a bound loop nest: one block, whose chunks
/// start at `begin` and stop at the end of each loop row.
template <class Op, class A, std::size_t D>
A reduce_block(const inner_kernels<A, D>& kernels, const evaluator_copy<D>& ev, const loop_shape<D>& loop,
               index_t begin, index_t end, index_t chunk, std::atomic<bool>* decided) {
    const std::size_t outer = loop.nd - 1;
    block_fold<Op, A, D> block(kernels, chunk, decided);
    const index_t fill = std::min<index_t>(chunk * kernels.per_prepare, loop.extent[outer]);
    for (row_runs<D> runs(loop, begin, end); runs.next();) {
        shape_t<D> idx = runs.index();
        for (index_t r = 0; r < runs.rows(); ++r) {
            if (r > 0) ++idx[outer - 1];
            ev.leaves.begin_row(idx.data(), outer, fill);
            if (!block.fold(ev, runs.first(), runs.stop())) return block.result();
        }
    }
    return block.result();
}

/// Outputs [first, last) when each is one block (outputs no longer than a block, or
/// order-free ones, which need no blocks): what reduce_block computes for each, with one
/// walk over the loop rows for all of them instead of one per output (rows of 4000 bools
/// spent a fifth of their time setting up). Precondition: every loop row holds whole
/// outputs (its length is a multiple of m).
template <class Op, class A, std::size_t D>
void reduce_one_block_outputs(const inner_kernels<A, D>& kernels, const evaluator_copy<D>& ev,
                              const loop_shape<D>& loop, index_t first, index_t last, index_t m, index_t chunk, A* out,
                              const first_exception* errors) {
    const std::size_t outer = loop.nd - 1;
    const index_t fill = std::min<index_t>(chunk * kernels.per_prepare, loop.extent[outer]);
    index_t r = first;
    for_each_row(loop, first * m, last * m, [&](const shape_t<D>& idx, index_t j, index_t stop) {
        for (index_t begin = j; begin < stop && !(errors && errors->stopped()); begin += m) {
            // Anew for each output: a repeating operand's chunks follow on from the
            // row's first, and an output's chunks end short of `fill` or early.
            ev.leaves.begin_row(idx.data(), outer, fill);
            block_fold<Op, A, D> block(kernels, chunk, nullptr);
            block.fold(ev, begin, begin + m);
            out[r++] = Op::finish(block.result(), m);
        }
    });
}

/// Reduces every output: output r is flattened range [r*m, (r+1)*m). Many outputs are
/// shared among threads; a few long ones are split into blocks shared among threads.
template <class Op, class A, std::size_t D>
void reduce_outputs(const evaluator_copies<D>& operand, const inner_kernels<A, D>& kernels, const loop_shape<D>& loop,
                    index_t outputs, index_t m, index_t chunk, A* out) {
    const block_plan plan(m);
    // Outputs of one block each (order-free ones need no blocks) share the walk over the
    // rows where each lies within a loop row (a whole-array reduction's one output may
    // span many); longer ones combine their blocks by halving.
    const bool one_block = order_free<A> || plan.count == 1;
    const bool within_rows = loop.extent[loop.nd - 1] % m == 0;
    const int threads = region_threads(outputs * m);
    if (threads > 1 && outputs < threads && plan.count > 1) {
        // Few long outputs: each one's blocks are shared among the threads.
        for (index_t r = 0; r < outputs; ++r) {
            A partial[block_plan::max_blocks];
            std::atomic<bool> decided{false};
            parallel_region(threads, [&](int t, int n, const first_exception* errors) {
                const index_t first = plan.count * t / n, last = plan.count * (t + 1) / n;
                operand.one(operand.shared, [&](const evaluator_copy<D>& own) {
                    if constexpr (order_free<A>) {
                        // No tree to follow: the thread's blocks as one range, in one call (a
                        // call per block kept all(x) of 16 MB of bools from any speed-up at 2
                        // threads); the other partials are the identity.
                        std::fill(partial + first, partial + last, Op::template identity<A>());
                        if (first < last)
                            partial[first] = reduce_block<Op, A>(kernels, own, loop, r * m + plan.begin(first, m),
                                                                 r * m + plan.begin(last, m), chunk, &decided);
                    } else {
                        for (index_t b = first; b < last && !errors->stopped(); ++b)
                            partial[b] = reduce_block<Op, A>(kernels, own, loop, r * m + plan.begin(b, m),
                                                             r * m + plan.begin(b + 1, m), chunk, &decided);
                    }
                });
            });
            A result, scratch[block_plan::max_blocks];
            combine_halving<Op, A>(0, plan.count, &result, scratch, 1, [&](index_t b, A* p) { *p = partial[b]; });
            out[r] = Op::finish(result, m);
        }
        return;
    }
    parallel_region(outputs >= threads ? threads : 1, [&](int t, int n, const first_exception* errors) {
        const index_t first = outputs * t / n, last = outputs * (t + 1) / n;
        operand.one(operand.shared, [&](const evaluator_copy<D>& own) {
            if (one_block && within_rows) {
                reduce_one_block_outputs<Op, A>(kernels, own, loop, first, last, m, chunk, out, errors);
                return;
            }
            for (index_t r = first; r < last && !(errors && errors->stopped()); ++r) {
                std::atomic<bool> decided{false};
                if (one_block) {
                    out[r] =
                        Op::finish(reduce_block<Op, A>(kernels, own, loop, r * m, (r + 1) * m, chunk, &decided), m);
                    continue;
                }
                A result, scratch[block_plan::max_blocks];
                combine_halving<Op, A>(0, plan.count, &result, scratch, 1, [&](index_t b, A* partial) {
                    *partial = reduce_block<Op, A>(kernels, own, loop, r * m + plan.begin(b, m),
                                                   r * m + plan.begin(b + 1, m), chunk, &decided);
                });
                out[r] = Op::finish(result, m);
            }
        });
    });
}

}  // namespace bsx::detail
