// bsx/io/text.hpp: numbers in text files, as np.loadtxt and np.savetxt. load_txt<T, N>(path)
// reads one row per line (any whitespace or a given delimiter between values, '#' comments,
// blank lines skipped); save_txt(path, x) writes numbers that read back to the same bits.
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "../array.hpp"
#include "../expr/expression.hpp"
#include "npy.hpp"

namespace bsx {

namespace detail {

/// Element types of text files: the integers and floating-point types of .npy files (not bool).
template <class T>
concept txt_element = npy_element<T> && !std::is_same_v<T, bool>;

/// A short name of T for messages: "double", "float", "int32", "uint8", ...
template <txt_element T>
std::string txt_type_name() {
    if constexpr (std::is_same_v<T, double>)
        return "double";
    else if constexpr (std::is_same_v<T, float>)
        return "float";
    else
        return std::string(std::is_signed_v<T> ? "int" : "uint") + std::to_string(8 * sizeof(T));
}

/// The value of a decimal number that from_chars found out of range: the infinity or the
/// zero (with the number's sign) that strtod gives, decided by the decimal exponent of its
/// first significant digit.
template <class T>
T txt_out_of_range(std::string_view token) {
    const bool negative = !token.empty() && token[0] == '-';
    long long lead = 0;  // decimal exponent of the first nonzero digit, before the 'e' part
    bool seen_digit = false, after_point = false;
    std::size_t at = 0;
    for (; at < token.size() && token[at] != 'e' && token[at] != 'E'; ++at) {
        const char c = token[at];
        if (c == '.') {
            after_point = true;
        } else if (c >= '0' && c <= '9') {
            if (!seen_digit && c != '0') seen_digit = true;
            if (seen_digit && !after_point) ++lead;
            if (!seen_digit && after_point) --lead;
        }
    }
    long long exponent = 0;
    if (at < token.size()) {
        const char* first = token.data() + at + 1;
        if (first < token.data() + token.size() && *first == '+') ++first;
        const auto [end, ec] = std::from_chars(first, token.data() + token.size(), exponent);
        if (ec == std::errc::result_out_of_range) exponent = *first == '-' ? -(1LL << 40) : (1LL << 40);
        (void)end;
    }
    const T magnitude =
        lead + std::clamp(exponent, -(1LL << 40), 1LL << 40) > 0 ? std::numeric_limits<T>::infinity() : T(0);
    return negative ? -magnitude : magnitude;
}

/// Parses the number that starts at `first` (a leading '+' allowed) into `out`; returns where
/// it ends, or nullptr if no T starts there or it is out of T's range (a floating-point value
/// out of range becomes the infinity or zero that strtod gives).
template <class T>
const char* txt_parse(const char* first, const char* last, T& out) {
    const char* start = first;
    if (last - first > 1 && *first == '+' && first[1] != '-' && first[1] != '+') ++first;
    const auto [end, ec] = std::from_chars(first, last, out);
    if (ec == std::errc()) return end;
    if constexpr (std::is_floating_point_v<T>) {
        if (ec == std::errc::result_out_of_range) {
            out = txt_out_of_range<T>(std::string_view(start, std::size_t(end - start)));
            return end;
        }
    }
    return nullptr;
}

inline bool txt_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/// The values of a text file in row-major order, and how many rows and columns they form.
template <class T>
struct txt_table {
    std::vector<T> values;
    index_t rows = 0;
    index_t columns = 0;
};

/// Reads the numbers of `path`; `delimiter` 0 means any run of whitespace. One pass over the
/// file: each value is parsed where it starts, and what follows it must end it.
template <class T>
txt_table<T> read_txt(const std::filesystem::path& path, char delimiter) {
    const auto fail = [&](const std::string& what) { throw_file_error("load_txt", path, what); };
    std::ifstream in;
    const std::uint64_t size = open_for_reading(in, path, fail);
    if (size > std::uint64_t(std::numeric_limits<std::ptrdiff_t>::max() / 8)) fail("the file is too large to read");
    const auto text = std::make_unique_for_overwrite<char[]>(static_cast<std::size_t>(size));
    read_exactly(in, text.get(), static_cast<std::size_t>(size), "text", fail);

    const char* p = text.get();
    const char* const end = p + size;
    txt_table<T> table;
    std::size_t line = 1, first_data_line = 0;
    const char* line_start = p;
    index_t count = 0;          // values on this line so far
    bool expect_value = false;  // after a delimiter: a value must come
    // Blanks around values: whitespace, less the delimiter (a tab, say).
    const auto blank = [&](char c) { return txt_space(c) && c != delimiter; };
    const auto separator = [&](char c) { return txt_space(c) || c == '\n' || c == '#' || c == delimiter; };
    const char* value_start = p;  // of the last value parsed
    const auto bad_value = [&](const char* at, index_t index) {
        const char* stop = at;
        while (stop < end && !separator(*stop)) ++stop;
        if (delimiter != 0)  // the whole field, spaces inside included
            while (stop < end && *stop != delimiter && *stop != '\n' && *stop != '#') ++stop;
        while (stop > at && blank(stop[-1])) --stop;
        const std::string token(at, stop);
        fail("line " + std::to_string(line) + ", value " + std::to_string(index + 1) + ": '" + token + "' is not " +
             (token.empty() ? std::string("a value (an empty field)") : "a " + txt_type_name<T>()));
    };
    const auto end_line = [&] {
        if (expect_value) bad_value(p, count);  // a delimiter ends the line
        if (count > 0) {
            if (table.rows == 0) {
                table.columns = count;
                first_data_line = line;
                // Room for as many values as lines like this one would hold (never more
                // than one per byte and a half of the file).
                const auto per_value = std::max<std::uint64_t>(2, std::uint64_t(p - line_start) / std::uint64_t(count));
                table.values.reserve(static_cast<std::size_t>(size / per_value + std::uint64_t(count)));
            } else if (count != table.columns) {
                fail("line " + std::to_string(line) + " has " + std::to_string(count) + " values where line " +
                     std::to_string(first_data_line) + " has " + std::to_string(table.columns));
            }
            ++table.rows;
        }
        count = 0;
        ++line;
    };
    while (true) {
        while (p < end && blank(*p)) ++p;
        if (p == end) {
            end_line();
            break;
        }
        const char c = *p;
        if (c == '\n') {
            end_line();
            line_start = ++p;
        } else if (c == '#') {
            const void* eol = std::memchr(p, '\n', std::size_t(end - p));
            p = eol != nullptr ? static_cast<const char*>(eol) : end;
        } else if (delimiter != 0 && c == delimiter) {
            if (count == 0 || expect_value) bad_value(p, count);  // an empty field
            expect_value = true;
            ++p;
        } else {
            if (delimiter != 0 && count > 0 && !expect_value) bad_value(value_start, count - 1);  // two in one field
            T value;
            const char* after = txt_parse(p, end, value);
            if (after == nullptr || (after < end && !separator(*after))) bad_value(p, count);
            value_start = p;
            table.values.push_back(value);
            ++count;
            expect_value = false;
            p = after;
        }
    }
    return table;
}

/// Formats v so that it reads back to the same value: floating point as NumPy's default
/// "%.18e" (NaN as "nan"), integers in full.
template <class T>
void txt_format(std::string& out, T v) {
    char buf[64];
    if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(v)) {
            out += "nan";
            return;
        }
        const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific, 18);
        out.append(buf, r.ptr);
    } else {
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        out.append(buf, r.ptr);
    }
}

template <class T, std::size_t N>
array<T, N> load_txt_as(const std::filesystem::path& path, char delimiter) {
    static_assert(N == 1 || N == 2, "bsx::load_txt reads rank 1 or rank 2 arrays");
    static_assert(txt_element<T>, "bsx::load_txt reads integers, float or double (not bool)");
    auto table = read_txt<T>(path, delimiter);
    shape_t<N> shape{};
    if constexpr (N == 2) {
        shape = {table.rows, table.columns};
    } else {
        // np.loadtxt's rank 1: one value per line, or a single line.
        if (table.rows > 1 && table.columns > 1)
            throw_file_error("load_txt", path,
                             std::to_string(table.rows) + " lines of " + std::to_string(table.columns) +
                                 " values make a rank 2 array where rank 1 was asked for");
        shape = {index_t(table.values.size())};
    }
    array<T, N> a(shape);
    std::copy(table.values.begin(), table.values.end(), a.data());
    return a;
}

template <expression E>
void save_txt_as(const std::filesystem::path& path, const E& x, char delimiter) {
    using T = value_type_t<E>;
    constexpr std::size_t N = rank_v<E>;
    static_assert(N == 1 || N == 2, "bsx::save_txt writes rank 1 or rank 2 arrays");
    static_assert(txt_element<T>, "bsx::save_txt writes integers, float or double (not bool)");
    const auto& a = detail::contiguous_as<T>(x);
    const index_t rows = a.shape()[0];
    const index_t columns = N == 2 ? a.shape()[N - 1] : 1;

    write_replacing(path, "save_txt", [&](std::ofstream& out) {
        std::string line;
        const T* p = a.data();
        for (index_t r = 0; r < rows && out; ++r) {
            line.clear();
            for (index_t c = 0; c < columns; ++c) {
                if (c > 0) line += delimiter;
                txt_format(line, *p++);
            }
            line += '\n';
            out.write(line.data(), std::streamsize(line.size()));
        }
    });
}

}  // namespace detail

/// Reads a text file of numbers as np.loadtxt: one row per line, values separated by any
/// whitespace, '#' starting a comment to the end of the line, blank lines skipped. N = 2
/// gives (lines, values per line); N = 1 takes a file of one value per line, or of a single
/// line. T is an integer type, float or double ("nan", "inf" and a leading '+' are read).
/// Throws std::runtime_error naming the file and the 1-based line for a value that does not
/// parse as a T, a line with another number of values than the first, or a file that cannot
/// be read.
template <class T, std::size_t N>
array<T, N> load_txt(const std::filesystem::path& path) {
    return detail::load_txt_as<T, N>(path, 0);
}

/// load_txt with `delimiter` between values (whitespace around a value is ignored; an empty
/// field is an error).
template <class T, std::size_t N>
array<T, N> load_txt(const std::filesystem::path& path, char delimiter) {
    return detail::load_txt_as<T, N>(path, delimiter);
}

/// Writes x (rank 1: one value per line; rank 2: one row per line) as np.savetxt: values
/// separated by a space, floating point as "%.18e", which reads back to the same bits;
/// integers are written in full (NumPy would write them as "%.18e" too). Written through a
/// temporary file renamed into place; std::runtime_error naming the file on failure.
template <expression E>
void save_txt(const std::filesystem::path& path, const E& x) {
    detail::save_txt_as(path, x, ' ');
}

/// save_txt with `delimiter` between the values of a row.
template <expression E>
void save_txt(const std::filesystem::path& path, const E& x, char delimiter) {
    detail::save_txt_as(path, x, delimiter);
}

}  // namespace bsx
