// Assembly and rearrangement (api.md section 10): concatenate, stack, hstack, vstack, tile,
// repeat, roll, flip, pad, squeeze, expand_dims and ravel against NumPy's results (fixtures
// written by test/data/assembly/make_expected.py) on every axis, negative axes and empty
// operands; larger cases against plain loops at 1 to 3 threads, assigned whole, inside
// larger expressions and into strided and transposed destinations; every error path (type,
// message, destination unchanged); and assignments whose destination is read on the right.
#define BOOST_TEST_MODULE bsx_assembly
#include <boost/test/unit_test.hpp>

#include "test_support.hpp"

#include <bsx/bsx.hpp>

#include <array>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using bsx::index_t;
using test_support::expect_throw;

const std::string data_dir = std::string(BSX_TEST_DATA_DIR) + "/assembly/";

/// x = arange(24).reshape(2, 3, 4), as the fixture script builds it.
bsx::array<double, 3> x_operand() {
    const bsx::array<double, 1> flat = bsx::arange<double>(24);
    return bsx::reshape<3>(flat, {2, 3, 4});
}

/// x's shape with extent `extent` on axis k, filled with 100 + arange.
bsx::array<double, 3> other(std::size_t k, index_t extent = 2) {
    std::array<index_t, 3> shape{2, 3, 4};
    shape[k] = extent;
    bsx::array<double, 3> y(shape);
    double v = 100;
    for (double& e : y) e = v++;
    return y;
}

/// `got` (evaluated) equals NumPy's result in the fixture `name`, shape and values.
template <class E>
void matches(const E& got, const std::string& name) {
    constexpr std::size_t N = bsx::rank_v<E>;
    const bsx::array<double, N> r = got;
    const auto expected = bsx::load_npy<double, N>(data_dir + name + ".npy");
    BOOST_TEST_CONTEXT(name) {
        BOOST_TEST(test_support::fmt(r.shape()) == test_support::fmt(expected.shape()));
        if (r.shape() == expected.shape()) BOOST_TEST(bsx::array_equal(r, expected));
    }
}

/// A rows x cols matrix of distinct values from `seed`.
bsx::array<double, 2> matrix(index_t rows, index_t cols, double seed) {
    bsx::array<double, 2> a({rows, cols});
    for (index_t i = 0; i < rows; ++i)
        for (index_t j = 0; j < cols; ++j) a(i, j) = seed + double(i * cols + j);
    return a;
}

}  // namespace

BOOST_AUTO_TEST_CASE(concatenate_every_axis_matches_numpy) {
    const auto x = x_operand();
    const bsx::array<double, 3> x2 = x * 2;
    for (std::size_t k = 0; k < 3; ++k) {
        const auto y = other(k);
        const std::string name = "concatenate_axis" + std::to_string(k);
        matches(bsx::concatenate({x, y, x2}, k), name);
        matches(bsx::concatenate({x, y, x2}, index_t(k) - 3), name);         // negative axis
        matches(bsx::concatenate({x, y, x2}, bsx::axis(index_t(k))), name);  // bsx::axis
        matches(bsx::concatenate(x, y, x * 2, int(k)), name);                // mixed types
        matches(bsx::concatenate(x, y, x * 2, int(k)) + 0.0, name);          // nested, lazy piece
        matches(bsx::concatenate({x, y, x2}, k) * 1.0, name);                // nested, memory
        const auto e = other(k, 0);
        matches(bsx::concatenate({e, x, e}, k), "concatenate_empty_axis" + std::to_string(k));
        matches(bsx::concatenate({e, x, e}, k) - 0.0, "concatenate_empty_axis" + std::to_string(k));
    }
}

BOOST_AUTO_TEST_CASE(stack_hstack_vstack_match_numpy) {
    const auto x = x_operand();
    const bsx::array<double, 3> x1 = x + 1;
    for (index_t k = 0; k < 4; ++k) {
        const std::string name = "stack_axis" + std::to_string(k);
        matches(bsx::stack({x, x1}, k), name);
        matches(bsx::stack({x, x1}, k - 4), name);
        matches(bsx::stack(x, x + 1, k), name);
        matches(bsx::stack({x, x1}, k) + 0.0, name);
    }
    matches(bsx::hstack({x, x1}), "hstack");
    matches(bsx::hstack(x, x + 1), "hstack");
    matches(bsx::vstack({x, x1}), "vstack");
    matches(bsx::vstack(x, x + 1), "vstack");
    const auto r0 = bsx::slice(x, 0, 0), r1 = bsx::slice(x, 1, 2);
    matches(bsx::hstack({r0, r1}), "hstack_1d");
    matches(bsx::vstack({r0, r1}), "vstack_1d");
    matches(bsx::vstack(r0, r1 + 0.0), "vstack_1d");
}

BOOST_AUTO_TEST_CASE(tile_repeat_roll_flip_match_numpy) {
    const auto x = x_operand();
    matches(bsx::tile(x, {2, 1, 3}), "tile_2_1_3");
    matches(bsx::tile(x + 0.0, {2, 1, 3}), "tile_2_1_3");
    matches(bsx::tile(x, {2}), "tile_2");
    matches(bsx::tile(x, {2, 1, 1, 2}), "tile_2_1_1_2");
    for (index_t k = 0; k < 3; ++k) {
        const std::string a = "_axis" + std::to_string(k);
        matches(bsx::repeat(x, 3, k), "repeat3" + a);
        matches(bsx::repeat(x * 1.0, 3, k - 3), "repeat3" + a);
        matches(bsx::roll(x, 2, k), "roll2" + a);
        matches(bsx::roll(x, 2, k) + 0.0, "roll2" + a);
        matches(bsx::roll(x, -7, bsx::axis(k - 3)), "roll-7" + a);
        matches(bsx::flip(x, k), "flip" + a);
        matches(bsx::flip(x + 0.0, k - 3), "flip" + a);
    }
    matches(bsx::roll(x, 5), "roll5_flat");
    matches(bsx::roll(x + 0.0, 5 - 24 * 3), "roll5_flat");
    matches(bsx::flip(x), "flip_all");
    matches(bsx::flip(x * 1.0), "flip_all");
    BOOST_TEST(bsx::repeat(x, 0, 1).size() == 0);
    BOOST_TEST(bsx::tile(x, {0, 1, 1}).size() == 0);
}

BOOST_AUTO_TEST_CASE(pad_matches_numpy) {
    const auto x = x_operand();
    matches(bsx::pad(x, {{1, 2}, {0, 3}, {2, 0}}, bsx::pad_constant(7)), "pad_constant");
    matches(bsx::pad(x * 1.0, {{1, 2}, {0, 3}, {2, 0}}, bsx::pad_constant(7.0)) + 0.0, "pad_constant");
    matches(bsx::pad(x, {{1, 2}, {0, 3}, {2, 0}}, bsx::pad_edge), "pad_edge");
    matches(bsx::pad(x, {{1, 2}, {0, 3}, {2, 0}}, bsx::pad_edge) * 1.0, "pad_edge");
    matches(bsx::pad(x, {{3, 5}, {1, 4}, {6, 2}}, bsx::pad_reflect), "pad_reflect");
    matches(bsx::pad(x + 0.0, {{3, 5}, {1, 4}, {6, 2}}, bsx::pad_reflect), "pad_reflect");
    matches(bsx::pad(x, {{2, 2}}, bsx::pad_reflect), "pad_reflect_all");
    const bsx::array<double, 1> z = bsx::pad(bsx::arange<double>(3), {{2, 1}});
    BOOST_TEST(bsx::array_equal(z, bsx::array<double, 1>{0, 0, 0, 1, 2, 0}));
    const bsx::array<double, 1> one = bsx::pad(bsx::array<double, 1>{5}, {{2, 3}}, bsx::pad_reflect);
    BOOST_TEST(bsx::array_equal(one, bsx::array<double, 1>{5, 5, 5, 5, 5, 5}));  // NumPy's too
}

BOOST_AUTO_TEST_CASE(squeeze_expand_dims_ravel_match_numpy) {
    const auto x = x_operand();
    matches(bsx::expand_dims(x, -1), "expand_dims_axis-1");
    matches(bsx::expand_dims(x + 0.0, 3), "expand_dims_axis-1");
    matches(bsx::squeeze(bsx::slice(x, bsx::all, bsx::range(0, 1)), 1), "squeeze_axis1");
    matches(bsx::squeeze(bsx::slice(x + 0.0, bsx::all, bsx::range(0, 1)), -2), "squeeze_axis1");
    matches(bsx::ravel(bsx::transpose(x)), "ravel_transposed");
    matches(bsx::ravel(bsx::transpose(x)) + 0.0, "ravel_transposed");
    matches(bsx::ravel(bsx::transpose(x + 0.0)), "ravel_transposed");
    const bsx::array<double, 1> flat = bsx::ravel(x);
    BOOST_TEST(bsx::array_equal(flat, bsx::arange<double>(24)));
    BOOST_TEST(bsx::ravel(x).data() == x.data());  // an array's ravel is a view
}

BOOST_AUTO_TEST_CASE(large_cases_match_plain_loops) {
    const index_t m = 301, n = 517;
    const auto a = matrix(m, n, 0.5), b = matrix(m + 3, n, -1e6);
    test_support::for_thread_counts([&] {
        // rows of a then b, plus one: assigned whole and nested; into a strided view; transposed
        bsx::array<double, 2> r = bsx::concatenate(a, b * 1.0, 0) + 1.0;
        bsx::array<double, 2> big({2 * m + 3, 2 * n});
        big = -5.0;
        bsx::slice(big, bsx::all, bsx::range(0, 2 * n, 2)) = bsx::concatenate({a, b}, 0);
        const bsx::array<double, 2> t = bsx::transpose(bsx::concatenate({a, b}, 0) + 0.0);
        bool ok = true;
        for (index_t i = 0; i < 2 * m + 3; ++i)
            for (index_t j = 0; j < n; ++j) {
                const double v = i < m ? a(i, j) : b(i - m, j);
                ok = ok && r(i, j) == v + 1.0 && big(i, 2 * j) == v && big(i, 2 * j + 1) == -5.0 && t(j, i) == v;
            }
        BOOST_TEST(ok);
        // along the last axis, with a lazy piece, and rolled, padded, tiled
        const bsx::array<double, 2> c = bsx::concatenate(a * 2.0, a, 1);
        const bsx::array<double, 2> rolled = bsx::roll(a, 7, 1) - 0.0;
        const bsx::array<double, 2> padded = bsx::pad(a, {{2, 3}, {600, 1}}, bsx::pad_reflect) * 1.0;
        const bsx::array<double, 2> tiled = bsx::tile(bsx::slice(a, bsx::range(0, 3)), {100, 2});
        ok = true;
        const auto reflect = [](index_t i, index_t len) {
            const index_t p = 2 * (len - 1);
            const index_t t = ((i % p) + p) % p;
            return t < len ? t : p - t;
        };
        for (index_t i = 0; i < m; ++i)
            for (index_t j = 0; j < n; ++j)
                ok = ok && c(i, j) == 2 * a(i, j) && c(i, j + n) == a(i, j) && rolled(i, (j + 7) % n) == a(i, j);
        for (index_t i = 0; i < m + 5; ++i)
            for (index_t j = 0; j < n + 601; ++j) ok = ok && padded(i, j) == a(reflect(i - 2, m), reflect(j - 600, n));
        for (index_t i = 0; i < 300; ++i)
            for (index_t j = 0; j < 2 * n; ++j) ok = ok && tiled(i, j) == a(i % 3, j % n);
        BOOST_TEST(ok);
    });
}

BOOST_AUTO_TEST_CASE(elements_and_printing) {
    const auto x = x_operand();
    const auto c = bsx::concatenate(x, other(0) + 0.0, 0);
    BOOST_TEST(c(3, 2, 1) == 100.0 + 12 + 2 * 4 + 1);
    BOOST_TEST(bsx::pad(x, {{1, 1}}, bsx::pad_constant(-1))(0, 0, 0) == -1.0);
    BOOST_TEST(bsx::roll(x, 1, 2)(1, 2, 0) == x(1, 2, 3));
    BOOST_TEST(bsx::ravel(x + 1)(23) == 24.0);
    std::ostringstream out;
    out << bsx::concatenate({bsx::arange<double>(2) + 0.0, bsx::arange<double>(1) + 5.0}, 0);
    BOOST_TEST(out.str() == "[0., 1., 5.]");
}

BOOST_AUTO_TEST_CASE(errors_name_the_shapes_and_axis_and_change_nothing) {
    const auto x = x_operand();
    bsx::array<double, 3> r = x;
    const auto y = other(1);
    expect_throw<bsx::broadcast_error>(
        [&] {
            r = bsx::concatenate({x, y}, 0);
        },
        "bsx: concatenate: operand 0 has shape (2,3,4) and operand 1 has shape (2,2,4): "
        "they differ on axis 1, which is not the axis joined (0)");
    expect_throw<bsx::broadcast_error>([&] { r = bsx::concatenate(x, y + 1, 2); }, "differ on axis 1");
    expect_throw<std::out_of_range>(
        [&] {
            r = bsx::concatenate({x, x}, 3);
        },
        "bsx: concatenate: axis 3 is out of range for an operand of rank 3");
    expect_throw<std::out_of_range>([&] { r = bsx::concatenate({x, x}, -4); }, "axis -4 is out of range");
    expect_throw<bsx::broadcast_error>(
        [&] {
            (void)bsx::stack({x, y}, 0);
        },
        "bsx: stack: operand 0 has shape (2,3,4) and operand 1 has shape (2,2,4)");
    expect_throw<bsx::broadcast_error>([&] { (void)bsx::stack(x, y, 0); }, "stacked operands must have one shape");
    expect_throw<std::out_of_range>([&] { (void)bsx::stack({x, x}, 4); }, "bsx: stack: axis 4 is out of range");
    expect_throw<std::out_of_range>([&] { (void)bsx::expand_dims(x, -5); }, "bsx: expand_dims: axis -5");
    // The message gives the operand's own shape and the axes an insertion accepts.
    const bsx::array<double, 2> x23 = bsx::zeros<double>(2, 3);
    expect_throw<std::out_of_range>(
        [&] { (void)bsx::expand_dims(x23, 4); },
        "bsx: expand_dims: axis 4 is out of range for inserting an axis into an operand of rank 2 and shape (2,3) "
        "(axes -3 to 2)");
    expect_throw<std::out_of_range>(
        [&] {
            (void)bsx::stack({x, x}, -5);
        },
        "bsx: stack: axis -5 is out of range for inserting an axis into an operand of "
        "rank 3 and shape (2,3,4) (axes -4 to 3)");
    expect_throw<std::invalid_argument>([&] { (void)bsx::squeeze(x, 1); },
                                        "bsx: squeeze: axis 1 of shape (2,3,4) has extent 3, not 1");
    expect_throw<std::out_of_range>([&] { (void)bsx::squeeze(x, 3); }, "bsx: squeeze: axis 3 is out of range");
    expect_throw<std::invalid_argument>(
        [&] {
            (void)bsx::tile(x, {1, -1});
        },
        "bsx: tile: reps (1,-1) for shape (2,3,4): a repetition count is negative");
    expect_throw<std::invalid_argument>([&] { (void)bsx::repeat(x, -2, 1); },
                                        "bsx: repeat: count -2 is negative (shape (2,3,4), axis 1)");
    expect_throw<std::out_of_range>([&] { (void)bsx::repeat(x, 2, 5); }, "bsx: repeat: axis 5");
    expect_throw<std::out_of_range>([&] { (void)bsx::roll(x, 2, -4); }, "bsx: roll: axis -4");
    expect_throw<std::out_of_range>([&] { (void)bsx::flip(x, 3); }, "bsx: flip: axis 3");
    expect_throw<std::invalid_argument>(
        [&] {
            r = bsx::pad(x, {{1, 1}, {-1, 0}, {0, 0}});
        },
        "bsx: pad: a width is negative (shape (2,3,4), axis 1, widths {-1, 0})");
    const auto empty = other(2, 0);
    expect_throw<std::invalid_argument>(
        [&] {
            (void)bsx::pad(empty, {{0, 0}, {0, 0}, {1, 0}}, bsx::pad_edge);
        },
        "bsx: pad: an empty axis has no edge (shape (2,3,0), axis 2");
    expect_throw<std::invalid_argument>(
        [&] {
            (void)bsx::pad(empty, {{1, 1}}, bsx::pad_reflect);
        },
        "bsx: pad: an empty axis has no values to reflect (shape (2,3,0), axis 2");
    BOOST_TEST(bsx::pad(empty, {{0, 0}, {0, 0}, {1, 1}}).shape()[2] == 2);  // a constant border is fine
    expect_throw<std::length_error>([&] { (void)bsx::tile(x, {index_t(1) << 62, 1, 1}); }, "bsx: tile:");
    expect_throw<std::length_error>([&] { (void)bsx::repeat(x, index_t(1) << 62, 0); }, "bsx: repeat:");
    const auto s = bsx::slice(x, 0, 0);
    expect_throw<std::invalid_argument>(
        [&] {
            (void)bsx::concatenate({s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s}, 0);
        },
        "bsx: concatenate: 17 operands given, at most 16 in braces");
    BOOST_TEST(bsx::array_equal(r, x));  // no failed assignment wrote anything
}

BOOST_AUTO_TEST_CASE(huge_extents_and_counts_are_refused_before_they_overflow) {
    // Each extent is computed with checked arithmetic: a product or sum past PTRDIFF_MAX
    // used to overflow (UB) before the check, and could wrap to a small extent.
    const bsx::array<double, 1> v3{0, 1, 2};
    expect_throw<std::length_error>([&] { (void)bsx::tile(v3, {index_t(1) << 62}); },
                                    "bsx: tile: reps (4611686018427387904,) for shape (3,) give an extent too large");
    const bsx::array<double, 1> one{1};
    const auto b = bsx::broadcast_to(one, bsx::shape_t<1>{index_t(1) << 62});
    expect_throw<std::length_error>(
        [&] {
            (void)bsx::concatenate({b, b, b, b}, 0);
        },
        "bsx: concatenate: operand 1 of shape (4611686018427387904,) makes the extents along axis 0 sum past "
        "PTRDIFF_MAX");
    expect_throw<std::length_error>([&] { (void)bsx::concatenate({b, b, b}, 0); }, "sum past PTRDIFF_MAX");
    // An unsigned count above PTRDIFF_MAX is not a negative one.
    const auto x = x_operand();
    expect_throw<std::length_error>([&] { (void)bsx::repeat(x, std::uint64_t(1) << 63, 0); },
                                    "bsx: repeat: count 9223372036854775808 along axis 0 of shape (2,3,4)");
    expect_throw<std::length_error>([&] { (void)bsx::repeat(bsx::slice(x, 0, 0), ~std::uint64_t{0}, 0); },
                                    "bsx: repeat: count 18446744073709551615");
    // 2^63 = 2 (mod 3) and 2^64 - 1 = 0 (mod 3): a shift reduced as an index_t rolled by 1.
    bsx::array<double, 1> rolled = bsx::roll(v3, std::uint64_t(1) << 63, 0);
    test_support::expect_array(rolled, {3}, std::vector<double>{1, 2, 0});
    rolled = bsx::roll(v3, ~std::uint64_t{0});
    test_support::expect_array(rolled, {3}, std::vector<double>{0, 1, 2});
    rolled = bsx::roll(v3, std::int64_t(-5), 0);
    test_support::expect_array(rolled, {3}, std::vector<double>{2, 0, 1});
}

BOOST_AUTO_TEST_CASE(destination_read_on_the_right_gives_numpys_result) {
    const auto x0 = x_operand();
    test_support::for_thread_counts([&] {
        bsx::array<double, 3> x = x0;
        x = bsx::concatenate(x, x, 0);  // new shape
        matches(x, "concatenate_axis0_self");
        x = x0;
        x = bsx::concatenate({x, x}, 0);  // the braced list holds copies of x
        matches(x, "concatenate_axis0_self");
        bsx::array<double, 3> y = x0;
        y = bsx::concatenate({bsx::slice(y, bsx::all), bsx::slice(y, bsx::all)}, 0);  // views of y: no copies
        matches(y, "concatenate_axis0_self");
        x = x0;
        x = bsx::flip(x);
        matches(x, "flip_all");
        x = x0;
        x = bsx::roll(x, 2, 1);
        matches(x, "roll2_axis1");
        x = x0;
        x = bsx::roll(x, 5);
        matches(x, "roll5_flat");
        x = x0;
        x = bsx::roll(x, 2, 0) + x * 0.0;  // nested, overlapping
        matches(x, "roll2_axis0");
        x = x0;
        x = bsx::repeat(x, 3, 2);
        matches(x, "repeat3_axis2");
        x = x0;
        x = bsx::pad(x, {{1, 2}, {0, 3}, {2, 0}}, bsx::pad_edge);
        matches(x, "pad_edge");
        // a view of x assigned from x: the two halves swapped in place
        bsx::array<double, 2> m = matrix(300, 400, 0.0);
        const bsx::array<double, 2> m0 = m;
        m = bsx::concatenate(bsx::slice(m, bsx::range(150, 300)), bsx::slice(m, bsx::range(0, 150)), 0);
        bsx::slice(m, bsx::all, bsx::range(0, 200)) = bsx::flip(bsx::slice(m, bsx::all, bsx::range(100, 300)), 1);
        bool ok = true;
        for (index_t i = 0; i < 300; ++i)
            for (index_t j = 0; j < 400; ++j) {
                const double want = m0((i + 150) % 300, j < 200 ? 299 - j : j);
                ok = ok && m(i, j) == want;
            }
        BOOST_TEST(ok);
    });
}

BOOST_AUTO_TEST_CASE(many_small_blocks_match_plain_loops) {
    const bsx::array<double, 1> v{1, 2, 3};
    const index_t reps = 100000;
    const bsx::array<double, 1> t = bsx::tile(v, {reps});
    const bsx::array<double, 1> t2 = bsx::tile(v * 2.0, {reps}) + 1.0;
    bsx::array<double, 1> t3({3 * reps});
    t3 = bsx::tile(v * 2.0, {reps});
    bool ok = t.size() == 3 * reps && t2.size() == 3 * reps;
    for (index_t i = 0; ok && i < 3 * reps; ++i)
        ok = t(i) == v(i % 3) && t2(i) == 2 * v(i % 3) + 1 && t3(i) == 2 * v(i % 3);
    BOOST_TEST(ok);
    const auto a = matrix(50, 70, 0.25);
    const bsx::array<double, 2> r2 = bsx::repeat(a, 2, 1);
    const bsx::array<double, 2> r3 = bsx::repeat(a + 0.0, 3, -1);
    const bsx::array<double, 2> p = bsx::pad(bsx::slice(a, bsx::range(0, 2)), {{999, 1000}, {0, 0}}, bsx::pad_reflect);
    ok = true;
    for (index_t i = 0; i < 50; ++i)
        for (index_t j = 0; j < 210; ++j) ok = ok && (j >= 140 || r2(i, j) == a(i, j / 2)) && r3(i, j) == a(i, j / 3);
    for (index_t i = 0; i < 2001; ++i)
        for (index_t j = 0; j < 70; ++j) ok = ok && p(i, j) == a((i + 1) % 2, j);
    BOOST_TEST(ok);
}

BOOST_AUTO_TEST_CASE(an_operand_resized_after_building_throws) {
    const auto a = matrix(3, 4, 0.0);
    auto b = matrix(2, 4, 10.0);
    const auto e = bsx::concatenate(a, b, 0);
    const auto f = bsx::ravel(b * 1.0);
    b = matrix(4, 4, 10.0);
    bsx::array<double, 2> r = matrix(5, 4, -1.0);
    const bsx::array<double, 2> before = r;
    expect_throw<std::logic_error>([&] { r = e; }, "an operand was resized after the expression was built");
    expect_throw<std::logic_error>([&] { r = e + 1.0; }, "(the operands now give shape (4,4), not (2,4))");
    BOOST_TEST(bsx::array_equal(r, before));
    bsx::array<double, 1> flat({8});
    expect_throw<std::logic_error>([&] { flat = f; }, "an operand was resized");
}

BOOST_AUTO_TEST_CASE(element_types_follow_the_operands) {
    const bsx::array<int, 1> i{1, 2, 3};
    const bsx::array<double, 1> d{0.5};
    const bsx::array<bool, 1> b{true, false};
    const auto mixed = bsx::concatenate(i, d, 0);
    static_assert(std::is_same_v<bsx::value_type_t<decltype(mixed)>, double>);
    const bsx::array<double, 1> m = mixed;
    BOOST_TEST(bsx::array_equal(m, bsx::array<double, 1>{1, 2, 3, 0.5}));
    const bsx::array<int, 1> ints = bsx::concatenate({i, i}, 0) * 2;
    BOOST_TEST(bsx::array_equal(ints, bsx::array<int, 1>{2, 4, 6, 2, 4, 6}));
    const bsx::array<bool, 1> bools = bsx::tile(b, {3}) && true;
    BOOST_TEST(bsx::array_equal(bools, bsx::array<bool, 1>{true, false, true, false, true, false}));
    const bsx::array<float, 1> f = bsx::pad(i, {{1, 1}}, bsx::pad_constant(0.5));  // the constant as int: 0
    BOOST_TEST(bsx::array_equal(f, bsx::array<float, 1>{0, 1, 2, 3, 0}));
}
