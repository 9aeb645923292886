// bsx/shape/broadcast_dims.hpp: XLA broadcast dimensions ("InDim" broadcasting). An
// operand of rank r is placed in a rank-R result with its axis i on result axis
// dims[i] and extent 1 elsewhere; the dims must be one per axis, in range and
// strictly increasing, and a broken rule is reported as a bsx::broadcast_error.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "broadcast_error.hpp"
#include "shape.hpp"

namespace bsx::detail {

/// Result axis of each operand axis: what valid broadcast dimensions describe.
template <std::size_t N>
using placement_t = std::array<std::size_t, N>;

inline std::string format_dims(std::span<const index_t> dims) {
    std::string out = "{";
    for (std::size_t i = 0; i < dims.size(); ++i) out += (i ? ", " : "") + std::to_string(dims[i]);
    return out + "}";
}

/// Checks `dims` for an operand of shape `s` placed at rank R (`operation` names the
/// caller in the message) and returns the placement.
template <std::size_t R, std::size_t N>
placement_t<N> placement_from_dims(std::string_view operation, const shape_t<N>& s, std::span<const index_t> dims) {
    static_assert(N <= R, "bsx: broadcast dimensions place an operand at a rank no lower than its own");
    const auto fail = [&](const std::string& why) {
        throw broadcast_error("bsx: " + std::string(operation) + ": broadcast dimensions " + format_dims(dims) +
                              " for an operand of shape " + format_shape(s) + " at rank " + std::to_string(R) +
                              " are invalid under xla rules: " + why);
    };
    if (dims.size() != N)
        fail("there must be one dimension per operand axis (" + std::to_string(N) + "), not " +
             std::to_string(dims.size()));
    placement_t<N> at{};
    for (std::size_t i = 0; i < N; ++i) {
        const std::string entry = "dims[" + std::to_string(i) + "] = " + std::to_string(dims[i]);
        if (dims[i] < 0 || dims[i] >= index_t(R))
            fail(entry + " is out of range: each dimension must lie in [0, " + std::to_string(R) + ")");
        if (i > 0 && dims[i] <= dims[i - 1])
            fail(entry + " does not exceed dims[" + std::to_string(i - 1) + "] = " + std::to_string(dims[i - 1]) +
                 ": dimensions must be strictly increasing");
        at[i] = std::size_t(dims[i]);
    }
    return at;
}

/// The operand's shape at rank R: its extents on the placed axes, 1 elsewhere.
template <std::size_t R, std::size_t N>
shape_t<R> placed_shape(const shape_t<N>& s, const placement_t<N>& at) noexcept {
    shape_t<R> out;
    out.fill(1);
    for (std::size_t k = 0; k < N; ++k) out[at[k]] = s[k];
    return out;
}

}  // namespace bsx::detail
