// bsx/eval/loop_plan.hpp: how an assignment runs, decided once from the run-time layout
// of its bound operands (strides, periods, overlap with the destination, size, threads)
// by one pure function, plan_loop. The kernels take the plan; tests ask for it
// (plan_assignment in eval/assign.hpp) to see that each fast path is still taken.
#pragma once

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <span>

#include "../config.hpp"
#include "../detail/cache_size.hpp"
#include "../shape/shape.hpp"
#include "loop.hpp"
#include "parallel.hpp"

namespace bsx::detail {

/// The ways an assignment runs.
enum class loop_kind {
    empty,           // no elements: nothing runs
    static_loop,     // all-static expression: one loop of constant length (eval/static_loop.hpp)
    reduction_into,  // a reduction writes its outputs into the destination itself
    rows,            // whole rows read in place, one operand perhaps held in a register
    strided,         // whole rows in place, each operand and the destination with its own small stride
    tiles,           // chunks through tiles: gathered, constant, period or math tiles
    copy,            // one operand of the destination's type, copied as it lies: no kernel
};

/// How the destination's rows are shared among threads, decided before binding: alias
/// analysis needs to know whether each row stays with one thread (reads_own_row).
struct row_split {
    int threads;
    index_t granule;  // split unit: a whole row when rows stay whole, else one element
    bool whole_rows;
};

/// Rows (along the innermost axis of extent > 1) stay whole on one thread whenever there
/// are enough of them; that lets operands that read their own row skip a copy.
template <std::size_t D>
row_split split_rows(const shape_t<D>& shape) noexcept {
    const index_t total = shape_size(shape);
    index_t row = 1;
    for (std::size_t d = 0; d < D; ++d)
        if (shape[d] > 1) row = shape[d];
    const int threads = region_threads(total);
    const bool whole_rows = total / row >= threads;
    return {threads, whole_rows ? row : 1, whole_rows};
}

/// The longest stride along the row at which operands are read in place (loop_kind::strided)
/// rather than gathered into tiles. A gather then computing runs its loads and its
/// arithmetic one after the other; one loop that reads the strided elements itself overlaps
/// them. Longer strides (the columns of a larger transposed matrix) touch a cache line per
/// element either way, and keep the tiles.
inline constexpr index_t max_strided_read = 8;

/// Whether the destination is written in place at inner stride `stride` by the strided
/// plan. Every element size is: the tiles' write-back stores element by element too.
inline bool writes_in_place_at(index_t stride) noexcept { return stride >= 1 && stride <= max_strided_read; }

/// Whether an operand is read in place at inner stride `stride` by the strided plan: at
/// the strides it would be written in place, except elements of 1 or 2 bytes at stride 2,
/// which keep the tiles: their gather's shuffles (a constant stride) beat a loop that
/// builds each vector from 16 or 32 loads.
inline bool reads_in_place_at(index_t stride, std::size_t bytes) noexcept {
    return writes_in_place_at(stride) && !(stride == 2 && bytes < 4);
}

/// What an expression's strided kernel (loop_kind::strided) can do, known from types alone:
/// read operands with their own small strides (views, placed nodes: binder<E>::
/// may_read_strided), write a destination with a small stride (an assignment to a view).
/// An expression of arrays into an array needs neither, and compiles no strided kernel.
struct strided_kernel {
    bool reads = false;
    bool writes = false;
    constexpr bool exists() const noexcept { return reads || writes; }
};

/// An assignment's plan: the coalesced loop nest and how it is walked.
template <std::size_t D>
struct loop_plan {
    loop_kind kind = loop_kind::empty;
    loop_shape<D> loop{};
    shape_t<D> dst_strides{};       // the destination's strides in the coalesced nest
    index_t total = 0;              // elements written
    row_split split{1, 1, false};   // threads and split unit
    index_t chunk = 0;              // tiles: elements per chunk (at most periodic_chunk)
    bool streaming = false;         // tiles: written with streaming stores
    std::size_t constant_leaf = 0;  // rows: 1 + the operand read once per row; 0: none
};

/// The plan for the bound operands `ops` (ops[0] the destination, the rest the memory
/// leaves in evaluator order; their strides are coalesced in place). `math`: the tree
/// holds a math node, whose tiles bound the chunk; `strided`: what the expression's strided
/// kernel can do (none for an expression with a math node, unless its root reads in
/// place); `reads_destination`: some leaf reads the destination's memory itself;
/// `one_leaf_of_destination_type`: the expression is a single memory leaf whose elements
/// are the destination's, which needs no conversion.
template <std::size_t D>
loop_plan<D> plan_loop(const shape_t<D>& shape, std::span<operand_steps<D>* const> ops, const row_split& split,
                       std::size_t element_bytes, bool math, strided_kernel strided, bool reads_destination,
                       bool one_leaf_of_destination_type) {
    loop_plan<D> plan;
    plan.total = shape_size(shape);
    plan.split = split;
    plan.loop = coalesce<D>(shape, ops);
    const operand_steps<D>& dst = *ops[0];
    plan.dst_strides = dst.stride;
    const std::size_t inner = plan.loop.nd - 1;
    const auto leaves = ops.subspan(1);
    // Rows that the destination writes with unit stride and every operand reads with
    // stride 1, or 0 for at most one operand, run whole unless streamed or bounded by a
    // math node's tiles; any other row runs in chunks through tiles: long chunks when the
    // only tiles are period tiles, BSX_CHUNK when a constant or gathered tile is filled
    // per chunk.
    const bool direct = dst.stride[inner] == 1 && rows_read_in_place<D>(leaves, inner, plan.constant_leaf);
    // Large destinations that the expression does not read are written with streaming
    // stores (in unit-stride rows), which do not read them into the cache first.
    plan.streaming = dst.stride[inner] == 1 && std::size_t(plan.total) * element_bytes >= streaming_threshold() &&
                     !reads_destination;
    if (direct && !math && !plan.streaming) {
        plan.kind = loop_kind::rows;
        return plan;
    }
    plan.constant_leaf = 0;  // only rows hold an operand in a register
    // A lone operand that rows cannot read in place (a flipped, transposed or strided
    // view) is copied from where it lies into the destination's rows: through a tile it
    // would be moved twice. Streamed results keep the tiles, and an operand that reads the
    // destination itself is left to them too: its rows must be read before they are written.
    // The copy shares the outermost axis among threads, so it needs a block for each.
    if (one_leaf_of_destination_type && !plan.streaming && !reads_destination && leaves[0]->period == 0 &&
        !leaves[0]->generated && plan.loop.extent[0] >= split.threads) {
        plan.kind = loop_kind::copy;
        return plan;
    }
    // Rows that the destination writes and every operand reads with a stride from 1 to
    // max_strided_read run whole too, each with its own stride, where the strided kernel
    // can: it reads strides other than 1 only with strided.reads, writes them only with
    // strided.writes. (An expression with a math node has one only where its root reads
    // in place, and takes it only for rows that the tiles would not read in place too;
    // streamed results are written from a tile; stride 0 keeps the tiles, which read the
    // row's value once, before the row is written: reads_own_row.)
    const index_t dst_step = dst.stride[inner];
    bool strided_rows = strided.exists() && !(math && direct) && !plan.streaming &&
                        (dst_step == 1 || (strided.writes && writes_in_place_at(dst_step)));
    for (const operand_steps<D>* o : leaves) {  // a plain loop: std::all_of would be unrolled
        const index_t step = o->stride[inner];
        strided_rows &=
            o->period == 0 && !o->generated && (step == 1 || (strided.reads && reads_in_place_at(step, o->bytes)));
    }
    if (strided_rows) {
        plan.kind = loop_kind::strided;
        return plan;
    }
    plan.kind = loop_kind::tiles;
    bool periodic = dst.stride[inner] == 1;
    index_t periods = 16;  // the least common multiple of 16 and the operands' periods
    for (const operand_steps<D>* o : leaves) {
        periodic &= o->stride[inner] == 1 || o->period != 0;
        if (o->period != 0 && periods <= periodic_chunk) periods = std::lcm(periods, o->period);
    }
    // A chunk reads a period tile from where it starts in the period. Chunks of a
    // multiple of every period all start where the first did, so the tile reads keep its
    // alignment (with a period of 3 doubles, two chunks in three would read 8 or 16 bytes
    // off and split their vector loads across cache lines); of 16 elements, they are
    // whole vectors and need no remainder loop.
    const index_t periodic_len = periods <= periodic_chunk ? periodic_chunk / periods * periods : periodic_chunk;
    plan.chunk = direct ? std::min(plan.loop.extent[inner], periodic_chunk) : periodic ? periodic_len : BSX_CHUNK;
    return plan;
}

}  // namespace bsx::detail
