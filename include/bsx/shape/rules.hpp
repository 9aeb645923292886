// bsx/shape/rules.hpp: the three broadcasting rule sets (NumPy, Octave, XLA) and the
// shape computation they drive. A rule set only decides how the axes of operands of
// different rank line up; after alignment all three use the same per-axis test
// (equal extents, or one of them is 1).
#pragma once

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "../detail/message.hpp"
#include "../detail/refusals.hpp"
#include "broadcast_error.hpp"
#include "shape.hpp"

namespace bsx {

/// NumPy (the default): shapes are right-aligned; missing leading axes count as 1.
struct numpy_rules {
    static constexpr std::string_view name = "numpy";
    static constexpr std::string_view alignment = "shapes are right-aligned: the shorter shape gets leading 1s";
    static constexpr bool aligns(std::size_t, std::size_t) noexcept { return true; }
    /// The result axis on which axis `k` of a rank-`r` operand lies in a rank-`R` result.
    static constexpr std::size_t result_axis(std::size_t k, std::size_t r, std::size_t R) noexcept {
        return k + (R - r);
    }
};

/// Octave: shapes are left-aligned; missing trailing axes count as 1.
struct octave_rules {
    static constexpr std::string_view name = "octave";
    static constexpr std::string_view alignment = "shapes are left-aligned: the shorter shape gets trailing 1s";
    static constexpr bool aligns(std::size_t, std::size_t) noexcept { return true; }
    static constexpr std::size_t result_axis(std::size_t k, std::size_t, std::size_t) noexcept { return k; }
};

/// XLA: no implicit rank promotion. Ranks must match unless one operand is rank 0;
/// anything else needs explicit broadcast dimensions (bsx::in_dims, add(a, b, {dims})).
struct xla_rules {
    static constexpr std::string_view name = "xla";
    static constexpr std::string_view alignment =
        "ranks must be equal unless one operand is rank 0 (a scalar); other operands need "
        "explicit broadcast dimensions";
    static constexpr bool aligns(std::size_t r, std::size_t R) noexcept { return r == R || r == 0; }
    static constexpr std::size_t result_axis(std::size_t k, std::size_t, std::size_t) noexcept { return k; }
};

/// What a rule set provides: a name for messages, whether ranks r <= R line up without
/// help, and where axis k of a rank-r operand lands in a rank-R result.
template <class R>
concept rule_set = requires(std::size_t n) {
    { R::name } -> std::convertible_to<std::string_view>;
    { R::alignment } -> std::convertible_to<std::string_view>;
    { R::aligns(n, n) } -> std::same_as<bool>;
    { R::result_axis(n, n, n) } -> std::same_as<std::size_t>;
};

namespace detail {

/// Extent of operand axis aligned with result axis `axis` (1 where the operand has no such axis).
template <class Rules, std::size_t R, std::size_t N>
constexpr index_t aligned_extent(const shape_t<N>& s, std::size_t axis) noexcept {
    for (std::size_t k = 0; k < N; ++k)
        if (Rules::result_axis(k, N, R) == axis) return s[k];
    return 1;
}

/// The per-axis rule shared by every rule set: equal extents, or one is 1 and stretches.
/// Returns the result extent, or -1 when the pair cannot be broadcast.
constexpr index_t broadcast_extent(index_t ea, index_t eb) noexcept {
    if (ea == eb || eb == 1) return ea;
    if (ea == 1) return eb;
    return -1;
}

/// The error of broadcast_pair; out of line, and one function for every rule set and
/// rank, so that the check itself stays small enough to inline (every expression node
/// runs it, at construction and at evaluation).
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_not_broadcastable(std::string_view operation,
                                                                           std::string_view rules,
                                                                           std::span<const index_t> sa,
                                                                           std::span<const index_t> sb,
                                                                           std::size_t axis, index_t ea, index_t eb) {
    message text;
    text << "bsx: " << operation << ": shapes " << shape_text{sa} << " and " << shape_text{sb}
         << " cannot be broadcast under " << rules << " rules: axis " << axis << " has extents " << ea << " and " << eb;
    throw broadcast_error(text.c_str());
}

/// The error of broadcast_many: operands `first` and `second` (0-based) of `shapes`
/// clash on `axis`, where their extents are `extent[first]` and `extent[second]`.
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_not_broadcastable(
    std::string_view operation, std::string_view rules, std::span<const std::span<const index_t>> shapes,
    std::span<const index_t> extent, std::size_t axis, std::size_t first, std::size_t second) {
    message text;
    text << "bsx: " << operation << ": shapes ";
    for (std::size_t i = 0; i < shapes.size(); ++i)
        text << (i == 0 ? "" : i + 1 == shapes.size() ? " and " : ", ") << shape_text{shapes[i]};
    const auto operand = [&](std::size_t i) {
        text << extent[i] << " (operand " << i + 1 << ", shape " << shape_text{shapes[i]} << ")";
    };
    text << " cannot be broadcast under " << rules << " rules: axis " << axis << " has extents ";
    operand(first);
    text << " and ";
    operand(second);
    throw broadcast_error(text.c_str());
}

/// The error of check_broadcast_to.
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_not_broadcastable_to(std::string_view operation,
                                                                              std::string_view rules,
                                                                              std::span<const index_t> src,
                                                                              std::span<const index_t> dest,
                                                                              std::size_t axis, index_t extent) {
    message text;
    text << "bsx: " << operation << ": shape " << shape_text{src} << " cannot be broadcast to the destination shape "
         << shape_text{dest} << " under " << rules << " rules: axis " << axis << " has extent " << extent
         << " where the destination has " << dest[axis];
    throw broadcast_error(text.c_str());
}

/// Broadcasts two shapes under `Rules`; `operation` names the caller in the error message.
template <class Rules, std::size_t A, std::size_t B>
shape_t<std::max(A, B)> broadcast_pair(std::string_view operation, const shape_t<A>& sa, const shape_t<B>& sb) {
    constexpr std::size_t R = std::max(A, B);
    static_assert(Rules::aligns(std::min(A, B), R), BSX_REFUSAL_XLA_RANKS(message));
    shape_t<R> out{};
    for (std::size_t axis = 0; axis < R; ++axis) {
        const index_t ea = aligned_extent<Rules, R>(sa, axis);
        const index_t eb = aligned_extent<Rules, R>(sb, axis);
        out[axis] = broadcast_extent(ea, eb);
        if (out[axis] < 0) throw_not_broadcastable(operation, Rules::name, sa, sb, axis, ea, eb);
    }
    checked_size(operation, out);  // (2^40,1) with (1,2^40): each operand fits, the result does not
    return out;
}

/// Broadcasts the shapes of three or more operands (where, map, broadcast_shapes). A
/// mismatch names the two operands whose extents clash, each by its position and its own
/// shape; folding pairwise would name an intermediate shape that no operand has.
template <class Rules, std::size_t... N>
shape_t<std::max({N...})> broadcast_many(std::string_view operation, const shape_t<N>&... shapes) {
    constexpr std::size_t R = std::max({N...});
    static_assert((Rules::aligns(N, R) && ...), BSX_REFUSAL_XLA_RANKS(message));
    shape_t<R> out;
    out.fill(1);
    std::array<std::size_t, R> owner{};  // the operand that set out[axis]
    std::size_t bad_axis = R, first = 0, second = 0, position = 0;
    const auto visit = [&](const auto& s) {
        for (std::size_t axis = 0; axis < R; ++axis) {
            const index_t e = aligned_extent<Rules, R>(s, axis);
            if (e == 1 || e == out[axis]) continue;
            if (out[axis] == 1) {
                out[axis] = e;
                owner[axis] = position;
            } else if (axis < bad_axis) {  // the first offending axis from the left is named
                bad_axis = axis;
                first = owner[axis];
                second = position;
            }
        }
        ++position;
    };
    (visit(shapes), ...);
    if (bad_axis < R) {
        const std::array<std::span<const index_t>, sizeof...(N)> all{shapes...};
        const std::array<index_t, sizeof...(N)> extent{aligned_extent<Rules, R>(shapes, bad_axis)...};
        throw_not_broadcastable(operation, Rules::name, all, extent, bad_axis, first, second);
    }
    checked_size(operation, out);
    return out;
}

/// Checks that an operand of shape `src` broadcasts to `dest` without changing it
/// (assignment into a view, compound assignment).
template <class Rules, std::size_t S, std::size_t D>
void check_broadcast_to(std::string_view operation, const shape_t<S>& src, const shape_t<D>& dest) {
    static_assert(S <= D, "bsx: the rank of the expression exceeds the rank of the destination");
    static_assert(Rules::aligns(S, D), BSX_REFUSAL_XLA_RANKS(message));
    for (std::size_t axis = 0; axis < D; ++axis) {
        const index_t e = aligned_extent<Rules, D>(src, axis);
        if (e != 1 && e != dest[axis]) throw_not_broadcastable_to(operation, Rules::name, src, dest, axis, e);
    }
}

}  // namespace detail

/// The shape of `a op b` for operands of shapes `sa` and `sb`; throws bsx::broadcast_error.
template <rule_set Rules = numpy_rules, std::size_t A, std::size_t B>
shape_t<std::max(A, B)> broadcast_shapes(const shape_t<A>& sa, const shape_t<B>& sb) {
    detail::checked_size("broadcast_shapes", sa);
    detail::checked_size("broadcast_shapes", sb);
    return detail::broadcast_pair<Rules>("broadcast_shapes", sa, sb);
}

/// The shape of an operation on three or more operands; a mismatch names the two operands
/// that clash, each with its own shape.
template <rule_set Rules = numpy_rules, std::size_t A, std::size_t B, std::size_t C, std::size_t... More>
auto broadcast_shapes(const shape_t<A>& sa, const shape_t<B>& sb, const shape_t<C>& sc, const shape_t<More>&... more) {
    detail::checked_size("broadcast_shapes", sa);
    detail::checked_size("broadcast_shapes", sb);
    detail::checked_size("broadcast_shapes", sc);
    (detail::checked_size("broadcast_shapes", more), ...);
    return detail::broadcast_many<Rules>("broadcast_shapes", sa, sb, sc, more...);
}

/// Walks through the rules for `sa` and `sb` line by line: rank alignment, then each
/// axis (equal, stretched, or the mismatch), then the result shape or the reason there
/// is none. Never throws (except std::bad_alloc).
template <rule_set Rules = numpy_rules, std::size_t A, std::size_t B>
std::string explain_broadcast(const shape_t<A>& sa, const shape_t<B>& sb) {
    constexpr std::size_t R = std::max(A, B);
    const std::string rules = std::string(Rules::name) + " rules";
    std::string out = "broadcasting " + format_shape(sa) + " with " + format_shape(sb) + " under " + rules + "\n";
    out += "rank alignment: " + std::string(Rules::alignment) + "\n";
    if (!Rules::aligns(std::min(A, B), R)) {
        out += "  ranks " + std::to_string(A) + " and " + std::to_string(B) +
               " differ and neither operand is rank 0: give broadcast dimensions with bsx::in_dims or "
               "the XLA form (bsx::add(a, b, {dims}))\n";
        return out + "result: cannot be broadcast under " + rules + " without broadcast dimensions\n";
    }
    shape_t<R> a{}, b{};
    for (std::size_t axis = 0; axis < R; ++axis) {
        a[axis] = detail::aligned_extent<Rules, R>(sa, axis);
        b[axis] = detail::aligned_extent<Rules, R>(sb, axis);
    }
    if (A == B) {
        out += "  equal ranks: nothing to pad\n";
    } else {
        out += "  " + format_shape(sa) + " -> " + format_shape(a) + "\n";
        out += "  " + format_shape(sb) + " -> " + format_shape(b) + "\n";
    }
    shape_t<R> result{};
    for (std::size_t axis = 0; axis < R; ++axis) {
        const index_t ea = a[axis], eb = b[axis];
        result[axis] = detail::broadcast_extent(ea, eb);
        out += "axis " + std::to_string(axis) + ": " + std::to_string(ea) + " and " + std::to_string(eb);
        if (result[axis] < 0) {
            out += ": mismatch, the extents differ and neither is 1\n";
            return out + "result: cannot be broadcast: axis " + std::to_string(axis) + " has extents " +
                   std::to_string(ea) + " and " + std::to_string(eb) + "\n";
        }
        if (ea == eb)
            out += " -> " + std::to_string(ea) + " (equal)\n";
        else
            out += " -> " + std::to_string(result[axis]) + " (the " + (ea == 1 ? "first" : "second") +
                   " operand's 1 is stretched)\n";
    }
    return out + "result: " + format_shape(result) + "\n";
}

}  // namespace bsx
