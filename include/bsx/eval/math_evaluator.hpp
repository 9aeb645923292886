// bsx/eval/math_evaluator.hpp: binding a math node (exp, sin, pow, sqrt, ...) of float or
// double result. Per chunk its arguments are evaluated into tiles and the function runs on
// the whole chunk at once through the vector kernels (detail/vector_math.hpp); the node's
// reader then reads the result, so every loop that consumes readers gets vector math. At
// the root of an assignment the results go straight into the destination.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <boost/hana/for_each.hpp>

#include "../config.hpp"
#include "../detail/streaming_store.hpp"
#include "../detail/vector_math.hpp"
#include "loop.hpp"

namespace bsx::detail {

/// Ops whose nodes are computed a block at a time when they produce R.
template <class Op, class R>
concept vector_math_op = requires { typename Op::kernels; } && vmath::vector_element<R>;

/// Whether evaluator Ev holds a math node, whose tiles bound the chunk length.
template <class Ev>
inline constexpr bool bounded_chunks = [] {
    if constexpr (requires { Ev::has_math; })
        return Ev::has_math;
    else
        return false;
}();

#if defined(__clang__)
// As in loop.hpp: a loop the compiler cannot vectorize for some element type is not a
// warning about the user's code.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpass-failed"
#endif

/// `Node` (the node's ordinary evaluator: children, rows, steps) with its chunks computed
/// up front. Chunks are at most `chunk_limit` long: the tiles have that length.
template <class Node, class R, std::size_t Arity>
struct math_evaluator : Node {
    static constexpr index_t chunk_limit = periodic_chunk;
    static constexpr bool has_math = true;
    static constexpr std::size_t own_bytes = ((Arity + 1) * chunk_limit * sizeof(R) + 63) / 64 * 64;
    static constexpr std::size_t tile_bytes = Node::tile_bytes + own_bytes;
    R* args = nullptr;    // Arity tiles of chunk_limit arguments
    R* result = nullptr;  // and one for the results

    std::byte* attach_tiles(std::byte* scratch) noexcept {
        args = reinterpret_cast<R*>(scratch);
        result = args + Arity * chunk_limit;
        return Node::attach_tiles(scratch + own_bytes);
    }
    /// Whether evaluating the arguments cannot throw (no user function below that may).
    static constexpr bool arguments_never_throw =
        noexcept(std::declval<Node&>().prepare(0, 0), std::declval<const Node&>().chunk_reader().load(0));

    void prepare(index_t j0, index_t len) noexcept(arguments_never_throw) {
        load_arguments(j0, len);
        run_kernel(result, 0, len);
    }
    /// At the root of an assignment into a unit-stride row: the function's results go
    /// straight into the destination `out` (elements j0.. of the row), with no result tile
    /// and no copy pass. Streamed, sub-blocks are computed and streamed in turn, so that
    /// the streaming stores drain while the next sub-block computes (a whole chunk computed
    /// first and streamed after takes the sum of both times, not the larger). Sub-blocks
    /// end where the destination's address is a multiple of 64 elements, so that each
    /// streams whole cache lines; they may start anywhere, since an element's value never
    /// depends on where in a block it falls (vector_math.hpp).
    void write_chunk_into(R* out, index_t j0, index_t len, bool streaming) noexcept(arguments_never_throw) {
        load_arguments(j0, len);
        if (!streaming) return run_kernel(out, 0, len);
        constexpr index_t sub_block = 64;
        for (index_t s = 0, n = 0; s < len; s += n) {
            const auto at = index_t(reinterpret_cast<std::uintptr_t>(out + s) / sizeof(R) % sub_block);
            n = std::min(sub_block - at, len - s);
            run_kernel(result + s, s, n);
            stream_copy(out + s, result + s, std::size_t(n) * sizeof(R));
        }
    }

    struct reader {
        const R* q;
        R load(index_t j) const noexcept { return q[j]; }
    };
    reader chunk_reader() const noexcept { return {result}; }

private:
    // write_chunk passes a user function's exception on to the loop, which hands it to
    // the caller (such readers run without the simd pragma).
    void load_arguments(index_t j0, index_t len) noexcept(arguments_never_throw) {
        Node::prepare(j0, len);
        R* arg = args;
        boost::hana::for_each(this->children, [&](const auto& child) {
            write_chunk(child.chunk_reader(), arg, len);
            arg += chunk_limit;
        });
    }
    /// The function on arguments [from, from + n) of the tiles, into out[0, n).
    void run_kernel(R* out, index_t from, index_t n) noexcept {
        decltype(Node::op)::kernels::run(out, n, args + from, args + (Arity - 1) * chunk_limit + from);
    }
};

#if defined(__clang__)
#pragma clang diagnostic pop
#endif

}  // namespace bsx::detail
