// Creation functions (api.md section 10, "Creation"): arange, linspace, logspace, eye and
// identity against NumPy's values (fixtures written by test/data/creation/make_expected.py),
// the generated leaf fused into assignments and reductions through every loop path
// (read through transposes, slices, broadcasts, folded short rows, strided destinations,
// threads), the *_like functions and meshgrid's views. Registered at 1 and 2 threads.
#define BOOST_TEST_MODULE bsx_creation
#include <boost/test/unit_test.hpp>

#include <bsx/creation.hpp>

#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>

namespace {

using bsx::index_t;
using test_support::same_bits;

const std::string data_dir = std::string(BSX_TEST_DATA_DIR) + "/creation/";

template <class T>
bsx::array<T, 1> fixture1(const std::string& name) {
    return bsx::load_npy<T, 1>(data_dir + name + ".npy");
}
template <class T>
bsx::array<T, 2> fixture2(const std::string& name) {
    return bsx::load_npy<T, 2>(data_dir + name + ".npy");
}

/// The expression's values equal NumPy's bit for bit (element type and shape too), or
/// within `ulps` units in the last place (logspace: NumPy's pow is not the C library's).
template <class E, class A>
void expect_numpy(const E& e, const A& want, int ulps = 0) {
    static_assert(std::is_same_v<bsx::value_type_t<E>, bsx::value_type_t<A>>);
    const auto got = bsx::eval(e);
    BOOST_TEST(test_support::fmt(got.shape()) == test_support::fmt(want.shape()));
    if (got.shape() != want.shape()) return;
    const auto* g = got.data();
    const auto* w = want.data();
    for (index_t i = 0; i < want.size(); ++i) {
        if constexpr (std::is_floating_point_v<bsx::value_type_t<A>>)
            BOOST_TEST((same_bits(g[i], w[i]) ||
                        std::abs(g[i] - w[i]) <= ulps * std::numeric_limits<double>::epsilon() * std::abs(w[i])),
                       "element " << i << ": " << g[i] << " != " << w[i]);
        else
            BOOST_TEST(g[i] == w[i], "element " << i << ": " << +g[i] << " != " << +w[i]);
    }
}

using test_support::expect_throw;

}  // namespace

BOOST_AUTO_TEST_CASE(arange_matches_numpy) {
    expect_numpy(bsx::arange<double>(0.0, 1.0, 0.1), fixture1<double>("arange_f64_tenths"));
    expect_numpy(bsx::arange<double>(2.5, -1.0, -0.3), fixture1<double>("arange_f64_neg_step"));
    expect_numpy(bsx::arange<double>(0.1, 3.3, 0.37), fixture1<double>("arange_f64_odd"));
    expect_numpy(bsx::arange<std::int32_t>(-7, 20, 3), fixture1<std::int32_t>("arange_i32_step3"));
    expect_numpy(bsx::arange<std::int64_t>(10, -11, -4), fixture1<std::int64_t>("arange_i64_down"));
    expect_numpy(bsx::arange<std::int8_t>(-100, 120, 7), fixture1<std::int8_t>("arange_i8_wide"));
}

BOOST_AUTO_TEST_CASE(arange_lengths_and_edges) {
    BOOST_TEST(bsx::arange<double>(0.0, 5.0).size() == 5);  // step 1 by default
    BOOST_TEST(bsx::arange<int>(3, 3).size() == 0);
    BOOST_TEST(bsx::arange<int>(5, 0, 1).size() == 0);  // the wrong way: empty, as NumPy
    BOOST_TEST(bsx::arange<double>(0.0, -1.0, 0.5).size() == 0);
    BOOST_TEST(bsx::arange<std::uint8_t>(250, 5).size() == 0);
    BOOST_TEST(bsx::arange<std::uint8_t>(5, 255, 50).size() == 5);  // ceil(250 / 50)
    BOOST_TEST(bsx::arange<std::uint8_t>(5, 255, 50)(4) == 205);
    // The full int64 range: the length needs 64 unsigned bits, the values wrap nowhere.
    const auto wide = bsx::arange<std::int64_t>(std::numeric_limits<std::int64_t>::min(),
                                                std::numeric_limits<std::int64_t>::max(), std::int64_t{1} << 62);
    BOOST_TEST(wide.size() == 4);
    BOOST_TEST(wide(3) == std::int64_t{1} << 62);  // -2^63 + 3 * 2^62
    // The eager arange(n) still gives a writable array.
    bsx::array<double, 1> a = bsx::arange<double>(4);
    a(0) = 9;
    BOOST_TEST(a(0) == 9.0);
    BOOST_TEST(a(3) == 3.0);
    // Empty: assigns nothing.
    bsx::array<double, 1> e(bsx::shape_t<1>{0});
    e = bsx::arange<double>(1.0, 1.0);
    BOOST_TEST(e.size() == 0);
}

BOOST_AUTO_TEST_CASE(arange_errors) {
    expect_throw<std::invalid_argument>([] { (void)bsx::arange<int>(0, 10, 0); }, "bsx: arange: step is 0");
    expect_throw<std::invalid_argument>([] { (void)bsx::arange<double>(0.0, 1.0, 0.0); }, "bsx: arange: step is 0");
    expect_throw<std::invalid_argument>(
        [] { (void)bsx::arange<double>(0.0, std::numeric_limits<double>::quiet_NaN()); }, "the length is NaN");
    expect_throw<std::length_error>([] { (void)bsx::arange<double>(0.0, 1e300, 1.0); },
                                    "bsx: arange: the length is too large");
    expect_throw<std::length_error>([] { (void)bsx::arange<double>(0.0, std::numeric_limits<double>::infinity()); },
                                    "too large");
    expect_throw<std::length_error>(
        [] { (void)bsx::arange<std::uint64_t>(0, std::numeric_limits<std::uint64_t>::max(), 1); },
        "bsx: arange: the length is too large");
    // A failed call leaves the destination unchanged (it throws before anything is assigned).
    bsx::array<double, 1> r({3}, 7.0);
    expect_throw<std::invalid_argument>([&] { r = bsx::arange<double>(0.0, 3.0, 0.0); }, "step is 0");
    BOOST_TEST((r(0) == 7.0 && r(1) == 7.0 && r(2) == 7.0));
}

BOOST_AUTO_TEST_CASE(linspace_and_logspace_match_numpy) {
    expect_numpy(bsx::linspace<double>(-1.0, 2.0, 7), fixture1<double>("linspace_f64"));
    expect_numpy(bsx::linspace<double>(-1.0, 2.0, 7, bsx::endpoint(false)), fixture1<double>("linspace_f64_no_end"));
    expect_numpy(bsx::linspace<double>(0.0, 1.0, 31), fixture1<double>("linspace_f64_thirds"));
    expect_numpy(bsx::linspace<double>(3.0, 5.0, 1), fixture1<double>("linspace_f64_one"));
    expect_numpy(bsx::linspace<double>(4.0, 4.0, 5), fixture1<double>("linspace_f64_flat"));
    expect_numpy(bsx::linspace<double>(0.0, 1e-320, 9), fixture1<double>("linspace_f64_denormal"));
    expect_numpy(bsx::linspace<std::int32_t>(-3.0, 4.0, 11), fixture1<std::int32_t>("linspace_i32"));
    expect_numpy(bsx::linspace<float>(0.0, 1.0, 13), fixture1<float>("linspace_f32"));
    expect_numpy(bsx::logspace<double>(-2.0, 3.0, 11), fixture1<double>("logspace_f64"), 1);
    expect_numpy(bsx::logspace<double>(0.0, 10.0, 6, 2.0), fixture1<double>("logspace_f64_base2"), 1);
    expect_numpy(bsx::logspace<std::int64_t>(0.0, 4.0, 9), fixture1<std::int64_t>("logspace_i64"));
}

BOOST_AUTO_TEST_CASE(linspace_edges_and_errors) {
    BOOST_TEST(bsx::linspace<double>(0.0, 1.0, 0).size() == 0);
    BOOST_TEST(bsx::linspace<double>(0.0, 1.0, 0, bsx::endpoint(false)).size() == 0);
    const auto one = bsx::linspace<double>(2.0, 3.0, 1, bsx::endpoint(false));
    BOOST_TEST(one.size() == 1);
    BOOST_TEST(one(0) == 2.0);
    // The last element is stop exactly, where start + i * step would round off.
    const auto l = bsx::linspace<double>(0.1, 0.7, 3);
    BOOST_TEST(same_bits(l(2), 0.7));
    // Read reversed, strided and broadcast (a run of positions with step -1, 3 and 0): the
    // same bits as the whole, stop exactly where it falls.
    const auto e = bsx::linspace<double>(0.1, 0.7, 301);
    const auto whole = bsx::eval(e);
    BOOST_TEST(same_bits(whole(300), 0.7));
    const auto reversed = bsx::eval(bsx::slice(e, bsx::range(-1, -302, -1)));
    const auto every_third = bsx::eval(bsx::slice(e, bsx::range(0, 301, 3)));
    const auto rows = bsx::eval(bsx::broadcast_in_dim(e, bsx::shape_t<2>{301, 40}, {0}));
    bool ok = reversed.size() == 301 && every_third.size() == 101;
    for (index_t i = 0; i < 301; ++i) {
        ok &= same_bits(reversed(i), whole(300 - i)) && same_bits(whole(i), e(i));
        for (index_t j = 0; j < 40; ++j) ok &= same_bits(rows(i, j), whole(i));
    }
    for (index_t i = 0; i < 101; ++i) ok &= same_bits(every_third(i), whole(3 * i));
    BOOST_TEST(ok);
    const auto flat =
        bsx::eval(bsx::broadcast_in_dim(bsx::linspace<double>(2.0, 2.0, 1), bsx::shape_t<2>{3, 700}, {0}));
    BOOST_TEST(std::all_of(flat.begin(), flat.end(), [](double v) { return v == 2.0; }));
    // NaN passes through.
    BOOST_TEST(std::isnan(bsx::linspace<double>(0.0, std::numeric_limits<double>::quiet_NaN(), 3)(1)));
    expect_throw<std::invalid_argument>([] { (void)bsx::linspace<double>(0.0, 1.0, -2); },
                                        "bsx: linspace: num is negative (-2)");
    expect_throw<std::invalid_argument>([] { (void)bsx::logspace<double>(0.0, 1.0, -1); },
                                        "bsx: logspace: num is negative (-1)");
}

BOOST_AUTO_TEST_CASE(eye_and_identity_match_numpy) {
    expect_numpy(bsx::eye<double>(4), fixture2<double>("eye_4"));
    expect_numpy(bsx::identity<double>(4), fixture2<double>("eye_4"));
    expect_numpy(bsx::eye<double>(3, 5, 2), fixture2<double>("eye_3x5_k2"));
    expect_numpy(bsx::eye<double>(5, 3, -1), fixture2<double>("eye_5x3_km1"));
    expect_numpy(bsx::eye<std::int32_t>(3, 4, 9), fixture2<std::int32_t>("eye_3x4_k9"));
    BOOST_TEST(bsx::eye<double>(0).size() == 0);
    BOOST_TEST(bsx::eye<double>(3, 0).size() == 0);
    BOOST_TEST(bsx::eval(bsx::eye<double>(0, 4)).size() == 0);
    expect_throw<std::invalid_argument>([] { (void)bsx::eye<double>(-1); }, "eye");
    expect_throw<std::invalid_argument>([] { (void)bsx::eye<double>(2, -3); }, "eye");
}

namespace {

double eye_value(index_t i, index_t j, index_t k) { return j - i == k ? 1.0 : 0.0; }

}  // namespace

BOOST_AUTO_TEST_CASE(generated_leaves_fuse_through_every_path) {
    test_support::for_thread_counts([] {
        // Large enough to be split among threads; a + eye read row by row through tiles.
        const index_t n = 400, m = 300;
        const auto a = test_support::make_array<2>(bsx::shape_t<2>{n, m}, test_support::random_values(n * m, 5));
        bsx::array<double, 2> r({n, m});
        r = a + bsx::eye<double>(n, m, 3);
        bool ok = true;
        for (index_t i = 0; i < n; ++i)
            for (index_t j = 0; j < m; ++j) ok &= same_bits(r(i, j), a(i, j) + eye_value(i, j, 3));
        BOOST_TEST(ok);
        // Read transposed (a placed node: the positions step by the row length along the row).
        bsx::array<double, 2> t({m, n});
        t = bsx::transpose(bsx::eye<double>(n, m, -2)) * 2.0;
        ok = true;
        for (index_t i = 0; i < m; ++i)
            for (index_t j = 0; j < n; ++j) ok &= t(i, j) == 2.0 * eye_value(j, i, -2);
        BOOST_TEST(ok);
        // A strided slice of a generated leaf.
        const auto s = bsx::eval(bsx::slice(bsx::eye<double>(n, m), bsx::range(1, n, 3), bsx::range(m - 1, 0, -2)));
        ok = s.extent(0) == (n - 1 + 2) / 3 && s.extent(1) == (m - 1 + 1) / 2;
        for (index_t i = 0; i < s.extent(0); ++i)
            for (index_t j = 0; j < s.extent(1); ++j) ok &= s(i, j) == eye_value(1 + 3 * i, m - 1 - 2 * j, 0);
        BOOST_TEST(ok);
        // Broadcast along a new outer axis with short rows (3 x 3 folded: a period tile) and
        // along a row (stride 0: a constant tile).
        const auto cube = test_support::grid3(500, 3, 3);
        const auto folded = bsx::eval(cube + bsx::eye<double>(3));
        ok = true;
        for (index_t p = 0; p < 500; ++p)
            for (index_t i = 0; i < 3; ++i)
                for (index_t j = 0; j < 3; ++j) ok &= folded(p, i, j) == cube(p, i, j) + eye_value(i, j, 0);
        BOOST_TEST(ok);
        const auto column =
            bsx::eval(bsx::broadcast_in_dim(bsx::arange<double>(0.0, 300.0), bsx::shape_t<2>{300, 500}, {0}));
        ok = true;
        for (index_t i = 0; i < 300; ++i)
            for (index_t j = 0; j < 500; ++j) ok &= column(i, j) == double(i);
        BOOST_TEST(ok);
        // A destination with strides (every other column of a wider array).
        bsx::array<double, 2> wide({n, 2 * m}, -1.0);
        bsx::slice(wide, bsx::all, bsx::range(0, 2 * m, 2)) = bsx::eye<double>(n, m, 1);
        ok = true;
        for (index_t i = 0; i < n; ++i)
            for (index_t j = 0; j < 2 * m; ++j) ok &= wide(i, j) == (j % 2 == 0 ? eye_value(i, j / 2, 1) : -1.0);
        BOOST_TEST(ok);
        // Reductions: along each axis and over everything.
        const auto rows = bsx::eval(bsx::sum(bsx::eye<double>(n, m, 5), bsx::axis(1)));
        const auto cols =
            bsx::eval(bsx::sum(bsx::eye<double>(n, m, 5) * bsx::arange<double>(0.0, double(m)), bsx::axis(0)));
        ok = true;
        for (index_t i = 0; i < n; ++i) ok &= rows(i) == (i + 5 < m ? 1.0 : 0.0);
        for (index_t j = 0; j < m; ++j) ok &= cols(j) == (j >= 5 && j - 5 < n ? double(j) : 0.0);
        BOOST_TEST(ok);
        BOOST_TEST(std::abs(bsx::sum(bsx::linspace<double>(0.0, 1.0, 1001)) - 500.5) < 1e-9);
        BOOST_TEST(bsx::sum(bsx::arange<std::int64_t>(0, 1000000)) == std::int64_t{999999} * 1000000 / 2);
        // Alone into contiguous memory of its shape and type: the function fills it directly,
        // a block per thread (the blocks' bounds are not its own runs' bounds).
        const index_t big = 1000003;
        bsx::array<double, 1> line({big});
        line = bsx::linspace<double>(-1.0, 2.0, big);
        ok = line(big - 1) == 2.0;
        for (index_t i = 0; i + 1 < big; ++i) ok &= same_bits(line(i), -1.0 + double(i) * (3.0 / double(big - 1)));
        BOOST_TEST(ok);
        bsx::array<float, 2> square({1100, 1100}, 5.0f);
        square = bsx::eye<float>(1100, 1100, -7);
        ok = true;
        for (index_t i = 0; i < 1100; ++i)
            for (index_t j = 0; j < 1100; ++j) ok &= square(i, j) == float(eye_value(i, j, -7));
        BOOST_TEST(ok);
        // Integers and an integer destination from a floating generator.
        bsx::array<int, 1> ints({5});
        ints = bsx::arange<int>(-4, 6, 2) * 3;
        BOOST_TEST((ints(0) == -12 && ints(4) == 12));
    });
}

BOOST_AUTO_TEST_CASE(generated_leaf_shape_errors_leave_the_destination) {
    bsx::array<double, 2> r({3, 3}, 5.0);
    try {
        bsx::slice(r, bsx::all, bsx::all) = bsx::eye<double>(4);  // a view keeps its shape
        BOOST_ERROR("no exception");
    } catch (const bsx::broadcast_error& e) {
        BOOST_TEST(std::string(e.what()).find("(4,4)") != std::string::npos, e.what());
    }
    bool unchanged = true;
    for (index_t i = 0; i < 9; ++i) unchanged &= r.data()[i] == 5.0;
    BOOST_TEST(unchanged);
}

BOOST_AUTO_TEST_CASE(like_functions) {
    const bsx::array<std::int16_t, 2> a({2, 3}, 4);
    const auto z = bsx::zeros_like(a);
    const auto o = bsx::ones_like(a + a);   // of an expression: its shape and element type
    const auto f = bsx::full_like(a, 2.7);  // converted to the element type, as NumPy
    const auto e = bsx::empty_like(bsx::eye<float>(2, 5));
    static_assert(std::is_same_v<decltype(z), const bsx::array<std::int16_t, 2>>);
    static_assert(std::is_same_v<decltype(o), const bsx::array<int, 2>>);  // int16 + int16 promotes, as C++
    static_assert(std::is_same_v<decltype(e), const bsx::array<float, 2>>);
    BOOST_TEST(test_support::fmt(z.shape()) == "(2,3)");
    BOOST_TEST(test_support::fmt(e.shape()) == "(2,5)");
    bool ok = true;
    for (index_t i = 0; i < 6; ++i) ok &= z.data()[i] == 0 && o.data()[i] == 1 && f.data()[i] == 2;
    BOOST_TEST(ok);
    const bsx::array<double, 1> empty(bsx::shape_t<1>{0});
    BOOST_TEST(bsx::ones_like(empty).size() == 0);
}

BOOST_AUTO_TEST_CASE(meshgrid_views) {
    bsx::array<double, 1> x({3});
    bsx::array<double, 1> y({2});
    x = bsx::arange<double>(1.0, 4.0);          // 1 2 3
    y = bsx::arange<double>(10.0, 30.0, 10.0);  // 10 20
    {
        auto [gx, gy] = bsx::meshgrid(x, y);  // 'xy': shape (2, 3)
        BOOST_TEST(test_support::fmt(gx.shape()) == "(2,3)");
        BOOST_TEST(test_support::fmt(gy.shape()) == "(2,3)");
        BOOST_TEST((gx(0, 0) == 1.0 && gx(1, 2) == 3.0 && gy(0, 2) == 10.0 && gy(1, 0) == 20.0));
        x(2) = 7.0;  // views, not copies: they see the change
        BOOST_TEST(gx(1, 2) == 7.0);
        BOOST_TEST(gx.data() == x.data());
        const auto sum = bsx::eval(gx + gy);
        BOOST_TEST((sum(1, 2) == 27.0 && sum(0, 1) == 12.0));
    }
    {
        auto [gx, gy] = bsx::meshgrid(x, y, bsx::indexing_ij);  // shape (3, 2)
        BOOST_TEST(test_support::fmt(gx.shape()) == "(3,2)");
        BOOST_TEST((gx(2, 0) == 7.0 && gx(2, 1) == 7.0 && gy(0, 1) == 20.0 && gy(2, 0) == 10.0));
    }
    {
        // Of lazy expressions: placed nodes over them, still nothing evaluated.
        auto [gx, gy] = bsx::meshgrid(bsx::linspace<double>(0.0, 1.0, 5), bsx::arange<double>(0.0, 4.0));
        const auto d = bsx::eval(gx * 10.0 + gy);
        BOOST_TEST(test_support::fmt(d.shape()) == "(4,5)");
        BOOST_TEST((d(3, 4) == 13.0 && d(2, 1) == 4.5));
    }
}

namespace {
struct squares {
    double operator()(index_t i) const noexcept { return double(i * i); }
};
}  // namespace

BOOST_AUTO_TEST_CASE(user_generated_leaf) {
    const auto s = bsx::generated<squares, 2>("squares", {2, 3}, {});
    BOOST_TEST((s(0, 2) == 4.0 && s(1, 2) == 25.0));
    const auto t = bsx::eval(bsx::transpose(s) + 1.0);
    BOOST_TEST((t(2, 0) == 5.0 && t(2, 1) == 26.0 && t(0, 1) == 10.0));
    expect_throw<std::invalid_argument>([] { (void)bsx::generated<squares, 2>("squares", {2, -3}, {}); }, "squares");
}
