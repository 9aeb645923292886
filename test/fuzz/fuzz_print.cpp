// libFuzzer target: printing. The input bytes choose bsx::print_options (every field,
// extremes included: negative, zero and huge edge items, thresholds and line widths, any
// precision) and an array (element type, rank 0 to 3, extents, and values: raw bit
// patterns, so NaN, infinities and subnormals, or small numbers). It is printed under
// those options, and the text is read back: a negative precision must be refused with
// std::invalid_argument; otherwise the tokens between the brackets must be, in order, the
// elements NumPy's rules show (all, or edge items around `...` on each summarized axis),
// each read back as a number within half a unit of its last printed digit of the value
// (integers and booleans exactly, nan and inf as themselves). Anything else aborts.
#include <bsx/bsx.hpp>

#include "fuzz_input.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using bsx::index_t;
using fuzz::bytes;

constexpr index_t huge = std::numeric_limits<index_t>::max();
constexpr index_t tiny = std::numeric_limits<index_t>::min();

/// One of `choices`, or the next byte itself when the choice falls past them.
template <class T, std::size_t K>
T pick(bytes& in, const std::array<T, K>& choices) {
    const std::uint8_t b = in.next();
    return b < K ? choices[b] : T(b - K);
}

bsx::print_options options_from(bytes& in) {
    bsx::print_options o;
    o.precision = pick(in, std::array<int, 9>{8, 0, 1, 3, 17, 40, -1, std::numeric_limits<int>::max(),
                                              std::numeric_limits<int>::min()});
    o.threshold = pick(in, std::array<index_t, 7>{1000, 0, 1, 5, -1, huge, tiny});
    o.edge_items = pick(in, std::array<index_t, 9>{3, 0, 1, 2, -1, -7, huge, tiny, huge / 2 + 1});
    o.suppress = in.next() % 2 == 1;
    o.line_width = pick(in, std::array<index_t, 8>{75, 0, 1, -1, 10, 30, huge, tiny});
    return o;
}

/// An element of type T from the bytes: raw bits, a small integer, or a value that
/// steers NumPy's choice of notation.
template <class T>
T value_from(bytes& in) {
    const std::uint8_t mode = in.next();
    if constexpr (std::is_same_v<T, bool>) {
        return mode % 2 == 1;
    } else if (mode % 4 == 0) {
        unsigned char raw[sizeof(T)];
        for (unsigned char& c : raw) c = in.next();
        T v;
        std::memcpy(&v, raw, sizeof(T));
        return v;
    } else if constexpr (std::is_floating_point_v<T>) {
        constexpr std::array<double, 8> scale{1, 0.5, 0.1, 1e-5, 1e8, 1e-300, 1e300, 12345.678};
        return T(double(std::int8_t(in.next())) * scale[mode / 4 % 8]);
    } else {
        return T(std::int8_t(in.next()));
    }
}

/// What a number token says: a value, and the half unit of its last digit (0: exact). In
/// long double, whose range holds what a double rounds to (-1.6e308 prints as -2.e+308).
struct reading {
    long double value;
    long double half_unit;
};

reading read_number(const std::string& t) {
    if (t == "nan") return {std::numeric_limits<long double>::quiet_NaN(), 0};
    if (t == "inf" || t == "-inf") return {t[0] == '-' ? -HUGE_VALL : HUGE_VALL, 0};
    char* end = nullptr;
    const long double v = std::strtold(t.c_str(), &end);
    if (end != t.c_str() + t.size()) std::abort();  // not a number
    const auto dot = t.find('.'), e = t.find('e');
    const std::size_t stop = e == std::string::npos ? t.size() : e;
    const int digits = dot == std::string::npos ? 0 : int(stop - dot - 1);
    const int exponent = e == std::string::npos ? 0 : std::atoi(t.c_str() + e + 1);
    return {v, 0.5L * std::pow(10.0L, (long double)(exponent - digits))};
}

template <class T>
void check_token(const std::string& t, T v) {
    if constexpr (std::is_same_v<T, bool>) {
        if (t != (v ? "True" : "False")) std::abort();
    } else if constexpr (std::is_integral_v<T>) {
        if (t != std::to_string(v)) std::abort();
    } else {
        const long double x = v;
        const reading r = read_number(t);
        if (std::isnan(x) || std::isinf(x)) {
            if (!(std::isnan(x) ? std::isnan(r.value) : r.value == x)) std::abort();
            return;
        }
        // Rounding to the printed digits, plus a few ulps of T for the shortest form (which
        // may lie past the nearest of its length, inside the round-trip interval).
        const long double ulp = std::nextafter(std::fabs(v), std::numeric_limits<T>::infinity()) - std::fabs(v);
        if (!(std::fabs(r.value - x) <= r.half_unit * (1 + 1e-9L) + 4 * ulp)) std::abort();
    }
}

/// The indices of an axis of extent n that print: NumPy's rules (print.hpp restates them).
std::vector<index_t> printed(index_t n, bool summarize, index_t edge_items) {
    const index_t edge = std::max<index_t>(edge_items, 0);
    std::vector<index_t> idx;
    if (!summarize || edge >= n - edge) {
        for (index_t i = 0; i < n; ++i) idx.push_back(i);
    } else {
        for (index_t i = 0; i < edge; ++i) idx.push_back(i);
        for (index_t i = edge == 0 ? n - 1 : n - edge; i < n; ++i) idx.push_back(i);
    }
    return idx;
}

template <class T, std::size_t N>
void run(bytes& in, const bsx::print_options& options) {
    bsx::shape_t<N> shape{};
    for (auto& e : shape) e = in.next() % 8;
    bsx::array<T, N> a(shape);
    for (T& v : a) v = value_from<T>(in);
    std::ostringstream os;
    try {
        bsx::print_options_scope scope(options);
        if (in.next() % 2 == 0)
            os << a;
        else
            os << bsx::transpose(bsx::transpose(a));  // an expression: evaluated first
    } catch (const std::invalid_argument&) {
        if (options.precision >= 0) std::abort();
        return;
    }
    if (options.precision < 0) std::abort();
    const std::string text = os.str();
    if (N > 0 && a.size() == 0) {
        if (text != "[]") std::abort();
        return;
    }
    // The elements NumPy shows, in order.
    const bool summarize = a.size() > options.threshold;
    std::array<std::vector<index_t>, N> keep;
    for (std::size_t k = 0; k < N; ++k) keep[k] = printed(shape[k], summarize, options.edge_items);
    std::vector<T> want;
    const auto strides = bsx::contiguous_strides(shape);
    const auto walk = [&](auto&& self, std::size_t axis, index_t offset) -> void {
        if (axis == N) {
            want.push_back(a.data()[offset]);
            return;
        }
        for (const index_t i : keep[axis]) self(self, axis + 1, offset + i * strides[axis]);
    };
    walk(walk, 0, 0);
    // The tokens: the text without brackets, commas, blank space and `...`.
    std::vector<std::string> tokens;
    int depth = 0;
    std::string token;
    const auto flush = [&] {
        if (!token.empty() && token != "...") tokens.push_back(token);
        token.clear();
    };
    for (const char c : text) {
        if (c == '[' || c == ']' || c == ',' || c == ' ' || c == '\n') {
            flush();
            depth += c == '[' ? 1 : (c == ']' ? -1 : 0);
            if (depth < 0) std::abort();
        } else {
            token += c;
        }
    }
    flush();
    if (depth != 0 || tokens.size() != want.size()) std::abort();
    for (std::size_t i = 0; i < want.size(); ++i) check_token<T>(tokens[i], want[i]);  // T: vector<bool> has proxies
}

template <class T>
void run_rank(bytes& in, const bsx::print_options& options) {
    switch (in.next() % 4) {
        case 0:
            return run<T, 0>(in, options);
        case 1:
            return run<T, 1>(in, options);
        case 2:
            return run<T, 2>(in, options);
        default:
            return run<T, 3>(in, options);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    bytes in{data, size};
    const bsx::print_options options = options_from(in);
    switch (in.next() % 6) {
        case 0:
            run_rank<double>(in, options);
            break;
        case 1:
            run_rank<float>(in, options);
            break;
        case 2:
            run_rank<std::int64_t>(in, options);
            break;
        case 3:
            run_rank<std::uint64_t>(in, options);
            break;
        case 4:
            run_rank<std::int8_t>(in, options);
            break;
        default:
            run_rank<bool>(in, options);
            break;
    }
    return 0;
}
