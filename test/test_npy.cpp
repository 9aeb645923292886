// .npy files (doc/reference.md, section 7): load_npy of fixtures written by NumPy
// (test/data/npy/make_fixtures.py) for every dtype, ranks 0 to 4, C and Fortran
// order, little- and big-endian data, header versions 1.0, 2.0 and 3.0; every
// malformed case throws std::runtime_error naming the file and the fault; save_npy
// writes the same bytes as np.save, a failed save leaves nothing under the target name,
// and saves on several threads never share a temporary file. The expected values are the
// formulas of make_fixtures.py, restated here.
#define BOOST_TEST_MODULE bsx_npy
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include "file_support.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <iterator>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;
using bsx::index_t;
using namespace test_support;

const fs::path fixtures = fs::path(BSX_TEST_DATA_DIR) / "npy";

/// make_fixtures.py's layout_value: the element at C-order flat index i.
template <class T>
T layout_value(index_t i) {
    if constexpr (std::is_same_v<T, bool>)
        return i % 3 == 0;
    else if constexpr (std::is_floating_point_v<T>)
        return static_cast<T>(i * 0.25 - 2.0);
    else if constexpr (std::is_unsigned_v<T>)
        return static_cast<T>(i % 100);
    else
        return static_cast<T>(i % 100 - 50);
}

/// make_fixtures.py's extremes: the six values of dtype_<name>.npy.
template <class T>
std::vector<T> extremes() {
    using lim = std::numeric_limits<T>;
    if constexpr (std::is_same_v<T, bool>)
        return {true, false, true, true, false, false};
    else if constexpr (std::is_floating_point_v<T>)
        return {T(-0.0), T(1.5), T(-2.25), lim::infinity(), -lim::infinity(), lim::quiet_NaN()};
    else if constexpr (std::is_unsigned_v<T>)
        return {0, 1, 2, T(lim::max() - 1), lim::max(), 42};
    else
        return {lim::min(), -1, 0, 1, lim::max(), 42};
}

/// Same bits (so NaN equals NaN and -0.0 differs from 0.0).
template <class T>
bool same(T a, T b) {
    if constexpr (std::is_floating_point_v<T>)
        return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
    else
        return a == b;
}

/// Checks a loaded array against the layout formula, element by element in C order.
template <class T, std::size_t N>
void check_layout(const bsx::array<T, N>& a, const std::string& shape) {
    BOOST_TEST(fmt(a.shape()) == shape);
    index_t bad = 0;
    for (index_t i = 0; i < a.size(); ++i) bad += !same(a.data()[i], layout_value<T>(i));
    BOOST_TEST(bad == 0, bad << " of " << a.size() << " elements differ");
}

template <class T>
void check_dtype(const std::string& name) {
    BOOST_TEST_CONTEXT("dtype " << name) {
        const fs::path file = fixtures / ("dtype_" + name + ".npy");
        const auto a = bsx::load_npy<T, 2>(file);
        BOOST_TEST(fmt(a.shape()) == "(2,3)");
        const auto want = extremes<T>();
        for (index_t i = 0; i < 6; ++i) BOOST_TEST(same(a.data()[i], want[std::size_t(i)]), "element " << i);
        // save_npy writes what np.save wrote.
        scratch_dir dir;
        bsx::save_npy(dir.path / "out.npy", a);
        BOOST_TEST(file_bytes(dir.path / "out.npy") == file_bytes(file));
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(loading)

BOOST_AUTO_TEST_CASE(every_dtype_and_byte_identical_save) {
    check_dtype<bool>("bool");
    check_dtype<std::int8_t>("int8");
    check_dtype<std::int16_t>("int16");
    check_dtype<std::int32_t>("int32");
    check_dtype<std::int64_t>("int64");
    check_dtype<std::uint8_t>("uint8");
    check_dtype<std::uint16_t>("uint16");
    check_dtype<std::uint32_t>("uint32");
    check_dtype<std::uint64_t>("uint64");
    check_dtype<float>("float32");
    check_dtype<double>("float64");
}

BOOST_AUTO_TEST_CASE(ranks_0_to_4) {
    scratch_dir dir;
    const auto both = [&](const auto& a, const std::string& shape, const std::string& file) {
        check_layout(a, shape);
        bsx::save_npy(dir.path / file, a);
        BOOST_TEST(file_bytes(dir.path / file) == file_bytes(fixtures / file), file);
    };
    both(bsx::load_npy<double, 0>(fixtures / "rank0_float64.npy"), "()", "rank0_float64.npy");
    both(bsx::load_npy<double, 1>(fixtures / "rank1_float64.npy"), "(5,)", "rank1_float64.npy");
    both(bsx::load_npy<double, 2>(fixtures / "rank2_float64.npy"), "(2,3)", "rank2_float64.npy");
    both(bsx::load_npy<double, 3>(fixtures / "rank3_float64.npy"), "(2,3,4)", "rank3_float64.npy");
    both(bsx::load_npy<double, 4>(fixtures / "rank4_float64.npy"), "(2,1,3,2)", "rank4_float64.npy");
    both(bsx::load_npy<std::int32_t, 0>(fixtures / "rank0_int32.npy"), "()", "rank0_int32.npy");
    both(bsx::load_npy<std::int32_t, 1>(fixtures / "rank1_int32.npy"), "(5,)", "rank1_int32.npy");
    both(bsx::load_npy<std::int32_t, 2>(fixtures / "rank2_int32.npy"), "(2,3)", "rank2_int32.npy");
    both(bsx::load_npy<std::int32_t, 3>(fixtures / "rank3_int32.npy"), "(2,3,4)", "rank3_int32.npy");
    both(bsx::load_npy<std::int32_t, 4>(fixtures / "rank4_int32.npy"), "(2,1,3,2)", "rank4_int32.npy");
    both(bsx::load_npy<double, 2>(fixtures / "empty_float64.npy"), "(0,3)", "empty_float64.npy");
}

BOOST_AUTO_TEST_CASE(fortran_order) {
    check_layout(bsx::load_npy<std::int16_t, 2>(fixtures / "fortran_int16_r2.npy"), "(3,4)");
    check_layout(bsx::load_npy<float, 3>(fixtures / "fortran_float32_r3.npy"), "(2,3,4)");
    check_layout(bsx::load_npy<std::uint8_t, 4>(fixtures / "fortran_uint8_r4.npy"), "(2,3,1,2)");
    check_layout(bsx::load_npy<bool, 2>(fixtures / "fortran_bool_r2.npy"), "(3,2)");
    check_layout(bsx::load_npy<double, 2>(fixtures / "fortran_float64_r2.npy"), "(4,3)");
}

BOOST_AUTO_TEST_CASE(big_endian) {
    check_layout(bsx::load_npy<std::int32_t, 2>(fixtures / "big_int32_r2.npy"), "(2,3)");
    check_layout(bsx::load_npy<double, 3>(fixtures / "big_float64_r3.npy"), "(2,3,4)");
    check_layout(bsx::load_npy<std::uint64_t, 1>(fixtures / "big_uint64_r1.npy"), "(5,)");
    check_layout(bsx::load_npy<std::int16_t, 1>(fixtures / "big_int16_r1.npy"), "(4,)");
    check_layout(bsx::load_npy<std::uint16_t, 2>(fixtures / "big_uint16_r2.npy"), "(2,2)");
    check_layout(bsx::load_npy<std::int64_t, 2>(fixtures / "big_int64_r2.npy"), "(3,1)");
    check_layout(bsx::load_npy<float, 1>(fixtures / "big_float32_r1.npy"), "(3,)");
    check_layout(bsx::load_npy<std::uint32_t, 2>(fixtures / "big_uint32_r2.npy"), "(2,2)");
    check_layout(bsx::load_npy<float, 3>(fixtures / "big_fortran_float32_r3.npy"), "(2,3,4)");
}

BOOST_AUTO_TEST_CASE(header_versions) {
    BOOST_TEST(file_bytes(fixtures / "version2_float64_r2.npy")[6] == '\x02');
    BOOST_TEST(file_bytes(fixtures / "version3_int64_r3.npy")[6] == '\x03');
    check_layout(bsx::load_npy<double, 2>(fixtures / "version2_float64_r2.npy"), "(2,3)");
    check_layout(bsx::load_npy<std::int64_t, 3>(fixtures / "version3_int64_r3.npy"), "(2,2,3)");
    check_layout(bsx::load_npy<std::int32_t, 2>(fixtures / "version2_big_fortran_int32_r2.npy"), "(3,4)");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(errors)

BOOST_AUTO_TEST_CASE(malformed_files) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"bad_empty.npy", "shorter than the preamble"},
        {"bad_magic.npy", "magic string"},
        {"bad_version.npy", "unsupported .npy format version 4.0"},
        {"bad_header_length.npy", "the header claims 60000 bytes"},
        {"bad_truncated_header.npy", "the header claims"},
        {"bad_syntax.npy", "malformed header: expected ',' or '}'"},
        {"bad_missing_key.npy", "must have the keys"},
        {"bad_unknown_key.npy", "unknown key 'extra'"},
        {"bad_duplicate_key.npy", "malformed header: the key 'shape' appears twice"},
        {"bad_fortran_value.npy", "fortran_order must be True or False"},
        {"bad_negative_extent.npy", "non-negative integers"},
        {"bad_overflow_extent.npy", "overflows"},
        {"bad_truncated_data.npy", "truncated data"},
        {"bad_trailing_data.npy", "8 bytes after the data"},
        {"bad_descr_order.npy", "dtype '|f8'"},
    };
    for (const auto& [name, fault] : cases) {
        BOOST_TEST_CONTEXT(name) {
            const fs::path file = fixtures / name;
            expect_failure([&] { (void)bsx::load_npy<double, 2>(file); }, file, fault);
        }
    }
    // a 10^15-element header in a 200-byte file fails before anything is allocated
    BOOST_TEST(fs::file_size(fixtures / "bad_huge_shape.npy") == 200u);
    expect_failure([&] { (void)bsx::load_npy<double, 1>(fixtures / "bad_huge_shape.npy"); },
                   fixtures / "bad_huge_shape.npy",
                   "truncated data: shape (1000000000000000,) needs 8000000000000000 bytes of <f8 data but the file "
                   "has 72");
    expect_failure([&] { (void)bsx::load_npy<double, 3>(fixtures / "bad_product_overflow.npy"); },
                   fixtures / "bad_product_overflow.npy", "more bytes than fit in 64 bits");
    // 2^61 elements fit in 64 bits, their 2^64 bytes do not (the message said "needs 0 bytes")
    expect_failure([&] { (void)bsx::load_npy<double, 1>(fixtures / "bad_byte_count_overflow.npy"); },
                   fixtures / "bad_byte_count_overflow.npy",
                   "truncated data: shape (2305843009213693952,) needs more bytes than fit in 64 bits of <f8 data "
                   "but the file has 8");
    expect_failure([&] { (void)bsx::load_npy<bool, 1>(fixtures / "bad_bool_byte.npy"); },
                   fixtures / "bad_bool_byte.npy", "bool element 2 has the byte value 2");
    expect_failure([&] { (void)bsx::load_npy<double, 2>(fixtures / "bad_complex.npy"); }, fixtures / "bad_complex.npy",
                   "dtype '<c16' where '<f8' was asked for");
    expect_failure([&] { (void)bsx::load_npy<double, 1>(fixtures / "bad_structured.npy"); },
                   fixtures / "bad_structured.npy", "structured dtypes are not supported");
}

BOOST_AUTO_TEST_CASE(other_dtype_or_rank) {
    const fs::path f8 = fixtures / "rank2_float64.npy";
    expect_failure([&] { (void)bsx::load_npy<float, 2>(f8); }, f8, "dtype '<f8' where '<f4' was asked for");
    expect_failure([&] { (void)bsx::load_npy<std::int64_t, 2>(f8); }, f8, "where '<i8' was asked for");
    expect_failure([&] { (void)bsx::load_npy<double, 3>(f8); }, f8, "rank 2 (shape (2,3)) where rank 3 was asked for");
    expect_failure([&] { (void)bsx::load_npy<double, 0>(f8); }, f8, "where rank 0 was asked for");
    const fs::path u1 = fixtures / "dtype_uint8.npy";
    expect_failure([&] { (void)bsx::load_npy<std::int8_t, 2>(u1); }, u1, "dtype '|u1' where '|i1' was asked for");
    expect_failure([&] { (void)bsx::load_npy<bool, 2>(u1); }, u1, "where '|b1' was asked for");
    const fs::path big = fixtures / "big_int32_r2.npy";
    expect_failure([&] { (void)bsx::load_npy<std::uint32_t, 2>(big); }, big, "dtype '>i4' where '<u4'");
}

BOOST_AUTO_TEST_CASE(unreadable_files) {
    const fs::path missing = fixtures / "no_such_file.npy";
    expect_failure([&] { (void)bsx::load_npy<double, 1>(missing); }, missing, "cannot open the file");
    scratch_dir dir;
    expect_failure([&] { (void)bsx::load_npy<double, 1>(dir.path); }, dir.path, "cannot read it: not a regular file");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(saving)

BOOST_AUTO_TEST_CASE(expressions_are_evaluated_on_the_way_out) {
    scratch_dir dir;
    const bsx::array<double, 2> a{{1, 2, 3}, {4, 5, 6}};
    bsx::save_npy(dir.path / "t.npy", bsx::transpose(a) * 2.0);
    const auto t = bsx::load_npy<double, 2>(dir.path / "t.npy");
    BOOST_TEST(fmt(t.shape()) == "(3,2)");
    BOOST_TEST(contents(t) == (std::vector<double>{2, 8, 4, 10, 6, 12}), boost::test_tools::per_element());
    bsx::save_npy(dir.path / "b.npy", a > 2.5);
    const auto b = bsx::load_npy<bool, 2>(dir.path / "b.npy");
    BOOST_TEST(std::vector<bool>(b.begin(), b.end()) == (std::vector<bool>{false, false, true, true, true, true}),
               boost::test_tools::per_element());
    bsx::save_npy(dir.path / "c.npy", bsx::slice(a, bsx::all, 1));  // a strided view
    const auto c = bsx::load_npy<double, 1>(dir.path / "c.npy");
    BOOST_TEST(contents(c) == (std::vector<double>{2, 5}), boost::test_tools::per_element());
    // an existing file is replaced
    bsx::save_npy(dir.path / "t.npy", bsx::zeros<double>(0, 4));
    BOOST_TEST(fmt(bsx::load_npy<double, 2>(dir.path / "t.npy").shape()) == "(0,4)");
}

BOOST_AUTO_TEST_CASE(failed_save_leaves_nothing_behind) {
    scratch_dir dir;
    const bsx::array<int, 1> v{1, 2, 3};
    // no such directory: the temporary file cannot be created
    const fs::path nowhere = dir.path / "missing" / "v.npy";
    expect_failure([&] { bsx::save_npy(nowhere, v); }, nowhere, "cannot create a temporary file");
    // the target is a directory: the rename fails, and the temporary file is removed
    const fs::path occupied = dir.path / "occupied.npy";
    fs::create_directory(occupied);
    expect_failure([&] { bsx::save_npy(occupied, v); }, occupied, "cannot rename");
    BOOST_TEST(fs::is_directory(occupied));
    BOOST_TEST(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator{}) == 1);
}

BOOST_AUTO_TEST_CASE(writers_on_threads_never_share_a_temporary_file) {
    // Every save writes a temporary file named by temporary_sibling: two writers given one
    // name would write into one file. Threads saving to one target each leave a whole file.
    scratch_dir dir;
    const fs::path target = dir.path / "t.npy";
    constexpr int threads = 4, names_each = 1000, saves_each = 20;
    std::vector<std::vector<fs::path>> names(threads);
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t)
        workers.emplace_back([&, t] {
            for (int i = 0; i < names_each; ++i) names[t].push_back(bsx::detail::temporary_sibling(target));
            for (int i = 0; i < saves_each; ++i) bsx::save_npy(target, bsx::full(bsx::shape_t<1>{1000 + t}, t));
        });
    for (auto& w : workers) w.join();
    std::set<fs::path> distinct;
    int misplaced = 0;
    for (const auto& list : names)
        for (const fs::path& name : list) {
            distinct.insert(name);
            misplaced += name.parent_path() != dir.path || !name.filename().string().starts_with("t.npy.tmp");
        }
    BOOST_TEST(distinct.size() == std::size_t(threads * names_each));
    BOOST_TEST(misplaced == 0);
    const auto last = bsx::load_npy<int, 1>(target);
    const int t = last(0);
    BOOST_TEST((t >= 0 && t < threads));
    BOOST_TEST(last.size() == 1000 + t);
    BOOST_TEST(std::count(last.begin(), last.end(), t) == last.size());
    BOOST_TEST(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator{}) == 1);
}

BOOST_AUTO_TEST_SUITE_END()
