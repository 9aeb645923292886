// bsx/eval/kernels.hpp: the code an assignment compiles per expression, and nothing else:
// a whole-row kernel per operand that may be held in a register, and one kernel that runs
// rows in chunks through tiles. Each walks a range of the plan's loop nest on one thread;
// run_plan hands the range to the threads (eval/parallel.hpp), which is compiled once.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <utility>

#include "../config.hpp"
#include "../detail/first_exception.hpp"
#include "../detail/streaming_store.hpp"
#include "loop.hpp"
#include "loop_plan.hpp"
#include "parallel.hpp"

namespace bsx::detail {

/// A kernel: walks flattened elements [begin, end) of the plan's nest for the evaluator
/// `ev` into the destination `dst`, giving up once `errors` (another thread's failure;
/// null when serial) says so. Erased to plain pointers, so that run_plan is one function
/// per rank, not per expression.
template <std::size_t D>
using kernel_t = void (*)(const void* ev, void* dst, const loop_plan<D>& plan, index_t begin, index_t end,
                          const first_exception* errors);

/// Whole rows: the destination and every operand step through rows with stride 1, or 0
/// for the operands whose bit is set in Mask, each read once per row into a register. No
/// tiles. A run of rows steps the readers' pointers from row to row (next_row) instead of
/// finding each row's start again: rows of 100 cost as much to start as to write.
template <std::size_t Mask, class Ev, class T, std::size_t D>
void run_rows(const void* shared, void* dst_memory, const loop_plan<D>& plan, index_t begin, index_t end,
              const first_exception* errors) {
    const Ev& ev = *static_cast<const Ev*>(shared);
    T* const dst = static_cast<T*>(dst_memory);
    const std::size_t outer = plan.loop.nd - 1;
    const index_t dst_next = outer > 0 ? plan.dst_strides[outer - 1] : 0;
    for (row_runs<D> runs(plan.loop, begin, end); runs.next();) {
        auto reader = ev.template row_reader<Mask>(runs.index().data(), outer, runs.first());
        T* drow = dst + row_offset(runs.index().data(), plan.dst_strides, outer) + runs.first();
        const index_t len = runs.stop() - runs.first();
        for (index_t r = 0;;) {
            if (errors && errors->stopped()) return;
            write_chunk(reader, drow, len);
            if (++r == runs.rows()) break;
            reader.next_row();
            drow += dst_next;
        }
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

/// Rows in chunks of plan.chunk elements through the evaluator's tiles (its own copy on
/// this thread, tiles in this stack frame). With plan.streaming (a unit-stride
/// destination only), chunks are computed into a tile and written with streaming stores,
/// which do not read the destination first. A math node at the root writes a unit-stride
/// row itself (writes_into).
template <class Ev, class T, std::size_t D>
void run_tiles(const void* shared, void* dst_memory, const loop_plan<D>& plan, index_t begin, index_t end,
               const first_exception* errors) {
    T* const dst = static_cast<T*>(dst_memory);
    const loop_shape<D>& loop = plan.loop;
    const std::size_t outer = loop.nd - 1;
    const index_t dst_inner = plan.dst_strides[outer], chunk = plan.chunk;
    const index_t fill = std::min(chunk, loop.extent[outer]);  // tile elements one row needs
    const fence_when_streaming fence{plan.streaming};
    Ev ev = *static_cast<const Ev*>(shared);
    alignas(64) std::byte scratch[Ev::tile_bytes > 0 ? Ev::tile_bytes : 1];
    ev.attach_tiles(scratch);
    alignas(64) T tile[periodic_chunk];
    for (row_runs<D> runs(loop, begin, end); runs.next();) {
        shape_t<D> idx = runs.index();
        for (index_t r = 0; r < runs.rows(); ++r) {
            if (r > 0) ++idx[outer - 1];  // rows > 1 only with an outer axis
            if (errors && errors->stopped()) return;
            ev.begin_row(idx.data(), outer, fill);
            T* const drow = dst + row_offset(idx.data(), plan.dst_strides, outer);
            for (index_t c = runs.first(); c < runs.stop(); c += chunk) {
                if (errors && errors->stopped()) return;
                const index_t len = std::min(chunk, runs.stop() - c);
                if constexpr (writes_into<Ev, T>) {
                    if (dst_inner == 1) {
                        ev.write_chunk_into(drow + c, c, len, plan.streaming);
                        continue;
                    }
                }
                ev.prepare(c, len);
                if (dst_inner == 1 && !plan.streaming) {
                    run_chunk(ev.chunk_reader(), drow + c, len);
                } else {
                    run_chunk(ev.chunk_reader(), tile, len);
                    if (dst_inner == 1)
                        stream_copy(drow + c, tile, std::size_t(len) * sizeof(T));
                    else
                        scatter_strided(tile, drow + c * dst_inner, dst_inner, len);
                }
            }
        }
    }
}

/// The kernel the plan asks for: run_tiles, or run_rows with the operand
/// plan.constant_leaf - 1 held in a register (none when 0). Only the kernels an evaluator
/// with this many leaves can need are compiled.
template <class Ev, class T, std::size_t D>
kernel_t<D> kernel_for(const loop_plan<D>& plan) noexcept {
    if (plan.kind != loop_kind::rows) return &run_tiles<Ev, T, D>;
    static constexpr auto rows = []<std::size_t... K>(std::index_sequence<K...>) {
        return std::array<kernel_t<D>, sizeof...(K)>{
            &run_rows<(K == 0 ? 0 : std::size_t{1} << (K - 1)), Ev, T, D>...};
    }(std::make_index_sequence<Ev::leaf_count + 1>{});
    return rows[plan.constant_leaf];
}

/// Runs `kernel` over the whole plan, on plan.split.threads threads.
template <std::size_t D>
void run_plan(const loop_plan<D>& plan, kernel_t<D> kernel, const void* ev, void* dst) {
    parallel_for(plan.total, plan.split.threads, plan.split.granule,
                 [&](index_t begin, index_t end, const first_exception* errors) {
                     kernel(ev, dst, plan, begin, end, errors);
                 });
}

}  // namespace bsx::detail
