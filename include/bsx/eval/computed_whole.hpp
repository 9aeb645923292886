// bsx/eval/computed_whole.hpp: the binder of a node that computes its whole result by its
// own code (cumsum, var along an axis) rather than element by element in the fused loop:
// inside a larger expression into a buffer the outer loop reads; assigned alone, straight
// into a contiguous destination of its shape and type.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "../config.hpp"
#include "alias.hpp"
#include "evaluator.hpp"

namespace bsx::detail {

/// Binder of a node E that provides
///   write(value_type* out): its whole result, row-major, into out;
///   reads_memory_in(range): whether it reads memory in the byte range;
///   writes_over_operand(data): whether write(data) is right although it reads data's
///     memory (a scan of exactly that memory, element for element).
struct computed_whole_binder : binder_defaults {
    template <class E, class T, std::size_t D>
    static auto bind(const E& e, const index_map<rank_v<E>, D>& map, const destination<T, D>&) {
        using V = value_type_t<E>;
        auto [result, first] = make_line_aligned_buffer<V>(std::size_t(e.size()));
        e.write(first);
        const auto strides = contiguous_strides(e.shape());
        leaf_evaluator<V, D> ev;
        ev.read(first + offset_through(strides, map), strides_through(strides, map));
        ev.copy = buffer_owner(std::move(result));
        return ev;
    }

    template <class E, class T, std::size_t D>
    static bool can_write_into(const E& e, const T* data, const shape_t<D>& shape, const shape_t<D>& strides) {
        if constexpr (rank_v<E> != D || !std::is_same_v<value_type_t<E>, T>)
            return false;
        else
            return e.shape() == shape && is_contiguous(shape, strides) &&
                   (!e.reads_memory_in(memory_range(data, shape, strides)) || e.writes_over_operand(data));
    }
    template <class E, class T, std::size_t D>
    static void write_into(const E& e, T* data, const shape_t<D>&, const shape_t<D>&) {
        if constexpr (rank_v<E> == D && std::is_same_v<value_type_t<E>, T>) e.write(data);
    }
};

}  // namespace bsx::detail
