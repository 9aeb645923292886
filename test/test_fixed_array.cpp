// bsx::fixed_array and static extents (api.md section 7): construction and every member
// of bsx::array, static shapes of nested expressions (static_asserts), compile-time
// refusal of clashing extents (requires-expressions), mixing with arrays, views and
// scalars under the three rule sets, reductions, aliasing, and results against plain loops.
#define BOOST_TEST_MODULE bsx_fixed_array
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include <array>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "test_support.hpp"

using namespace test_support;
using bsx::index_t;

namespace {

using mat23 = bsx::fixed_array<double, 2, 3>;
using vec3 = bsx::fixed_array<double, 3>;
using mat33 = bsx::fixed_array<double, 3, 3>;

template <class A, class B>
constexpr bool addable = requires(const A& a, const B& b) { a + b; };
template <class A, class B>
constexpr bool atan2_able = requires(const A& a, const B& b) { bsx::atan2(a, b); };
template <class C, class A, class B>
constexpr bool where_able = requires(const C& c, const A& a, const B& b) { bsx::where(c, a, b); };
template <class A, class B>
constexpr bool plus_assignable = requires(A& a, const B& b) { a += b; };

/// m(i, j) = 10 i + j + 1 for a (2,3) fixed array: every element names its index.
mat23 indexed23() { return mat23{{1, 2, 3}, {11, 12, 13}}; }

}  // namespace

// ---------------------------------------------------------------- static shapes

// Arrays and views have dynamic extents; a fixed_array's are known, and each node's
// static shape follows from its children's by the run-time rule.
static_assert(bsx::static_shape_v<mat23> == bsx::shape_t<2>{2, 3});
static_assert(bsx::static_shape_v<decltype(std::declval<mat23&>() + std::declval<vec3&>())> == bsx::shape_t<2>{2, 3});
static_assert(bsx::static_shape_v<decltype(bsx::where(std::declval<bsx::fixed_array<bool, 2, 1>&>(), 1.0,
                                                      -std::declval<vec3&>() * 2.0))> == bsx::shape_t<2>{2, 3});
static_assert(
    bsx::static_shape_v<decltype(bsx::with_rules<bsx::octave_rules>(std::declval<vec3&>()) + std::declval<mat33&>())> ==
    bsx::shape_t<2>{3, 3});
static_assert(bsx::static_shape_v<decltype(std::declval<bsx::fixed_array<double, 4, 1, 3>&>() +
                                           bsx::sqrt(std::declval<bsx::fixed_array<double, 2, 1>&>()))> ==
              bsx::shape_t<3>{4, 2, 3});
static_assert(bsx::static_shape_v<bsx::fixed_array<double>> == bsx::shape_t<0>{});
// Mixed: (n, 3) points minus a (3,) centroid knows axis 1 only; a 1 against a dynamic
// extent is dynamic, anything else against one is known.
using points_minus_centroid = decltype(std::declval<bsx::array<double, 2>&>() - std::declval<vec3&>());
static_assert(!bsx::is_static_axis_v<points_minus_centroid, 0> && bsx::is_static_axis_v<points_minus_centroid, 1>);
static_assert(bsx::static_extents_v<points_minus_centroid>[1] == 3);
static_assert(!bsx::statically_shaped<points_minus_centroid>);
static_assert(!bsx::is_static_axis_v<
              decltype(std::declval<bsx::fixed_array<double, 1>&>() + std::declval<bsx::array<double, 1>&>()), 0>);
// Views of memory and lazy views carry run-time maps: dynamic.
static_assert(!bsx::is_static_axis_v<decltype(bsx::transpose(std::declval<mat23&>())), 0>);
static_assert(!bsx::is_static_axis_v<decltype(bsx::sum(std::declval<mat23&>(), bsx::axis(0))), 0>);
// Clashing known extents never form a node; dynamic ones defer to run time.
static_assert(!addable<mat23, bsx::fixed_array<double, 2>>);
static_assert(!addable<mat23, bsx::fixed_array<double, 3, 3>>);
static_assert(addable<mat23, bsx::fixed_array<double, 2, 1>>);
static_assert(addable<mat23, bsx::array<double, 2>>);
static_assert(!atan2_able<vec3, bsx::fixed_array<double, 4>>);
static_assert(!where_able<bsx::fixed_array<bool, 4>, mat23, double>);
static_assert(!plus_assignable<mat23, bsx::fixed_array<double, 2, 2>>);
static_assert(!plus_assignable<mat23, bsx::fixed_array<double, 3, 1>>);  // would need to grow the destination
static_assert(plus_assignable<mat23, vec3>);
static_assert(!std::is_assignable_v<mat33&, bsx::fixed_array<double, 2, 3>&>);
static_assert(!std::is_constructible_v<mat33, bsx::fixed_array<double, 1, 2>&>);
static_assert(std::is_assignable_v<mat33&, bsx::array<double, 2>&>);
// Octave rules align the other way: (3,) with (3,3) fits, (2,) with (3,3) does not.
static_assert(
    !addable<decltype(bsx::with_rules<bsx::octave_rules>(std::declval<bsx::fixed_array<double, 2>&>())), mat33>);
// Inline storage, value semantics.
static_assert(sizeof(mat33) == 9 * sizeof(double));
static_assert(std::is_trivially_copyable_v<mat33>);

// ---------------------------------------------------------------- construction and members

BOOST_AUTO_TEST_CASE(construction) {
    expect_array(mat23{}, {2, 3}, std::vector<double>(6, 0.0));
    expect_array(indexed23(), {2, 3}, std::vector<double>{1, 2, 3, 11, 12, 13});
    const bsx::fixed_array<int> zero_rank(7);
    BOOST_TEST(zero_rank() == 7);
    // Ragged or wrong-length lists are refused with the axis named.
    BOOST_CHECK_THROW((mat23{{1, 2, 3}, {4, 5}}), std::invalid_argument);
    BOOST_CHECK_THROW((mat23{{1, 2, 3}}), std::invalid_argument);
    BOOST_CHECK_THROW((vec3{1, 2, 3, 4}), std::invalid_argument);
    // From expressions: all-static, dynamic, broadcast up to the static shape.
    const auto a = indexed23();
    const vec3 v{100, 200, 300};
    expect_array(mat23(a + v), {2, 3}, std::vector<double>{101, 202, 303, 111, 212, 313});
    const auto d = make_array<2>(bsx::shape_t<2>{2, 1}, {1.0, -1.0});
    expect_array(mat23(d * 2.0), {2, 3}, std::vector<double>{2, 2, 2, -2, -2, -2});
    BOOST_CHECK_THROW(mat23(make_array<2>(bsx::shape_t<2>{3, 3}, std::vector<double>(9, 1.0))), bsx::broadcast_error);
    // Copies are deep.
    mat23 b = a;
    b(0, 0) = -5;
    BOOST_TEST(a(0, 0) == 1.0);
    BOOST_TEST(b(0, 0) == -5.0);
}

BOOST_AUTO_TEST_CASE(members_of_array) {
    auto a = indexed23();
    BOOST_TEST(fmt(a.shape()) == "(2,3)");
    BOOST_TEST(a.extent(1) == 3);
    BOOST_CHECK_THROW((void)a.extent(2), std::out_of_range);
    BOOST_TEST(a.size() == 6);
    BOOST_TEST(decltype(a)::rank == 2u);
    BOOST_TEST(a.data()[4] == 12.0);
    BOOST_TEST(a(1, 2) == 13.0);
    BOOST_TEST(a.at(1, 0) == 11.0);
    BOOST_CHECK_THROW((void)a.at(2, 0), std::out_of_range);
    BOOST_TEST(contents(a) == (std::vector<double>{1, 2, 3, 11, 12, 13}));
    expect_values(a.row(1), "(1,3)", {11, 12, 13});
    expect_values(a.col(2), "(2,1)", {3, 13});
    expect_values(a.col(0) + a.row(1), "(2,3)", {12, 13, 14, 22, 23, 24});
    expect_values(bsx::slice(a, bsx::all, bsx::range(0, 3, 2)), "(2,2)", {1, 3, 11, 13});
    expect_values(bsx::reshape<1>(a, {6}), "(6,)", {1, 2, 3, 11, 12, 13});
    expect_values(bsx::permute(a, {1, 0}), "(3,2)", {1, 11, 2, 12, 3, 13});
    // Views write through; scalars fill; compound assignment broadcasts.
    a.row(0) = a.row(1);
    expect_array(a, {2, 3}, std::vector<double>{11, 12, 13, 11, 12, 13});
    bsx::slice(a, 1) = vec3{7, 8, 9};
    a += vec3{1, 1, 1};
    a *= 2;
    expect_array(a, {2, 3}, std::vector<double>{24, 26, 28, 16, 18, 20});
    a -= make_array<2>(bsx::shape_t<2>{2, 1}, {4.0, 6.0});
    expect_array(a, {2, 3}, std::vector<double>{20, 22, 24, 10, 12, 14});
    BOOST_CHECK_THROW(a += make_array<1>(bsx::shape_t<1>{2}, {1.0, 2.0}), bsx::broadcast_error);
    a = 0.5;
    expect_array(a, {2, 3}, std::vector<double>(6, 0.5));
    // Printing and comparison as for arrays.
    std::ostringstream os;
    os << indexed23();
    BOOST_TEST(os.str() == "[[ 1.,  2.,  3.],\n [11., 12., 13.]]");
    BOOST_TEST(bsx::array_equal(indexed23(), make_array<2>(bsx::shape_t<2>{2, 3}, {1.0, 2, 3, 11, 12, 13})));
    BOOST_TEST(!bsx::array_equal(indexed23(), a));
    BOOST_TEST(bsx::allclose(indexed23() + 1e-12, indexed23()));
    bsx::fixed_array<int, 2, 2> m{{1, 2}, {3, 4}};
    m %= 3;
    expect_array(m, {2, 2}, std::vector<int>{1, 2, 0, 1});
}

// ---------------------------------------------------------------- evaluation against loops

BOOST_AUTO_TEST_CASE(all_static_results_match_loops) {
    const auto ra = random_values(16, 1), rb = random_values(16, 2), rc = random_values(16, 3);
    bsx::fixed_array<double, 4, 4> a, b, c, r;
    std::copy(ra.begin(), ra.end(), a.begin());
    std::copy(rb.begin(), rb.end(), b.begin());
    std::copy(rc.begin(), rc.end(), c.begin());
    r = a * b + c;
    std::vector<double> want(16);
    for (std::size_t i = 0; i < 16; ++i) want[i] = ra[i] * rb[i] + rc[i];
    expect_array(r, {4, 4}, want);
    r = bsx::where(a > 0, a, -a);
    for (std::size_t i = 0; i < 16; ++i) want[i] = std::abs(ra[i]);
    expect_array(r, {4, 4}, want);
    // Broadcasts on every side: (4,1) with (4,) into (4,4), a rank-0 fixed array, a scalar.
    const bsx::fixed_array<double, 4, 1> col{{1}, {2}, {3}, {4}};
    const bsx::fixed_array<double, 4> row{10, 20, 30, 40};
    const bsx::fixed_array<double> two(2.0);
    r = col * two + row - 1.0;
    for (std::size_t i = 0; i < 4; ++i)
        for (std::size_t j = 0; j < 4; ++j) want[i * 4 + j] = double(i + 1) * 2 + double(j + 1) * 10 - 1;
    expect_array(r, {4, 4}, want);
    // Under octave rules the (4,) operand lies along axis 0.
    r = bsx::with_rules<bsx::octave_rules>(row) + col * 0.0 + bsx::fixed_array<double, 1, 4>{{1, 2, 3, 4}};
    for (std::size_t i = 0; i < 4; ++i)
        for (std::size_t j = 0; j < 4; ++j) want[i * 4 + j] = double(i + 1) * 10 + double(j + 1);
    expect_array(r, {4, 4}, want);
    // A rank-3 broadcast of two fixed arrays into a bsx::array, through the static loop.
    const bsx::fixed_array<double, 2, 1, 3> p{{{1, 2, 3}}, {{4, 5, 6}}};
    const bsx::fixed_array<double, 2, 1> q{{10}, {20}};
    bsx::array<double, 3> s = p * q;
    std::vector<double> want3;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            for (int k = 0; k < 3; ++k) want3.push_back((i * 3 + k + 1) * (j + 1) * 10.0);
    expect_array(s, {2, 2, 3}, want3);
    // A map over fixed arrays; a cast; integers.
    const bsx::fixed_array<int, 3> ints{1, 2, 3};
    bsx::fixed_array<double, 3> mapped = bsx::map([](int x, double y) { return x * y; }, ints, vec3{0.5, 0.5, 0.5});
    expect_array(mapped, {3}, std::vector<double>{0.5, 1, 1.5});
    expect_values(bsx::cast<double>(ints) / 2, "(3,)", {0.5, 1, 1.5});
}

BOOST_AUTO_TEST_CASE(mixing_with_arrays_views_and_rule_sets) {
    // (n,3) points minus a fixed centroid, then rotated by a fixed 3x3 (a broadcast product).
    const index_t n = 5;
    const auto pv = random_values(std::size_t(n) * 3, 4);
    const auto pts = make_array<2>(bsx::shape_t<2>{n, 3}, pv);
    const vec3 centroid{1, 2, 3};
    bsx::array<double, 2> centred = pts - centroid;
    std::vector<double> want(pv.size());
    for (std::size_t i = 0; i < pv.size(); ++i) want[i] = pv[i] - double(i % 3 + 1);
    expect_array(centred, {n, 3}, want);
    // A fixed (2,) placed on axis 0 of a dynamic (2,3) with in_dims, and the XLA form.
    const bsx::fixed_array<double, 2> two{100, 200};
    const auto m = make_array<2>(bsx::shape_t<2>{2, 3}, {1.0, 2, 3, 4, 5, 6});
    expect_values(m + bsx::in_dims<2>(two, {0}), "(2,3)", {101, 102, 103, 204, 205, 206});
    expect_values(bsx::add(bsx::with_rules<bsx::xla_rules>(m), two, {0}), "(2,3)", {101, 102, 103, 204, 205, 206});
    // Octave rules: a fixed (2,) lines up with axis 0 of a (2,3).
    expect_values(bsx::with_rules<bsx::octave_rules>(two) * m, "(2,3)", {100, 200, 300, 800, 1000, 1200});
    // A fixed array inside a larger dynamic expression, with views and scalars.
    const auto big = make_array<2>(bsx::shape_t<2>{2, 3}, {6.0, 5, 4, 3, 2, 1});
    expect_values(bsx::max(big, indexed23()) * 2 - bsx::transpose(bsx::transpose(m)) + 1, "(2,3)",
                  {12, 9, 6, 19, 20, 21});
    // A dynamic operand whose extent clashes with a known one is refused at run time.
    BOOST_CHECK_THROW(indexed23() + make_array<1>(bsx::shape_t<1>{2}, {1.0, 2}), bsx::broadcast_error);
    // An array destination of another shape: the general path broadcasts.
    const vec3 v{1, 2, 3};
    bsx::array<double, 2> grown = bsx::broadcast_to(v, bsx::shape_t<2>{2, 3});
    expect_array(grown, {2, 3}, std::vector<double>{1, 2, 3, 1, 2, 3});
}

BOOST_AUTO_TEST_CASE(reductions_over_fixed_arrays) {
    const auto a = indexed23();
    BOOST_TEST(bsx::sum(a) == 42.0);
    BOOST_TEST(bsx::max(a) == 13.0);
    BOOST_TEST(bsx::mean(a * 2) == 14.0);
    expect_values(bsx::sum(a, bsx::axis(0)), "(3,)", {12, 14, 16});
    // A reduction into a fixed destination, and inside an all-static expression.
    vec3 colsum = bsx::sum(a, bsx::axis(0));
    expect_array(colsum, {3}, std::vector<double>{12, 14, 16});
    bsx::fixed_array<double, 2> rowmax = bsx::max(a - vec3{0, 0, 20}, bsx::axis(1));
    expect_array(rowmax, {2}, std::vector<double>{2, 12});
    // A fused matrix product of fixed arrays: sum over k of A(i,k) B(k,j).
    const mat33 r{{0, -1, 0}, {1, 0, 0}, {0, 0, 1}};
    const bsx::fixed_array<double, 2, 3> p{{1, 2, 3}, {4, 5, 6}};
    bsx::fixed_array<double, 2, 3> rotated =
        bsx::sum(bsx::in_dims<3>(p, {0, 1}) * bsx::in_dims<3>(bsx::transpose(r), {1, 2}), bsx::axis(1));
    expect_array(rotated, {2, 3}, std::vector<double>{-2, 1, 3, -5, 4, 6});
}

// ---------------------------------------------------------------- aliasing

BOOST_AUTO_TEST_CASE(aliasing_keeps_value_semantics) {
    mat33 m{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
    m = bsx::transpose(m);
    expect_array(m, {3, 3}, std::vector<double>{1, 4, 7, 2, 5, 8, 3, 6, 9});
    // All-static right-hand sides reading the destination elsewhere: the stack copy.
    vec3 v{1, 2, 3};
    v = v + bsx::fixed_array<double, 1>{10};
    expect_array(v, {3}, std::vector<double>{11, 12, 13});
    m = m * 2.0 + m;  // reads each element where it is written: no copy needed
    expect_array(m, {3, 3}, std::vector<double>{3, 12, 21, 6, 15, 24, 9, 18, 27});
    // A rank-0 view (static too) of an element that the loop overwrites first.
    m = m / bsx::slice(m, 0, 0) + bsx::slice(m, 2, 2);
    expect_array(m, {3, 3}, std::vector<double>{28, 31, 34, 29, 32, 35, 30, 33, 36});
    // Views of the destination (dynamic extents): a reversed slice, a row broadcast over
    // the whole array.
    v = bsx::slice(v, bsx::range(2, -4, -1));
    expect_array(v, {3}, std::vector<double>{13, 12, 11});
    m = m.row(0) + m;
    expect_array(m, {3, 3}, std::vector<double>{56, 62, 68, 57, 63, 69, 58, 64, 70});
    // The destination a view of a fixed array, the source that fixed array.
    bsx::fixed_array<double, 4> w{1, 2, 3, 4};
    bsx::slice(w, bsx::range(1, 4)) = bsx::slice(w, bsx::range(0, 3)) * 10;
    expect_array(w, {4}, std::vector<double>{1, 10, 20, 30});
    // A failed run-time check leaves the destination as it was.
    const auto before = contents(m);
    BOOST_CHECK_THROW(m = make_array<2>(bsx::shape_t<2>{2, 3}, std::vector<double>(6, 0.0)), bsx::broadcast_error);
    BOOST_TEST(contents(m) == before);
}
