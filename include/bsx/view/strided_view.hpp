// bsx/view/strided_view.hpp: the one view of memory. Every view of an array or a
// buffer (row, col, slice, permute, reshape, broadcast_to, adapt) is a pointer plus
// shape plus element strides over memory someone else owns (views of lazy expressions
// are placed_nodes, view/remap.hpp). Assigning to a view writes through; it never rebinds.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "../detail/refusals.hpp"
#include "../expr/expression.hpp"
#include "../expr/operand.hpp"
#include "../fwd.hpp"
#include "../shape/shape.hpp"
#include "strided_access.hpp"

namespace bsx {

template <class T, std::size_t N>
class strided_view : public detail::strided_access<strided_view<T, N>, N> {
public:
    using bsx_expression_tag = void;
    using value_type = std::remove_const_t<T>;
    using element_type = T;
    static constexpr std::size_t rank = N;

    strided_view(T* data, const shape_t<N>& shape, const shape_t<N>& strides) noexcept
        : data_(data), shape_(shape), strides_(strides) {}

    /// A view of mutable elements converts to a view of const ones.
    template <class U>
        requires(std::is_same_v<const U, T> && !std::is_same_v<U, T>)
    strided_view(const strided_view<U, N>& v) noexcept : strided_view(v.data(), v.shape(), v.strides()) {}

    strided_view(const strided_view&) = default;

    /// Copies the values of `other` into the viewed elements (value semantics, alias-safe).
    strided_view& operator=(const strided_view& other)
        requires(!std::is_const_v<T>)
    {
        return assign(other);
    }
    /// Writes an expression (broadcast to this view's shape) or a scalar into the viewed elements.
    template <operand X>
        requires(!std::is_same_v<std::remove_cvref_t<X>, strided_view> && !std::is_const_v<T>)
    strided_view& operator=(X&& x) {
        return assign(std::forward<X>(x));
    }
    // Misuse selects a deleted overload: std::is_assignable is false, and the compiler
    // quotes the reason (detail/refusals.hpp).
    // clang-format off
    template <class X>
        requires(!std::is_same_v<std::remove_cvref_t<X>, strided_view> && std::is_const_v<T>)
    strided_view& BSX_REFUSAL_CONST_VIEW(operator)=(X&&) = delete;
    template <class X>
        requires(!operand<X> && !std::is_const_v<T>)
    strided_view& BSX_REFUSAL_NON_NUMERIC_SOURCE(operator)=(X&&) = delete;
    // clang-format on

    T* data() const noexcept { return data_; }
    const shape_t<N>& shape() const noexcept { return shape_; }
    const shape_t<N>& strides() const noexcept { return strides_; }

private:
    T* data_;
    shape_t<N> shape_;
    shape_t<N> strides_;

    template <class X>
    strided_view& assign(X&& x) {
        detail::assign_to("operator=", data_, shape_, strides_, std::forward<X>(x));
        return *this;
    }
};

namespace detail {

/// A view of all of `x` (an array or a view); const arrays give views of const elements.
template <strided_expression X>
auto view_of(X&& x) {
    static_assert(!owning_array<X> || std::is_lvalue_reference_v<X>, BSX_REFUSAL_VIEW_OF_TEMPORARY(message));
    using elem = std::remove_pointer_t<decltype(x.data())>;
    return strided_view<elem, rank_v<X>>(x.data(), x.shape(), x.strides());
}

}  // namespace detail
}  // namespace bsx
