// bsx/dist/reductions.hpp: bsx::sum, prod, mean, min, max, all and any of distributed
// expressions (through the customization point bsx_reduce), whole or along an axis, with
// the same bits as the single-process reductions for any number of ranks and threads. Along
// an axis other than 0 each output is one row's: each rank reduces its rows (and gathers the
// outputs if an ordinary array is wanted). Along axis 0, and over all elements of
// distributed arrays combined element-wise, the ranks compute the chunk partials of the
// single-process tree and combine them as it does. Other whole reductions (a broadcast
// operand, a row or a column) run the single-process reduction on the gathered operands.
// Also bsx::dist::sum and its kin, which evaluate into ordinary arrays.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../eval/reduce.hpp"
#include "../factories.hpp"
#include "../reduce/reduce_ops.hpp"
#include "../reduce/reductions.hpp"
#include "agree.hpp"
#include "array.hpp"
#include "assign.hpp"
#include "partition.hpp"
#include "scatter_gather.hpp"
#include "tree.hpp"

namespace bsx::dist {

namespace detail {

/// Makes each distributed leaf whole on every rank: arrays and columns all-gathered, rows
/// broadcast. Replicated operands stay as they are.
struct whole_policy {
    template <class X>
    const X& replicated(const X& x, std::size_t) const noexcept {
        return x;
    }
    template <class T, std::size_t N>
    auto leaf(const array<T, N>& a, std::size_t) const {
        return all_gather<T>([&] { return a.local().data(); }, a.shape(), a.comm());
    }
    template <class T>
    auto leaf(const col_view<T>& c, std::size_t) const {
        bsx::array<T, 2> column;
        return all_gather<T>(
            [&] {
                column = bsx::array<T, 2>(local_column(c));
                return column.data();
            },
            c.shape(), c.source().comm());
    }
    template <class T>
    auto leaf(const row_view<T>& v, std::size_t) const {
        return fetch_row(v);
    }
    template <class Op, class Held, bool KeepDims>
    auto reduction(const reduce_node<Op, Held, KeepDims>& e, std::size_t) const {
        return whole_result(e);
    }
};

/// Op, its result left unfinished (mean not yet divided): a chunk's partial. The pass
/// through the identity that the reduction adds changes no later combination (only a sum
/// of -0.0 becomes +0.0, which every block's partial becomes anyway).
template <class Op>
struct chunk_partial : Op {
    template <class A>
    static constexpr A finish(A acc, index_t) noexcept {
        return acc;
    }
};

/// Room for the chunk that straddles two ranks' blocks, kept between calls: touching fresh
/// pages cost more than reducing the chunk.
template <class V>
V* straddling_scratch(index_t size) {
    thread_local bsx::array<V, 1> scratch;
    if (scratch.size() < size) scratch = bsx::array<V, 1>(shape_t<1>{size});
    return scratch.data();
}

/// Rows [offset, offset + rows) intersected with [first, first + count), as a length.
inline index_t overlap(index_t offset, index_t rows, index_t first, index_t count) noexcept {
    return std::max<index_t>(0, std::min(offset + rows, first + count) - std::max(offset, first));
}

/// The unfinished results of reduction Op along the lines of a distributed block of
/// values, with the single-process tree: per output, blocks of the fixed plan for the line
/// count, chunks of BSX_CHUNK lines from each block's start, combined pairwise within a block
/// and by halving across blocks. The values are `rows` rows split over comm, `scale` lines
/// of `width` outputs each per row, this rank's at values() (called first, inside the
/// agreement on the first step's failure: it may evaluate them): along axis 0, a line is a
/// row (scale 1); over all elements, a line is one element (scale = elements per row, width
/// 1). Each chunk is reduced by the rank that holds its first line (the lines of a chunk that
/// straddles two ranks' blocks are sent to it first); only chunk partials are gathered.
/// Returns the `width` results.
template <class Op, class A, class Values>
bsx::array<A, 1> combine_chunks(Values&& values, index_t rows, index_t scale, index_t width, MPI_Comm comm) {
    using V = std::remove_const_t<std::remove_pointer_t<decltype(values())>>;
    const index_t lines = rows * scale;
    const int ranks = size_of(comm), me = rank_in(comm);
    const auto P = std::size_t(ranks);
    const auto lines_of = [&](int r) {
        const row_block b = block_of(rows, ranks, r);
        return row_block{b.offset * scale, b.rows * scale};
    };
    const row_block block = lines_of(me);
    const index_t block_end = block.offset + block.rows;
    const bsx::detail::block_plan plan(lines);

    // Everything this rank computes and allocates before it communicates, in one step whose
    // failure the ranks agree on. The chunks of the plan, in order, and the rows each rank
    // reduces: whole chunks. A rank's span starts inside its block and may end past it,
    // inside the chunk that straddles into the next ranks' blocks: only the rows of such
    // chunks move. They arrive after this rank's own rows: `tail`, rows [end of block, end
    // of span).
    const V* held = nullptr;
    std::vector<index_t> chunk_start, first_chunk;
    std::size_t chunks = 0;
    std::vector<int> send_counts, send_at, recv_counts, recv_at, counts, at;
    bsx::array<V, 1> tail;  // bsx::array: vector<bool> has no data()
    bsx::array<A, 1> own_partials, partials, stream_slots, scratch, total;
    agree(comm, [&] {
        held = values();
        for (auto* v : {&send_counts, &send_at, &recv_counts, &recv_at, &counts, &at}) v->assign(P, 0);
        for (index_t b = 0; b < plan.count; ++b)
            for (index_t c = plan.begin(b, lines); c < plan.begin(b + 1, lines); c += BSX_CHUNK)
                chunk_start.push_back(c);
        chunks = chunk_start.size();
        chunk_start.push_back(lines);
        first_chunk.assign(P + 1, index_t(chunks));
        for (std::size_t c = chunks; c-- > 0;)
            first_chunk[std::size_t(owner_of(rows, ranks, chunk_start[c] / scale))] = index_t(c);
        for (int r = ranks; r-- > 0;)
            first_chunk[std::size_t(r)] = std::min(first_chunk[std::size_t(r)], first_chunk[std::size_t(r) + 1]);
        const auto span_of = [&](int r) {  // the lines rank r reduces
            const index_t lo = chunk_start[std::size_t(first_chunk[std::size_t(r)])];
            return row_block{lo, chunk_start[std::size_t(first_chunk[std::size_t(r) + 1])] - lo};
        };
        const row_block own_span = span_of(me);
        for (int r = 0; r < ranks; ++r) {
            const auto u = std::size_t(r);
            counts[u] = message_bytes((first_chunk[u + 1] - first_chunk[u]) * width, sizeof(A));
            at[u] = message_bytes(first_chunk[u] * width, sizeof(A));
            if (r == me) continue;
            const row_block to = span_of(r), from = lines_of(r);
            const index_t out_rows = overlap(block.offset, block.rows, to.offset, to.rows);
            const index_t in_rows = overlap(from.offset, from.rows, own_span.offset, own_span.rows);
            send_counts[u] = message_bytes(out_rows * width, sizeof(V));
            send_at[u] = out_rows == 0
                             ? 0
                             : message_bytes((std::max(to.offset, block.offset) - block.offset) * width, sizeof(V));
            recv_counts[u] = message_bytes(in_rows * width, sizeof(V));
            recv_at[u] = in_rows == 0 ? 0 : message_bytes((from.offset - block_end) * width, sizeof(V));
        }
        tail = bsx::array<V, 1>(shape_t<1>{std::max<index_t>(0, own_span.offset + own_span.rows - block_end) * width});
        own_partials =
            bsx::array<A, 1>(shape_t<1>{(first_chunk[std::size_t(me) + 1] - first_chunk[std::size_t(me)]) * width});
        partials = bsx::array<A, 1>(shape_t<1>{index_t(chunks) * width});
        stream_slots = bsx::array<A, 1>(shape_t<1>{plan.stream_slots() * width});
        scratch = bsx::array<A, 1>(shape_t<1>{plan.halving_slots() * width});
        total = bsx::array<A, 1>(shape_t<1>{width});
    });
    for (int r = 0; r < ranks; ++r)
        traffic += std::uint64_t(send_counts[std::size_t(r)]) + std::uint64_t(recv_counts[std::size_t(r)]);
    MPI_Alltoallv(held, send_counts.data(), send_at.data(), MPI_BYTE, tail.data(), recv_counts.data(), recv_at.data(),
                  MPI_BYTE, comm);

    // This rank's chunk partials, one per output, then everyone's in chunk order. A chunk
    // alone is one chunk of one block to the single-process reduction, which reduces it
    // with the same lanes, tiles of outputs at a time (unfinished: see chunk_partial).
    const auto own_chunks = std::size_t(first_chunk[std::size_t(me) + 1] - first_chunk[std::size_t(me)]);
    agree(comm, [&] {
        for (std::size_t c = 0; c < own_chunks;) {
            const std::size_t g = std::size_t(first_chunk[std::size_t(me)]) + c;
            const index_t start = chunk_start[g], length = chunk_start[g + 1] - start;
            const V* first = held + (start - block.offset) * width;
            A* out = own_partials.data() + index_t(c) * width;
            if (start + length > block_end) {  // the last chunk: this rank's rows, then the tail
                V* joined = straddling_scratch<V>(length * width);
                std::copy_n(first, (block_end - start) * width, joined);
                std::copy_n(tail.data(), tail.size(), joined + (block_end - start) * width);
                first = joined;
            } else if (width == 1 && length == BSX_CHUNK) {
                // Single elements: a run of full chunks is one reduction along the rows of an
                // (n, BSX_CHUNK) view, each row one chunk of one block, as above.
                std::size_t n = 1;
                while (c + n < own_chunks && chunk_start[g + n + 1] - chunk_start[g + n] == BSX_CHUNK &&
                       chunk_start[g + n + 1] <= block_end)
                    ++n;
                const strided_view<const V, 2> run(first, {index_t(n), BSX_CHUNK}, {BSX_CHUNK, 1});
                bsx::detail::reduce_expression<chunk_partial<Op>>(run, 1, out, false);
                c += n;
                continue;
            }
            const strided_view<const V, 2> chunk(first, {length, width}, {width, 1});
            bsx::detail::reduce_expression<chunk_partial<Op>>(chunk, 0, out, false);
            ++c;
        }
    });
    MPI_Allgatherv(own_partials.data(), counts[std::size_t(me)], MPI_BYTE, partials.data(), counts.data(), at.data(),
                   MPI_BYTE, comm);
    traffic += std::uint64_t(partials.size()) * sizeof(A);

    // The single-process tree above the chunks (chunk c starts at c * BSX_CHUNK: blocks are
    // whole chunks long).
    bsx::detail::combine_chunks<Op, A>(
        plan, lines, width, total.data(), stream_slots.data(), scratch.data(),
        [&](index_t c0, index_t, A*) { return static_cast<const A*>(partials.data() + c0 / BSX_CHUNK * width); });
    return total;
}

/// This rank's rows of x (an expression split along axis 0 over comm): a distributed
/// array's own block, else evaluated.
template <class X>
struct local_values {
    using V = value_type_t<X>;
    static constexpr std::size_t N = rank_v<X>;
    std::optional<bsx::array<V, N>> evaluated;
    const V* data = nullptr;
    local_values(const X& x, MPI_Comm comm) {
        if constexpr (std::is_same_v<X, array<V, N>>) {
            data = x.local().data();
        } else {
            evaluated.emplace(bsx::detail::unwrap(restrict_to_rows(x, x.shape(), comm)));
            data = evaluated->data();
        }
    }
};

/// The reduction Op of x along axis 0 into out, on every rank, with the single-process tree.
template <class Op, class X>
void reduce_rows_by_chunks(const X& x, MPI_Comm comm, bsx::detail::reduced_t<Op, X>* out) {
    using A = bsx::detail::reduced_t<Op, X>;
    const auto shape = x.shape();
    const index_t width = row_elements(shape);
    std::optional<local_values<X>> mine;
    const auto total = combine_chunks<Op, A>([&] { return mine.emplace(x, comm).data; }, shape[0], 1, width, comm);
    for (index_t j = 0; j < width; ++j) out[j] = Op::finish(total.data()[j], shape[0]);
}

/// Whether a whole reduction of E, evaluated on one process, reads one contiguous loop row
/// (then its tree is the axis-0 tree of the flattened elements): E is a distributed array,
/// or element-wise nodes over distributed arrays and scalars (their shapes are checked
/// when reducing: a broadcast operand breaks the row).
template <class E>
constexpr bool flat_elementwise() noexcept {
    using X = std::remove_cvref_t<E>;
    if constexpr (is_map_node<X>::value || is_rules_tagged<X>::value)
        return every_child<X>([]<class C>() { return flat_elementwise<C>(); });
    else
        return (is_distributed_leaf<X>::value && !is_line_view<X>::value) || is_scalar_node<X>::value;
}

/// Reduction Op of x, an expression that reads distributed arrays, along `axis` (rank_v<X>:
/// all of it) into out, the same values on every rank; as reduce_expression (`direct`: out
/// is the destination of an assignment, which x may read), and with its bits.
template <class Op, class X>
void reduce_distributed(const X& x, std::size_t axis, bsx::detail::reduced_t<Op, X>* out, bool direct) {
    constexpr std::size_t N = rank_v<X>;
    using A = bsx::detail::reduced_t<Op, X>;
    const MPI_Comm comm = *communicator_of(x);
    // The ranks must be asked the same reduction of operands of the same shapes.
    agree(comm, Op::name,
          signature_of(std::string(Op::name) + (axis == N ? " of all elements" : " along axis " + std::to_string(axis)),
                       x),
          [] {});
    if (axis == N) {
        if constexpr (flat_elementwise<X>()) {
            bool flat = x.size() > 0;
            for_each_distributed_leaf(x, [&](const auto& leaf) { flat &= leaf.shape() == x.shape(); });
            if (flat) {
                std::optional<local_values<X>> mine;
                const auto total = combine_chunks<Op, A>([&] { return mine.emplace(x, comm).data; }, x.shape()[0],
                                                         row_elements(x.shape()), index_t(1), comm);
                *out = Op::finish(total.data()[0], x.size());
                return;
            }
        }
    } else if constexpr (N > 0) {
        if (split_along_rows(x) && x.shape()[0] > 0) {
            if (axis == 0) {
                reduce_rows_by_chunks<Op>(x, comm, out);
                return;
            }
            // Each output reads one global row: reduce this rank's rows, then gather the outputs.
            const auto shape = x.shape();
            index_t per_row = 1;
            for (std::size_t d = 1; d < N; ++d)
                if (d != axis) per_row *= shape[d];
            bsx::array<A, 1> mine;
            agree(comm, [&] {
                const row_block block = block_of(shape[0], size_of(comm), rank_in(comm));
                mine = bsx::array<A, 1>(shape_t<1>{block.rows * per_row});
                const auto local = restrict_to_rows(x, shape, comm);
                bsx::detail::reduce_expression<Op>(bsx::detail::unwrap(local), axis, mine.data(), false);
            });
            all_gather_rows(mine.data(), shape[0], per_row, comm, out);
            return;
        }
    }
    // Anything else: every rank reduces the whole expression.
    agree(comm, [&] {
        const auto whole = rewrite(x, whole_policy{}, no_axis);
        bsx::detail::reduce_expression<Op>(bsx::detail::unwrap(whole), axis, out, direct);
    });
}

}  // namespace detail

/// bsx::sum, bsx::prod, ... of an expression that reads distributed arrays: found by
/// argument-dependent lookup (reduce/custom_reduction.hpp) for the whole expression and
/// for a lazy reduction along an axis when it is evaluated. Expressions that read none
/// never reach it.
template <class Op, expression X>
    requires(detail::reads_distributed<X>())
void bsx_reduce(Op, const X& x, std::size_t axis, bsx::detail::reduced_t<Op, X>* out, bool direct) {
    if constexpr (detail::check_rewritable<X>()) detail::reduce_distributed<Op>(x, axis, out, direct);
}

namespace detail {

using dist::bsx_reduce;  // found from expressions whose only distributed leaves are rows or columns

/// bsx::dist::sum and its kin: f(x) is bsx::sum(x); f(x, bsx::axis(k)) evaluates
/// bsx::sum(x, bsx::axis(k)) into an ordinary array on every rank.
template <class Op>
struct reduction {
    template <expression X>
    auto operator()(const X& x) const {
        return bsx::detail::reduction_function<Op>{}(x);
    }
    template <expression X>
    auto operator()(const X& x, axis_t a) const {
        return bsx::eval(bsx::detail::reduction_function<Op>{}(x, a));
    }
};

}  // namespace detail

inline constexpr detail::reduction<ops::sum_reduction> sum{};
inline constexpr detail::reduction<ops::prod_reduction> prod{};
inline constexpr detail::reduction<ops::min_reduction> min{};
inline constexpr detail::reduction<ops::max_reduction> max{};
inline constexpr detail::reduction<ops::mean_reduction> mean{};
inline constexpr detail::reduction<ops::all_reduction> all{};
inline constexpr detail::reduction<ops::any_reduction> any{};

}  // namespace bsx::dist
