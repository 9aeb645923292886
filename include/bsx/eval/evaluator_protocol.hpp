// bsx/eval/evaluator_protocol.hpp: what the kernels and the reduction traversals ask of a
// bound node (an evaluator), as a concept; evaluator_defaults, the base that supplies what
// a kind without leaves, tiles or math node need not write; and the child list that inner
// nodes keep their children's evaluators and readers in.
#pragma once

#include <concepts>
#include <cstddef>
#include <utility>

#include "../config.hpp"
#include "loop.hpp"

namespace bsx::detail {

/// The evaluator protocol, for a destination index space of rank D:
/// - `leaf_count`: the memory leaves below (numbered left to right), `tile_bytes`: the
///   scratch its tiles take, `has_math`: whether a math node below bounds the chunk;
/// - `attach_tiles(scratch)`: takes its tiles from scratch, returns what is left;
/// - `collect_steps(out)`: writes a pointer to each leaf's operand_steps, returns the end;
/// - `begin_row(idx, outer, fill)`, then per chunk `prepare(j0, len)`: make the chunk
///   readable through `chunk_reader()`, whose `load(j)` reads its element j;
/// - `row_reader<Mask>(idx, outer, j)`: a reader of a row in place, the leaves whose bit is
///   set in Mask being constant along it; `next_row()` steps it to the next row;
/// - `reads_memory_of_destination()`: whether a leaf reads the destination's memory itself.
template <class Ev, std::size_t D>
concept evaluator = std::copy_constructible<Ev> && requires(Ev& ev, const Ev& cev, std::byte* scratch, const index_t* idx,
                                                  operand_steps<D>** steps) {
    { Ev::leaf_count } -> std::convertible_to<std::size_t>;
    { Ev::tile_bytes } -> std::convertible_to<std::size_t>;
    { Ev::has_math } -> std::convertible_to<bool>;
    { ev.attach_tiles(scratch) } -> std::same_as<std::byte*>;
    { ev.collect_steps(steps) } -> std::same_as<operand_steps<D>**>;
    ev.begin_row(idx, std::size_t{}, index_t{});
    ev.prepare(index_t{}, index_t{});
    cev.chunk_reader().load(index_t{});
    cev.template row_reader<0>(idx, std::size_t{}, index_t{}).load(index_t{});
    { cev.reads_memory_of_destination() } -> std::same_as<bool>;
};

/// The protocol's defaults: no leaves, no tiles, no math node, nothing to do per row or
/// chunk, and no memory read.
struct evaluator_defaults {
    static constexpr std::size_t leaf_count = 0;
    static constexpr std::size_t tile_bytes = 0;
    static constexpr bool has_math = false;
    std::byte* attach_tiles(std::byte* scratch) noexcept { return scratch; }
    template <class P>
    P* collect_steps(P* out) noexcept {
        return out;
    }
    void begin_row(const index_t*, std::size_t, index_t) noexcept {}
    void prepare(index_t, index_t) noexcept {}
    bool reads_memory_of_destination() const noexcept { return false; }
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
