// bsx/eval/reduce.hpp: evaluating reductions. The reduced expression is bound like any
// assignment, but in an index space whose last axis is the reduced one, so each output
// is one contiguous range of the flattened loop nest. A range is cut into blocks (their
// number depends only on its length), each block into chunks, each chunk into 8 lanes;
// lanes, chunks and blocks combine pairwise in a fixed order. Threads take whole outputs,
// or whole blocks of one output, so results are the same bits for any thread count.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
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

namespace bsx::detail {

/// One chunk reduced to one value: 8 independent lanes (so it vectorizes without
/// reassociating anything), combined pairwise.
template <class Op, class A, class Reader>
A reduce_chunk(const Reader& reader, index_t len) noexcept(noexcept(reader.load(0))) {
    constexpr int lanes = 8;
    A lane[lanes];
    for (int l = 0; l < lanes; ++l) lane[l] = Op::template identity<A>();
    // The lanes written out with constant indices, so they stay in registers (one vector
    // of 8, or several) instead of a stack array that each step stores and reloads.
    const auto step = [&]<std::size_t... L>(index_t j, std::index_sequence<L...>) {
        ((lane[L] = Op::combine(lane[L], static_cast<A>(reader.load(j + index_t(L))))), ...);
    };
    index_t j = 0;
    for (; j + lanes <= len; j += lanes) step(j, std::make_index_sequence<lanes>{});
    for (int l = 0; j < len; ++j, ++l) lane[l] = Op::combine(lane[l], static_cast<A>(reader.load(j)));
    for (int width = lanes / 2; width > 0; width /= 2)
        for (int l = 0; l < width; ++l) lane[l] = Op::combine(lane[l], lane[l + width]);
    return lane[0];
}

/// Pairwise combination of a stream of chunk results (a binary counter: two partials of
/// equal weight merge), so the error of a long sum grows with log n, not n.
template <class Op, class A>
class pairwise_stream {
public:
    void push(A value) noexcept {
        int level = 0;
        while (size_ > 0 && level_[size_ - 1] == level) {
            value = Op::combine(value_[--size_], value);
            ++level;
        }
        value_[size_] = value;
        level_[size_++] = level;
    }
    A result() const noexcept {
        A acc = Op::template identity<A>();
        for (int i = size_; i-- > 0;) acc = Op::combine(value_[i], acc);
        return acc;
    }

private:
    A value_[64];
    int level_[64];
    int size_ = 0;
};

/// How a range of n elements is cut into blocks: a function of n alone.
struct block_plan {
    static constexpr index_t min_block = 8 * BSX_CHUNK;
    static constexpr index_t max_blocks = 256;
    index_t count;
    index_t length;
    explicit block_plan(index_t n) noexcept
        : count(std::clamp<index_t>((n + min_block - 1) / min_block, 1, max_blocks)),
          length((n + count - 1) / count) {}
    index_t begin(index_t b, index_t n) const noexcept { return std::min(b * length, n); }
};

/// Block partials combined by recursive halving.
template <class Op, class A>
A combine_blocks(const A* partial, index_t count) noexcept {
    if (count == 1) return partial[0];
    const index_t half = count / 2;
    return Op::combine(combine_blocks<Op, A>(partial, half), combine_blocks<Op, A>(partial + half, count - half));
}

/// Reduces flattened elements [begin, end) of a bound loop nest (one block): chunks
/// start at `begin` and stop at the end of each loop row.
template <class Op, class A, class Ev, std::size_t D>
A reduce_block(Ev& ev, const loop_shape<D>& loop, index_t begin, index_t end) {
    const std::size_t outer = loop.nd - 1;
    const index_t fill = std::min<index_t>(BSX_CHUNK, loop.extent[outer]);
    pairwise_stream<Op, A> stream;
    for_each_row(loop, begin, end, [&](const shape_t<D>& idx, index_t j, index_t stop) {
        ev.begin_row(idx.data(), outer, fill);
        for (index_t c = j; c < stop; c += BSX_CHUNK) {
            const index_t len = std::min<index_t>(BSX_CHUNK, stop - c);
            ev.prepare(c, len);
            stream.push(reduce_chunk<Op, A>(ev.chunk_reader(), len));
        }
    });
    return stream.result();
}

/// Reduces every output: output r is flattened range [r*m, (r+1)*m). Many outputs are
/// shared among threads; a few long ones are split into blocks shared among threads.
template <class Op, class A, class Ev, std::size_t D>
void reduce_outputs(const Ev& ev, const loop_shape<D>& loop, index_t outputs, index_t m, A* out) {
    const block_plan plan(m);
    const auto block = [&](Ev& own, index_t output, index_t b) {  // block b of one output
        return reduce_block<Op, A>(own, loop, output * m + plan.begin(b, m), output * m + plan.begin(b + 1, m));
    };
    const auto reduce_range = [&](Ev& own, index_t output) {
        A partial[block_plan::max_blocks];
        for (index_t b = 0; b < plan.count; ++b) partial[b] = block(own, output, b);
        return combine_blocks<Op, A>(partial, plan.count);
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
                    for (index_t r = outputs * t / n; r < outputs * (t + 1) / n && !errors.stopped(); ++r)
                        out[r] = Op::finish(reduce_range(own, r), m);
                });
            });
        }
        errors.rethrow();
        return;
    }
    if (threads > 1 && plan.count > 1) {
        for (index_t r = 0; r < outputs; ++r) {
            A partial[block_plan::max_blocks];
            first_exception errors;
#pragma omp parallel num_threads(threads)
            {
                const index_t n = omp_get_num_threads(), t = omp_get_thread_num();
                errors.run([&] {
                    with_own_evaluator(ev, [&](Ev& own) {
                        for (index_t b = plan.count * t / n; b < plan.count * (t + 1) / n && !errors.stopped(); ++b)
                            partial[b] = block(own, r, b);
                    });
                });
            }
            errors.rethrow();
            out[r] = Op::finish(combine_blocks<Op, A>(partial, plan.count), m);
        }
        return;
    }
#else
    (void)threads;
#endif
    with_own_evaluator(ev, [&](Ev& own) {
        for (index_t r = 0; r < outputs; ++r) out[r] = Op::finish(reduce_range(own, r), m);
    });
}

/// Reduces expression `e` (rank N) along `axis` (N: over all elements) into `out`, one
/// finished value per output in row-major order. A plain buffer, not a callback, so
/// one instantiation serves every caller.
template <class Op, class E>
void reduce_expression(const E& e, std::size_t axis, reduced_t<Op, E>* out) {
    constexpr std::size_t N = rank_v<E>;
    using A = reduced_t<Op, E>;
    const auto shape = e.shape();
    const index_t total = shape_size(shape);
    const index_t m = axis == N ? total : shape[axis];
    const index_t outputs = axis == N ? 1 : (m == 0 ? [&] {
        index_t n = 1;
        for (std::size_t d = 0; d < N; ++d) if (d != axis) n *= shape[d];
        return n;
    }() : total / m);
    if (total == 0) {  // nothing to read: every output is the empty reduction
        for (index_t r = 0; r < outputs; ++r) out[r] = Op::finish(Op::template identity<A>(), 0);
        return;
    }
    if constexpr (N == 0) {
        out[0] = Op::finish(static_cast<A>(e.element({})), 1);
    } else {
        // The index space: the operand's axes with the reduced one moved last.
        axis_map<N> axes{};
        shape_t<N> space{};
        for (std::size_t d = 0, to = 0; d < N; ++d) {
            axes[d] = axis == N ? d : d == axis ? N - 1 : to++;
            space[axes[d]] = shape[d];
        }
        const destination<std::byte, N> nowhere{nullptr, {}, {}, false};  // reading only: nothing aliases
        auto ev = make_evaluator(e, axes, nowhere);
        operand_steps<N> flat{contiguous_strides(space), 0};
        std::array<operand_steps<N>*, 1 + decltype(ev)::leaf_count> all{&flat};
        ev.collect_steps(all.data() + 1);
        const auto loop = coalesce<N>(space, all);
        reduce_outputs<Op, A>(ev, loop, outputs, m, out);
    }
}

/// Reduces `e` along `axis` at the other indices of `idx`, as the value of one element:
/// the same blocks, chunks and lanes as the evaluator, so the same bits.
template <class Op, class E>
auto reduce_element(const E& e, std::size_t axis, shape_t<rank_v<E>> idx) {
    using V = value_type_t<E>;
    using A = typename Op::template accumulator<V>;
    const index_t m = e.shape()[axis];
    const auto element_at = [&](index_t k) {  // the k-th element along the axis
        idx[axis] = k;
        return e.element(idx);
    };
    struct tile_reader {
        const V* q;
        V load(index_t j) const noexcept { return q[j]; }
    };
    const block_plan plan(m);
    A partial[block_plan::max_blocks];
    for (index_t b = 0; b < plan.count; ++b) {
        pairwise_stream<Op, A> stream;
        V tile[BSX_CHUNK];
        for (index_t c = plan.begin(b, m); c < plan.begin(b + 1, m); c += BSX_CHUNK) {
            const index_t len = std::min<index_t>(BSX_CHUNK, plan.begin(b + 1, m) - c);
            for (index_t t = 0; t < len; ++t) tile[t] = element_at(c + t);
            stream.push(reduce_chunk<Op, A>(tile_reader{tile}, len));
        }
        partial[b] = stream.result();
    }
    return Op::finish(m == 0 ? Op::template identity<A>() : combine_blocks<Op, A>(partial, plan.count), m);
}

}  // namespace bsx::detail
