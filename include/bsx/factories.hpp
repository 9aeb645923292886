// bsx/factories.hpp: functions that make new arrays: zeros, ones, full, arange,
// and eval (an expression evaluated into a fresh array; contiguous_as, unless it is one).
#pragma once

#include <concepts>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "array.hpp"

namespace bsx {

template <class T, std::size_t N>
array<T, N> full(const shape_t<N>& shape, const T& value) {
    return array<T, N>(shape, value);
}

template <class T, std::integral... I>
array<T, sizeof...(I)> zeros(I... extents) {
    return array<T, sizeof...(I)>(detail::integer_extents("zeros", extents...));
}

template <class T, std::integral... I>
array<T, sizeof...(I)> ones(I... extents) {
    return full(detail::integer_extents("ones", extents...), T(1));
}

/// 0, 1, ..., n-1: one allocation, each element written once.
template <class T>
array<T, 1> arange(index_t n) {
    array<T, 1> a(shape_t<1>{n}, detail::uninitialized_t{});
    T* out = a.data();
    for (index_t i = 0; i < n; ++i) out[i] = static_cast<T>(i);
    return a;
}

/// A new array holding the values of `e`.
template <expression E>
auto eval(E&& e) {
    return array<value_type_t<E>, rank_v<E>>(std::forward<E>(e));
}

namespace detail {

/// x as a contiguous array of T: an array of T is read where it lies, anything else is
/// evaluated once into a new one.
template <class T, expression X>
decltype(auto) contiguous_as(X&& x) {
    using A = array<T, rank_v<X>>;
    if constexpr (std::is_same_v<std::remove_cvref_t<X>, A>)
        return static_cast<const A&>(x);
    else
        return A(std::forward<X>(x));
}

}  // namespace detail

}  // namespace bsx
