// bsx/dist/npy.hpp: .npy files of distributed arrays. Each rank writes (or reads) its own
// rows at their place in one ordinary .npy file, on a file system every rank sees, so no
// rank ever holds more than its rows. A failure on any rank is thrown on every rank.
#pragma once

#include <mpi.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

#include "../detail/refusals.hpp"
#include "../io/npy.hpp"
#include "array.hpp"
#include "partition.hpp"
#include "scatter_gather.hpp"

namespace bsx::dist {

namespace detail {

/// What work() throws, as its message; empty when it returns.
template <class Work>
std::string failure_of(Work&& work) {
    try {
        work();
    } catch (const std::exception& e) {
        const std::string message = e.what();
        return message.empty() ? "bsx::dist: failed" : message;
    }
    return {};
}

/// The string `text` holds on `root`, on every rank. Collective.
inline std::string broadcast_string(std::string text, int root, MPI_Comm comm) {
    int length = int(text.size());
    MPI_Bcast(&length, 1, MPI_INT, root, comm);
    text.resize(std::size_t(length));
    MPI_Bcast(text.data(), length, MPI_CHAR, root, comm);
    return text;
}

/// Throws std::runtime_error on every rank of comm, with the message of the lowest rank
/// whose `message` is not empty; returns on every rank if none is. Collective.
inline void throw_if_any_failed(const std::string& message, MPI_Comm comm) {
    const int ranks = size_of(comm);
    int first = message.empty() ? ranks : rank_in(comm);
    MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
    if (first == ranks) return;
    throw std::runtime_error(broadcast_string(message, first, comm));
}

}  // namespace detail

/// Writes d to `path` as one .npy file, the same bytes as bsx::save_npy of the whole array:
/// `root` creates a temporary file of the final size with the header, every rank writes its
/// rows at their offset, and `root` renames the file into place. Collective.
template <class T, std::size_t N>
void save_npy(const std::filesystem::path& path, const array<T, N>& d, int root = 0) {
    static_assert(bsx::detail::npy_element<T>, BSX_REFUSAL_NPY_DTYPE(message));
    const MPI_Comm comm = d.comm();
    const bool on_root = detail::rank_in(comm) == root;
    const std::string head = bsx::detail::npy_header_bytes<T>(d.shape());
    const std::uint64_t row_bytes = std::uint64_t(detail::row_elements(d.shape())) * sizeof(T);
    const std::filesystem::path tmp =
        detail::broadcast_string(on_root ? bsx::detail::temporary_sibling(path).string() : std::string(), root, comm);
    const auto fail = [&](const std::string& what) { bsx::detail::npy_fail("save_npy", path, what); };
    const auto remove_on_failure = [&](const std::string& message) {
        try {
            detail::throw_if_any_failed(message, comm);
        } catch (...) {
            std::error_code ignored;
            if (on_root) std::filesystem::remove(tmp, ignored);
            throw;
        }
    };

    remove_on_failure(on_root ? detail::failure_of([&] {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) fail(std::string("cannot create a temporary file next to it: ") + std::strerror(errno));
        out.write(head.data(), static_cast<std::streamsize>(head.size()));
        out.close();
        if (!out) fail("writing failed (disk full?)");
        std::error_code ec;
        std::filesystem::resize_file(tmp, head.size() + std::uint64_t(d.shape()[0]) * row_bytes, ec);
        if (ec) fail("cannot size the temporary file: " + ec.message());
    })
                              : std::string());
    remove_on_failure(detail::failure_of([&] {
        if (d.local().size() == 0) return;
        std::fstream out(tmp, std::ios::binary | std::ios::in | std::ios::out);
        if (!out) fail(std::string("cannot open the temporary file next to it: ") + std::strerror(errno));
        out.seekp(static_cast<std::streamoff>(head.size() + std::uint64_t(d.offset()) * row_bytes));
        bsx::detail::write_npy_elements(out, d.local().data(), static_cast<std::size_t>(d.local().size()));
        out.close();
        if (!out) fail("writing rows from " + std::to_string(d.offset()) + " failed (disk full?)");
    }));
    remove_on_failure(on_root ? detail::failure_of([&] {
        std::error_code ec;
        std::filesystem::rename(tmp, path, ec);
        if (ec) fail("cannot rename the temporary file into place: " + ec.message());
    })
                              : std::string());
}

/// Reads a .npy file (as bsx::load_npy does) into an array split over `comm`: every rank
/// checks the header and reads its own rows. A Fortran-order file, whose rows are not
/// contiguous, is read on `root` and scattered. Collective.
template <class T, std::size_t N>
array<T, N> load_npy(const std::filesystem::path& path, int root = 0, MPI_Comm comm = MPI_COMM_WORLD) {
    static_assert(bsx::detail::npy_element<T>, BSX_REFUSAL_NPY_DTYPE(message));
    const auto fail = [&](const std::string& what) { bsx::detail::npy_fail("load_npy", path, what); };
    std::ifstream in;
    bsx::detail::npy_layout<N> layout;
    detail::throw_if_any_failed(
        detail::failure_of([&] { layout = bsx::detail::read_npy_layout<T, N>(in, path, fail); }), comm);
    // Every rank must have read the same header (one file, seen alike from every node).
    shape_t<N> root_shape = layout.stored;
    MPI_Bcast(root_shape.data(), int(N * sizeof(index_t)), MPI_BYTE, root, comm);
    detail::throw_if_any_failed(root_shape == layout.stored
                                    ? std::string()
                                    : "bsx: load_npy: " + path.string() + ": rank " +
                                          std::to_string(detail::rank_in(comm)) + " reads the shape " +
                                          format_shape(layout.stored) + ", the root " + format_shape(root_shape),
                                comm);
    if constexpr (N > 1) {
        if (layout.fortran_order) {
            bsx::array<T, N> whole;
            detail::throw_if_any_failed(detail::rank_in(comm) == root
                                            ? detail::failure_of([&] { whole = bsx::load_npy<T, N>(path); })
                                            : std::string(),
                                        comm);
            return scatter(whole, root, comm);
        }
    }
    array<T, N> out(layout.stored, comm);
    const std::uint64_t first = std::uint64_t(out.offset()) * std::uint64_t(detail::row_elements(layout.stored));
    detail::throw_if_any_failed(detail::failure_of([&] {
                                    in.seekg(static_cast<std::streamoff>(layout.data_start + first * sizeof(T)));
                                    bsx::detail::read_npy_elements(in, out.local().data(),
                                                                   std::uint64_t(out.local().size()), layout.swap,
                                                                   first, fail);
                                }),
                                comm);
    return out;
}

}  // namespace bsx::dist
