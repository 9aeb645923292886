// Hostile input (issues 10 and 35): sizes that overflow, integer faults, mixed signedness,
// extreme extents and slice steps, FIFOs, small thread stacks.
// Every case gives a clear exception or a defined value (NumPy's where NumPy defines
// one); the CI runs this file under ASan and UBSan as well, so any undefined behaviour
// left would fail there.
//
//   * sizes: element counts and byte sizes that overflow throw std::length_error naming
//     the shape, at every entry point, before anything is allocated; negative extents
//     throw std::invalid_argument; std::bad_alloc leaves the destination as it was.
//   * integers: + - * and unary - wrap; / % mod rem by 0 and INT_MIN / -1 never trap;
//     signed with unsigned gives NumPy's values; floating mod is exact.
#define BOOST_TEST_MODULE bsx_hostile_input
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include "test_support.hpp"

#include <algorithm>
#include <atomic>
#include <cfloat>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <link.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef _OPENMP
#include <omp.h>
#endif

using namespace test_support;

// ============================================================== failing operator new
// When armed, the next allocation throws std::bad_alloc, as a real shortage would.
namespace {
std::atomic<bool> fail_next_new{false};
// Out of line, so that GCC does not pair an inlined free with the new[] at a call site.
[[gnu::noinline]] void release(void* p) noexcept { std::free(p); }
}  // namespace

// Plain and array forms both replaced (malloc and free), so every new meets its own delete.
// bsx::array's buffers come from the plain form (aligned within); the aligned new and
// deletes are replaced too (the other aligned forms call them), so that an over-aligned
// allocation anywhere fails and frees here as well.
void* operator new(std::size_t n) {
    if (fail_next_new.exchange(false)) throw std::bad_alloc();
    if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, std::align_val_t align) {
    if (fail_next_new.exchange(false)) throw std::bad_alloc();
    const auto a = static_cast<std::size_t>(align);
    if (void* p = std::aligned_alloc(a, (n + a - 1) / a * a + (n == 0 ? a : 0))) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }
void operator delete(void* p, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { release(p); }

namespace {

constexpr bsx::index_t huge = bsx::index_t{1} << 40;
const std::string max_text = std::to_string(std::numeric_limits<bsx::index_t>::max());

}  // namespace

// ============================================================== sizes
BOOST_AUTO_TEST_SUITE(sizes)

// The first snippet: 2^80 elements used to overflow into a wrong-size buffer.
BOOST_AUTO_TEST_CASE(element_count_overflow_throws_before_allocating) {
    expect_throw<std::length_error>(
        [] {
            bsx::array<double, 2> big(bsx::shape_t<2>{huge, huge});
        },
        "bsx: array: shape (1099511627776,1099511627776) is too large: its size in bytes (8-byte elements) "
        "exceeds PTRDIFF_MAX (" +
            max_text + ")");
    // the count fits, the byte count does not: 2^61 doubles are 2^64 bytes
    expect_throw<std::length_error>([] { bsx::array<double, 1> a(bsx::shape_t<1>{bsx::index_t{1} << 61}); },
                                    "shape (2305843009213693952,) is too large");
    // one element fewer than the limit in bytes is fine to check (it is the allocation that fails)
    expect_throw<std::length_error>([] { (void)bsx::zeros<std::int16_t>(huge, huge, 8); },
                                    "shape (1099511627776,1099511627776,8)");
    expect_throw<std::length_error>([] { (void)bsx::ones<float>(huge, huge); }, "is too large");
    expect_throw<std::length_error>(
        [] {
            (void)bsx::full(bsx::shape_t<3>{huge, 0, huge}, 1.0);
        },
        "shape (1099511627776,0,1099511627776) is too large");
    // a zero extent elsewhere does not hide an overflow of the others (their strides would overflow)
    expect_throw<std::length_error>([] { bsx::array<char, 3> a(bsx::shape_t<3>{0, huge, huge}); }, "is too large");
    // a large but representable empty shape is fine
    bsx::array<double, 2> empty(bsx::shape_t<2>{0, huge});
    BOOST_TEST(empty.size() == 0);
    BOOST_TEST(fmt(empty.shape()) == "(0,1099511627776)");
}

BOOST_AUTO_TEST_CASE(negative_extents_throw_everywhere) {
    expect_throw<std::invalid_argument>(
        [] {
            bsx::array<double, 2> a(bsx::shape_t<2>{2, -3});
        },
        "bsx: array: shape (2,-3) has the negative extent -3 on axis 1");
    expect_throw<std::invalid_argument>([] { (void)bsx::zeros<double>(-1); }, "negative extent -1");
    expect_throw<std::invalid_argument>([] { (void)bsx::arange<int>(-5); }, "negative extent -5");
    bsx::array<double, 1> v{1, 2, 3};
    expect_throw<std::invalid_argument>(
        [&] {
            (void)bsx::broadcast_to(v, bsx::shape_t<2>{-1, 3});
        },
        "bsx: broadcast_to: shape (-1,3) has the negative extent -1 on axis 0");
    expect_throw<std::invalid_argument>(
        [&] {
            (void)bsx::broadcast_in_dim(v, bsx::shape_t<2>{-2, 3}, {1});
        },
        "bsx: broadcast_in_dim: shape (-2,3) has the negative extent -2");
    expect_throw<std::invalid_argument>([&] { (void)bsx::reshape<2>(v, {-3, -1}); }, "extents must be non-negative");
    expect_throw<std::invalid_argument>([&] { (void)bsx::adapt(v.data(), bsx::shape_t<1>{-3}); },
                                        "bsx: adapt: shape (-3,) has the negative extent -3");
}

// Messages are assembled in a fixed buffer (detail/message.hpp): extreme integers and
// shapes of the highest rank print in full.
BOOST_AUTO_TEST_CASE(messages_print_extreme_integers) {
    bsx::array<double, 2> a = bsx::zeros<double>(2, 3);
    constexpr auto lowest = std::numeric_limits<bsx::index_t>::min();
    expect_throw<std::out_of_range>([&] { (void)a.at(lowest, 0); },
                                    "bsx: at: index -9223372036854775808 is out of range for axis 0 of extent 2");
    bsx::array<unsigned long long, 1> idx{std::numeric_limits<unsigned long long>::max()};
    expect_throw<std::out_of_range>([&] { bsx::array<double, 2> r = bsx::take(a, idx, 1); },
                                    "index 18446744073709551615");
    expect_throw<std::invalid_argument>(
        [] {
            bsx::array<double, 2> b(bsx::shape_t<2>{lowest, 0});
        },
        "shape (-9223372036854775808,0) has the negative extent -9223372036854775808 on axis 0");
    const bsx::shape_t<8> wide = [] {
        bsx::shape_t<8> s{};
        s.fill(-1000000000000000000);
        return s;
    }();
    try {
        bsx::array<char, 8> c(wide);
        BOOST_FAIL("no exception");
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        BOOST_TEST(what.starts_with("bsx: array: shape (-1000000000000000000,-1000000000000000000,"));
        BOOST_TEST(what.ends_with("has the negative extent -1000000000000000000 on axis 0"));
    }
}

BOOST_AUTO_TEST_CASE(reduction_messages_name_the_axis_and_shape) {
    const bsx::array<double, 2> a = bsx::zeros<double>(2, 3);
    const bsx::array<double, 2> empty = bsx::zeros<double>(0, 3);
    bsx::array<double, 1> out = bsx::ones<double>(3);
    expect_throw<std::out_of_range>([&] { out = bsx::sum(a, bsx::axis(2)); },
                                    "bsx: sum: axis 2 is out of range for an operand of rank 2 and shape (2,3) "
                                    "(axes -2 to 1)");
    expect_throw<std::invalid_argument>([&] { (void)bsx::sum(a, bsx::axes(1, -1)); },
                                        "bsx: sum: axis -1 is given twice (as 1) for an operand of rank 2");
    expect_throw<std::invalid_argument>([&] { (void)bsx::min(empty); },
                                        "bsx: min: an expression of shape (0,3) has no elements to reduce");
    expect_throw<std::invalid_argument>([&] { out = bsx::max(empty, bsx::axis(0)); },
                                        "bsx: max: axis 0 of an operand of shape (0,3) is empty, and max has no "
                                        "identity");
    BOOST_TEST(contents(out) == std::vector<double>({1, 1, 1}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(views_check_their_shapes) {
    bsx::array<double, 1> v{1, 2, 3};
    bsx::array<double, 0> one(1.0);
    expect_throw<std::length_error>(
        [&] {
            (void)bsx::broadcast_to(v, bsx::shape_t<3>{huge, huge, 3});
        },
        "bsx: broadcast_to: shape (1099511627776,1099511627776,3) is too large: its "
        "element count exceeds PTRDIFF_MAX");
    expect_throw<std::length_error>(
        [&] {
            (void)bsx::broadcast_in_dim(v, bsx::shape_t<3>{huge, huge, 3}, {2});
        },
        "bsx: broadcast_in_dim: shape");
    // reshape: the known extents' product overflows before -1 is inferred
    expect_throw<std::length_error>([&] { (void)bsx::reshape<3>(v, {huge, huge, -1}); }, "bsx: reshape: shape");
    expect_throw<std::length_error>([&] { (void)bsx::reshape<3>(v, {huge, huge, 3}); }, "bsx: reshape: shape");
    // adapt: the byte size of the shape, and the memory the strides span
    expect_throw<std::length_error>(
        [&] {
            (void)bsx::adapt(v.data(), bsx::shape_t<2>{huge, huge});
        },
        "bsx: adapt: shape (1099511627776,1099511627776) is too large");
    expect_throw<std::length_error>(
        [&] {
            (void)bsx::adapt(v.data(), bsx::shape_t<2>{3, 3}, bsx::shape_t<2>{bsx::index_t{1} << 61, 1});
        },
        "spans more than PTRDIFF_MAX bytes");
    expect_throw<std::length_error>(
        [&] {
            (void)bsx::adapt(v.data(), bsx::shape_t<1>{2}, bsx::shape_t<1>{std::numeric_limits<bsx::index_t>::min()});
        },
        "spans more than PTRDIFF_MAX bytes");
    const auto fine = bsx::adapt(v.data(), bsx::shape_t<2>{3, 1000}, bsx::shape_t<2>{1, 0});  // broadcast: no span
    BOOST_TEST(fine(2, 999) == 3.0);
    // Two operands that each fit, broadcast to 2^80 elements: the node is never built.
    const auto col = bsx::broadcast_to(one, bsx::shape_t<2>{huge, 1});
    const auto row = bsx::broadcast_to(one, bsx::shape_t<2>{1, huge});
    expect_throw<std::length_error>([&] { (void)(col + row); },
                                    "bsx: operator+: shape (1099511627776,1099511627776) is too large");
    expect_throw<std::length_error>([&] { (void)bsx::where(col > 0.0, col, row); }, "bsx: where: shape");
}

// broadcast_shapes takes shapes from the user too (the shapes fuzz target's model checks
// them first; bsx used to report (-3,) with (1,) as broadcastable to (-3,)).
BOOST_AUTO_TEST_CASE(broadcast_shapes_checks_its_inputs) {
    expect_throw<std::invalid_argument>([] { (void)bsx::broadcast_shapes(bsx::shape_t<1>{-3}, bsx::shape_t<1>{1}); },
                                        "bsx: broadcast_shapes: shape (-3,) has the negative extent -3 on axis 0");
    expect_throw<std::length_error>(
        [] {
            (void)bsx::broadcast_shapes(bsx::shape_t<2>{huge, huge}, bsx::shape_t<0>{});
        },
        "bsx: broadcast_shapes: shape (1099511627776,1099511627776) is too large");
    expect_throw<std::length_error>(
        [] {
            (void)bsx::broadcast_shapes(bsx::shape_t<2>{huge, 1}, bsx::shape_t<2>{1, huge});
        },
        "bsx: broadcast_shapes: shape (1099511627776,1099511627776) is too large");
    expect_throw<std::invalid_argument>(
        [] {
            (void)bsx::broadcast_shapes(bsx::shape_t<1>{2}, bsx::shape_t<1>{1}, bsx::shape_t<2>{-1, 2});
        },
        "bsx: broadcast_shapes: shape (-1,2) has the negative extent -1 on axis 0");
}

// Found while writing fuzz_npy: a header shape with a zero extent beside a huge one counted as
// empty, then the array constructor threw std::length_error, where a malformed file
// must give std::runtime_error.
BOOST_AUTO_TEST_CASE(npy_shape_too_large_is_a_file_fault) {
    const std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (0, 4611686018427387904), }";
    std::string text = "\x93NUMPY";
    text += '\x01';
    text += '\x00';
    const std::string padded = header + std::string(117 - header.size(), ' ') + "\n";  // 10 + 118 = 128 bytes
    text += char(padded.size() & 0xff);
    text += char(padded.size() >> 8);
    text += padded;
    const auto path = std::filesystem::temp_directory_path() / "bsx_test_hostile_zero_huge.npy";
    std::ofstream(path, std::ios::binary) << text;
    expect_throw<std::runtime_error>([&] { (void)bsx::load_npy<double, 2>(path); },
                                     "the shape (0,4611686018427387904) is no array's");
    std::filesystem::remove(path);
}

BOOST_AUTO_TEST_CASE(bad_alloc_leaves_the_destination_unchanged) {
    bsx::array<double, 1> a{1, 2, 3};
    const bsx::array<double, 1> five{1, 2, 3, 4, 5};
    const auto unchanged = [&] {
        BOOST_TEST(fmt(a.shape()) == "(3,)");
        BOOST_TEST(contents(a) == (std::vector<double>{1, 2, 3}), boost::test_tools::per_element());
    };
    fail_next_new = true;  // assignment that resizes: the new buffer fails
    BOOST_CHECK_THROW(a = five * 2.0, std::bad_alloc);
    unchanged();
    fail_next_new = true;  // copy assignment that resizes
    BOOST_CHECK_THROW(a = five, std::bad_alloc);
    unchanged();
    fail_next_new = true;  // a fresh array: nothing to keep, and nothing leaks (ASan)
    BOOST_CHECK_THROW((bsx::array<double, 2>(bsx::shape_t<2>{4, 4})), std::bad_alloc);
    constexpr bsx::index_t huge_page_elements = bsx::index_t{1} << 18;  // 2 MiB of doubles: the aligned form
    fail_next_new = true;                                               // a fresh array of huge-page storage
    BOOST_CHECK_THROW((bsx::array<double, 1>(bsx::shape_t<1>{huge_page_elements})), std::bad_alloc);
    const bsx::array<double, 1> wide(bsx::shape_t<1>{huge_page_elements});
    fail_next_new = true;  // resizing to huge-page storage
    BOOST_CHECK_THROW(a = wide * 2.0, std::bad_alloc);
    unchanged();
    fail_next_new = false;
    a = five;  // and the next allocation works again
    BOOST_TEST(a.size() == 5);
}

BOOST_AUTO_TEST_SUITE_END()

// ============================================================== integers
BOOST_AUTO_TEST_SUITE(integers)

template <class T, class E>
std::vector<T> values(const E& e) {
    const auto r = bsx::eval(e);
    return std::vector<T>(r.begin(), r.end());
}

// The second and third snippets.
BOOST_AUTO_TEST_CASE(overflow_wraps_and_division_never_traps) {
    bsx::array<int, 1> a{1, 2, INT_MAX, INT_MIN}, b{0, 1, 1, -1};
    bsx::array<int, 1> s = a + b;
    BOOST_TEST(std::vector<int>(s.begin(), s.end()) == (std::vector<int>{1, 3, INT_MIN, INT_MAX}),
               boost::test_tools::per_element());
    bsx::array<int, 1> q = a / b;  // x / 0 is 0; INT_MIN / -1 wraps to INT_MIN (NumPy)
    BOOST_TEST(std::vector<int>(q.begin(), q.end()) == (std::vector<int>{0, 2, INT_MAX, INT_MIN}),
               boost::test_tools::per_element());
    BOOST_TEST(values<int>(a % b) == (std::vector<int>{0, 0, 0, 0}), boost::test_tools::per_element());
    BOOST_TEST(values<int>(a - (-b)) == (std::vector<int>{1, 3, INT_MIN, INT_MAX}), boost::test_tools::per_element());
    BOOST_TEST(values<int>(a * 2) == (std::vector<int>{2, 4, -2, 0}), boost::test_tools::per_element());
    BOOST_TEST(values<int>(-a) == (std::vector<int>{-1, -2, -INT_MAX, INT_MIN}), boost::test_tools::per_element());
    BOOST_TEST(values<int>(bsx::square(a)) == (std::vector<int>{1, 4, 1, 0}), boost::test_tools::per_element());
    BOOST_TEST(values<int>(bsx::abs(a)) == (std::vector<int>{1, 2, INT_MAX, INT_MIN}),
               boost::test_tools::per_element());
    BOOST_TEST(values<int>(bsx::ldivide(b, a)) == (std::vector<int>{0, 2, INT_MAX, INT_MIN}),
               boost::test_tools::per_element());
    // mod and rem: Octave's mod(x, 0) == x; rem(x, 0) is 0 for integers (NumPy's fmod)
    BOOST_TEST(values<int>(bsx::mod(a, b)) == (std::vector<int>{1, 0, 0, 0}), boost::test_tools::per_element());
    BOOST_TEST(values<int>(bsx::rem(a, b)) == (std::vector<int>{0, 0, 0, 0}), boost::test_tools::per_element());
    // compound assignment goes through the same operations
    bsx::array<int, 1> c = a;
    c /= b;
    BOOST_TEST(std::vector<int>(c.begin(), c.end()) == (std::vector<int>{0, 2, INT_MAX, INT_MIN}),
               boost::test_tools::per_element());
    c = a;
    c %= b;
    BOOST_TEST(std::vector<int>(c.begin(), c.end()) == (std::vector<int>{0, 0, 0, 0}),
               boost::test_tools::per_element());
}

// Every width and signedness, against a reference computed in 64-bit (or unsigned) arithmetic.
template <class T>
void check_wrapping_type() {
    using L = std::numeric_limits<T>;
    const std::vector<T> xs{L::min(),        T(L::min() + 1), T(-1 * std::is_signed_v<T>), T(0), T(1), T(7),
                            T(L::max() - 1), L::max()};
    const bsx::array<T, 2> x = bsx::broadcast_to(bsx::adapt(xs.data(), bsx::shape_t<2>{8, 1}), bsx::shape_t<2>{8, 8});
    const bsx::array<T, 2> y = bsx::broadcast_to(bsx::adapt(xs.data(), bsx::shape_t<2>{1, 8}), bsx::shape_t<2>{8, 8});
    using R = decltype(T() + T());  // C++ promotes: int8 + int8 is int, which cannot overflow
    using U = std::make_unsigned_t<R>;
    const auto wrap = [](auto v) { return static_cast<R>(static_cast<U>(v)); };
    const auto sum = bsx::eval(x + y), diff = bsx::eval(x - y), prod = bsx::eval(x * y), quot = bsx::eval(x / y);
    const auto md = bsx::eval(x % y), neg = bsx::eval(-x);
    static_assert(std::is_same_v<typename decltype(sum)::value_type, R>);
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) {
            const R a = xs[i], b = xs[j];
            BOOST_TEST(sum(i, j) == wrap(U(a) + U(b)));
            BOOST_TEST(diff(i, j) == wrap(U(a) - U(b)));
            BOOST_TEST(prod(i, j) == wrap(U(a) * U(b)));
            const bool trap = b == 0 || (std::is_signed_v<R> && b == R(-1));
            BOOST_TEST(quot(i, j) == (b == 0 ? R(0) : trap ? wrap(U(0) - U(a)) : R(a / b)));
            BOOST_TEST(md(i, j) == (trap ? R(0) : R(a % b)));
            BOOST_TEST(neg(i, j) == wrap(U(0) - U(a)));
        }
}

BOOST_AUTO_TEST_CASE(every_integer_type_wraps) {
    check_wrapping_type<std::int8_t>();
    check_wrapping_type<std::uint8_t>();
    check_wrapping_type<std::int16_t>();
    check_wrapping_type<std::uint16_t>();
    check_wrapping_type<std::int32_t>();
    check_wrapping_type<std::uint32_t>();
    check_wrapping_type<std::int64_t>();
    check_wrapping_type<std::uint64_t>();
}

// NumPy promotes a signed with an unsigned operand to a signed type that holds both.
BOOST_AUTO_TEST_CASE(signed_with_unsigned_gives_numpy_values) {
    const bsx::array<std::int8_t, 1> s{-71, 5, -128};
    const bsx::array<std::uint32_t, 1> u{19, 3, 4294967295u};
    // np.mod(np.int8([-71, 5, -128]), np.uint32([19, 3, 4294967295])) -> int64 [5, 2, 4294967167]
    const auto m = bsx::eval(bsx::mod(s, u));
    static_assert(std::is_same_v<decltype(m)::value_type, std::int64_t>);
    BOOST_TEST(std::vector<std::int64_t>(m.begin(), m.end()) == (std::vector<std::int64_t>{5, 2, 4294967167}),
               boost::test_tools::per_element());
    BOOST_TEST(values<std::int64_t>(s + u) == (std::vector<std::int64_t>{-52, 8, 4294967167}),
               boost::test_tools::per_element());
    BOOST_TEST(values<std::int64_t>(s * u) == (std::vector<std::int64_t>{-1349, 15, -549755813760}),
               boost::test_tools::per_element());
    BOOST_TEST(values<std::int64_t>(s / u) == (std::vector<std::int64_t>{-3, 1, 0}), boost::test_tools::per_element());
    BOOST_TEST(values<std::int64_t>(bsx::rem(s, u)) == (std::vector<std::int64_t>{-14, 2, -128}),
               boost::test_tools::per_element());
    BOOST_TEST(values<std::int64_t>(bsx::min(s, u)) == (std::vector<std::int64_t>{-71, 3, -128}),
               boost::test_tools::per_element());
    BOOST_TEST(values<std::int64_t>(bsx::max(s, u)) == (std::vector<std::int64_t>{19, 5, 4294967295}),
               boost::test_tools::per_element());
    BOOST_TEST(values<std::int64_t>(s | u) == (std::vector<std::int64_t>{-69, 7, -1}),
               boost::test_tools::per_element());
    BOOST_TEST(values<std::int64_t>(bsx::where(s > 0, s, u)) == (std::vector<std::int64_t>{19, 5, 4294967295}),
               boost::test_tools::per_element());
    // comparisons by value, also with 64-bit unsigned operands (which have no common type)
    const bsx::array<std::int64_t, 1> big_neg{-1, 1, INT64_MIN};
    const bsx::array<std::uint64_t, 1> big{1, 1, UINT64_MAX};
    BOOST_TEST(values<bool>(big_neg < big) == (std::vector<bool>{true, false, true}), boost::test_tools::per_element());
    BOOST_TEST(values<bool>(big_neg == big) == (std::vector<bool>{false, true, false}),
               boost::test_tools::per_element());
    BOOST_TEST(values<bool>(s >= u) == (std::vector<bool>{false, true, false}), boost::test_tools::per_element());
    BOOST_TEST(values<bool>(s != u) == (std::vector<bool>{true, true, true}), boost::test_tools::per_element());
    // a negative scalar with unsigned elements
    const bsx::array<unsigned, 1> w{0, 2};
    BOOST_TEST(values<bool>(w > -1) == (std::vector<bool>{true, true}), boost::test_tools::per_element());
    BOOST_TEST(values<std::int64_t>(w + -1) == (std::vector<std::int64_t>{-1, 1}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(floating_mod_is_exact) {
    const bsx::array<double, 1> x{4.0, -4.0, 5.5, -5.5, 1e300, 0.0, 3.0, -3.0};
    const bsx::array<double, 1> y{DBL_MIN, 3.0, -2.0, 2.0, 1e-300, 2.0, 0.0, INFINITY};
    const auto m = values<double>(bsx::mod(x, y));
    // NumPy: np.mod(x, y); Octave's mod(x, 0) == x
    const std::vector<double> expected{0.0, 2.0, -0.5, 0.5, std::fmod(1e300, 1e-300), 0.0, 3.0, INFINITY};
    for (std::size_t i = 0; i < expected.size(); ++i) BOOST_TEST(m[i] == expected[i], "element " << i);
    BOOST_TEST(!std::signbit(m[0]));
    // a zero result takes the divisor's sign (NumPy)
    const auto z = values<double>(bsx::mod(bsx::array<double, 1>{4.0, -4.0}, bsx::array<double, 1>{-2.0, 2.0}));
    BOOST_TEST(std::signbit(z[0]));
    BOOST_TEST(!std::signbit(z[1]));
    // unary minus keeps the sign of zero
    BOOST_TEST(std::signbit(values<double>(-bsx::array<double, 1>{0.0})[0]));
}

// C++ leaves float-to-integer conversion of out-of-range values and NaN undefined; bsx
// saturates (NaN gives 0) in bsx::cast, in stores into integer destinations and in fill.
BOOST_AUTO_TEST_CASE(floating_to_integer_conversion_saturates) {
    const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
    const bsx::array<double, 1> x{1e300, -1e300, inf, -inf, nan, -172.9, 255.9, 256.0, -0.5, 2147483647.5};
    BOOST_TEST(values<int>(bsx::cast<int>(x)) ==
                   (std::vector<int>{INT_MAX, INT_MIN, INT_MAX, INT_MIN, 0, -172, 255, 256, 0, INT_MAX}),
               boost::test_tools::per_element());
    BOOST_TEST(values<std::uint8_t>(bsx::cast<std::uint8_t>(x)) ==
                   (std::vector<std::uint8_t>{255, 0, 255, 0, 0, 0, 255, 255, 0, 255}),
               boost::test_tools::per_element());
    BOOST_TEST(values<std::int64_t>(bsx::cast<std::int64_t>(bsx::array<float, 1>{9.3e18f, -9.3e18f, 1e10f})) ==
                   (std::vector<std::int64_t>{INT64_MAX, INT64_MIN, 10000000000}),
               boost::test_tools::per_element());
    // A floating expression stored into an integer array, whole and in place, and a fill.
    bsx::array<int, 1> r(bsx::shape_t<1>{x.size()});
    r = x * 2.0;
    BOOST_TEST(values<int>(r) == (std::vector<int>{INT_MAX, INT_MIN, INT_MAX, INT_MIN, 0, -345, 511, 512, -1, INT_MAX}),
               boost::test_tools::per_element());
    r -= 1e300;
    BOOST_TEST(std::count(r.begin(), r.end(), INT_MIN) == x.size());
    r = nan;
    BOOST_TEST(std::count(r.begin(), r.end(), 0) == x.size());
}

BOOST_AUTO_TEST_SUITE_END()

// ============================================================== exceptions from user functions
// The guarantee (doc/design.md): the exception reaches the caller as itself, serial or
// parallel. An assignment that allocates its destination (construction, eval, = that
// changes the shape) leaves nothing behind and the old array unchanged. One that writes
// in place leaves every element holding its old or its new value; serially, the new
// values form a prefix in row-major order that ends before the element that threw.
BOOST_AUTO_TEST_SUITE(exceptions)

/// A user exception that is not a std::exception, to show it is not converted or sliced.
struct user_error {
    bsx::index_t at;
};

/// x(i) = i; the map throws user_error at element `at`.
struct throwing_at {
    double at;
    double operator()(double v) const {
        if (v == at) throw user_error{static_cast<bsx::index_t>(v)};
        return -v;
    }
};

bool serial() {
#ifdef _OPENMP
    return omp_get_max_threads() == 1;
#else
    return true;
#endif
}

// The fourth snippet: two elements, no threads, and it used to call std::terminate.
BOOST_AUTO_TEST_CASE(map_exception_reaches_the_caller) {
    bsx::array<double, 1> x{0.25, 0.75};
    auto m = bsx::map(
        [](double v) {
            if (v > 0.5) throw std::runtime_error("bad");
            return v;
        },
        x);
    expect_throw<std::runtime_error>([&] { bsx::array<double, 1> r = m; }, "bad");
    expect_throw<std::runtime_error>(
        [&] {
            (void)bsx::eval(bsx::bsxfun(
                [](double a, double b) {
                    if (a + b > 1.0) throw std::runtime_error("bsxfun bad");
                    return a + b;
                },
                x, bsx::transpose(bsx::reshape<2>(x, {1, 2}))));
        },
        "bsxfun bad");
}

// Sizes on either side of the parallel threshold, so that 2 threads really split the work.
const std::vector<bsx::index_t> sizes_to_try{1000, 3 * BSX_PARALLEL_THRESHOLD + 17};

BOOST_AUTO_TEST_CASE(in_place_assignment_keeps_old_or_new_values) {
    for (const bsx::index_t n : sizes_to_try) {
        const bsx::index_t at = n * 2 / 3;
        const bsx::array<double, 1> x = bsx::cast<double>(bsx::arange<int>(n));
        for (int form = 0; form < 4; ++form) {
            bsx::array<double, 1> r(bsx::shape_t<1>{n}, 7.0);
            const auto f = bsx::map(throwing_at{double(at)}, x);
            try {
                switch (form) {
                    case 0:
                        r = f;
                        break;  // same shape: in place
                    case 1:
                        r += f;
                        break;  // compound
                    case 2:
                        r = bsx::where(x > -1.0, f, x);
                        break;  // the functor in a branch
                    case 3:
                        bsx::slice(r, bsx::range(0, n)) = f * 2.0;
                        break;  // through a view
                }
                BOOST_ERROR("no exception");
            } catch (const user_error& e) {
                BOOST_TEST(e.at == at);
            }
            const double scale = form == 3 ? 2.0 : 1.0;
            bsx::index_t written = 0;
            bool gap = false;
            for (bsx::index_t i = 0; i < n; ++i) {
                const double fresh = form == 1 ? 7.0 - double(i) : -double(i) * scale;
                BOOST_TEST((r(i) == 7.0 || r(i) == fresh), "element " << i << " is " << r(i));
                if (fresh == 7.0) continue;  // old and new agree: cannot tell
                if (r(i) == fresh) {
                    ++written;
                    if (gap && serial()) BOOST_ERROR("serial, but element " << i << " written after a gap");
                } else {
                    gap = true;
                }
            }
            if (serial()) {
                BOOST_TEST(r(at) == 7.0);  // the element that threw
                for (bsx::index_t i = at; i < n; ++i)
                    if (r(i) != 7.0) {
                        BOOST_ERROR("serial: element " << i << " after the failure was written");
                        break;
                    }
            }
            BOOST_TEST_MESSAGE("n " << n << " form " << form << ": " << written << " elements written");
        }
    }
}

BOOST_AUTO_TEST_CASE(allocating_assignment_leaves_the_destination_unchanged) {
    for (const bsx::index_t n : sizes_to_try) {
        const bsx::array<double, 1> x = bsx::cast<double>(bsx::arange<int>(n));
        bsx::array<double, 1> r{1.0, 2.0, 3.0};
        BOOST_CHECK_THROW(r = bsx::map(throwing_at{double(n - 1)}, x), user_error);
        BOOST_TEST(fmt(r.shape()) == "(3,)");
        BOOST_TEST((r(0) == 1.0 && r(1) == 2.0 && r(2) == 3.0));
        BOOST_CHECK_THROW((bsx::array<double, 1>{bsx::map(throwing_at{0.0}, x)}), user_error);
        BOOST_CHECK_THROW((void)bsx::eval(bsx::map(throwing_at{double(n / 2)}, x) + 1.0), user_error);
    }
}

BOOST_AUTO_TEST_CASE(reductions_propagate_the_exception) {
    for (const bsx::index_t n : sizes_to_try) {
        const bsx::array<double, 1> x = bsx::cast<double>(bsx::arange<int>(n));
        BOOST_CHECK_THROW((void)bsx::sum(bsx::map(throwing_at{double(n / 3)}, x)), user_error);
        // along an axis, many outputs (threads take outputs) and one long one (threads take blocks)
        const auto many = bsx::reshape<2>(x, {n / (n % 2 == 0 ? 2 : 1), -1});
        BOOST_CHECK_THROW((void)bsx::eval(bsx::max(bsx::map(throwing_at{double(n - 1)}, many), bsx::axis(1))),
                          user_error);
        BOOST_CHECK_THROW(
            (void)bsx::eval(bsx::prod(bsx::map(throwing_at{1.0}, bsx::reshape<2>(x, {1, n})), bsx::axis(1))),
            user_error);
        // a reduction nested in a larger expression runs before the outer loop writes anything
        bsx::array<double, 1> r(bsx::shape_t<1>{n}, 5.0);
        BOOST_CHECK_THROW(r = x + bsx::sum(bsx::map(throwing_at{2.0}, x)), user_error);
        BOOST_TEST(std::count(r.begin(), r.end(), 5.0) == n);
    }
}

// A math node (exp, sqrt, atan2, ...) evaluates its arguments into tiles before the
// function runs: the exception must leave that step too, with the node at the root
// (written straight into the destination, streamed when large), inside a larger node,
// nested in another math node, or reduced. It used to call std::terminate.
BOOST_AUTO_TEST_CASE(math_over_a_throwing_map_propagates_the_exception) {
    std::vector<bsx::index_t> sizes = sizes_to_try;
    sizes.push_back(bsx::index_t(bsx::detail::streaming_threshold() / sizeof(double)) + 5);
    for (const bsx::index_t n : sizes) {
        const bsx::array<double, 1> x = bsx::cast<double>(bsx::arange<int>(n));
        const auto f = bsx::map(throwing_at{double(n / 2)}, x);
        bsx::array<double, 1> r{1.0, 2.0, 3.0};
        BOOST_CHECK_THROW(r = bsx::exp(f), user_error);
        BOOST_TEST(fmt(r.shape()) == "(3,)");
        BOOST_TEST((r(0) == 1.0 && r(1) == 2.0 && r(2) == 3.0));
        bsx::array<double, 1> same(bsx::shape_t<1>{n}, 5.0);
        BOOST_CHECK_THROW(same = bsx::sqrt(f), user_error);
        BOOST_CHECK_THROW(same = bsx::atan2(x, f) * 2.0, user_error);
        BOOST_CHECK_THROW(same = bsx::exp(bsx::sin(f)), user_error);
        BOOST_CHECK_THROW((void)bsx::sum(bsx::sqrt(f)), user_error);
    }
}

BOOST_AUTO_TEST_SUITE_END()

// ============================================================== round two (issue 35)
// An adversarial pass found these: a view of a temporary array that compiled and dangled
// (now test/compile_fail/*_of_temporary.cpp, and test_compile_time_checks), extents and
// slice steps at the limits of index_t, a FIFO that load_npy waited on forever, and
// reductions that needed half a megabyte of stack.
BOOST_AUTO_TEST_SUITE(round_two)

// zeros<double>(SIZE_MAX) was cast to the extent -1 and reported as negative.
BOOST_AUTO_TEST_CASE(unsigned_extents_beyond_index_t_are_too_large) {
    expect_throw<std::length_error>([] { (void)bsx::zeros<double>(SIZE_MAX); },
                                    "bsx: zeros: extent 18446744073709551615 on axis 0 is too large: it exceeds "
                                    "PTRDIFF_MAX (" +
                                        max_text + ")");
    expect_throw<std::length_error>([] { (void)bsx::ones<float>(std::size_t{2}, std::uint64_t{1} << 63); },
                                    "bsx: ones: extent 9223372036854775808 on axis 1 is too large");
    // The largest unsigned extent that fits is an extent like any other: its byte size is too large.
    expect_throw<std::length_error>([] { (void)bsx::zeros<double>(std::size_t(PTRDIFF_MAX)); },
                                    "bsx: array: shape (" + max_text + ",) is too large");
    BOOST_TEST(bsx::zeros<std::uint8_t>(std::size_t{3}, std::uint32_t{2}).size() == 6);
}

// Steps near PTRDIFF_MAX and PTRDIFF_MIN overflowed computing the count (UB), and the
// strides they scale. NumPy: v[0:5:MAX] is [v[0]], v[4:-6:MIN] is [v[4]].
BOOST_AUTO_TEST_CASE(slice_steps_at_the_limits_of_index_t) {
    constexpr bsx::index_t max = PTRDIFF_MAX, min = PTRDIFF_MIN;
    const bsx::array<double, 1> v{0, 1, 2, 3, 4};
    expect_values(bsx::slice(v, bsx::range(0, 5, max)), "(1,)", {0});
    expect_values(bsx::slice(v, bsx::range(4, -6, min)), "(1,)", {4});
    expect_values(bsx::slice(v, bsx::range(max, min, min)), "(1,)", {4});
    expect_values(bsx::slice(v, bsx::range(min, max, max)), "(1,)", {0});
    expect_values(bsx::slice(v, bsx::range(1, 5, max - 1)), "(1,)", {1});
    expect_values(bsx::slice(v, bsx::range(-2, min, min + 1)), "(1,)", {3});
    expect_values(bsx::slice(v, bsx::range(0, 0, max)), "(0,)", {});
    expect_values(bsx::slice(v, bsx::range(4, 5, min)), "(0,)", {});
    // a matrix, whose row stride the step multiplies, and lazy expressions
    const bsx::array<double, 2> m{{0, 1, 2}, {3, 4, 5}};
    expect_values(bsx::slice(m, bsx::range(1, 2, max), bsx::range(2, -4, min)), "(1,1)", {5});
    expect_values(bsx::slice(m * 2.0, bsx::range(0, 2, max), bsx::range(0, 3, max)), "(1,1)", {0});
    expect_values(bsx::slice(m + 1.0, bsx::range(-1, min, min), bsx::all), "(1,3)", {4, 5, 6});
    expect_values(bsx::slice(bsx::transpose(m), bsx::range(min, max, max), 1), "(1,)", {3});
}

// load_npy opened the file before it checked that it is a regular file, and opening a
// FIFO waits for a writer. The test writes to the FIFO itself if the load still waits, so
// that it fails instead of hanging.
BOOST_AUTO_TEST_CASE(load_npy_refuses_a_fifo_without_waiting) {
    const auto path = std::filesystem::temp_directory_path() / ("bsx_test_hostile_fifo_" + std::to_string(getpid()));
    std::filesystem::remove(path);
    BOOST_REQUIRE(mkfifo(path.c_str(), 0600) == 0);
    auto loading = std::async(std::launch::async, [&] { (void)bsx::load_npy<double, 1>(path); });
    if (loading.wait_for(std::chrono::seconds(10)) == std::future_status::timeout) {
        BOOST_ERROR("load_npy still waits for a writer of the FIFO after 10 s");
        std::ofstream(path).close();  // a writer comes and goes: the waiting open returns
    }
    expect_throw<std::runtime_error>([&] { loading.get(); }, path.string() + ": cannot read it: not a regular file");
    std::filesystem::remove(path);
}

// A view of a temporary does not compile (test/compile_fail/); in_dims and broadcast_in_dim
// of one hold it by value instead, so the view evaluated later reads live memory (ASan).
BOOST_AUTO_TEST_CASE(in_dims_of_a_temporary_owns_it) {
    const auto placed = bsx::in_dims<3>(bsx::array<double, 2>{{1, 2, 3}, {4, 5, 6}}, {0, 2});
    const auto stretched = bsx::broadcast_in_dim(bsx::array<double, 1>{7, 8, 9}, bsx::shape_t<2>{2, 3}, {1});
    std::vector<double> noise(1000, -1.0);  // reuses whatever a dangling view would point to
    expect_values(placed, "(2,1,3)", {1, 2, 3, 4, 5, 6});
    expect_values(stretched + 0.0, "(2,3)", {7, 8, 9, 7, 8, 9});
    BOOST_TEST(noise.size() == 1000u);
}

BOOST_AUTO_TEST_SUITE_END()

// ============================================================== small stacks (issue 35)
// A reduction along axis 0 kept 512 KiB of partials on the stack whatever the array's
// size: a thread with a small stack (macOS gives secondary threads 512 KiB) crashed. Now
// small tiles keep theirs on the stack and large ones on the heap. These cases run on a
// std::thread with a 64 KiB stack, and on the main thread, whose OpenMP workers have the
// stacks OMP_STACKSIZE gives them (CTest runs them again at 128 KiB: test/CMakeLists.txt).
BOOST_AUTO_TEST_SUITE(small_stacks)

/// Values that any order of summation adds exactly: small integers.
bsx::array<double, 2> integer_matrix(bsx::index_t rows, bsx::index_t cols) {
    bsx::array<double, 2> a(bsx::shape_t<2>{rows, cols});
    for (bsx::index_t i = 0; i < rows; ++i)
        for (bsx::index_t j = 0; j < cols; ++j) a(i, j) = double((i * 7 + j * 3) % 23) - 11;
    return a;
}

/// Column sums of a by plain loops.
std::vector<double> column_sums(const bsx::array<double, 2>& a) {
    std::vector<double> s(std::size_t(a.extent(1)), 0.0);
    for (bsx::index_t i = 0; i < a.extent(0); ++i)
        for (bsx::index_t j = 0; j < a.extent(1); ++j) s[std::size_t(j)] += a(i, j);
    return s;
}

/// The reductions of the cases, as flat results: the operands' column sums (64 x 64: a
/// tile on the stack; 100 x 300 and 256 x 256: on the heap, the second in parallel where
/// threads are allowed), the 64 x 64 one of an expression, sums along the middle axis of a
/// (4, 50, 30) array, and all() of a bool column.
std::vector<std::vector<double>> reduce_cases(const std::vector<bsx::array<double, 2>>& operands) {
    std::vector<std::vector<double>> out;
    for (const auto& a : operands) out.push_back(contents(bsx::array<double, 1>(bsx::sum(a, bsx::axis(0)))));
    out.push_back(contents(bsx::array<double, 1>(bsx::sum(operands[0] * 2.0 + 1.0, bsx::axis(0)))));
    const auto cube = bsx::reshape<3>(operands[1], {4, 25, 300});
    out.push_back(contents(bsx::array<double, 2>(bsx::sum(cube, bsx::axis(1)))));
    out.push_back(contents(bsx::array<bool, 1>(bsx::all(operands[2] > -12.0, bsx::axis(0)))));
    return out;
}

BOOST_AUTO_TEST_CASE(axis_0_reductions_fit_small_stacks) {
    const std::vector<bsx::array<double, 2>> operands{integer_matrix(64, 64), integer_matrix(100, 300),
                                                      integer_matrix(256, 256)};
    // The references, by plain loops.
    std::vector<std::vector<double>> want;
    for (const auto& a : operands) want.push_back(column_sums(a));
    want.push_back(want[0]);
    for (double& s : want.back()) s = 2 * s + 64;
    std::vector<double> middle(4 * 300, 0.0);
    for (bsx::index_t p = 0; p < 4; ++p)
        for (bsx::index_t k = 0; k < 25; ++k)
            for (bsx::index_t q = 0; q < 300; ++q) middle[std::size_t(p * 300 + q)] += operands[1](p * 25 + k, q);
    want.push_back(middle);
    want.push_back(std::vector<double>(256, 1.0));

    const auto check = [&](const std::vector<std::vector<double>>& got) {
        BOOST_TEST_REQUIRE(got.size() == want.size());
        for (std::size_t c = 0; c < want.size(); ++c) expect_same_values(got[c], want[c], "case " + std::to_string(c));
    };
    // On this thread (and the OpenMP workers of the 256 x 256 case).
    check(reduce_cases(operands));

    // On a std::thread with a 64 KiB stack: new threads' default stack size, set for the
    // moment (std::thread takes no attributes). Boost.Test is not called from it.
    // glibc carves the loaded objects' static TLS out of a thread's stack (OpenBLAS's and
    // the sanitizers' are large): 64 KiB beside it, so that bsx has 64 KiB to itself.
    std::size_t tls = 0;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* total) {
            for (int i = 0; i < info->dlpi_phnum; ++i)
                if (info->dlpi_phdr[i].p_type == PT_TLS)
                    *static_cast<std::size_t*>(total) += info->dlpi_phdr[i].p_memsz + info->dlpi_phdr[i].p_align;
            return 0;
        },
        &tls);
    pthread_attr_t saved, small;
    BOOST_REQUIRE(pthread_getattr_default_np(&saved) == 0);
    pthread_attr_init(&small);
    BOOST_REQUIRE(pthread_attr_setstacksize(&small, 64 * 1024 + (tls + 4095) / 4096 * 4096) == 0);
    BOOST_REQUIRE(pthread_setattr_default_np(&small) == 0);
    std::vector<std::vector<double>> got;
    std::string failure;
    std::thread worker([&] {
        try {
            got = reduce_cases(operands);
        } catch (const std::exception& e) {
            failure = e.what();
        }
    });
    pthread_setattr_default_np(&saved);
    pthread_attr_destroy(&small);
    pthread_attr_destroy(&saved);
    worker.join();
    BOOST_TEST(failure == "");
    check(got);
}

BOOST_AUTO_TEST_SUITE_END()
