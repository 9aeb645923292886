// bsx/dist/scatter_gather.hpp: moving whole arrays between one rank and a distributed
// array (scatter, gather), and the all-gather that gives every rank the whole array.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "../array.hpp"
#include "agree.hpp"
#include "array.hpp"
#include "partition.hpp"

namespace bsx::dist {

/// A distributed array over `comm` made from `global`, read on `root` only (other ranks'
/// argument is ignored, an empty array will do). Collective: every rank of comm calls it.
template <class T, std::size_t N>
array<T, N> scatter(const bsx::array<T, N>& global, int root = 0, MPI_Comm comm = MPI_COMM_WORLD) {
    detail::agree(comm, "scatter", "scatter from rank " + std::to_string(root), [] {});
    shape_t<N> shape = global.shape();
    MPI_Bcast(shape.data(), int(N * sizeof(index_t)), MPI_BYTE, root, comm);
    const int ranks = detail::size_of(comm), me = detail::rank_in(comm);
    std::optional<array<T, N>> out;
    std::optional<detail::row_layout> layout;
    detail::agree(comm, [&] {
        out.emplace(shape, comm);
        layout.emplace(shape[0], detail::row_elements(shape), sizeof(T), ranks);
    });
    MPI_Scatterv(global.data(), layout->counts.data(), layout->displacements.data(), MPI_BYTE, out->local().data(),
                 layout->counts[std::size_t(me)], MPI_BYTE, root, comm);
    detail::traffic += std::uint64_t(me == root ? layout->total() : 0) + std::uint64_t(layout->counts[std::size_t(me)]);
    return std::move(*out);
}

/// The whole of `d` on `root`; an empty array (shape all 0) on the other ranks. Collective.
template <class T, std::size_t N>
bsx::array<T, N> gather(const array<T, N>& d, int root = 0) {
    const int ranks = detail::size_of(d.comm()), me = detail::rank_in(d.comm());
    bsx::array<T, N> out;
    std::optional<detail::row_layout> layout;
    detail::agree(d.comm(), "gather",
                  "gather to rank " + std::to_string(root) + " of distributed " + format_shape(d.shape()), [&] {
                      if (me == root) out = bsx::array<T, N>(d.shape());
                      layout.emplace(d.shape()[0], detail::row_elements(d.shape()), sizeof(T), ranks);
                  });
    MPI_Gatherv(d.local().data(), layout->counts[std::size_t(me)], MPI_BYTE, out.data(), layout->counts.data(),
                layout->displacements.data(), MPI_BYTE, root, d.comm());
    detail::traffic += std::uint64_t(me == root ? layout->total() : 0) + std::uint64_t(layout->counts[std::size_t(me)]);
    return out;
}

namespace detail {

/// All `global_rows` rows of `row_elements` elements into `out` on every rank of `comm`,
/// from each rank's block of them at `local` (contiguous). Call it right after an agreement
/// (agree.hpp); the counts it computes throw alike on every rank, if at all.
template <class T>
void all_gather_rows(const T* local, index_t global_rows, index_t row_elements, MPI_Comm comm, T* out) {
    const int ranks = size_of(comm), me = rank_in(comm);
    const row_layout layout(global_rows, row_elements, sizeof(T), ranks);
    MPI_Allgatherv(local, layout.counts[std::size_t(me)], MPI_BYTE, out, layout.counts.data(),
                   layout.displacements.data(), MPI_BYTE, comm);
    traffic += layout.total();
}

/// The whole array on every rank of `comm`, from each rank's rows at local() (contiguous,
/// this rank's block of `global_shape`), which is called in the step the ranks agree on.
template <class T, std::size_t N, class Local>
bsx::array<T, N> all_gather(Local&& local, const shape_t<N>& global_shape, MPI_Comm comm) {
    bsx::array<T, N> out;
    const T* mine = nullptr;
    agree(comm, [&] {
        mine = local();
        out = bsx::array<T, N>(global_shape);
    });
    all_gather_rows(mine, global_shape[0], row_elements(global_shape), comm, out.data());
    return out;
}

}  // namespace detail
}  // namespace bsx::dist
