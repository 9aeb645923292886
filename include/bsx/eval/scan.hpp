// bsx/eval/scan.hpp: the inclusive scan of contiguous memory along one axis, in place (cumsum,
// cumprod). A blocked prefix scan whose blocks are fixed by the axis's length alone, never by
// the thread count, so the result is the same bits at any thread count.
#pragma once

#include <algorithm>
#include <memory>

#include "../config.hpp"
#include "parallel.hpp"

namespace bsx::detail {

/// Positions along the axis per block. A shorter axis is one plain sequential scan. Longer,
/// each block is scanned on its own, the blocks' totals are scanned in order into carries,
/// and each block's carry is combined into its elements; an element then carries the
/// rounding of at most (scan_block - 1) + (blocks - 1) + 1 additions, never more than the
/// (length - 1) of a sequential loop.
inline constexpr index_t scan_block = 4096;
/// Elements across the axis (the axes after it) per task: the unit of the work's split.
inline constexpr index_t scan_columns = 1024;

/// Scans `data`, row-major of shape (outer, len, inner), along its middle axis in place:
/// element i becomes combine(element i - 1, element i), as a sequential loop would within a
/// block (see scan_block). `combine` must not throw.
template <class A, class Combine>
void scan_in_place(A* data, index_t outer, index_t len, index_t inner, Combine combine) {
    if (outer == 0 || len <= 1 || inner == 0) return;
    const index_t blocks = (len - 1) / scan_block + 1, chunks = (inner - 1) / scan_columns + 1;
    const int threads = region_threads(outer * len * inner);
    // Task t is block (t / chunks) % blocks of row t / (chunks * blocks), columns of chunk t % chunks.
    struct task {
        A* first;          // the block's first position, at the chunk's first column
        index_t length;    // positions in the block
        index_t columns;   // columns in the chunk
        index_t block;
    };
    const auto task_of = [&](index_t t) {
        const index_t c0 = t % chunks * scan_columns, b = t / chunks % blocks, o = t / (chunks * blocks);
        return task{data + (o * len + b * scan_block) * inner + c0, std::min(scan_block, len - b * scan_block),
                    std::min(scan_columns, inner - c0), b};
    };
    const index_t tasks = outer * blocks * chunks;
    parallel_for(tasks, threads, 1, [&](index_t begin, index_t end, const first_exception*) {
        for (index_t t = begin; t < end; ++t) {
            const task w = task_of(t);
            if (inner == 1) {
                for (index_t i = 1; i < w.length; ++i) w.first[i] = combine(w.first[i - 1], w.first[i]);
                continue;
            }
            for (index_t i = 1; i < w.length; ++i) {
                A* row = w.first + i * inner;
                const A* prev = row - inner;
                BSX_SIMD_LOOP
                for (index_t c = 0; c < w.columns; ++c) row[c] = combine(prev[c], row[c]);
            }
        }
    });
    if (blocks == 1) return;

    // carry(o, b, c) for b >= 1: the combined totals of blocks 0 .. b-1 of row o, column c,
    // in order (a sequential scan of the totals), stored at [(o * (blocks - 1) + b - 1) * inner + c].
    const auto carries = std::make_unique_for_overwrite<A[]>(std::size_t(outer * (blocks - 1) * inner));
    parallel_for(outer * chunks, threads, 1, [&](index_t begin, index_t end, const first_exception*) {
        for (index_t t = begin; t < end; ++t) {
            const index_t o = t / chunks, c0 = t % chunks * scan_columns, width = std::min(scan_columns, inner - c0);
            A* carry = carries.get() + o * (blocks - 1) * inner + c0;
            const A* total = data + (o * len + scan_block - 1) * inner + c0;  // block 0's last position
            for (index_t c = 0; c < width; ++c) carry[c] = total[c];
            for (index_t b = 2; b < blocks; ++b) {
                total += scan_block * inner;
                A* next = carry + inner;
                BSX_SIMD_LOOP
                for (index_t c = 0; c < width; ++c) next[c] = combine(carry[c], total[c]);
                carry = next;
            }
        }
    });
    parallel_for(tasks, threads, 1, [&](index_t begin, index_t end, const first_exception*) {
        for (index_t t = begin; t < end; ++t) {
            const task w = task_of(t);
            if (w.block == 0) continue;
            const index_t o = t / (chunks * blocks), c0 = t % chunks * scan_columns;
            const A* carry = carries.get() + (o * (blocks - 1) + w.block - 1) * inner + c0;
            if (inner == 1) {
                const A c = *carry;
                BSX_SIMD_LOOP
                for (index_t i = 0; i < w.length; ++i) w.first[i] = combine(c, w.first[i]);
                continue;
            }
            for (index_t i = 0; i < w.length; ++i) {
                A* row = w.first + i * inner;
                BSX_SIMD_LOOP
                for (index_t c = 0; c < w.columns; ++c) row[c] = combine(carry[c], row[c]);
            }
        }
    });
}

}  // namespace bsx::detail
