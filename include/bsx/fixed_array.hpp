// bsx/fixed_array.hpp: bsx::fixed_array<T, E0, E1, ...>, the owning array whose extents
// are template arguments: inline storage (no heap), value semantics, the members of
// bsx::array, and a static shape that expressions check and evaluate at compile time.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "array.hpp"
#include "config.hpp"
#include "detail/refusals.hpp"
#include "eval/assign.hpp"
#include "eval/static_loop.hpp"
#include "expr/constraints.hpp"
#include "expr/expression.hpp"
#include "expr/static_extents.hpp"
#include "shape/rules.hpp"
#include "shape/shape.hpp"
#include "view/strided_access.hpp"

namespace bsx {

template <class T, index_t... E>
class fixed_array : public detail::strided_access<fixed_array<T, E...>, sizeof...(E)> {
    static_assert(sizeof...(E) <= 8, "bsx: bsx::fixed_array supports ranks 0 to 8");
    static_assert(((E >= 0) && ...), "bsx: the extents of a fixed_array cannot be negative");
    static_assert(!std::is_const_v<T> && !std::is_reference_v<T>, BSX_REFUSAL_ELEMENT_OBJECT(message));

public:
    using bsx_expression_tag = void;
    using bsx_owning_tag = void;
    using value_type = T;
    static constexpr std::size_t rank = sizeof...(E);
    static constexpr shape_t<rank> static_extents{E...};

    /// Value-initialized (zero for numbers) elements.
    constexpr fixed_array() = default;

    /// Nested braces of exactly the static extents; any other length throws std::invalid_argument.
    fixed_array(nested_list_t<T, rank> values)
        requires(rank >= 1)
    {
        T* out = data();
        list_copy<0>(values, out);
    }
    /// A rank-0 array holding `value`.
    explicit constexpr fixed_array(const T& value)
        requires(rank == 0)
        : elements_{value} {}

    /// Evaluates an expression of rank N that broadcasts to the static shape (checked at
    /// compile time where both extents of an axis are known, else at run time).
    template <detail::expression_of_rank<rank> X>
        requires(!std::is_same_v<std::remove_cvref_t<X>, fixed_array> && !detail::static_extents_misfit<fixed_array, X>)
    fixed_array(X&& x) {
        assign("fixed_array", x);
    }
    // clang-format off
    template <detail::expression_of_rank<rank> X, class Why = detail::static_misfit_t<fixed_array, X>>
        requires detail::static_extents_misfit<fixed_array, X>
    BSX_REFUSAL_STATIC_MISFIT(fixed_array)(X&&) = delete;
    template <detail::expression_of_other_rank<rank> X>
    BSX_REFUSAL_RANK_INITIALIZES(fixed_array)(X&&) = delete;
    // clang-format on

    /// A scalar fills the array.
    template <arithmetic_scalar X>
    fixed_array& operator=(const X& x) {
        elements_.fill(detail::convert<T>(x));
        return *this;
    }
    /// An expression of rank N broadcast to the static shape; a fixed_array never changes
    /// shape. Value semantics hold when the expression reads this array: any copy that
    /// needs is made on the stack.
    template <detail::expression_of_rank<rank> X>
        requires(!std::is_same_v<std::remove_cvref_t<X>, fixed_array> && !detail::static_extents_misfit<fixed_array, X>)
    fixed_array& operator=(X&& x) {
        assign("operator=", x);
        return *this;
    }
    // clang-format off
    template <detail::expression_of_rank<rank> X, class Why = detail::static_misfit_t<fixed_array, X>>
        requires detail::static_extents_misfit<fixed_array, X>
    fixed_array& BSX_REFUSAL_STATIC_MISFIT(operator)=(X&&) = delete;
    template <detail::expression_of_other_rank<rank> X>
    fixed_array& BSX_REFUSAL_RANK_ASSIGNED(operator)=(X&&) = delete;
    template <class X>
        requires(!operand<X> && !std::is_convertible_v<X, fixed_array>)
    fixed_array& BSX_REFUSAL_NON_NUMERIC_SOURCE(operator)=(X&&) = delete;
    // clang-format on

    constexpr T* data() noexcept { return elements_.data(); }
    constexpr const T* data() const noexcept { return elements_.data(); }
    static constexpr const shape_t<rank>& shape() noexcept { return static_extents; }
    static constexpr shape_t<rank> strides() noexcept { return contiguous_strides(static_extents); }

    constexpr T* begin() noexcept { return data(); }
    constexpr T* end() noexcept { return data() + elements_.size(); }
    constexpr const T* begin() const noexcept { return data(); }
    constexpr const T* end() const noexcept { return data() + elements_.size(); }

private:
    std::array<T, std::size_t(shape_size(static_extents))> elements_{};

    template <class X>
    void assign(std::string_view operation, const X& x) {
        constexpr bool known = detail::all_known(static_extents_v<X>);
        if constexpr (!known) detail::check_broadcast_to<rules_of_t<X>>(operation, x.shape(), shape());
        if constexpr (detail::static_loop_expression<X>) {
            if constexpr (static_shape_v<X> == static_extents) return detail::assign_static(data(), x);
        }
        constexpr bool small = std::size_t(shape_size(static_extents)) < BSX_PARALLEL_THRESHOLD;
        if (small && detail::reads_memory_in(x, detail::memory_range(data(), shape(), strides()))) {
            // Value semantics with the copy on the stack: evaluate, then copy in.
            fixed_array result;
            detail::assign_broadcast(result.data(), shape(), strides(), x);
            *this = result;
        } else {
            detail::assign_broadcast(data(), shape(), strides(), x);
        }
    }

    template <std::size_t K, class L>
    static void list_copy(const L& list, T*& out) {
        constexpr index_t n = static_extents[K];
        if (index_t(list.size()) != n)
            throw std::invalid_argument("bsx: fixed_array: axis " + std::to_string(K) + " has extent " +
                                        std::to_string(n) + ", but the initializer list has " +
                                        std::to_string(list.size()) + " entries there");
        for (const auto& sub : list) {
            if constexpr (K + 1 < rank)
                list_copy<K + 1>(sub, out);
            else
                *out++ = sub;
        }
    }
};

}  // namespace bsx
