// bsx/eval/math_evaluator.hpp: binding a math node (exp, sin, pow, sqrt, ...) of float or
// double result. Per chunk its arguments are evaluated into tiles (or read where they lie,
// when already contiguous) and the function runs on the whole chunk at once through the
// vector kernels (detail/vector_math.hpp); the node's reader then reads the result, so
// every loop that consumes readers gets vector math. At the root of an assignment the
// results go straight into the destination. A kernel that can compute its argument
// itself (sqrt) reads it from the argument's reader, with no tile between, and at the
// root it reads strided rows where they lie (loop_kind::strided).
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "../config.hpp"
#include "../detail/convert.hpp"
#include "../detail/first_exception.hpp"
#include "../detail/vector_math.hpp"
#include "evaluator_protocol.hpp"
#include "loop.hpp"

namespace bsx::detail {

/// Ops whose nodes are computed a block at a time when they produce R.
template <class Op, class R>
concept vector_math_op = requires { typename Op::kernels; } && vmath::vector_element<R>;

/// A reader whose elements lie one after another in memory: load(j) is data()[j] for the
/// chunk just prepared. A math node hands such an argument to its kernel as it is, and
/// a reduction folds bools that lie in memory as their bytes.
template <class Reader, class R>
concept contiguous_reader = requires(const Reader r) {
    { r.data() } -> std::same_as<const R*>;
};

/// A function whose kernel computes its argument itself, a vector at a time, from a
/// callable `at(i)` (vmath::sqrt::run_fused).
template <class Kernels, class R>
concept fusing_kernels = requires(R* out, R (*at)(index_t)) { Kernels::run_fused(out, index_t{}, at, bool{}); };

/// Whether evaluator Ev holds a math node, whose tiles bound the chunk length.
template <class Ev>
inline constexpr bool bounded_chunks = Ev::has_math;

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
    using kernels = typename decltype(Node::op)::kernels;
    static constexpr std::size_t own_bytes = ((Arity + 1) * chunk_limit * sizeof(R) + 63) / 64 * 64;
    static constexpr std::size_t tile_bytes = Node::tile_bytes + own_bytes;
    R* args = nullptr;           // Arity tiles of chunk_limit arguments
    R* result = nullptr;         // and one for the results
    const R* argument[Arity]{};  // where the kernel reads each argument of this chunk

    std::byte* attach_tiles(std::byte* scratch) noexcept {
        args = reinterpret_cast<R*>(scratch);
        result = args + Arity * chunk_limit;
        return Node::attach_tiles(scratch + own_bytes);
    }
    /// Whether evaluating the arguments cannot throw (no user function below that may).
    static constexpr bool arguments_never_throw =
        noexcept(std::declval<Node&>().prepare(0, 0), std::declval<const Node&>().template chunk_reader<0>().load(0));

    void prepare(index_t j0, index_t len) noexcept(arguments_never_throw) {
        load_arguments(j0, len, false, false, 0);
        run_kernel(result, 0, len, false);
    }
    /// At the root of an assignment into a unit-stride row: the function's results go
    /// straight into the destination `out` (elements j0.. of the row), with no result tile
    /// and no copy pass. Streamed, the kernel streams each vector as it is computed, so
    /// the stores drain while the next vectors compute (a chunk computed first and
    /// streamed after takes the sum of both times, not the larger); the elements before
    /// out's first 64-byte boundary take ordinary stores. Splitting the chunk there changes
    /// no bits: an element's value never depends on where in a block it falls.
    /// Short rows that lie one after another in the destination are staged instead, so that
    /// one kernel call serves several rows (per short row, the call would cost more than
    /// its math): with `staged` > 0 or a null `out`, the chunk's arguments are copied into
    /// the tiles after the `staged` elements already there, and with `out` (where the first
    /// staged element goes) the function then runs on all of them. The bits are the same.
    /// Arguments that read the destination itself are copied: the kernel's output must not
    /// overlap its inputs.
    void write_chunk_into(R* out, index_t j0, index_t len, bool streaming,
                          index_t staged) noexcept(arguments_never_throw) {
        const bool in_tiles = staged > 0 || !out;
        load_arguments(j0, len, in_tiles, in_tiles || this->reads_memory_of_destination(), staged);
        if (out) write_results(out, staged + len, streaming, in_tiles);
    }
    /// Whether the kernel can compute the argument itself: a function of one argument whose
    /// kernel can (fusing_kernels), and an argument whose evaluation cannot throw (it runs
    /// in a simd loop).
    static constexpr bool computes_argument = Arity == 1 && arguments_never_throw && fusing_kernels<kernels, R>;
    /// Whether, at the root of an assignment, the node can write unit-stride rows whose
    /// argument it reads where it lies, each with its own small stride (loop_kind::strided,
    /// write_rows_in_place): it computes its argument, which holds no math node.
    static constexpr bool reads_rows_in_place = computes_argument && !Node::has_math;
    /// `rows` rows of `len` results into out, `out_next` elements apart, from the argument
    /// placed at their first elements; gives up between rows once `errors` says so.
    void write_rows_in_place(R* out, index_t len, index_t rows, index_t out_next,
                             const first_exception* errors) const noexcept
        requires reads_rows_in_place
    {
        auto reader = child<0>(this->children).template chunk_reader<0, true>();
        for (index_t r = 0;;) {
            kernels::run_fused(
                out, len, [&](index_t i) { return convert<R>(reader.load(i)); }, false);
            if (++r == rows || (errors && errors->stopped())) return;
            reader.next_row();
            out += out_next;
        }
    }

    struct reader {
        const R* q;
        R load(index_t j) const noexcept { return q[j]; }
        const R* data() const noexcept { return q; }
    };
    template <std::size_t Mask, bool Strided = false>
    reader chunk_reader() const noexcept {
        static_assert(!Strided, "bsx: a math node's results lie in a tile: never read strided");
        return {result};
    }

private:
    /// Whether the kernel computes the argument itself on the tiles' path: it can
    /// (computes_argument), and the argument is not already in memory.
    static constexpr bool fuses_argument = [] {
        if constexpr (computes_argument) {
            using child_reader = decltype(child<0>(std::declval<const Node&>().children).template chunk_reader<0>());
            return !contiguous_reader<child_reader, R>;
        } else {
            return false;
        }
    }();

    // write_chunk passes a user function's exception on to the loop, which hands it to
    // the caller (such readers run without the simd pragma).
    // An argument already in memory of type R (an array's row, a nested math node's
    // results) is read where it is, unless `copy_all`; the others are evaluated into tiles,
    // from element `at` on. A fusing kernel reads its argument through the reader instead
    // (it reads each vector's arguments before it writes them, as any element-wise loop
    // does, so no copy either), unless `in_tiles` (staged rows).
    void load_arguments(index_t j0, index_t len, bool in_tiles, bool copy_all,
                        index_t at) noexcept(arguments_never_throw) {
        Node::prepare(j0, len);
        if (fuses_argument && !in_tiles) return;
        std::size_t k = 0;
        this->visit_children([&](const auto& argument_node) {
            const auto reader = argument_node.template chunk_reader<0>();
            R* tile = args + k * chunk_limit;
            if constexpr (contiguous_reader<decltype(reader), R>) {
                if (!copy_all) {
                    argument[k++] = reader.data();
                    return;
                }
                std::memcpy(tile + at, reader.data(), std::size_t(len) * sizeof(R));  // the widest vectors
            } else {
                write_chunk(reader, tile + at, len);
            }
            argument[k++] = tile;
        });
    }
    /// The function's n results into out, streamed where asked and out is aligned to its
    /// elements; `staged`: the arguments are in the tiles.
    void write_results(R* out, index_t n, bool streaming, bool staged) noexcept {
        const auto address = reinterpret_cast<std::uintptr_t>(out);
        if (!streaming || address % sizeof(R) != 0) return run_kernel(out, 0, n, false, staged);
        const auto misaligned = index_t(address % 64 / sizeof(R));
        const index_t head = misaligned == 0 ? 0 : std::min(n, index_t(64 / sizeof(R)) - misaligned);
        if (head > 0) run_kernel(out, 0, head, false, staged);
        run_kernel(out + head, head, n - head, true, staged);
    }
    /// The function on arguments [from, from + n) into out[0, n); `stream`: out is
    /// 64-byte aligned and written with streaming stores (by the vector kernels; libm's
    /// element-by-element path, without SLEEF, stores plainly). `staged`: the arguments are
    /// in the tiles, also for a fusing kernel.
    void run_kernel(R* out, index_t from, index_t n, bool stream, bool staged = false) noexcept {
        if constexpr (fuses_argument)
            if (!staged) return run_fused_kernel(out, from, n, stream);
        kernels::run(out, n, argument[0] + from, argument[Arity - 1] + from, stream);
    }
    /// The fusing kernel on the argument's elements [from, from + n). Out of line: one copy
    /// of its loop serves every call, where inlined each would hold its own.
    [[gnu::noinline]] void run_fused_kernel(R* out, index_t from, index_t n, bool stream) const noexcept {
        const auto reader = child<0>(this->children).template chunk_reader<0>();
        kernels::run_fused(
            out, n, [&](index_t i) { return convert<R>(reader.load(from + i)); }, stream);
    }
};

#if defined(__clang__)
#pragma clang diagnostic pop
#endif

}  // namespace bsx::detail
