// Views of bsx (api.md sections 1 and 2), each kind read AND written: row, col, slice
// (all, integers, range with positive and negative steps, newaxis, omitted trailing
// specs), permute, transpose, reshape, broadcast_to, adapt. Expected values are
// computed here by hand or with plain index arithmetic (NumPy's slicing rules worked
// out in the comments), never with bsx. Also: assignment writes through and never
// rebinds, broadcasting into a view, failed assignments leave memory unchanged,
// compound assignment on views, views of const arrays are read-only.
#define BOOST_TEST_MODULE bsx_views
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include "test_support.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using namespace test_support;

using bsx::index_t;
template <std::size_t N>
using shape = std::array<index_t, N>;

/// a(i, j) = 10 i + j, shape (m, n).
bsx::array<double, 2> grid(index_t m, index_t n) {
    auto a = bsx::zeros<double>(m, n);
    for (index_t i = 0; i < m; ++i)
        for (index_t j = 0; j < n; ++j) a(i, j) = 10.0 * i + j;
    return a;
}

/// Runs `f`, which must throw bsx::broadcast_error; then `a` must still hold `before`.
template <class F, class A>
void expect_rejected(F&& f, const A& a, const std::vector<double>& before) {
    BOOST_CHECK_THROW(f(), bsx::broadcast_error);
    BOOST_TEST(contents(a) == before, boost::test_tools::per_element());
}

/// `v op= x` for every compound operator of floating types (the views here hold doubles).
template <class V, class X>
concept compound_assignable = requires(V v, X x) {
    v += x;
    v -= x;
    v *= x;
    v /= x;
};
template <class V, class X>
concept assignable = requires(V v, X x) { v = x; };

template <class V>
inline constexpr bool const_elements = std::is_const_v<std::remove_pointer_t<decltype(std::declval<V&>().data())>>;

}  // namespace

// ================================================================== row and col
BOOST_AUTO_TEST_SUITE(row_col)

BOOST_AUTO_TEST_CASE(read) {
    auto a = grid(3, 4);
    auto r = a.row(1);
    static_assert(decltype(r)::rank == 2);
    BOOST_TEST(fmt(r.shape()) == "(1,4)");
    expect_values(r, "(1,4)", {10, 11, 12, 13});
    BOOST_TEST(r(0, 3) == 13.0);
    auto c = a.col(2);
    BOOST_TEST(fmt(c.shape()) == "(3,1)");
    expect_values(c, "(3,1)", {2, 12, 22});
    BOOST_TEST(c(2, 0) == 22.0);
    // the outer sum a(i,k) + a(k,j)
    for (index_t k = 0; k < 3; ++k) {
        const auto s = bsx::eval(a.col(k) + a.row(k));
        BOOST_TEST(fmt(s.shape()) == "(3,4)");
        for (index_t i = 0; i < 3; ++i)
            for (index_t j = 0; j < 4; ++j) BOOST_TEST(s(i, j) == a(i, k) + a(k, j));
    }
    // views are expressions: arithmetic, functions
    expect_values(a.row(2) * 2.0 - a.row(0), "(1,4)", {40, 41, 42, 43});
    // the row of a view (a transposed matrix): column 1 of a
    auto t = bsx::transpose(a);
    expect_values(t.row(1), "(1,3)", {1, 11, 21});
    expect_values(t.col(0), "(4,1)", {0, 1, 2, 3});
    BOOST_CHECK_THROW((void)a.row(3), std::out_of_range);
    BOOST_CHECK_THROW((void)a.row(-1), std::out_of_range);
    BOOST_CHECK_THROW((void)a.col(4), std::out_of_range);
}

BOOST_AUTO_TEST_CASE(write) {
    auto a = grid(3, 4);
    a.row(1) = 0.0;
    BOOST_TEST(contents(a) == (std::vector<double>{0, 1, 2, 3, 0, 0, 0, 0, 20, 21, 22, 23}),
               boost::test_tools::per_element());
    a.col(2) = -1.0;
    BOOST_TEST(contents(a) == (std::vector<double>{0, 1, -1, 3, 0, 0, -1, 0, 20, 21, -1, 23}),
               boost::test_tools::per_element());
    // an expression of the view's shape
    a.row(0) = bsx::array<double, 2>{{5, 6, 7, 8}};
    // a (4,) vector broadcasts to (1,4)
    a.row(2) = bsx::array<double, 1>{1, 2, 3, 4};
    BOOST_TEST(contents(a) == (std::vector<double>{5, 6, 7, 8, 0, 0, -1, 0, 1, 2, 3, 4}),
               boost::test_tools::per_element());
    a.col(0) = bsx::array<double, 2>{{100}, {200}, {300}};
    BOOST_TEST(contents(a) == (std::vector<double>{100, 6, 7, 8, 200, 0, -1, 0, 300, 2, 3, 4}),
               boost::test_tools::per_element());
    // element writes through the view
    auto c = a.col(3);
    c(1, 0) = 42.0;
    BOOST_TEST(a(1, 3) == 42.0);
    // a (3,) vector does not fit a (3,1) column: (3,) is (1,3) under NumPy rules
    const auto before = contents(a);
    expect_rejected([&] { a.col(0) = bsx::array<double, 1>{1, 2, 3}; }, a, before);
    expect_rejected([&] { a.row(0) = bsx::array<double, 1>{1, 2, 3}; }, a, before);
    expect_rejected([&] { a.row(0) = bsx::zeros<double>(2, 4); }, a, before);  // never resizes
}

BOOST_AUTO_TEST_CASE(assignment_copies_values_and_never_rebinds) {
    auto a = grid(3, 4);
    a.row(0) = a.row(1);
    BOOST_TEST(contents(a) == (std::vector<double>{10, 11, 12, 13, 10, 11, 12, 13, 20, 21, 22, 23}),
               boost::test_tools::per_element());
    // named views: assignment copies values; the left view still views row 2
    auto r2 = a.row(2);
    auto r0 = a.row(0);
    r2 = r0;
    BOOST_TEST(r2.data() == &a(2, 0));
    BOOST_TEST(contents(a) == (std::vector<double>{10, 11, 12, 13, 10, 11, 12, 13, 10, 11, 12, 13}),
               boost::test_tools::per_element());
    a(0, 0) = -5.0;  // changing row 0 afterwards does not show through row 2
    BOOST_TEST(r2(0, 0) == 10.0);
    BOOST_TEST(r0(0, 0) == -5.0);
    // copying a view object gives a view of the same elements
    auto copy = r0;
    BOOST_TEST(copy.data() == r0.data());
    copy = 7.0;
    BOOST_TEST(a(0, 0) == 7.0);
    BOOST_TEST(a(0, 3) == 7.0);
    auto copy2(copy);
    copy2(0, 1) = 8.0;
    BOOST_TEST(a(0, 1) == 8.0);
    // views of two different arrays
    auto b = grid(2, 4);
    a.row(0) = b.row(1);
    BOOST_TEST(a(0, 0) == 10.0);
    BOOST_TEST(a(0, 3) == 13.0);
    BOOST_TEST(b(1, 3) == 13.0);
    // a column of another matrix into a column
    const auto c = grid(3, 2);
    a.col(1) = c.col(1);
    BOOST_TEST(a(0, 1) == 1.0);
    BOOST_TEST(a(1, 1) == 11.0);
    BOOST_TEST(a(2, 1) == 21.0);
}

BOOST_AUTO_TEST_CASE(compound) {
    auto a = grid(3, 4);
    a.row(0) += 1.0;
    a.col(1) *= 2.0;
    a.col(3) -= a.col(0);
    a.row(2) /= bsx::array<double, 1>{1, 2, 4, 8};
    BOOST_TEST(contents(a) == (std::vector<double>{1, 4, 3, 3, 10, 22, 12, 3, 20, 21, 5.5, 0.375}),
               boost::test_tools::per_element());
    auto i = bsx::array<int, 2>{{7, 8, 9}, {10, 11, 12}};
    i.row(1) %= 4;
    i.col(0) &= 3;
    i.col(2) |= 16;
    i.row(0) ^= bsx::array<int, 1>{1, 1, 1};
    BOOST_TEST((std::vector<int>(i.begin(), i.end()) == std::vector<int>{2, 9, 24, 2, 3, 16}));
    const auto before = contents(a);
    expect_rejected([&] { a.row(0) += bsx::array<double, 1>{1, 2, 3}; }, a, before);
    expect_rejected([&] { a.col(0) -= bsx::array<double, 1>{1, 2, 3}; }, a, before);
    expect_rejected([&] { a.row(1) *= a; }, a, before);  // (3,4) cannot go into (1,4)
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================== slice
BOOST_AUTO_TEST_SUITE(slice)

BOOST_AUTO_TEST_CASE(integers_and_all) {
    auto a = grid(4, 5);
    auto r1 = bsx::slice(a, 1);  // a[1] drops axis 0
    static_assert(decltype(r1)::rank == 1);
    expect_values(r1, "(5,)", {10, 11, 12, 13, 14});
    expect_values(bsx::slice(a, -1), "(5,)", {30, 31, 32, 33, 34});  // a[-1]
    expect_values(bsx::slice(a, -4), "(5,)", {0, 1, 2, 3, 4});       // a[-4]
    expect_values(bsx::slice(a, bsx::all, 2), "(4,)", {2, 12, 22, 32});
    expect_values(bsx::slice(a, bsx::all, -2), "(4,)", {3, 13, 23, 33});
    expect_values(bsx::slice(a, bsx::all, bsx::all), "(4,5)", contents(a));
    expect_values(bsx::slice(a, bsx::all), "(4,5)", contents(a));
    auto s = bsx::slice(a, 2, 3);  // a[2, 3]: rank 0
    static_assert(decltype(s)::rank == 0);
    BOOST_TEST(s() == 23.0);
    BOOST_TEST(bsx::slice(a, -1, -1)() == 34.0);
    // out of range: std::out_of_range
    BOOST_CHECK_THROW((void)bsx::slice(a, 4), std::out_of_range);
    BOOST_CHECK_THROW((void)bsx::slice(a, -5), std::out_of_range);
    BOOST_CHECK_THROW((void)bsx::slice(a, bsx::all, 5), std::out_of_range);
    BOOST_CHECK_THROW((void)bsx::slice(a, bsx::all, -6), std::out_of_range);
    try {
        (void)bsx::slice(a, 0, 7);
        BOOST_ERROR("no exception");
    } catch (const std::out_of_range& e) {
        BOOST_TEST(std::string(e.what()).find("axis 1") != std::string::npos, e.what());
    }
    // omitted trailing specs mean all
    auto b = grid3(2, 3, 4);
    expect_values(bsx::slice(b, 1), "(3,4)", {100, 101, 102, 103, 110, 111, 112, 113, 120, 121, 122, 123});
    expect_values(bsx::slice(b, bsx::all, 2), "(2,4)", {20, 21, 22, 23, 120, 121, 122, 123});
    expect_values(bsx::slice(b, 0, -1), "(4,)", {20, 21, 22, 23});
    expect_values(bsx::slice(b, bsx::all, bsx::all, 3), "(2,3)", {3, 13, 23, 103, 113, 123});
}

BOOST_AUTO_TEST_CASE(ranges) {
    auto v = bsx::arange<double>(10);  // [0 .. 9]
    // each against NumPy's v[b:e:s] for v = np.arange(10), worked out by hand
    expect_values(bsx::slice(v, bsx::range(2, 5)), "(3,)", {2, 3, 4});                  // v[2:5]
    expect_values(bsx::slice(v, bsx::range(1, 9, 3)), "(3,)", {1, 4, 7});               // v[1:9:3]
    expect_values(bsx::slice(v, bsx::range(0, 10, 4)), "(3,)", {0, 4, 8});              // v[0:10:4]
    expect_values(bsx::slice(v, bsx::range(-3, 10)), "(3,)", {7, 8, 9});                // v[-3:]
    expect_values(bsx::slice(v, bsx::range(1, -1)), "(8,)", {1, 2, 3, 4, 5, 6, 7, 8});  // v[1:-1]
    expect_values(bsx::slice(v, bsx::range(-100, 3)), "(3,)", {0, 1, 2});               // clamped: v[-100:3]
    expect_values(bsx::slice(v, bsx::range(7, 100)), "(3,)", {7, 8, 9});                // clamped: v[7:100]
    expect_values(bsx::slice(v, bsx::range(5, 5)), "(0,)", {});                         // v[5:5]
    expect_values(bsx::slice(v, bsx::range(6, 2)), "(0,)", {});                         // v[6:2]
    expect_values(bsx::slice(v, bsx::range(20, 30)), "(0,)", {});                       // v[20:30]
    expect_values(bsx::slice(v, bsx::range(0, 10, 20)), "(1,)", {0});                   // v[0:10:20]
    // negative steps
    expect_values(bsx::slice(v, bsx::range(8, 2, -2)), "(3,)", {8, 6, 4});                          // v[8:2:-2]
    expect_values(bsx::slice(v, bsx::range(9, -11, -1)), "(10,)", {9, 8, 7, 6, 5, 4, 3, 2, 1, 0});  // v[9:-11:-1]
    expect_values(bsx::slice(v, bsx::range(100, -100, -3)), "(4,)", {9, 6, 3, 0});                  // v[100:-100:-3]
    expect_values(bsx::slice(v, bsx::range(-1, -4, -1)), "(3,)", {9, 8, 7});                        // v[-1:-4:-1]
    expect_values(bsx::slice(v, bsx::range(5, -1, -1)), "(0,)", {});        // v[5:-1:-1]: -1 is the last element
    expect_values(bsx::slice(v, bsx::range(2, 8, -1)), "(0,)", {});         // v[2:8:-1]
    expect_values(bsx::slice(v, bsx::range(3, 0, -1)), "(3,)", {3, 2, 1});  // v[3:0:-1]
    expect_values(bsx::slice(v, bsx::range(-8, -100, -5)), "(1,)", {2});    // v[-8:-100:-5]
    BOOST_CHECK_THROW((void)bsx::slice(v, bsx::range(0, 5, 0)), std::invalid_argument);
    // on two axes of a matrix, and combined with integers
    auto a = grid(4, 5);
    expect_values(bsx::slice(a, bsx::range(1, 3)), "(2,5)", {10, 11, 12, 13, 14, 20, 21, 22, 23, 24});
    expect_values(bsx::slice(a, bsx::range(3, -5, -2), bsx::range(0, 5, 2)), "(2,3)", {30, 32, 34, 10, 12, 14});
    expect_values(bsx::slice(a, bsx::range(-1, -5, -1), -1), "(4,)", {34, 24, 14, 4});  // a[::-1, -1]
    expect_values(bsx::slice(a, 2, bsx::range(4, 0, -3)), "(2,)", {24, 21});
    // a slice of a slice: a[1:4][::-2, 1:] = rows 3, 1, columns 1..4
    auto inner = bsx::slice(a, bsx::range(1, 4));
    expect_values(bsx::slice(inner, bsx::range(2, -4, -2), bsx::range(1, 5)), "(2,4)",
                  {31, 32, 33, 34, 11, 12, 13, 14});
    // an empty range on one axis gives an empty view that broadcasts as NumPy's
    expect_values(bsx::slice(a, bsx::range(2, 2)), "(0,5)", {});
    expect_values(bsx::slice(a, bsx::range(2, 2)) + bsx::arange<double>(5), "(0,5)", {});
}

BOOST_AUTO_TEST_CASE(newaxis) {
    auto v = bsx::arange<double>(3);
    auto rv = bsx::slice(v, bsx::newaxis);  // v[None] : (1,3)
    static_assert(decltype(rv)::rank == 2);
    expect_values(rv, "(1,3)", {0, 1, 2});
    auto cv = bsx::slice(v, bsx::all, bsx::newaxis);  // v[:, None] : (3,1)
    expect_values(cv, "(3,1)", {0, 1, 2});
    expect_values(cv * 10.0 + rv, "(3,3)", {0, 1, 2, 10, 11, 12, 20, 21, 22});
    auto a = grid(2, 3);
    expect_values(bsx::slice(a, bsx::newaxis, 1, bsx::range(0, 2)), "(1,2)", {10, 11});  // a[None, 1, 0:2]
    expect_values(bsx::slice(a, bsx::all, bsx::newaxis, bsx::all, bsx::newaxis), "(2,1,3,1)",
                  {0, 1, 2, 10, 11, 12});                                // a[:, None, :, None]
    expect_values(bsx::slice(a, bsx::newaxis), "(1,2,3)", contents(a));  // a[None]: trailing axes kept
    // writing through a view with an inserted axis
    bsx::slice(a, bsx::all, bsx::newaxis, 0) = bsx::array<double, 2>{{-1}, {-2}};
    BOOST_TEST(a(0, 0) == -1.0);
    BOOST_TEST(a(1, 0) == -2.0);
}

BOOST_AUTO_TEST_CASE(write) {
    auto a = grid(4, 5);
    bsx::slice(a, bsx::range(1, 3), bsx::range(1, 4)) = 0.0;
    BOOST_TEST(
        contents(a) == (std::vector<double>{0, 1, 2, 3, 4, 10, 0, 0, 0, 14, 20, 0, 0, 0, 24, 30, 31, 32, 33, 34}),
        boost::test_tools::per_element());
    bsx::slice(a, bsx::all, 0) = bsx::array<double, 1>{-1, -2, -3, -4};  // a[:, 0] = [...]
    bsx::slice(a, -1) = bsx::arange<double>(5) * 100.0;                  // a[-1] = ...
    BOOST_TEST(
        contents(a) == (std::vector<double>{-1, 1, 2, 3, 4, -2, 0, 0, 0, 14, -3, 0, 0, 0, 24, 0, 100, 200, 300, 400}),
        boost::test_tools::per_element());
    // negative step: v[::-1] = [1..5] writes backwards
    auto v = bsx::zeros<double>(5);
    bsx::slice(v, bsx::range(-1, -6, -1)) = bsx::array<double, 1>{1, 2, 3, 4, 5};
    BOOST_TEST(contents(v) == (std::vector<double>{5, 4, 3, 2, 1}), boost::test_tools::per_element());
    bsx::slice(v, bsx::range(0, 5, 2)) = 0.0;  // v[::2] = 0
    BOOST_TEST(contents(v) == (std::vector<double>{0, 4, 0, 2, 0}), boost::test_tools::per_element());
    // a rank-0 slice is assignable
    bsx::slice(v, 2) = 9.0;
    BOOST_TEST(v(2) == 9.0);
    // (1,n) into an (m,n) slice, (n,) into an (m,n) slice
    auto b = grid(4, 5);
    bsx::slice(b, bsx::range(0, 2)) = b.row(3);
    bsx::slice(b, bsx::range(2, 4), bsx::range(0, 3)) = bsx::array<double, 1>{7, 8, 9};
    BOOST_TEST(
        contents(b) == (std::vector<double>{30, 31, 32, 33, 34, 30, 31, 32, 33, 34, 7, 8, 9, 23, 24, 7, 8, 9, 33, 34}),
        boost::test_tools::per_element());
    // compound assignment through a slice
    bsx::slice(b, bsx::all, bsx::range(3, 5)) += 1000.0;
    bsx::slice(b, bsx::range(0, 4, 3), 0) *= bsx::array<double, 1>{2, -1};
    BOOST_TEST(b(0, 3) == 1033.0);
    BOOST_TEST(b(3, 4) == 1034.0);
    BOOST_TEST(b(0, 0) == 60.0);
    BOOST_TEST(b(3, 0) == -7.0);
    BOOST_TEST(b(1, 0) == 30.0);
    // non-broadcastable: nothing written
    const auto before = contents(b);
    expect_rejected([&] { bsx::slice(b, bsx::range(0, 2)) = bsx::zeros<double>(3, 5); }, b, before);
    expect_rejected([&] { bsx::slice(b, bsx::range(0, 2)) = bsx::zeros<double>(1, 4); }, b, before);
    expect_rejected([&] { bsx::slice(b, 0) = bsx::zeros<double>(4); }, b, before);
    expect_rejected([&] { bsx::slice(b, bsx::all, 1) += bsx::zeros<double>(5); }, b, before);
    try {
        bsx::slice(b, bsx::range(0, 2)) = bsx::zeros<double>(3, 5);
    } catch (const bsx::broadcast_error& e) {
        const std::string w = e.what();
        BOOST_TEST(w.find("(3,5)") != std::string::npos, w);
        BOOST_TEST(w.find("(2,5)") != std::string::npos, w);
        BOOST_TEST(w.find("numpy") != std::string::npos, w);
    }
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================== permute and transpose
BOOST_AUTO_TEST_SUITE(permute_transpose)

BOOST_AUTO_TEST_CASE(permute_read_write) {
    auto b = grid3(2, 3, 4);
    auto p = bsx::permute(b, {2, 0, 1});  // axis i of p is axis perm[i] of b: p(k, i, j) = b(i, j, k)
    BOOST_TEST(fmt(p.shape()) == "(4,2,3)");
    std::size_t bad = 0;
    for (index_t k = 0; k < 4; ++k)
        for (index_t i = 0; i < 2; ++i)
            for (index_t j = 0; j < 3; ++j) bad += p(k, i, j) != b(i, j, k);
    BOOST_TEST(bad == 0u);
    const auto pe = bsx::eval(p);
    BOOST_TEST(pe(3, 1, 2) == 123.0);
    BOOST_TEST(pe(1, 0, 2) == 21.0);
    // std::array form
    auto q = bsx::permute(b, std::array<index_t, 3>{1, 2, 0});  // q(j, k, i) = b(i, j, k)
    BOOST_TEST(fmt(q.shape()) == "(3,4,2)");
    const auto qe = bsx::eval(q);
    BOOST_TEST(qe(2, 1, 1) == 121.0);
    BOOST_TEST(qe(0, 3, 0) == 3.0);
    // identity
    expect_values(bsx::permute(b, {0, 1, 2}), "(2,3,4)", contents(b));
    // not a permutation
    const auto rejects = [](auto permute, const char* why) { expect_throw<std::invalid_argument>(permute, why); };
    rejects([&] { (void)bsx::permute(b, {0, 0, 1}); }, "bsx: permute: (0,0,1) is not a permutation of the 3 axes");
    rejects([&] { (void)bsx::permute(b, {0, 1, 3}); }, "the 3 axes of an operand of shape (2,3,4)");
    rejects([&] { (void)bsx::permute(b, {-1, 1, 2}); }, "(-1,1,2) is not a permutation");
    rejects([&] { (void)bsx::permute(b, {0, 1}); }, "bsx: permute: 2 axes given for an operand of rank 3");
    rejects([&] { (void)bsx::permute(b, {0, 1, 2, 3}); }, "4 axes given");
    rejects([&] { (void)bsx::permute(b, std::array<index_t, 3>{2, 2, 2}); }, "(2,2,2) is not a permutation");
    // write through a permutation
    auto c = bsx::zeros<double>(2, 3, 4);
    bsx::permute(c, {2, 0, 1}) = p;  // c(i, j, k) = p(k, i, j) = b(i, j, k)
    BOOST_TEST(contents(c) == contents(b), boost::test_tools::per_element());
    bsx::permute(c, {1, 0, 2}) = bsx::array<double, 1>{1, 2, 3, 4};  // broadcast over the (3,2,4) view
    BOOST_TEST(std::all_of(c.begin(), c.end(), [](double x) { return x >= 1 && x <= 4; }));
    BOOST_TEST(c(1, 2, 3) == 4.0);
    bsx::permute(c, {2, 1, 0}) -= bsx::array<double, 3>{{{1}}, {{2}}, {{3}}, {{4}}};  // (4,3,2) view, minus k+1
    BOOST_TEST(std::all_of(c.begin(), c.end(), [](double x) { return x == 0.0; }));
    // Octave's img .* permute([0.8 0.9 1.2], [1 3 2]) in NumPy form: a (3,) vector as (3,1,1)
    bsx::array<double, 2> w{{0.5, 2.0, 4.0}};  // (1,3)
    auto w3 = bsx::reshape<3>(w, {1, 1, 3});
    expect_values(bsx::permute(w3, {2, 0, 1}), "(3,1,1)", {0.5, 2, 4});
}

BOOST_AUTO_TEST_CASE(transpose_read_write) {
    auto a = grid(2, 3);
    auto t = bsx::transpose(a);
    BOOST_TEST(fmt(t.shape()) == "(3,2)");
    expect_values(t, "(3,2)", {0, 10, 1, 11, 2, 12});
    BOOST_TEST(t(2, 1) == 12.0);
    // all axes reversed for rank 3
    auto b = grid3(2, 3, 4);
    auto tb = bsx::transpose(b);
    BOOST_TEST(fmt(tb.shape()) == "(4,3,2)");
    BOOST_TEST(tb(3, 1, 0) == 13.0);
    BOOST_TEST(tb(1, 2, 1) == 121.0);
    // rank 1: unchanged
    auto v = bsx::arange<double>(3);
    expect_values(bsx::transpose(v), "(3,)", {0, 1, 2});
    // transposing twice gives the original
    expect_values(bsx::transpose(bsx::transpose(a)), "(2,3)", contents(a));
    // write: d = a'
    auto d = bsx::zeros<double>(3, 2);
    bsx::transpose(d) = a;
    BOOST_TEST(contents(d) == (std::vector<double>{0, 10, 1, 11, 2, 12}), boost::test_tools::per_element());
    bsx::transpose(d) += bsx::array<double, 2>{{1}, {2}};  // (2,1) over the (2,3) view: column j of d += j + 1
    BOOST_TEST(contents(d) == (std::vector<double>{1, 12, 2, 13, 3, 14}), boost::test_tools::per_element());
    const auto before = contents(d);
    expect_rejected([&] { bsx::transpose(d) = bsx::zeros<double>(3, 2); }, d, before);
    // a transposed row is a column
    expect_values(bsx::transpose(a.row(1)), "(3,1)", {10, 11, 12});
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================== reshape, broadcast_to, adapt
BOOST_AUTO_TEST_SUITE(reshape_broadcast_adapt)

BOOST_AUTO_TEST_CASE(reshape) {
    auto v = bsx::arange<double>(6);
    auto m = bsx::reshape<2>(v, {2, 3});
    static_assert(decltype(m)::rank == 2);
    expect_values(m, "(2,3)", {0, 1, 2, 3, 4, 5});
    BOOST_TEST(m(1, 0) == 3.0);
    BOOST_TEST(m.data() == v.data());                                              // a view, not a copy
    expect_values(bsx::reshape<3>(v, {-1, 1, 2}), "(3,1,2)", {0, 1, 2, 3, 4, 5});  // -1 inferred
    expect_values(bsx::reshape<2>(v, {-1, 6}), "(1,6)", {0, 1, 2, 3, 4, 5});
    expect_values(bsx::reshape<1>(m, {-1}), "(6,)", {0, 1, 2, 3, 4, 5});
    expect_values(bsx::reshape<3>(m, shape<3>{3, 1, 2}), "(3,1,2)", {0, 1, 2, 3, 4, 5});
    auto one = bsx::arange<double>(1);
    auto s = bsx::reshape<0>(one, {});
    static_assert(decltype(s)::rank == 0);
    BOOST_TEST(s() == 0.0);
    // wrong count, bad -1 use, non-contiguous operand
    const auto rejects = [](auto reshape, const char* why) { expect_throw<std::invalid_argument>(reshape, why); };
    rejects([&] { (void)bsx::reshape<2>(v, {4, 2}); }, "bsx: reshape: cannot reshape shape (6,) to (4,2): 6 elements");
    rejects([&] { (void)bsx::reshape<2>(v, {-1, 4}); }, "to (-1,4): the element count does not divide");
    rejects([&] { (void)bsx::reshape<3>(v, {-1, -1, 6}); }, "must be non-negative, with at most one -1");
    rejects([&] { (void)bsx::reshape<2>(v, {-2, -3}); }, "must be non-negative, with at most one -1");
    rejects([&] { (void)bsx::reshape<1>(bsx::transpose(m), {6}); },
            "cannot reshape shape (3,2) to (6,): the operand is not contiguous");
    // write through
    bsx::reshape<2>(v, {3, 2}) = bsx::array<double, 1>{1, -1};
    BOOST_TEST(contents(v) == (std::vector<double>{1, -1, 1, -1, 1, -1}), boost::test_tools::per_element());
    m.row(1) += 10.0;  // m views v
    BOOST_TEST(contents(v) == (std::vector<double>{1, -1, 1, 9, 11, 9}), boost::test_tools::per_element());
    const auto before = contents(v);
    expect_rejected([&] { bsx::reshape<2>(v, {2, 3}) = bsx::zeros<double>(3, 2); }, v, before);
    // zero-size
    auto z = bsx::zeros<double>(0, 4);
    BOOST_TEST(fmt(bsx::reshape<3>(z, {2, 0, 5}).shape()) == "(2,0,5)");
}

BOOST_AUTO_TEST_CASE(broadcast_to) {
    bsx::array<double, 1> v{1, 2, 3};
    auto b = bsx::broadcast_to(v, shape<2>{2, 3});
    static_assert(decltype(b)::rank == 2);
    BOOST_TEST(fmt(b.shape()) == "(2,3)");
    BOOST_TEST(b.strides()[0] == 0);  // stride 0: nothing copied
    BOOST_TEST(b.data() == v.data());
    expect_values(b, "(2,3)", {1, 2, 3, 1, 2, 3});
    BOOST_TEST(b(1, 2) == 3.0);
    v(2) = 30.0;  // a view: changes show through
    BOOST_TEST(b(1, 2) == 30.0);
    bsx::array<double, 2> c{{1}, {2}};
    expect_values(bsx::broadcast_to(c, shape<3>{2, 2, 3}), "(2,2,3)", {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2});
    expect_values(bsx::broadcast_to(c, shape<2>{2, 1}), "(2,1)", {1, 2});
    expect_values(bsx::broadcast_to(c, shape<2>{2, 0}), "(2,0)", {});
    expect_values(bsx::broadcast_to(v, shape<2>{2, 3}) * bsx::array<double, 2>{{1}, {-1}}, "(2,3)",
                  {1, 2, 30, -1, -2, -30});
    // incompatible: broadcast_error
    BOOST_CHECK_THROW((void)bsx::broadcast_to(v, shape<2>{2, 4}), bsx::broadcast_error);
    BOOST_CHECK_THROW((void)bsx::broadcast_to(v, shape<1>{1}), bsx::broadcast_error);
    BOOST_CHECK_THROW((void)bsx::broadcast_to(c, shape<2>{3, 3}), bsx::broadcast_error);
    // read-only
    static_assert(const_elements<decltype(b)>);
    static_assert(!compound_assignable<decltype(b), double>);
}

BOOST_AUTO_TEST_CASE(adapt) {
    std::vector<double> buf = {0, 1, 2, 3, 4, 5};
    auto m = bsx::adapt(buf.data(), shape<2>{2, 3});
    static_assert(decltype(m)::rank == 2);
    expect_values(m, "(2,3)", {0, 1, 2, 3, 4, 5});
    BOOST_TEST(m(1, 2) == 5.0);
    m = 1.0;
    BOOST_TEST(buf == (std::vector<double>(6, 1.0)), boost::test_tools::per_element());
    m += bsx::array<double, 1>{0, 1, 2};
    m.row(1) *= 10.0;
    BOOST_TEST(buf == (std::vector<double>{1, 2, 3, 10, 20, 30}), boost::test_tools::per_element());
    // with strides: a column-major (3,2) view of the same buffer: t(i, j) = buf[i + 3 j]
    auto t = bsx::adapt(buf.data(), shape<2>{3, 2}, shape<2>{1, 3});
    expect_values(t, "(3,2)", {1, 10, 2, 20, 3, 30});
    t.col(0) = bsx::array<double, 2>{{-1}, {-2}, {-3}};
    BOOST_TEST(buf == (std::vector<double>{-1, -2, -3, 10, 20, 30}), boost::test_tools::per_element());
    // every other element, and a stride-0 (broadcast) axis
    std::vector<int> ib = {1, 2, 3, 4, 5, 6, 7, 8};
    auto ev = bsx::adapt(ib.data(), shape<1>{4}, shape<1>{2});
    expect_values(ev, "(4,)", {1, 3, 5, 7});
    ev += 100;
    BOOST_TEST((ib == std::vector<int>{101, 2, 103, 4, 105, 6, 107, 8}));
    auto rep = bsx::adapt(ib.data() + 1, shape<2>{3, 2}, shape<2>{0, 2});
    expect_values(rep, "(3,2)", {2, 4, 2, 4, 2, 4});
    // negative strides: the buffer backwards
    auto rev = bsx::adapt(ib.data() + 7, shape<1>{8}, shape<1>{-1});
    expect_values(rev, "(8,)", {8, 107, 6, 105, 4, 103, 2, 101});
    // a const buffer gives a read-only view
    const std::vector<double> cbuf = {1, 2, 3, 4};
    auto cv = bsx::adapt(cbuf.data(), shape<2>{2, 2});
    static_assert(const_elements<decltype(cv)>);
    expect_values(cv * 2.0, "(2,2)", {2, 4, 6, 8});
    // a failed assignment leaves the caller's memory alone
    const std::vector<double> before = buf;
    BOOST_CHECK_THROW(m = bsx::zeros<double>(3, 3), bsx::broadcast_error);
    BOOST_TEST(buf == before, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================== const, composition
BOOST_AUTO_TEST_SUITE(const_and_composition)

BOOST_AUTO_TEST_CASE(views_of_const_arrays_are_read_only) {
    const auto ca = grid(3, 4);
    auto r = ca.row(1);
    static_assert(const_elements<decltype(r)>);
    static_assert(std::is_const_v<std::remove_reference_t<decltype(ca.row(0)(0, 0))>>);
    static_assert(std::is_const_v<std::remove_reference_t<decltype(ca.col(0)(0, 0))>>);
    static_assert(const_elements<decltype(bsx::slice(ca, 1))>);
    static_assert(const_elements<decltype(bsx::transpose(ca))>);
    static_assert(const_elements<decltype(bsx::permute(ca, {1, 0}))>);
    static_assert(const_elements<decltype(bsx::reshape<1>(ca, {12}))>);
    static_assert(std::is_const_v<std::remove_reference_t<decltype(ca(0, 0))>>);
    // compound assignment is not offered on them (assignment is a compile-fail test)
    static_assert(!compound_assignable<decltype(ca.row(0)), double>);
    static_assert(!compound_assignable<decltype(bsx::slice(ca, 0)), double>);
    static_assert(!compound_assignable<decltype(bsx::transpose(ca)), const bsx::array<double, 2>&>);
    // while views of mutable arrays do offer it
    auto ma = grid(3, 4);
    static_assert(!const_elements<decltype(ma.row(0))>);
    static_assert(compound_assignable<decltype(ma.row(0)), double>);
    static_assert(assignable<decltype(ma.row(0)), double>);
    static_assert(assignable<decltype(bsx::transpose(ma)), const bsx::array<double, 2>&>);
    // reading works as usual
    expect_values(r + ca.col(0) * 0.0, "(3,4)", {10, 11, 12, 13, 10, 11, 12, 13, 10, 11, 12, 13});
    expect_values(bsx::slice(ca, bsx::range(-1, -4, -2), 3), "(2,)", {23, 3});
    // a mutable view converts to a read-only one
    using cview = decltype(ca.row(0));
    cview ro = ma.row(2);
    BOOST_TEST(ro(0, 1) == 21.0);
}

BOOST_AUTO_TEST_CASE(composed_views) {
    auto b = grid3(3, 4, 5);
    // slice -> transpose -> row -> reshape, read and written
    auto s = bsx::slice(b, 1, bsx::range(0, 4, 2), bsx::range(4, -6, -2));  // b[1, 0:4:2, ::-2]: (2,3)
    expect_values(s, "(2,3)", {104, 102, 100, 124, 122, 120});
    auto st = bsx::transpose(s);  // (3,2)
    expect_values(st, "(3,2)", {104, 124, 102, 122, 100, 120});
    expect_values(st.row(1), "(1,2)", {102, 122});
    st.row(1) = bsx::array<double, 1>{-1, -2};
    BOOST_TEST(b(1, 0, 2) == -1.0);
    BOOST_TEST(b(1, 2, 2) == -2.0);
    BOOST_TEST(b(1, 1, 2) == 112.0);                            // untouched (odd j)
    auto p = bsx::permute(bsx::slice(b, bsx::all, 3), {1, 0});  // b[:, 3, :].T : (5,3)
    expect_values(p.col(2), "(5,1)", {230, 231, 232, 233, 234});
    p.col(2) *= 0.0;
    BOOST_TEST(b(2, 3, 4) == 0.0);
    BOOST_TEST(b(1, 3, 4) == 134.0);
    // broadcasting between views of different kinds
    auto v = bsx::arange<double>(5);
    expect_values(bsx::slice(b, 0, 0) + bsx::reshape<2>(v, {5, 1}), "(5,5)",
                  {0, 1, 2, 3, 4, 1, 2, 3, 4, 5, 2, 3, 4, 5, 6, 3, 4, 5, 6, 7, 4, 5, 6, 7, 8});
}

BOOST_AUTO_TEST_SUITE_END()
