// bsx/config.hpp: the index type and the tuning knobs every other header shares.
// Override a knob by defining it before the first bsx include.
#pragma once

#include <cstddef>

namespace bsx {

/// Signed type of every index, extent and stride (counted in elements, not bytes).
using index_t = std::ptrdiff_t;

}  // namespace bsx

/// Assignments with at least this many elements run as an OpenMP parallel loop.
/// Below it, starting threads costs more than the work.
#ifndef BSX_PARALLEL_THRESHOLD
#define BSX_PARALLEL_THRESHOLD 32768
#endif

/// Destinations of at least this many bytes that the expression does not read are
/// written with streaming stores (no read of each cache line before it is overwritten).
/// Below it the result may well be read again soon from the cache, so ordinary stores pay.
/// Left undefined, it is chosen at run time from the cache the system reports
/// (detail::streaming_threshold in eval/loop_plan.hpp).

/// Elements per inner-loop chunk. Broadcast and strided operands are staged
/// through stack tiles of this length so that the inner loop reads unit-stride
/// memory and vectorizes (small strides are read and written in place: loop_kind::strided).
#ifndef BSX_CHUNK
#define BSX_CHUNK 256
#endif

/// Bytes per thread that a reduction along a non-innermost axis keeps its partial results
/// in (every lane, chunk and block partial of a tile of adjacent outputs): the widest tile
/// whose partials fit is reduced at once. Whole rows of up to a few thousand doubles fit.
/// A thread keeps the partials a tile needs on its stack where they fit with 32 KiB to
/// spare, else in one heap block per reduction (threads with small stacks).
/// (Such a reduction also keeps four copies of its operand's tiles on the stack: 4.5 KiB
/// per array of doubles in the operand, 8 to 12 more per math function of doubles.)
#ifndef BSX_REDUCTION_SCRATCH
#define BSX_REDUCTION_SCRATCH (512 * 1024)
#endif

/// Marks a loop whose iterations are independent, so it vectorizes without run-time
/// alias checks: OpenMP's `simd` when compiling with OpenMP, GCC's own hint otherwise
/// (so builds without OpenMP get no unknown-pragma warnings).
/// BSX_SIMD_LOOP_4_LANES asks GCC with OpenMP for vectors of four elements where its wider
/// ones would move data between their 128-bit halves at every step (as it widens 32-bit
/// products); clang does that well at full width.
#if defined(_OPENMP) && defined(__clang__)
#define BSX_SIMD_LOOP _Pragma("omp simd")
#define BSX_SIMD_LOOP_4_LANES _Pragma("omp simd")
#elif defined(_OPENMP)
#define BSX_SIMD_LOOP _Pragma("omp simd")
#define BSX_SIMD_LOOP_4_LANES _Pragma("omp simd simdlen(4)")
#elif defined(__clang__)
#define BSX_SIMD_LOOP  // clang vectorizes these loops unasked; forcing it only adds warnings
#define BSX_SIMD_LOOP_4_LANES
#elif defined(__GNUC__)
#define BSX_SIMD_LOOP _Pragma("GCC ivdep")
#define BSX_SIMD_LOOP_4_LANES _Pragma("GCC ivdep")
#else
#define BSX_SIMD_LOOP
#define BSX_SIMD_LOOP_4_LANES
#endif
