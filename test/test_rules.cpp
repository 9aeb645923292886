// Broadcasting rule sets of bsx (api.md sections 2-5, conformance/README.md "Broadcasting
// rules"): numpy_rules, octave_rules and xla_rules.
//  - explain_broadcast<R>: the key lines for the examples of the three seed documents
//    (NumPy guide, XLA broadcasting semantics, Octave manual), and that it never throws.
//  - broadcast_shapes<R>: results, and the broadcast_error texts (exact text for each rule
//    set; operators, functions and the XLA names carry their own operation name).
//  - XLA broadcast dimensions: every invalid-dims error of in_dims, broadcast_in_dim and
//    the XLA form bsx::add(a, b, {dims}) (wrong count, swapped, duplicate, >= rank,
//    negative), then the XLA document's examples with values, broadcast_in_dim, in_dims on
//    lazy expressions and temporaries, and assignment through an in_dims view.
//  - with_rules: a tagged leaf governs the whole tree, Octave's examples, compound
//    assignment under a tag (a failed one leaves the destination unchanged).
//  - Compile time: which operands may meet (xla rank mismatch, mixed tags), as SFINAE.
// Expected values are literals from the seed documents or plain loops, never bsx.
#define BOOST_TEST_MODULE bsx_rules
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include "test_support.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <initializer_list>
#include <span>
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

using numpy = bsx::numpy_rules;
using octave = bsx::octave_rules;
using xla = bsx::xla_rules;

using M2 = bsx::array<double, 2>;
using V1 = bsx::array<double, 1>;
using S0 = bsx::array<double, 0>;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// Every one of `parts` must occur in `text`.
void expect_parts(const std::string& text, std::initializer_list<std::string> parts) {
    for (const auto& p : parts) BOOST_CHECK_MESSAGE(contains(text, p), "expected \"" << p << "\" in:\n" << text);
}

/// The last line of a text that ends with a newline.
std::string last_line(const std::string& text) {
    std::string t = text;
    if (!t.empty() && t.back() == '\n') t.pop_back();
    const auto nl = t.rfind('\n');
    return nl == std::string::npos ? t : t.substr(nl + 1);
}

/// explain_broadcast<R>(sa, sb), which must not throw.
template <class R, std::size_t A, std::size_t B>
std::string explained(const shape<A>& sa, const shape<B>& sb) {
    std::string text;
    BOOST_CHECK_NO_THROW(text = bsx::explain_broadcast<R>(sa, sb));
    BOOST_TEST_MESSAGE(text);
    BOOST_TEST(!text.empty());
    BOOST_TEST(text.back() == '\n');
    return text;
}

/// Runs `f`, which must throw a bsx::broadcast_error (caught as the std::invalid_argument
/// it derives from); returns what().
template <class F>
std::string error_text(F&& f) {
    try {
        f();
    } catch (const std::invalid_argument& e) {
        BOOST_CHECK_MESSAGE(dynamic_cast<const bsx::broadcast_error*>(&e) != nullptr,
                            "not a bsx::broadcast_error: " << e.what());
        return e.what();
    }
    BOOST_ERROR("no exception was thrown");
    return {};
}
/// `f` must throw a broadcast_error whose what() contains every one of `parts`.
template <class F>
void expect_error(F&& f, std::initializer_list<std::string> parts) {
    expect_parts(error_text(std::forward<F>(f)), parts);
}
/// A predicate for BOOST_CHECK_EXCEPTION: what() is exactly `want`.
auto what_is(std::string want) {
    return [want = std::move(want)](const bsx::broadcast_error& e) {
        BOOST_TEST(std::string(e.what()) == want);
        return std::string(e.what()) == want;
    };
}

/// Row-major values f(i, j) over (m, n), and f(i, j, k) over (p, q, r).
template <class F>
std::vector<double> table2(index_t m, index_t n, F f) {
    std::vector<double> out;
    for (index_t i = 0; i < m; ++i)
        for (index_t j = 0; j < n; ++j) out.push_back(f(i, j));
    return out;
}
template <class F>
std::vector<double> table3(index_t p, index_t q, index_t r, F f) {
    std::vector<double> out;
    for (index_t i = 0; i < p; ++i)
        for (index_t j = 0; j < q; ++j)
            for (index_t k = 0; k < r; ++k) out.push_back(f(i, j, k));
    return out;
}
/// Arrays holding the same tables.
M2 grid(index_t m, index_t n, double scale = 1.0) {
    auto a = bsx::zeros<double>(m, n);
    for (index_t i = 0; i < m; ++i)
        for (index_t j = 0; j < n; ++j) a(i, j) = scale * (10.0 * i + j + 1);
    return a;
}

// ---------------------------------------------------------------- compile-time rules
// Evaluated inside requires-expressions of variable templates: a call that cannot be
// formed (a deleted overload, a failed constraint) is `false`, not a hard error.
template <class A, class B>
constexpr bool addable = requires(const A& a, const B& b) { a + b; };
template <class A, class B>
constexpr bool min_able = requires(const A& a, const B& b) { bsx::min(a, b); };
template <class A, class B>
constexpr bool add_with_dims = requires(const A& a, const B& b) { bsx::add(a, b, {1}); };

/// The type of with_rules<R>(x) for an lvalue x of type X.
template <class R, class X>
using tagged = decltype(bsx::with_rules<R>(std::declval<const X&>()));
/// A tagged leaf under a node: (with_rules<R>(x) * 2.0).
template <class R, class X>
using tagged_node = decltype(std::declval<tagged<R, X>>() * 2.0);

// xla: ranks must match, unless one operand is rank 0 (a scalar or a rank-0 array)
static_assert(!addable<tagged<xla, M2>, V1>);
static_assert(!addable<V1, tagged<xla, M2>>);
static_assert(!addable<tagged<xla, M2>, tagged<xla, V1>>);
static_assert(!addable<tagged_node<xla, M2>, V1>);  // the tag of a deeper leaf decides
static_assert(addable<tagged<xla, M2>, double>);
static_assert(addable<double, tagged<xla, M2>>);
static_assert(addable<tagged<xla, M2>, S0>);
static_assert(addable<S0, tagged<xla, M2>>);
static_assert(addable<tagged<xla, M2>, M2>);
static_assert(addable<tagged<xla, V1>, tagged<xla, V1>>);
static_assert(addable<tagged<xla, M2>, decltype(bsx::in_dims<2>(std::declval<const V1&>(), {1}))>);
// two different tags never meet; equal tags and one tag do
static_assert(!addable<tagged<octave, M2>, tagged<numpy, M2>>);
static_assert(!addable<tagged<numpy, V1>, tagged<octave, M2>>);
static_assert(!addable<tagged_node<octave, M2>, tagged<xla, M2>>);
static_assert(addable<tagged<octave, M2>, tagged<octave, M2>>);
static_assert(addable<tagged<octave, M2>, tagged<octave, V1>>);
static_assert(addable<M2, tagged<octave, V1>>);
static_assert(addable<tagged<octave, M2>, V1>);
static_assert(addable<M2, V1>);  // untagged: numpy
// the same through a function
static_assert(!min_able<tagged<xla, M2>, V1>);
static_assert(!min_able<V1, tagged<xla, M2>>);
static_assert(min_able<tagged<xla, M2>, double>);
static_assert(min_able<tagged<xla, M2>, S0>);
static_assert(!min_able<tagged<octave, M2>, tagged<numpy, M2>>);
static_assert(min_able<tagged<octave, M2>, tagged<octave, M2>>);
static_assert(min_able<M2, tagged<octave, V1>>);
// the XLA form: explicit dims let xla ranks differ; mixed tags still never meet
static_assert(add_with_dims<tagged<xla, M2>, V1>);
static_assert(add_with_dims<M2, V1>);
static_assert(!add_with_dims<tagged<octave, M2>, tagged<numpy, V1>>);
// the tag travels up the tree
static_assert(std::is_same_v<bsx::rules_of_t<M2>, numpy>);
static_assert(std::is_same_v<bsx::rules_of_t<tagged<octave, M2>>, octave>);
static_assert(std::is_same_v<
              bsx::rules_of_t<decltype(std::declval<tagged_node<octave, M2>>() + std::declval<const V1&>())>, octave>);
static_assert(
    std::is_same_v<
        bsx::rules_of_t<decltype(std::declval<const V1&>() - bsx::abs(std::declval<tagged_node<xla, V1>>()))>, xla>);
static_assert(std::is_base_of_v<std::invalid_argument, bsx::broadcast_error>);

}  // namespace

// ================================================================== explain_broadcast
BOOST_AUTO_TEST_SUITE(explain)

// NumPy guide 6.10.4: "(5,) against (5,1) is the canonical case".
BOOST_AUTO_TEST_CASE(vector_against_column_under_each_rule_set) {
    const shape<1> v{5};
    const shape<2> c{5, 1};
    const auto np = explained<numpy>(v, c);
    expect_parts(np, {"(5,) with (5,1)", "numpy rules", "(5,) -> (1,5)", "(5,1) -> (5,1)", "axis 0: 1 and 5 -> 5",
                      "axis 1: 5 and 1 -> 5", "stretched"});
    BOOST_TEST(last_line(np) == "result: (5,5)");
    BOOST_TEST(bsx::explain_broadcast(v, c) == np);  // numpy_rules is the default

    const auto oc = explained<octave>(v, c);
    expect_parts(oc, {"octave rules", "(5,) -> (5,1)", "axis 0: 5 and 5 -> 5 (equal)", "axis 1: 1 and 1 -> 1"});
    BOOST_TEST(last_line(oc) == "result: (5,1)");

    const auto xl = explained<xla>(v, c);
    expect_parts(xl, {"xla rules", "ranks 1 and 2", "broadcast dimensions"});
    BOOST_TEST(contains(last_line(xl), "cannot be broadcast"));
    BOOST_TEST(!contains(xl, "result: ("));
}

BOOST_AUTO_TEST_CASE(mismatch_names_the_axis) {
    const shape<2> a{2, 3}, b{2, 2};
    for (const auto& text : {explained<numpy>(a, b), explained<octave>(a, b), explained<xla>(a, b)}) {
        expect_parts(
            text, {"(2,3) with (2,2)", "equal ranks", "axis 0: 2 and 2 -> 2 (equal)", "axis 1: 3 and 2", "mismatch"});
        BOOST_TEST(last_line(text) == "result: cannot be broadcast: axis 1 has extents 3 and 2");
    }
    // NumPy guide: (3,4) against (4,3) fails on the first axis already
    BOOST_TEST(last_line(explained<numpy>(shape<2>{3, 4}, shape<2>{4, 3})) ==
               "result: cannot be broadcast: axis 0 has extents 3 and 4");
    // the axis is numbered in the result, after alignment: (5,4) -> (1,5,4)
    const auto text = explained<numpy>(shape<3>{2, 3, 4}, shape<2>{5, 4});
    expect_parts(text, {"(5,4) -> (1,5,4)", "axis 0: 2 and 1 -> 2", "axis 1: 3 and 5"});
    BOOST_TEST(last_line(text) == "result: cannot be broadcast: axis 1 has extents 3 and 5");
}

BOOST_AUTO_TEST_CASE(outer_sum_stretches_both) {
    const shape<2> col{3, 1}, row{1, 3};
    for (const auto& text : {explained<numpy>(col, row), explained<octave>(col, row), explained<xla>(col, row)}) {
        expect_parts(text, {"axis 0: 3 and 1 -> 3 (the second operand's 1 is stretched)",
                            "axis 1: 1 and 3 -> 3 (the first operand's 1 is stretched)"});
        BOOST_TEST(last_line(text) == "result: (3,3)");
    }
}

// XLA: "Broadcasting similar-rank arrays with degenerate dimensions", examples 1-4, and
// the outer operation (2,1) and (1,3).
BOOST_AUTO_TEST_CASE(xla_degenerate_dimensions) {
    BOOST_TEST(last_line(explained<xla>(shape<2>{2, 1}, shape<2>{2, 3})) == "result: (2,3)");
    BOOST_TEST(last_line(explained<xla>(shape<3>{1, 2, 5}, shape<3>{7, 2, 5})) == "result: (7,2,5)");
    BOOST_TEST(last_line(explained<xla>(shape<3>{7, 2, 5}, shape<3>{7, 1, 5})) == "result: (7,2,5)");
    BOOST_TEST(last_line(explained<xla>(shape<2>{2, 1}, shape<2>{1, 3})) == "result: (2,3)");
    const auto bad = explained<xla>(shape<3>{7, 2, 5}, shape<3>{7, 2, 6});
    expect_parts(bad, {"axis 0: 7 and 7 -> 7 (equal)", "axis 1: 2 and 2 -> 2 (equal)", "axis 2: 5 and 6"});
    BOOST_TEST(last_line(bad) == "result: cannot be broadcast: axis 2 has extents 5 and 6");
    // a rank-0 operand always broadcasts, also under xla
    const auto scalar = explained<xla>(shape<0>{}, shape<2>{2, 3});
    expect_parts(scalar, {"() with (2,3)", "() -> (1,1)"});
    BOOST_TEST(last_line(scalar) == "result: (2,3)");
    BOOST_TEST(last_line(explained<xla>(shape<2>{2, 3}, shape<0>{})) == "result: (2,3)");
}

// Octave manual: x (3,3) + y (1,3); y - y' ((1,3) and (3,1)); a column x = [1;2;3] with y.
BOOST_AUTO_TEST_CASE(octave_manual) {
    const auto xy = explained<octave>(shape<2>{3, 3}, shape<2>{1, 3});
    expect_parts(xy, {"axis 0: 3 and 1 -> 3 (the second operand's 1 is stretched)", "axis 1: 3 and 3 -> 3 (equal)"});
    BOOST_TEST(last_line(xy) == "result: (3,3)");
    BOOST_TEST(last_line(explained<octave>(shape<2>{1, 3}, shape<2>{3, 1})) == "result: (3,3)");
    BOOST_TEST(last_line(explained<octave>(shape<2>{3, 1}, shape<2>{1, 3})) == "result: (3,3)");
    // [1;2;3] held as a (3,) vector: a column under Octave's trailing 1s, a row under NumPy
    const auto oc = explained<octave>(shape<1>{3}, shape<2>{1, 3});
    expect_parts(oc, {"(3,) -> (3,1)", "trailing 1s"});
    BOOST_TEST(last_line(oc) == "result: (3,3)");
    const auto np = explained<numpy>(shape<1>{3}, shape<2>{1, 3});
    expect_parts(np, {"(3,) -> (1,3)", "leading 1s"});
    BOOST_TEST(last_line(np) == "result: (1,3)");
    // (3,) + (3,4): fine under octave, an error under numpy
    BOOST_TEST(last_line(explained<octave>(shape<1>{3}, shape<2>{3, 4})) == "result: (3,4)");
    BOOST_TEST(last_line(explained<numpy>(shape<1>{3}, shape<2>{3, 4})) ==
               "result: cannot be broadcast: axis 1 has extents 3 and 4");
    // (2,3) + (3,): fine under numpy, an error under octave on axis 0
    BOOST_TEST(last_line(explained<numpy>(shape<2>{2, 3}, shape<1>{3})) == "result: (2,3)");
    const auto bad = explained<octave>(shape<2>{2, 3}, shape<1>{3});
    expect_parts(bad, {"(3,) -> (3,1)", "axis 0: 2 and 3"});
    BOOST_TEST(last_line(bad) == "result: cannot be broadcast: axis 0 has extents 2 and 3");
    // Octave's nonconformant example: [1 2 3; 4 5 6] + [10 20; 30 40]
    BOOST_TEST(last_line(explained<octave>(shape<2>{2, 3}, shape<2>{2, 2})) ==
               "result: cannot be broadcast: axis 1 has extents 3 and 2");
}

BOOST_AUTO_TEST_CASE(zero_size_axes) {
    for (const auto& text : {explained<numpy>(shape<1>{0}, shape<1>{1}), explained<octave>(shape<1>{0}, shape<1>{1}),
                             explained<xla>(shape<1>{0}, shape<1>{1})}) {
        expect_parts(text, {"axis 0: 0 and 1 -> 0"});
        BOOST_TEST(last_line(text) == "result: (0,)");
    }
    BOOST_TEST(last_line(explained<numpy>(shape<1>{1}, shape<1>{0})) == "result: (0,)");
    BOOST_TEST(last_line(explained<numpy>(shape<1>{0}, shape<1>{0})) == "result: (0,)");
    for (const auto& text : {explained<numpy>(shape<1>{0}, shape<1>{3}), explained<octave>(shape<1>{0}, shape<1>{3}),
                             explained<xla>(shape<1>{0}, shape<1>{3})})
        BOOST_TEST(last_line(text) == "result: cannot be broadcast: axis 0 has extents 0 and 3");
    BOOST_TEST(last_line(explained<numpy>(shape<2>{0, 3}, shape<1>{3})) == "result: (0,3)");
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================== broadcast_shapes
BOOST_AUTO_TEST_SUITE(shapes)

BOOST_AUTO_TEST_CASE(numpy_rules) {
    BOOST_TEST(fmt(bsx::broadcast_shapes<numpy>(shape<1>{5}, shape<2>{5, 1})) == "(5,5)");
    BOOST_TEST(fmt(bsx::broadcast_shapes(shape<1>{5}, shape<2>{5, 1})) == "(5,5)");  // the default
    BOOST_TEST(fmt(bsx::broadcast_shapes<numpy>(shape<2>{2, 3}, shape<1>{3})) == "(2,3)");
    BOOST_TEST(fmt(bsx::broadcast_shapes<numpy>(shape<2>{4, 1}, shape<1>{3})) == "(4,3)");
    BOOST_TEST(fmt(bsx::broadcast_shapes<numpy>(shape<2>{3, 1}, shape<2>{1, 3})) == "(3,3)");
    BOOST_TEST(fmt(bsx::broadcast_shapes<numpy>(shape<0>{}, shape<2>{2, 3})) == "(2,3)");
    BOOST_TEST(fmt(bsx::broadcast_shapes<numpy>(shape<0>{}, shape<0>{})) == "()");
    BOOST_TEST(fmt(bsx::broadcast_shapes<numpy>(shape<1>{0}, shape<1>{1})) == "(0,)");
    BOOST_TEST(fmt(bsx::broadcast_shapes<numpy>(shape<3>{1, 2, 5}, shape<3>{7, 2, 5})) == "(7,2,5)");
    BOOST_CHECK_EXCEPTION((void)bsx::broadcast_shapes<numpy>(shape<2>{2, 3}, shape<2>{2, 2}), bsx::broadcast_error,
                          what_is("bsx: broadcast_shapes: shapes (2,3) and (2,2) cannot be broadcast under numpy "
                                  "rules: axis 1 has extents 3 and 2"));
    BOOST_CHECK_EXCEPTION((void)bsx::broadcast_shapes<numpy>(shape<1>{3}, shape<2>{3, 4}), bsx::broadcast_error,
                          what_is("bsx: broadcast_shapes: shapes (3,) and (3,4) cannot be broadcast under numpy "
                                  "rules: axis 1 has extents 3 and 4"));
    BOOST_CHECK_EXCEPTION((void)bsx::broadcast_shapes<numpy>(shape<1>{0}, shape<1>{3}), bsx::broadcast_error,
                          what_is("bsx: broadcast_shapes: shapes (0,) and (3,) cannot be broadcast under numpy "
                                  "rules: axis 0 has extents 0 and 3"));
    // numbered in the result; the first offending axis from the left
    expect_error(
        [] {
            (void)bsx::broadcast_shapes<numpy>(shape<3>{2, 3, 4}, shape<2>{5, 4});
        },
        {"(2,3,4) and (5,4)", "axis 1 has extents 3 and 5"});
    expect_error(
        [] {
            (void)bsx::broadcast_shapes<numpy>(shape<2>{2, 3}, shape<2>{4, 5});
        },
        {"axis 0 has extents 2 and 4"});
}

BOOST_AUTO_TEST_CASE(octave_rules) {
    BOOST_TEST(fmt(bsx::broadcast_shapes<octave>(shape<1>{5}, shape<2>{5, 1})) == "(5,1)");
    BOOST_TEST(fmt(bsx::broadcast_shapes<octave>(shape<1>{3}, shape<2>{3, 4})) == "(3,4)");
    BOOST_TEST(fmt(bsx::broadcast_shapes<octave>(shape<2>{3, 4}, shape<1>{3})) == "(3,4)");
    BOOST_TEST(fmt(bsx::broadcast_shapes<octave>(shape<1>{3}, shape<2>{1, 3})) == "(3,3)");
    BOOST_TEST(fmt(bsx::broadcast_shapes<octave>(shape<2>{3, 3}, shape<2>{1, 3})) == "(3,3)");
    BOOST_TEST(fmt(bsx::broadcast_shapes<octave>(shape<3>{2, 3, 4}, shape<2>{1, 3})) == "(2,3,4)");
    BOOST_TEST(fmt(bsx::broadcast_shapes<octave>(shape<0>{}, shape<2>{2, 3})) == "(2,3)");
    BOOST_TEST(fmt(bsx::broadcast_shapes<octave>(shape<1>{0}, shape<2>{1, 4})) == "(0,4)");
    BOOST_CHECK_EXCEPTION((void)bsx::broadcast_shapes<octave>(shape<2>{2, 3}, shape<1>{3}), bsx::broadcast_error,
                          what_is("bsx: broadcast_shapes: shapes (2,3) and (3,) cannot be broadcast under octave "
                                  "rules: axis 0 has extents 2 and 3"));
    BOOST_CHECK_EXCEPTION((void)bsx::broadcast_shapes<octave>(shape<2>{2, 3}, shape<2>{2, 2}), bsx::broadcast_error,
                          what_is("bsx: broadcast_shapes: shapes (2,3) and (2,2) cannot be broadcast under octave "
                                  "rules: axis 1 has extents 3 and 2"));
    // (2,3,4) with (2,5) -> (2,5,1): axis 1
    expect_error(
        [] {
            (void)bsx::broadcast_shapes<octave>(shape<3>{2, 3, 4}, shape<2>{2, 5});
        },
        {"under octave rules", "axis 1 has extents 3 and 5"});
}

BOOST_AUTO_TEST_CASE(xla_rules) {
    BOOST_TEST(fmt(bsx::broadcast_shapes<xla>(shape<2>{2, 1}, shape<2>{2, 3})) == "(2,3)");
    BOOST_TEST(fmt(bsx::broadcast_shapes<xla>(shape<3>{1, 2, 5}, shape<3>{7, 2, 5})) == "(7,2,5)");
    BOOST_TEST(fmt(bsx::broadcast_shapes<xla>(shape<3>{7, 2, 5}, shape<3>{7, 1, 5})) == "(7,2,5)");
    BOOST_TEST(fmt(bsx::broadcast_shapes<xla>(shape<2>{2, 1}, shape<2>{1, 3})) == "(2,3)");
    BOOST_TEST(fmt(bsx::broadcast_shapes<xla>(shape<0>{}, shape<2>{2, 3})) == "(2,3)");
    BOOST_TEST(fmt(bsx::broadcast_shapes<xla>(shape<2>{2, 3}, shape<0>{})) == "(2,3)");
    BOOST_TEST(fmt(bsx::broadcast_shapes<xla>(shape<1>{1}, shape<1>{0})) == "(0,)");
    BOOST_CHECK_EXCEPTION((void)bsx::broadcast_shapes<xla>(shape<3>{7, 2, 5}, shape<3>{7, 2, 6}), bsx::broadcast_error,
                          what_is("bsx: broadcast_shapes: shapes (7,2,5) and (7,2,6) cannot be broadcast under xla "
                                  "rules: axis 2 has extents 5 and 6"));
    BOOST_CHECK_EXCEPTION((void)bsx::broadcast_shapes<xla>(shape<2>{2, 3}, shape<2>{2, 2}), bsx::broadcast_error,
                          what_is("bsx: broadcast_shapes: shapes (2,3) and (2,2) cannot be broadcast under xla "
                                  "rules: axis 1 has extents 3 and 2"));
}

// The node's own name: operators, functions, the XLA names.
BOOST_AUTO_TEST_CASE(errors_name_the_operation) {
    const M2 a{{1, 2, 3}, {4, 5, 6}};
    const M2 b{{10, 20}, {30, 40}};
    const V1 v{7, 8, 9};
    BOOST_CHECK_EXCEPTION((void)(a + b), bsx::broadcast_error,
                          what_is("bsx: operator+: shapes (2,3) and (2,2) cannot be broadcast under numpy rules: "
                                  "axis 1 has extents 3 and 2"));
    BOOST_CHECK_EXCEPTION((void)bsx::atan2(a, b), bsx::broadcast_error,
                          what_is("bsx: atan2: shapes (2,3) and (2,2) cannot be broadcast under numpy rules: "
                                  "axis 1 has extents 3 and 2"));
    BOOST_CHECK_EXCEPTION((void)bsx::add(a, b), bsx::broadcast_error,
                          what_is("bsx: add: shapes (2,3) and (2,2) cannot be broadcast under numpy rules: "
                                  "axis 1 has extents 3 and 2"));
    BOOST_CHECK_EXCEPTION((void)(bsx::with_rules<octave>(a) - b), bsx::broadcast_error,
                          what_is("bsx: operator-: shapes (2,3) and (2,2) cannot be broadcast under octave rules: "
                                  "axis 1 has extents 3 and 2"));
    BOOST_CHECK_EXCEPTION((void)(a * bsx::with_rules<xla>(b)), bsx::broadcast_error,
                          what_is("bsx: operator*: shapes (2,3) and (2,2) cannot be broadcast under xla rules: "
                                  "axis 1 has extents 3 and 2"));
    // Octave: (2,3) + (3,) fails on axis 0 (the (3,) is a column there)
    BOOST_CHECK_EXCEPTION((void)(bsx::with_rules<octave>(a) + v), bsx::broadcast_error,
                          what_is("bsx: operator+: shapes (2,3) and (3,) cannot be broadcast under octave rules: "
                                  "axis 0 has extents 2 and 3"));
    // and (3,) + (3,4) fails under numpy
    const auto m34 = grid(3, 4);
    BOOST_CHECK_EXCEPTION((void)(v + m34), bsx::broadcast_error,
                          what_is("bsx: operator+: shapes (3,) and (3,4) cannot be broadcast under numpy rules: "
                                  "axis 1 has extents 3 and 4"));
    BOOST_CHECK_NO_THROW((void)(bsx::with_rules<octave>(v) + m34));
    // XLA: (7,2,5) vs (7,2,6)
    const auto p = bsx::zeros<double>(7, 2, 5);
    const auto q = bsx::zeros<double>(7, 2, 6);
    BOOST_CHECK_EXCEPTION((void)bsx::max(bsx::with_rules<xla>(p), q), bsx::broadcast_error,
                          what_is("bsx: max: shapes (7,2,5) and (7,2,6) cannot be broadcast under xla rules: "
                                  "axis 2 has extents 5 and 6"));
    // the XLA form: the placed operand meets the other one; a (2,) vector at dims {1} of (2,3)
    const V1 w{1, 2};
    expect_error([&] { (void)bsx::add(a, w, {1}); }, {"bsx: add: ", "(2,3)", "axis 1 has extents 3 and 2"});
    expect_error([&] { (void)bsx::hypot(w, a, {1}); }, {"bsx: hypot: ", "(2,3)", "axis 1 has extents 2 and 3"});
    // zero-size under an operator
    expect_error([] { (void)(bsx::zeros<double>(0) + bsx::zeros<double>(3)); },
                 {"bsx: operator+: shapes (0,) and (3,)", "axis 0 has extents 0 and 3"});
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================== invalid dims
BOOST_AUTO_TEST_SUITE(invalid_dims)

BOOST_AUTO_TEST_CASE(in_dims_errors) {
    const M2 m{{1, 2, 3}, {4, 5, 6}};
    BOOST_CHECK_EXCEPTION((void)bsx::in_dims<3>(m, {2, 0}), bsx::broadcast_error,
                          what_is("bsx: in_dims: broadcast dimensions {2, 0} for an operand of shape (2,3) at rank 3 "
                                  "are invalid under xla rules: dims[1] = 0 does not exceed dims[0] = 2: dimensions "
                                  "must be strictly increasing"));
    // wrong count: too few, too many
    expect_error([&] { (void)bsx::in_dims<3>(m, {0}); },
                 {"bsx: in_dims:", "{0}", "(2,3)", "one dimension per operand axis", "(2), not 1"});
    expect_error([&] { (void)bsx::in_dims<3>(m, {0, 1, 2}); }, {"bsx: in_dims:", "one dimension per operand axis"});
    // not strictly increasing: swapped, duplicate
    expect_error([&] { (void)bsx::in_dims<3>(m, {1, 0}); }, {"bsx: in_dims:", "{1, 0}", "strictly increasing"});
    expect_error(
        [&] {
            (void)bsx::in_dims<3>(m, {1, 1});
        },
        {"bsx: in_dims:", "{1, 1}", "dims[1] = 1", "strictly increasing"});
    // out of range: >= rank, negative
    expect_error([&] { (void)bsx::in_dims<3>(m, {0, 3}); }, {"bsx: in_dims:", "dims[1] = 3", "out of range", "[0, 3)"});
    expect_error([&] { (void)bsx::in_dims<3>(m, {-1, 1}); }, {"bsx: in_dims:", "dims[0] = -1", "out of range"});
    // dims as std::array and as a run-time span
    expect_error(
        [&] {
            (void)bsx::in_dims<3>(m, std::array<index_t, 2>{2, 2});
        },
        {"bsx: in_dims:", "strictly increasing"});
    expect_error([&] { (void)bsx::in_dims<3>(m, std::array<index_t, 2>{0, 5}); }, {"bsx: in_dims:", "out of range"});
    const std::vector<index_t> runtime{0};
    expect_error([&] { (void)bsx::in_dims<2>(m, std::span<const index_t>(runtime)); },
                 {"bsx: in_dims:", "one dimension per operand axis"});
    // a lazy operand and a vector
    const V1 v{7, 8, 9};
    expect_error([&] { (void)bsx::in_dims<2>(v * 2.0, {2}); }, {"bsx: in_dims:", "(3,)", "out of range"});
    expect_error([&] { (void)bsx::in_dims<2>(v, {}); }, {"bsx: in_dims:", "one dimension per operand axis (1), not 0"});
}

BOOST_AUTO_TEST_CASE(broadcast_in_dim_errors) {
    const M2 m{{1, 2, 3}, {4, 5, 6}};
    const shape<3> s{2, 3, 4};
    expect_error([&] { (void)bsx::broadcast_in_dim(m, s, {0}); },
                 {"bsx: broadcast_in_dim:", "one dimension per operand axis"});
    expect_error(
        [&] {
            (void)bsx::broadcast_in_dim(m, s, {0, 1, 2});
        },
        {"bsx: broadcast_in_dim:", "one dimension per operand axis"});
    expect_error([&] { (void)bsx::broadcast_in_dim(m, s, {1, 0}); }, {"bsx: broadcast_in_dim:", "strictly increasing"});
    expect_error([&] { (void)bsx::broadcast_in_dim(m, s, {0, 0}); }, {"bsx: broadcast_in_dim:", "strictly increasing"});
    expect_error([&] { (void)bsx::broadcast_in_dim(m, s, {1, 3}); }, {"bsx: broadcast_in_dim:", "out of range"});
    expect_error([&] { (void)bsx::broadcast_in_dim(m, s, {-2, 1}); }, {"bsx: broadcast_in_dim:", "out of range"});
    expect_error(
        [&] {
            (void)bsx::broadcast_in_dim(m, s, std::array<index_t, 2>{2, 1});
        },
        {"bsx: broadcast_in_dim:", "strictly increasing"});
    // valid dims, but the placed operand does not broadcast to the shape
    expect_error(
        [&] {
            (void)bsx::broadcast_in_dim(m, s, {1, 2});
        },  // (1,2,3) to (2,3,4)
        {"bsx: broadcast_in_dim:", "(2,3,4)", "under xla rules", "axis 1"});
    const V1 v{7, 8, 9};
    expect_error(
        [&] {
            (void)bsx::broadcast_in_dim(v, shape<2>{2, 4}, {1});
        },
        {"bsx: broadcast_in_dim:", "(2,4)", "axis 1", "3"});
    expect_error(
        [&] {
            (void)bsx::broadcast_in_dim(v * 1.0, shape<2>{2, 3}, {0});
        },  // (3,1) to (2,3)
        {"bsx: broadcast_in_dim:", "(2,3)", "axis 0"});
}

BOOST_AUTO_TEST_CASE(xla_form_errors) {
    const M2 m{{1, 2, 3}, {4, 5, 6}};
    const V1 v{7, 8, 9};
    const auto box = grid3(2, 3, 4);
    const auto mat = grid(3, 4);
    // wrong count
    expect_error([&] { (void)bsx::add(m, v, {0, 1}); }, {"bsx: add:", "one dimension per operand axis (1), not 2"});
    expect_error([&] { (void)bsx::add(m, v, {}); }, {"bsx: add:", "one dimension per operand axis"});
    expect_error([&] { (void)bsx::add(box, mat, {1}); }, {"bsx: add:", "(3,4)", "one dimension per operand axis"});
    // swapped, duplicate
    expect_error([&] { (void)bsx::add(box, mat, {2, 1}); }, {"bsx: add:", "{2, 1}", "strictly increasing"});
    expect_error([&] { (void)bsx::add(box, mat, {1, 1}); }, {"bsx: add:", "{1, 1}", "strictly increasing"});
    // >= rank, negative
    expect_error([&] { (void)bsx::add(m, v, {2}); }, {"bsx: add:", "dims[0] = 2", "out of range", "[0, 2)"});
    expect_error([&] { (void)bsx::add(m, v, {-1}); }, {"bsx: add:", "dims[0] = -1", "out of range"});
    expect_error([&] { (void)bsx::add(box, mat, {1, 3}); }, {"bsx: add:", "out of range"});
    // the lower-rank operand on the left; std::array dims; other XLA-form functions
    expect_error([&] { (void)bsx::add(v, m, {5}); }, {"bsx: add:", "(3,)", "out of range"});
    expect_error([&] { (void)bsx::add(m, v, std::array<index_t, 1>{-3}); }, {"bsx: add:", "out of range"});
    expect_error(
        [&] {
            (void)bsx::subtract(box, mat, std::array<index_t, 2>{2, 0});
        },
        {"bsx: subtract:", "strictly increasing"});
    expect_error([&] { (void)bsx::min(m, v, {3}); }, {"bsx: min:", "out of range"});
    expect_error([&] { (void)bsx::atan2(box, mat, {0, 0}); }, {"bsx: atan2:", "strictly increasing"});
    expect_error(
        [&] {
            (void)bsx::multiply(bsx::with_rules<xla>(m), v, {0, 0});
        },
        {"bsx: multiply:", "one dimension per operand axis"});
    // valid dims, then the shapes themselves do not fit: (3,) at dims {0} of (2,3)
    expect_error([&] { (void)bsx::add(m, v, {0}); }, {"bsx: add:", "axis 0 has extents 2 and 3"});
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================== XLA examples with values
BOOST_AUTO_TEST_SUITE(xla_values)

BOOST_AUTO_TEST_CASE(scalar_and_rank0) {
    const M2 m{{1, 2, 3}, {4, 5, 6}};
    // |1 2 3; 4 5 6| + 7 = |8 9 10; 11 12 13|
    expect_values(bsx::with_rules<xla>(m) + 7.0, "(2,3)", {8, 9, 10, 11, 12, 13});
    const S0 seven(7.0);
    expect_values(bsx::with_rules<xla>(m) + seven, "(2,3)", {8, 9, 10, 11, 12, 13});
    // degenerate dimensions, equal ranks: (2,1) and (2,3)
    const M2 c{{100}, {200}};
    expect_values(bsx::with_rules<xla>(c) + m, "(2,3)", {101, 102, 103, 204, 205, 206});
}

BOOST_AUTO_TEST_CASE(matrix_plus_vector) {
    const M2 m{{1, 2, 3}, {4, 5, 6}};
    const V1 v{7, 8, 9};
    // |1 2 3; 4 5 6| + |7 8 9| with dims (1) = |8 10 12; 11 13 15|
    const std::vector<double> doc{8, 10, 12, 11, 13, 15};
    expect_values(bsx::add(m, v, {1}), "(2,3)", doc);
    expect_values(bsx::add(m, v, std::array<index_t, 1>{1}), "(2,3)", doc);
    expect_values(bsx::with_rules<xla>(m) + bsx::in_dims<2>(v, {1}), "(2,3)", doc);
    expect_values(bsx::with_rules<xla>(m) + bsx::in_dims<2>(v, std::array<index_t, 1>{1}), "(2,3)", doc);
    // 3x3 plus [7 8 9]: dims (1) repeats the vector as every row, dims (0) as every column
    const auto z = bsx::zeros<double>(3, 3);
    expect_values(bsx::add(z, v, {1}), "(3,3)", {7, 8, 9, 7, 8, 9, 7, 8, 9});
    expect_values(bsx::add(z, v, {0}), "(3,3)", {7, 7, 7, 8, 8, 8, 9, 9, 9});
    const auto g = grid(3, 3);
    expect_values(bsx::add(g, v, {1}), "(3,3)", table2(3, 3, [&](index_t i, index_t j) { return g(i, j) + v(j); }));
    expect_values(bsx::add(g, v, {0}), "(3,3)", table2(3, 3, [&](index_t i, index_t j) { return g(i, j) + v(i); }));
    // the in_dims views themselves
    const auto row = bsx::in_dims<2>(v, {1});
    const auto col = bsx::in_dims<2>(v, {0});
    BOOST_TEST(fmt(row.shape()) == "(1,3)");
    BOOST_TEST(fmt(col.shape()) == "(3,1)");
    BOOST_TEST(row.data() == v.data());  // a view, no copy
    BOOST_TEST(col(2, 0) == 9.0);
    BOOST_TEST(row(0, 1) == 8.0);
}

// XLA "Broadcast composition": |1 2 3 4| with dims (0) plus [5 6] (a 1x2 matrix).
BOOST_AUTO_TEST_CASE(vector_dims0_plus_1x2) {
    const V1 v{1, 2, 3, 4};
    const M2 r{{5, 6}};
    expect_values(bsx::add(v, r, {0}), "(4,2)", {6, 7, 7, 8, 8, 9, 9, 10});
    expect_values(bsx::add(v, r, std::array<index_t, 1>{0}), "(4,2)", {6, 7, 7, 8, 8, 9, 9, 10});
}

// A 1x2 matrix with dims (1,2) plus a 4x3x1 array gives 4x3x2.
BOOST_AUTO_TEST_CASE(matrix_1x2_dims12_plus_4x3x1) {
    const M2 r{{5, 6}};
    const auto b = grid3(4, 3, 1);
    const auto want = table3(4, 3, 2, [&](index_t i, index_t j, index_t k) { return b(i, j, 0) + r(0, k); });
    expect_values(bsx::add(r, b, {1, 2}), "(4,3,2)", want);
    // the intermediate Mx1x2 of the document: in_dims gives (1,1,2)
    BOOST_TEST(fmt(bsx::in_dims<3>(r, {1, 2}).shape()) == "(1,1,2)");
    // and broadcast_in_dim to (4,3,2) alone
    expect_values(bsx::broadcast_in_dim(r, shape<3>{4, 3, 2}, {1, 2}), "(4,3,2)",
                  table3(4, 3, 2, [&](index_t, index_t, index_t k) { return r(0, k); }));
}

// A 2x3x4 box plus a 3x4 matrix with dims (1,2); other placements of other matrices.
BOOST_AUTO_TEST_CASE(box_plus_matrix) {
    const auto box = grid3(2, 3, 4);
    const auto m34 = grid(3, 4, 1000.0);
    expect_values(bsx::add(box, m34, {1, 2}), "(2,3,4)",
                  table3(2, 3, 4, [&](index_t i, index_t j, index_t k) { return box(i, j, k) + m34(j, k); }));
    const auto m24 = grid(2, 4, 1000.0);
    expect_values(bsx::add(box, m24, {0, 2}), "(2,3,4)",
                  table3(2, 3, 4, [&](index_t i, index_t j, index_t k) { return box(i, j, k) + m24(i, k); }));
    const auto m23 = grid(2, 3, 1000.0);
    expect_values(bsx::add(box, m23, std::array<index_t, 2>{0, 1}), "(2,3,4)",
                  table3(2, 3, 4, [&](index_t i, index_t j, index_t k) { return box(i, j, k) + m23(i, j); }));
    // in_dims of a lazy expression (a placed node, not a view)
    const auto e = bsx::in_dims<3>(m23 * 2.0, {0, 1});
    BOOST_TEST(fmt(e.shape()) == "(2,3,1)");
    BOOST_TEST(e(1, 2, 0) == 2.0 * m23(1, 2));
    expect_values(box + bsx::in_dims<3>(m23 * 2.0, {0, 1}), "(2,3,4)",
                  table3(2, 3, 4, [&](index_t i, index_t j, index_t k) { return box(i, j, k) + 2.0 * m23(i, j); }));
}

// in_dims of a temporary: held by value, safe to evaluate later.
BOOST_AUTO_TEST_CASE(in_dims_of_temporary) {
    auto col = bsx::in_dims<2>(V1{1, 2, 3}, {0});
    BOOST_TEST(fmt(col.shape()) == "(3,1)");
    const M2 y{{10, 20, 30}};
    auto sum = y + bsx::in_dims<2>(V1{1, 2, 3}, {0});
    expect_values(col, "(3,1)", {1, 2, 3});
    expect_values(sum, "(3,3)", {11, 21, 31, 12, 22, 32, 13, 23, 33});
}

BOOST_AUTO_TEST_CASE(broadcast_in_dim_values) {
    const V1 v{7, 8, 9};
    expect_values(bsx::broadcast_in_dim(v, shape<2>{2, 3}, {1}), "(2,3)", {7, 8, 9, 7, 8, 9});
    expect_values(bsx::broadcast_in_dim(v, shape<2>{3, 2}, {0}), "(3,2)", {7, 7, 8, 8, 9, 9});
    expect_values(bsx::broadcast_in_dim(v, shape<2>{3, 3}, std::array<index_t, 1>{0}), "(3,3)",
                  {7, 7, 7, 8, 8, 8, 9, 9, 9});
    const auto b = bsx::broadcast_in_dim(v, shape<2>{4, 3}, {1});
    BOOST_TEST(fmt(b.shape()) == "(4,3)");
    BOOST_TEST(b(3, 2) == 9.0);
    // a lazy operand; an extent-1 axis of the operand stretches too
    expect_values(bsx::broadcast_in_dim(v * 10.0, shape<2>{3, 2}, {0}), "(3,2)", {70, 70, 80, 80, 90, 90});
    const M2 c{{1}, {2}};  // (2,1) on axes 0 and 2 of (2,3,2)
    expect_values(bsx::broadcast_in_dim(c, shape<3>{2, 3, 2}, {0, 2}), "(2,3,2)",
                  table3(2, 3, 2, [&](index_t i, index_t, index_t) { return c(i, 0); }));
}

// Writing through an in_dims view changes the array.
BOOST_AUTO_TEST_CASE(in_dims_view_is_assignable) {
    auto a = grid(2, 3);
    auto v = bsx::in_dims<3>(a, {0, 2});
    BOOST_TEST(fmt(v.shape()) == "(2,1,3)");
    BOOST_TEST(v.data() == a.data());
    bsx::in_dims<3>(a, {0, 2}) = bsx::array<double, 3>{{{1, 2, 3}}, {{4, 5, 6}}};
    BOOST_TEST(contents(a) == (std::vector<double>{1, 2, 3, 4, 5, 6}), boost::test_tools::per_element());
    bsx::in_dims<3>(a, {0, 2}) += V1{10, 20, 30};  // (3,) -> (1,1,3)
    BOOST_TEST(contents(a) == (std::vector<double>{11, 22, 33, 14, 25, 36}), boost::test_tools::per_element());
    v = 0.5;
    BOOST_TEST(contents(a) == (std::vector<double>(6, 0.5)), boost::test_tools::per_element());
    v(1, 0, 2) = 9.0;
    BOOST_TEST(a(1, 2) == 9.0);
    // a failed assignment changes nothing; the view never resizes
    const auto before = contents(a);
    const bsx::array<double, 3> wrong{{{1, 2}}, {{3, 4}}};
    BOOST_CHECK_THROW(bsx::in_dims<3>(a, {0, 2}) = wrong, bsx::broadcast_error);
    BOOST_TEST(contents(a) == before, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()

// ================================================================== with_rules
BOOST_AUTO_TEST_SUITE(tags)

// A tag on a leaf deep in the tree governs the root.
BOOST_AUTO_TEST_CASE(tag_propagates_upward) {
    const auto a = grid(3, 4);
    const V1 v{100, 200, 300};
    const auto want = table2(3, 4, [&](index_t i, index_t j) { return 2.0 * a(i, j) + v(i); });
    const auto e = (bsx::with_rules<octave>(a) * 2.0) + v;  // v (3,) is a column under octave
    static_assert(std::is_same_v<bsx::rules_of_t<decltype(e)>, octave>);
    BOOST_TEST(fmt(e.shape()) == "(3,4)");
    expect_values(e, "(3,4)", want);
    const bsx::array<double, 2> r = e;
    BOOST_TEST(contents(r) == want, boost::test_tools::per_element());
    // the tagged leaf on the right, two levels down
    expect_values(v + bsx::abs(bsx::with_rules<octave>(a) * -2.0), "(3,4)", want);
    // the same without the tag is a numpy error: (3,) -> (1,3) against (3,4)
    BOOST_CHECK_THROW((void)((a * 2.0) + v), bsx::broadcast_error);
    // a function node takes the tag as well
    expect_values(bsx::min(bsx::with_rules<octave>(v), a), "(3,4)",
                  table2(3, 4, [&](index_t i, index_t j) { return std::min(v(i), a(i, j)); }));
}

// Octave manual examples under octave rules.
BOOST_AUTO_TEST_CASE(octave_manual_examples) {
    const M2 x{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
    const M2 y{{10, 20, 30}};
    expect_values(bsx::with_rules<octave>(x) + y, "(3,3)", {11, 22, 33, 14, 25, 36, 17, 28, 39});
    // y - y' = [0 10 20; -10 0 10; -20 -10 0]
    const M2 yt{{10}, {20}, {30}};
    expect_values(bsx::with_rules<octave>(y) - yt, "(3,3)", {0, 10, 20, -10, 0, 10, -20, -10, 0});
    // x = [1;2;3] held as a (3,) vector: a column under octave rules, so x + y is 3x3
    const V1 c{1, 2, 3};
    expect_values(bsx::with_rules<octave>(c) + y, "(3,3)",
                  table2(3, 3, [&](index_t i, index_t j) { return c(i) + y(0, j); }));
    // ... and a row under numpy rules: (3,) + (1,3) is (1,3)
    expect_values(c + y, "(1,3)", {11, 22, 33});
    // the octave-only case (3,) + (3,4)
    const auto m = grid(3, 4);
    expect_values(bsx::with_rules<octave>(c) + m, "(3,4)",
                  table2(3, 4, [&](index_t i, index_t j) { return c(i) + m(i, j); }));
    // the nonconformant example
    const M2 p{{1, 2, 3}, {4, 5, 6}};
    const M2 q{{10, 20}, {30, 40}};
    BOOST_CHECK_THROW((void)(bsx::with_rules<octave>(p) + q), bsx::broadcast_error);
}

// img .*= w under octave alignment: a (3,) vector scales axis 0.
BOOST_AUTO_TEST_CASE(compound_assignment) {
    auto img = grid3(3, 2, 4);
    const auto orig = img;
    const V1 w{0.8, 0.9, 1.2};
    img *= bsx::with_rules<octave>(w);
    BOOST_TEST(contents(img) == table3(3, 2, 4, [&](index_t i, index_t j, index_t k) { return orig(i, j, k) * w(i); }),
               boost::test_tools::per_element());
    BOOST_TEST(fmt(img.shape()) == "(3,2,4)");
    // a failing one leaves the destination unchanged
    const auto before = contents(img);
    const V1 w2{2, 3};
    BOOST_CHECK_EXCEPTION(img *= bsx::with_rules<octave>(w2), bsx::broadcast_error,
                          what_is("bsx: operator*=: shape (2,) cannot be broadcast to the destination shape (3,2,4) "
                                  "under octave rules: axis 0 has extent 2 where the destination has 3"));
    BOOST_TEST(contents(img) == before, boost::test_tools::per_element());
    // untagged, the same w is numpy-aligned: (3,) against the last axis, 4
    expect_error([&] { img *= w; }, {"operator*=", "under numpy rules", "axis 2"});
    BOOST_TEST(contents(img) == before, boost::test_tools::per_element());
    // a matrix destination and a column-like vector
    auto m = grid(3, 4);
    const auto m0 = m;
    m += bsx::with_rules<octave>(w);
    BOOST_TEST(contents(m) == table2(3, 4, [&](index_t i, index_t j) { return m0(i, j) + w(i); }),
               boost::test_tools::per_element());
    // plain assignment into a view checks the tagged right-hand side under its own rules
    auto d = bsx::zeros<double>(3, 4);
    bsx::in_dims<2>(d, {0, 1}) = bsx::with_rules<octave>(w);  // the identity placement: all of d
    BOOST_TEST(contents(d) == table2(3, 4, [&](index_t i, index_t) { return w(i); }), boost::test_tools::per_element());
    // a (4,) vector is a column of 4 under octave rules: it does not fit (3,4)
    const auto mb = contents(m);
    expect_error([&] { m += bsx::with_rules<octave>(V1{1, 2, 3, 4}); }, {"operator+=", "under octave rules", "axis 0"});
    BOOST_TEST(contents(m) == mb, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(compile_time_table) {
    // the static_asserts at the top of this file, shown in the test log too
    BOOST_TEST(!(addable<tagged<xla, M2>, V1>));
    BOOST_TEST((addable<tagged<xla, M2>, double>));
    BOOST_TEST((addable<tagged<xla, M2>, S0>));
    BOOST_TEST(!(addable<tagged<octave, M2>, tagged<numpy, M2>>));
    BOOST_TEST((addable<tagged<octave, M2>, tagged<octave, M2>>));
    BOOST_TEST((addable<M2, tagged<octave, V1>>));
    BOOST_TEST(!(min_able<tagged<xla, M2>, V1>));
    BOOST_TEST((min_able<tagged<xla, M2>, double>));
    BOOST_TEST((min_able<tagged<xla, M2>, S0>));
    BOOST_TEST(!(min_able<tagged<octave, M2>, tagged<numpy, M2>>));
    BOOST_TEST((min_able<tagged<octave, M2>, tagged<octave, M2>>));
    BOOST_TEST((min_able<M2, tagged<octave, V1>>));
}

BOOST_AUTO_TEST_SUITE_END()
