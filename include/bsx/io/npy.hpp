// bsx/io/npy.hpp: NumPy .npy files. save_npy(path, x) evaluates x and writes it
// (little-endian, C order) through a temporary file renamed into place; load_npy<T, N>(path)
// reads format versions 1.0 to 3.0 in either byte order and either memory order.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <vector>

#include "../array.hpp"
#include "../detail/files.hpp"
#include "../detail/refusals.hpp"
#include "../expr/expression.hpp"
#include "../factories.hpp"
#include "../view/permute.hpp"

namespace bsx {

namespace detail {

/// Element types with a .npy dtype: bool, 1- to 8-byte integers, float, double.
template <class T>
concept npy_element = std::is_same_v<T, bool> ||
                      (std::is_integral_v<T> && !std::is_same_v<T, char> &&
                       (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8)) ||
                      std::is_same_v<T, float> || std::is_same_v<T, double>;

template <npy_element T>
constexpr char npy_kind() noexcept {
    if constexpr (std::is_same_v<T, bool>)
        return 'b';
    else if constexpr (std::is_floating_point_v<T>)
        return 'f';
    else if constexpr (std::is_signed_v<T>)
        return 'i';
    else
        return 'u';
}

/// The dtype string save_npy writes: '|b1', '|u1', '<i4', '<f8', ...
template <npy_element T>
std::string npy_descr() {
    return std::string(1, sizeof(T) == 1 ? '|' : '<') + npy_kind<T>() + std::to_string(sizeof(T));
}

template <std::size_t Bytes>
void reverse_bytes(unsigned char* p) noexcept {
    std::reverse(p, p + Bytes);
}

/// The header dictionary of a .npy file: {'descr': ..., 'fortran_order': ..., 'shape': (...)}.
struct npy_header {
    std::string descr;
    bool fortran_order = false;
    std::vector<index_t> shape;
};

/// Parses the Python literal NumPy writes as the header. Only what NumPy writes is
/// accepted: a dict with exactly the three keys, each once, a string, a bool and a tuple
/// of non-negative integers. `fail` is called with a description of the first fault.
template <class Fail>
npy_header parse_npy_header(std::string_view text, Fail&& fail) {
    std::size_t at = 0;
    const auto skip_space = [&] {
        while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r')) ++at;
    };
    const auto expect = [&](char c) {
        skip_space();
        if (at >= text.size() || text[at] != c)
            fail(std::string("malformed header: expected '") + c + "' at offset " + std::to_string(at) + " of " +
                 std::to_string(text.size()));
        ++at;
    };
    const auto peek = [&]() -> char {
        skip_space();
        return at < text.size() ? text[at] : '\0';
    };
    const auto read_string = [&]() -> std::string {
        skip_space();
        if (at >= text.size() || (text[at] != '\'' && text[at] != '"'))
            fail("malformed header: expected a quoted string at offset " + std::to_string(at));
        const char quote = text[at++];
        const std::size_t end = text.find(quote, at);
        if (end == std::string_view::npos) fail("malformed header: unterminated string");
        std::string s(text.substr(at, end - at));
        at = end + 1;
        return s;
    };
    const auto read_extent = [&]() -> index_t {
        skip_space();
        if (at >= text.size() || text[at] < '0' || text[at] > '9')
            fail("malformed header: shape entries must be non-negative integers (offset " + std::to_string(at) + ")");
        index_t v = 0;
        while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
            const int d = text[at++] - '0';
            if (v > (std::numeric_limits<index_t>::max() - d) / 10) fail("malformed header: a shape entry overflows");
            v = v * 10 + d;
        }
        if (at < text.size() && (text[at] == 'L' || text[at] == 'l')) ++at;  // Python 2 longs
        return v;
    };

    npy_header h;
    bool seen_descr = false, seen_order = false, seen_shape = false;
    expect('{');
    while (peek() != '}') {
        const std::string key = read_string();
        expect(':');
        // Python keeps the last of two equal keys; a reader that kept the first would see
        // another array, so neither is trusted.
        if ((key == "descr" && seen_descr) || (key == "fortran_order" && seen_order) || (key == "shape" && seen_shape))
            fail("malformed header: the key '" + key + "' appears twice");
        if (key == "descr") {
            if (peek() != '\'' && peek() != '"')
                fail("unsupported dtype: descr is not a plain type string (structured dtypes are not supported)");
            h.descr = read_string();
            seen_descr = true;
        } else if (key == "fortran_order") {
            skip_space();
            if (text.substr(at, 4) == "True") {
                h.fortran_order = true;
                at += 4;
            } else if (text.substr(at, 5) == "False") {
                h.fortran_order = false;
                at += 5;
            } else {
                fail("malformed header: fortran_order must be True or False");
            }
            seen_order = true;
        } else if (key == "shape") {
            expect('(');
            while (peek() != ')') {
                h.shape.push_back(read_extent());
                if (peek() == ',')
                    ++at;
                else if (peek() != ')')
                    fail("malformed header: expected ',' or ')' in the shape");
                if (h.shape.size() > 64) fail("malformed header: more than 64 axes");
            }
            ++at;
            seen_shape = true;
        } else {
            fail("malformed header: unknown key '" + key + "'");
        }
        if (peek() == ',')
            ++at;
        else if (peek() != '}')
            fail("malformed header: expected ',' or '}' after the value of '" + key + "'");
    }
    ++at;
    skip_space();
    if (at != text.size()) fail("malformed header: text after the closing '}'");
    if (!seen_descr || !seen_order || !seen_shape)
        fail("malformed header: it must have the keys 'descr', 'fortran_order' and 'shape'");
    return h;
}

/// Reads exactly `n` bytes or reports the file as truncated.
template <class Fail>
void read_exactly(std::istream& in, char* out, std::size_t n, std::string_view what, Fail&& fail) {
    in.read(out, static_cast<std::streamsize>(n));
    if (static_cast<std::size_t>(in.gcount()) != n) fail("truncated file: it ends inside the " + std::string(what));
}

}  // namespace detail

namespace detail {

/// The bytes before the data of a .npy file of `shape`, as NumPy writes them: the preamble,
/// then the dict with room for the first extent to grow to 21 digits, then spaces and a
/// newline up to a multiple of 64 bytes (format 1.0: a header of rank <= 8 is far below its
/// 64 KiB limit).
template <npy_element T, std::size_t N>
std::string npy_header_bytes(const shape_t<N>& shape) {
    std::string dict = "{'descr': '" + npy_descr<T>() + "', 'fortran_order': False, 'shape': (";
    for (std::size_t k = 0; k < N; ++k) {
        if (k > 0) dict += ", ";
        dict += std::to_string(shape[k]);
    }
    dict += N == 1 ? ",), }" : "), }";
    if constexpr (N > 0) dict.append(21 - std::min<std::size_t>(21, std::to_string(shape[0]).size()), ' ');
    constexpr std::size_t preamble = 10;
    dict.append(64 - (preamble + dict.size() + 1) % 64, ' ');
    dict += '\n';

    std::string head = "\x93NUMPY";
    head += char(1);
    head += char(0);
    append_le(head, dict.size(), 2);
    head += dict;
    return head;
}

/// Writes n elements as .npy data: bools as bytes 0/1, numbers little-endian.
template <npy_element T>
void write_npy_elements(std::ostream& out, const T* p, std::size_t n) {
    if constexpr (std::is_same_v<T, bool> || std::endian::native == std::endian::big) {
        std::array<unsigned char, 4096> buf;  // converted through a small buffer
        constexpr std::size_t per = buf.size() / sizeof(T);
        for (std::size_t i = 0; i < n && out; i += per) {
            const std::size_t m = std::min(per, n - i);
            for (std::size_t j = 0; j < m; ++j) {
                if constexpr (std::is_same_v<T, bool>) {
                    buf[j] = p[i + j] ? 1 : 0;
                } else {
                    std::memcpy(&buf[j * sizeof(T)], &p[i + j], sizeof(T));
                    reverse_bytes<sizeof(T)>(&buf[j * sizeof(T)]);
                }
            }
            out.write(reinterpret_cast<const char*>(buf.data()), static_cast<std::streamsize>(m * sizeof(T)));
        }
    } else if (n > 0) {
        out.write(reinterpret_cast<const char*>(p), static_cast<std::streamsize>(n * sizeof(T)));
    }
}

}  // namespace detail

/// Writes x (evaluated) to `path` as a .npy file: format 1.0, little-endian, C order,
/// the same bytes as NumPy's np.save. The data go to a temporary file in the
/// same directory that is renamed to `path` only once complete. Throws
/// std::runtime_error naming the file when it cannot be written.
template <expression E>
void save_npy(const std::filesystem::path& path, const E& x) {
    using T = value_type_t<E>;
    static_assert(detail::npy_element<T>, BSX_REFUSAL_NPY_DTYPE(message));
    const auto& a = detail::contiguous_as<T>(x);
    const std::string head = detail::npy_header_bytes<T>(a.shape());
    detail::write_replacing(path, "save_npy", [&](std::ofstream& out) {
        out.write(head.data(), static_cast<std::streamsize>(head.size()));
        detail::write_npy_elements(out, a.data(), static_cast<std::size_t>(a.size()));
    });
}

namespace detail {

/// What a .npy file's header says about its data, checked against the rank-N array of T
/// asked for: the shape (as stored: reversed for Fortran order), where the data start, and
/// whether the elements need a byte swap.
template <std::size_t N>
struct npy_layout {
    shape_t<N> stored{};
    bool fortran_order = false;
    bool swap = false;
    std::uint64_t data_start = 0;
};

/// Opens `path` for reading and returns its size in bytes; `fail` reports a missing file, a
/// file that is not a regular file, or one that cannot be read.
template <class Fail>
std::uint64_t open_for_reading(std::ifstream& in, const std::filesystem::path& path, Fail&& fail) {
    // Checked before opening: opening a FIFO waits for a writer, perhaps forever.
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec) fail("cannot open the file: " + ec.message());
    if (!std::filesystem::is_regular_file(status)) fail("cannot read it: not a regular file");
    in.open(path, std::ios::binary);
    if (!in) fail(std::string("cannot open the file: ") + std::strerror(errno));
    in.seekg(0, std::ios::end);
    const std::streamoff file_size = in.tellg();
    in.seekg(0, std::ios::beg);
    if (file_size < 0 || !in) fail("cannot read the file");
    return static_cast<std::uint64_t>(file_size);
}

/// Reads and checks the header of .npy bytes that `in` delivers, `file_size` of them in all
/// (a whole .npy file, or one member of a .npz file); see load_npy for the faults reported
/// through `fail`. `in` is left at the first data byte.
template <class T, std::size_t N, class Fail>
npy_layout<N> read_npy_layout(std::istream& in, std::uint64_t file_size, Fail&& fail) {
    std::array<char, 8> magic{};
    if (file_size < 10) fail("not a .npy file: " + std::to_string(file_size) + " bytes is shorter than the preamble");
    read_exactly(in, magic.data(), magic.size(), "preamble", fail);
    if (std::string_view(magic.data(), 6) != "\x93NUMPY") fail("not a .npy file: the magic string is missing");
    const int major = static_cast<unsigned char>(magic[6]), minor = static_cast<unsigned char>(magic[7]);
    if (minor != 0 || major < 1 || major > 3)
        fail("unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
             " (1.0, 2.0 and 3.0 are read)");
    const std::size_t len_bytes = major == 1 ? 2 : 4;
    std::array<unsigned char, 4> len_field{};
    read_exactly(in, reinterpret_cast<char*>(len_field.data()), len_bytes, "header length", fail);
    const std::uint64_t header_len = read_le(len_field.data(), len_bytes);
    // NumPy refuses headers over 10000 bytes; the cap keeps a hostile length from
    // allocating gigabytes where file_size bounds nothing (a deflated .npz member's size is
    // only what it claims).
    constexpr std::uint64_t most_header_bytes = std::uint64_t(1) << 20;
    if (header_len > most_header_bytes)
        fail("the header claims " + std::to_string(header_len) + " bytes, more than the " +
             std::to_string(most_header_bytes) + " a .npy header may have");
    npy_layout<N> layout;
    layout.data_start = static_cast<std::uint64_t>(8 + len_bytes) + header_len;
    if (layout.data_start > file_size)
        fail("truncated file: the header claims " + std::to_string(header_len) + " bytes but the file has " +
             std::to_string(file_size) + " in all");
    std::string header_text(static_cast<std::size_t>(header_len), '\0');
    read_exactly(in, header_text.data(), header_text.size(), "header", fail);
    const auto h = parse_npy_header(header_text, fail);

    // dtype: byte order, kind, size.
    const std::string want = std::string(1, npy_kind<T>()) + std::to_string(sizeof(T));
    const std::string& d = h.descr;
    const bool order_ok = !d.empty() && (d[0] == '<' || d[0] == '>' || d[0] == '|' || d[0] == '=');
    if (!order_ok || d.substr(1) != want || (sizeof(T) > 1 && d[0] == '|'))
        fail("dtype '" + d + "' where '" + npy_descr<T>() + "' was asked for");
    layout.swap = sizeof(T) > 1 && ((d[0] == '>' && std::endian::native == std::endian::little) ||
                                    (d[0] == '<' && std::endian::native == std::endian::big));

    if (h.shape.size() != N)
        fail("rank " + std::to_string(h.shape.size()) + " (shape " + format_shape(h.shape) + ") where rank " +
             std::to_string(N) + " was asked for");
    shape_t<N> shape{};
    for (std::size_t axis = 0; axis < N; ++axis) shape[axis] = h.shape[axis];  // no memmove: N may be 0
    // Element count and byte count without overflow, then against what the file holds.
    const auto available = file_size - layout.data_start;
    constexpr std::uint64_t most = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t count = 1;
    bool too_big = false;
    for (const index_t e : shape) {
        if (e != 0 && count > most / std::uint64_t(e))
            too_big = true;
        else
            count *= std::uint64_t(e);
    }
    too_big = too_big || count > most / sizeof(T);  // the byte count overflows
    const bool has_zero = std::find(shape.begin(), shape.end(), index_t{0}) != shape.end();
    if (has_zero) count = 0, too_big = false;
    if (too_big || count > available / sizeof(T))
        fail("truncated data: shape " + format_shape(shape) + " needs " +
             (too_big ? std::string("more bytes than fit in 64 bits") : std::to_string(count * sizeof(T)) + " bytes") +
             " of " + d + " data but the file has " + std::to_string(available));
    if (count * sizeof(T) != available)
        fail("the file has " + std::to_string(available - count * sizeof(T)) + " bytes after the data the shape " +
             format_shape(shape) + " describes");

    // Fortran order: the bytes are the C-order data of the transposed array.
    // A shape no array can have (a zero extent beside extents whose product overflows,
    // which the count above lets through as empty) is a fault of the file too.
    try {
        checked_size("load_npy", shape, sizeof(T));
    } catch (const std::exception&) {
        fail("the shape " + format_shape(shape) +
             " is no array's: an extent is negative, or the data would take "
             "more than PTRDIFF_MAX bytes");
    }
    layout.fortran_order = h.fortran_order;
    layout.stored = shape;
    if (h.fortran_order) std::reverse(layout.stored.begin(), layout.stored.end());
    return layout;
}

/// Opens `path` and reads and checks its header; `in` is left at the first data byte.
template <class T, std::size_t N, class Fail>
npy_layout<N> read_npy_layout(std::ifstream& in, const std::filesystem::path& path, Fail&& fail) {
    const std::uint64_t size = open_for_reading(in, path, fail);
    return read_npy_layout<T, N>(static_cast<std::istream&>(in), size, fail);
}

/// Reads n elements of .npy data into out; `first` numbers the first of them in messages.
template <class T, class Fail>
void read_npy_elements(std::istream& in, T* out, std::uint64_t n, bool swap, std::uint64_t first, Fail&& fail) {
    std::array<unsigned char, 4096> buf;
    constexpr std::size_t per = buf.size() / sizeof(T);
    for (std::uint64_t i = 0; i < n; i += per) {
        const auto m = static_cast<std::size_t>(std::min<std::uint64_t>(per, n - i));
        read_exactly(in, reinterpret_cast<char*>(buf.data()), m * sizeof(T), "data", fail);
        for (std::size_t j = 0; j < m; ++j) {
            unsigned char* bytes = &buf[j * sizeof(T)];
            if constexpr (std::is_same_v<T, bool>) {
                if (bytes[0] > 1)
                    fail("bool element " + std::to_string(first + i + j) + " has the byte value " +
                         std::to_string(int(bytes[0])) + " (only 0 and 1 are booleans)");
                out[i + j] = bytes[0] != 0;
            } else {
                if (swap) reverse_bytes<sizeof(T)>(bytes);
                std::memcpy(&out[i + j], bytes, sizeof(T));
            }
        }
    }
}

/// Reads the array of .npy bytes that `in` delivers, `size` of them in all: the header is
/// checked before anything is allocated, and Fortran-order data come back C-ordered.
template <class T, std::size_t N, class Fail>
array<T, N> read_npy(std::istream& in, std::uint64_t size, Fail&& fail) {
    const auto layout = read_npy_layout<T, N>(in, size, fail);
    array<T, N> a(layout.stored);
    read_npy_elements(in, a.data(), static_cast<std::uint64_t>(a.size()), layout.swap, 0, fail);
    if constexpr (N > 1) {
        if (layout.fortran_order) return array<T, N>(transpose(a));
    }
    return a;
}

}  // namespace detail

/// Reads a .npy file holding a rank-N array of element type T (bool, int8..int64,
/// uint8..uint64, float, double). Format versions 1.0, 2.0 and 3.0; big-endian data
/// are byte-swapped; Fortran-order data come back C-ordered with the same logical
/// contents. A missing or unreadable file, a malformed header, another dtype or rank,
/// or data shorter or longer than the shape says throw std::runtime_error naming the
/// file and the fault. Nothing is allocated before the shape is checked against the
/// file's size.
template <class T, std::size_t N>
array<T, N> load_npy(const std::filesystem::path& path) {
    static_assert(detail::npy_element<T>, BSX_REFUSAL_NPY_DTYPE(message));
    const auto fail = [&](const std::string& what) { detail::throw_file_error("load_npy", path, what); };
    std::ifstream in;
    const std::uint64_t size = detail::open_for_reading(in, path, fail);
    return detail::read_npy<T, N>(in, size, fail);
}

}  // namespace bsx
