// test/test_native_math.cpp: math nodes compiled for this machine's own instruction set
// (-march=native, test/CMakeLists.txt). Where that has vectors of 256 bits or more (AVX),
// sqrt computes its argument inside its kernel, a vector at a time (vmath::sqrt::run_fused):
// an argument that is not in memory (sqrt(x*x + y*y)) instead of into a tile first, and a
// strided view where it lies (loop_kind::strided) instead of gathered first. A square root
// is correctly rounded, so the results must be, bit for bit, those of the argument
// evaluated into an array first: at every slice offset and stride, thread count and
// destination alignment (streamed stores), in place, inside a reduction and element by
// element.
#define BOOST_TEST_MODULE bsx native math
// Results from 16 MiB are streamed here, whatever the machine's cache (the default follows it).
#define BSX_STREAMING_THRESHOLD (std::size_t{16} << 20)
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "test_support.hpp"

namespace {

using bsx::index_t;

using test_support::expect_same_bits;
using test_support::same_bits;

/// Values whose roots are special next to ordinary ones: negative (NaN), -0, NaN, inf,
/// subnormal, the largest finite value.
template <class T>
bsx::array<T, 1> mixed(index_t n, unsigned seed, bool with_specials = true) {
    using limits = std::numeric_limits<T>;
    const T specials[] = {T(-1),         T(-0.0), limits::quiet_NaN(), limits::infinity(), limits::denorm_min(),
                          limits::max(), T(0),    -limits::infinity()};
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0, 3);
    auto x = bsx::zeros<T>(n);
    for (index_t i = 0; i < n; ++i)
        x(i) =
            with_specials && i % 7 == 3 ? specials[std::size_t(i / 7) % std::size(specials)] : static_cast<T>(u(rng));
    return x;
}

template <class T>
void check_against_evaluated_arguments() {
    const T one = 1;  // x * one is x, bit for bit (also -0, NaN, subnormals), but not in memory
    const auto x = mixed<T>(301, 1);
    const bsx::array<T, 1> want = bsx::sqrt(x);  // x in memory: the block kernel
    for (index_t i = 0; i < x.size(); ++i) {
        if (std::isnan(std::sqrt(x(i))))
            BOOST_TEST(std::isnan(want(i)));
        else
            BOOST_TEST(same_bits(want(i), std::sqrt(x(i))), "element " << i);
    }
    const bsx::array<T, 1> fused = bsx::sqrt(x * one);
    expect_same_bits<T>(fused, want, "sqrt(x * 1)");
    for (index_t k = 1; k <= 17; ++k) {  // every position within a vector
        const bsx::array<T, 1> part = bsx::sqrt(bsx::slice(x, bsx::range(k, x.size())) * one);
        expect_same_bits<T>(part, bsx::eval(bsx::slice(want, bsx::range(k, x.size()))), "a slice");
    }
    for (index_t i = 0; i < x.size(); ++i) BOOST_TEST(same_bits(bsx::sqrt(x * one)(i), want(i)));

    // In place: x = sqrt(x * 1) reads each element before it writes it.
    auto y = bsx::eval(x);
    y = bsx::sqrt(y * one);
    expect_same_bits<T>(y, want, "in place");

    // Large enough for threads; and inside a reduction, where the roots go to a tile and
    // then into the sum: the same sum as of the roots evaluated first.
    const auto big = mixed<T>(3 * BSX_PARALLEL_THRESHOLD + 123, 2);
    const bsx::array<T, 1> roots_of_big = bsx::sqrt(big);
    const auto ordinary = mixed<T>(3 * BSX_PARALLEL_THRESHOLD + 123, 3, false);
    const bsx::array<T, 1> ordinary_roots = bsx::sqrt(ordinary);
    test_support::for_thread_counts([&] {
        const bsx::array<T, 1> r = bsx::sqrt(big * one);
        expect_same_bits<T>(r, roots_of_big, "threads");
        BOOST_TEST(same_bits(T(bsx::sum(bsx::sqrt(ordinary * one))), T(bsx::sum(ordinary_roots))));
    });
}

template <class T>
void check_strided_views() {
    // At every stride the strided plan reads in place and the first one beyond it (gathered
    // into tiles), from every offset within a vector.
    const T one = 1;
    const auto x = mixed<T>(2003, 5);
    const bsx::array<T, 1> want = bsx::sqrt(x);
    for (index_t step = 2; step <= bsx::detail::max_strided_read + 1; ++step)
        for (index_t k = 0; k < 9; ++k) {
            const auto every = bsx::range(k, x.size(), step);
            const auto want_every = bsx::eval(bsx::slice(want, every));
            expect_same_bits<T>(bsx::sqrt(bsx::slice(x, every)), want_every, "a strided view");
            expect_same_bits<T>(bsx::sqrt(bsx::slice(x, every) * one), want_every, "computed from one");
        }
    // Every other column of a matrix: runs of whole rows, each stepped to the next, shared
    // among threads; beside a column (stride 0), the tiles.
    const auto flat = mixed<T>(120 * 300, 6);
    const bsx::array<T, 2> m = bsx::reshape<2>(flat, {120, 300});
    const bsx::array<T, 2> roots = bsx::sqrt(m);
    const auto odd = bsx::range(1, 300, 2);
    const auto columns = bsx::slice(m, bsx::all, odd);
    const auto ones_column = bsx::ones<T>(120, 1);
    auto r = bsx::zeros<T>(120, 150);
    constexpr bool fused = bsx::detail::fusing_kernels<bsx::detail::vmath::sqrt, T>;
    BOOST_TEST((bsx::detail::plan_assignment(r.data(), r.shape(), r.strides(), bsx::sqrt(columns)).kind ==
                bsx::detail::loop_kind::strided) == fused);
    test_support::for_thread_counts([&] {
        r = bsx::sqrt(columns);
        expect_same_bits<T>(r, bsx::slice(roots, bsx::all, odd), "every other column");
        r = bsx::sqrt(columns * ones_column);
        expect_same_bits<T>(r, bsx::slice(roots, bsx::all, odd), "beside a column");
    });
}

template <class T>
void check_streamed_outer() {
    // Above BSX_STREAMING_THRESHOLD, into a window whose rows start at every alignment:
    // the rows' heads take ordinary stores, the rest streaming ones.
    const index_t rows = sizeof(T) == 8 ? 2100 : 3000, cols = sizeof(T) == 8 ? 1100 : 1500;
    static_assert(BSX_STREAMING_THRESHOLD <= std::size_t{18} << 20, "the window must be streamed");
    const auto xv = mixed<T>(rows, 3), yv = mixed<T>(cols, 4);
    const auto xc = bsx::reshape<2>(xv, {rows, 1});
    const auto yr = bsx::reshape<2>(yv, {1, cols});
    const bsx::array<T, 2> argument = xc * xc + yr * yr;
    const bsx::array<T, 2> want = bsx::sqrt(argument);
    test_support::for_thread_counts([&] {
        auto big = bsx::zeros<T>(rows, cols + 3);
        auto window = bsx::slice(big, bsx::all, bsx::range(1, cols + 1));
        window = bsx::sqrt(xc * xc + yr * yr);
        expect_same_bits<T>(bsx::eval(window), want, "streamed outer");
        BOOST_TEST(big(0, 0) == T(0));
        BOOST_TEST(big(rows - 1, cols + 2) == T(0));
    });
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_fused_kernel_is_compiled_where_the_target_has_avx) {
    constexpr bool fused = bsx::detail::fusing_kernels<bsx::detail::vmath::sqrt, double>;
#if defined(__AVX__) && (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
    BOOST_TEST(fused);
#else
    BOOST_TEST(!fused);
#endif
}
BOOST_AUTO_TEST_CASE(fused_roots_are_those_of_evaluated_arguments_double) {
    check_against_evaluated_arguments<double>();
}
BOOST_AUTO_TEST_CASE(fused_roots_are_those_of_evaluated_arguments_float) { check_against_evaluated_arguments<float>(); }
BOOST_AUTO_TEST_CASE(strided_roots_double) { check_strided_views<double>(); }
BOOST_AUTO_TEST_CASE(strided_roots_float) { check_strided_views<float>(); }
BOOST_AUTO_TEST_CASE(streamed_outer_roots_double) { check_streamed_outer<double>(); }
BOOST_AUTO_TEST_CASE(streamed_outer_roots_float) { check_streamed_outer<float>(); }
