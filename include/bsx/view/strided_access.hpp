// bsx/view/strided_access.hpp: element access shared by arrays and views
// (anything with data(), shape() and strides()): unchecked and checked indexing,
// extents, and the row/col views of rank-2 operands.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "../detail/message.hpp"
#include "../detail/refusals.hpp"
#include "../expr/operand.hpp"
#include "../fwd.hpp"
#include "../shape/shape.hpp"

namespace bsx::detail {

/// The error of an index outside its axis; `what` names the access (at, row, slice, take).
template <std::integral I>
[[noreturn, gnu::cold, gnu::noinline]] void throw_index_error(std::string_view what, I index, std::size_t axis,
                                                              index_t extent) {
    message text;
    text << "bsx: " << what << ": index " << index << " is out of range for axis " << axis << " of extent " << extent;
    throw std::out_of_range(text.c_str());
}

/// CRTP base: `Derived` provides data(), shape() and strides(). Access goes through
/// Derived's data(), so a const array hands out const elements while a view keeps the
/// constness of its element type.
template <class Derived, std::size_t N>
class strided_access {
public:
    index_t extent(std::size_t axis) const { return checked_extent(self().shape(), axis); }
    index_t size() const noexcept { return shape_size(self().shape()); }

    template <std::integral... I>
        requires(sizeof...(I) == N)
    decltype(auto) operator()(I... i) noexcept {
        return ref(self(), {static_cast<index_t>(i)...});
    }
    template <std::integral... I>
        requires(sizeof...(I) == N)
    decltype(auto) operator()(I... i) const noexcept {
        return ref(self(), {static_cast<index_t>(i)...});
    }

    /// `x(mask)`, a bool expression broadcast to x's shape (bsx::masked, masks.hpp):
    /// converted to an array, the selected elements; assigned to, a masked assignment.
    template <expression M>
        requires(std::same_as<value_type_t<M>, bool>)
    auto operator()(M&& mask) & {
        return masked_by(self(), std::forward<M>(mask));
    }
    template <expression M>
        requires(std::same_as<value_type_t<M>, bool>)
    auto operator()(M&& mask) const& {
        return masked_by(self(), std::forward<M>(mask));
    }
    // A selection of a temporary array would outlive its elements.
    // clang-format off
    template <expression M, class Self = Derived>
        requires(std::same_as<value_type_t<M>, bool> && owning_array<Self>)
    void BSX_REFUSAL_VIEW_OF_TEMPORARY(operator)()(M&&) const&& = delete;
    // clang-format on

    /// Checked access: throws std::out_of_range naming the axis.
    template <std::integral... I>
        requires(sizeof...(I) == N)
    decltype(auto) at(I... i) {
        return ref(self(), checked(self(), {static_cast<index_t>(i)...}));
    }
    template <std::integral... I>
        requires(sizeof...(I) == N)
    decltype(auto) at(I... i) const {
        return ref(self(), checked(self(), {static_cast<index_t>(i)...}));
    }

    auto element(const shape_t<N>& idx) const noexcept { return ref(self(), idx); }

    /// Row i as a (1, n) view: both axes kept, so `a.col(k) + a.row(k)` is an outer sum.
    auto row(index_t i) &
            requires(N == 2)
    {
        return line(self(), i, 0);
    }
    auto row(index_t i) const&
        requires(N == 2)
    {
        return line(self(), i, 0);
    }
    /// Column j as an (m, 1) view.
    auto col(index_t j) &
            requires(N == 2)
    {
        return line(self(), j, 1);
    }
    auto col(index_t j) const&
        requires(N == 2)
    {
        return line(self(), j, 1);
    }
    // The row or column of a temporary array would outlive its elements: an rvalue array
    // selects these (a view owns nothing, and an rvalue view takes the overloads above).
    // Templates, so that the constraint is checked where it is called, with Derived
    // complete (clang 14 checks a plain member's while Derived is still incomplete).
    // clang-format off
    template <class Self = Derived>
    void BSX_REFUSAL_VIEW_OF_TEMPORARY(row)(index_t) const&& requires(N == 2 && owning_array<Self>) = delete;
    template <class Self = Derived>
    void BSX_REFUSAL_VIEW_OF_TEMPORARY(col)(index_t) const&& requires(N == 2 && owning_array<Self>) = delete;
    // clang-format on

private:
    Derived& self() noexcept { return static_cast<Derived&>(*this); }
    const Derived& self() const noexcept { return static_cast<const Derived&>(*this); }

    template <class S>
    static auto& ref(S& s, const shape_t<N>& idx) noexcept {
        const auto st = s.strides();
        index_t off = 0;
        for (std::size_t k = 0; k < N; ++k) off += idx[k] * st[k];
        return s.data()[off];
    }

    template <class S>
    static const shape_t<N>& checked(const S& s, const shape_t<N>& idx) {
        for (std::size_t k = 0; k < N; ++k)
            if (idx[k] < 0 || idx[k] >= s.shape()[k]) throw_index_error("at", idx[k], k, s.shape()[k]);
        return idx;
    }

    template <class S, class M>
    static auto masked_by(S& s, M&& mask) {
        using elem = std::remove_pointer_t<decltype(s.data())>;
        return masked<elem, N, held_t<M>>(strided_view<elem, N>(s.data(), s.shape(), s.strides()),
                                          hold(std::forward<M>(mask)));
    }

    /// The view along one axis at position i of the other (axis 0: a row, axis 1: a column).
    template <class S>
    static auto line(S& s, index_t i, std::size_t fixed_axis) {
        using elem = std::remove_pointer_t<decltype(s.data())>;
        const auto sh = s.shape();
        const auto st = s.strides();
        if (i < 0 || i >= sh[fixed_axis])
            throw_index_error(fixed_axis == 0 ? "row" : "col", i, fixed_axis, sh[fixed_axis]);
        if (fixed_axis == 0) return strided_view<elem, 2>(offset_pointer(s.data(), i * st[0]), {1, sh[1]}, {0, st[1]});
        return strided_view<elem, 2>(offset_pointer(s.data(), i * st[1]), {sh[0], 1}, {st[0], 0});
    }
};

}  // namespace bsx::detail
