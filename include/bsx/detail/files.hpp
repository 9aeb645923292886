// bsx/detail/files.hpp: what bsx's file readers and writers share: errors that name the
// file, writing a file through a temporary one renamed into place, and little-endian fields.
#pragma once

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#if defined(_WIN32)
#include <process.h>
#else
#include <unistd.h>
#endif

namespace bsx::detail {

/// A load or save failure: "bsx: <operation>: <file>: <what was wrong>".
[[noreturn]] inline void throw_file_error(std::string_view operation, const std::filesystem::path& path,
                                          const std::string& what) {
    throw std::runtime_error("bsx: " + std::string(operation) + ": " + path.string() + ": " + what);
}

/// The unsigned number stored little-endian in the `bytes` bytes at p (at most 8).
inline std::uint64_t read_le(const unsigned char* p, std::size_t bytes) noexcept {
    std::uint64_t v = 0;
    for (std::size_t b = 0; b < bytes; ++b) v |= std::uint64_t(p[b]) << (8 * b);
    return v;
}

/// Appends the low `bytes` bytes of v to out, little-endian.
inline void append_le(std::string& out, std::uint64_t v, std::size_t bytes) {
    for (std::size_t b = 0; b < bytes; ++b) out += char((v >> (8 * b)) & 0xff);
}

/// A file name next to `target` that no other writer uses. The process id and a count of
/// the names this process has made tell apart every thread of every process on one machine;
/// the clock's nanoseconds tell apart processes of other machines that share the directory.
inline std::filesystem::path temporary_sibling(const std::filesystem::path& target) {
    static std::atomic<std::uint64_t> names_made{0};
    const std::uint64_t count = names_made.fetch_add(1, std::memory_order_relaxed);
#if defined(_WIN32)
    const auto pid = static_cast<std::uint64_t>(_getpid());
#else
    const auto pid = static_cast<std::uint64_t>(getpid());
#endif
    std::timespec now{};
    std::timespec_get(&now, TIME_UTC);
    std::string name = target.filename().string() + ".tmp";
    for (const std::uint64_t part : {pid, count, static_cast<std::uint64_t>(now.tv_nsec)}) {
        char digits[16];
        name.append(digits, std::to_chars(digits, digits + sizeof digits, part, 16).ptr);
        name += '.';
    }
    name.pop_back();
    return target.parent_path() / name;
}

/// Writes the file `path` as `write(out)` writes the std::ofstream `out`, through a
/// temporary file next to it that is renamed to `path` only once written and closed without
/// error: `path` is never seen half-written, and on a failure or any exception the temporary
/// file is removed and `path` is left as it was. Failures throw std::runtime_error through
/// throw_file_error, naming `operation` and `path`.
template <class Write>
void write_replacing(const std::filesystem::path& path, std::string_view operation, Write&& write) {
    const auto tmp = temporary_sibling(path);
    const auto remove_tmp = [&] {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
    };
    try {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) {
            const int error = errno;
            throw_file_error(operation, path,
                             std::string("cannot create a temporary file next to it: ") + std::strerror(error));
        }
        write(out);
        out.close();
        if (!out) throw_file_error(operation, path, "writing failed (disk full?)");
    } catch (...) {
        remove_tmp();
        throw;
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        remove_tmp();
        throw_file_error(operation, path, "cannot rename the temporary file into place: " + ec.message());
    }
}

}  // namespace bsx::detail
