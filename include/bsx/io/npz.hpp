// bsx/io/npz.hpp: NumPy .npz files, zip archives of .npy members. save_npz stores the
// members, save_npz_compressed deflates them; load_npz reads either kind, zip64 included, as
// np.savez and np.savez_compressed write them. Needs zlib (link -lz; bsx::bsx links it and
// <bsx/bsx.hpp> includes this header when CMake found zlib, which defines BSX_HAVE_ZLIB).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <istream>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

#include <zlib.h>

#include "npy.hpp"

namespace bsx {

namespace detail {

// Zip record signatures and sizes (PKWARE APPNOTE 6.3).
inline constexpr std::uint32_t zip_local_signature = 0x04034b50;
inline constexpr std::uint32_t zip_central_signature = 0x02014b50;
inline constexpr std::uint32_t zip_end_signature = 0x06054b50;
inline constexpr std::uint32_t zip64_end_signature = 0x06064b50;
inline constexpr std::uint32_t zip64_locator_signature = 0x07064b50;
inline constexpr std::size_t zip_local_size = 30;
inline constexpr std::size_t zip_central_size = 46;
inline constexpr std::size_t zip_end_size = 22;
inline constexpr std::size_t zip64_end_size = 56;
inline constexpr std::size_t zip64_locator_size = 20;
inline constexpr std::uint32_t zip_saturated32 = 0xffffffff;  // "see the zip64 extra field"
inline constexpr std::uint16_t zip64_extra_id = 0x0001;
inline constexpr std::uint16_t zip_stored = 0;
inline constexpr std::uint16_t zip_deflated = 8;
// Deflate expands at most 1032 times (a run of 258 bytes in about 2 bits), so a deflated
// member never holds more than this many bytes per compressed byte.
inline constexpr std::uint64_t deflate_max_ratio = 1032;

/// The general-purpose flags of a member written under `name`: bit 11 (the name is UTF-8)
/// when it has a byte outside ASCII, else readers (Python's zipfile, so NumPy) decode it
/// as code page 437. Names are read as UTF-8 whether the bit is set or not.
inline std::uint16_t zip_name_flags(std::string_view name) noexcept {
    constexpr std::uint16_t utf8 = 0x0800;
    return std::any_of(name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; }) ? utf8
                                                                                                               : 0;
}

/// One member as the central directory describes it.
struct zip_entry {
    std::string name;
    std::uint16_t flags = 0;
    std::uint16_t method = 0;
    std::uint32_t crc = 0;
    std::uint64_t compressed = 0;
    std::uint64_t size = 0;
    std::uint64_t offset = 0;  // of the local header
};

/// Reads `n` bytes at `offset` of `in` (the caller has checked that the file holds them).
template <class Fail>
std::string read_at(std::istream& in, std::uint64_t offset, std::size_t n, std::string_view what, Fail&& fail) {
    std::string bytes(n, '\0');
    in.seekg(static_cast<std::streamoff>(offset));
    read_exactly(in, bytes.data(), n, what, fail);
    return bytes;
}

/// Reads the central directory of the zip file `in` of `file_size` bytes: where it is (the
/// end record, or the zip64 one it points to), then each entry, all checked against the file.
template <class Fail>
std::vector<zip_entry> read_zip_directory(std::istream& in, std::uint64_t file_size, Fail&& fail) {
    if (file_size < zip_end_size)
        fail("not a zip file or truncated: " + std::to_string(file_size) + " bytes is shorter than a zip end record");
    // The end record is the last 22 bytes, unless an archive comment (at most 65535 bytes) follows it.
    const std::uint64_t tail_size = std::min<std::uint64_t>(file_size, zip_end_size + 0xffff);
    const std::string tail = read_at(in, file_size - tail_size, std::size_t(tail_size), "end record", fail);
    const auto* t = reinterpret_cast<const unsigned char*>(tail.data());
    std::uint64_t end_at = file_size;  // position of the end record, once found
    for (std::size_t k = tail.size() - zip_end_size + 1; k-- > 0;) {
        if (read_le(t + k, 4) == zip_end_signature && k + zip_end_size + read_le(t + k + 20, 2) == tail.size()) {
            end_at = file_size - tail_size + k;
            break;
        }
    }
    if (end_at == file_size) fail("not a zip file or truncated: no end of central directory record");
    const unsigned char* end = t + (end_at - (file_size - tail_size));
    std::uint64_t count = read_le(end + 10, 2), cd_size = read_le(end + 12, 4), cd_offset = read_le(end + 16, 4);
    std::uint64_t cd_limit = end_at;  // the directory ends before this

    if (end_at >= zip64_locator_size) {
        const std::string locator = read_at(in, end_at - zip64_locator_size, zip64_locator_size, "zip64 locator", fail);
        const auto* l = reinterpret_cast<const unsigned char*>(locator.data());
        if (read_le(l, 4) == zip64_locator_signature) {
            const std::uint64_t at = read_le(l + 8, 8);
            if (at > end_at - zip64_locator_size || end_at - zip64_locator_size - at < zip64_end_size)
                fail("bad zip64 locator: it points to offset " + std::to_string(at) + " of " +
                     std::to_string(file_size) + " bytes");
            const std::string rec = read_at(in, at, zip64_end_size, "zip64 end record", fail);
            const auto* r = reinterpret_cast<const unsigned char*>(rec.data());
            if (read_le(r, 4) != zip64_end_signature) fail("bad zip64 end record: wrong signature");
            count = read_le(r + 32, 8);
            cd_size = read_le(r + 40, 8);
            cd_offset = read_le(r + 48, 8);
            cd_limit = at;
        }
    }
    if (cd_offset > cd_limit || cd_size > cd_limit - cd_offset)
        fail("truncated zip file: the central directory claims " + std::to_string(cd_size) + " bytes at offset " +
             std::to_string(cd_offset) + " of " + std::to_string(file_size));
    if (count > cd_size / zip_central_size)
        fail("bad central directory: " + std::to_string(count) + " entries cannot fit in " + std::to_string(cd_size) +
             " bytes");

    const std::string cd = read_at(in, cd_offset, std::size_t(cd_size), "central directory", fail);
    const auto* c = reinterpret_cast<const unsigned char*>(cd.data());
    std::vector<zip_entry> entries;
    entries.reserve(std::size_t(count));
    std::size_t at = 0;
    for (std::uint64_t k = 0; k < count; ++k) {
        if (cd.size() - at < zip_central_size || read_le(c + at, 4) != zip_central_signature)
            fail("bad central directory: entry " + std::to_string(k) + " has no valid header");
        const unsigned char* h = c + at;
        const std::size_t name_len = read_le(h + 28, 2), extra_len = read_le(h + 30, 2),
                          comment_len = read_le(h + 32, 2);
        if (cd.size() - at - zip_central_size < name_len + extra_len + comment_len)
            fail("bad central directory: entry " + std::to_string(k) + " runs past its end");
        zip_entry e;
        e.flags = std::uint16_t(read_le(h + 8, 2));
        e.method = std::uint16_t(read_le(h + 10, 2));
        e.crc = std::uint32_t(read_le(h + 16, 4));
        e.compressed = read_le(h + 20, 4);
        e.size = read_le(h + 24, 4);
        e.offset = read_le(h + 42, 4);
        e.name.assign(cd, at + zip_central_size, name_len);
        // zip64: the saturated fields, in the order size, compressed size, offset.
        const unsigned char* x = h + zip_central_size + name_len;
        for (std::size_t xa = 0; xa + 4 <= extra_len;) {
            const std::size_t id = read_le(x + xa, 2), len = read_le(x + xa + 2, 2);
            if (xa + 4 + len > extra_len)
                fail("bad central directory: the extra field of '" + e.name + "' is cut short");
            if (id == zip64_extra_id) {
                std::size_t f = xa + 4;
                for (std::uint64_t* field : {&e.size, &e.compressed, &e.offset}) {
                    if (*field != zip_saturated32) continue;
                    if (f + 8 > xa + 4 + len)
                        fail("bad central directory: the zip64 field of '" + e.name + "' is too short");
                    *field = read_le(x + f, 8);
                    f += 8;
                }
            }
            xa += 4 + len;
        }
        entries.push_back(std::move(e));
        at += zip_central_size + name_len + extra_len + comment_len;
    }
    return entries;
}

/// The bytes of one member as a stream: read from the archive (at most `compressed` bytes),
/// inflated if deflated, and CRC-checked once all are read. A fault (corrupt deflate data,
/// a bad CRC) is thrown through `fail` from the reading stream (its badbit exceptions on).
template <class Fail>
class zip_member_reader : public std::streambuf {
public:
    zip_member_reader(std::istream& file, const zip_entry& e, Fail& fail)
        : file_(file),
          left_in_(e.compressed),
          left_out_(e.size),
          crc_expected_(e.crc),
          deflated_(e.method == zip_deflated),
          fail_(fail),
          in_(deflated_ ? chunk : 0),
          out_(chunk) {
        if (deflated_ && inflateInit2(&z_, -MAX_WBITS) != Z_OK) fail_("zlib cannot start inflating");
    }
    zip_member_reader(const zip_member_reader&) = delete;
    zip_member_reader& operator=(const zip_member_reader&) = delete;
    ~zip_member_reader() override {
        if (deflated_) inflateEnd(&z_);
    }

    /// After the last byte: the CRC, and for deflated data, the end of the deflate stream.
    void finish() {
        if (left_out_ != 0)
            fail_("truncated member: " + std::to_string(left_out_) + " bytes the directory claims were never read");
        if (deflated_ && !ended_) {
            std::array<unsigned char, 1> extra{};
            const int rc = inflate_into(extra.data(), extra.size());
            if (rc != Z_STREAM_END || z_.avail_out == 0)
                fail_("the deflated data hold more bytes than the directory's " + std::to_string(produced_));
        }
        if (crc_ != crc_expected_)
            fail_("bad CRC-32: the data give " + hex(crc_) + " where the directory says " + hex(crc_expected_));
    }

protected:
    int_type underflow() override {
        if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
        if (left_out_ == 0) return traits_type::eof();
        const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(out_.size(), left_out_));
        std::size_t got = 0;
        if (!deflated_) {
            read_exactly(file_, out_.data(), want, "member data", fail_);
            left_in_ -= want;
            got = want;
        } else {
            while (got == 0) {
                if (ended_)
                    fail_("truncated member: the deflated data end " + std::to_string(left_out_) +
                          " bytes before the size the directory claims");
                inflate_into(reinterpret_cast<unsigned char*>(out_.data()), want);
                got = want - z_.avail_out;
            }
        }
        crc_ = std::uint32_t(crc32(crc_, reinterpret_cast<const Bytef*>(out_.data()), uInt(got)));
        left_out_ -= got;
        produced_ += got;
        setg(out_.data(), out_.data(), out_.data() + got);
        return traits_type::to_int_type(*gptr());
    }

private:
    static constexpr std::size_t chunk = 1 << 16;

    static std::string hex(std::uint32_t v) {
        std::string s = "0x";
        for (int k = 7; k >= 0; --k) s += "0123456789abcdef"[(v >> (4 * k)) & 15];
        return s;
    }

    int inflate_into(unsigned char* out, std::size_t n) {
        z_.next_out = out;
        z_.avail_out = uInt(n);
        if (z_.avail_in == 0 && left_in_ > 0) {
            const auto m = static_cast<std::size_t>(std::min<std::uint64_t>(in_.size(), left_in_));
            read_exactly(file_, in_.data(), m, "member data", fail_);
            left_in_ -= m;
            z_.next_in = reinterpret_cast<Bytef*>(in_.data());
            z_.avail_in = uInt(m);
        }
        const bool input_left = z_.avail_in > 0;
        const int rc = inflate(&z_, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) {
            ended_ = true;
        } else if (rc == Z_BUF_ERROR && !input_left) {
            fail_("truncated member: the deflated data end early");
        } else if (rc != Z_OK) {
            fail_(std::string("corrupt deflated data (zlib: ") + (z_.msg ? z_.msg : "error " + std::to_string(rc)) +
                  ")");
        }
        return rc;
    }

    std::istream& file_;
    std::uint64_t left_in_, left_out_, produced_ = 0;
    std::uint32_t crc_ = 0, crc_expected_;
    bool deflated_, ended_ = false;
    Fail& fail_;
    std::vector<char> in_, out_;
    z_stream z_{};
};

/// Where member `e`'s data start, after its local header is checked against the directory
/// and the data against the file.
template <class Fail>
std::uint64_t zip_member_data(std::istream& in, std::uint64_t file_size, const zip_entry& e, Fail&& fail) {
    if (e.flags & 1) fail("the member is encrypted");
    if (e.method != zip_stored && e.method != zip_deflated)
        fail("compression method " + std::to_string(e.method) + " (only stored, 0, and deflated, 8, are read)");
    if (e.offset > file_size || file_size - e.offset < zip_local_size)
        fail("truncated zip file: the local header at offset " + std::to_string(e.offset) + " is past the end");
    const std::string head = read_at(in, e.offset, zip_local_size, "local header", fail);
    const auto* h = reinterpret_cast<const unsigned char*>(head.data());
    if (read_le(h, 4) != zip_local_signature) fail("bad local header: wrong signature");
    if (read_le(h + 8, 2) != e.method)
        fail("bad local header: compression method " + std::to_string(read_le(h + 8, 2)) +
             " where the directory says " + std::to_string(e.method));
    const std::uint64_t name_len = read_le(h + 26, 2), extra_len = read_le(h + 28, 2);
    const std::uint64_t data = e.offset + zip_local_size + name_len + extra_len;
    if (data > file_size) fail("truncated zip file: the local header runs past the end");
    if (read_at(in, e.offset + zip_local_size, std::size_t(name_len), "local header", fail) != e.name)
        fail("bad local header: its name differs from the directory's");
    if (e.compressed > file_size - data)
        fail("truncated zip file: the member claims " + std::to_string(e.compressed) + " bytes at offset " +
             std::to_string(data) + " of " + std::to_string(file_size));
    if (e.method == zip_stored && e.compressed != e.size)
        fail("bad directory entry: a stored member of " + std::to_string(e.size) + " bytes takes " +
             std::to_string(e.compressed));
    if (e.method == zip_deflated && e.size / deflate_max_ratio > e.compressed)
        fail("bad directory entry: " + std::to_string(e.compressed) + " deflated bytes cannot hold " +
             std::to_string(e.size));
    in.seekg(static_cast<std::streamoff>(data));
    return data;
}

}  // namespace detail

/// A .npz file opened by load_npz: its directory, read and checked; each get reads one member.
class npz_file {
public:
    npz_file(std::filesystem::path path, std::vector<detail::zip_entry> entries)
        : path_(std::move(path)), entries_(std::move(entries)) {}

    const std::filesystem::path& path() const noexcept { return path_; }

    /// The members' names in the archive's order, without the ".npy" that np.savez appends.
    std::vector<std::string> names() const {
        std::vector<std::string> out;
        out.reserve(entries_.size());
        for (const auto& e : entries_) out.push_back(short_name(e.name));
        return out;
    }

    bool contains(std::string_view name) const noexcept { return find(name) != nullptr; }

    /// The member `name` (with or without ".npy") as a rank-N array of T. Throws
    /// std::runtime_error naming the file and the member when there is no such member, when
    /// its dtype or rank differ, or when the archive or the member's data are damaged (a
    /// truncated file, a bad local header, a bad CRC). Nothing is allocated for the data
    /// before the sizes are checked against the file: a stored member against its bytes, a
    /// deflated one against 1032 times them (the most deflate can expand).
    template <class T, std::size_t N>
    array<T, N> get(std::string_view name) const {
        static_assert(detail::npy_element<T>, BSX_REFUSAL_NPY_DTYPE(message));
        const detail::zip_entry* e = find(name);
        const auto fail = [&](const std::string& what) {
            detail::throw_file_error("load_npz", path_, "member '" + std::string(name) + "': " + what);
        };
        if (e == nullptr) fail("no such member (the file has " + std::to_string(entries_.size()) + ")");
        std::ifstream file;
        const std::uint64_t file_size = detail::open_for_reading(file, path_, fail);
        detail::zip_member_data(file, file_size, *e, fail);
        detail::zip_member_reader reader(file, *e, fail);
        std::istream member(&reader);
        member.exceptions(std::ios::badbit);  // lets the reader's exceptions through
        auto a = detail::read_npy<T, N>(member, e->size, fail);
        reader.finish();
        return a;
    }

private:
    static std::string short_name(std::string_view name) {
        return std::string(name.ends_with(".npy") ? name.substr(0, name.size() - 4) : name);
    }

    /// The member named `name`, else `name` + ".npy" (as np.load); of two with one name, the
    /// last, as Python's zipfile.
    const detail::zip_entry* find(std::string_view name) const noexcept {
        for (auto e = entries_.rbegin(); e != entries_.rend(); ++e)
            if (e->name == name) return &*e;
        for (auto e = entries_.rbegin(); e != entries_.rend(); ++e)
            if (e->name.size() == name.size() + 4 && e->name.starts_with(name) && e->name.ends_with(".npy")) return &*e;
        return nullptr;
    }

    std::filesystem::path path_;
    std::vector<detail::zip_entry> entries_;
};

/// Opens a .npz file (as np.load does) and reads its directory: stored or deflated members,
/// zip64 records included. Throws std::runtime_error naming the file when it is missing,
/// not a zip file, truncated, or its directory is damaged.
inline npz_file load_npz(const std::filesystem::path& path) {
    const auto fail = [&](const std::string& what) { detail::throw_file_error("load_npz", path, what); };
    std::ifstream file;
    const std::uint64_t file_size = detail::open_for_reading(file, path, fail);
    return npz_file(path, detail::read_zip_directory(file, file_size, fail));
}

namespace detail {

/// Writes a zip archive member by member: each member's local header, its bytes (through
/// `data()`, CRC-summed and deflated or stored on the way), then the header patched with the
/// CRC and sizes; the central directory and end records last.
class zip_writer : public std::streambuf {
public:
    zip_writer(std::ofstream& file, bool deflate) : file_(file), deflate_(deflate), buf_(chunk), zbuf_(chunk) {}
    zip_writer(const zip_writer&) = delete;
    zip_writer& operator=(const zip_writer&) = delete;
    ~zip_writer() override {
        if (z_open_) deflateEnd(&z_);
    }

    /// Starts the member `name` of `size` bytes.
    void begin(const std::string& name, std::uint64_t size) {
        zip_entry e;
        e.name = name;
        e.method = deflate_ ? zip_deflated : zip_stored;
        e.size = size;
        e.offset = std::uint64_t(file_.tellp());
        // The local header needs its zip64 field before the compressed size is known: deflate's
        // bound on it (zlib's deflateBound, without overflow) decides.
        const std::uint64_t most = deflate_ ? size + (size >> 12) + (size >> 14) + (size >> 25) + 64 : size;
        local_zip64_ = most >= zip_saturated32 || most < size;
        entries_.push_back(std::move(e));
        const std::string head = local_header(entries_.back());
        file_.write(head.data(), std::streamsize(head.size()));
        crc_ = 0;
        written_ = 0;
        if (deflate_) {
            if (deflateInit2(&z_, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
                throw std::runtime_error("zlib cannot start deflating");
            z_open_ = true;
        }
        setp(buf_.data(), buf_.data() + buf_.size());
    }

    /// Ends the current member: the last bytes, then its local header rewritten in place.
    void end() {
        flush_buffer(true);
        if (z_open_) {
            deflateEnd(&z_);
            z_open_ = false;
        }
        zip_entry& e = entries_.back();
        e.crc = crc_;
        e.compressed = written_;
        const auto after = file_.tellp();
        file_.seekp(std::streamoff(e.offset));
        const std::string head = local_header(e);
        file_.write(head.data(), std::streamsize(head.size()));
        file_.seekp(after);
    }

    /// The central directory and the end records (zip64 ones where a count or offset needs them).
    void close() {
        const std::uint64_t cd_offset = std::uint64_t(file_.tellp());
        std::string cd;
        for (const zip_entry& e : entries_) {
            const bool big =
                e.size >= zip_saturated32 || e.compressed >= zip_saturated32 || e.offset >= zip_saturated32;
            std::string extra;
            if (big) {
                std::string fields;
                for (const std::uint64_t v : {e.size, e.compressed, e.offset})
                    if (v >= zip_saturated32) append_le(fields, v, 8);
                append_le(extra, zip64_extra_id, 2);
                append_le(extra, fields.size(), 2);
                extra += fields;
            }
            append_le(cd, zip_central_signature, 4);
            append_le(cd, (3 << 8) | (big ? 45 : 20), 2);  // made by: Unix
            append_le(cd, big ? 45 : 20, 2);
            append_le(cd, zip_name_flags(e.name), 2);
            append_le(cd, e.method, 2);
            append_le(cd, 0, 2);     // time 00:00
            append_le(cd, 0x21, 2);  // date 1980-01-01
            append_le(cd, e.crc, 4);
            append_le(cd, std::min<std::uint64_t>(e.compressed, zip_saturated32), 4);
            append_le(cd, std::min<std::uint64_t>(e.size, zip_saturated32), 4);
            append_le(cd, e.name.size(), 2);
            append_le(cd, extra.size(), 2);
            append_le(cd, 0, 2);
            append_le(cd, 0, 2);
            append_le(cd, 0, 2);
            append_le(cd, std::uint64_t(0100644) << 16, 4);  // a regular file, rw-r--r--
            append_le(cd, std::min<std::uint64_t>(e.offset, zip_saturated32), 4);
            cd += e.name;
            cd += extra;
        }
        const std::uint64_t count = entries_.size(), cd_size = cd.size(), cd_end = cd_offset + cd_size;
        if (count >= 0xffff || cd_size >= zip_saturated32 || cd_offset >= zip_saturated32) {
            append_le(cd, zip64_end_signature, 4);
            append_le(cd, zip64_end_size - 12, 8);
            append_le(cd, (3 << 8) | 45, 2);
            append_le(cd, 45, 2);
            append_le(cd, 0, 4);
            append_le(cd, 0, 4);
            append_le(cd, count, 8);
            append_le(cd, count, 8);
            append_le(cd, cd_size, 8);
            append_le(cd, cd_offset, 8);
            append_le(cd, zip64_locator_signature, 4);
            append_le(cd, 0, 4);
            append_le(cd, cd_end, 8);
            append_le(cd, 1, 4);
        }
        append_le(cd, zip_end_signature, 4);
        append_le(cd, 0, 4);
        append_le(cd, std::min<std::uint64_t>(count, 0xffff), 2);
        append_le(cd, std::min<std::uint64_t>(count, 0xffff), 2);
        append_le(cd, std::min<std::uint64_t>(cd_size, zip_saturated32), 4);
        append_le(cd, std::min<std::uint64_t>(cd_offset, zip_saturated32), 4);
        append_le(cd, 0, 2);
        file_.write(cd.data(), std::streamsize(cd.size()));
    }

protected:
    int_type overflow(int_type c) override {
        flush_buffer(false);
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }

private:
    static constexpr std::size_t chunk = 1 << 16;

    std::string local_header(const zip_entry& e) const {
        std::string h;
        append_le(h, zip_local_signature, 4);
        append_le(h, local_zip64_ ? 45 : 20, 2);
        append_le(h, zip_name_flags(e.name), 2);
        append_le(h, e.method, 2);
        append_le(h, 0, 2);
        append_le(h, 0x21, 2);
        append_le(h, e.crc, 4);
        append_le(h, local_zip64_ ? zip_saturated32 : e.compressed, 4);
        append_le(h, local_zip64_ ? zip_saturated32 : e.size, 4);
        append_le(h, e.name.size(), 2);
        append_le(h, local_zip64_ ? 20 : 0, 2);
        h += e.name;
        if (local_zip64_) {
            append_le(h, zip64_extra_id, 2);
            append_le(h, 16, 2);
            append_le(h, e.size, 8);
            append_le(h, e.compressed, 8);
        }
        return h;
    }

    void flush_buffer(bool last) {
        const auto n = std::size_t(pptr() - pbase());
        crc_ = std::uint32_t(crc32(crc_, reinterpret_cast<const Bytef*>(pbase()), uInt(n)));
        if (!deflate_) {
            file_.write(pbase(), std::streamsize(n));
            written_ += n;
        } else {
            z_.next_in = reinterpret_cast<Bytef*>(pbase());
            z_.avail_in = uInt(n);
            int rc = Z_OK;
            do {
                z_.next_out = reinterpret_cast<Bytef*>(zbuf_.data());
                z_.avail_out = uInt(zbuf_.size());
                rc = deflate(&z_, last ? Z_FINISH : Z_NO_FLUSH);
                const std::size_t out = zbuf_.size() - z_.avail_out;
                file_.write(zbuf_.data(), std::streamsize(out));
                written_ += out;
            } while (last ? rc != Z_STREAM_END : z_.avail_in > 0 || z_.avail_out == 0);
        }
        setp(buf_.data(), buf_.data() + buf_.size());
    }

    std::ofstream& file_;
    bool deflate_, z_open_ = false, local_zip64_ = false;
    std::vector<char> buf_, zbuf_;
    std::vector<zip_entry> entries_;
    std::uint32_t crc_ = 0;
    std::uint64_t written_ = 0;
    z_stream z_{};
};

}  // namespace detail

/// One member of save_npz's list: a name and any expression with a .npy dtype, held by
/// reference until save_npz returns (`{"name", x}` in the braced list).
class npz_member {
public:
    template <expression E>
    npz_member(std::string_view name, const E& x) : name_(name), x_(&x), write_(&write_as<E>) {
        static_assert(detail::npy_element<value_type_t<E>>, BSX_REFUSAL_NPY_DTYPE(message));
    }

    std::string_view name() const noexcept { return name_; }

    /// Evaluates the expression and writes it into `zip` as the member "<name>.npy".
    void write(detail::zip_writer& zip, std::ostream& data) const { write_(x_, zip, data, name_); }

private:
    template <class E>
    static void write_as(const void* p, detail::zip_writer& zip, std::ostream& data, std::string_view name) {
        using T = value_type_t<E>;
        const auto& a = detail::contiguous_as<T>(*static_cast<const E*>(p));
        const std::string head = detail::npy_header_bytes<T>(a.shape());
        zip.begin(std::string(name) + ".npy", head.size() + std::uint64_t(a.size()) * sizeof(T));
        data.write(head.data(), std::streamsize(head.size()));
        detail::write_npy_elements(data, a.data(), static_cast<std::size_t>(a.size()));
        zip.end();
    }

    std::string_view name_;
    const void* x_;
    void (*write_)(const void*, detail::zip_writer&, std::ostream&, std::string_view);
};

namespace detail {

inline void write_npz(const std::filesystem::path& path, std::initializer_list<npz_member> members, bool deflate,
                      std::string_view operation) {
    for (auto i = members.begin(); i != members.end(); ++i) {
        if (i->name().empty())
            throw std::invalid_argument("bsx: " + std::string(operation) + ": " + path.string() +
                                        ": a member has an empty name");
        for (auto j = members.begin(); j != i; ++j)
            if (j->name() == i->name())
                throw std::invalid_argument("bsx: " + std::string(operation) + ": " + path.string() + ": the name '" +
                                            std::string(i->name()) + "' is given twice");
    }
    write_replacing(path, operation, [&](std::ofstream& out) {
        zip_writer zip(out, deflate);
        std::ostream data(&zip);
        for (const npz_member& m : members) m.write(zip, data);
        zip.close();
    });
}

}  // namespace detail

/// Writes the members, each an expression evaluated as save_npy would, to `path` as an
/// uncompressed .npz file (np.savez): a zip archive of "<name>.npy" members, zip64 records
/// where sizes need them, written through a temporary file renamed into place. An empty or
/// repeated name throws std::invalid_argument before anything is written; a write failure
/// throws std::runtime_error naming the file.
inline void save_npz(const std::filesystem::path& path, std::initializer_list<npz_member> members) {
    detail::write_npz(path, members, false, "save_npz");
}

/// save_npz with deflated members (np.savez_compressed).
inline void save_npz_compressed(const std::filesystem::path& path, std::initializer_list<npz_member> members) {
    detail::write_npz(path, members, true, "save_npz_compressed");
}

}  // namespace bsx
