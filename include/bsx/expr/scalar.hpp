// bsx/expr/scalar.hpp: a plain number as a rank-0 expression leaf, so scalars
// mix with arrays on either side of every operation.
#pragma once

#include <cstddef>

#include "../shape/shape.hpp"

namespace bsx {

template <class T>
struct scalar {
    using bsx_expression_tag = void;
    using value_type = T;
    static constexpr std::size_t rank = 0;

    T value;

    static constexpr shape_t<0> shape() noexcept { return {}; }
    static constexpr index_t size() noexcept { return 1; }
    constexpr T element(const shape_t<0>&) const noexcept { return value; }
    constexpr T operator()() const noexcept { return value; }
};

}  // namespace bsx
