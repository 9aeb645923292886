// bsx/eval/kernels.hpp: the code an assignment compiles per expression, and the loops that
// call it. Per expression there are only chunk kernels (compute_rows: one vectorized loop
// over a prepared chunk, or over a run of rows read in place, per operand that may be held
// in a register) and a math root's own writer; walking the plan's nest, moving the leaf
// cursors and sharing the work among threads (eval/parallel.hpp) are compiled once per rank.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "../config.hpp"
#include "../detail/first_exception.hpp"
#include "../detail/streaming_store.hpp"
#include "evaluator_protocol.hpp"
#include "leaf_cursor.hpp"
#include "loop.hpp"
#include "loop_plan.hpp"
#include "parallel.hpp"
#include "strided_copy.hpp"

namespace bsx::detail {

/// The kernels of one bound expression, erased to plain pointers for the loops below.
struct expression_kernels {
    /// Writes `rows` rows of `len` elements, `out_next` elements apart, from the chunk the
    /// leaf cursors expose at element j0 of the row (placed rows step from row to row; a
    /// prepared chunk is one row). A row's elements are `out_step` apart, which only a
    /// kernel that writes strided rows reads (else it is 1). Gives up between rows once
    /// `errors` says so.
    using rows_fn = void (*)(void* ev, void* out, index_t j0, index_t len, index_t rows, index_t out_next,
                             index_t out_step, const first_exception* errors);
    /// A math node at the root: writes elements [j0, j0 + len) of a unit-stride row at out
    /// itself, streamed or not, from the chunk the cursors expose; with `staged` > 0 or a
    /// null out, after the rows staged before it (math_evaluator::write_chunk_into).
    using into_fn = void (*)(void* ev, void* out, index_t j0, index_t len, bool streaming, index_t staged);
    rows_fn rows;
    into_fn into;  // null unless the root is a math node
};

/// Whether evaluator Ev computes its chunks into a unit-stride destination of T itself
/// (a math node at the root: the function's results need no tile of their own).
template <class Ev, class T>
concept writes_into = requires(Ev& ev, T* out) { ev.write_chunk_into(out, index_t{}, index_t{}, bool{}, index_t{}); };

/// Writes `rows` rows of `len` elements from `reader`, `out_next` elements apart, each
/// row's elements `step` apart; gives up between rows once `errors` says so.
template <class Reader, class T, class Step>
void write_rows(Reader reader, T* to, index_t len, index_t rows, index_t out_next, Step step,
                const first_exception* errors) {
    for (index_t r = 0;;) {
        write_chunk(reader, to, len, step);
        if (++r == rows || (errors && errors->stopped())) return;
        reader.next_row();
        to += out_next;
    }
}

/// The chunk kernel of Ev: the leaves whose bit is set in Mask are held in registers; with
/// Strided.reads, every leaf is read with the stride it was placed with, with
/// Strided.writes, each row is written with stride out_step (loop_kind::strided). The
/// vectorized loop an expression compiles per such choice.
template <class Ev, class T, std::size_t Mask, strided_kernel Strided = strided_kernel{}>
void compute_rows(void* evaluator, void* out, index_t j0, index_t len, index_t rows, index_t out_next,
                  [[maybe_unused]] index_t out_step, const first_exception* errors) {
    Ev& ev = *static_cast<Ev*>(evaluator);
    T* to = static_cast<T*>(out);
    if constexpr (Ev::has_math && Strided.reads) {  // a math root reading its argument in place
        ev.write_rows_in_place(to, len, rows, out_next, errors);
    } else if constexpr (Ev::has_math) {  // a chunk through tiles: one row
        ev.prepare(j0, len);
        write_chunk(ev.template chunk_reader<Mask>(), to, len);
    } else {
        const auto reader = ev.template chunk_reader<Mask, Strided.reads>();
        using unit = std::integral_constant<index_t, 1>;
        if constexpr (!Strided.writes) {
            write_rows(reader, to, len, rows, out_next, unit{}, errors);
        } else if constexpr (!Strided.reads) {
            // Never a unit-stride row: operands of stride 1 into one run as loop_kind::rows.
            write_rows(reader, to, len, rows, out_next, out_step, errors);
        } else if (out_step == 1) {
            // Its own loop: stores at a stride the compiler does not know are made one at a time.
            write_rows(reader, to, len, rows, out_next, unit{}, errors);
        } else {
            write_rows(reader, to, len, rows, out_next, out_step, errors);
        }
    }
}

template <class Ev, class T>
void compute_into(void* evaluator, void* out, index_t j0, index_t len, bool streaming, index_t staged) {
    static_cast<Ev*>(evaluator)->write_chunk_into(static_cast<T*>(out), j0, len, streaming, staged);
}

/// The kernels the plan needs: the chunk kernel with the operand plan.constant_leaf - 1
/// held in a register (none when 0), or the strided one. Only the kernels an evaluator with
/// this many leaves can need are compiled: the strided one where its operands or its
/// destination may need it (Strided), and one chunk kernel for a math node.
template <class Ev, class T, std::size_t D, strided_kernel Strided>
expression_kernels kernels_for(const loop_plan<D>& plan) noexcept {
    expression_kernels::into_fn into = nullptr;
    if constexpr (writes_into<Ev, T>) into = &compute_into<Ev, T>;
    if constexpr (Strided.exists())
        if (plan.kind == loop_kind::strided) return {&compute_rows<Ev, T, 0, Strided>, into};
    if constexpr (Ev::has_math) {
        return {&compute_rows<Ev, T, 0>, into};
    } else {
        static constexpr auto rows = []<std::size_t... K>(std::index_sequence<K...>) {
            return std::array<expression_kernels::rows_fn, sizeof...(K)>{
                &compute_rows<Ev, T, (K == 0 ? 0 : std::size_t{1} << (K - 1))>...};
        }(std::make_index_sequence<Ev::leaf_count + 1>{});
        return {rows[plan.kind == loop_kind::rows ? plan.constant_leaf : 0], into};
    }
}

/// Orders streamed lines before whatever the thread does next, also when a user
/// function's exception leaves the loop.
struct fence_when_streaming {
    bool streaming;
    ~fence_when_streaming() {
        if (streaming) stream_fence();
    }
};

/// Whole rows, read in place: the destination and every operand step through rows with
/// stride 1, or 0 for the operand the kernel holds in a register (loop_kind::rows), or each
/// with its own small stride (loop_kind::strided). No tiles. A run of rows is one call: the
/// kernel steps its readers from row to row (rows of 100 cost as much to start as to write).
template <std::size_t D>
void run_rows(const loop_plan<D>& plan, const evaluator_copy<D>& copy, expression_kernels kernels, std::byte* dst,
              std::size_t dst_bytes, index_t begin, index_t end, const first_exception* errors) {
    const std::size_t outer = plan.loop.nd - 1;
    const index_t dst_next = outer > 0 ? plan.dst_strides[outer - 1] : 0, dst_step = plan.dst_strides[outer];
    for (row_runs<D> runs(plan.loop, begin, end); runs.next();) {
        if (errors && errors->stopped()) return;
        const index_t* idx = runs.index().data();
        copy.leaves.place(idx, outer, runs.first());
        std::byte* drow =
            dst + (row_offset(idx, plan.dst_strides, outer) + runs.first() * dst_step) * index_t(dst_bytes);
        kernels.rows(copy.ev, drow, runs.first(), runs.stop() - runs.first(), runs.rows(), dst_next, dst_step, errors);
    }
}

/// Rows of at most this many bytes are staged for a math node at the root: staging copies
/// a row once, which costs less than the kernel call it saves only while the row is short.
inline constexpr index_t max_staged_row_bytes = 256;

/// How many whole rows a math node at the root computes per kernel call: short rows that
/// lie one after another in the destination, each one chunk, fill its argument tiles
/// (periodic_chunk elements); otherwise 1.
template <std::size_t D>
index_t rows_per_kernel_call(const loop_plan<D>& plan, bool math_root, std::size_t element_bytes) noexcept {
    const std::size_t outer = plan.loop.nd - 1;
    const index_t row = plan.loop.extent[outer];
    if (!math_root || outer == 0 || row > plan.chunk || row * index_t(element_bytes) > max_staged_row_bytes ||
        plan.dst_strides[outer] != 1 || plan.dst_strides[outer - 1] != row)
        return 1;
    return periodic_chunk / row;
}

/// Rows in chunks of plan.chunk elements through the leaves' tiles. With plan.streaming (a
/// unit-stride destination only), chunks are computed into a tile and written with
/// streaming stores, which do not read the destination first; a math node at the root
/// writes a unit-stride row itself (kernels.into), and short rows a batch at a time.
template <std::size_t D>
void run_tiles(const loop_plan<D>& plan, const evaluator_copy<D>& copy, expression_kernels kernels, std::byte* dst,
               std::size_t dst_bytes, index_t begin, index_t end, const first_exception* errors) {
    const loop_shape<D>& loop = plan.loop;
    const std::size_t outer = loop.nd - 1;
    const index_t dst_inner = plan.dst_strides[outer], chunk = plan.chunk;
    const index_t fill = std::min(chunk, loop.extent[outer]);  // tile elements one row needs
    const index_t b = index_t(dst_bytes);
    const fence_when_streaming fence{plan.streaming};
    const index_t batch = rows_per_kernel_call(plan, kernels.into != nullptr, dst_bytes);
    const bool placed = copy.leaves.unit_stride_rows(outer);  // staged rows need no begin_row
    alignas(64) std::byte tile[periodic_chunk * 16];          // elements of at most 16 bytes (long double)
    for (row_runs<D> runs(loop, begin, end); runs.next();) {
        shape_t<D> idx = runs.index();
        index_t staged = 0;  // rows staged for the next kernel call
        for (index_t r = 0; r < runs.rows(); ++r) {
            if (r > 0) ++idx[outer - 1];  // rows > 1 only with an outer axis
            if (errors && errors->stopped()) return;
            std::byte* const drow = dst + row_offset(idx.data(), plan.dst_strides, outer) * b;
            if (batch > 1 && runs.rows() > 1) {  // whole short rows, each one chunk: staged
                const bool last = staged + 1 == batch || r + 1 == runs.rows();
                if (placed) {
                    copy.leaves.place(idx.data(), outer, 0);
                } else {
                    copy.leaves.begin_row(idx.data(), outer, fill);
                    copy.leaves.prepare(0, fill);
                }
                kernels.into(copy.ev, last ? drow - staged * fill * b : nullptr, 0, fill, plan.streaming,
                             staged * fill);
                staged = last ? 0 : staged + 1;
                continue;
            }
            copy.leaves.begin_row(idx.data(), outer, fill);
            for (index_t c = runs.first(); c < runs.stop(); c += chunk) {
                if (errors && errors->stopped()) return;
                const index_t len = std::min(chunk, runs.stop() - c);
                copy.leaves.prepare(c, len);
                if (dst_inner == 1 && kernels.into) {
                    kernels.into(copy.ev, drow + c * b, c, len, plan.streaming, 0);
                } else if (dst_inner == 1 && !plan.streaming) {
                    kernels.rows(copy.ev, drow + c * b, c, len, 1, 0, 1, nullptr);
                } else {
                    kernels.rows(copy.ev, tile, c, len, 1, 0, 1, nullptr);
                    if (dst_inner == 1)
                        stream_copy(drow + c * b, tile, std::size_t(len * b));
                    else
                        copy_elements(tile, 1, drow + c * dst_inner * b, dst_inner, len, dst_bytes);
                }
            }
        }
    }
}

/// Runs the plan for the bound evaluator `bound` into the destination at `dst` (elements
/// of `dst_bytes` bytes), on plan.split.threads threads, each with its own copy and tiles
/// (`copies`). Whole rows on one thread need neither: they read the bound evaluator
/// itself, which keeps small assignments cheap; nor does the copy plan, whose threads
/// only read the bound leaf. Out of line, so that it is compiled once
/// per rank rather than inlined into every expression's assign_broadcast.
template <std::size_t D>
[[gnu::noinline]] void run_plan(const loop_plan<D>& plan, const evaluator_copy<D>& bound,
                                const evaluator_copies<D>& copies, expression_kernels kernels, void* dst,
                                std::size_t dst_bytes) {
    std::byte* const to = static_cast<std::byte*>(dst);
    if (plan.kind == loop_kind::copy) {
        // The bound leaf is only read, so the threads share it; each copies a block of the
        // outermost axis with the one copy loop of every rank and type.
        const leaf_cursor<D>& leaf = *bound.leaves.leaves[0];
        const std::size_t nd = plan.loop.nd;
        const index_t outer = plan.loop.extent[0], b = index_t(dst_bytes);
        return parallel_for(outer, plan.split.threads, 1,  // the plan leaves a block per thread
                            [&](index_t begin, index_t end, const first_exception*) {
                                shape_t<D> block = plan.loop.extent;
                                block[0] = end - begin;
                                copy_strided(leaf.base + begin * leaf.steps.stride[0] * b,
                                             {leaf.steps.stride.data(), nd}, to + begin * plan.dst_strides[0] * b,
                                             {plan.dst_strides.data(), nd}, {block.data(), nd}, dst_bytes);
                            });
    }
    const bool in_place = plan.kind == loop_kind::rows || plan.kind == loop_kind::strided;
    if (in_place && plan.split.threads <= 1)
        return run_rows(plan, bound, kernels, to, dst_bytes, 0, plan.total, nullptr);
    parallel_for(plan.total, plan.split.threads, plan.split.granule,
                 [&](index_t begin, index_t end, const first_exception* errors) {
                     copies.one(copies.shared, [&](const evaluator_copy<D>& copy) {
                         if (in_place)
                             run_rows(plan, copy, kernels, to, dst_bytes, begin, end, errors);
                         else
                             run_tiles(plan, copy, kernels, to, dst_bytes, begin, end, errors);
                     });
                 });
}

}  // namespace bsx::detail
