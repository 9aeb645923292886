// bsx/eval/evaluator_protocol.hpp: what the kernels and the reduction traversals ask of a
// bound node (an evaluator), as a concept; evaluator_defaults, the base that supplies what
// a kind without leaves, tiles or math node need not write; a thread's copies of an
// evaluator as the loops compiled once per rank see them; and the child list that inner
// nodes keep their children's evaluators and readers in.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <utility>

#include "../config.hpp"
#include "leaf_cursor.hpp"
#include "loop.hpp"
#include "parallel.hpp"

namespace bsx::detail {

/// The evaluator protocol, for a destination index space of rank D:
/// - `leaf_count`: the memory leaves below (numbered left to right), `tile_bytes`: the
///   scratch its tiles take, `has_math`: whether a math node below bounds the chunk;
/// - `attach_tiles(scratch)`: takes its tiles from scratch, returns what is left;
/// - `collect_leaves(out)`: writes a pointer to each leaf's leaf_cursor, returns the end;
///   the loops move the cursors (eval/leaf_cursor.hpp);
/// - `prepare(j0, len)`: once the cursors expose elements [j0, j0 + len), computes what
///   the tree's math nodes make of them;
/// - `chunk_reader<Mask>()`: a reader of the chunk the cursors expose, whose `load(j)`
///   reads its element j, the leaves whose bit is set in Mask being read once (their value
///   at q) and held; `next_row()` steps it to the same element of the next row. Kinds that
///   can be read in place also give `chunk_reader<0, true>()`, whose leaves read element j
///   at j times the stride their cursor was placed with (loop_kind::strided);
/// - `reads_memory_of_destination()`: whether a leaf reads the destination's memory itself.
template <class Ev, std::size_t D>
concept evaluator =
    std::copy_constructible<Ev> && requires(Ev& ev, const Ev& cev, std::byte* scratch, leaf_cursor<D>** leaves) {
        { Ev::leaf_count } -> std::convertible_to<std::size_t>;
        { Ev::tile_bytes } -> std::convertible_to<std::size_t>;
        { Ev::has_math } -> std::convertible_to<bool>;
        { ev.attach_tiles(scratch) } -> std::same_as<std::byte*>;
        { ev.collect_leaves(leaves) } -> std::same_as<leaf_cursor<D>**>;
        ev.prepare(index_t{}, index_t{});
        cev.template chunk_reader<0>().load(index_t{});
        { cev.reads_memory_of_destination() } -> std::same_as<bool>;
    };

/// The protocol's defaults: no leaves, no tiles, no math node, nothing to prepare, and no
/// memory read.
struct evaluator_defaults {
    static constexpr std::size_t leaf_count = 0;
    static constexpr std::size_t tile_bytes = 0;
    static constexpr bool has_math = false;
    std::byte* attach_tiles(std::byte* scratch) noexcept { return scratch; }
    template <class P>
    P* collect_leaves(P* out) noexcept {
        return out;
    }
    void prepare(index_t, index_t) noexcept {}
    bool reads_memory_of_destination() const noexcept { return false; }
};

/// This thread's copy of a bound evaluator, with its tiles, erased for the loops that are
/// compiled once per rank: the copy and its leaves.
template <std::size_t D>
struct evaluator_copy {
    void* ev;
    leaf_set<D> leaves;
};

/// A bound evaluator as code compiled once per rank (or per reduction) rather than per
/// expression sees it: copies for the running thread, one or four, each with its tiles in
/// the stack frame of one() or four(), handed to `body`.
template <std::size_t D>
struct evaluator_copies {
    const void* shared;
    void (*one)(const void* shared, function_ref<void(const evaluator_copy<D>& copy)> body);
    void (*four)(const void* shared, function_ref<void(const evaluator_copy<D>* copies)> body);

    /// One copy per thread (assignments, a reduction's inner traversal): four() is null.
    template <class Ev>
    static evaluator_copies of(const Ev& ev) noexcept {
        return {&ev, &copies<Ev, 1>, nullptr};
    }
    /// One or four (a reduction, whose outer traversal reads four rows at a time).
    template <class Ev>
    static evaluator_copies for_reduction(const Ev& ev) noexcept {
        return {&ev, &copies<Ev, 1>, &copies<Ev, 4>};
    }

private:
    template <class Ev, std::size_t N, class Body>
    static void copies(const void* shared, Body body) {
        auto own = [&]<std::size_t... I>(std::index_sequence<I...>) {
            return std::array<Ev, N>{((void)I, *static_cast<const Ev*>(shared))...};
        }(std::make_index_sequence<N>{});
        alignas(64) std::byte scratch[N][Ev::tile_bytes > 0 ? Ev::tile_bytes : 1];
        leaf_cursor<D>* leaves[N][Ev::leaf_count > 0 ? Ev::leaf_count : 1];
        std::array<evaluator_copy<D>, N> erased;
        for (std::size_t i = 0; i < N; ++i) {
            own[i].attach_tiles(scratch[i]);
            own[i].collect_leaves(leaves[i]);
            erased[i] = {&own[i], {leaves[i], Ev::leaf_count}};
        }
        if constexpr (N == 1)
            body(erased[0]);
        else
            body(erased.data());
    }
};

/// The children of an evaluator node or reader, each at its position I: members reached
/// by index in pack expansions, so that walking them instantiates no lambda.
template <std::size_t I, class C>
struct child_at {
    C value;
};
template <class Indices, class... C>
struct child_list;
template <std::size_t... I, class... C>
struct child_list<std::index_sequence<I...>, C...> : child_at<I, C>... {};

template <std::size_t I, class C>
C& child(child_at<I, C>& c) noexcept {
    return c.value;
}
template <std::size_t I, class C>
const C& child(const child_at<I, C>& c) noexcept {
    return c.value;
}

}  // namespace bsx::detail
