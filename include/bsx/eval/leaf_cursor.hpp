// bsx/eval/leaf_cursor.hpp: a memory operand as the loops see it, whatever its element
// type: where each row starts, and how it exposes the next chunk of a row as unit-stride
// memory. The loops move every leaf of every expression through these functions, so they
// are compiled once per rank, not once per expression. A generated leaf (expr/generated.hpp)
// moves as memory would, its position standing for the address: its tiles are computed.
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
/// stride 0 or 1, or a small stride (loop_kind::strided, read at j * inner), place() points
/// q into the row itself and no tile is used.
/// A generated leaf has no memory: `generate` computes its values at positions (its
/// row-major element numbers) where a memory leaf would read them, so it is never read in
/// place (steps.generated keeps the plans from placing it) and every chunk is a tile.
template <std::size_t D>
struct leaf_cursor {
    /// Writes the values at positions first, first + step, ... (len of them) of the
    /// generated leaf `source` to `out`.
    using generate_fn = void (*)(const void* source, index_t first, index_t step, index_t len, std::byte* out) noexcept;

    const std::byte* base = nullptr;
    operand_steps<D> steps;  // destination-space strides in elements, coalesced in place
    const std::byte* row = nullptr;
    const std::byte* q = nullptr;
    index_t next = 0;                // place(): elements from a row's element to the next row's
    index_t inner = 0;               // the row's stride, set by place() and begin_row()
    index_t phase = 0;               // repeating operands: where the next chunk starts in the period
    index_t phase_step = 0;          // chunk length % period: how far a full chunk moves the phase
    std::byte* tile = nullptr;       // the running thread's tile (the typed leaf sizes it)
    bool reads_destination = false;  // reads the destination's memory itself, not a copy
    generate_fn generate = nullptr;  // generated leaves only: their values,
    const void* source = nullptr;    // computed from this
    index_t origin = 0;              // the position of the element the destination's first reads
    index_t position = 0;            // and that of the row begun

    const std::byte* row_start(const index_t* idx, std::size_t outer) const noexcept {
        return base + row_offset(idx, steps.stride, outer) * index_t(steps.bytes);
    }
    /// q at element j of the row at idx, read in place (inner stride 0 or 1, or a small
    /// stride for loop_kind::strided).
    void place(const index_t* idx, std::size_t outer, index_t j) noexcept {
        inner = steps.stride[outer];
        q = row_start(idx, outer) + j * inner * index_t(steps.bytes);
        next = outer > 0 ? steps.stride[outer - 1] : 0;
    }
    /// Sets up the row at idx for chunks of at most `fill` elements.
    [[gnu::noinline]] void begin_row(const index_t* idx, std::size_t outer, index_t fill) noexcept {
        if (generate)
            position = origin + row_offset(idx, steps.stride, outer);
        else
            row = row_start(idx, outer);
        inner = steps.stride[outer];
        if (steps.period != 0) {
            // The row is this operand's `period` values over and over: lay them out once so
            // that any chunk reads them from an offset into the tile (the copies double).
            const index_t p = steps.period, b = index_t(steps.bytes);
            if (generate)
                generate(source, position, inner, p, tile);
            else
                copy_elements(row, inner, tile, 1, p, steps.bytes);
            for (index_t done = p; done < fill + p; done *= 2)
                std::memcpy(tile + done * b, tile, std::size_t(std::min(done, fill + p - done) * b));
            phase = -1;             // set by the row's first chunk, which may start mid-row
            phase_step = fill % p;  // every chunk but a row's last is `fill` long
        } else if (inner == 0) {
            if (generate)
                generate(source, position, 0, fill, tile);
            else
                fill_elements(tile, row, fill, steps.bytes);
            q = tile;
        }
    }
    /// Exposes elements [j0, j0 + len) of the row at q.
    void prepare(index_t j0, index_t len) noexcept {
        if (steps.period != 0)
            next_period_chunk(j0);
        else if (inner == 1 && !generate)
            q = row + j0 * index_t(steps.bytes);
        else if (inner != 0)
            gather(j0, len);
    }
    /// Chunks after the first are all `fill` long, so the phase advances without a
    /// division per chunk.
    [[gnu::noinline]] void next_period_chunk(index_t j0) noexcept {
        if (phase < 0) phase = j0 % steps.period;
        q = tile + phase * index_t(steps.bytes);
        phase += phase_step;
        if (phase >= steps.period) phase -= steps.period;
    }
    [[gnu::noinline]] void gather(index_t j0, index_t len) noexcept {
        if (generate)
            generate(source, position + j0 * inner, inner, len, tile);
        else
            copy_elements(row + j0 * inner * index_t(steps.bytes), inner, tile, 1, len, steps.bytes);
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
            if (leaves[i]->inner != 1 || leaves[i]->steps.period != 0 || leaves[i]->generate) return false;
        return true;
    }
    /// Whether every leaf reads its rows along loop axis `inner` where they lie, with unit
    /// stride, so that place() exposes a whole row without begin_row.
    bool unit_stride_rows(std::size_t inner) const noexcept {
        for (std::size_t i = 0; i < count; ++i)
            if (leaves[i]->steps.stride[inner] != 1 || leaves[i]->steps.period != 0 || leaves[i]->generate)
                return false;
        return true;
    }
    /// place() at the row `rows` steps along `axis` from where `from` (the same leaves in
    /// another copy) was placed: no row start to find again.
    void place_apart(const leaf_set& from, index_t rows, std::size_t axis) const noexcept {
        for (std::size_t i = 0; i < count; ++i) {
            const leaf_cursor<D>& f = *from.leaves[i];
            leaves[i]->q = f.q + rows * f.steps.stride[axis] * index_t(f.steps.bytes);
            leaves[i]->next = f.next;
            leaves[i]->inner = f.inner;
        }
    }
};

}  // namespace bsx::detail
