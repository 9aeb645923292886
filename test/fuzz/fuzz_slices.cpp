// libFuzzer target: slicing. The input bytes choose an array of rank 1 to 3 (extents 0 to
// 7, element i holding i), a pattern of slice specs (ranges, integers, `all`, `newaxis`),
// and their values: starts, stops and steps drawn from the extremes of index_t (PTRDIFF_MIN,
// PTRDIFF_MAX and their neighbours), small numbers and raw 64-bit values. bsx::slice of the
// array, of a lazy expression over it, and of a slice of it must read the elements that
// Python's slice rules (PySlice_AdjustIndices, restated here in 128-bit arithmetic) select,
// and writing through the slice must change exactly those. A step of 0 must throw
// std::invalid_argument and an integer index out of range std::out_of_range. Anything else
// aborts.
#include <bsx/bsx.hpp>

#include "fuzz_input.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using bsx::index_t;
using fuzz::bytes;

constexpr index_t most = std::numeric_limits<index_t>::max();
constexpr index_t least = std::numeric_limits<index_t>::min();

/// A start, stop, step or integer index: an extreme, a small number, or raw bits.
index_t number_from(bytes& in) {
    constexpr std::array<index_t, 12> extremes{most, least, most - 1, least + 1, most / 2, least / 2,
                                               0,    1,     -1,       2,         -2,       7};
    const std::uint8_t b = in.next();
    if (b < extremes.size()) return extremes[b];
    if (b < 200) return index_t(std::int8_t(in.next())) % 10;
    std::uint64_t raw = 0;
    for (int k = 0; k < 8; ++k) raw = raw << 8 | in.next();
    return index_t(raw);
}

using wide = __int128;

/// The indices a Python slice start:stop:step of an axis of extent n selects.
std::vector<index_t> python_slice(index_t start, index_t stop, index_t step, index_t n) {
    const auto adjust = [&](wide i) -> wide {
        if (i < 0) {
            i += n;
            if (i < 0) i = step < 0 ? -1 : 0;
        } else if (i >= n) {
            i = step < 0 ? n - 1 : n;
        }
        return i;
    };
    const wide b = adjust(start), e = adjust(stop);
    std::vector<index_t> out;
    for (wide i = b; step > 0 ? i < e : i > e; i += step) out.push_back(index_t(i));
    return out;
}

/// A spec of a pattern, decoded: `all`, an integer, a range or `newaxis` by its type.
template <class S>
S spec_from(bytes& in) {
    if constexpr (std::is_same_v<S, bsx::range_t>) {
        const index_t b = number_from(in), e = number_from(in), s = number_from(in);
        return bsx::range(b, e, s);
    } else if constexpr (std::is_same_v<S, index_t>) {
        return number_from(in);
    } else {
        return S{};
    }
}

/// The flat index of the element of an array of `shape` that NumPy's basic indexing reads,
/// for each element of the result in row-major order; or none, and the kind of exception
/// bsx must throw (1: std::invalid_argument, 2: std::out_of_range).
template <std::size_t N, class... S>
std::pair<std::vector<double>, int> reference(const bsx::shape_t<N>& shape, const S&... specs) {
    std::vector<std::vector<index_t>> result_axes;  // per result axis, the flat offsets it adds
    const auto strides = bsx::contiguous_strides(shape);
    index_t base = 0;
    std::size_t in = 0;
    int throws = 0;
    const auto apply = [&](const auto& spec) {
        using T = std::remove_cvref_t<decltype(spec)>;
        if constexpr (std::is_same_v<T, bsx::newaxis_t>) {
            result_axes.push_back({0});
        } else if constexpr (std::is_same_v<T, bsx::all_t>) {
            std::vector<index_t> offs;
            for (index_t i = 0; i < shape[in]; ++i) offs.push_back(i * strides[in]);
            result_axes.push_back(offs);
            ++in;
        } else if constexpr (std::is_same_v<T, bsx::range_t>) {
            if (spec.step == 0) {
                throws = throws ? throws : 1;
            } else {
                std::vector<index_t> offs;
                for (const index_t i : python_slice(spec.begin, spec.end, spec.step, shape[in]))
                    offs.push_back(i * strides[in]);
                result_axes.push_back(offs);
            }
            ++in;
        } else {
            const wide i = spec < 0 ? wide(spec) + shape[in] : wide(spec);
            if (i < 0 || i >= shape[in])
                throws = throws ? throws : 2;
            else
                base += index_t(i) * strides[in];
            ++in;
        }
    };
    (apply(specs), ...);
    for (; in < N; ++in) {
        std::vector<index_t> offs;
        for (index_t i = 0; i < shape[in]; ++i) offs.push_back(i * strides[in]);
        result_axes.push_back(offs);
    }
    if (throws) return {{}, throws};
    std::vector<double> out;
    const auto walk = [&](auto&& self, std::size_t axis, index_t offset) -> void {
        if (axis == result_axes.size()) {
            out.push_back(double(offset));
            return;
        }
        for (const index_t o : result_axes[axis]) self(self, axis + 1, offset + o);
    };
    walk(walk, 0, base);
    return {out, 0};
}

template <class E>
std::vector<double> values_of(const E& e) {
    const auto a = bsx::eval(e);
    return std::vector<double>(a.begin(), a.end());
}

/// Runs f; the kind of exception it threw (0: none).
template <class F>
int kind_thrown(F&& f) {
    try {
        f();
    } catch (const std::out_of_range&) {
        return 2;
    } catch (const std::invalid_argument&) {
        return 1;
    }
    return 0;
}

template <std::size_t N, class... S>
void run(bytes& in) {
    bsx::shape_t<N> shape{};
    for (auto& e : shape) e = in.next() % 8;
    bsx::array<double, N> a(shape);
    for (index_t i = 0; i < a.size(); ++i) a.data()[i] = double(i);
    const std::tuple<S...> specs{spec_from<S>(in)...};
    const auto [want, throws] = std::apply([&](const auto&... s) { return reference<N>(shape, s...); }, specs);

    // A slice of memory, of a lazy expression, and of a slice of all of it.
    std::vector<double> got;
    const int kinds[3] = {
        kind_thrown([&] { got = std::apply([&](const auto&... s) { return values_of(bsx::slice(a, s...)); }, specs); }),
        kind_thrown([&] {
            if (values_of(std::apply([&](const auto&... s) { return bsx::slice(a + 0.0, s...); }, specs)) != got)
                std::abort();
        }),
        kind_thrown([&] {
            const auto whole = bsx::slice(a, bsx::range(0, most, 1));  // the same elements, through a view
            if (values_of(std::apply([&](const auto&... s) { return bsx::slice(whole, s...); }, specs)) != got)
                std::abort();
        })};
    for (const int k : kinds)
        if (k != throws) std::abort();
    if (throws) return;
    if (got != want) std::abort();
    // Writing through the slice changes exactly the elements it reads.
    std::apply([&](const auto&... s) { bsx::slice(a, s...) = -1.0; }, specs);
    std::vector<bool> hit(std::size_t(a.size()), false);
    for (const double i : want) hit[std::size_t(i)] = true;
    for (index_t i = 0; i < a.size(); ++i)
        if ((a.data()[i] == -1.0) != hit[std::size_t(i)]) std::abort();
}

using R = bsx::range_t;
using I = index_t;
using A = bsx::all_t;
using X = bsx::newaxis_t;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    bytes in{data, size};
    switch (in.next() % 10) {
        case 0:
            run<1, R>(in);
            break;
        case 1:
            run<1, I>(in);
            break;
        case 2:
            run<2, R, R>(in);
            break;
        case 3:
            run<2, I, R>(in);
            break;
        case 4:
            run<2, R, X, I>(in);
            break;
        case 5:
            run<2, A, R>(in);
            break;
        case 6:
            run<3, R, R, R>(in);
            break;
        case 7:
            run<3, R, I, R>(in);
            break;
        case 8:
            run<3, X, R, A, R>(in);
            break;
        default:
            run<3, R>(in);
            break;
    }
    return 0;
}
