// bsx/detail/convert.hpp: the one conversion between element types that bsx applies
// (bsx::cast, storing into a destination of another type, filling). Defined for every
// input: C++ leaves a floating value outside an integer type's range, and NaN, undefined.
#pragma once

#include <limits>
#include <type_traits>

namespace bsx::detail {

/// static_cast, except that a floating value converted to an integer type saturates to
/// the type's minimum or maximum, and NaN gives 0 (Rust's `as`; NumPy's result there is
/// unspecified). Written as selects so that a loop of conversions still vectorizes.
template <class To, class From>
constexpr To convert(From x) noexcept {
    if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To> && !std::is_same_v<To, bool>) {
        using limits = std::numeric_limits<To>;
        // max + 1 = 2^digits and min (0 or -2^digits) are exact in any floating type.
        constexpr From above_max = From(2) * From(limits::max() / 2 + 1);
        constexpr From min = From(limits::min());
        const To inside = (x > min && x < above_max) ? static_cast<To>(x) : To(0);
        return x != x ? To(0) : x >= above_max ? limits::max() : x <= min ? limits::min() : inside;
    } else {
        return static_cast<To>(x);
    }
}

}  // namespace bsx::detail
