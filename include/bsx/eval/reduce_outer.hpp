// bsx/eval/reduce_outer.hpp: the outer traversal of a reduction, for a reduced axis that
// is not the operand's fastest (`sum(x, axis(0))` of a row-major x): a tile of adjacent
// outputs is reduced together while rows stream by in memory order, each output still
// along the tree of eval/reduce_tree.hpp. What it compiles per expression is
// outer_kernels_of (folding pieces of a few rows into accumulators); tiles, lanes and
// threads are compiled per reduction, accumulator type and rank.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "../config.hpp"
#include "../detail/first_exception.hpp"
#include "../detail/stack_room.hpp"
#include "../detail/storage.hpp"
#include "loop.hpp"
#include "evaluator_protocol.hpp"
#include "parallel.hpp"
#include "reduce_inner.hpp"
#include "reduce_tree.hpp"

namespace bsx::detail {

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

/// Lanes the outer traversal keeps per output: none are needed when order is free.
template <class A>
inline constexpr index_t outer_lanes = order_free<A> ? 1 : chunk_lanes<A>;

/// Rows the outer traversal reads side by side into one output's accumulators: the rows
/// k, k + lanes, ... that the tree gives one lane (consecutive rows where order is free).
/// The accumulators need not fit L1 (16 lanes of a row of 2000 floats take 128 KiB): each
/// pass reads and writes them once for 4 rows, not for each (doc/design.md, "Reductions",
/// has the measurements; 8 rows were no faster).
inline constexpr index_t outer_rows_per_pass = 4;

/// What the outer traversal needs of the operand: combines into acc[0, len) the chunks
/// that the leaves of `count` (at most outer_rows_per_pass) copies expose at element c of
/// their rows, copy by copy (the rows' order).
template <class A, std::size_t D>
using accumulate_rows_fn = void (*)(const evaluator_copy<D>* copies, index_t count, index_t c, index_t len, A* acc);

/// acc[j] combined with element j of each reader in turn (the order of the rows they
/// read). Inline into the kernel (outer_kernels_of), which is itself out of line, so that
/// the readers it builds stay in its frame. bool accumulators (all, any) are combined as
/// their bytes (lane_value).
template <class Op, class A, class Reader, std::size_t N>
void accumulate_pieces(const std::array<Reader, N> readers, A* acc,
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

/// accumulate_pieces with the readers reader_of(0), ..., reader_of(count - 1): all of them
/// in one pass when there are outer_rows_per_pass, else one pass each, which combines
/// every element in the same order (so the same bits) with one more instantiation only.
template <class Op, class A, class ReaderOf>
void accumulate_rows(const ReaderOf& reader_of, index_t count, A* acc, index_t len) {
    if (count == outer_rows_per_pass) {
        accumulate_pieces<Op>(std::array{reader_of(0), reader_of(1), reader_of(2), reader_of(3)}, acc, len);
    } else {
        for (index_t i = 0; i < count; ++i) accumulate_pieces<Op>(std::array{reader_of(i)}, acc, len);
    }
}
static_assert(outer_rows_per_pass == 4, "accumulate_rows names its readers");

/// accumulate_rows_fn for evaluator Ev: the only outer-traversal code compiled per
/// expression. Mask as in compute_rows: rows read in place may hold one operand, constant
/// along them, in a register.
template <class Op, class A, class Ev, std::size_t D>
struct outer_kernels_of {
    template <std::size_t Mask>
    static void accumulate(const evaluator_copy<D>* copies, index_t count, index_t c, index_t len, A* acc) {
        const auto ev = [&](index_t i) -> Ev& { return *static_cast<Ev*>(copies[i].ev); };
        if constexpr (Ev::has_math)
            for (index_t i = 0; i < count; ++i) ev(i).prepare(c, len);
        accumulate_rows<Op>([&](index_t i) { return ev(i).template chunk_reader<Mask>(); }, count, acc, len);
    }
    /// The kernel for the layout.
    static accumulate_rows_fn<A, D> for_layout(const outer_layout<D>& lay) noexcept {
        if constexpr (Ev::leaf_count >= 2 && !Ev::has_math) {
            static constexpr auto masks = []<std::size_t... K>(std::index_sequence<K...>) {
                return std::array<accumulate_rows_fn<A, D>, sizeof...(K)>{
                    &accumulate<(K == 0 ? 0 : std::size_t{1} << (K - 1))>...};
            }(std::make_index_sequence<Ev::leaf_count + 1>{});
            return masks[lay.in_place ? lay.constant_leaf : 0];
        } else {
            return &accumulate<0>;
        }
    }
};

/// Reduces outputs p*Q + [q0, q0 + w) into `out`, streaming w-long pieces of the rows
/// (p, k, q0..) in memory order, outer_rows_per_pass rows at a time (accumulate). Each
/// output gets exactly the tree of the inner traversal: element k of a chunk goes to lane
/// k % lanes, and each lane takes its elements in order.
template <class Op, class A, std::size_t D>
[[gnu::noinline]] void reduce_tile(accumulate_rows_fn<A, D> accumulate, const evaluator_copy<D>* copies,
                                   const outer_layout<D>& lay, index_t p, index_t q0, index_t w, A* scratch, A* out) {
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
    // acc combined with the pieces [j, stop) of rows k, k + lanes, ... (count of them),
    // side by side: in place, the whole piece at once; else chunk by chunk through tiles.
    const auto piece = [&](index_t k, index_t count, index_t j, index_t stop, A* acc) {
        if (lay.in_place) {
            idx[lay.kpos] = k;
            copies[0].leaves.place(idx.data(), outer, j);
            for (index_t i = 1; i < count; ++i) copies[i].leaves.place_apart(copies[0].leaves, i * lanes, lay.kpos);
            accumulate(copies, count, j, stop - j, acc);
            return;
        }
        for (index_t i = 0; i < count; ++i) {
            idx[lay.kpos] = k + i * lanes;
            copies[i].leaves.begin_row(idx.data(), outer, fill);
        }
        for (index_t c = j; c < stop; c += lay.chunk) {
            const index_t len = std::min<index_t>(lay.chunk, stop - c);
            for (index_t i = 0; i < count; ++i) copies[i].leaves.prepare(c, len);
            accumulate(copies, count, c, len, acc + (c - j));
        }
    };
    const auto accumulate_rows_at = [&](index_t k, index_t count, A* acc) {
        // The usual case, and the only one below rank 3: the tile is one piece of one row.
        if (D < 3 || lay.inner.nd == 1) {
            piece(k, count, q0, q0 + w, acc);
            return;
        }
        for_each_row(lay.inner, q0, q0 + w, [&](const shape_t<D>& qidx, index_t j, index_t stop) {
            for (std::size_t d = 0; d + 1 < lay.inner.nd; ++d) idx[lay.kpos + 1 + d] = qidx[d];
            piece(k, count, j, stop, acc);
            acc += stop - j;
        });
    };
    combine_chunks<Op, A>(plan, lay.m, w, result, stream_store, halving, [&](index_t c0, index_t c1, A*) {
        std::fill_n(lane_acc, lanes * w, Op::template identity<A>());
        // Passes of outer_rows_per_pass rows per lane, lanes in turn: the passes move
        // through the chunk in memory order, that many streams at a time.
        for (index_t g = c0; g < c1; g += lanes * outer_rows_per_pass)
            for (index_t l = 0; l < lanes && g + l < c1; ++l)
                accumulate_rows_at(g + l, std::min<index_t>(outer_rows_per_pass, (c1 - g - l + lanes - 1) / lanes),
                                   lane_acc + l * w);
        for (index_t width = lanes / 2; width > 0; width /= 2)
            for (index_t l = 0; l < width; ++l) combine_into<Op>(lane_acc + l * w, lane_acc + (l + width) * w, w);
        return static_cast<const A*>(lane_acc);
    });
    for (index_t t = 0; t < w; ++t) out[p * lay.Q + q0 + t] = Op::finish(result[t], lay.m);
}

/// Stack a thread keeps free below the outer traversal's partials, for the frames of the
/// tile loop (kernels, math functions, and the larger frames of sanitizer builds).
inline constexpr std::size_t outer_stack_margin = 32 * 1024;

/// Every output of the outer traversal: tiles of w adjacent outputs, shared among threads.
template <class Op, class A, std::size_t D>
void reduce_tiles(const evaluator_copies<D>& operand, accumulate_rows_fn<A, D> accumulate, const outer_layout<D>& lay,
                  A* out) {
    const block_plan plan(lay.m);
    // The widest tile whose partials fit the scratch: whole rows where possible, since
    // memory streams fastest in long runs.
    constexpr index_t scratch_size = BSX_REDUCTION_SCRATCH / sizeof(A);
    const index_t per_output = outer_lanes<A> + plan.stream_slots() + 1 + plan.halving_slots();
    index_t w = std::min(lay.Q, std::max<index_t>(1, scratch_size / per_output / 16 * 16));
    const int threads = region_threads(lay.P * lay.m * lay.Q);
    // Enough tiles for every thread, where the outputs allow.
    if (lay.P * ((lay.Q + w - 1) / w) < threads)
        w = std::min(w, std::max<index_t>(16, (lay.Q + threads - 1) / threads));
    const index_t tiles_per_p = (lay.Q + w - 1) / w;
    const index_t units = lay.P * tiles_per_p;
    const index_t need = per_output * w;  // a thread's partials
    const std::size_t bytes = std::size_t(need) * sizeof(A);
    // Threads take tiles from a shared counter, a few at a time (about 16 takes each): a
    // thread that the machine slows down takes fewer, and the others do not wait for it.
    const index_t take = std::max<index_t>(1, units / (16 * threads));
    std::atomic<index_t> next{0};
    parallel_region(units > 1 ? threads : 1, [&](int, int, const first_exception* errors) {
        operand.four(operand.shared, [&](const evaluator_copy<D>* copies) {
            // This thread's partials, as many as the tile needs: on its stack where they fit
            // with room to spare, else in one heap block it allocates once for the reduction.
            storage_ptr<A> heap;
            A* scratch;
            if (bytes + outer_stack_margin <= stack_room()) {
                const auto at = reinterpret_cast<std::uintptr_t>(__builtin_alloca(bytes + 63));
                scratch = reinterpret_cast<A*>((at + 63) / 64 * 64);
            } else {
                heap = allocate_storage<A>(std::size_t(need), false);
                scratch = heap.get();
            }
            for (index_t first; (first = next.fetch_add(take, std::memory_order_relaxed)) < units;) {
                for (index_t u = first; u < std::min(first + take, units); ++u) {
                    if (errors && errors->stopped()) return;
                    const index_t p = u / tiles_per_p, q0 = u % tiles_per_p * w;
                    reduce_tile<Op, A>(accumulate, copies, lay, p, q0, std::min(w, lay.Q - q0), scratch, out);
                }
            }
        });
    });
}

}  // namespace bsx::detail
