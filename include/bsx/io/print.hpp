// bsx/io/print.hpp: `std::ostream << x` for any expression, as NumPy's
// np.array2string(x, separator=', ') prints it: aligned columns, shortest round-trip
// floats, nan/inf, True/False, lines wrapped at 75 characters, and `...` summaries of
// large arrays. bsx::print_options, set for a scope with bsx::print_options_scope,
// holds NumPy's precision, threshold, edge items, suppress and line width.
#pragma once

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <limits>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "../expr/expression.hpp"
#include "../factories.hpp"

namespace bsx {

/// How arrays print; the defaults are NumPy's (np.get_printoptions()).
struct print_options {
    int precision = 8;         ///< at most this many digits after the point (scientific: of the mantissa)
    index_t threshold = 1000;  ///< arrays with more elements are summarized with `...`
    index_t edge_items = 3;    ///< elements kept at each end of each summarized axis
    bool suppress = false;     ///< true: no scientific notation because of small values
    index_t line_width = 75;   ///< rows wrap before this many characters
};

namespace detail {
inline print_options& current_print_options() noexcept {
    thread_local print_options options;
    return options;
}
}  // namespace detail

/// The options `<<` uses now, on this thread.
inline const print_options& get_print_options() noexcept { return detail::current_print_options(); }

/// Sets the print options of this thread until the end of the scope:
/// `bsx::print_options_scope fewer_digits({.precision = 3});`. A negative precision throws
/// std::invalid_argument, as NumPy's does; the other options take any value (a negative or
/// huge edge_items or line_width acts as NumPy's does).
class print_options_scope {
public:
    explicit print_options_scope(const print_options& options) : saved_(detail::current_print_options()) {
        if (options.precision < 0)
            throw std::invalid_argument("bsx: print_options: precision must be >= 0, not " +
                                        std::to_string(options.precision));
        detail::current_print_options() = options;
    }
    ~print_options_scope() { detail::current_print_options() = saved_; }
    // clang-format off
    print_options_scope(const print_options_scope&) = delete;
    print_options_scope& operator=(const print_options_scope&) = delete;
    // clang-format on

private:
    print_options saved_;
};

namespace detail {

/// x in fixed or scientific notation as NumPy's Dragon4 writes it: the shortest text that
/// reads back as x, with at most `precision` digits after the point (then correctly
/// rounded, trailing zeros dropped); with `exactly`, `precision` digits of x's exact
/// value (NumPy's min_digits: digits beyond the shortest are real digits, not zeros).
template <class F>
std::string float_digits(F x, std::chars_format fmt, int precision, bool exactly) {
    // Room for any F in fixed notation: all digits of the largest before the point, or a
    // subnormal's after it (those of long double run into the thousands).
    char buf[2 * (std::numeric_limits<F>::max_exponent10 + std::numeric_limits<F>::max_digits10) + 16];
    if (exactly) return std::string(buf, std::to_chars(buf, buf + sizeof buf, x, fmt, precision).ptr);
    auto r = std::to_chars(buf, buf + sizeof buf, x, fmt);
    std::string s(buf, r.ptr);
    const auto e = s.find('e');
    const auto dot = s.find('.');
    const std::size_t frac_end = e == std::string::npos ? s.size() : e;
    const std::size_t frac = dot == std::string::npos ? 0 : frac_end - dot - 1;
    if (int(frac) <= precision) return s;
    r = std::to_chars(buf, buf + sizeof buf, x, fmt, precision);
    s.assign(buf, r.ptr);
    const std::size_t end = fmt == std::chars_format::scientific ? s.find('e') : s.size();
    if (s.find('.') > end) return s;  // precision 0: no fraction, and the zeros are the integer's
    std::size_t keep = end;
    while (s[keep - 1] == '0') --keep;
    return s.erase(keep, end - keep);
}

/// A number split as NumPy's formatter sees it: integer part, digits after the point,
/// exponent digits with their sign ("+05"; empty in positional notation).
struct float_parts {
    std::string int_part, frac_part, exponent;
};

template <class F>
float_parts split_float(F x, bool scientific, int precision, bool exactly = false) {
    std::string s =
        float_digits(x, scientific ? std::chars_format::scientific : std::chars_format::fixed, precision, exactly);
    float_parts p;
    const auto e = s.find('e');
    if (e != std::string::npos) {
        p.exponent = s.substr(e + 1);
        s.erase(e);
    }
    const auto dot = s.find('.');
    p.int_part = s.substr(0, dot);
    if (dot != std::string::npos) p.frac_part = s.substr(dot + 1);
    return p;
}

/// Formats the elements of one array with a common width, as NumPy's FloatingFormat
/// does: positional or scientific chosen from all the values shown, integer parts
/// right-aligned, fractions padded (positional: with spaces; scientific: with more digits).
template <class F>
class float_format {
public:
    float_format(const std::vector<F>& shown, const print_options& o) : precision_(o.precision) {
        using M = std::common_type_t<F, double>;  // magnitudes: long double's beyond double's range
        M max_abs = 0, min_abs = 0;
        bool any_finite = false, any_nonfinite = false, neg_inf = false, any_nonzero = false;
        for (const F v : shown) {
            if (!std::isfinite(v)) {
                any_nonfinite = true;
                neg_inf = neg_inf || (std::isinf(v) && v < 0);
                continue;
            }
            any_finite = true;
            const M a = std::fabs(M(v));
            if (a == 0) continue;
            max_abs = any_nonzero ? std::max(max_abs, a) : a;
            min_abs = any_nonzero ? std::min(min_abs, a) : a;
            any_nonzero = true;
        }
        scientific_ = any_nonzero && (max_abs >= 1e8 || (!o.suppress && (min_abs < 1e-4 || max_abs / min_abs > 1000)));
        if (any_finite) {
            std::size_t frac = 0, exp_digits = 0;
            for (const F v : shown) {
                if (!std::isfinite(v)) continue;
                const auto p = split_float(v, scientific_, precision_);
                pad_left_ = std::max(pad_left_, p.int_part.size());
                frac = std::max(frac, p.frac_part.size());
                if (scientific_) exp_digits = std::max(exp_digits, p.exponent.size() - 1);
            }
            if (scientific_) {
                frac_digits_ = frac;
                exp_digits_ = exp_digits;
                pad_right_ = exp_digits + 2 + frac;
            } else {
                pad_right_ = frac;
            }
        }
        if (any_nonfinite && any_finite) {
            const std::size_t room = pad_right_ + 1;  // the point and what follows it
            const std::size_t inf_len = neg_inf ? 4 : 3;
            pad_left_ = std::max({pad_left_, 3 > room ? 3 - room : 0, inf_len > room ? inf_len - room : 0});
        }
    }

    std::string operator()(F v) const {
        if (!std::isfinite(v)) {
            const std::string s = std::isnan(v) ? "nan" : (v < 0 ? "-inf" : "inf");  // never "-nan"
            const std::size_t width = pad_left_ + pad_right_ + 1;
            return std::string(width > s.size() ? width - s.size() : 0, ' ') + s;
        }
        // Scientific: every mantissa gets the same number of digits (NumPy's second pass).
        const auto p = scientific_ ? split_float(v, true, int(frac_digits_), true) : split_float(v, false, precision_);
        std::string out(pad_left_ > p.int_part.size() ? pad_left_ - p.int_part.size() : 0, ' ');
        out += p.int_part;
        out += '.';
        out += p.frac_part;
        if (scientific_) {
            out += 'e';
            out += p.exponent[0];
            out.append(exp_digits_ + 1 - p.exponent.size(), '0');
            out += p.exponent.substr(1);
        } else {
            out.append(pad_right_ - p.frac_part.size(), ' ');
        }
        return out;
    }

private:
    int precision_;
    bool scientific_ = false;
    std::size_t pad_left_ = 0, pad_right_ = 0, frac_digits_ = 0, exp_digits_ = 0;
};

/// Integers right-aligned to the widest shown value; one-byte integers as numbers.
template <class I>
class integer_format {
public:
    explicit integer_format(const std::vector<I>& shown) {
        for (const I v : shown) width_ = std::max(width_, std::to_string(v).size());
    }
    std::string operator()(I v) const {
        const std::string s = std::to_string(v);
        return std::string(width_ - s.size(), ' ') + s;
    }

private:
    std::size_t width_ = 0;
};

/// True/False; " True" in arrays of rank > 0 so that columns line up.
class bool_format {
public:
    explicit bool_format(bool padded) : true_text_(padded ? " True" : "True") {}
    std::string operator()(bool v) const { return v ? true_text_ : "False"; }

private:
    std::string true_text_;
};

/// Any other element type: its own operator<<, unaligned.
struct stream_format {
    template <class V>
    std::string operator()(const V& v) const {
        std::ostringstream os;
        os << v;
        return os.str();
    }
};

/// Whether a summarized axis of extent n is cut, with edge (>= 0) items at each end kept:
/// NumPy's 2 * edge < n, which cannot overflow here.
inline bool cut_axis(bool summarize, index_t edge, index_t n) noexcept { return summarize && edge < n - edge; }

/// The indices of an axis of extent n whose elements the format is built from: all, or the
/// edge items at each end. With no edge items (0 or fewer), NumPy's formatter sees every
/// element (its a[:0] and a[-0:]), though only the last one prints.
inline std::vector<index_t> shown_indices(index_t n, bool summarize, index_t edge_items) {
    const index_t edge = std::max<index_t>(edge_items, 0);
    const bool cut = cut_axis(summarize, edge, n) && edge > 0;
    std::vector<index_t> idx;
    for (index_t i = 0; i < n; ++i)
        if (!cut || i < edge || i >= n - edge) idx.push_back(i);
    return idx;
}

/// NumPy's _extendLine: starts a new line when `word` would pass `width`, unless the
/// line holds nothing but its indent.
inline void extend_line(std::string& s, std::string& line, std::string_view word, std::size_t width,
                        std::string_view indent) {
    if (line.size() + word.size() > width && line.size() > indent.size()) {
        line.erase(line.find_last_not_of(' ') + 1);
        s += line;
        s += '\n';
        line = indent;
    }
    line += word;
}

/// Lays out the nested brackets of an evaluated array as NumPy's _formatArray does.
template <class T, std::size_t N, class Format>
class array_printer {
public:
    array_printer(const array<T, N>& a, const Format& format, const print_options& o, bool summarize)
        : a_(a),
          format_(format),
          strides_(contiguous_strides(a.shape())),
          summarize_(summarize),
          edge_(std::max<index_t>(o.edge_items, 0)) {}

    std::string print(std::size_t line_width) const { return recurse(0, 0, " ", line_width); }

private:
    const array<T, N>& a_;
    const Format& format_;
    shape_t<N> strides_;
    bool summarize_;
    index_t edge_;

    std::string recurse(std::size_t axis, index_t offset, const std::string& indent, std::size_t width) const {
        if (axis == N) return format_(a_.data()[offset]);
        const std::string next_indent = indent + ' ';
        const std::size_t next_width = width > 0 ? width - 1 : 0;
        const index_t n = a_.shape()[axis];
        const bool cut = cut_axis(summarize_, edge_, n);
        const index_t leading = cut ? edge_ : 0, trailing = cut ? edge_ : n;
        const auto at = [&](index_t i) { return offset + i * strides_[axis]; };
        std::string s;
        if (axis + 1 == N) {
            const std::size_t elem_width = width > 0 ? width - 1 : 0;  // room for ',' or ']'
            std::string line = indent;
            for (index_t i = 0; i < leading; ++i) {
                extend_line(s, line, recurse(axis + 1, at(i), next_indent, next_width), elem_width, indent);
                line += ", ";
            }
            if (cut) {
                extend_line(s, line, "...", elem_width, indent);
                line += ", ";
            }
            for (index_t i = trailing; i > 1; --i) {
                extend_line(s, line, recurse(axis + 1, at(n - i), next_indent, next_width), elem_width, indent);
                line += ", ";
            }
            extend_line(s, line, recurse(axis + 1, at(n - 1), next_indent, next_width), elem_width, indent);
            s += line;
        } else {
            // A comma and a newline per axis below (not "," + std::string(...): g++ 12 warns
            // falsely, -Wrestrict).
            std::string separator(N - axis, '\n');
            separator[0] = ',';
            for (index_t i = 0; i < leading; ++i)
                s += indent + recurse(axis + 1, at(i), next_indent, next_width) + separator;
            if (cut) s += indent + "..." + separator;
            for (index_t i = trailing; i > 1; --i)
                s += indent + recurse(axis + 1, at(n - i), next_indent, next_width) + separator;
            s += indent + recurse(axis + 1, at(n - 1), next_indent, next_width);
        }
        std::string bracketed = "[";  // not "[" + s.substr(...): g++ 12 warns falsely (-Wrestrict)
        bracketed.append(s, indent.size()).push_back(']');
        return bracketed;
    }
};

/// The elements that print (all of them, or the edges of a summarized array), C order.
template <class T, std::size_t N>
std::vector<T> shown_values(const array<T, N>& a, bool summarize, index_t edge) {
    std::vector<T> out;
    const auto strides = contiguous_strides(a.shape());
    std::array<std::vector<index_t>, N> keep;
    for (std::size_t k = 0; k < N; ++k) keep[k] = shown_indices(a.shape()[k], summarize, edge);
    const auto walk = [&](auto&& self, std::size_t axis, index_t offset) -> void {
        if (axis == N) {
            out.push_back(a.data()[offset]);
            return;
        }
        for (const index_t i : keep[axis]) self(self, axis + 1, offset + i * strides[axis]);
    };
    walk(walk, 0, 0);
    return out;
}

template <class T, std::size_t N>
std::string array_to_string(const array<T, N>& a, const print_options& o) {
    if (N > 0 && a.size() == 0) return "[]";  // as NumPy, whatever the shape
    const bool summarize = a.size() > o.threshold;
    const auto print_with = [&](const auto& format) {
        return array_printer<T, N, std::remove_cvref_t<decltype(format)>>(a, format, o, summarize)
            .print(static_cast<std::size_t>(std::max<index_t>(o.line_width, 0)));
    };
    if constexpr (std::is_same_v<T, bool>) {
        return print_with(bool_format(N > 0));
    } else if constexpr (std::is_integral_v<T>) {
        return print_with(integer_format<T>(shown_values(a, summarize, o.edge_items)));
    } else if constexpr (std::is_floating_point_v<T>) {
        return print_with(float_format<T>(shown_values(a, summarize, o.edge_items), o));
    } else {
        return print_with(stream_format{});
    }
}

}  // namespace detail

/// Prints the values of any expression (evaluated first) as NumPy prints an array.
template <expression E>
std::ostream& operator<<(std::ostream& os, const E& e) {
    if constexpr (std::is_same_v<std::remove_cvref_t<E>, array<value_type_t<E>, rank_v<E>>>)
        return os << detail::array_to_string(e, get_print_options());  // no copy, no evaluator
    else
        return os << detail::array_to_string(eval(e), get_print_options());
}

}  // namespace bsx
