// bsx/algorithm/einsum.hpp: einsum with explicit subscripts as a compile-time string,
// `bsx::einsum<"ij,jk->ik">(a, b)`, eager. A two-operand contraction runs as a batched
// matrix product (products.hpp); anything else as one fused broadcast-and-sum over views.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "../array.hpp"
#include "../reduce/reductions.hpp"
#include "../view/in_dims.hpp"
#include "../view/permute.hpp"
#include "../view/strided_view.hpp"
#include "products.hpp"

namespace bsx {

namespace detail {

/// The subscripts, a string literal as a template argument.
template <std::size_t N>
struct einsum_text {
    char text[N]{};
    constexpr einsum_text(const char (&s)[N]) {  // NOLINT: converts implicitly, from a literal
        for (std::size_t i = 0; i < N; ++i) text[i] = s[i];
    }
};

inline constexpr std::size_t einsum_max_operands = 8, einsum_max_letters = 52;

/// What the subscripts say, worked out at compile time.
struct einsum_spec {
    bool well_formed = false;  // letters and commas, one "->", letters after it
    bool result_known = true;  // every result letter is some operand's
    bool result_distinct = true;
    std::size_t operands = 0;
    std::array<std::size_t, einsum_max_operands> ranks{};
    std::array<std::array<char, 8>, einsum_max_operands> in{};
    std::size_t result_rank = 0;
    std::array<char, 8> result{};
    // The letters in their axis order: the result's, then the summed ones.
    std::size_t letters = 0;
    std::array<char, einsum_max_letters> order{};
    // A contraction of two operands: each letter in both operands or in one and the
    // result, some letter summed, none twice in an operand.
    bool contraction = false;

    constexpr std::size_t position(char c) const {
        for (std::size_t i = 0; i < letters; ++i)
            if (order[i] == c) return i;
        return letters;
    }
    constexpr bool has(std::size_t operand, char c) const {
        for (std::size_t i = 0; i < ranks[operand]; ++i)
            if (in[operand][i] == c) return true;
        return false;
    }
    constexpr bool in_result(char c) const {
        for (std::size_t i = 0; i < result_rank; ++i)
            if (result[i] == c) return true;
        return false;
    }
};

constexpr bool einsum_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

template <std::size_t N>
constexpr einsum_spec parse_einsum(const einsum_text<N>& subscripts) {
    einsum_spec spec;
    const char* s = subscripts.text;
    const std::size_t size = N - 1;
    std::size_t arrow = size, arrows = 0;
    for (std::size_t i = 0; i + 1 < size; ++i)
        if (s[i] == '-' && s[i + 1] == '>') {
            arrow = i;
            ++arrows;
        }
    if (arrows != 1) return spec;
    std::size_t operand = 0, axis = 0;
    for (std::size_t i = 0; i < arrow; ++i) {
        if (s[i] == ',') {
            spec.ranks[operand] = axis;
            if (++operand == einsum_max_operands) return spec;
            axis = 0;
        } else if (einsum_letter(s[i]) && axis < 8) {
            spec.in[operand][axis++] = s[i];
        } else {
            return spec;
        }
    }
    spec.ranks[operand] = axis;
    spec.operands = operand + 1;
    for (std::size_t i = arrow + 2; i < size; ++i) {
        if (!einsum_letter(s[i]) || spec.result_rank == 8) return spec;
        spec.result[spec.result_rank++] = s[i];
    }
    spec.well_formed = true;
    for (std::size_t i = 0; i < spec.result_rank; ++i) {
        bool known = false;
        for (std::size_t o = 0; o < spec.operands; ++o) known = known || spec.has(o, spec.result[i]);
        spec.result_known = spec.result_known && known;
        for (std::size_t j = 0; j < i; ++j)
            spec.result_distinct = spec.result_distinct && spec.result[j] != spec.result[i];
        spec.order[spec.letters++] = spec.result[i];
    }
    for (std::size_t o = 0; o < spec.operands; ++o)
        for (std::size_t a = 0; a < spec.ranks[o]; ++a)
            if (spec.position(spec.in[o][a]) == spec.letters) spec.order[spec.letters++] = spec.in[o][a];
    if (spec.operands == 2) {
        bool ok = spec.letters > spec.result_rank;
        for (std::size_t o = 0; o < 2; ++o)
            for (std::size_t a = 0; a < spec.ranks[o]; ++a)
                for (std::size_t b = 0; b < a; ++b) ok = ok && spec.in[o][a] != spec.in[o][b];
        for (std::size_t l = spec.result_rank; l < spec.letters; ++l)
            ok = ok && spec.has(0, spec.order[l]) && spec.has(1, spec.order[l]);
        spec.contraction = ok;
    }
    return spec;
}

/// The distinct letters of one operand (a letter twice takes the diagonal).
constexpr std::size_t einsum_distinct(const einsum_spec& spec, std::size_t operand) {
    std::size_t n = 0;
    for (std::size_t a = 0; a < spec.ranks[operand]; ++a) {
        bool seen = false;
        for (std::size_t b = 0; b < a; ++b) seen = seen || spec.in[operand][b] == spec.in[operand][a];
        n += seen ? 0 : 1;
    }
    return n;
}

/// Records each letter's extent, checking it against what other axes said.
template <std::size_t N>
void einsum_extents(std::string_view subscripts, const einsum_spec& spec, std::size_t operand, const shape_t<N>& shape,
                    std::array<index_t, einsum_max_letters>& extent) {
    for (std::size_t a = 0; a < N; ++a) {
        index_t& e = extent[spec.position(spec.in[operand][a])];
        if (e >= 0 && e != shape[a])
            throw std::invalid_argument(
                "bsx: einsum: \"" + std::string(subscripts) + "\": subscript '" + std::string(1, spec.in[operand][a]) +
                "' has extent " + std::to_string(e) + " elsewhere but " + std::to_string(shape[a]) + " on axis " +
                std::to_string(a) + " of operand " + std::to_string(operand) + " (shape " + format_shape(shape) + ")");
        e = shape[a];
    }
}

/// Where one operand's axes go: axis a of the operand is axis slot[a] of its view over its
/// distinct letters (a letter twice takes the diagonal), and view axis d is axis dims[d] of
/// the rank of all letters (increasing).
struct einsum_placement {
    std::array<index_t, 8> dims{};
    std::array<std::size_t, 8> slot{};
};

constexpr einsum_placement place_operand(const einsum_spec& spec, std::size_t operand) {
    einsum_placement p;
    std::size_t count = 0;
    for (std::size_t l = 0; l < spec.letters; ++l) {
        bool found = false;
        for (std::size_t a = 0; a < spec.ranks[operand]; ++a)
            if (spec.in[operand][a] == spec.order[l]) {
                p.dims[count] = index_t(l);
                p.slot[a] = count;
                found = true;
            }
        count += found ? 1 : 0;
    }
    return p;
}

/// Operand `I` as a view over its distinct letters, in their axis order, placed at the
/// rank of all letters.
template <einsum_spec Spec, std::size_t I, class T, std::size_t N>
auto einsum_placed(const array<T, N>& x) {
    constexpr std::size_t D = einsum_distinct(Spec, I);
    static constexpr einsum_placement placement = place_operand(Spec, I);
    std::array<index_t, D> dims{};
    std::copy_n(placement.dims.begin(), D, dims.begin());
    shape_t<D> shape{}, strides{};
    for (std::size_t a = 0; a < N; ++a) {
        shape[placement.slot[a]] = x.shape()[a];
        strides[placement.slot[a]] += x.strides()[a];
    }
    return in_dims<Spec.letters>(strided_view<const T, D>(x.data(), shape, strides), dims);
}

template <einsum_spec Spec, class... A, std::size_t... I>
auto einsum_fused(std::index_sequence<I...>, const A&... x) {
    constexpr std::size_t summed = Spec.letters - Spec.result_rank;
    auto product = (einsum_placed<Spec, I>(x) * ...);
    using T = value_type_t<decltype(product)>;
    if constexpr (summed == 0) {
        return array<T, Spec.result_rank>(std::move(product));
    } else if constexpr (Spec.result_rank == 0) {
        return T(sum(std::move(product)));
    } else {
        axes_t<summed> over{};
        for (std::size_t k = 0; k < summed; ++k) over.values[k] = index_t(Spec.result_rank + k);
        return array<T, Spec.result_rank>(sum(std::move(product), over));
    }
}

/// How a contraction runs: a's axes in the order (batch, m, k), b's in (batch, k, n), and
/// the result's letters grouped (batch, m, n): grouped[i] is the result axis of grouped
/// axis i, kind[i] its group (0 batch, 1 m, 2 n).
struct einsum_contraction_plan {
    std::array<index_t, 8> a_order{}, b_order{};
    std::array<std::size_t, 8> grouped{};
    std::array<int, 8> kind{};
};

constexpr index_t einsum_axis_of(const einsum_spec& spec, std::size_t operand, char c) {
    for (std::size_t i = 0; i < spec.ranks[operand]; ++i)
        if (spec.in[operand][i] == c) return index_t(i);
    return -1;
}

constexpr einsum_contraction_plan plan_contraction(const einsum_spec& spec) {
    einsum_contraction_plan plan;
    std::size_t count = 0, ca = 0, cb = 0;
    for (int group = 0; group < 3; ++group)
        for (std::size_t l = 0; l < spec.result_rank; ++l) {
            const char c = spec.order[l];
            const bool ina = spec.has(0, c), inb = spec.has(1, c);
            if ((group == 0 && ina && inb) || (group == 1 && ina && !inb) || (group == 2 && !ina && inb)) {
                plan.grouped[count] = l;
                plan.kind[count++] = group;
                if (ina) plan.a_order[ca++] = einsum_axis_of(spec, 0, c);
                if (group == 0) plan.b_order[cb++] = einsum_axis_of(spec, 1, c);
            }
        }
    for (std::size_t l = spec.result_rank; l < spec.letters; ++l) {
        plan.a_order[ca++] = einsum_axis_of(spec, 0, spec.order[l]);
        plan.b_order[cb++] = einsum_axis_of(spec, 1, spec.order[l]);
    }
    for (std::size_t i = 0; i < count; ++i)
        if (plan.kind[i] == 2) plan.b_order[cb++] = einsum_axis_of(spec, 1, spec.order[plan.grouped[i]]);
    return plan;
}

/// A contraction as one batched matrix product: a's axes ordered (batch, m, k), b's
/// (batch, k, n), the product's (batch, m, n) put in the result's order.
template <einsum_spec Spec, class T, std::size_t RA, std::size_t RB>
auto einsum_contraction(const array<T, RA>& a, const array<T, RB>& b,
                        const std::array<index_t, einsum_max_letters>& extent) {
    constexpr std::size_t R = Spec.result_rank;
    static constexpr einsum_contraction_plan plan = plan_contraction(Spec);
    std::array<index_t, RA> pa{};
    std::array<index_t, RB> pb{};
    std::copy_n(plan.a_order.begin(), RA, pa.begin());
    std::copy_n(plan.b_order.begin(), RB, pb.begin());
    index_t batch = 1, m = 1, n = 1, k = 1;
    shape_t<std::max<std::size_t>(R, 1)> grouped_shape;
    grouped_shape.fill(1);  // a scalar result: one element
    for (std::size_t i = 0; i < R; ++i) {
        const index_t e = extent[plan.grouped[i]];
        grouped_shape[i] = e;
        (plan.kind[i] == 0 ? batch : plan.kind[i] == 1 ? m : n) *= e;
    }
    for (std::size_t l = R; l < Spec.letters; ++l) k *= extent[l];
    const array<T, RA> ag(permute(a, pa));
    const array<T, RB> bg(permute(b, pb));
    std::vector<index_t> a_offset(static_cast<std::size_t>(batch)), b_offset(static_cast<std::size_t>(batch));
    for (index_t q = 0; q < batch; ++q) {
        a_offset[std::size_t(q)] = q * m * k;
        b_offset[std::size_t(q)] = q * k * n;
    }
    array<T, std::max<std::size_t>(R, 1)> c(grouped_shape);
    batched_gemm(gemm_backend::any, batch, m, n, k, ag.data(), a_offset.data(), bg.data(), b_offset.data(), c.data());
    if constexpr (R == 0) {
        return *c.data();
    } else {
        std::array<index_t, R> back{};  // result axis i is grouped axis back[i]
        for (std::size_t i = 0; i < R; ++i) back[plan.grouped[i]] = index_t(i);
        return array<T, R>(permute(c, back));
    }
}

template <einsum_spec Spec, class X, class Y>
auto einsum_pair(std::string_view subscripts, X&& x, Y&& y) {
    static constexpr einsum_spec spec = Spec;
    using T = product_t<X, Y>;
    const auto& a = contiguous_as<T>(std::forward<X>(x));
    const auto& b = contiguous_as<T>(std::forward<Y>(y));
    std::array<index_t, einsum_max_letters> extent;
    extent.fill(-1);
    einsum_extents(subscripts, spec, 0, a.shape(), extent);
    einsum_extents(subscripts, spec, 1, b.shape(), extent);
    return einsum_contraction<Spec>(a, b, extent);
}

/// Two operands a matrix product takes.
template <class... X>
inline constexpr bool product_pair = false;
template <class X, class Y>
inline constexpr bool product_pair<X, Y> = product_operands<X, Y>;

template <einsum_spec Spec, class... X, std::size_t... I>
auto einsum_run(std::string_view subscripts, std::index_sequence<I...> seq, X&&... x) {
    if constexpr (Spec.contraction && product_pair<X...>) {
        return einsum_pair<Spec>(subscripts, std::forward<X>(x)...);
    } else {
        const std::tuple<decltype(contiguous_as<std::remove_cv_t<value_type_t<X>>>(std::forward<X>(x)))...> operands(
            contiguous_as<std::remove_cv_t<value_type_t<X>>>(std::forward<X>(x))...);
        std::array<index_t, einsum_max_letters> extent;
        extent.fill(-1);
        static constexpr einsum_spec spec = Spec;
        (einsum_extents(subscripts, spec, I, std::get<I>(operands).shape(), extent), ...);
        return einsum_fused<Spec>(seq, std::get<I>(operands)...);
    }
}

}  // namespace detail

/// NumPy's einsum with explicit subscripts (`"ij,jk->ik"`, `"ii->"`, `"bij,bjk->bik"`): the
/// result's rank is the number of letters after "->"; a letter repeated in an operand takes
/// its diagonal, a letter not in the result is summed over. Malformed subscripts, a wrong
/// number of operands or of an operand's axes do not compile; extents that disagree throw
/// std::invalid_argument naming the letter and the shapes.
template <detail::einsum_text S, expression... X>
    requires(sizeof...(X) >= 1)
auto einsum(X&&... x) {
    constexpr detail::einsum_spec spec = detail::parse_einsum(S);
    static_assert(spec.well_formed,
                  "bsx: einsum: subscripts are letters, each operand's separated by commas, then "
                  "'->' and the result's letters (explicit form; at most 8 operands, 8 axes each)");
    constexpr bool operands_ok = !spec.well_formed || spec.operands == sizeof...(X);
    static_assert(operands_ok, "bsx: einsum: the subscripts name another number of operands than are given");
    constexpr bool ranks_ok = [&]<std::size_t... I>(std::index_sequence<I...>) {
        return !spec.well_formed || !operands_ok || ((spec.ranks[I] == rank_v<X>)&&...);
    }(std::index_sequence_for<X...>{});
    static_assert(ranks_ok, "bsx: einsum: an operand's subscripts must name each of its axes, one letter per axis");
    static_assert(spec.result_known, "bsx: einsum: a letter of the result is in no operand");
    static_assert(spec.result_distinct, "bsx: einsum: a letter appears twice in the result");
    if constexpr (spec.well_formed && operands_ok && ranks_ok && spec.result_known && spec.result_distinct)
        return detail::einsum_run<spec>(std::string_view(S.text, sizeof(S.text) - 1), std::index_sequence_for<X...>{},
                                        std::forward<X>(x)...);
}

}  // namespace bsx
