// bsx/view/reshape.hpp: reshape, broadcast_to and adapt: views that give memory or a
// lazy expression a new shape (same elements, new extents; stride-0 broadcast), and
// views of caller-owned buffers.
#pragma once

#include <array>
#include <cstddef>
#include <cstdlib>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "../detail/message.hpp"
#include "../expr/expression.hpp"
#include "../expr/index_map.hpp"
#include "../shape/rules.hpp"
#include "remap.hpp"
#include "strided_view.hpp"

namespace bsx {

namespace detail {

/// reshape's error: `from` cannot take the shape `to`, because `why`, or, with no reason
/// given, because their element counts differ. Out of line and cold, as every throw path:
/// each reshape would otherwise compile its own string arithmetic.
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_cannot_reshape(std::span<const index_t> from,
                                                                        std::span<const index_t> to,
                                                                        std::string_view why = {}) {
    message text;
    text << "bsx: reshape: cannot reshape shape " << shape_text{from} << " to " << shape_text{to} << ": ";
    if (why.empty()) {  // both shapes were checked: their counts do not overflow
        const auto count = [](std::span<const index_t> s) {
            index_t n = 1;
            for (const index_t e : s) n *= e;
            return n;
        };
        text << count(from) << " elements cannot take " << count(to);
    } else {
        text << why;
    }
    throw std::invalid_argument(text.c_str());
}

/// How a lazy reshape from `in` to `out` (same element count) reads its operand, when
/// it only splits axes (and adds or drops extent-1 ones): each operand axis of extent
/// n > 1 is then a run of result axes whose extents multiply to n, and its index a
/// weighted sum of theirs. Merging axes would need a division per element: empty result.
template <std::size_t N, std::size_t M>
std::optional<index_map<N, M>> split_map(const shape_t<N>& in, const shape_t<M>& out) {
    index_map<N, M> map;
    if (shape_size(out) == 0) return map;  // nothing is ever read
    std::size_t j = 0;
    for (std::size_t k = 0; k < N; ++k) {
        if (in[k] == 1) continue;
        index_t covered = 1;
        const std::size_t run = j;
        while (covered < in[k] && j < M) covered *= out[j++];
        if (covered != in[k]) return std::nullopt;
        for (std::size_t d = j, weight = 1; d-- > run; weight *= std::size_t(out[d])) map.step[k][d] = index_t(weight);
    }
    return map;
}

}  // namespace detail

/// The same elements in row-major order under a new shape. One extent may be -1
/// (inferred, as NumPy). Memory must be contiguous. A lazy expression stays lazy when
/// the new shape only splits its axes ((6,) to (2,3), (2,6) to (2,2,3)) or adds and drops
/// axes of extent 1; merging axes ((2,3) to (6,)) throws: evaluate it first (bsx::eval).
template <std::size_t M, expression X>
auto reshape(X&& x, shape_t<M> shape) {
    constexpr std::size_t N = rank_v<X>;
    const shape_t<N> in = x.shape();
    const index_t size = shape_size(in);
    const auto fail = [&](std::string_view why) { detail::throw_cannot_reshape(in, shape, why); };
    if constexpr (strided_expression<X>)
        if (!is_contiguous(in, x.strides())) fail("the operand is not contiguous");
    std::size_t inferred = M;
    for (std::size_t k = 0; k < M; ++k) {
        if (shape[k] == -1 && inferred == M)
            inferred = k;
        else if (shape[k] < 0)
            fail("extents must be non-negative, with at most one -1");
    }
    if (inferred != M) {
        shape_t<M> known_extents = shape;
        known_extents[inferred] = 1;
        const index_t known = detail::checked_size("reshape", known_extents);
        if (known == 0 || size % known != 0) fail("the element count does not divide");
        shape[inferred] = size / known;
    }
    if (detail::checked_size("reshape", shape) != size) detail::throw_cannot_reshape(in, shape);
    if constexpr (strided_expression<X>) {
        const auto v = detail::view_of(std::forward<X>(x));
        return strided_view<std::remove_pointer_t<decltype(v.data())>, M>(v.data(), shape, contiguous_strides(shape));
    } else {
        const auto map = detail::split_map(in, shape);
        if (!map) fail("a lazy expression can only have its axes split, not merged; evaluate it first (bsx::eval)");
        return detail::place_lazily<M>(std::forward<X>(x), *map, shape);
    }
}

/// A read-only view of x broadcast to `shape` under NumPy rules (stride 0 on stretched axes).
template <expression X, std::size_t M>
auto broadcast_to(X&& x, const shape_t<M>& shape) {
    constexpr std::size_t N = rank_v<X>;
    detail::checked_size("broadcast_to", shape);
    detail::check_broadcast_to<numpy_rules>("broadcast_to", x.shape(), shape);
    std::array<std::size_t, N> to{};
    for (std::size_t k = 0; k < N; ++k) to[k] = numpy_rules::result_axis(k, N, M);
    const auto map = detail::index_map<N, M>::aligned(to);
    if constexpr (strided_expression<X>)
        return detail::remap<M>(strided_view<const value_type_t<X>, N>(detail::view_of(std::forward<X>(x))), map,
                                shape);
    else
        return detail::remap<M>(std::forward<X>(x), map, shape);
}

/// The same with the shape as a braced list: `broadcast_to(v, {2, 3})`.
template <expression X, std::size_t M>
auto broadcast_to(X&& x, const index_t (&shape)[M]) {
    return broadcast_to(std::forward<X>(x), std::to_array(shape));
}

/// A contiguous row-major view over memory the caller owns.
template <class T, std::size_t N>
strided_view<T, N> adapt(T* data, const shape_t<N>& shape) {
    detail::checked_size("adapt", shape, sizeof(T));
    return {data, shape, contiguous_strides(shape)};
}
/// A strided view over memory the caller owns (strides in elements; 0 broadcasts). The
/// memory it spans, (extent - 1) * |stride| summed over the axes, must have a byte size
/// within PTRDIFF_MAX, as an array's.
template <class T, std::size_t N>
strided_view<T, N> adapt(T* data, const shape_t<N>& shape, const shape_t<N>& strides) {
    if (detail::checked_size("adapt", shape) != 0) {
        constexpr index_t limit = std::numeric_limits<index_t>::max() / index_t(sizeof(T));
        index_t span = 1;  // elements from the lowest to the highest address, inclusive
        for (std::size_t k = 0; k < N; ++k) {
            const index_t step = strides[k] == std::numeric_limits<index_t>::min() ? limit : std::abs(strides[k]);
            if (shape[k] > 1 && step > (limit - span) / (shape[k] - 1))
                throw std::length_error("bsx: adapt: shape " + format_shape(shape) + " with strides " +
                                        format_shape(strides) + " spans more than PTRDIFF_MAX bytes");
            span += (shape[k] - 1) * step;
        }
    }
    return {data, shape, strides};
}

}  // namespace bsx
