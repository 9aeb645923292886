// Misuse that bsx rejects in the signatures of its operators, functions, constructors and
// assignments (issue 11, item 4): requires-expressions and the type traits answer false,
// never a hard error, and the well-formed neighbours of each case answer true. The texts
// of the diagnostics are checked by the compile-fail tests (test/compile_fail/). Mixed rule
// tags and XLA rank mismatch have their trait tests in test_rules.cpp.
// The run-time cases show that the overloads kept next to the deleted ones compute the
// right values (expected values written out, not computed by bsx).
#define BOOST_TEST_MODULE bsx_compile_time_checks
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include "test_support.hpp"

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using namespace test_support;

using D1 = bsx::array<double, 1>;
using D2 = bsx::array<double, 2>;
using D3 = bsx::array<double, 3>;
using I2 = bsx::array<std::int32_t, 2>;
using B2 = bsx::array<bool, 2>;
using view2 = bsx::strided_view<double, 2>;
using const_view2 = bsx::strided_view<const double, 2>;

struct point {
    double x, y;
};

/// The type of an expression of rank 3 (a lazy node, not an array).
using rank3_node = decltype(std::declval<const D3&>() * 2.0);

template <class A, class B>
constexpr bool addable = requires(const A& a, const B& b) { a + b; };
template <class A, class B>
constexpr bool modulus_able = requires(const A& a, const B& b) { a % b; };
template <class A, class B>
constexpr bool bit_and_able = requires(const A& a, const B& b) { a& b; };
template <class A>
constexpr bool bit_not_able = requires(const A& a) { ~a; };
template <class A, class B>
constexpr bool modulus_assignable = requires(A& a, const B& b) { a %= b; };
template <class A, class B>
constexpr bool plus_assignable = requires(A& a, const B& b) { a += b; };
template <class A, class B>
constexpr bool atan2_able = requires(const A& a, const B& b) { bsx::atan2(a, b); };
template <class A, class B>
constexpr bool mappable = requires(const A& a, const B& b) { bsx::map([](auto x, auto) { return x; }, a, b); };
template <class A>
constexpr bool has_row = requires(A&& a) { std::forward<A>(a).row(0); };
template <class A>
constexpr bool has_col = requires(A&& a) { std::forward<A>(a).col(0); };

// ---- rank mismatch: construction, conversion, assignment
static_assert(!std::is_constructible_v<D2, const D3&>);
static_assert(!std::is_constructible_v<D2, rank3_node>);
static_assert(!std::is_convertible_v<rank3_node, D2>);
static_assert(!std::is_assignable_v<D2&, const D3&>);
static_assert(!std::is_assignable_v<D2&, rank3_node>);
static_assert(std::is_constructible_v<D3, rank3_node>);
static_assert(std::is_convertible_v<rank3_node, D3>);
static_assert(std::is_assignable_v<D3&, rank3_node>);
static_assert(std::is_constructible_v<D2, const I2&>);  // same rank, another element type
static_assert(std::is_assignable_v<D2&, const I2&>);

// ---- assigning what is not an expression
static_assert(!std::is_assignable_v<D2&, std::string>);
static_assert(!std::is_assignable_v<D2&, point>);
static_assert(!std::is_assignable_v<D2&, const double*>);
static_assert(!std::is_assignable_v<view2, std::string>);
static_assert(std::is_assignable_v<D2&, double>);
static_assert(std::is_assignable_v<D2&, int>);
static_assert(std::is_assignable_v<view2, double>);
static_assert(std::is_assignable_v<view2, const D2&>);
static_assert(!std::is_assignable_v<const_view2, double>);  // a view of const elements
static_assert(!std::is_assignable_v<const_view2, const D2&>);

// ---- non-numeric operands
static_assert(!addable<D1, std::string>);
static_assert(!addable<std::string, D1>);
static_assert(!addable<D1, point>);
static_assert(!atan2_able<D1, point>);
static_assert(!mappable<D1, std::string>);
static_assert(!plus_assignable<D1, std::string>);
static_assert(addable<D1, double>);
static_assert(addable<int, D1>);
static_assert(atan2_able<D1, double>);
static_assert(mappable<D1, double>);
static_assert(plus_assignable<D1, int>);

// ---- % and the bitwise operators on floating types
static_assert(!modulus_able<D2, D2>);
static_assert(!modulus_able<D2, int>);
static_assert(!modulus_able<I2, double>);
static_assert(!modulus_assignable<D2, int>);
static_assert(!modulus_assignable<I2, double>);
static_assert(!bit_and_able<D2, I2>);
static_assert(!bit_not_able<D2>);
static_assert(modulus_able<I2, I2>);
static_assert(modulus_able<I2, int>);
static_assert(modulus_assignable<I2, int>);
static_assert(bit_and_able<I2, I2>);
static_assert(bit_and_able<B2, B2>);
static_assert(bit_not_able<I2>);
static_assert(bit_not_able<B2>);

// ---- the row or column of a temporary array would dangle; those of views and named arrays do not
static_assert(!has_row<D2>);
static_assert(!has_row<const D2>);
static_assert(!has_col<D2>);
static_assert(!has_row<bsx::fixed_array<double, 2, 2>>);
static_assert(has_row<D2&>);
static_assert(has_row<const D2&>);
static_assert(has_col<D2&>);
static_assert(has_row<view2>);  // a temporary view: it points into memory that lives on
static_assert(has_col<const_view2>);

}  // namespace

BOOST_AUTO_TEST_CASE(kept_overloads_compute) {
    const bsx::array<std::int32_t, 1> i{7, -7, 9};
    bsx::array<std::int32_t, 1> m = i % 4;
    BOOST_TEST(contents(m) == (std::vector<double>{3, -3, 1}), boost::test_tools::per_element());
    m %= 2;
    BOOST_TEST(contents(m) == (std::vector<double>{1, -1, 1}), boost::test_tools::per_element());

    D2 r = bsx::zeros<double>(2, 2);
    r = 5;  // a scalar fills, the shape is kept
    BOOST_TEST(contents(r) == (std::vector<double>{5, 5, 5, 5}), boost::test_tools::per_element());
    const I2 k{{1, 2, 3}, {4, 5, 6}};
    r = k;  // same rank, another element type and shape: resized, converted
    BOOST_TEST(r.extent(1) == 3);
    BOOST_TEST(contents(r) == (std::vector<double>{1, 2, 3, 4, 5, 6}), boost::test_tools::per_element());
    const D2 c(k);
    BOOST_TEST(contents(c) == (std::vector<double>{1, 2, 3, 4, 5, 6}), boost::test_tools::per_element());
}
