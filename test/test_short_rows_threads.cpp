// Math on views whose rows are short (issue 36): rows that lie one after another in the
// destination are staged into the math node's tiles and computed by one kernel call, and a
// block's tail is loaded and stored under a mask. Every function is element-wise, so the
// results must be, bit for bit, those of the same function on a contiguous copy of the view
// (one long row): for rows of 1, 3, 16, 100 and 1000 elements, rows reversed, both axes
// reversed, transposed, an argument that is not in memory, two arguments, destinations at
// an offset, streamed destinations, and a destination that the argument reads. At 1, 2 and
// 3 threads here, and the file name registers it at OMP_NUM_THREADS 1 and 2 as well.
#define BOOST_TEST_MODULE bsx short rows
// Small cases take the parallel and the streamed paths here, whatever the machine's cache.
#define BSX_PARALLEL_THRESHOLD 2048
#define BSX_STREAMING_THRESHOLD (std::size_t{64} << 10)
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "test_support.hpp"

namespace {

using bsx::index_t;
using test_support::expect_same_bits;
using test_support::for_thread_counts;

/// rows x cols values in [-4, 4), with specials among them: NaN, infinities, zeros, a
/// subnormal, the largest finite value and arguments where exp overflows (SLEEF's early
/// overflows are redone by libm, element by element).
template <class T>
bsx::array<T, 2> values(index_t rows, index_t cols, unsigned seed) {
    using limits = std::numeric_limits<T>;
    const T specials[] = {limits::quiet_NaN(),
                          limits::infinity(),
                          -limits::infinity(),
                          T(0),
                          T(-0.0),
                          limits::denorm_min(),
                          limits::max(),
                          std::log(limits::max()),
                          T(88.72),
                          T(709.78),
                          T(1e30)};
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-4, 4);
    auto x = bsx::zeros<T>(rows, cols);
    index_t k = 0;
    for (T& v : x) {
        v = k % 13 == 5 ? specials[std::size_t(k / 13) % std::size(specials)] : static_cast<T>(u(rng));
        ++k;
    }
    return x;
}

/// f(v) into a fresh array, into rows at an offset of one row and of one element, each
/// against f of a contiguous copy of v.
template <class T, class F>
void check_function(const char* name, F f, const bsx::strided_view<const T, 2>& v,
                    const bsx::strided_view<const T, 2>& w, const std::string& layout) {
    const index_t rows = v.shape()[0], cols = v.shape()[1];
    const bsx::array<T, 2> vc = v, wc = w;
    const bsx::array<T, 2> want = f(vc, wc);
    const std::string what = std::string(name) + " on " + layout;

    const bsx::array<T, 2> fresh = f(v, w);
    expect_same_bits<T>(fresh, want, what + ", fresh destination");

    auto below = bsx::zeros<T>(rows + 1, cols);
    auto shifted = bsx::slice(below, bsx::range(1, rows + 1));
    shifted = f(v, w);
    expect_same_bits<T>(shifted, want, what + ", destination one row in");
    BOOST_TEST(below(0, 0) == T(0));

    auto flat = bsx::zeros<T>(rows * cols + 1);
    auto offset = bsx::reshape<2>(bsx::slice(flat, bsx::range(1, rows * cols + 1)), {rows, cols});
    offset = f(v, w);
    expect_same_bits<T>(offset, want, what + ", destination one element in");
    BOOST_TEST(flat(0) == T(0));
}

template <class T, class Check>
void for_each_function(Check check) {
    check("exp", [](const auto& x, const auto&) { return bsx::exp(x); });
    check("sin", [](const auto& x, const auto&) { return bsx::sin(x); });
    check("cos", [](const auto& x, const auto&) { return bsx::cos(x); });
    check("log", [](const auto& x, const auto&) { return bsx::log(x); });
    check("sqrt", [](const auto& x, const auto&) { return bsx::sqrt(x); });
    check("exp(2x)", [](const auto& x, const auto&) { return bsx::exp(x * T(2)); });
    check("pow", [](const auto& x, const auto& y) { return bsx::pow(x, y); });
}

/// Rows of `cols` elements, enough of them to run in parallel, in every layout.
template <class T>
void check_row_length(index_t cols) {
    const index_t rows = std::max<index_t>(40, 20000 / cols);
    const auto a = values<T>(rows + 2, 3 * cols + 5, unsigned(cols));
    const auto b = values<T>(rows + 2, 3 * cols + 5, unsigned(cols) + 1);
    const auto at = values<T>(cols, rows, unsigned(cols) + 2);
    const auto bt = values<T>(cols, rows, unsigned(cols) + 3);
    using view = bsx::strided_view<const T, 2>;
    const struct {
        const char* name;
        view x, y;
    } layouts[] = {
        {"rows of a wider array", bsx::slice(a, bsx::range(1, rows + 1), bsx::range(2, cols + 2)),
         bsx::slice(b, bsx::range(1, rows + 1), bsx::range(2, cols + 2))},
        {"rows reversed", bsx::slice(a, bsx::range(rows, 0, -1), bsx::range(2, cols + 2)),
         bsx::slice(b, bsx::range(rows, 0, -1), bsx::range(2, cols + 2))},
        {"both axes reversed", bsx::slice(a, bsx::range(rows, 0, -1), bsx::range(cols + 1, 1, -1)),
         bsx::slice(b, bsx::range(rows, 0, -1), bsx::range(cols + 1, 1, -1))},
        {"transposed", bsx::transpose(at), bsx::transpose(bt)},
        {"every other column", bsx::slice(a, bsx::range(1, rows + 1), bsx::range(0, 2 * cols, 2)),
         bsx::slice(b, bsx::range(1, rows + 1), bsx::range(0, 2 * cols, 2))},
    };
    for_thread_counts([&] {
        for (const auto& lay : layouts)
            for_each_function<T>([&](const char* name, auto f) {
                check_function<T>(name, f, lay.x, lay.y, std::string(lay.name) + ", rows of " + std::to_string(cols));
            });
    });
}

/// The destination is read by its own argument: transposed (a copy is made first), and
/// the element written plus its row's first element (read in place, before the row is
/// written, also when the rows are staged).
template <class T>
void check_reading_destination(index_t n) {
    const auto start = values<T>(n * 64, n, unsigned(n) + 7);
    for_thread_counts([&] {
        auto square = bsx::zeros<T>(n, n);
        square = bsx::slice(start, bsx::range(0, n));
        const bsx::array<T, 2> square_copy = square;
        square = bsx::exp(bsx::transpose(square));
        const bsx::array<T, 2> want_square = bsx::exp(bsx::transpose(square_copy));
        expect_same_bits<T>(square, want_square, "exp of its own transpose, n = " + std::to_string(n));

        auto tall = bsx::zeros<T>(n * 64, n);
        tall = start;
        const bsx::array<T, 2> tall_copy = tall;
        tall = bsx::sin(tall + bsx::slice(tall, bsx::all, bsx::range(0, 1)));
        const bsx::array<T, 2> want_tall = bsx::sin(tall_copy + bsx::slice(tall_copy, bsx::all, bsx::range(0, 1)));
        expect_same_bits<T>(tall, want_tall, "sin of itself plus its first column, rows of " + std::to_string(n));
    });
}

}  // namespace

BOOST_AUTO_TEST_CASE(short_rows_match_a_contiguous_copy_float) {
    for (index_t cols : {1, 3, 16, 100, 1000}) check_row_length<float>(cols);
}

BOOST_AUTO_TEST_CASE(short_rows_match_a_contiguous_copy_double) {
    for (index_t cols : {1, 3, 16, 100, 1000}) check_row_length<double>(cols);
}

BOOST_AUTO_TEST_CASE(short_rows_that_read_the_destination) {
    for (index_t n : {3, 16, 100}) {
        check_reading_destination<float>(n);
        check_reading_destination<double>(n);
    }
}

// Rows of 16 floats over 64 KiB: staged and streamed, each batch's results written from
// where its first row starts (64-byte aligned or not).
BOOST_AUTO_TEST_CASE(staged_rows_streamed) {
    const index_t rows = 4001, cols = 16;
    const auto a = values<float>(rows + 1, 40, 9);
    for_thread_counts([&] {
        for (index_t skip : {0, 1, 5}) {
            const auto v = bsx::slice(a, bsx::range(1, rows + 1), bsx::range(3, cols + 3));
            const bsx::array<float, 2> copy = v;
            const bsx::array<float, 2> want = bsx::exp(copy);
            auto flat = bsx::zeros<float>(rows * cols + skip);
            auto got = bsx::reshape<2>(bsx::slice(flat, bsx::range(skip, rows * cols + skip)), {rows, cols});
            got = bsx::exp(v);
            expect_same_bits<float>(got, want, "streamed rows of 16, destination " + std::to_string(skip) + " in");
        }
    });
}
