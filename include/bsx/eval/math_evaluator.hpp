// bsx/eval/math_evaluator.hpp: binding a math node (exp, sin, pow, sqrt, ...) of float or
// double result. Per chunk its arguments are evaluated into tiles and the function runs on
// the whole chunk at once through the vector kernels (detail/vector_math.hpp); the node's
// reader then reads the result, so every loop that consumes readers gets vector math.
#pragma once

#include <cstddef>
#include <type_traits>

#include <boost/hana/for_each.hpp>

#include "../config.hpp"
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
    void prepare(index_t j0, index_t len) noexcept {
        Node::prepare(j0, len);
        R* arg = args;
        boost::hana::for_each(this->children, [&](const auto& child) {
            const auto reader = child.chunk_reader();
            BSX_SIMD_LOOP
            for (index_t j = 0; j < len; ++j) arg[j] = static_cast<R>(reader.load(j));
            arg += chunk_limit;
        });
        decltype(Node::op)::kernels::run(result, len, args, args + (Arity - 1) * chunk_limit);
    }

    struct reader {
        const R* q;
        R load(index_t j) const noexcept { return q[j]; }
    };
    reader chunk_reader() const noexcept { return {result}; }
};

#if defined(__clang__)
#pragma clang diagnostic pop
#endif

}  // namespace bsx::detail
