// .npz and text files (doc/reference.md, section 7): load_npz of archives written by
// np.savez and np.savez_compressed (test/data/files/make_fixtures.py), a zip64 directory
// included; save_npz and save_npz_compressed round trips; every damaged archive (truncated,
// bad CRC, bad local header, a missing member, another dtype or rank, sizes the file cannot
// hold) throws std::runtime_error naming the file and the member, allocating nothing large.
// load_txt of np.savetxt's files and of hand-written ones, save_txt writing np.savetxt's
// bytes, and every text error naming the file and the line. The expected values are the
// formulas of make_fixtures.py, restated here.
#define BOOST_TEST_MODULE bsx_npz
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include "file_support.hpp"
#include "test_support.hpp"

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <new>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <zlib.h>

// ============================================================== the largest allocation
// Global operator new records the largest request while armed: a hostile file must be
// rejected without a request anywhere near what it claims. It also refuses requests of
// refused_from bytes or more, to raise std::bad_alloc where a test needs one.
namespace {
std::atomic<bool> watching{false};
std::atomic<std::size_t> largest{0};
std::atomic<std::size_t> refused_from{std::numeric_limits<std::size_t>::max()};

void note(std::size_t n) {
    if (!watching.load(std::memory_order_relaxed)) return;
    std::size_t seen = largest.load(std::memory_order_relaxed);
    while (n > seen && !largest.compare_exchange_weak(seen, n)) {
    }
}
// Out of line, so that GCC does not pair an inlined free with the new at a call site.
[[gnu::noinline]] void release(void* p) noexcept { std::free(p); }
}  // namespace

void* operator new(std::size_t n) {
    note(n);
    if (n >= refused_from.load(std::memory_order_relaxed)) throw std::bad_alloc();
    if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, std::align_val_t al) {
    note(n);
    const auto a = static_cast<std::size_t>(al);
    if (void* p = std::aligned_alloc(a, (n + a - 1) / a * a + (n == 0 ? a : 0))) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t al) { return operator new(n, al); }
void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }
void operator delete(void* p, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { release(p); }

namespace {

namespace fs = std::filesystem;
using bsx::index_t;
using namespace test_support;

const fs::path fixtures = fs::path(BSX_TEST_DATA_DIR) / "files";

/// The largest allocation that f makes.
template <class F>
std::size_t largest_allocation(F&& f) {
    largest = 0;
    watching = true;
    try {
        f();
    } catch (...) {
        watching = false;
        throw;
    }
    watching = false;
    return largest;
}

void write_bytes(const fs::path& p, const std::string& bytes) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

std::uint64_t get_le(const std::string& s, std::size_t at, std::size_t bytes) {
    std::uint64_t v = 0;
    for (std::size_t b = 0; b < bytes; ++b) v |= std::uint64_t(static_cast<unsigned char>(s[at + b])) << (8 * b);
    return v;
}

void put_le(std::string& s, std::size_t at, std::uint64_t v, std::size_t bytes) {
    for (std::size_t b = 0; b < bytes; ++b) s[at + b] = char((v >> (8 * b)) & 0xff);
}

/// Where the central directory entry of `member` starts in the zip `bytes` (its name is unique).
std::size_t central_entry(const std::string& bytes, const std::string& member) {
    const std::size_t name_at = bytes.rfind(member);
    BOOST_TEST_REQUIRE(name_at != std::string::npos);
    return name_at - 46;
}

/// A zip of one stored member `name` holding `payload`, with a correct CRC.
std::string stored_zip(const std::string& name, const std::string& payload) {
    std::string z;
    const auto put = [&](std::uint64_t v, std::size_t bytes) {
        for (std::size_t b = 0; b < bytes; ++b) z += char((v >> (8 * b)) & 0xff);
    };
    const auto crc = crc32(0, reinterpret_cast<const Bytef*>(payload.data()), uInt(payload.size()));
    for (const std::uint64_t v : {0x04034b50ull, 20ull, 0ull, 0ull, 0ull, 0x21ull}) put(v, v > 0xffff ? 4 : 2);
    put(crc, 4), put(payload.size(), 4), put(payload.size(), 4), put(name.size(), 2), put(0, 2);
    z += name + payload;
    const std::size_t cd = z.size();
    put(0x02014b50, 4), put(20, 2), put(20, 2), put(0, 2), put(0, 2), put(0, 2), put(0x21, 2);
    put(crc, 4), put(payload.size(), 4), put(payload.size(), 4), put(name.size(), 2);
    put(0, 2), put(0, 2), put(0, 2), put(0, 2), put(0, 4), put(0, 4);
    z += name;
    const std::size_t cd_size = z.size() - cd;
    put(0x06054b50, 4), put(0, 4), put(1, 2), put(1, 2), put(cd_size, 4), put(cd, 4), put(0, 2);
    return z;
}

/// A zip of one deflated member `name` holding `payload`, with a correct CRC.
std::string deflated_zip(const std::string& name, const std::string& payload) {
    z_stream zs{};
    BOOST_TEST_REQUIRE(deflateInit2(&zs, 9, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    std::string packed(deflateBound(&zs, uLong(payload.size())), '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(payload.data()));
    zs.avail_in = uInt(payload.size());
    zs.next_out = reinterpret_cast<Bytef*>(packed.data());
    zs.avail_out = uInt(packed.size());
    BOOST_TEST_REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END);
    packed.resize(zs.total_out);
    deflateEnd(&zs);
    // stored_zip's layout with method 8 and the deflated size.
    std::string z = stored_zip(name, packed);
    const auto crc = crc32(0, reinterpret_cast<const Bytef*>(payload.data()), uInt(payload.size()));
    const std::size_t cd = z.size() - 22 - (46 + name.size());
    for (const std::size_t at : {std::size_t{0}, cd}) {
        const std::size_t fields = at == 0 ? 8 : 10;  // the method's offset in each header
        put_le(z, at + fields, 8, 2);
        put_le(z, at + fields + 6, crc, 4);
        put_le(z, at + fields + 14, payload.size(), 4);
    }
    return z;
}

template <class T, std::size_t N>
std::vector<double> values_of(const bsx::array<T, N>& a) {
    return std::vector<double>(a.begin(), a.end());
}

std::vector<double> formula(index_t n, double (*f)(index_t)) {
    std::vector<double> v(static_cast<std::size_t>(n));
    for (index_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = f(i);
    return v;
}

/// make_fixtures.py's MEMBERS, each checked against its formula.
void check_members(const bsx::npz_file& f) {
    BOOST_TEST(f.names() == (std::vector<std::string>{"grid", "counts", "mask", "scale", "nothing", "fortran", "wide"}),
               boost::test_tools::per_element());
    const auto grid = f.get<double, 2>("grid");
    BOOST_TEST(fmt(grid.shape()) == "(3,4)");
    expect_same_values(values_of(grid), formula(12, [](index_t i) { return double(i) * 0.5 - 1.0; }), "grid");
    const auto counts = f.get<std::int32_t, 1>("counts");
    expect_same_values(values_of(counts), formula(5, [](index_t i) { return double((i - 2) * 1000); }), "counts");
    const auto mask = f.get<bool, 2>("mask");
    BOOST_TEST(fmt(mask.shape()) == "(2,3)");
    expect_same_values(values_of(mask), formula(6, [](index_t i) { return double(i % 2 == 0); }), "mask");
    const auto scale = f.get<float, 0>("scale");
    BOOST_TEST(scale() == 2.5f);
    const auto nothing = f.get<double, 2>("nothing");
    BOOST_TEST(fmt(nothing.shape()) == "(0,3)");
    const auto fortran = f.get<std::int16_t, 2>("fortran");  // comes back C-ordered
    BOOST_TEST(fmt(fortran.shape()) == "(2,3)");
    expect_same_values(values_of(fortran), formula(6, [](index_t i) { return double(i); }), "fortran");
    const auto wide = f.get<std::uint64_t, 1>("wide.npy");  // the stored name works too
    expect_same_values(values_of(wide), formula(2000, [](index_t i) { return double(i * 3); }), "wide");
    BOOST_TEST(f.contains("wide"));
    BOOST_TEST(!f.contains("narrow"));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(npz_from_numpy)

BOOST_AUTO_TEST_CASE(savez_stored_members) { check_members(bsx::load_npz(fixtures / "savez.npz")); }

BOOST_AUTO_TEST_CASE(savez_compressed_deflated_members) {
    check_members(bsx::load_npz(fixtures / "savez_compressed.npz"));
}

BOOST_AUTO_TEST_CASE(positional_members_and_zip64_directory) {
    const auto p = bsx::load_npz(fixtures / "positional.npz");
    BOOST_TEST(p.names() == (std::vector<std::string>{"arr_0", "arr_1"}), boost::test_tools::per_element());
    expect_same_values(values_of(p.get<std::int64_t, 1>("arr_0")), {0, 1, 2}, "arr_0");
    expect_same_values(values_of(p.get<bool, 1>("arr_1")), {1, 0}, "arr_1");
    const auto z = bsx::load_npz(fixtures / "zip64_directory.npz");
    BOOST_TEST(z.names() == (std::vector<std::string>{"grid"}), boost::test_tools::per_element());
    expect_same_values(values_of(z.get<double, 2>("grid")),
                       formula(12, [](index_t i) { return double(i) * 0.5 - 1.0; }), "zip64 grid");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(npz_round_trip)

BOOST_AUTO_TEST_CASE(members_of_every_kind_both_ways) {
    scratch_dir dir;
    const bsx::array<double, 2> a{{1, 2, 3}, {4, 5, 6}};
    const bsx::array<std::uint8_t, 1> bytes{0, 1, 255};
    for (const bool compressed : {false, true}) {
        BOOST_TEST_CONTEXT("compressed " << compressed) {
            const fs::path file = dir.path / (compressed ? "c.npz" : "s.npz");
            const auto big = bsx::arange<double>(100000) * 0.5;  // several buffers of the writer and reader
            (compressed ? bsx::save_npz_compressed : bsx::save_npz)(file, {{"a", a},
                                                                           {"t", bsx::transpose(a) * 2.0},
                                                                           {"mask", a > 2.5},
                                                                           {"bytes", bytes},
                                                                           {"scalar", bsx::array<float, 0>(-1.5f)},
                                                                           {"empty", bsx::zeros<double>(0, 4)},
                                                                           {"big", big}});
            const auto f = bsx::load_npz(file);
            BOOST_TEST(f.names() == (std::vector<std::string>{"a", "t", "mask", "bytes", "scalar", "empty", "big"}),
                       boost::test_tools::per_element());
            expect_same_values(values_of(f.get<double, 2>("a")), {1, 2, 3, 4, 5, 6}, "a");
            const auto t = f.get<double, 2>("t");
            BOOST_TEST(fmt(t.shape()) == "(3,2)");
            expect_same_values(values_of(t), {2, 8, 4, 10, 6, 12}, "t");
            expect_same_values(values_of(f.get<bool, 2>("mask")), {0, 0, 1, 1, 1, 1}, "mask");
            expect_same_values(values_of(f.get<std::uint8_t, 1>("bytes")), {0, 1, 255}, "bytes");
            const auto scalar = f.get<float, 0>("scalar");
            BOOST_TEST(scalar() == -1.5f);
            const auto empty = f.get<double, 2>("empty");
            BOOST_TEST(fmt(empty.shape()) == "(0,4)");
            expect_same_values(values_of(f.get<double, 1>("big")), formula(100000, [](index_t i) { return i * 0.5; }),
                               "big");
            // each member holds the bytes save_npy writes: the stored archive holds them verbatim
            if (!compressed) {
                bsx::save_npy(dir.path / "t.npy", bsx::transpose(a) * 2.0);
                BOOST_TEST(file_bytes(file).find(file_bytes(dir.path / "t.npy")) != std::string::npos);
            }
        }
    }
    // deflating shrinks a regular array
    BOOST_TEST(fs::file_size(dir.path / "c.npz") < fs::file_size(dir.path / "s.npz") / 4);
}

BOOST_AUTO_TEST_CASE(bad_names_and_failed_saves) {
    scratch_dir dir;
    const bsx::array<int, 1> v{1, 2, 3};
    const fs::path file = dir.path / "v.npz";
    expect_throw<std::invalid_argument>(
        [&] {
            bsx::save_npz(file, {{"v", v}, {"v", v * 2}});
        },
        "the name 'v' is given twice");
    expect_throw<std::invalid_argument>([&] { bsx::save_npz_compressed(file, {{"", v}}); }, "an empty name");
    BOOST_TEST(!fs::exists(file));
    const fs::path nowhere = dir.path / "missing" / "v.npz";
    expect_failure([&] { bsx::save_npz(nowhere, {{"v", v}}); }, nowhere, "cannot create a temporary file");
    const fs::path occupied = dir.path / "occupied.npz";
    fs::create_directory(occupied);
    expect_failure([&] { bsx::save_npz_compressed(occupied, {{"v", v}}); }, occupied, "cannot rename");
    BOOST_TEST(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator{}) == 1);
    // an archive without members
    bsx::save_npz(file, {});
    BOOST_TEST(bsx::load_npz(file).names().empty());
}

BOOST_AUTO_TEST_CASE(non_ascii_names_are_marked_utf8) {
    // Without general-purpose flag bit 11, Python's zipfile (so np.load) decodes a name as
    // code page 437 and np.load(f)["temp\u00e9rature"] finds nothing.
    scratch_dir dir;
    const std::string name = "temp\xc3\xa9rature";  // UTF-8
    const bsx::array<double, 1> v{1, 2, 3};
    for (const bool deflate : {false, true}) {
        const fs::path file = dir.path / "names.npz";
        (deflate ? bsx::save_npz_compressed : bsx::save_npz)(file, {{name, v}, {"plain", v}});
        const std::string b = file_bytes(file);
        BOOST_TEST(get_le(b, 6, 2) == 0x0800u);  // the first local header: the non-ASCII name
        BOOST_TEST(get_le(b, central_entry(b, name + ".npy") + 8, 2) == 0x0800u);
        BOOST_TEST(get_le(b, central_entry(b, "plain.npy") + 8, 2) == 0u);
        const auto f = bsx::load_npz(file);
        BOOST_TEST(f.names() == (std::vector<std::string>{name, "plain"}), boost::test_tools::per_element());
        expect_same_values(values_of(f.get<double, 1>(name)), {1, 2, 3});
    }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(npz_errors)

BOOST_AUTO_TEST_CASE(missing_member_and_other_dtype_or_rank) {
    const fs::path file = fixtures / "savez.npz";
    const auto f = bsx::load_npz(file);
    expect_failure([&] { (void)f.get<double, 2>("gird"); }, file, "member 'gird': no such member (the file has 7)");
    expect_failure([&] { (void)f.get<float, 2>("grid"); }, file,
                   "member 'grid': dtype '<f8' where '<f4' was asked for");
    expect_failure([&] { (void)f.get<double, 1>("grid"); }, file,
                   "member 'grid': rank 2 (shape (3,4)) where rank 1 was asked for");
    expect_failure([&] { (void)f.get<std::int64_t, 1>("counts"); }, file, "dtype '<i4' where '<i8'");
}

BOOST_AUTO_TEST_CASE(unreadable_and_not_zip_files) {
    const fs::path missing = fixtures / "no_such_file.npz";
    expect_failure([&] { (void)bsx::load_npz(missing); }, missing, "cannot open the file");
    expect_failure([&] { (void)bsx::load_npz(fixtures); }, fixtures, "not a regular file");
    const fs::path text = fixtures / "savetxt_2d.txt";
    expect_failure([&] { (void)bsx::load_npz(text); }, text, "no end of central directory record");
    scratch_dir dir;
    write_bytes(dir.path / "tiny.npz", "PK");
    expect_failure([&] { (void)bsx::load_npz(dir.path / "tiny.npz"); }, dir.path / "tiny.npz",
                   "shorter than a zip end record");
}

BOOST_AUTO_TEST_CASE(truncated_archives) {
    scratch_dir dir;
    const fs::path cut = dir.path / "cut.npz";
    for (const char* name : {"savez.npz", "savez_compressed.npz"}) {
        const std::string bytes = file_bytes(fixtures / name);
        // every length short of the whole: the end record is gone or points past the end
        for (std::size_t n : {std::size_t(0), std::size_t(21), std::size_t(100), bytes.size() / 2, bytes.size() - 1}) {
            BOOST_TEST_CONTEXT(name << " cut to " << n) {
                write_bytes(cut, bytes.substr(0, n));
                BOOST_CHECK_THROW((void)bsx::load_npz(cut), std::runtime_error);
            }
        }
        // the directory moved to the front of a shortened file: the members it points to are past the end
        const std::size_t cd = central_entry(bytes, "grid.npy");
        const std::string tail = bytes.substr(cd);
        std::string shortened = bytes.substr(0, 40) + tail;
        put_le(shortened, shortened.size() - 6, 40, 4);  // the end record's directory offset
        write_bytes(cut, shortened);
        const auto f = bsx::load_npz(cut);
        expect_failure([&] { (void)f.get<std::uint64_t, 1>("wide"); }, cut, "member 'wide': truncated zip file");
    }
}

BOOST_AUTO_TEST_CASE(bad_crc_and_corrupt_data) {
    scratch_dir dir;
    const fs::path file = dir.path / "bad.npz";
    std::string stored = file_bytes(fixtures / "savez.npz");
    // the first member is grid: its local header (30 + 8 + 20 bytes), the .npy header (128), then data
    stored[30 + 8 + 20 + 128 + 3] ^= 0x10;
    write_bytes(file, stored);
    expect_failure([&] { (void)bsx::load_npz(file).get<double, 2>("grid"); }, file, "member 'grid': bad CRC-32");
    // the other members are intact
    expect_same_values(values_of(bsx::load_npz(file).get<std::int32_t, 1>("counts")), {-2000, -1000, 0, 1000, 2000});

    std::string deflated = file_bytes(fixtures / "savez_compressed.npz");
    const std::size_t wide = get_le(deflated, central_entry(deflated, "wide.npy") + 42, 4);
    const std::size_t wide_data = wide + 30 + get_le(deflated, wide + 26, 2) + get_le(deflated, wide + 28, 2);
    for (std::size_t k = 0; k < 8; ++k) deflated[wide_data + 200 + k] = char(0xff);
    write_bytes(file, deflated);
    const std::string m =
        message_of<std::runtime_error>([&] { (void)bsx::load_npz(file).get<std::uint64_t, 1>("wide"); });
    BOOST_TEST(m.find("member 'wide'") != std::string::npos, m);
    BOOST_TEST((m.find("corrupt deflated data") != std::string::npos || m.find("bad CRC-32") != std::string::npos ||
                m.find("truncated member") != std::string::npos),
               m);
}

BOOST_AUTO_TEST_CASE(bad_local_headers_and_directory_entries) {
    scratch_dir dir;
    const fs::path file = dir.path / "bad.npz";
    const std::string good = file_bytes(fixtures / "savez.npz");
    std::string b = good;
    b[0] = 'X';  // the signature of grid's local header
    write_bytes(file, b);
    expect_failure([&] { (void)bsx::load_npz(file).get<double, 2>("grid"); }, file,
                   "member 'grid': bad local header: wrong signature");
    b = good;
    b[30] = 'G';  // the local name
    write_bytes(file, b);
    expect_failure([&] { (void)bsx::load_npz(file).get<double, 2>("grid"); }, file, "its name differs");
    b = good;
    put_le(b, central_entry(b, "grid.npy") + 10, 12, 2);  // compression method 12 (bzip2)
    write_bytes(file, b);
    expect_failure([&] { (void)bsx::load_npz(file).get<double, 2>("grid"); }, file, "compression method 12");
    b = good;
    put_le(b, central_entry(b, "grid.npy") + 8, 1, 2);  // encrypted
    write_bytes(file, b);
    expect_failure([&] { (void)bsx::load_npz(file).get<double, 2>("grid"); }, file, "encrypted");
    b = good;
    put_le(b, central_entry(b, "grid.npy") + 24, 200, 4);  // a stored size that differs from the bytes stored
    write_bytes(file, b);
    expect_failure([&] { (void)bsx::load_npz(file).get<double, 2>("grid"); }, file, "a stored member of 200 bytes");
    b = good;
    put_le(b, b.size() - 10, 0, 4);  // the end record's directory size: no room for its entries
    write_bytes(file, b);
    expect_failure([&] { (void)bsx::load_npz(file); }, file, "entries cannot fit in 0 bytes");
}

BOOST_AUTO_TEST_CASE(claims_beyond_the_file_allocate_nothing) {
    scratch_dir dir;
    const fs::path file = dir.path / "huge.npz";
    const std::size_t small = 1 << 20;
    // a stored member whose sizes claim 4 GB
    std::string b = file_bytes(fixtures / "savez.npz");
    const std::size_t grid = central_entry(b, "grid.npy");
    put_le(b, grid + 20, 0xfffffff0, 4);
    put_le(b, grid + 24, 0xfffffff0, 4);
    write_bytes(file, b);
    BOOST_TEST(largest_allocation([&] {
                   expect_failure([&] { (void)bsx::load_npz(file).get<double, 2>("grid"); }, file,
                                  "member 'grid': truncated zip file: the member claims 4294967280 bytes");
               }) < small);
    // a deflated member claiming 2^40 bytes from a few hundred
    b = file_bytes(fixtures / "savez_compressed.npz");
    const std::size_t wide = central_entry(b, "wide.npy");
    put_le(b, wide + 24, 0xfffffff0, 4);
    write_bytes(file, b);
    BOOST_TEST(largest_allocation([&] {
                   expect_failure([&] { (void)bsx::load_npz(file).get<std::uint64_t, 1>("wide"); }, file,
                                  "deflated bytes cannot hold 4294967280");
               }) < small);
    // a directory claiming 4 GB, or 65535 entries
    b = file_bytes(fixtures / "savez.npz");
    put_le(b, b.size() - 10, 0xfffffff0, 4);
    write_bytes(file, b);
    BOOST_TEST(largest_allocation([&] {
                   expect_failure([&] { (void)bsx::load_npz(file); }, file,
                                  "truncated zip file: the central directory claims 4294967280 bytes");
               }) < small);
    b = file_bytes(fixtures / "savez.npz");
    put_le(b, b.size() - 12, 0xffff, 2);
    write_bytes(file, b);
    BOOST_TEST(largest_allocation([&] {
                   expect_failure([&] { (void)bsx::load_npz(file); }, file, "65535 entries cannot fit");
               }) < small);
    // a member whose .npy header claims 10^15 elements (test/data/npy/bad_huge_shape.npy) in 200 bytes
    write_bytes(file, stored_zip("huge.npy", file_bytes(fs::path(BSX_TEST_DATA_DIR) / "npy" / "bad_huge_shape.npy")));
    BOOST_TEST(largest_allocation([&] {
                   expect_failure([&] { (void)bsx::load_npz(file).get<double, 1>("huge"); }, file,
                                  "member 'huge': truncated data: shape (1000000000000000,)");
               }) < small);
    // a deflated member whose .npy header claims 3 MiB: the member's claimed size allows
    // it, so only a cap on the header length keeps it from being allocated
    std::string npy = std::string("\x93NUMPY\x02\x00", 8) + std::string(4, '\0') + std::string(4 << 20, ' ');
    put_le(npy, 8, 3 << 20, 4);
    write_bytes(file, deflated_zip("spaces.npy", npy));
    BOOST_TEST(largest_allocation([&] {
                   expect_failure([&] { (void)bsx::load_npz(file).get<double, 1>("spaces"); }, file,
                                  "member 'spaces': the header claims 3145728 bytes, more than the 1048576 a .npy "
                                  "header may have");
               }) < small);
    // and a good member in the same kind of hand-made zip reads (the helper is right)
    bsx::save_npy(dir.path / "ok.npy", bsx::arange<double>(5));
    write_bytes(file, stored_zip("ok.npy", file_bytes(dir.path / "ok.npy")));
    expect_same_values(values_of(bsx::load_npz(file).get<double, 1>("ok")), {0, 1, 2, 3, 4});
    write_bytes(file, deflated_zip("ok.npy", file_bytes(dir.path / "ok.npy")));
    expect_same_values(values_of(bsx::load_npz(file).get<double, 1>("ok")), {0, 1, 2, 3, 4});
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(text_files)

/// make_fixtures.py's GRID_TXT.
const std::vector<double> grid_txt = {1.0,
                                      -2.5,
                                      1e-300,
                                      3.141592653589793,
                                      6.02214076e23,
                                      -0.0,
                                      std::numeric_limits<double>::infinity(),
                                      -std::numeric_limits<double>::infinity(),
                                      std::numeric_limits<double>::quiet_NaN()};

BOOST_AUTO_TEST_CASE(savetxt_files_load) {
    const auto g = bsx::load_txt<double, 2>(fixtures / "savetxt_2d.txt");
    BOOST_TEST(fmt(g.shape()) == "(3,3)");
    const auto v = values_of(g);
    for (std::size_t i = 0; i < grid_txt.size(); ++i)
        BOOST_TEST((same_bits(v[i], grid_txt[i]) || (std::isnan(v[i]) && std::isnan(grid_txt[i]))), i);
    const auto c = bsx::load_txt<double, 2>(fixtures / "savetxt_comma.csv", ',');
    BOOST_TEST(fmt(c.shape()) == "(3,3)");
    expect_same_values(values_of(c), grid_txt, "csv");
    const auto f = bsx::load_txt<float, 2>(fixtures / "savetxt_2d.txt");
    BOOST_TEST(f(1, 1) == 6.02214076e23f);
    const auto line = bsx::load_txt<double, 1>(fixtures / "savetxt_1d.txt");
    expect_same_values(values_of(line), formula(7, [](index_t i) { return double(i) * (2.0 / 6.0) + -1.0; }), "1d");
    const auto ints = bsx::load_txt<std::int32_t, 2>(fixtures / "savetxt_int.txt", '\t');
    BOOST_TEST(fmt(ints.shape()) == "(3,4)");
    expect_same_values(values_of(ints), formula(12, [](index_t i) { return double(i - 6); }), "ints");
    expect_same_values(values_of(bsx::load_txt<std::int64_t, 2>(fixtures / "savetxt_int.txt")),
                       formula(12, [](index_t i) { return double(i - 6); }), "ints, whitespace");
    // comments, blank lines, tabs, CRLF, nan, inf, '+', overflow to inf, underflow to -0, no final newline
    const auto m = bsx::load_txt<double, 2>(fixtures / "loadtxt_mixed.txt");
    BOOST_TEST(fmt(m.shape()) == "(3,3)");
    const double inf = std::numeric_limits<double>::infinity();
    expect_same_values(values_of(m), {1.5, -2, 300, std::nan(""), inf, -inf, 0.25, inf, -0.0}, "mixed");
    BOOST_TEST(std::signbit(m(2, 2)));
}

BOOST_AUTO_TEST_CASE(save_txt_writes_what_savetxt_writes) {
    scratch_dir dir;
    bsx::array<double, 2> g(bsx::shape_t<2>{3, 3});
    std::copy(grid_txt.begin(), grid_txt.end(), g.data());
    bsx::save_txt(dir.path / "g.txt", g);
    BOOST_TEST(file_bytes(dir.path / "g.txt") == file_bytes(fixtures / "savetxt_2d.txt"));
    bsx::save_txt(dir.path / "g.csv", g, ',');
    std::string csv = file_bytes(fixtures / "savetxt_comma.csv");  // less its header and footer lines
    csv = csv.substr(csv.find('\n') + 1);
    csv = csv.substr(0, csv.rfind("# "));
    BOOST_TEST(file_bytes(dir.path / "g.csv") == csv);
    // rank 1: one value per line
    bsx::save_txt(dir.path / "line.txt", bsx::linspace<double>(-1.0, 1.0, 7));
    BOOST_TEST(file_bytes(dir.path / "line.txt") == file_bytes(fixtures / "savetxt_1d.txt"));
}

BOOST_AUTO_TEST_CASE(round_trips_keep_every_bit) {
    scratch_dir dir;
    std::mt19937_64 rng(7);
    bsx::array<double, 2> d(bsx::shape_t<2>{50, 7});
    for (auto& x : d) {
        const std::uint64_t bits = rng();
        std::memcpy(&x, &bits, sizeof x);
        if (std::isnan(x)) x = 1.0 / 3.0;
    }
    d(0, 0) = std::numeric_limits<double>::denorm_min();
    d(0, 1) = std::numeric_limits<double>::max();
    d(0, 2) = -std::numeric_limits<double>::min();
    bsx::save_txt(dir.path / "d.txt", d);
    const auto back = bsx::load_txt<double, 2>(dir.path / "d.txt");
    BOOST_TEST(std::memcmp(back.data(), d.data(), sizeof(double) * 350) == 0);
    const auto f = bsx::cast<float>(bsx::arange<double>(1000) / 7.0 - 50.0);
    bsx::save_txt(dir.path / "f.txt", f, ',');
    const bsx::array<float, 1> fe = f;
    const auto fback = bsx::load_txt<float, 1>(dir.path / "f.txt", ',');
    BOOST_TEST(std::memcmp(fback.data(), fe.data(), sizeof(float) * 1000) == 0);
    const bsx::array<std::int64_t, 2> i{{std::numeric_limits<std::int64_t>::min(), 0},
                                        {-1, std::numeric_limits<std::int64_t>::max()}};
    bsx::save_txt(dir.path / "i.txt", i);
    BOOST_TEST(file_bytes(dir.path / "i.txt") == "-9223372036854775808 0\n-1 9223372036854775807\n");
    expect_same_values(values_of(bsx::load_txt<std::int64_t, 2>(dir.path / "i.txt")), values_of(i));
    // a single line reads as rank 1 (np.loadtxt's squeeze), and as one row of rank 2
    bsx::save_txt(dir.path / "row.txt", bsx::array<int, 2>{{4, 5, 6}});
    expect_same_values(values_of(bsx::load_txt<int, 1>(dir.path / "row.txt")), {4, 5, 6});
    const auto row = bsx::load_txt<int, 2>(dir.path / "row.txt");
    BOOST_TEST(fmt(row.shape()) == "(1,3)");
    // an empty file, or one of comments only
    write_bytes(dir.path / "empty.txt", "# nothing\n\n");
    const auto empty1 = bsx::load_txt<double, 1>(dir.path / "empty.txt");
    const auto empty2 = bsx::load_txt<double, 2>(dir.path / "empty.txt");
    BOOST_TEST(fmt(empty1.shape()) == "(0,)");
    BOOST_TEST(fmt(empty2.shape()) == "(0,0)");
}

BOOST_AUTO_TEST_CASE(text_errors_name_the_line) {
    scratch_dir dir;
    const fs::path file = dir.path / "bad.txt";
    const auto load_with = [&](const std::string& text, auto load) {
        write_bytes(file, text);
        return [=] { (void)load(); };
    };
    const auto d2 = [&] { return bsx::load_txt<double, 2>(file); };
    expect_failure(load_with("1 2 3\n# c\n4 5 6\n7 abc 9\n", d2), file, "line 4, value 2: 'abc' is not a double");
    expect_failure(load_with("1 2 3\n\n4 5\n", d2), file, "line 3 has 2 values where line 1 has 3");
    expect_failure(load_with("1 2\n3 4 5\n", d2), file, "line 2 has 3 values where line 1 has 2");
    expect_failure(load_with("1.5e\n", d2), file, "line 1, value 1: '1.5e' is not a double");
    expect_failure(load_with("1,,3\n", [&] { return bsx::load_txt<double, 2>(file, ','); }), file,
                   "line 1, value 2: '' is not a value (an empty field)");
    expect_failure(load_with("1,2,\n", [&] { return bsx::load_txt<double, 2>(file, ','); }), file,
                   "line 1, value 3: '' is not a value");
    expect_failure(load_with("1 2\n100 300\n", [&] { return bsx::load_txt<std::int8_t, 2>(file); }), file,
                   "line 2, value 2: '300' is not a int8");
    expect_failure(load_with("1.5\n", [&] { return bsx::load_txt<int, 1>(file); }), file,
                   "line 1, value 1: '1.5' is not a int32");
    expect_failure(load_with("-1\n", [&] { return bsx::load_txt<std::uint16_t, 1>(file); }), file, "is not a uint16");
    expect_failure(load_with("1,2\n3 4,5\n", [&] { return bsx::load_txt<double, 2>(file, ','); }), file,
                   "line 2, value 1: '3 4' is not a double");
    expect_failure(load_with("1.5,2\n", d2), file, "line 1, value 1: '1.5,2' is not a double");
    expect_failure(load_with("1 2\n3 4\n", [&] { return bsx::load_txt<double, 1>(file); }), file,
                   "2 lines of 2 values make a rank 2 array where rank 1 was asked for");
    expect_failure([&] { (void)bsx::load_txt<double, 2>(dir.path / "missing.txt"); }, dir.path / "missing.txt",
                   "cannot open the file");
    const fs::path nowhere = dir.path / "missing" / "x.txt";
    expect_failure([&] { bsx::save_txt(nowhere, bsx::array<double, 1>{1.0}); }, nowhere,
                   "cannot create a temporary file");
}

BOOST_AUTO_TEST_CASE(save_txt_removes_its_temporary_file_on_any_exception) {
    // One line of 100000 values takes megabytes: refusing allocations of 64 KiB or more
    // makes formatting it throw std::bad_alloc, which does not go through save_txt's own
    // error path; the temporary file must go all the same.
    scratch_dir dir;
    const bsx::array<double, 2> wide = bsx::zeros<double>(1, 100000);
    refused_from = std::size_t{1} << 16;
    try {
        bsx::save_txt(dir.path / "wide.txt", wide);
        BOOST_TEST(false, "save_txt did not throw");
    } catch (const std::bad_alloc&) {
    }
    refused_from = std::numeric_limits<std::size_t>::max();
    BOOST_TEST(fs::is_empty(dir.path), "save_txt left a file behind");
}

BOOST_AUTO_TEST_SUITE_END()
