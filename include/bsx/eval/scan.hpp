// bsx/eval/scan.hpp: the inclusive scan of contiguous memory along one axis, in place or into
// other memory (cumsum, cumprod). A blocked prefix scan whose blocks are fixed by the axis's length alone, never by
// the thread count, so the result is the same bits at any thread count.
#pragma once

#include <algorithm>
#include <memory>
#include <type_traits>

#include "../config.hpp"
#include "parallel.hpp"

namespace bsx::detail {

/// Positions along the axis per block. A shorter axis is one plain sequential scan. Along a
/// longer one each block is scanned on its own, and the combined totals of the blocks before
/// it (its carry, a sequential scan of the totals) are combined into each of its elements; an
/// element then carries the rounding of at most (scan_length - 1) + (blocks - 1) + 1
/// operations, never more than the (length - 1) of a sequential loop.
inline constexpr index_t scan_length = 4096;
/// Elements across the axis (the axes after it) per task: the unit of the work's split.
inline constexpr index_t scan_columns = 1024;

/// One block of a scan: `length` positions `inner` elements apart, `width` columns each,
/// read from `in` and written to `out` (the same memory for a scan in place, or memory that
/// does not overlap it); each element is its local running value (from the block's first
/// position) combined after `carry`'s element of its column, when there is a carry (every
/// block but the first).
template <class A, class Combine>
void scan_block(const A* in, A* out, index_t length, index_t inner, index_t width, std::type_identity_t<const A*> carry,
                Combine combine) {
    if (inner == 1) {
        A local = in[0];
        if (!carry) {
            out[0] = local;
            for (index_t i = 1; i < length; ++i) out[i] = local = combine(local, in[i]);
            return;
        }
        const A c = *carry;
        out[0] = combine(c, local);
        for (index_t i = 1; i < length; ++i) {
            local = combine(local, in[i]);
            out[i] = combine(c, local);
        }
        return;
    }
    if (!carry) {
        BSX_SIMD_LOOP
        for (index_t c = 0; c < width; ++c) out[c] = in[c];
        for (index_t i = 1; i < length; ++i) {
            A* row = out + i * inner;
            const A* prev = row - inner;
            const A* from = in + i * inner;
            BSX_SIMD_LOOP
            for (index_t c = 0; c < width; ++c) row[c] = combine(prev[c], from[c]);
        }
        return;
    }
    A local[scan_columns];
    BSX_SIMD_LOOP
    for (index_t c = 0; c < width; ++c) {
        local[c] = in[c];
        out[c] = combine(carry[c], local[c]);
    }
    for (index_t i = 1; i < length; ++i) {
        A* row = out + i * inner;
        const A* from = in + i * inner;
        BSX_SIMD_LOOP
        for (index_t c = 0; c < width; ++c) {
            local[c] = combine(local[c], from[c]);
            row[c] = combine(carry[c], local[c]);
        }
    }
}

/// Scans `in`, row-major of shape (outer, len, inner), along its middle axis into `out` (the
/// same memory, or memory that does not overlap it): element i becomes combine(element
/// i - 1, element i), as a sequential loop would within a block (see scan_block). On one
/// thread in one pass, each block's carry read from the block before it; on several, a
/// first pass sums the blocks into their totals, which are scanned into the carries, then
/// every block is scanned with its carry: the same operations, so the same bits. `combine`
/// must not throw.
template <class A, class Combine>
void scan_into(const A* in, A* out, index_t outer, index_t len, index_t inner, Combine combine) {
    if (outer == 0 || len == 0 || inner == 0) return;
    if (len == 1) {
        if (in != out) std::copy_n(in, outer * inner, out);
        return;
    }
    const index_t blocks = (len - 1) / scan_length + 1, chunks = (inner - 1) / scan_columns + 1;
    const index_t tasks = outer * blocks * chunks;
    // Task t: columns of chunk t % chunks, block (t / chunks) % blocks of row t / (chunks * blocks).
    struct task {
        index_t first;    // the block's first position, at the chunk's first column
        index_t length;   // positions in the block
        index_t columns;  // columns in the chunk
        index_t carry;    // where the block's carry is among the carries; -1 for a row's first block
    };
    const auto task_of = [&](index_t t) {
        const index_t c0 = t % chunks * scan_columns, b = t / chunks % blocks, o = t / (chunks * blocks);
        return task{(o * len + b * scan_length) * inner + c0, std::min(scan_length, len - b * scan_length),
                    std::min(scan_columns, inner - c0), b == 0 ? -1 : (o * (blocks - 1) + b - 1) * inner + c0};
    };
    const int threads = region_threads(outer * len * inner);
    if (blocks == 1) {
        // Without carries every column is scanned alone, so the columns may be split any way:
        // whole rows where there are enough for the threads, else one strip of a row's
        // columns per thread (64-byte multiples). Never narrower strips: a strip walks the
        // axis with stride `inner`, and each of its rows starts the prefetcher anew.
        const index_t strips = outer >= threads ? 1 : std::min<index_t>(threads, inner);
        const index_t unit = std::max<index_t>(1, 64 / index_t(sizeof(A)));
        const index_t width = ((inner + strips - 1) / strips + unit - 1) / unit * unit;
        const index_t per_row = (inner + width - 1) / width;
        parallel_for(outer * per_row, threads, 1, [&](index_t begin, index_t end, const first_exception*) {
            for (index_t t = begin; t < end; ++t) {
                const index_t c0 = t % per_row * width, first = t / per_row * len * inner + c0;
                scan_block(in + first, out + first, len, inner, std::min(width, inner - c0), nullptr, combine);
            }
        });
        return;
    }
    if (threads == 1) {
        // In task order a block comes after the one before it, whose last position then holds
        // its carry combined with its total: the next block's carry.
        for (index_t t = 0; t < tasks; ++t) {
            const task w = task_of(t);
            scan_block(in + w.first, out + w.first, w.length, inner, w.columns,
                       w.carry < 0 ? nullptr : out + w.first - inner, combine);
        }
        return;
    }

    // carries[(o * (blocks - 1) + b - 1) * inner + c]: first the total of block b - 1 of row o,
    // column c (every block but the last), then, scanned, the carry of block b.
    const auto carries = std::make_unique_for_overwrite<A[]>(std::size_t(outer * (blocks - 1) * inner));
    parallel_for(tasks, threads, 1, [&](index_t begin, index_t end, const first_exception*) {
        for (index_t t = begin; t < end; ++t) {
            const index_t b = t / chunks % blocks;
            if (b == blocks - 1) continue;
            const task w = task_of(t);
            A* total = carries.get() + (t / (chunks * blocks) * (blocks - 1) + b) * inner + t % chunks * scan_columns;
            if (inner == 1) {
                const A* from = in + w.first;
                A sum = from[0];
                for (index_t i = 1; i < w.length; ++i) sum = combine(sum, from[i]);
                *total = sum;
                continue;
            }
            for (index_t c = 0; c < w.columns; ++c) total[c] = in[w.first + c];
            for (index_t i = 1; i < w.length; ++i) {
                const A* row = in + w.first + i * inner;
                BSX_SIMD_LOOP
                for (index_t c = 0; c < w.columns; ++c) total[c] = combine(total[c], row[c]);
            }
        }
    });
    parallel_for(outer * chunks, threads, 1, [&](index_t begin, index_t end, const first_exception*) {
        for (index_t t = begin; t < end; ++t) {
            const index_t o = t / chunks, c0 = t % chunks * scan_columns, width = std::min(scan_columns, inner - c0);
            A* carry = carries.get() + o * (blocks - 1) * inner + c0;
            for (index_t b = 2; b < blocks; ++b, carry += inner) {
                A* next = carry + inner;
                BSX_SIMD_LOOP
                for (index_t c = 0; c < width; ++c) next[c] = combine(carry[c], next[c]);
            }
        }
    });
    parallel_for(tasks, threads, 1, [&](index_t begin, index_t end, const first_exception*) {
        for (index_t t = begin; t < end; ++t) {
            const task w = task_of(t);
            scan_block(in + w.first, out + w.first, w.length, inner, w.columns,
                       w.carry < 0 ? nullptr : carries.get() + w.carry, combine);
        }
    });
}

}  // namespace bsx::detail
