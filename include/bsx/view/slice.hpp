// bsx/view/slice.hpp: NumPy basic indexing. `slice(x, specs...)` takes, per axis,
// `all`, an integer (drops the axis), `range(b, e[, step])` (keeps it) or `newaxis`
// (inserts an extent-1 axis); omitted trailing specs mean `all`. Of memory it is a
// strided view; of a lazy expression a lazy view that reads it at the sliced indices.
#pragma once

#include <concepts>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "../expr/expression.hpp"
#include "../expr/index_map.hpp"
#include "../fwd.hpp"
#include "remap.hpp"
#include "strided_access.hpp"

namespace bsx {

/// An extent-1 axis inserted into the view (NumPy `None` / `np.newaxis`).
struct newaxis_t {};
inline constexpr newaxis_t newaxis{};

/// Elements begin, begin+step, ... before end, with NumPy's rules: negative bounds
/// count from the end, bounds are clamped, step may be negative but not 0.
struct range_t {
    index_t begin, end, step;
};
constexpr range_t range(index_t begin, index_t end, index_t step = 1) noexcept { return {begin, end, step}; }

namespace detail {

template <class S>
concept slice_spec =
    std::same_as<S, all_t> || std::same_as<S, newaxis_t> || std::same_as<S, range_t> || std::integral<S>;

template <class S>
inline constexpr bool consumes_axis = !std::is_same_v<S, newaxis_t>;

/// Rank after slicing a rank-N operand: integers drop an axis, newaxis adds one.
template <std::size_t N, class... S>
inline constexpr std::size_t sliced_rank =
    N - (std::size_t(std::integral<S>) + ... + 0) + (std::size_t(std::is_same_v<S, newaxis_t>) + ... + 0);

/// (first element, count) of a NumPy slice of an axis of extent n.
inline std::pair<index_t, index_t> resolve_range(range_t r, index_t n, std::size_t axis) {
    if (r.step == 0)
        throw std::invalid_argument("bsx: slice: range step must not be 0 (axis " + std::to_string(axis) + ")");
    auto clamp = [&](index_t i, index_t lo, index_t hi) {
        if (i < 0) i += n;
        return i < lo ? lo : (i > hi ? hi : i);
    };
    // Counts as 1 + (distance - 1) / |step|, so that no step, up to PTRDIFF_MIN, overflows.
    if (r.step > 0) {
        const index_t b = clamp(r.begin, 0, n), e = clamp(r.end, 0, n);
        return {b, e > b ? 1 + (e - b - 1) / r.step : 0};
    }
    const index_t b = clamp(r.begin, -1, n - 1), e = clamp(r.end, -1, n - 1);
    return {b, b > e ? 1 + (e - b + 1) / r.step : 0};
}

}  // namespace detail

template <expression X, detail::slice_spec... S>
auto slice(X&& x, S... specs) {
    constexpr std::size_t N = rank_v<X>;
    static_assert((std::size_t(detail::consumes_axis<S>) + ... + 0) <= N,
                  "bsx: slice: more index specs than the operand has axes");
    constexpr std::size_t M = detail::sliced_rank<N, S...>;
    const shape_t<N> operand_shape = x.shape();
    shape_t<M> shape{};
    detail::index_map<N, M> map;  // operand axis `in` at first + step * (result axis `out`)
    std::size_t in = 0, out = 0;
    auto apply = [&](auto spec) {
        using spec_t = decltype(spec);
        if constexpr (std::is_same_v<spec_t, newaxis_t>) {
            shape[out++] = 1;
        } else if constexpr (std::is_same_v<spec_t, all_t>) {
            shape[out] = operand_shape[in];
            map.step[in++][out++] = 1;
        } else if constexpr (std::is_same_v<spec_t, range_t>) {
            const auto [first, count] = detail::resolve_range(spec, operand_shape[in], in);
            shape[out] = count;
            map.first[in] = first;
            // Of one element or none, the step is never taken: 1 keeps the strides it
            // scales (by PTRDIFF_MAX, say) from overflowing.
            map.step[in++][out++] = count > 1 ? spec.step : 1;
        } else {
            const index_t n = operand_shape[in];
            const index_t i = spec < 0 ? index_t(spec) + n : index_t(spec);
            if (i < 0 || i >= n) detail::throw_index_error("slice", index_t(spec), in, n);
            map.first[in++] = i;
        }
    };
    (apply(specs), ...);
    for (; in < N; ++in, ++out) {
        shape[out] = operand_shape[in];
        map.step[in][out] = 1;
    }
    return detail::remap<M>(std::forward<X>(x), map, shape);
}

}  // namespace bsx
