// Views of lazy expressions (api.md section 2): transpose, permute, slice, reshape and
// broadcast_to of an expression stay lazy and give what the same view of the evaluated
// expression gives; assigning one into an operand it reads keeps value semantics;
// reductions over them agree with reductions over the evaluated view. The node protocol's
// members (extent, operator()) behave as an array's.
#define BOOST_TEST_MODULE bsx_lazy_views
#include <boost/test/unit_test.hpp>

#include "test_support.hpp"

#include <stdexcept>
#include <string>
#include <vector>

using bsx::index_t;
using test_support::evaluated;
using test_support::grid3;

namespace {

/// The lazy view and the same view of the evaluated expression: same shape, same values.
template <class L, class E>
void expect_same(const L& lazy, const E& eager) {
    static_assert(!bsx::strided_expression<L>, "the view of an expression must stay lazy");
    const auto l = evaluated(lazy), e = evaluated(eager);
    BOOST_TEST(l.shape == e.shape);
    BOOST_TEST(l.values == e.values, boost::test_tools::per_element());
}

/// m(i, j) = 10 i + j + 1.
bsx::array<double, 2> matrix(index_t m, index_t n) {
    bsx::array<double, 2> a(std::array<index_t, 2>{m, n});
    for (index_t i = 0; i < m; ++i)
        for (index_t j = 0; j < n; ++j) a(i, j) = 10.0 * double(i) + double(j) + 1.0;
    return a;
}

template <class F>
void expect_invalid(F&& f, const std::string& part) {
    try {
        f();
        BOOST_ERROR("no exception; expected one mentioning '" << part << "'");
    } catch (const std::invalid_argument& e) {
        BOOST_TEST(std::string(e.what()).find(part) != std::string::npos, e.what());
    }
}

}  // namespace

BOOST_AUTO_TEST_CASE(transpose_and_permute) {
    const auto g = grid3(2, 3, 4);
    const bsx::array<double, 1> w{1, 2, 3, 4};
    const auto p = bsx::permute(g * 2.0 + w, {2, 0, 1});
    const auto gw = bsx::eval(g * 2.0 + w);
    expect_same(p, bsx::permute(gw, {2, 0, 1}));
    BOOST_TEST(test_support::fmt(p.shape()) == "(4,2,3)");
    BOOST_TEST(p(3, 1, 2) == (100.0 + 20.0 + 3.0) * 2.0 + 4.0);  // element access, protocol operator()
    const auto m = matrix(3, 5);
    const bsx::array<double, 1> v{1, 2, 3, 4, 5};
    const auto mv = bsx::eval(m - v), root = bsx::eval(bsx::sqrt(m));
    expect_same(bsx::transpose(m - v), bsx::transpose(mv));
    expect_same(bsx::transpose(bsx::transpose(m * m)), bsx::eval(m * m));
    expect_same(bsx::transpose(bsx::sqrt(m)) + 1.0, bsx::transpose(root) + 1.0);
    BOOST_CHECK_THROW((void)bsx::permute(m + 1.0, {0, 0}), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(slice_with_steps_integers_and_newaxis) {
    const auto g = grid3(4, 5, 6);
    const auto e = g - 1.0;
    const auto x = bsx::eval(e);
    expect_same(bsx::slice(e, bsx::range(1, 4, 2), 2), bsx::slice(x, bsx::range(1, 4, 2), 2));
    expect_same(bsx::slice(e, bsx::range(-1, -5, -1), bsx::newaxis, bsx::all, bsx::range(5, 0, -2)),
                bsx::slice(x, bsx::range(-1, -5, -1), bsx::newaxis, bsx::all, bsx::range(5, 0, -2)));
    expect_same(bsx::slice(e, 3, 4, -1), bsx::slice(x, 3, 4, -1));                          // rank 0
    expect_same(bsx::slice(e, bsx::range(2, 2)), bsx::slice(x, bsx::range(2, 2)));          // empty
    expect_same(bsx::slice(e, bsx::range(2, 3)) + g, bsx::slice(x, bsx::range(2, 3)) + g);  // extent 1 broadcast
    const auto s = bsx::slice(e, 1, bsx::range(0, 5, 2), bsx::newaxis);
    BOOST_TEST(test_support::fmt(s.shape()) == "(3,1,6)");
    BOOST_TEST(s(2, 0, 3) == 100.0 + 40.0 + 3.0 - 1.0);
    BOOST_CHECK_THROW((void)bsx::slice(e, 4), std::out_of_range);
    BOOST_CHECK_THROW((void)bsx::slice(e, bsx::range(0, 2, 0)), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(reshape_splits_lazily_and_refuses_merges) {
    const auto m = matrix(4, 6);
    const auto e = m * 3.0 - 2.0;
    const auto x = bsx::eval(e);
    expect_same(bsx::reshape<3>(e, {4, 2, 3}), bsx::reshape<3>(x, {4, 2, 3}));
    expect_same(bsx::reshape<4>(e, {2, 2, -1, 1}), bsx::reshape<4>(x, {2, 2, -1, 1}));
    expect_same(bsx::reshape<3>(e, {1, 4, 6}), bsx::reshape<3>(x, {1, 4, 6}));
    expect_same(bsx::reshape<1>(bsx::slice(e, 2), {6}), bsx::reshape<1>(bsx::slice(x, 2), {6}));
    const auto r = bsx::reshape<3>(bsx::arange<double>(12) + 1.0, {2, 2, 3});
    BOOST_TEST(r(1, 0, 2) == 9.0);
    expect_invalid([&] { (void)bsx::reshape<1>(e, {24}); }, "bsx::eval");
    expect_invalid([&] { (void)bsx::reshape<2>(e, {6, 4}); }, "merged");
    expect_invalid([&] { (void)bsx::reshape<2>(e, {5, 5}); }, "24 elements cannot take 25");
}

BOOST_AUTO_TEST_CASE(broadcast_to) {
    const bsx::array<double, 2> c{{1}, {2}, {3}};
    const bsx::array<double, 1> v{10, 20};
    const auto b = bsx::broadcast_to(c * v, {4, 3, 2});
    const auto cv = bsx::eval(c * v);
    expect_same(b, bsx::broadcast_to(cv, {4, 3, 2}));
    BOOST_TEST(b(3, 2, 1) == 60.0);
    BOOST_CHECK_THROW((void)bsx::broadcast_to(c * v, {3, 3}), bsx::broadcast_error);
}

BOOST_AUTO_TEST_CASE(aliasing_destinations_keep_value_semantics) {
    test_support::for_thread_counts([] {
        for (index_t n : {5, 300}) {  // 300 x 300 runs in parallel
            BOOST_TEST_CONTEXT("n = " << n) {
                auto a = matrix(n, n);
                const auto before = bsx::eval(a);
                a = bsx::transpose(a + 1.0);
                expect_same(bsx::transpose(before + 1.0), a);
                BOOST_TEST(a(0, n - 1) == before(n - 1, 0) + 1.0);

                a = before;
                a += bsx::transpose(a * 2.0);
                BOOST_TEST(a(1, n - 2) == before(1, n - 2) + 2.0 * before(n - 2, 1));

                a = before;
                a = bsx::slice(a - 1.0, bsx::range(n - 1, -n - 1, -1), bsx::range(n - 1, -n - 1, -1));
                BOOST_TEST(a(0, 1) == before(n - 1, n - 2) - 1.0);
                BOOST_TEST(a(n - 1, 0) == before(0, n - 1) - 1.0);

                a = before;  // into a view: row 0 becomes column 0 plus 1
                bsx::slice(a, bsx::range(0, 1)) = bsx::transpose(bsx::slice(a + 1.0, bsx::all, bsx::range(0, 1)));
                for (index_t j = 0; j < n; ++j) BOOST_TEST(a(0, j) == before(j, 0) + 1.0);
                BOOST_TEST(a(1, 0) == before(1, 0));
            }
        }
    });
}

BOOST_AUTO_TEST_CASE(reductions_over_lazy_views) {
    const auto m = matrix(6, 8);
    const bsx::array<double, 1> v{1, 2, 3, 4, 5, 6, 7, 8};
    const auto x = bsx::eval(m * v);
    expect_same(bsx::sum(bsx::transpose(m * v), bsx::axis(0)), bsx::sum(bsx::transpose(x), bsx::axis(0)));
    expect_same(bsx::max(bsx::slice(m * v, bsx::range(0, 6, 2), bsx::range(7, 0, -3)), bsx::axis(1)),
                bsx::max(bsx::slice(x, bsx::range(0, 6, 2), bsx::range(7, 0, -3)), bsx::axis(1)));
    expect_same(bsx::mean(bsx::reshape<3>(m * v, {6, 2, 4}), bsx::axis(2), bsx::keepdims),
                bsx::mean(bsx::reshape<3>(x, {6, 2, 4}), bsx::axis(2), bsx::keepdims));
    BOOST_TEST(bsx::sum(bsx::permute(m * v, {1, 0})) == bsx::sum(x));
    // the reduction written straight into its destination reads the lazy view too
    bsx::array<double, 1> r(std::array<index_t, 1>{8});
    r = bsx::sum(bsx::transpose(m * v), bsx::axis(1));
    expect_same(bsx::sum(bsx::transpose(m * v), bsx::axis(1)), r);
    BOOST_TEST(r(7) == (1.0 + 11 + 21 + 31 + 41 + 51 + 6 * 7.0) * 8.0);
}

BOOST_AUTO_TEST_CASE(nodes_answer_extent_as_arrays_do) {
    const auto m = matrix(2, 3);
    const auto check = [](const auto& e, const std::vector<index_t>& extents) {
        for (std::size_t k = 0; k < extents.size(); ++k) BOOST_TEST(e.extent(k) == extents[k]);
        try {
            (void)e.extent(5);
            BOOST_ERROR("extent(5) did not throw");
        } catch (const std::out_of_range& x) {
            BOOST_TEST(std::string(x.what()).find("bsx: extent: axis 5 is out of range for rank") == 0, x.what());
        }
    };
    check(m, {2, 3});
    check(m + 1.0, {2, 3});
    check(bsx::transpose(m + 1.0), {3, 2});
    check(bsx::sum(m, bsx::axis(0)), {3});
    check(bsx::with_rules<bsx::octave_rules>(m), {2, 3});
    check(bsx::in_dims<3>(m + 1.0, {0, 2}), {2, 1, 3});
}
