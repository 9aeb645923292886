// Indexing by arrays (api.md section 10): take (lazy gather, flattened or along every axis,
// of arrays, views and lazy operands), x(mask) selection and masked assignment, put,
// compress, nonzero, argwhere and flatnonzero. Checked against plain loops written here;
// every error path checks the exception type, its message and that the destination is
// unchanged; aliasing (x = take(x, idx), x(mask) = x * 2) must give value semantics.
#define BOOST_TEST_MODULE bsx_gather
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include "test_support.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace test_support;
using bsx::index_t;

/// take along axis k of a row-major (p, q, r) array, by plain loops: NumPy's
/// np.take(x, idx, axis=k) for a 1-D idx (negative indices counted from the end).
std::vector<double> take_3d(const bsx::array<double, 3>& x, const std::vector<index_t>& idx, std::size_t k) {
    const auto s = x.shape();
    bsx::shape_t<3> out_shape = s;
    out_shape[k] = index_t(idx.size());
    std::vector<double> out;
    for (index_t i = 0; i < out_shape[0]; ++i)
        for (index_t j = 0; j < out_shape[1]; ++j)
            for (index_t l = 0; l < out_shape[2]; ++l) {
                index_t at[3] = {i, j, l};
                index_t v = idx[std::size_t(at[k])];
                at[k] = v < 0 ? v + s[k] : v;
                out.push_back(x(at[0], at[1], at[2]));
            }
    return out;
}

std::vector<double> values_of(const bsx::array<double, 3>& x) { return contents(x); }

}  // namespace

// ============================================================== take

BOOST_AUTO_TEST_CASE(take_flattened_has_the_shape_of_the_indices) {
    const auto x = grid3(2, 3, 4);  // flattened: element f is x.data()[f]
    const bsx::array<long, 2> idx{{0, -1, 5}, {23, -24, 12}};
    const bsx::array<double, 2> r = bsx::take(x, idx);
    std::vector<double> want;
    for (long v : idx) want.push_back(x.data()[v < 0 ? v + 24 : v]);
    expect_array(r, {2, 3}, want);
    // A 1-D operand, int indices, and one element read through the node itself.
    const bsx::array<double, 1> a{10, 20, 30};
    const bsx::array<int, 1> i{2, -3, 1, 1};
    expect_values(bsx::take(a, i), "(4,)", {30, 10, 20, 20});
    BOOST_TEST(bsx::take(a, i)(1) == 10.0);
    // A rank-0 index gives a rank-0 result.
    const bsx::array<int, 0> one(2);
    expect_values(bsx::take(a, one), "()", {30});
}

BOOST_AUTO_TEST_CASE(take_along_every_axis) {
    const auto x = grid3(3, 4, 5);
    const std::vector<index_t> idx{2, -1, 0, 0, -3};
    bsx::array<index_t, 1> i(bsx::shape_t<1>{index_t(idx.size())});
    std::copy(idx.begin(), idx.end(), i.data());
    for (int k : {0, 1, 2}) {
        BOOST_TEST_CONTEXT("axis " << k) {
            const bsx::array<double, 3> r = bsx::take(x, i, k);
            bsx::shape_t<3> s = x.shape();
            s[std::size_t(k)] = 5;
            expect_array(r, s, take_3d(x, idx, std::size_t(k)));
            // The same through bsx::axis, and a negative axis.
            const bsx::array<double, 3> r2 = bsx::take(x, i, bsx::axis(k - 3));
            expect_array(r2, s, take_3d(x, idx, std::size_t(k)));
        }
    }
}

BOOST_AUTO_TEST_CASE(take_with_indices_of_higher_rank) {
    // np.take(x, idx, axis=1) with idx of shape (2, 2): shape (3, 2, 2, 5).
    const auto x = grid3(3, 4, 5);
    const bsx::array<int, 2> idx{{1, -1}, {0, 2}};
    const bsx::array<double, 4> r = bsx::take(x, idx, 1);
    BOOST_TEST(fmt(r.shape()) == "(3,2,2,5)");
    std::vector<double> want;
    for (index_t i = 0; i < 3; ++i)
        for (index_t a = 0; a < 2; ++a)
            for (index_t b = 0; b < 2; ++b)
                for (index_t l = 0; l < 5; ++l) {
                    const int v = idx(a, b);
                    want.push_back(x(i, v < 0 ? v + 4 : v, l));
                }
    expect_same_values(contents(r), want);
}

BOOST_AUTO_TEST_CASE(take_fuses_with_lazy_operands_and_views) {
    const auto x = grid3(2, 3, 4);
    const bsx::array<int, 1> i{3, 0, -2};
    // A lazy operand and arithmetic around the gather.
    const bsx::array<double, 3> r = bsx::take(x * 2, i, 2) + 1;
    std::vector<double> want = take_3d(x, {3, 0, -2}, 2);
    for (double& v : want) v = v * 2 + 1;
    expect_array(r, {2, 3, 3}, want);
    // Lazy indices.
    const bsx::array<double, 3> r2 = bsx::take(x, i - 1, 2);
    expect_array(r2, {2, 3, 3}, take_3d(x, {2, -1, -3}, 2));
    // A view operand (transposed: not contiguous) along an axis and flattened.
    const auto t = bsx::permute(x, {2, 1, 0});  // shape (4, 3, 2)
    const bsx::array<double, 3> r3 = bsx::take(t, i, 0);
    const bsx::array<double, 3> tt = t;
    expect_array(r3, {3, 3, 2}, take_3d(tt, {3, 0, -2}, 0));
    const bsx::array<double, 1> r4 = bsx::take(t, i);
    expect_array(r4, {3}, std::vector<double>{tt.data()[3], tt.data()[0], tt.data()[22]});
    // A view of indices (every other one) and a gather broadcast in a larger expression.
    const bsx::array<int, 1> many{1, 9, 2, 9, 0, 9};
    const auto every_other = bsx::slice(many, bsx::range(0, 6, 2));
    const bsx::array<double, 1> a{10, 20, 30};
    const bsx::array<double, 2> col{{1}, {2}};
    expect_values(bsx::take(a, every_other) * col, "(2,3)", {20, 30, 10, 40, 60, 20});
    // Views of the lazy node: transposed, sliced with a step, reversed.
    const bsx::array<double, 2> m{{1, 2, 3}, {4, 5, 6}};
    const bsx::array<int, 1> j{2, 0, -1, 1};
    expect_values(bsx::transpose(bsx::take(m, j, 1)), "(4,2)", {3, 6, 1, 4, 3, 6, 2, 5});
    expect_values(bsx::slice(bsx::take(m, j, 1), bsx::all, bsx::range(1, 4, 2)), "(2,2)", {1, 2, 4, 5});
    expect_values(bsx::slice(bsx::take(m, j), bsx::range(-1, -5, -1)), "(4,)", {2, 6, 1, 3});
    // Into a strided destination (a column of a larger array).
    bsx::array<double, 2> dest = bsx::zeros<double>(3, 2);
    dest.col(1) = bsx::reshape(bsx::take(a, bsx::array<int, 1>{2, 1, 0}), bsx::shape_t<2>{3, 1});
    expect_array(dest, {3, 2}, std::vector<double>{0, 30, 0, 20, 0, 10});
}

BOOST_AUTO_TEST_CASE(take_of_empty_indices_and_empty_operands) {
    const auto x = grid3(2, 3, 4);
    const bsx::array<int, 1> none(bsx::shape_t<1>{0});
    const bsx::array<double, 3> r = bsx::take(x, none, 1);
    BOOST_TEST(fmt(r.shape()) == "(2,0,4)");
    const bsx::array<double, 1> r2 = bsx::take(x, none);
    BOOST_TEST(r2.size() == 0);
    // An empty operand with no indices is fine; with one, every index is out of range.
    const bsx::array<double, 1> empty(bsx::shape_t<1>{0});
    const bsx::array<double, 1> from_empty = bsx::take(empty, none);
    BOOST_TEST(from_empty.size() == 0);
    expect_throw<std::out_of_range>([&] { bsx::array<double, 1> e = bsx::take(empty, bsx::array<int, 1>{0}); },
                                    "index 0 is out of range for axis 0 of extent 0");
}

BOOST_AUTO_TEST_CASE(take_large_matches_loops_at_every_thread_count) {
    const index_t n = 300000;
    const auto v = random_values(std::size_t(n), 11);
    bsx::array<double, 1> x(bsx::shape_t<1>{n});
    std::copy(v.begin(), v.end(), x.data());
    bsx::array<std::int64_t, 1> idx(bsx::shape_t<1>{n});
    for (index_t k = 0; k < n; ++k) idx.data()[k] = (k * 7919) % n - (k % 3 == 0 ? n : 0);
    std::vector<double> want(static_cast<std::size_t>(n));
    for (index_t k = 0; k < n; ++k) {
        const auto i = idx.data()[k];
        want[std::size_t(k)] = v[std::size_t(i < 0 ? i + n : i)] * 2;
    }
    bsx::array<double, 1> r(bsx::shape_t<1>{n});
    for_thread_counts([&] {
        r = bsx::take(x, idx) * 2;
        expect_same_values(contents(r), want);
    });
}

BOOST_AUTO_TEST_CASE(take_along_an_axis_large_at_every_thread_count) {
    // Chunks and threads that start mid-row move the position leaf as well as the indices.
    const index_t m = 400, n = 900;
    const auto v = random_values(std::size_t(m * n), 12);
    bsx::array<double, 2> x(bsx::shape_t<2>{m, n});
    std::copy(v.begin(), v.end(), x.data());
    for (int k : {0, 1}) {
        const index_t extent = k == 0 ? m : n, count = 700;
        bsx::array<int, 1> idx(bsx::shape_t<1>{count});
        for (index_t t = 0; t < count; ++t) idx.data()[t] = int((t * 131) % extent - (t % 5 == 0 ? extent : 0));
        const index_t rows = k == 0 ? count : m, cols = k == 0 ? n : count;
        std::vector<double> want;
        for (index_t i = 0; i < rows; ++i)
            for (index_t j = 0; j < cols; ++j) {
                index_t at = idx.data()[k == 0 ? i : j];
                at += at < 0 ? extent : 0;
                want.push_back(k == 0 ? x(at, j) : x(i, at));
            }
        for_thread_counts([&] {
            BOOST_TEST_CONTEXT("axis " << k) {
                const bsx::array<double, 2> r = bsx::take(x, idx, k);
                expect_array(r, {rows, cols}, want);
                // Transposed destination: the loop runs in the destination's order.
                bsx::array<double, 2> t(bsx::shape_t<2>{cols, rows});
                bsx::transpose(t) = bsx::take(x, idx, k);
                const bsx::array<double, 2> back = bsx::transpose(t);
                expect_same_values(contents(back), want);
            }
        });
    }
}

BOOST_AUTO_TEST_CASE(take_inside_reductions) {
    // A reduction's traversals move the same leaves (four rows at a time along axis 0).
    const auto x = grid3(3, 40, 50);
    const bsx::array<int, 1> idx{49, -1, 0, 7, -20};
    const auto want = take_3d(x, {49, -1, 0, 7, -20}, 2);  // shape (3, 40, 5)
    double total = 0;
    std::vector<double> over_rows(3 * 5, 0.0);
    for (std::size_t f = 0; f < want.size(); ++f) {
        total += want[f];
        over_rows[f / 200 * 5 + f % 5] += want[f];
    }
    BOOST_TEST(double(bsx::sum(bsx::take(x, idx, 2))) == total);
    expect_values(bsx::sum(bsx::take(x, idx, 2), bsx::axis(1)), "(3,5)", over_rows);
}

BOOST_AUTO_TEST_CASE(take_is_alias_safe) {
    // x = take(x, idx, 0): rows permuted in place, same shape (no reallocation).
    auto x = grid3(3, 2, 2);
    const auto before = values_of(x);
    const double* data = x.data();
    x = bsx::take(x, bsx::array<int, 1>{2, 0, 1}, 0);
    BOOST_TEST(x.data() == data);
    expect_array(x, {3, 2, 2}, take_3d(make_array<3>(bsx::shape_t<3>{3, 2, 2}, before), {2, 0, 1}, 0));
    // Flattened, reversed, onto itself; and through a view of itself.
    bsx::array<double, 1> a{1, 2, 3, 4};
    a = bsx::take(a, bsx::array<int, 1>{-1, -2, -3, -4});
    expect_array(a, {4}, std::vector<double>{4, 3, 2, 1});
    auto tail = bsx::slice(a, bsx::range(1, 4));
    tail = bsx::take(a, bsx::array<int, 1>{0, 0, 1});
    expect_array(a, {4}, std::vector<double>{4, 4, 4, 3});
    // The indices are the destination: each is read before it is overwritten.
    bsx::array<int, 1> i{2, 0, 1};
    const bsx::array<int, 1> p{1, 2, 0};
    i = bsx::take(p, i);
    expect_array(i, {3}, std::vector<int>{0, 1, 2});
}

BOOST_AUTO_TEST_CASE(take_errors_name_the_index_and_write_nothing) {
    const auto x = grid3(2, 3, 4);
    bsx::array<double, 3> dest = bsx::zeros<double>(2, 2, 4);
    const auto check_unchanged = [&] {
        bool zero = true;
        for (double v : dest) zero = zero && v == 0;
        BOOST_TEST(zero, "the destination was written");
    };
    expect_throw<std::out_of_range>(
        [&] {
            dest = bsx::take(x, bsx::array<int, 1>{0, 3}, 1);
        },
        "bsx: take: index 3 is out of range for axis 1 of extent 3");
    check_unchanged();
    expect_throw<std::out_of_range>(
        [&] {
            dest = bsx::take(x, bsx::array<int, 1>{-4, 0}, 1);
        },
        "index -4 is out of range for axis 1 of extent 3");
    check_unchanged();
    // The first bad index is named, also for lazy and strided indices.
    expect_throw<std::out_of_range>(
        [&] {
            dest = bsx::take(x, bsx::array<int, 1>{1, 2} + 1, 1);
        },
        "index 3 is out of range");
    check_unchanged();
    const bsx::array<int, 1> many{0, 7, 1, 9};
    expect_throw<std::out_of_range>([&] { dest = bsx::take(x, bsx::slice(many, bsx::range(0, 4, 2)) + 2, 1); },
                                    "index 3 is out of range");
    check_unchanged();
    // Flattened: the extent is x's size.
    bsx::array<double, 1> flat_dest = bsx::zeros<double>(2);
    expect_throw<std::out_of_range>(
        [&] {
            flat_dest = bsx::take(x, bsx::array<long, 1>{5, 24});
        },
        "index 24 is out of range for axis 0 of extent 24");
    BOOST_TEST(flat_dest(0) == 0.0);
    // Unsigned indices too.
    expect_throw<std::out_of_range>(
        [&] {
            flat_dest = bsx::take(x, bsx::array<unsigned, 1>{5, 40});
        },
        "index 40 is out of range");
    // An axis out of range is refused when the node is built.
    expect_throw<std::out_of_range>([&] { (void)bsx::take(x, bsx::array<int, 1>{0}, 3); }, "axis 3 is out of range");
    // Reading one element of the node checks its index too.
    expect_throw<std::out_of_range>([&] { (void)bsx::take(x, bsx::array<int, 1>{99})(0); }, "index 99");
}

BOOST_AUTO_TEST_CASE(take_of_an_operand_resized_after_building_throws) {
    // The node keeps the shape it was built with: read with the operand's new strides it
    // would read out of range, so binding compares it with the shape the operands give now.
    bsx::array<double, 2> x = bsx::zeros<double>(4, 4);
    const bsx::array<int, 1> i{0, 1};
    const auto e = bsx::take(x, i, 1);
    x = bsx::zeros<double>(2, 2);
    bsx::array<double, 2> r = bsx::full(bsx::shape_t<2>{4, 2}, -1.0);
    expect_throw<std::logic_error>([&] { r = e; },
                                   "bsx: take: an operand was resized after the expression was built (the operands "
                                   "now give shape (2,2), not (4,2))");
    BOOST_TEST(bsx::array_equal(r, bsx::full(bsx::shape_t<2>{4, 2}, -1.0)));
    // The indices shrinking.
    const bsx::array<double, 2> y = bsx::zeros<double>(4, 4);
    bsx::array<int, 1> j{0, 1, 2};
    const auto f = bsx::take(y, j, 1);
    j = bsx::array<int, 1>{0};
    bsx::array<double, 2> s = bsx::full(bsx::shape_t<2>{4, 3}, -1.0);
    expect_throw<std::logic_error>([&] { s = f; }, "not (4,3)");
    BOOST_TEST(bsx::array_equal(s, bsx::full(bsx::shape_t<2>{4, 3}, -1.0)));
    // Flattened: the shape is the indices'.
    bsx::array<int, 1> k{0, 1, 2};
    const auto g = bsx::take(y, k);
    k = bsx::array<int, 1>{0, 1};
    bsx::array<double, 1> t = bsx::full(bsx::shape_t<1>{3}, -1.0);
    expect_throw<std::logic_error>([&] { t = g; }, "bsx: take: an operand was resized");
    BOOST_TEST(bsx::array_equal(t, bsx::full(bsx::shape_t<1>{3}, -1.0)));
}

// ============================================================== masks

BOOST_AUTO_TEST_CASE(mask_selects_in_row_major_order) {
    const auto x = grid3(2, 3, 4);
    const bsx::array<double, 1> s = x(x > 100.0 && x < 113.0);
    std::vector<double> want;
    for (double v : x)
        if (v > 100 && v < 113) want.push_back(v);
    expect_array(s, {index_t(want.size())}, want);
    // A mask that broadcasts (one per last-axis position), and a view (transposed).
    const bsx::array<bool, 1> last{true, false, false, true};
    const bsx::array<double, 1> s2 = x(last);
    want.clear();
    for (index_t f = 0; f < 24; ++f)
        if (f % 4 == 0 || f % 4 == 3) want.push_back(x.data()[f]);
    expect_array(s2, {12}, want);
    const auto t = bsx::permute(x, {2, 1, 0});
    const bsx::array<double, 1> s3 = t(t < 20.0);
    const bsx::array<double, 3> tt = t;
    want.clear();
    for (double v : tt)
        if (v < 20) want.push_back(v);
    expect_array(s3, {index_t(want.size())}, want);
    // An empty selection.
    const bsx::array<double, 1> none = x(x > 1000.0);
    BOOST_TEST(none.size() == 0);
}

BOOST_AUTO_TEST_CASE(masked_assignment_writes_only_where_true) {
    auto x = grid3(2, 3, 4);
    const auto before = values_of(x);
    // A lazy mask, an expression that broadcasts (one value per last-axis position).
    const bsx::array<double, 1> row{-1, -2, -3, -4};
    x(x > 110.0) = row;
    for (std::size_t f = 0; f < 24; ++f) {
        const double want = before[f] > 110 ? -1.0 - double(f % 4) : before[f];
        BOOST_TEST(x.data()[f] == want, "element " << f);
    }
    // A mask that broadcasts (one per row of the last two axes) and a scalar.
    auto y = grid3(2, 3, 4);
    const bsx::array<bool, 2> rows{{true}, {false}, {true}};  // shape (3, 1)
    y(rows) = 0;
    for (index_t i = 0; i < 2; ++i)
        for (index_t j = 0; j < 3; ++j)
            for (index_t k = 0; k < 4; ++k) BOOST_TEST(y(i, j, k) == (j == 1 ? 100.0 * i + 10.0 * j + k : 0.0));
    // Into a view: only the viewed elements can change.
    bsx::array<double, 2> m = bsx::zeros<double>(3, 3);
    auto diag_block = bsx::slice(m, bsx::range(1, 3), bsx::range(1, 3));
    diag_block(bsx::array<bool, 2>{{true, false}, {false, true}}) = 5;
    expect_array(m, {3, 3}, std::vector<double>{0, 0, 0, 0, 5, 0, 0, 0, 5});
    // Integers of more than 53 bits keep every bit where the mask is false.
    bsx::array<std::int64_t, 1> big{(std::int64_t(1) << 60) + 1, 3};
    big(big < 10) = 2.5;
    BOOST_TEST(big(0) == (std::int64_t(1) << 60) + 1);
    BOOST_TEST(big(1) == 2);
}

BOOST_AUTO_TEST_CASE(masked_assignment_is_alias_safe) {
    auto x = grid3(2, 3, 4);
    const auto before = values_of(x);
    x(x > 110.0) = x * 2;
    for (std::size_t f = 0; f < 24; ++f) BOOST_TEST(x.data()[f] == (before[f] > 110 ? 2 * before[f] : before[f]));
    // An expression that reads other elements of x (its transpose along the last two
    // axes): it reads the old values.
    bsx::array<double, 2> a{{1, 2}, {3, 4}};
    a(a > 1.0) = bsx::permute(a, {1, 0}) * 10;
    expect_array(a, {2, 2}, std::vector<double>{1, 30, 20, 40});
    // A mask computed from x itself, shifted: it is read before anything is written.
    bsx::array<double, 1> v{1, -1, 1, -1};
    v(bsx::slice(v, bsx::range(0, 4)) > 0.0) = -v;
    expect_array(v, {4}, std::vector<double>{-1, -1, -1, -1});
}

BOOST_AUTO_TEST_CASE(masked_assignment_large_at_every_thread_count) {
    const index_t n = 700;
    const auto v = random_values(std::size_t(n * n), 21);
    const auto w = random_values(std::size_t(n * n), 22);
    bsx::array<double, 2> b(bsx::shape_t<2>{n, n});
    std::copy(w.begin(), w.end(), b.data());
    for_thread_counts([&] {
        bsx::array<double, 2> x(bsx::shape_t<2>{n, n});
        std::copy(v.begin(), v.end(), x.data());
        x(x > b) = x - b;
        std::vector<double> want(v.size());
        for (std::size_t f = 0; f < v.size(); ++f) want[f] = v[f] > w[f] ? v[f] - w[f] : v[f];
        expect_same_values(contents(x), want);
    });
}

BOOST_AUTO_TEST_CASE(mask_errors_change_nothing) {
    auto x = grid3(2, 3, 4);
    const auto before = values_of(x);
    // A mask that does not broadcast to x's shape, for selection and assignment.
    const bsx::array<bool, 1> three{true, false, true};
    expect_throw<bsx::broadcast_error>([&] { x(three) = 0; }, "x(mask)");
    expect_throw<bsx::broadcast_error>([&] { bsx::array<double, 1> s = x(three); }, "shape (3,) cannot be broadcast");
    // A value that does not broadcast to x's shape.
    expect_throw<bsx::broadcast_error>(
        [&] { x(x > 0.0) = three; },
        "bsx: x(mask) = ...: shape (3,) cannot be broadcast to the destination shape (2,3,4)");
    expect_same_values(values_of(x), before);
}

// ============================================================== nonzero and friends

BOOST_AUTO_TEST_CASE(nonzero_argwhere_flatnonzero) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const bsx::array<double, 2> x{{0, 1.5, 0}, {nan, 0, -2}};
    // np.nonzero: (array([0, 1, 1]), array([1, 0, 2])); NaN counts as nonzero.
    const auto nz = bsx::nonzero(x);
    expect_array(nz[0], {3}, std::vector<index_t>{0, 1, 1});
    expect_array(nz[1], {3}, std::vector<index_t>{1, 0, 2});
    expect_array(bsx::argwhere(x), {3, 2}, std::vector<index_t>{0, 1, 1, 0, 1, 2});
    expect_array(bsx::flatnonzero(x), {3}, std::vector<index_t>{1, 3, 5});
    // A lazy bool expression of rank 3 against loops.
    const auto g = grid3(3, 4, 5);
    const auto where = bsx::nonzero(g > 120.0 && g < 215.0);
    const auto rows = bsx::argwhere(g > 120.0 && g < 215.0);
    const auto flat = bsx::flatnonzero(g > 120.0 && g < 215.0);
    std::vector<index_t> want0, want1, want2, want_rows, want_flat;
    for (index_t i = 0; i < 3; ++i)
        for (index_t j = 0; j < 4; ++j)
            for (index_t k = 0; k < 5; ++k)
                if (g(i, j, k) > 120 && g(i, j, k) < 215) {
                    want0.push_back(i);
                    want1.push_back(j);
                    want2.push_back(k);
                    want_rows.insert(want_rows.end(), {i, j, k});
                    want_flat.push_back((i * 4 + j) * 5 + k);
                }
    const auto count = index_t(want0.size());
    expect_array(where[0], {count}, want0);
    expect_array(where[1], {count}, want1);
    expect_array(where[2], {count}, want2);
    expect_array(rows, {count, 3}, want_rows);
    expect_array(flat, {count}, want_flat);
    // Nothing nonzero.
    const auto zeros = bsx::zeros<int>(2, 2);
    BOOST_TEST(bsx::nonzero(zeros)[1].size() == 0);
    BOOST_TEST(fmt(bsx::argwhere(zeros).shape()) == "(0,2)");
    BOOST_TEST(bsx::flatnonzero(zeros).size() == 0);
}

// ============================================================== put and compress

BOOST_AUTO_TEST_CASE(put_cycles_values_and_the_last_duplicate_wins) {
    // np.put(a, [0, -1, 2, 0, 4], [7, 8]) on arange(6): [8, 1, 7, 3, 7, 8].
    bsx::array<double, 1> a{0, 1, 2, 3, 4, 5};
    bsx::put(a, bsx::array<int, 1>{0, -1, 2, 0, 4}, bsx::array<double, 1>{7, 8});
    expect_array(a, {6}, std::vector<double>{8, 1, 7, 3, 7, 8});
    // Flat indices into a 2-D array, a scalar value, and a non-contiguous view (the
    // transpose: flat index f is row-major in the view).
    bsx::array<double, 2> m = bsx::zeros<double>(2, 3);
    bsx::put(m, bsx::array<int, 1>{1, 5}, 9);
    expect_array(m, {2, 3}, std::vector<double>{0, 9, 0, 0, 0, 9});
    bsx::put(bsx::permute(m, {1, 0}), bsx::array<int, 1>{1, 2}, bsx::array<double, 1>{4, 6});
    expect_array(m, {2, 3}, std::vector<double>{0, 6, 0, 4, 0, 9});
    // Values that read the target are read before anything is written.
    bsx::array<double, 1> b{1, 2, 3};
    bsx::put(b, bsx::array<int, 1>{0, 1, 2}, bsx::take(b, bsx::array<int, 1>{2, 1, 0}));
    expect_array(b, {3}, std::vector<double>{3, 2, 1});
    // Empty values write nothing (NumPy).
    bsx::put(b, bsx::array<int, 1>{0}, bsx::array<double, 1>(bsx::shape_t<1>{0}));
    expect_array(b, {3}, std::vector<double>{3, 2, 1});
    // A bad index: nothing is written, not even before it.
    expect_throw<std::out_of_range>(
        [&] {
            bsx::put(b, bsx::array<int, 1>{0, 3}, 5);
        },
        "bsx: put: index 3 is out of range for axis 0 of extent 3");
    expect_array(b, {3}, std::vector<double>{3, 2, 1});
}

BOOST_AUTO_TEST_CASE(unsigned_indices_above_ptrdiff_max_are_out_of_range) {
    // Cast to index_t, 2^64 - 1 would be -1: put wrote the last element and take's element
    // read it. Indices are checked in their own type, and the error names them as given.
    constexpr std::uint64_t huge = ~std::uint64_t{0};
    bsx::array<double, 1> a{0, 1, 2};
    expect_throw<std::out_of_range>([&] { bsx::put(a, bsx::array<std::uint64_t, 1>{huge}, 5.0); },
                                    "bsx: put: index 18446744073709551615 is out of range for axis 0 of extent 3");
    expect_array(a, {3}, std::vector<double>{0, 1, 2});
    const bsx::array<std::uint64_t, 1> at{1, huge};
    expect_throw<std::out_of_range>([&] { (void)bsx::take(a, at)(1); },
                                    "bsx: take: index 18446744073709551615 is out of range for axis 0 of extent 3");
    expect_throw<std::out_of_range>([&] { (void)bsx::take(a, at, 0)(1); }, "index 18446744073709551615");
    BOOST_TEST(bsx::take(a, at)(0) == 1.0);
    bsx::array<double, 1> r{-1, -1};
    expect_throw<std::out_of_range>([&] { r = bsx::take(a, at); }, "index 18446744073709551615");
    expect_array(r, {2}, std::vector<double>{-1, -1});
}

BOOST_AUTO_TEST_CASE(compress_along_axes_and_flattened) {
    const auto x = grid3(2, 3, 4);
    const bsx::array<bool, 1> m{true, false, true};
    // np.compress([1, 0, 1], x, axis=1) is np.take(x, [0, 2], axis=1).
    expect_array(bsx::compress(m, x, 1), {2, 2, 4}, take_3d(x, {0, 2}, 1));
    // A mask shorter than the axis: the rest counts as false.
    expect_array(bsx::compress(bsx::array<bool, 1>{false, true}, x, -1), {2, 3, 1}, take_3d(x, {1}, 2));
    // Flattened, a lazy mask.
    expect_array(bsx::compress(bsx::array<int, 1>{0, 1, 1} > 0, x), {2}, std::vector<double>{1, 2});
    // A true past the axis is out of range; no true gives an empty axis.
    expect_throw<std::out_of_range>(
        [&] {
            (void)bsx::compress(bsx::array<bool, 1>{false, false, false, true}, x, 1);
        },
        "bsx: compress: index 3 is out of range for axis 1 of extent 3");
    BOOST_TEST(fmt(bsx::compress(bsx::array<bool, 1>{false}, x, 0).shape()) == "(0,3,4)");
}
