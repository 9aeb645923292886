// bsx/eval/leaf_cursor.hpp: a memory operand as the loops see it, whatever its element
// type: where each row starts, and how it exposes the next chunk of a row as unit-stride
// memory. The loops move every leaf of every expression through these functions, so they
// are compiled once per rank, not once per expression.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "../config.hpp"
#include "../shape/shape.hpp"
#include "loop.hpp"

namespace bsx::detail {

/// A memory leaf's position in the loop nest. Per chunk it exposes unit-stride data at
/// `q`: the memory itself (inner stride 1), a tile filled with the row's single value
/// (inner stride 0, once per row), a tile of the row's repeating values (a folded short
/// row, `period`), or a tile gathered from strided memory. Where every operand has inner
/// stride 0 or 1, place() points q into the row itself and no tile is used.
template <std::size_t D>
struct leaf_cursor {
    const std::byte* base = nullptr;
    operand_steps<D> steps;  // destination-space strides in elements, coalesced in place
    std::size_t bytes = 0;   // the element size
    const std::byte* row = nullptr;
    const std::byte* q = nullptr;
    index_t next = 0;  // place(): elements from a row's element to the next row's
    index_t inner = 0;
    index_t phase = 0;               // repeating operands: where the next chunk starts in the period
    index_t phase_step = 0;          // chunk length % period: how far a full chunk moves the phase
    std::byte* tile = nullptr;       // the running thread's tile (the typed leaf sizes it)
    bool reads_destination = false;  // reads the destination's memory itself, not a copy

    const std::byte* row_start(const index_t* idx, std::size_t outer) const noexcept {
        return base + row_offset(idx, steps.stride, outer) * index_t(bytes);
    }
    /// q at element j of the row at idx, read in place (inner stride 0 or 1).
    void place(const index_t* idx, std::size_t outer, index_t j) noexcept {
        q = row_start(idx, outer) + j * steps.stride[outer] * index_t(bytes);
        next = outer > 0 ? steps.stride[outer - 1] : 0;
    }
    /// Sets up the row at idx for chunks of at most `fill` elements.
    [[gnu::noinline]] void begin_row(const index_t* idx, std::size_t outer, index_t fill) noexcept {
        row = row_start(idx, outer);
        inner = steps.stride[outer];
        if (steps.period != 0) {
            // The row is this operand's `period` values over and over: lay them out once so
            // that any chunk reads them from an offset into the tile (the copies double).
            const index_t p = steps.period, b = index_t(bytes);
            copy_elements(row, inner, tile, 1, p, bytes);
            for (index_t done = p; done < fill + p; done *= 2)
                std::memcpy(tile + done * b, tile, std::size_t(std::min(done, fill + p - done) * b));
            phase = -1;             // set by the row's first chunk, which may start mid-row
            phase_step = fill % p;  // every chunk but a row's last is `fill` long
        } else if (inner == 0) {
            fill_elements(tile, row, fill, bytes);
            q = tile;
        }
    }
    /// Exposes elements [j0, j0 + len) of the row at q.
    void prepare(index_t j0, index_t len) noexcept {
        if (steps.period != 0)
            next_period_chunk(j0);
        else if (inner == 1)
            q = row + j0 * index_t(bytes);
        else if (inner != 0)
            gather(j0, len);
    }
    /// Chunks after the first are all `fill` long, so the phase advances without a
    /// division per chunk.
    [[gnu::noinline]] void next_period_chunk(index_t j0) noexcept {
        if (phase < 0) phase = j0 % steps.period;
        q = tile + phase * index_t(bytes);
        phase += phase_step;
        if (phase >= steps.period) phase -= steps.period;
    }
    [[gnu::noinline]] void gather(index_t j0, index_t len) noexcept {
        copy_elements(row + j0 * inner * index_t(bytes), inner, tile, 1, len, bytes);
        q = tile;
    }
};

/// The leaves of one thread's copy of a bound evaluator, and operations on all of them.
template <std::size_t D>
struct leaf_set {
    leaf_cursor<D>* const* leaves;
    std::size_t count;

    void begin_row(const index_t* idx, std::size_t outer, index_t fill) const noexcept {
        for (std::size_t i = 0; i < count; ++i) leaves[i]->begin_row(idx, outer, fill);
    }
    void prepare(index_t j0, index_t len) const noexcept {
        for (std::size_t i = 0; i < count; ++i) leaves[i]->prepare(j0, len);
    }
    void place(const index_t* idx, std::size_t outer, index_t j) const noexcept {
        for (std::size_t i = 0; i < count; ++i) leaves[i]->place(idx, outer, j);
    }
    /// Whether every leaf reads the row begun where it lies (unit stride, no period), so
    /// that one prepare exposes any stretch of it.
    bool read_in_place() const noexcept {
        for (std::size_t i = 0; i < count; ++i)
            if (leaves[i]->inner != 1 || leaves[i]->steps.period != 0) return false;
        return true;
    }
    /// place() at the row `rows` steps along `axis` from where `from` (the same leaves in
    /// another copy) was placed: no row start to find again.
    void place_apart(const leaf_set& from, index_t rows, std::size_t axis) const noexcept {
        for (std::size_t i = 0; i < count; ++i) {
            const leaf_cursor<D>& f = *from.leaves[i];
            leaves[i]->q = f.q + rows * f.steps.stride[axis] * index_t(f.bytes);
            leaves[i]->next = f.next;
        }
    }
};

}  // namespace bsx::detail
