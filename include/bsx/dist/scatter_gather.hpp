// bsx/dist/scatter_gather.hpp: moving whole arrays between one rank and a distributed
// array (scatter, gather), and the all-gather that gives every rank the whole array.
#pragma once

#include <mpi.h>

#include <cstddef>

#include "../array.hpp"
#include "array.hpp"
#include "partition.hpp"

namespace bsx::dist {

/// A distributed array over `comm` made from `global`, read on `root` only (other ranks'
/// argument is ignored, an empty array will do). Collective: every rank of comm calls it.
template <class T, std::size_t N>
array<T, N> scatter(const bsx::array<T, N>& global, int root = 0, MPI_Comm comm = MPI_COMM_WORLD) {
    shape_t<N> shape = global.shape();
    MPI_Bcast(shape.data(), int(N * sizeof(index_t)), MPI_BYTE, root, comm);
    array<T, N> out(shape, comm);
    const int ranks = detail::size_of(comm), me = detail::rank_in(comm);
    const detail::row_layout layout(shape[0], detail::row_elements(shape), sizeof(T), ranks);
    MPI_Scatterv(global.data(), layout.counts.data(), layout.displacements.data(), MPI_BYTE, out.local().data(),
                 layout.counts[std::size_t(me)], MPI_BYTE, root, comm);
    detail::traffic += std::uint64_t(me == root ? layout.total() : 0) + std::uint64_t(layout.counts[std::size_t(me)]);
    return out;
}

/// The whole of `d` on `root`; an empty array (shape all 0) on the other ranks. Collective.
template <class T, std::size_t N>
bsx::array<T, N> gather(const array<T, N>& d, int root = 0) {
    const int ranks = detail::size_of(d.comm()), me = detail::rank_in(d.comm());
    bsx::array<T, N> out(me == root ? d.shape() : shape_t<N>{});
    const detail::row_layout layout(d.shape()[0], detail::row_elements(d.shape()), sizeof(T), ranks);
    MPI_Gatherv(d.local().data(), layout.counts[std::size_t(me)], MPI_BYTE, out.data(), layout.counts.data(),
                layout.displacements.data(), MPI_BYTE, root, d.comm());
    detail::traffic += std::uint64_t(me == root ? layout.total() : 0) + std::uint64_t(layout.counts[std::size_t(me)]);
    return out;
}

namespace detail {

/// All `global_rows` rows of `row_elements` elements into `out` on every rank of `comm`,
/// from each rank's block of them at `local` (contiguous).
template <class T>
void all_gather_rows(const T* local, index_t global_rows, index_t row_elements, MPI_Comm comm, T* out) {
    const int ranks = size_of(comm), me = rank_in(comm);
    const row_layout layout(global_rows, row_elements, sizeof(T), ranks);
    MPI_Allgatherv(local, layout.counts[std::size_t(me)], MPI_BYTE, out, layout.counts.data(),
                   layout.displacements.data(), MPI_BYTE, comm);
    traffic += layout.total();
}

/// The whole array on every rank of `comm`, from each rank's rows `local` (contiguous,
/// this rank's block of `global_shape`).
template <class T, std::size_t N>
bsx::array<T, N> all_gather(const bsx::array<T, N>& local, const shape_t<N>& global_shape, MPI_Comm comm) {
    bsx::array<T, N> out(global_shape);
    all_gather_rows(local.data(), global_shape[0], row_elements(global_shape), comm, out.data());
    return out;
}

}  // namespace detail
}  // namespace bsx::dist
