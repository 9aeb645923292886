// bsx/expr/scalar.hpp: a plain number as a rank-0 expression leaf, so scalars
// mix with arrays on either side of every operation.
#pragma once

#include <cstddef>

#include <boost/hana/tuple.hpp>

#include "../detail/refusals.hpp"
#include "../shape/shape.hpp"
#include "node.hpp"

namespace bsx {

template <class T>
struct scalar : node_base<scalar<T>> {
    using value_type = T;
    using rules_tag = void;
    static constexpr std::size_t rank = 0;
    static constexpr shape_t<0> static_extents{};

    T value;

    constexpr scalar(T v) noexcept : value(v) {
        static_assert(detail::expression_node<scalar>, BSX_REFUSAL_NODE_PROTOCOL(message));
    }

    static constexpr shape_t<0> shape() noexcept { return {}; }
    constexpr T element(const shape_t<0>&) const noexcept { return value; }
    static boost::hana::tuple<> children() noexcept { return {}; }
};

}  // namespace bsx
