// bsx/array.hpp: bsx::array<T, N>, the owning array: contiguous, row-major, static
// rank, run-time extents, value semantics. Constructing or assigning from an
// expression evaluates it in one fused pass.
#pragma once

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "detail/convert.hpp"
#include "detail/refusals.hpp"
#include "detail/storage.hpp"
#include "view/strided_access.hpp"
#include "eval/assign.hpp"
#include "expr/constraints.hpp"
#include "expr/expression.hpp"
#include "shape/shape.hpp"
#include "view/strided_view.hpp"

namespace bsx {

namespace detail {
template <class T, std::size_t N>
struct nested_list {
    using type = std::initializer_list<typename nested_list<T, N - 1>::type>;
};
template <class T>
struct nested_list<T, 0> {
    using type = T;
};
}  // namespace detail

namespace detail {
/// Asks bsx::array for storage whose elements are default-initialized (indeterminate for
/// numbers), for bsx's own factories that write every element next.
struct uninitialized_t {
    explicit uninitialized_t() = default;
};
}  // namespace detail

/// Nested braces for a rank-N array: `{{1, 2, 3}, {4, 5, 6}}` for N = 2.
template <class T, std::size_t N>
using nested_list_t = typename detail::nested_list<T, N>::type;

template <class T, std::size_t N>
class array : public detail::strided_access<array<T, N>, N> {
    static_assert(N <= 8, "bsx: bsx::array supports ranks 0 to 8");
    static_assert(!std::is_const_v<T> && !std::is_reference_v<T>, BSX_REFUSAL_ELEMENT_OBJECT(message));

public:
    using bsx_expression_tag = void;
    using bsx_owning_tag = void;
    using value_type = T;
    static constexpr std::size_t rank = N;

    /// Every extent 0 (rank 0: one element).
    array() { allocate(shape_t<N>{}, true); }

    /// Value-initialized (zero for numbers) elements of the given shape.
    explicit array(const shape_t<N>& shape) { allocate(shape, true); }
    array(const shape_t<N>& shape, const T& value) {
        allocate(shape, false);
        std::fill(begin(), end(), value);
    }

    /// Default-initialized elements (indeterminate for numbers), for bsx's factories that
    /// write every element next.
    array(const shape_t<N>& shape, detail::uninitialized_t) { allocate(shape, false); }

    /// Nested braces; a ragged list throws std::invalid_argument.
    array(nested_list_t<T, N> values)
        requires(N >= 1)
    {
        shape_t<N> shape{};
        list_shape<0>(values, shape, true);
        allocate(shape, false);
        T* out = data();
        list_copy<0>(values, out);
    }
    /// A rank-0 array holding `value`.
    explicit array(const T& value)
        requires(N == 0)
    {
        allocate({}, false);
        data_[0] = value;
    }

    /// Evaluates an expression of rank N. One of another rank selects the deleted overload,
    /// so std::is_constructible is false and the compiler quotes the reason (detail/refusals.hpp).
    template <detail::expression_of_rank<N> E>
        requires(!std::is_same_v<std::remove_cvref_t<E>, array>)
    array(E&& e) {
        const auto shape = e.shape();
        allocate(shape, false);
        detail::assign_broadcast(data(), shape, this->strides(), e);
    }
    // clang-format off
    template <detail::expression_of_other_rank<N> E>
    BSX_REFUSAL_RANK_INITIALIZES(array)(E&&) = delete;
    // clang-format on

    array(const array& o) : array(o.shape_, o.begin(), o.end()) {}
    array(array&& o) noexcept : shape_(std::exchange(o.shape_, shape_t<N>{})), data_(std::move(o.data_)) {}

    array& operator=(const array& o) {
        if (this != &o) {
            if (shape_ != o.shape_)
                *this = array(o);
            else
                std::copy(o.begin(), o.end(), begin());
        }
        return *this;
    }
    array& operator=(array&& o) noexcept {
        shape_ = std::exchange(o.shape_, shape_t<N>{});
        data_ = std::move(o.data_);
        return *this;
    }

    /// A scalar fills the array (shape kept).
    template <arithmetic_scalar X>
    array& operator=(const X& x) {
        std::fill(begin(), end(), detail::convert<T>(x));
        return *this;
    }
    /// An expression of rank N is evaluated into the array, resizing it first if the
    /// shapes differ. Value semantics hold when the expression reads this array.
    template <detail::expression_of_rank<N> X>
        requires(!std::is_same_v<std::remove_cvref_t<X>, array>)
    array& operator=(X&& x) {
        // A new shape is computed into new storage and adopted after: the old elements
        // stay alive while the new ones are computed, so reading this array on the right
        // needs no copy. One call of assign_broadcast either way keeps the code per
        // expression small.
        const shape_t<N> shape = x.shape();
        array fresh = shape == shape_ ? array(no_storage{}) : array(shape, detail::uninitialized_t{});
        array& to = shape == shape_ ? *this : fresh;
        detail::assign_broadcast(to.data(), shape, to.strides(), x);
        if (&to == &fresh) *this = std::move(fresh);
        return *this;
    }
    // Anything else selects a deleted overload: std::is_assignable is false, and the
    // compiler quotes the reason (detail/refusals.hpp).
    // clang-format off
    template <detail::expression_of_other_rank<N> X>
    array& BSX_REFUSAL_RANK_ASSIGNED(operator)=(X&&) = delete;
    template <class X>
        requires(!operand<X> && !std::is_convertible_v<X, array>)
    array& BSX_REFUSAL_NON_NUMERIC_SOURCE(operator)=(X&&) = delete;
    // clang-format on

    T* data() noexcept { return data_.get(); }
    const T* data() const noexcept { return data_.get(); }
    const shape_t<N>& shape() const noexcept { return shape_; }
    shape_t<N> strides() const noexcept { return contiguous_strides(shape_); }

    T* begin() noexcept { return data(); }
    T* end() noexcept { return data() + this->size(); }
    const T* begin() const noexcept { return data(); }
    const T* end() const noexcept { return data() + this->size(); }

private:
    shape_t<N> shape_{};
    detail::storage_ptr<T> data_;

    /// An array with no elements and no storage, whatever N, to be assigned over.
    struct no_storage {};
    explicit array(no_storage) noexcept {}

    array(const shape_t<N>& shape, const T* first, const T* last) {
        allocate(shape, false);
        std::copy(first, last, begin());
    }

    // Checks the shape before allocating, and changes nothing if the allocation throws.
    // Out of line: every assignment that resizes calls it.
    [[gnu::noinline]] void allocate(const shape_t<N>& shape, bool value_init) {
        const auto n = static_cast<std::size_t>(detail::checked_size("array", shape, sizeof(T)));
        data_ = n == 0 ? detail::storage_ptr<T>() : detail::allocate_storage<T>(n, value_init);
        shape_ = shape;
    }

    template <std::size_t K, class L>
    static void list_shape(const L& list, shape_t<N>& shape, bool first) {
        const auto n = static_cast<index_t>(list.size());
        if (first) {
            shape[K] = n;
        } else if (shape[K] != n) {
            throw std::invalid_argument("bsx: ragged nested initializer list: axis " + std::to_string(K) +
                                        " has lengths " + std::to_string(shape[K]) + " and " + std::to_string(n));
        }
        if constexpr (K + 1 < N) {
            bool first_child = first;
            for (const auto& sub : list) {
                list_shape<K + 1>(sub, shape, first_child);
                first_child = false;
            }
            if (n == 0 && first)  // no rows to look at: the inner extents are 0
                for (std::size_t k = K + 1; k < N; ++k) shape[k] = 0;
        }
    }
    template <std::size_t K, class L>
    static void list_copy(const L& list, T*& out) {
        for (const auto& sub : list) {
            if constexpr (K + 1 < N)
                list_copy<K + 1>(sub, out);
            else
                *out++ = sub;
        }
    }
};

}  // namespace bsx
