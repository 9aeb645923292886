// Random numbers (api.md section 10, "Random numbers"): Philox4x32-10 against Random123's
// known answers, values from a plain loop over the cipher, the same bits at 1, 2 and 3
// threads and through slices and transposes, the calls' streams, ranges, moments with
// generous bounds (fixed seeds: deterministic, never flaky), integers without bias,
// permutation, shuffle, and every error. Registered at 1 and 2 threads.
#define BOOST_TEST_MODULE bsx_random
#include <boost/test/unit_test.hpp>

#include <bsx/random.hpp>

#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using bsx::index_t;
using test_support::same_bits;
namespace rnd = bsx::random;

using test_support::expect_throw;

template <class A>
std::vector<double> values(const A& a) {
    return std::vector<double>(a.data(), a.data() + a.size());
}

struct moments {
    double mean, variance, fourth;  // the fourth central moment
};
template <class A>
moments moments_of(const A& a) {
    double s = 0;
    for (index_t i = 0; i < a.size(); ++i) s += double(a.data()[i]);
    const double mean = s / double(a.size());
    double v = 0, f = 0;
    for (index_t i = 0; i < a.size(); ++i) {
        const double d = double(a.data()[i]) - mean;
        v += d * d;
        f += d * d * d * d;
    }
    return {mean, v / double(a.size()), f / double(a.size())};
}

}  // namespace

// Random123's known-answer vectors, examples/kat_vectors of github.com/DEShawResearch/random123
// (the three "philox4x32 10" lines: counter, key, expected output).
BOOST_AUTO_TEST_CASE(philox_known_answers) {
    using w4 = std::array<std::uint32_t, 4>;
    using w2 = std::array<std::uint32_t, 2>;
    BOOST_TEST((rnd::philox4x32(w4{0, 0, 0, 0}, w2{0, 0}) == w4{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
    BOOST_TEST((rnd::philox4x32(w4{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, w2{0xffffffff, 0xffffffff}) ==
                w4{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
    BOOST_TEST((rnd::philox4x32(w4{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, w2{0xa4093822, 0x299f31d0}) ==
                w4{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
    static_assert(rnd::philox4x32({0, 0, 0, 0}, {0, 0})[0] == 0x6627e8d5);  // constexpr
}

BOOST_AUTO_TEST_CASE(uniform_values_follow_from_the_cipher) {
    // Element i of call c of seed s, a double: the top 53 bits of 64-bit word i % 2 of
    // Philox((i / 2, 0, c, 0), seed) scaled to [0, 1), then to [lo, hi). A float: the top 24
    // bits of 32-bit word i % 4 of Philox((i / 4, 0, c, 0), seed). Runs that start and end
    // mid-block, read forwards and backwards.
    const std::uint64_t seed = 0x0123456789abcdefULL;
    const std::array<std::uint32_t, 2> key{0x89abcdef, 0x01234567};
    rnd::generator g(seed);
    (void)g.uniform<double>(bsx::shape_t<1>{1});                                    // call 0
    const auto u = bsx::eval(g.uniform<double>(bsx::shape_t<1>{1001}, -2.0, 3.0));  // call 1
    const auto f = g.uniform<float>(bsx::shape_t<1>{1003}, 1.0f, 2.0f);             // call 2
    const auto part = bsx::eval(bsx::slice(f, bsx::range(3, 1002)));
    const auto reversed = bsx::eval(bsx::slice(f, bsx::range(1002, -1004, -1)));
    bool ok = true;
    for (index_t i = 0; i < 1001; ++i) {
        const auto w = rnd::philox4x32({std::uint32_t(i / 2), 0, 1, 0}, key);
        const std::uint64_t bits = i % 2 == 0 ? std::uint64_t(w[0]) << 32 | w[1] : std::uint64_t(w[2]) << 32 | w[3];
        const double want = -2.0 + 5.0 * (double(bits >> 11) * 0x1p-53);
        ok &= same_bits(u(i), want);
    }
    for (index_t i = 0; i < 1003; ++i) {
        const auto w = rnd::philox4x32({std::uint32_t(i / 4), 0, 2, 0}, key);
        const float want = 1.0f + 1.0f * (float(w[std::size_t(i % 4)] >> 8) * 0x1p-24f);
        if (i >= 3 && i < 1002) ok &= same_bits(part(i - 3), want);
        ok &= same_bits(reversed(1002 - i), want);
    }
    BOOST_TEST(ok);
    BOOST_TEST(g.calls() == 3u);
}

__extension__ using wide_unsigned = unsigned __int128;  // the test's own 128-bit product

BOOST_AUTO_TEST_CASE(integers_follow_from_the_cipher) {
    // Element i of call c, in [lo, lo + range): lo + the high 64 bits of range times 64-bit word
    // i % 2 of Philox((i / 2, 0, c, 0), seed) (Lemire's method; at this range no draw is
    // rejected but with probability 1000 / 2^64). A run from an odd start, and reversed.
    rnd::generator g(5);
    const auto x = g.integers<std::int64_t>(-300, 700, bsx::shape_t<1>{999});  // call 0
    const auto part = bsx::eval(bsx::slice(x, bsx::range(1, 998)));
    const auto reversed = bsx::eval(bsx::slice(x, bsx::range(998, -1000, -1)));
    bool ok = part.extent(0) == 997;
    for (index_t i = 0; i < 999; ++i) {
        const auto w = rnd::philox4x32({std::uint32_t(i / 2), 0, 0, 0}, {5, 0});
        const std::uint64_t bits = i % 2 == 0 ? std::uint64_t(w[0]) << 32 | w[1] : std::uint64_t(w[2]) << 32 | w[3];
        const auto want = -300 + std::int64_t((wide_unsigned(bits) * 1000) >> 64);
        if (i >= 1 && i < 998) ok &= part(i - 1) == want;
        ok &= reversed(998 - i) == want;
    }
    BOOST_TEST(ok);
}

BOOST_AUTO_TEST_CASE(same_bits_at_any_thread_count) {
    // Large enough to be split among threads, and of an odd shape.
    const bsx::shape_t<2> shape{613, 499};
    const auto a = test_support::make_array<2>(shape, test_support::random_values(613 * 499, 3));
    std::vector<double> first_u, first_n, first_i, first_f;
    test_support::for_thread_counts([&] {
        rnd::generator g(42);
        const auto u = bsx::eval(g.uniform<double>(shape));
        const auto n = bsx::eval(a + g.normal<double>(shape, 1.0, 2.0));
        const auto i = bsx::eval(g.integers<std::int32_t>(-1000, 1000, shape));
        const auto f = bsx::eval(bsx::transpose(g.uniform<float>(shape, -1.0f, 1.0f)) * 2.0f);
        if (first_u.empty()) {
            first_u = values(u), first_n = values(n), first_i = values(i), first_f = values(f);
            // Against element(): the same function evaluated one element at a time.
            rnd::generator h(42);
            const auto eu = h.uniform<double>(shape);
            const auto en = h.normal<double>(shape, 1.0, 2.0);
            bool ok = true;
            for (index_t r = 0; r < shape[0]; r += 7)
                for (index_t c = 0; c < shape[1]; c += 5)
                    ok &= same_bits(u(r, c), eu(r, c)) && same_bits(n(r, c), a(r, c) + en(r, c));
            BOOST_TEST(ok);
            return;
        }
        BOOST_TEST((values(u) == first_u));
        BOOST_TEST((values(n) == first_n));
        BOOST_TEST((values(i) == first_i));
        BOOST_TEST((values(f) == first_f));
    });
}

template <class E>
void check_slices_of(const E& e) {
    using T = bsx::value_type_t<E>;
    const auto same_bits = [](T a, T b) {
        if constexpr (std::is_integral_v<T>)
            return a == b;
        else
            return test_support::same_bits(a, b);
    };
    const auto whole = bsx::eval(e);
    const auto part = bsx::eval(bsx::slice(e, bsx::range(3, 40, 4), bsx::range(49, 0, -3)));
    bool ok = part.extent(0) == 10 && part.extent(1) == 17;
    for (index_t i = 0; i < part.extent(0); ++i)
        for (index_t j = 0; j < part.extent(1); ++j) ok &= same_bits(part(i, j), whole(3 + 4 * i, 49 - 3 * j));
    const auto t = bsx::eval(bsx::transpose(e));
    for (index_t i = 0; i < 40; ++i)
        for (index_t j = 0; j < 50; ++j) ok &= same_bits(t(j, i), whole(i, j));
    // Broadcast against a larger shape: each row of the result is the same draw.
    const auto rows = bsx::eval(bsx::zeros<T>(3, 40, 50) + e);
    for (index_t p = 0; p < 3; ++p)
        for (index_t i = 0; i < 40; ++i)
            for (index_t j = 0; j < 50; ++j) ok &= same_bits(rows(p, i, j), T(whole(i, j) + T(0)));
    BOOST_TEST(ok);
}

BOOST_AUTO_TEST_CASE(slices_equal_the_same_slice_of_the_whole) {
    rnd::generator g(7);
    check_slices_of(g.normal<double>(bsx::shape_t<2>{40, 50}));
    check_slices_of(g.uniform<double>(bsx::shape_t<2>{40, 50}));
    check_slices_of(g.uniform<float>(bsx::shape_t<2>{40, 50}, -1.0f, 1.0f));
    check_slices_of(g.integers<std::int32_t>(-1000, 1000, bsx::shape_t<2>{40, 50}));
    // A range just over 2^63: about half of the first draws are rejected.
    constexpr std::int64_t low = std::numeric_limits<std::int64_t>::min() / 2 - 1;
    check_slices_of(
        g.integers<std::int64_t>(low, std::numeric_limits<std::int64_t>::max() / 2 + 2, bsx::shape_t<2>{40, 50}));
}

BOOST_AUTO_TEST_CASE(calls_draw_from_new_streams) {
    const bsx::shape_t<1> shape{1000};
    rnd::generator g(1), same(1), other(2);
    const auto a = bsx::eval(g.uniform<double>(shape));
    const auto b = bsx::eval(g.uniform<double>(shape));
    BOOST_TEST((values(a) != values(b)));  // two calls differ
    BOOST_TEST((values(a) == values(bsx::eval(same.uniform<double>(shape)))));
    BOOST_TEST((values(b) == values(bsx::eval(same.uniform<double>(shape)))));
    BOOST_TEST((values(a) != values(bsx::eval(other.uniform<double>(shape)))));
    // The stream is fixed when the call is made: a lazy expression evaluated twice, or
    // after later calls, gives the same values.
    const auto lazy = g.normal<double>(shape);
    const auto once = bsx::eval(lazy);
    (void)g.normal<double>(shape);
    BOOST_TEST((values(once) == values(bsx::eval(lazy))));
    BOOST_TEST(g.calls() == 4u);
}

BOOST_AUTO_TEST_CASE(uniform_in_range_with_moments) {
    rnd::generator g(2024);
    const auto u = bsx::eval(g.uniform<double>(bsx::shape_t<1>{1000000}));
    BOOST_TEST(*std::min_element(u.begin(), u.end()) >= 0.0);
    BOOST_TEST(*std::max_element(u.begin(), u.end()) < 1.0);
    const moments m = moments_of(u);
    BOOST_TEST(std::abs(m.mean - 0.5) < 0.005);  // the mean's standard error is 0.0003
    BOOST_TEST(std::abs(m.variance - 1.0 / 12) < 0.005);
    const auto w = bsx::eval(g.uniform<float>(bsx::shape_t<2>{1000, 1000}, -3.0f, 5.0f));
    BOOST_TEST(*std::min_element(w.begin(), w.end()) >= -3.0f);
    BOOST_TEST(*std::max_element(w.begin(), w.end()) < 5.0f);
    BOOST_TEST(std::abs(moments_of(w).mean - 1.0) < 0.05);
    // An interval one value wide: lo + width * u would round to hi for u near 1.
    const double lo = 1e16, hi = std::nextafter(lo, 2e16);
    const auto t = bsx::eval(g.uniform<double>(bsx::shape_t<1>{10000}, lo, hi));
    BOOST_TEST(std::all_of(t.begin(), t.end(), [&](double v) { return v == lo; }));
    BOOST_TEST(g.uniform<double>(bsx::shape_t<1>{0}).size() == 0);
}

BOOST_AUTO_TEST_CASE(normal_moments) {
    rnd::generator g(99);
    const auto z = bsx::eval(g.normal<double>(bsx::shape_t<1>{1000000}, 2.0, 3.0));
    const moments m = moments_of(z);
    BOOST_TEST(std::abs(m.mean - 2.0) < 0.05);                               // standard error 0.003
    BOOST_TEST(std::abs(m.variance - 9.0) < 0.2);                            // standard error 0.013
    BOOST_TEST(std::abs(m.fourth / (m.variance * m.variance) - 3.0) < 0.1);  // a normal's kurtosis
    BOOST_TEST(std::all_of(z.begin(), z.end(), [](double v) { return std::isfinite(v); }));
    // Within 3 standard deviations: 99.73%.
    const auto inside = std::count_if(z.begin(), z.end(), [](double v) { return std::abs(v - 2.0) < 9.0; });
    BOOST_TEST(std::abs(double(inside) / 1e6 - 0.9973) < 0.001);
    const auto f = bsx::eval(g.normal<float>(bsx::shape_t<1>{100000}));
    BOOST_TEST(std::abs(moments_of(f).mean) < 0.05);
    const auto c = bsx::eval(g.normal<double>(bsx::shape_t<1>{10}, 5.0, 0.0));  // stddev 0: the mean
    BOOST_TEST(std::all_of(c.begin(), c.end(), [](double v) { return v == 5.0; }));
}

// The ziggurat's shape: counts in 64 bins of equal probability under the normal's CDF (the
// inner rectangles, the wedges and the tail beyond r = 3.654 each cover some), a
// chi-square of 63 degrees of freedom whose 99.99th percentile is 113.5; and the tail
// itself: P(|z| > r) = 2.58e-4, about 2580 of 10^7 (standard error 51), and the mean of
// |z| there, 3.8970 (standard error 0.0046; r + 1/r = 3.9278 if the tail's rejection
// step were skipped).
BOOST_AUTO_TEST_CASE(normal_matches_the_normal_distribution) {
    rnd::generator g(7);
    const index_t n = 10000000;
    const auto z = bsx::eval(g.normal<double>(bsx::shape_t<1>{n}));
    constexpr int bins = 64;
    std::vector<double> edges;  // the inner edges, at the normal's quantiles k / bins
    for (int k = 1; k < bins; ++k) {
        const double p = double(k) / bins;
        double lo = -10, hi = 10;  // bisection of 0.5 erfc(-x / sqrt 2) = p
        for (int step = 0; step < 100; ++step) {
            const double mid = (lo + hi) / 2;
            (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? lo : hi) = mid;
        }
        edges.push_back(lo);
    }
    std::vector<index_t> count(bins, 0);
    const double r = 3.6541528853610088;
    index_t tail = 0;
    double tail_sum = 0;
    for (const double v : z) {
        ++count[std::size_t(std::upper_bound(edges.begin(), edges.end(), v) - edges.begin())];
        if (std::abs(v) > r) ++tail, tail_sum += std::abs(v);
    }
    const double expected = double(n) / bins;
    double chi2 = 0;
    for (const index_t c : count) chi2 += (double(c) - expected) * (double(c) - expected) / expected;
    BOOST_TEST(chi2 < 113.5);
    BOOST_TEST(std::abs(double(tail) - 2580.0) < 4 * 51.0);
    BOOST_TEST(std::abs(tail_sum / double(tail) - 3.8970) < 0.015);
}

BOOST_AUTO_TEST_CASE(integers_cover_the_range_without_bias) {
    rnd::generator g(5);
    const auto k = bsx::eval(g.integers<int>(-3, 4, bsx::shape_t<1>{700000}));
    std::vector<index_t> count(7, 0);
    bool in_range = true;
    for (int v : k) {
        in_range &= v >= -3 && v < 4;
        if (v >= -3 && v < 4) ++count[std::size_t(v + 3)];
    }
    BOOST_TEST(in_range);
    for (index_t c : count) BOOST_TEST(std::abs(double(c) - 1e5) < 3000.0);  // standard error 300
    // A range of 3 * 2^62: taking x mod range would put half the values below 2^62, not a third.
    const std::uint64_t range = 3 * (std::uint64_t{1} << 62);
    const auto big = bsx::eval(g.integers<std::uint64_t>(0, range, bsx::shape_t<1>{300000}));
    const auto low =
        std::count_if(big.begin(), big.end(), [](std::uint64_t v) { return v < (std::uint64_t{1} << 62); });
    BOOST_TEST(std::abs(double(low) / 300000 - 1.0 / 3) < 0.01);
    BOOST_TEST(std::all_of(big.begin(), big.end(), [&](std::uint64_t v) { return v < range; }));
    // The extremes of narrow and of the widest signed types.
    const auto b = bsx::eval(g.integers<std::int8_t>(-128, 127, bsx::shape_t<1>{100000}));
    BOOST_TEST(*std::min_element(b.begin(), b.end()) == -128);
    BOOST_TEST(*std::max_element(b.begin(), b.end()) == 126);
    const auto wide = bsx::eval(g.integers<std::int64_t>(
        std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(), bsx::shape_t<1>{1000}));
    const auto negative = std::count_if(wide.begin(), wide.end(), [](std::int64_t v) { return v < 0; });
    BOOST_TEST(std::abs(double(negative) - 500.0) < 100.0);
    const auto one = bsx::eval(g.integers<short>(9, 10, bsx::shape_t<1>{50}));
    BOOST_TEST(std::all_of(one.begin(), one.end(), [](short v) { return v == 9; }));
}

BOOST_AUTO_TEST_CASE(permutation_and_shuffle) {
    rnd::generator g(11), twin(11);
    const auto p = g.permutation(1000);
    std::vector<index_t> sorted(p.begin(), p.end());
    std::sort(sorted.begin(), sorted.end());
    bool is_permutation = true;
    for (index_t i = 0; i < 1000; ++i) is_permutation &= sorted[std::size_t(i)] == i;
    BOOST_TEST(is_permutation);
    const auto q = twin.permutation(1000);
    BOOST_TEST(std::equal(p.begin(), p.end(), q.begin()));  // deterministic for the seed
    const auto r = g.permutation(1000);
    BOOST_TEST(!std::equal(p.begin(), p.end(), r.begin()));  // a new call, a new order
    BOOST_TEST(g.permutation(0).size() == 0);
    BOOST_TEST(g.permutation(1)(0) == 0);

    // shuffle reorders rows by the permutation the same call would draw.
    bsx::array<int, 2> x({6, 3});
    for (index_t i = 0; i < 18; ++i) x.data()[i] = int(i);
    const auto original = x;
    while (twin.calls() < g.calls()) (void)twin.permutation(0);  // twin at g's call number
    g.shuffle(x);
    const auto order = twin.permutation(6);
    bool rows_moved = true;
    for (index_t i = 0; i < 6; ++i)
        for (index_t j = 0; j < 3; ++j) rows_moved &= x(i, j) == original(order(i), j);
    BOOST_TEST(rows_moved);
    bsx::array<double, 1> none(bsx::shape_t<1>{0});
    g.shuffle(none);
    BOOST_TEST(none.size() == 0);
}

BOOST_AUTO_TEST_CASE(errors_name_the_fault_and_consume_no_stream) {
    rnd::generator g(3);
    const bsx::shape_t<1> s{4};
    expect_throw<std::invalid_argument>([&] { (void)g.uniform<double>(s, 1.0, 1.0); },
                                        "bsx: random::generator::uniform: the interval [1.000000, 1.000000) is empty");
    expect_throw<std::invalid_argument>(
        [&] { (void)g.uniform<double>(s, 0.0, std::numeric_limits<double>::infinity()); }, "not finite");
    expect_throw<std::invalid_argument>(
        [&] { (void)g.uniform<double>(s, -std::numeric_limits<double>::max(), std::numeric_limits<double>::max()); },
        "not finite");
    expect_throw<std::invalid_argument>([&] { (void)g.normal<double>(s, 0.0, -1.0); },
                                        "bsx: random::generator::normal: the mean must be finite");
    expect_throw<std::invalid_argument>(
        [&] { (void)g.normal<double>(s, std::numeric_limits<double>::quiet_NaN(), 1.0); }, "mean nan");
    expect_throw<std::invalid_argument>([&] { (void)g.integers<int>(5, 5, s); },
                                        "bsx: random::generator::integers: the interval [5, 5) is empty");
    expect_throw<std::invalid_argument>([&] { (void)g.permutation(-1); },
                                        "bsx: random::generator::permutation: n is negative (-1)");
    expect_throw<std::invalid_argument>(
        [&] {
            (void)g.uniform<double>(bsx::shape_t<2>{3, -1});
        },
        "random::generator::uniform");
    BOOST_TEST(g.calls() == 0u);
    // The destination is untouched by a call that throws.
    bsx::array<double, 1> d(s, 8.0);
    expect_throw<std::invalid_argument>([&] { d = g.normal<double>(s, 0.0, -2.0) + 1.0; }, "stddev");
    BOOST_TEST(std::all_of(d.begin(), d.end(), [](double v) { return v == 8.0; }));
}
