// bsx/dist/npy.hpp: .npy files of distributed arrays. The simplest correct scheme: the
// root rank writes (or reads) the whole file with bsx::save_npy / bsx::load_npy, the rows
// travel by gather (or scatter). A failure on the root is thrown on every rank.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <exception>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "../io/npy.hpp"
#include "array.hpp"
#include "partition.hpp"
#include "scatter_gather.hpp"

namespace bsx::dist {

namespace detail {

/// Runs `work` on `root`; if it throws there, every rank of comm throws std::runtime_error
/// with its message (so no rank waits in a collective the others left).
template <class Work>
void on_root_everywhere(int root, MPI_Comm comm, Work&& work) {
    std::string message;
    if (rank_in(comm) == root) {
        try {
            work();
        } catch (const std::exception& e) {
            message = e.what();
            if (message.empty()) message = "bsx::dist: failed on the root rank";
        }
    }
    int length = int(message.size());
    MPI_Bcast(&length, 1, MPI_INT, root, comm);
    if (length == 0) return;
    message.resize(std::size_t(length));
    MPI_Bcast(message.data(), length, MPI_CHAR, root, comm);
    throw std::runtime_error(message);
}

}  // namespace detail

/// Writes d to `path` as one .npy file (gathered to `root`, which writes it). Collective.
template <class T, std::size_t N>
void save_npy(const std::filesystem::path& path, const array<T, N>& d, int root = 0) {
    const bsx::array<T, N> whole = gather(d, root);
    detail::on_root_everywhere(root, d.comm(), [&] { bsx::save_npy(path, whole); });
}

/// Reads a .npy file on `root` and splits its rows over `comm`. Collective.
template <class T, std::size_t N>
array<T, N> load_npy(const std::filesystem::path& path, int root = 0, MPI_Comm comm = MPI_COMM_WORLD) {
    bsx::array<T, N> whole;
    detail::on_root_everywhere(root, comm, [&] { whole = bsx::load_npy<T, N>(path); });
    return scatter(whole, root, comm);
}

}  // namespace bsx::dist
