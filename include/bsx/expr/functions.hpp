// bsx/expr/functions.hpp: the broadcasting functions of the operation table
// (bsx::min, bsx::atan2, bsx::sqrt, ...), plus where, cast, map and bsxfun.
// Each is a function object: one line per entry of ops.hpp.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <initializer_list>
#include <limits>
#include <span>
#include <string>
#include <utility>

#include "../detail/refusals.hpp"
#include "../shape/broadcast_dims.hpp"
#include "constraints.hpp"
#include "map_node.hpp"
#include "ops.hpp"
#include "placed_node.hpp"
#include "with_rules.hpp"

namespace bsx {

namespace detail {

/// The operand of lower rank placed at the higher rank by XLA broadcast dimensions,
/// then `Op` applied. With equal ranks or a rank-0 operand the dims must be the
/// identity or empty, as in XLA, and nothing moves.
template <class Op, class A, class B>
auto apply_with_dims(A&& a, B&& b, std::span<const index_t> dims) {
    constexpr std::size_t ra = operand_rank<A>(), rb = operand_rank<B>();
    // A failed broadcast names the placed shape; say where it came from.
    const auto with_origin = [dims](const auto& lower_shape, auto&& build) {
        try {
            return build();
        } catch (const broadcast_error& e) {
            throw broadcast_error(std::string(e.what()) + " (the operand of shape " + format_shape(lower_shape) +
                                  " placed by broadcast dimensions " + format_dims(dims) + ")");
        }
    };
    if constexpr (ra < rb && ra > 0) {
        const auto shape = operand_shape(a);
        auto placed = place_in_dims<rb>(Op::name, std::forward<A>(a), dims);
        return with_origin(shape, [&] { return make_node(Op{}, std::move(placed), std::forward<B>(b)); });
    } else if constexpr (rb < ra && rb > 0) {
        const auto shape = operand_shape(b);
        auto placed = place_in_dims<ra>(Op::name, std::forward<B>(b), dims);
        return with_origin(shape, [&] { return make_node(Op{}, std::forward<A>(a), std::move(placed)); });
    } else {
        constexpr std::size_t R = std::max(ra, rb);
        if constexpr (ra <= rb)
            placement_from_dims<R>(Op::name, operand_shape(a), dims);
        else
            placement_from_dims<R>(Op::name, operand_shape(b), dims);
        return make_node(Op{}, std::forward<A>(a), std::forward<B>(b));
    }
}

/// `Op` applied element-wise to `Arity` broadcast operands, at least one an expression.
/// Arguments that cannot form a node select a deleted overload, one per reason (see
/// constraints.hpp), so `requires` sees the call as ill-formed and the compiler's note
/// quotes the reason, whose macro names the overload (detail/refusals.hpp).
template <class Op, std::size_t Arity>
struct elementwise_function {
    template <class... X>
        requires(sizeof...(X) == Arity && forms_static_node<Op, X...>)
    auto operator()(X&&... xs) const {
        return make_node(Op{}, std::forward<X>(xs)...);
    }
    // clang-format off
    template <class... X, class Why = static_clash_t<X...>>
        requires(sizeof...(X) == Arity && clashes_statically<Op, X...>)
    void BSX_REFUSAL_STATIC_CLASH(operator)()(X&&...) const = delete;
    template <class... X>
        requires(sizeof...(X) == Arity && has_non_numeric_operand<X...>)
    void BSX_REFUSAL_NON_NUMERIC_OPERAND(operator)()(X&&...) const = delete;
    template <class... X>
        requires(sizeof...(X) == Arity && mixes_rule_sets<X...>)
    void BSX_REFUSAL_MIXED_RULE_SETS(operator)()(X&&...) const = delete;
    template <class... X>
        requires(sizeof...(X) == Arity && needs_broadcast_dimensions<X...>)
    void BSX_REFUSAL_XLA_RANKS(operator)()(X&&...) const = delete;
    // clang-format on

    /// The XLA form, `bsx::add(a, b, {1})`: dims place the lower-rank operand.
    template <class A, class B>
        requires(Arity == 2 && operand<A> && operand<B> && involves_expression<A, B> && one_rule_set<A, B> &&
                 accepts_element_types<Op, A, B>)
    auto operator()(A&& a, B&& b, std::initializer_list<index_t> dims) const {
        return apply_with_dims<Op>(std::forward<A>(a), std::forward<B>(b),
                                   std::span<const index_t>(dims.begin(), dims.size()));
    }
    template <class A, class B, std::size_t K>
        requires(Arity == 2 && operand<A> && operand<B> && involves_expression<A, B> && one_rule_set<A, B> &&
                 accepts_element_types<Op, A, B>)
    auto operator()(A&& a, B&& b, const std::array<index_t, K>& dims) const {
        static_assert(K == std::min(operand_rank<A>(), operand_rank<B>()), BSX_REFUSAL_DIMS_PER_AXIS(message));
        return apply_with_dims<Op>(std::forward<A>(a), std::forward<B>(b), std::span<const index_t>(dims));
    }
    // clang-format off
    template <class A, class B>
        requires(Arity == 2 && mixes_rule_sets<A, B>)
    void BSX_REFUSAL_MIXED_RULE_SETS(operator)()(A&&, B&&, std::initializer_list<index_t>) const = delete;
    // clang-format on
};
template <class Op>
using unary_function = elementwise_function<Op, 1>;
template <class Op>
using binary_function = elementwise_function<Op, 2>;

}  // namespace detail

// XLA's names for the arithmetic operators, with the XLA form (a, b, {dims}).
inline constexpr detail::binary_function<ops::add> add{};
inline constexpr detail::binary_function<ops::subtract> subtract{};
inline constexpr detail::binary_function<ops::multiply> multiply{};
inline constexpr detail::binary_function<ops::divide> divide{};

// Binary functions.
// bsx::min and bsx::max are also reductions: reduce/reductions.hpp.
inline constexpr detail::binary_function<ops::fmin> fmin{};
inline constexpr detail::binary_function<ops::fmax> fmax{};
inline constexpr detail::binary_function<ops::pow> pow{};
inline constexpr detail::binary_function<ops::atan2> atan2{};
inline constexpr detail::binary_function<ops::hypot> hypot{};
inline constexpr detail::binary_function<ops::mod> mod{};
inline constexpr detail::binary_function<ops::rem> rem{};
inline constexpr detail::binary_function<ops::ldivide> ldivide{};
inline constexpr detail::binary_function<ops::logical_and> logical_and{};
inline constexpr detail::binary_function<ops::logical_or> logical_or{};
inline constexpr detail::binary_function<ops::logical_xor> logical_xor{};

// Unary functions.
inline constexpr detail::unary_function<ops::abs> abs{};
inline constexpr detail::unary_function<ops::sqrt> sqrt{};
inline constexpr detail::unary_function<ops::cbrt> cbrt{};
inline constexpr detail::unary_function<ops::exp> exp{};
inline constexpr detail::unary_function<ops::exp2> exp2{};
inline constexpr detail::unary_function<ops::expm1> expm1{};
inline constexpr detail::unary_function<ops::log> log{};
inline constexpr detail::unary_function<ops::log2> log2{};
inline constexpr detail::unary_function<ops::log10> log10{};
inline constexpr detail::unary_function<ops::log1p> log1p{};
inline constexpr detail::unary_function<ops::sin> sin{};
inline constexpr detail::unary_function<ops::cos> cos{};
inline constexpr detail::unary_function<ops::tan> tan{};
inline constexpr detail::unary_function<ops::asin> asin{};
inline constexpr detail::unary_function<ops::acos> acos{};
inline constexpr detail::unary_function<ops::atan> atan{};
inline constexpr detail::unary_function<ops::sinh> sinh{};
inline constexpr detail::unary_function<ops::cosh> cosh{};
inline constexpr detail::unary_function<ops::tanh> tanh{};
inline constexpr detail::unary_function<ops::floor> floor{};
inline constexpr detail::unary_function<ops::ceil> ceil{};
inline constexpr detail::unary_function<ops::round> round{};
inline constexpr detail::unary_function<ops::rint> rint{};
inline constexpr detail::unary_function<ops::trunc> trunc{};
inline constexpr detail::unary_function<ops::sign> sign{};
inline constexpr detail::unary_function<ops::square> square{};
inline constexpr detail::unary_function<ops::isnan> isnan{};
inline constexpr detail::unary_function<ops::isinf> isinf{};
inline constexpr detail::unary_function<ops::isfinite> isfinite{};
inline constexpr detail::unary_function<ops::logical_not> logical_not{};

/// where(c, a, b): a where c is true, else b; all three broadcast together.
inline constexpr detail::elementwise_function<ops::select, 3> where{};

/// clip(x, lo, hi): x limited to [lo, hi]; lo and hi are expressions or numbers that
/// broadcast with x (NumPy's np.clip, NaN propagating).
inline constexpr detail::elementwise_function<ops::clip, 3> clip{};

namespace detail {
/// isclose: a binary function whose operation holds the tolerances, refusing what the
/// other element-wise functions refuse, for the same reasons.
struct isclose_function {
    template <class A, class B>
        requires forms_static_node<ops::isclose, A, B>
    auto operator()(A&& a, B&& b, double rtol = 1e-5, double atol = 1e-8) const {
        return make_node(ops::isclose{rtol, atol}, std::forward<A>(a), std::forward<B>(b));
    }
    // clang-format off
    template <class A, class B, class Why = static_clash_t<A, B>>
        requires clashes_statically<ops::isclose, A, B>
    void BSX_REFUSAL_STATIC_CLASH(operator)()(A&&, B&&, double = 0, double = 0) const = delete;
    template <class A, class B>
        requires has_non_numeric_operand<A, B>
    void BSX_REFUSAL_NON_NUMERIC_OPERAND(operator)()(A&&, B&&, double = 0, double = 0) const = delete;
    template <class A, class B>
        requires mixes_rule_sets<A, B>
    void BSX_REFUSAL_MIXED_RULE_SETS(operator)()(A&&, B&&, double = 0, double = 0) const = delete;
    template <class A, class B>
        requires needs_broadcast_dimensions<A, B>
    void BSX_REFUSAL_XLA_RANKS(operator)()(A&&, B&&, double = 0, double = 0) const = delete;
    // clang-format on
};
}  // namespace detail

/// isclose(a, b, rtol = 1e-5, atol = 1e-8): NumPy's element-wise tolerance test
/// (ops::isclose); a and b broadcast, either may be a number.
inline constexpr detail::isclose_function isclose{};

/// nan_to_num(x, nan, posinf, neginf): NaN and the infinities of x replaced, by default with
/// 0 and the largest and lowest finite values of x's element type (np.nan_to_num).
template <expression X>
auto nan_to_num(X&& x, value_type_t<X> nan = 0, value_type_t<X> posinf = std::numeric_limits<value_type_t<X>>::max(),
                value_type_t<X> neginf = std::numeric_limits<value_type_t<X>>::lowest()) {
    return detail::make_node(ops::nan_to_num<value_type_t<X>>{nan, posinf, neginf}, std::forward<X>(x));
}

/// The elements of x converted to U with static_cast.
template <class U, expression X>
auto cast(X&& x) {
    return detail::make_node(ops::cast_to<U>{}, std::forward<X>(x));
}

/// f applied element-wise to k >= 1 broadcast operands.
template <class F, class... X>
    requires(sizeof...(X) >= 1 && detail::involves_expression<X...> && (operand<X> && ...) &&
             detail::combinable<X...> && !detail::static_extents_clash<X...>)
auto map(F f, X&&... xs) {
    return detail::make_node(ops::user_function<F>{std::move(f), "map"}, std::forward<X>(xs)...);
}
// clang-format off
template <class F, class... X>
    requires detail::has_non_numeric_operand<X...>
void BSX_REFUSAL_NON_NUMERIC_OPERAND(map)(F, X&&...) = delete;
template <class F, class... X>
    requires detail::mixes_rule_sets<X...>
void BSX_REFUSAL_MIXED_RULE_SETS(map)(F, X&&...) = delete;
template <class F, class... X>
    requires detail::needs_broadcast_dimensions<X...>
void BSX_REFUSAL_XLA_RANKS(map)(F, X&&...) = delete;
template <class F, class... X, class Why = detail::static_clash_t<X...>>
    requires(detail::involves_expression<X...> && (operand<X> && ...) && detail::combinable<X...> &&
             detail::static_extents_clash<X...>)
void BSX_REFUSAL_STATIC_CLASH(map)(F, X&&...) = delete;
// clang-format on

/// Octave's name for a binary map.
template <class F, class A, class B>
    requires(detail::involves_expression<A, B> && operand<A> && operand<B> && detail::combinable<A, B> &&
             !detail::static_extents_clash<A, B>)
auto bsxfun(F f, A&& a, B&& b) {
    return detail::make_node(ops::user_function<F>{std::move(f), "bsxfun"}, std::forward<A>(a), std::forward<B>(b));
}
// clang-format off
template <class F, class A, class B>
    requires detail::has_non_numeric_operand<A, B>
void BSX_REFUSAL_NON_NUMERIC_OPERAND(bsxfun)(F, A&&, B&&) = delete;
template <class F, class A, class B>
    requires detail::mixes_rule_sets<A, B>
void BSX_REFUSAL_MIXED_RULE_SETS(bsxfun)(F, A&&, B&&) = delete;
template <class F, class A, class B>
    requires detail::needs_broadcast_dimensions<A, B>
void BSX_REFUSAL_XLA_RANKS(bsxfun)(F, A&&, B&&) = delete;
template <class F, class A, class B, class Why = detail::static_clash_t<A, B>>
    requires(detail::involves_expression<A, B> && operand<A> && operand<B> && detail::combinable<A, B> &&
             detail::static_extents_clash<A, B>)
void BSX_REFUSAL_STATIC_CLASH(bsxfun)(F, A&&, B&&) = delete;
// clang-format on

}  // namespace bsx
