// bsx/fwd.hpp: declarations of what a lower layer names but a higher one defines
// (doc/design.md, "Layout"). Each is used only inside templates, so it is complete
// wherever a user can reach it.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include "config.hpp"

namespace bsx {

/// view/strided_view.hpp; named by the row and col views of view/strided_access.hpp.
template <class T, std::size_t N>
class strided_view;

/// array.hpp: the owning array; named by the evaluator, which reads arrays as contiguous.
template <class T, std::size_t N>
class array;

/// fixed_array.hpp: the array of static extents, an expression like the others.
template <class T, index_t... E>
class fixed_array;

/// masks.hpp: `x(mask)` of view/strided_access.hpp, a masked selection of a view of x.
template <class T, std::size_t N, class HeldMask>
class masked;

/// reduce/reductions.hpp: `bsx::all`, the slice spec of view/slice.hpp that is also the
/// all() reduction.
struct all_t;

namespace detail {

/// eval/assign.hpp: `dest = x` into strided memory, the assignment of views.
template <class T, std::size_t D, class X>
void assign_to(std::string_view operation, T* data, const std::array<index_t, D>& shape,
               const std::array<index_t, D>& strides, X&& x);

}  // namespace detail
}  // namespace bsx
