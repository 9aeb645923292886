// bsx/eval/loop.hpp: the one loop nest every assignment runs. Axes are coalesced
// first (extent-1 axes dropped, adjacent axes merged where every operand steps through
// them as one), then the flattened index space is split statically across OpenMP
// threads and walked row by row in chunks through a unit-stride inner kernel.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <type_traits>
#include <utility>

#include "../config.hpp"
#include "../detail/convert.hpp"
#include "../detail/first_exception.hpp"
#include "../detail/streaming_store.hpp"
#include "../shape/shape.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace bsx::detail {

/// The loop nest after coalescing: `nd` axes (at least one), innermost last. D >= 1:
/// rank-0 destinations run as rank 1.
template <std::size_t D>
struct loop_shape {
    std::size_t nd = 0;
    shape_t<D> extent{};
};

/// How the destination or one memory operand steps through the loop nest: a stride per
/// axis and, once short rows are folded (fold_short_rows), the period with which an
/// operand repeats along the row (0: it does not repeat).
template <std::size_t D>
struct operand_steps {
    shape_t<D> stride{};
    index_t period = 0;
};

/// Rows at most this long are folded into longer ones; it bounds the period tiles.
inline constexpr index_t max_fold_period = BSX_CHUNK / 4;

/// Chunk length when the only tiles are period tiles (filled once per row), streamed
/// results or math results: longer than BSX_CHUNK halves the per-chunk overhead, but not
/// much longer: with 8 KiB tiles the centroid case ((n, 3) minus a (3,)) ran 5-10 %
/// slower than with 4 KiB ones, and with 32 KiB tiles 40 %, as the tiles crowd the lines
/// the loop streams through out of L1.
inline constexpr index_t periodic_chunk = 2 * BSX_CHUNK;

/// Short rows (the pixels of an RGB image: rows of 3) would make per-row set-up dominate.
/// Folds the next outer axis into the row while every operand either continues through
/// it as if the row went on, or repeats along it (stride 0). A repeating operand then
/// reads the row from a tile filled once with its values repeated (`period`).
template <std::size_t D>
void fold_short_rows(loop_shape<D>& loop, std::span<operand_steps<D>* const> ops) {
    if constexpr (D < 2) return;  // one axis: nothing to fold
    while (loop.nd >= 2) {
        const std::size_t inner = loop.nd - 1, k = inner - 1;
        const index_t row = loop.extent[inner];
        if (row > max_fold_period) return;
        const auto continues = [&](const operand_steps<D>& o) {
            return o.period == 0 && o.stride[k] == o.stride[inner] * row;
        };
        for (std::size_t i = 0; i < ops.size(); ++i)  // ops[0], the destination, never repeats
            if (!continues(*ops[i]) && (i == 0 || ops[i]->stride[k] != 0)) return;
        for (std::size_t i = 1; i < ops.size(); ++i)  // an operand that repeats already keeps its period
            if (ops[i]->period == 0 && !continues(*ops[i])) ops[i]->period = row;
        for (auto* o : ops) o->stride[k] = o->stride[inner];
        loop.extent[k] *= row;
        loop.nd = inner;
    }
}

/// Coalesces the axes of `extent` in place in the strides of `ops`: ops[0] is the
/// destination, the rest are the memory operands. Depends on the rank only, not on the
/// expression, so it is compiled once per rank.
template <std::size_t D>
loop_shape<D> coalesce(const shape_t<D>& extent, std::span<operand_steps<D>* const> ops) {
    loop_shape<D> loop;
    const auto for_all_strides = [&](auto&& f) {
        for (auto* o : ops) f(o->stride);
    };
    // Drop extent-1 axes: their strides never matter.
    for (std::size_t k = 0; k < D; ++k) {
        if (extent[k] == 1) continue;
        const std::size_t to = loop.nd++;
        loop.extent[to] = extent[k];
        for_all_strides([&](auto& st) { st[to] = st[k]; });
    }
    if (loop.nd == 0) {  // a single element
        loop.nd = 1;
        loop.extent[0] = 1;
        for_all_strides([](auto& st) { st[0] = 0; });
        return loop;
    }
    // Merge axis k into the (already merged) inner group `inner` when every operand
    // steps over axis k exactly as if the group continued.
    std::array<bool, D> merged{};
    std::size_t inner = loop.nd - 1;
    for (std::size_t k = inner; k-- > 0;) {
        bool mergeable = true;
        for_all_strides([&](auto& st) { mergeable &= st[k] == st[inner] * loop.extent[inner]; });
        if (mergeable) {
            loop.extent[inner] *= loop.extent[k];
            merged[k] = true;
        } else {
            inner = k;
        }
    }
    std::size_t nd = 0;
    for (std::size_t k = 0; k < loop.nd; ++k) {
        if (merged[k]) continue;
        const std::size_t to = nd++;
        loop.extent[to] = loop.extent[k];
        if (to != k) for_all_strides([&](auto& st) { st[to] = st[k]; });
    }
    loop.nd = nd;
    fold_short_rows(loop, ops);
    return loop;
}

/// The type loops read and write elements of type T as: bool as its byte, because GCC
/// vectorizes no loop that loads or stores `bool` objects themselves.
template <class T>
using bytes_of_t = std::conditional_t<std::is_same_v<T, bool>, unsigned char, T>;

/// The inner kernel: every operand is unit-stride here, so this vectorizes. The reader
/// is a local copy, so the compiler knows stores to `out` cannot move its pointers
/// (which matters for char-sized destinations, which may alias anything). Inline into
/// the row loop of whole-row writes; out of line (run_chunk) for tiled ones. A reader
/// that may throw (a user function) runs without the simd pragma: OpenMP forbids an
/// exception leaving a simd loop.
#if defined(__clang__)
// A libm call the operation makes (sqrt without -fno-math-errno) can keep clang from
// vectorizing; that is the user's flag choice, not a warning about their code.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpass-failed"
#endif
template <class T, class Reader>
void write_chunk(const Reader reader, T* out, index_t len) noexcept(noexcept(reader.load(0))) {
    using B = bytes_of_t<T>;
    B* to = reinterpret_cast<B*>(out);
    if constexpr (noexcept(reader.load(0))) {
        BSX_SIMD_LOOP
        for (index_t j = 0; j < len; ++j) to[j] = static_cast<B>(convert<T>(reader.load(j)));
    } else {
        for (index_t j = 0; j < len; ++j) to[j] = static_cast<B>(convert<T>(reader.load(j)));
    }
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

/// to[t] = from[t * stride] for t < len. Strides 2 and 4 are constants in their own
/// loops, which then vectorize (vector loads and shuffles); other strides run plainly.
template <class T>
void gather_strided(const T* from, index_t stride, T* to, index_t len) noexcept {
    using B = bytes_of_t<T>;
    const B* src = reinterpret_cast<const B*>(from);
    B* dst = reinterpret_cast<B*>(to);
    const auto copy = [&](auto step) {
        BSX_SIMD_LOOP
        for (index_t t = 0; t < len; ++t) dst[t] = src[t * step];
    };
    if (stride == 2)
        copy(std::integral_constant<index_t, 2>{});
    else if (stride == 4)
        copy(std::integral_constant<index_t, 4>{});
    else
        for (index_t t = 0; t < len; ++t) dst[t] = src[t * stride];
}

/// to[t * stride] = from[t] for t < len, with the same constant strides.
template <class T>
void scatter_strided(const T* from, T* to, index_t stride, index_t len) noexcept {
    using B = bytes_of_t<T>;
    const B* src = reinterpret_cast<const B*>(from);
    B* dst = reinterpret_cast<B*>(to);
    const auto copy = [&](auto step) {
        BSX_SIMD_LOOP
        for (index_t t = 0; t < len; ++t) dst[t * step] = src[t];
    };
    if (stride == 2)
        copy(std::integral_constant<index_t, 2>{});
    else if (stride == 4)
        copy(std::integral_constant<index_t, 4>{});
    else
        for (index_t t = 0; t < len; ++t) dst[t * stride] = src[t];
}

/// Out of line so that the direct and the tiled destination of the tiled path share one
/// vectorized copy.
template <class T, class Reader>
[[gnu::noinline]] void run_chunk(const Reader reader, T* out, index_t len) noexcept(noexcept(reader.load(0))) {
    write_chunk(reader, out, len);
}

/// Where the row at outer indices `idx` starts, in elements from the first row: the
/// outer axes are at most D - 1, which the loop bound says, so that it unrolls.
template <std::size_t D>
index_t row_offset(const index_t* idx, const shape_t<D>& stride, std::size_t outer) noexcept {
    index_t offset = 0;
    for (std::size_t d = 0; d + 1 < D && d < outer; ++d) offset += idx[d] * stride[d];
    return offset;
}

/// Visits flattened elements [begin, end) of the loop nest in runs of rows: `run(idx, j,
/// stop, rows)` gets the outer indices of a row, the part [j, stop) of it in the range,
/// and how many rows, this one and the next ones along the last outer axis, have that
/// same part (whole rows run together, so a loop over them can step its pointers).
template <std::size_t D, class Run>
void for_each_row_run(const loop_shape<D>& loop, index_t begin, index_t end, Run&& run) {
    const std::size_t outer = loop.nd - 1;
    const index_t n_inner = loop.extent[outer];
    shape_t<D> idx{};
    index_t j = 0;
    if (begin != 0) {  // a serial loop starts at 0: spare it the divisions (tens of cycles)
        index_t r = begin / n_inner;
        j = begin % n_inner;
        for (std::size_t d = outer; d-- > 0;) {
            idx[d] = r % loop.extent[d];
            r /= loop.extent[d];
        }
    }
    while (begin < end) {
        index_t rows = 1;
        if constexpr (D > 1)
            if (j == 0 && outer > 0)
                rows = std::max<index_t>(1, std::min(loop.extent[outer - 1] - idx[outer - 1], (end - begin) / n_inner));
        const index_t stop = std::min(n_inner, j + (end - begin));
        run(idx, j, stop, rows);
        begin += rows * (stop - j);
        j = 0;
        if constexpr (D > 1)
            if (outer > 0) idx[outer - 1] += rows - 1;
        for (std::size_t d = outer; d-- > 0;) {
            if (++idx[d] < loop.extent[d]) break;
            idx[d] = 0;
        }
    }
}

/// Visits flattened elements [begin, end) of the loop nest row by row: `row(idx, j,
/// stop)` gets the outer indices of a row and the part [j, stop) of it in the range.
template <std::size_t D, class Row>
void for_each_row(const loop_shape<D>& loop, index_t begin, index_t end, Row&& row) {
    for_each_row_run(loop, begin, end, [&](const shape_t<D>& first, index_t j, index_t stop, index_t rows) {
        shape_t<D> idx = first;
        for (index_t r = 0;;) {
            row(idx, j, stop);
            if (++r == rows) break;
            ++idx[loop.nd - 2];  // rows > 1 only with an outer axis
        }
    });
}

/// Runs `f(evs)` with N copies of the evaluator (cursors over the binding, for this
/// thread) in a std::array, each with its own tiles in this stack frame.
template <std::size_t N, class Ev, class F>
void with_own_evaluators(const Ev& shared, F&& f) {
    auto evs = [&]<std::size_t... I>(std::index_sequence<I...>) {
        return std::array<Ev, N>{((void)I, shared)...};
    }(std::make_index_sequence<N>{});
    alignas(64) std::byte scratch[N][Ev::tile_bytes > 0 ? Ev::tile_bytes : 1];
    for (std::size_t i = 0; i < N; ++i) evs[i].attach_tiles(scratch[i]);
    f(evs);
}

/// Runs `f(ev)` with this thread's copy of the evaluator.
template <class Ev, class F>
void with_own_evaluator(const Ev& shared, F&& f) {
    with_own_evaluators<1>(shared, [&](std::array<Ev, 1>& evs) { f(evs[0]); });
}

/// Whether evaluator Ev computes its chunks into a unit-stride destination of T itself
/// (a math node at the root: the function's results need no tile of their own).
template <class Ev, class T>
concept writes_into = requires(Ev& ev, T* out) { ev.write_chunk_into(out, index_t{}, index_t{}, bool{}); };

/// Evaluates flattened elements [begin, end) of the loop nest into `dst`, `chunk`
/// (at most periodic_chunk) elements at a time, giving up at the next chunk once `errors`
/// (another thread's failure; null when serial) says so. With `streaming` (a unit-stride
/// destination only), chunks are computed into a tile and written with streaming stores,
/// which do not read the destination first. A math node at the root writes a unit-stride
/// row itself (writes_into). Kept out of line: the serial and the parallel call share one
/// compiled copy of the kernel.
template <class T, std::size_t D, class Ev>
[[gnu::noinline]] void run_range(const Ev& shared, T* dst, const shape_t<D>& dst_strides, const loop_shape<D>& loop,
                                 index_t chunk, bool streaming, index_t begin, index_t end,
                                 const first_exception* errors) {
    const std::size_t outer = loop.nd - 1;
    const index_t dst_inner = dst_strides[outer];
    const index_t fill = std::min(chunk, loop.extent[outer]);  // tile elements one row needs
    // Streamed lines are ordered before whatever the thread does next, also when a user
    // function's exception leaves the loop.
    struct fence_when_streaming {
        bool streaming;
        ~fence_when_streaming() {
            if (streaming) stream_fence();
        }
    } const fence{streaming};
    with_own_evaluator(shared, [&](Ev& ev) {
        alignas(64) T tile[periodic_chunk];
        for_each_row(loop, begin, end, [&](const shape_t<D>& idx, index_t j, index_t stop) {
            if (errors && errors->stopped()) return;
            ev.begin_row(idx.data(), outer, fill);
            T* const drow = dst + row_offset(idx.data(), dst_strides, outer);
            for (index_t c = j; c < stop; c += chunk) {
                if (errors && errors->stopped()) return;
                const index_t len = std::min(chunk, stop - c);
                if constexpr (writes_into<Ev, T>) {
                    if (dst_inner == 1) {
                        ev.write_chunk_into(drow + c, c, len, streaming);
                        continue;
                    }
                }
                ev.prepare(c, len);
                if (dst_inner == 1 && !streaming) {
                    run_chunk(ev.chunk_reader(), drow + c, len);
                } else {
                    run_chunk(ev.chunk_reader(), tile, len);
                    if (dst_inner == 1)
                        stream_copy(drow + c, tile, std::size_t(len) * sizeof(T));
                    else
                        scatter_strided(tile, drow + c * dst_inner, dst_inner, len);
                }
            }
        });
    });
}

/// The number of threads an assignment of `total` elements runs on: OpenMP's count
/// above the threshold and outside any enclosing parallel region, else 1.
inline int loop_threads(index_t total) noexcept {
#ifdef _OPENMP
    if (total >= BSX_PARALLEL_THRESHOLD && !omp_in_parallel()) return omp_get_max_threads();
#else
    (void)total;
#endif
    return 1;
}

/// Whether every operand reads the rows along loop axis `inner` in place: with unit
/// stride, or one of them with stride 0 (its value per row, which a row reader holds in a
/// register). `constant_leaf` gets 1 + that operand's index, or 0 for none.
template <std::size_t D>
bool rows_read_in_place(std::span<operand_steps<D>* const> leaves, std::size_t inner, std::size_t& constant_leaf) {
    constant_leaf = 0;
    for (std::size_t i = 0; i < leaves.size(); ++i) {
        const operand_steps<D>& o = *leaves[i];
        if (o.period != 0) return false;
        if (o.stride[inner] == 1) continue;
        if (o.stride[inner] != 0 || constant_leaf != 0) return false;
        constant_leaf = i + 1;
    }
    return true;
}

/// Calls f(std::integral_constant<std::size_t, Mask>) with the leaf mask for
/// `constant_leaf` (0: no leaf, k: leaf k - 1), so that each case is compiled once.
template <std::size_t Leaves, class F>
void with_constant_leaf(std::size_t constant_leaf, F&& f) {
    [&]<std::size_t... K>(std::index_sequence<K...>) {
        (void)((constant_leaf == K &&
                (f(std::integral_constant < std::size_t, K == 0 ? 0 : std::size_t{1} << (K - 1) > {}), true)) ||
               ...);
    }(std::make_index_sequence<Leaves + 1>{});
}

/// Writes flattened elements [begin, end) of a loop nest in which the destination and
/// every operand step through rows with stride 1, or 0 for the operands whose bit is set
/// in Mask: whole rows at once, with no tiles, each row-constant operand read once per
/// row into a register. A run of rows steps the readers' pointers from row to row
/// (next_row) instead of finding each row's start again: rows of 100 cost as much to
/// start as to write. Gives up at the next row once `errors` (another thread's failure;
/// null when serial) says so.
template <std::size_t Mask, class T, std::size_t D, class Ev>
[[gnu::noinline]] void run_rows(const Ev& ev, T* dst, const shape_t<D>& dst_strides, const loop_shape<D>& loop,
                                index_t begin, index_t end, const first_exception* errors) {
    const std::size_t outer = loop.nd - 1;
    const index_t dst_next = outer > 0 ? dst_strides[outer - 1] : 0;
    for_each_row_run(loop, begin, end, [&](const shape_t<D>& idx, index_t j, index_t stop, index_t rows) {
        auto reader = ev.template row_reader<Mask>(idx.data(), outer, j);
        T* drow = dst + row_offset(idx.data(), dst_strides, outer) + j;
        for (index_t r = 0;;) {
            if (errors && errors->stopped()) return;
            write_chunk(reader, drow, stop - j);
            if (++r == rows) break;
            reader.next_row();
            drow += dst_next;
        }
    });
}

/// Runs range(begin, end) over flattened elements [0, total) on `threads` threads: split
/// statically into contiguous blocks whose bounds are multiples of `granule` (a whole
/// destination row when rows must stay with one thread, else 1), so the split never
/// depends on timing. range(begin, end, errors) runs one block; `errors` is null when
/// serial. An exception from a user function reaches the caller as itself, also from a
/// worker thread (the other threads stop at their next check of `errors`).
template <class Range>
void run_loop(index_t total, int threads, index_t granule, Range&& range) {
#ifdef _OPENMP
    if (threads > 1) {
        const index_t units = total / granule;
        first_exception errors;
#pragma omp parallel num_threads(threads)
        {
            const index_t n = omp_get_num_threads();
            const index_t t = omp_get_thread_num();
            errors.run([&] { range(units * t / n * granule, units * (t + 1) / n * granule, &errors); });
        }
        errors.rethrow();
        return;
    }
#else
    (void)threads;
    (void)granule;
#endif
    range(index_t{0}, total, static_cast<const first_exception*>(nullptr));
}

}  // namespace bsx::detail
