// The claims of doc/from-numpy.md and doc/from-octave.md, checked: each table row whose
// bsx spelling could be misread (integer division, mod/rem at 0, promotion of small
// integers, NaN in min/max, keepdims shapes, slicing bounds, the compound assignments
// Octave has and C++ lacks). Expected values are NumPy's or Octave's documented
// results, written out by hand.
#define BOOST_TEST_MODULE bsx_cheat_sheets
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include "test_support.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

namespace {

using namespace test_support;

template <class E>
std::vector<double> values(const E& e) {
    return evaluated(e).values;
}

}  // namespace

BOOST_AUTO_TEST_CASE(integer_division_and_remainder) {
    const bsx::array<int, 1> a{-7, 7};
    BOOST_TEST(values(a / 2) == (std::vector<double>{-3, 3}), boost::test_tools::per_element());  // NumPy //: -4, 3
    BOOST_TEST(values(a % 2) == (std::vector<double>{-1, 1}), boost::test_tools::per_element());  // NumPy %: 1, 1
    BOOST_TEST(values(bsx::mod(a, 2)) == (std::vector<double>{1, 1}), boost::test_tools::per_element());
    BOOST_TEST(values((a - bsx::mod(a, 2)) / 2) == (std::vector<double>{-4, 3}), boost::test_tools::per_element());
    BOOST_TEST(values(bsx::cast<double>(a) / 2) == (std::vector<double>{-3.5, 3.5}), boost::test_tools::per_element());
    static_assert(std::is_same_v<bsx::value_type_t<decltype(a / 2)>, int>);
    // doc/reference.md, "Integer arithmetic": a zero divisor gives 0, as NumPy
    const bsx::array<int, 1> d{2, 2, 0};
    BOOST_TEST(values(bsx::array<int, 1>{-7, 7, 1} / d) == (std::vector<double>{-3, 3, 0}),
               boost::test_tools::per_element());
    BOOST_TEST(values(bsx::array<int, 1>{-7, 7, 1} % d) == (std::vector<double>{-1, 1, 0}),
               boost::test_tools::per_element());
    const auto mixed = bsx::array<std::int8_t, 1>{-1} + bsx::array<std::uint32_t, 1>{1u};
    static_assert(std::is_same_v<bsx::value_type_t<decltype(mixed)>, std::int64_t>);
    BOOST_TEST(bsx::eval(mixed)(0) == 0);
}

BOOST_AUTO_TEST_CASE(mod_and_rem_by_zero) {
    const bsx::array<double, 1> x{5.5, -2.0};
    BOOST_TEST(values(bsx::mod(x, 0.0)) == (std::vector<double>{5.5, -2.0}), boost::test_tools::per_element());
    const auto r = bsx::eval(bsx::rem(x, 0.0));
    BOOST_TEST((std::isnan(r(0)) && std::isnan(r(1))));
    const bsx::array<int, 1> i{5, -3};
    BOOST_TEST(values(bsx::mod(i, 0)) == (std::vector<double>{5, -3}), boost::test_tools::per_element());
    BOOST_TEST(values(bsx::rem(i, 0)) == (std::vector<double>{0, 0}), boost::test_tools::per_element());
    // Octave: mod(-7, 3) = 2, rem(-7, 3) = -1
    BOOST_TEST(bsx::eval(bsx::mod(bsx::array<int, 0>(-7), 3))() == 2);
    BOOST_TEST(bsx::eval(bsx::rem(bsx::array<int, 0>(-7), 3))() == -1);
}

BOOST_AUTO_TEST_CASE(small_integers_promote_to_int) {
    const bsx::array<std::int8_t, 1> a{100};
    static_assert(std::is_same_v<bsx::value_type_t<decltype(a + a)>, int>);
    BOOST_TEST(bsx::eval(a + a)(0) == 200);  // NumPy int8: -56; Octave int8: 127
    BOOST_TEST(int(bsx::eval(bsx::cast<std::int8_t>(a + a))(0)) == -56);
}

BOOST_AUTO_TEST_CASE(nan_in_min_and_max) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const bsx::array<double, 1> x{1.0, nan, 3.0};
    const bsx::array<double, 1> y{2.0, 2.0, nan};
    const auto mn = bsx::eval(bsx::min(x, y));  // np.minimum
    BOOST_TEST((mn(0) == 1.0 && std::isnan(mn(1)) && std::isnan(mn(2))));
    BOOST_TEST(values(bsx::fmin(x, y)) == (std::vector<double>{1, 2, 3}),
               boost::test_tools::per_element());  // Octave min
    BOOST_TEST(values(bsx::fmax(x, y)) == (std::vector<double>{2, 2, 3}),
               boost::test_tools::per_element());                         // Octave max
    BOOST_TEST(std::isnan(bsx::max(x)));                                  // np.max; Octave's max(x) would be 3
    BOOST_TEST(bsx::min(bsx::where(bsx::isnan(x), HUGE_VAL, x)) == 1.0);  // np.nanmin
}

BOOST_AUTO_TEST_CASE(indexing_and_shapes) {
    const bsx::array<double, 2> a{{1, 2, 3}, {4, 5, 6}};
    const bsx::array<double, 1> v{1, 2, 3, 4};
    BOOST_TEST(fmt(bsx::slice(a, 1).shape()) == "(3,)");
    BOOST_TEST(fmt(a.row(1).shape()) == "(1,3)");
    BOOST_TEST(fmt(bsx::slice(a, bsx::all, 2).shape()) == "(2,)");
    BOOST_TEST(fmt(a.col(2).shape()) == "(2,1)");
    BOOST_TEST(values(bsx::slice(v, bsx::range(-1, -v.extent(0) - 1, -1))) == (std::vector<double>{4, 3, 2, 1}),
               boost::test_tools::per_element());  // v[::-1]
    BOOST_TEST(fmt(bsx::slice(v, bsx::all, bsx::newaxis).shape()) == "(4,1)");
    BOOST_TEST(fmt(bsx::slice(v, bsx::newaxis).shape()) == "(1,4)");
    BOOST_TEST(values(bsx::slice(a, bsx::all, bsx::range(0, a.extent(1), 2))) == (std::vector<double>{1, 3, 4, 6}),
               boost::test_tools::per_element());  // A(:, 1:2:end)
    BOOST_TEST(bsx::slice(a, -1, 0)() == 4.0);
    BOOST_TEST(values(bsx::reshape<1>(a, {-1})) == (std::vector<double>{1, 2, 3, 4, 5, 6}),
               boost::test_tools::per_element());  // row-major, where Octave's A(:) is 1 4 2 5 3 6
}

BOOST_AUTO_TEST_CASE(reductions_keep_octave_shapes) {
    const bsx::array<double, 2> a{{1, 2, 3}, {4, 5, 6}};
    const auto s1 = bsx::eval(bsx::sum(a, bsx::axis(0), bsx::keepdims));  // Octave sum(A, 1)
    BOOST_TEST(fmt(s1.shape()) == "(1,3)");
    BOOST_TEST(values(s1) == (std::vector<double>{5, 7, 9}), boost::test_tools::per_element());
    BOOST_TEST(fmt(bsx::sum(a, bsx::axis(1), bsx::keepdims).shape()) == "(2,1)");  // sum(A, 2)
    BOOST_TEST(fmt(bsx::sum(a, bsx::axis(0)).shape()) == "(3,)");
    // the matrix product written as Octave's warning writes it, fused
    const bsx::array<double, 2> A{{1, 2}, {3, 4}}, B{{5, 6}, {7, 8}};
    const auto c =
        bsx::eval(bsx::sum(bsx::in_dims<3>(A, {0, 2}) * bsx::in_dims<3>(bsx::transpose(B), {1, 2}), bsx::axis(2)));
    BOOST_TEST(values(c) == (std::vector<double>{19, 22, 43, 50}), boost::test_tools::per_element());
    const auto c2 = bsx::eval(bsx::sum(bsx::in_dims<3>(A, {0, 1}) * bsx::in_dims<3>(B, {1, 2}), bsx::axis(1)));
    BOOST_TEST(values(c2) == (std::vector<double>{19, 22, 43, 50}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(octave_compound_assignments) {
    bsx::array<double, 2> a{{1, 2}, {4, 8}};
    const bsx::array<double, 2> b{{2, 4}, {8, 16}};
    a = bsx::ldivide(a, b);  // A .\= B
    BOOST_TEST(values(a) == (std::vector<double>{2, 2, 2, 2}), boost::test_tools::per_element());
    a = bsx::pow(a, b);  // A .^= B
    BOOST_TEST(values(a) == (std::vector<double>{4, 16, 256, 65536}), boost::test_tools::per_element());
    bsx::array<bool, 1> m{true, true, false};
    const bsx::array<bool, 1> n{true, false, false};
    m &= n;
    BOOST_TEST(values(m) == (std::vector<double>{1, 0, 0}), boost::test_tools::per_element());
    m |= bsx::array<bool, 1>{false, false, true};
    BOOST_TEST(values(m) == (std::vector<double>{1, 0, 1}), boost::test_tools::per_element());
    // img .*= permute([0.8, 0.9, 1.2], [1, 3, 2])
    bsx::array<double, 3> img = bsx::ones<double>(2, 2, 3);
    const bsx::array<double, 2> w{{0.5, 2.0, 4.0}};
    img *= bsx::with_rules<bsx::octave_rules>(bsx::in_dims<3>(w, {0, 2}));
    BOOST_TEST(img(1, 1, 0) == 0.5);
    BOOST_TEST(img(0, 1, 2) == 4.0);
}
