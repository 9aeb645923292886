// bsx/dist/factories.hpp: zeros, ones and full for distributed arrays, as bsx's own
// factories make ordinary ones. No communication.
#pragma once

#include <mpi.h>

#include <concepts>
#include <cstddef>

#include "array.hpp"

namespace bsx::dist {

/// Every element `value`; rows split over `comm`.
template <class T, std::size_t N>
array<T, N> full(const shape_t<N>& shape, const T& value, MPI_Comm comm = MPI_COMM_WORLD) {
    return array<T, N>(shape, value, comm);
}

/// Zeros of the given global extents, rows split over MPI_COMM_WORLD.
template <class T, std::integral... I>
array<T, sizeof...(I)> zeros(I... extents) {
    return full(bsx::detail::integer_extents("dist::zeros", extents...), T(0));
}

/// Ones of the given global extents, rows split over MPI_COMM_WORLD.
template <class T, std::integral... I>
array<T, sizeof...(I)> ones(I... extents) {
    return full(bsx::detail::integer_extents("dist::ones", extents...), T(1));
}

}  // namespace bsx::dist
