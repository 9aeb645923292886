// bsx/dist/partition.hpp: how the rows of a distributed array split over the ranks of a
// communicator (near-equal blocks, a function of the row count and the rank count alone),
// and the small MPI helpers every collective of bsx::dist shares.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "../shape/shape.hpp"

namespace bsx::dist {

namespace detail {

/// Bytes this process has sent or received through bsx::dist's collectives (payload only).
inline std::atomic<std::uint64_t> traffic{0};

}  // namespace detail

/// Bytes of array data this process has moved through bsx::dist's collectives so far
/// (each collective counts the bytes this rank sends plus those it receives).
inline std::uint64_t bytes_communicated() noexcept { return detail::traffic.load(std::memory_order_relaxed); }

namespace detail {

/// The rows a rank holds: global rows [offset, offset + rows).
struct row_block {
    index_t offset = 0;
    index_t rows = 0;
};

/// Rank r's block when `global` rows split over `ranks`: the first global % ranks blocks
/// are one row longer than the others.
inline row_block block_of(index_t global, int ranks, int r) noexcept {
    const index_t base = global / ranks, extra = global % ranks;
    return {r * base + std::min<index_t>(r, extra), base + (r < extra ? 1 : 0)};
}

/// The rank whose block holds global row k (0 <= k < global).
inline int owner_of(index_t global, int ranks, index_t k) noexcept {
    const index_t base = global / ranks, extra = global % ranks;
    const index_t long_rows = extra * (base + 1);
    return int(k < long_rows ? k / (base + 1) : extra + (k - long_rows) / base);
}

inline int rank_in(MPI_Comm comm) {
    int r = 0;
    MPI_Comm_rank(comm, &r);
    return r;
}
inline int size_of(MPI_Comm comm) {
    int p = 0;
    MPI_Comm_size(comm, &p);
    return p;
}

/// MPI_IDENT only: the same group in the same order is not enough, for a collective on
/// one communicator does not match one on another.
inline bool same_communicator(MPI_Comm a, MPI_Comm b) {
    int result = MPI_UNEQUAL;
    MPI_Comm_compare(a, b, &result);
    return result == MPI_IDENT;
}

/// The byte count of `count` elements of `element_bytes`, as MPI's int counts take it.
inline int message_bytes(index_t count, std::size_t element_bytes) {
    const auto bytes = std::uint64_t(count) * element_bytes;
    if (bytes > std::uint64_t(INT_MAX))
        throw std::length_error("bsx::dist: a message of " + std::to_string(bytes) +
                                " bytes exceeds MPI's int count (use more ranks)");
    return int(bytes);
}

/// Per rank, the byte count and displacement of its rows, `row_elements` elements of
/// `element_bytes` each: the arguments of the v-collectives (Scatterv, Gatherv, ...).
struct row_layout {
    std::vector<int> counts, displacements;
    row_layout(index_t global_rows, index_t row_elements, std::size_t element_bytes, int ranks)
        : counts(std::size_t(ranks)), displacements(std::size_t(ranks)) {
        for (int r = 0; r < ranks; ++r) {
            const row_block b = block_of(global_rows, ranks, r);
            counts[std::size_t(r)] = message_bytes(b.rows * row_elements, element_bytes);
            displacements[std::size_t(r)] = message_bytes(b.offset * row_elements, element_bytes);
        }
    }
    std::uint64_t total() const noexcept {
        std::uint64_t sum = 0;
        for (const int c : counts) sum += std::uint64_t(c);
        return sum;
    }
};

/// Elements per row: the product of the extents after axis 0.
template <std::size_t N>
index_t row_elements(const shape_t<N>& shape) noexcept {
    index_t n = 1;
    for (std::size_t d = 1; d < N; ++d) n *= shape[d];
    return n;
}

}  // namespace detail
}  // namespace bsx::dist
