// bsx/creation.hpp: NumPy's array-creation functions. arange, linspace, logspace, eye and
// identity are lazy generated leaves (nothing stored until assigned); the *_like functions
// make new arrays; meshgrid gives broadcast views of its inputs.
#pragma once

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "array.hpp"
#include "config.hpp"
#include "detail/convert.hpp"
#include "expr/generated.hpp"
#include "view/in_dims.hpp"

namespace bsx {

/// An element type creation functions compute: arithmetic, not bool.
template <class T>
concept creation_element = std::is_arithmetic_v<T> && !std::same_as<T, bool>;

/// linspace's endpoint flag: `bsx::endpoint(false)` leaves stop out.
struct endpoint {
    bool included;
    explicit constexpr endpoint(bool include) noexcept : included(include) {}
};

/// meshgrid's matrix indexing (NumPy's indexing='ij'); the default is 'xy'.
struct indexing_ij_t {};
inline constexpr indexing_ij_t indexing_ij{};

namespace detail {

[[noreturn, gnu::cold]] inline void throw_creation_argument(std::string_view operation, const std::string& what) {
    throw std::invalid_argument("bsx: " + std::string(operation) + ": " + what);
}

/// A length computed in floating point as an extent: 0 if negative; NaN and lengths past
/// index_t throw.
inline index_t floating_count(std::string_view operation, long double count) {
    if (std::isnan(count)) throw_creation_argument(operation, "the length is NaN");
    if (count < 0) return 0;
    if (count >= 0x1p62L) throw std::length_error("bsx: " + std::string(operation) + ": the length is too large");
    return index_t(count);
}

/// arange's elements for integers: start + i * step, exact (wrapping arithmetic on the
/// way cannot change a value that lies between start and stop).
template <class T>
struct integer_range {
    T start, step;
    T operator()(index_t i) const noexcept {
        using U = std::uint64_t;
        return T(U(start) + U(i) * U(step));
    }
};
/// arange's elements for floating point, as NumPy fills them: start + i * delta, where
/// delta = (start + step) - start as the element type rounds it.
template <class T>
struct floating_range {
    T start, delta;
    T operator()(index_t i) const noexcept { return start + T(i) * delta; }
};

/// The type linspace and logspace compute in: double (long double for long double).
template <class T>
using spacing_t = std::conditional_t<std::is_same_v<T, long double>, long double, double>;

/// linspace's elements as NumPy computes them: start + i * step (or, where step is 0,
/// start + i / div * delta), the last exactly stop where it is included, floored for
/// integer results; with `Power`, base to the power of that, truncated for integer
/// results (logspace). Integer results outside T's range saturate (detail::convert).
/// Power is a template argument, and fill() chooses the formula once per run and sets the
/// element that is stop after the loop: linspace's loop has neither a call nor a branch in
/// it, and vectorizes.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpass-failed"  // logspace's pow: no warning about the user's code
#endif
template <class T, bool Power>
struct spaced {
    using F = spacing_t<T>;
    F start, stop, step, delta, div, base;
    index_t last;  // the element that is stop exactly: -1 for none
    bool step_zero;
    T operator()(index_t i) const noexcept {
        return finish(i == last ? stop : (step_zero ? F(i) / div * delta : F(i) * step) + start);
    }
    void fill(index_t first, index_t stride, index_t len, T* out) const noexcept {
        const spaced self = *this;  // a local: the stores to out cannot change what it reads
        if (step_zero) {
            BSX_SIMD_LOOP
            for (index_t t = 0; t < len; ++t)
                out[t] = self.finish(F(first + t * stride) / self.div * self.delta + self.start);
        } else {
            BSX_SIMD_LOOP
            for (index_t t = 0; t < len; ++t) out[t] = self.finish(F(first + t * stride) * self.step + self.start);
        }
        if (last < 0 || len == 0) return;
        const index_t d = last - first;  // where the element that is stop falls in the run
        if (stride == 0) {
            if (d == 0) std::fill_n(out, len, finish(stop));
        } else if (d % stride == 0 && d / stride >= 0 && d / stride < len) {
            out[d / stride] = finish(stop);
        }
    }

private:
    /// The element whose linspace value is y.
    T finish(F y) const noexcept {
        if constexpr (Power)
            y = std::pow(base, y);
        else if constexpr (std::is_integral_v<T>)
            y = std::floor(y);
        return convert<T>(y);
    }
};
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

template <class T, bool Power>
spaced<T, Power> make_spaced(std::string_view operation, spacing_t<T> start, spacing_t<T> stop, index_t num,
                             bool with_stop, spacing_t<T> base) {
    if (num < 0) throw_creation_argument(operation, "num is negative (" + std::to_string(num) + ")");
    using F = spacing_t<T>;
    const F div = with_stop ? F(num - 1) : F(num);
    const F delta = stop - start;
    const F step = div > 0 ? delta / div : std::numeric_limits<F>::quiet_NaN();
    // NumPy: a zero step (stop == start, or a delta that underflows) multiplies i / div by delta.
    const bool step_zero = div > 0 && step == 0;
    const index_t last = with_stop && num > 1 ? num - 1 : -1;
    return {start, stop, div > 0 ? step : F(0), delta, div, base, last, step_zero};
}

/// eye's elements: 1 where column - row == k in a row of m. A run of consecutive
/// elements is zeros and then the few ones set (no division per element).
template <class T>
struct diagonal_ones {
    index_t m, k;
    T operator()(index_t i) const noexcept { return T(i % m - i / m == k ? 1 : 0); }
    void fill(index_t first, index_t step, index_t len, T* out) const noexcept {
        if (step != 1) {
            for (index_t t = 0; t < len; ++t) out[t] = (*this)(first + t * step);
            return;
        }
        if (len == 0) return;
        std::fill_n(out, len, T(0));
        for (index_t row = first / m, last = (first + len - 1) / m; row <= last; ++row) {
            const index_t column = row + k, at = row * m + column - first;
            if (column >= 0 && column < m && at >= 0 && at < len) out[at] = T(1);
        }
    }
};

}  // namespace detail

/// start, start + step, ... up to stop exclusive (NumPy's arange: ceil((stop - start) / step)
/// elements, none if that is negative). A lazy rank-1 expression. Throws
/// std::invalid_argument for a step of 0 or a NaN length, std::length_error for a length
/// past index_t.
template <creation_element T>
auto arange(T start, T stop, T step = T(1)) {
    if (step == T(0)) detail::throw_creation_argument("arange", "step is 0");
    if constexpr (std::is_integral_v<T>) {
        // |stop - start| and |step| in 64 unsigned bits: no overflow for any T.
        using U = std::uint64_t;
        index_t n = 0;
        if ((step > 0 && stop > start) || (step < 0 && stop < start)) {
            const U span = step > 0 ? U(stop) - U(start) : U(start) - U(stop);
            const U by = step > 0 ? U(step) : U(0) - U(step);
            const U count = span / by + (span % by != 0);
            if (count > U(std::numeric_limits<index_t>::max()))
                throw std::length_error("bsx: arange: the length is too large");
            n = index_t(count);
        }
        return generated<detail::integer_range<T>, 1>("arange", shape_t<1>{n}, {start, step});
    } else {
        using F = detail::spacing_t<T>;  // NumPy counts in double
        const index_t n = detail::floating_count("arange", std::ceil((F(stop) - F(start)) / F(step)));
        return generated<detail::floating_range<T>, 1>("arange", shape_t<1>{n}, {start, T(start + step) - start});
    }
}

/// num values from start to stop, evenly spaced (NumPy's linspace, values computed as
/// NumPy does; with `endpoint(false)`, stop is left out). Lazy, rank 1. Throws
/// std::invalid_argument for a negative num.
template <creation_element T>
auto linspace(detail::spacing_t<T> start, detail::spacing_t<T> stop, index_t num, endpoint ends = endpoint(true)) {
    return generated<detail::spaced<T, false>, 1>(
        "linspace", shape_t<1>{num < 0 ? 0 : num},
        detail::make_spaced<T, false>("linspace", start, stop, num, ends.included, 0));
}

/// base ** linspace(start, stop, num) (NumPy's logspace). Lazy, rank 1.
template <creation_element T>
auto logspace(detail::spacing_t<T> start, detail::spacing_t<T> stop, index_t num, detail::spacing_t<T> base = 10) {
    return generated<detail::spaced<T, true>, 1>(
        "logspace", shape_t<1>{num < 0 ? 0 : num},
        detail::make_spaced<T, true>("logspace", start, stop, num, true, base));
}

/// An n x m matrix of zeros with ones on diagonal k (k > 0 above the main one, k < 0
/// below), as NumPy's eye. Lazy, rank 2: `r = a + eye<double>(n)` stores no matrix.
/// Throws std::invalid_argument for a negative extent.
template <creation_element T>
auto eye(index_t n, index_t m, index_t k = 0) {
    return generated<detail::diagonal_ones<T>, 2>("eye", shape_t<2>{n, m}, {m, k});
}
template <creation_element T>
auto eye(index_t n) {
    return eye<T>(n, n, 0);
}
/// The n x n identity matrix (eye<T>(n)).
template <creation_element T>
auto identity(index_t n) {
    return eye<T>(n, n, 0);
}

/// New arrays of x's shape and element type: zeros, ones, `value` (converted to the
/// element type), and unspecified values (empty_like: NumPy's; here zeros, but code must not
/// count on it).
template <expression X>
auto zeros_like(const X& x) {
    return array<value_type_t<X>, rank_v<X>>(x.shape());
}
template <expression X>
auto ones_like(const X& x) {
    return array<value_type_t<X>, rank_v<X>>(x.shape(), value_type_t<X>(1));
}
template <expression X, arithmetic_scalar V>
auto full_like(const X& x, const V& value) {
    return array<value_type_t<X>, rank_v<X>>(x.shape(), static_cast<value_type_t<X>>(value));
}
template <expression X>
auto empty_like(const X& x) {
    return array<value_type_t<X>, rank_v<X>>(x.shape());
}

/// Coordinate matrices of two rank-1 expressions, as NumPy's meshgrid: a std::tuple of two
/// lazy broadcast views, no copies (of arrays and views, views of their memory; of
/// other expressions, placed nodes). Indexing 'xy' (the default): shape (y.size(),
/// x.size()), X(i, j) = x(j), Y(i, j) = y(i); with bsx::indexing_ij: shape (x.size(),
/// y.size()), X(i, j) = x(i), Y(i, j) = y(j). Arrays passed as lvalues must outlive the views.
template <expression X, expression Y>
    requires(rank_v<X> == 1 && rank_v<Y> == 1)
auto meshgrid(X&& x, Y&& y) {
    const shape_t<2> shape{y.shape()[0], x.shape()[0]};
    return std::tuple(broadcast_in_dim(std::forward<X>(x), shape, {1}),
                      broadcast_in_dim(std::forward<Y>(y), shape, {0}));
}
template <expression X, expression Y>
    requires(rank_v<X> == 1 && rank_v<Y> == 1)
auto meshgrid(X&& x, Y&& y, indexing_ij_t) {
    const shape_t<2> shape{x.shape()[0], y.shape()[0]};
    return std::tuple(broadcast_in_dim(std::forward<X>(x), shape, {0}),
                      broadcast_in_dim(std::forward<Y>(y), shape, {1}));
}

}  // namespace bsx
