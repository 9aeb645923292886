// bsx/dist/npy.hpp: .npy files of distributed arrays. Each rank writes (or reads) its own
// rows at their place in one ordinary .npy file, on a file system every rank sees, so no
// rank ever holds more than its rows. A failure on any rank is thrown on every rank (agree).
#pragma once

#include <mpi.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

#include "../detail/refusals.hpp"
#include "../io/npy.hpp"
#include "agree.hpp"
#include "array.hpp"
#include "partition.hpp"
#include "scatter_gather.hpp"

namespace bsx::dist {

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
    const auto fail = [&](const std::string& what) { bsx::detail::throw_file_error("save_npy", path, what); };
    std::string name;  // of the temporary file, chosen by the root
    detail::agree(comm, "save_npy",
                  "save_npy of distributed " + format_shape(d.shape()) + " through rank " + std::to_string(root), [&] {
                      if (on_root) name = bsx::detail::temporary_sibling(path).string();
                  });
    const std::filesystem::path tmp = detail::broadcast_string(name, root, comm);
    // Each step on every rank; a failure anywhere removes the temporary file.
    const auto step = [&](auto&& work) {
        try {
            detail::agree(comm, work);
        } catch (...) {
            std::error_code ignored;
            if (on_root) std::filesystem::remove(tmp, ignored);
            throw;
        }
    };
    step([&] {
        if (!on_root) return;
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) fail(std::string("cannot create a temporary file next to it: ") + std::strerror(errno));
        out.write(head.data(), static_cast<std::streamsize>(head.size()));
        out.close();
        if (!out) fail("writing failed (disk full?)");
        std::error_code ec;
        std::filesystem::resize_file(tmp, head.size() + std::uint64_t(d.shape()[0]) * row_bytes, ec);
        if (ec) fail("cannot size the temporary file: " + ec.message());
    });
    step([&] {
        if (d.local().size() == 0) return;
        std::fstream out(tmp, std::ios::binary | std::ios::in | std::ios::out);
        if (!out) fail(std::string("cannot open the temporary file next to it: ") + std::strerror(errno));
        out.seekp(static_cast<std::streamoff>(head.size() + std::uint64_t(d.offset()) * row_bytes));
        bsx::detail::write_npy_elements(out, d.local().data(), static_cast<std::size_t>(d.local().size()));
        out.close();
        if (!out) fail("writing rows from " + std::to_string(d.offset()) + " failed (disk full?)");
    });
    step([&] {
        if (!on_root) return;
        std::error_code ec;
        std::filesystem::rename(tmp, path, ec);
        if (ec) fail("cannot rename the temporary file into place: " + ec.message());
    });
}

/// Reads a .npy file (as bsx::load_npy does) into an array split over `comm`: every rank
/// checks the header and reads its own rows. A Fortran-order file, whose rows are not
/// contiguous, is read on `root` and scattered. Collective.
template <class T, std::size_t N>
array<T, N> load_npy(const std::filesystem::path& path, int root = 0, MPI_Comm comm = MPI_COMM_WORLD) {
    static_assert(bsx::detail::npy_element<T>, BSX_REFUSAL_NPY_DTYPE(message));
    const auto fail = [&](const std::string& what) { bsx::detail::throw_file_error("load_npy", path, what); };
    std::ifstream in;
    bsx::detail::npy_layout<N> layout;
    detail::agree(comm, "load_npy", "load_npy through rank " + std::to_string(root),
                  [&] { layout = bsx::detail::read_npy_layout<T, N>(in, path, fail); });
    // Every rank must have read the same header (one file, seen alike from every node).
    shape_t<N> root_shape = layout.stored;
    MPI_Bcast(root_shape.data(), int(N * sizeof(index_t)), MPI_BYTE, root, comm);
    std::optional<array<T, N>> out;
    detail::agree(comm, [&] {
        if (root_shape != layout.stored)
            fail("rank " + std::to_string(detail::rank_in(comm)) + " reads the shape " + format_shape(layout.stored) +
                 ", the root " + format_shape(root_shape));
        if (N < 2 || !layout.fortran_order) out.emplace(layout.stored, comm);
    });
    if constexpr (N > 1) {
        if (layout.fortran_order) {
            bsx::array<T, N> whole;
            detail::agree(comm, [&] {
                if (detail::rank_in(comm) == root) whole = bsx::load_npy<T, N>(path);
            });
            return scatter(whole, root, comm);
        }
    }
    const std::uint64_t first = std::uint64_t(out->offset()) * std::uint64_t(detail::row_elements(layout.stored));
    detail::agree(comm, [&] {
        in.seekg(static_cast<std::streamoff>(layout.data_start + first * sizeof(T)));
        bsx::detail::read_npy_elements(in, out->local().data(), std::uint64_t(out->local().size()), layout.swap, first,
                                       fail);
    });
    return std::move(*out);
}

}  // namespace bsx::dist
