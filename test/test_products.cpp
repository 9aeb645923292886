// Products (api.md section 10, "Products"): matmul, dot, inner, outer, vdot and einsum
// against NumPy's values (fixtures written by test/data/products/make_expected.py) and
// against plain loops, on the BLAS where bsx was built with one and always on bsx's own
// kernel too (tile and block edges, integer types, the same bits at any thread count),
// and every error path. Passes with and without BLAS (the minimal preset has none).
#define BOOST_TEST_MODULE bsx_products
#include <boost/test/unit_test.hpp>

#include <bsx/algorithm/einsum.hpp>
#include <bsx/algorithm/products.hpp>
#include <bsx/io/npy.hpp>

#include "test_support.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using bsx::index_t;
using bsx::detail::gemm_backend;
using test_support::expect_throw;

const std::string data_dir = std::string(BSX_TEST_DATA_DIR) + "/products/";

template <class T, std::size_t N>
bsx::array<T, N> fixture(const std::string& name) {
    return bsx::load_npy<T, N>(data_dir + name + ".npy");
}

/// got and want have the same shape and values within a relative 1e-12 of the largest
/// product sum's scale (sums of a few products of values in [-2, 2]).
template <class G, class W>
void expect_close(const G& lazy, const W& want, const std::string& what) {
    const bsx::array<bsx::value_type_t<G>, G::rank> got(lazy);
    BOOST_TEST_CONTEXT(what) {
        BOOST_TEST_REQUIRE(bsx::format_shape(got.shape()) == bsx::format_shape(want.shape()));
        for (index_t i = 0; i < want.size(); ++i)
            BOOST_TEST(double(got.data()[i]) == double(want.data()[i]), boost::test_tools::tolerance(1e-12));
    }
}

/// A scalar result against a 1-element fixture.
template <class T>
void expect_scalar(T got, const std::string& name) {
    const auto want = fixture<T, 1>(name + "_want");
    BOOST_TEST_REQUIRE(want.size() == 1);
    BOOST_TEST(got == want(0), boost::test_tools::tolerance(1e-12));
}

/// C = A B by the triple loop, in T (integers wrap: computed in uint64, then converted).
template <class T>
std::vector<T> loop_product(const std::vector<T>& a, const std::vector<T>& b, index_t m, index_t n, index_t k) {
    using U = std::conditional_t<std::is_integral_v<T>, std::uint64_t, T>;
    std::vector<T> c(std::size_t(m * n));
    for (index_t i = 0; i < m; ++i)
        for (index_t j = 0; j < n; ++j) {
            U s = 0;
            for (index_t p = 0; p < k; ++p) s = U(s + U(U(a[std::size_t(i * k + p)]) * U(b[std::size_t(p * n + j)])));
            c[std::size_t(i * n + j)] = T(s);
        }
    return c;
}

template <class T>
std::vector<T> values(std::size_t count, std::uint64_t seed) {
    const auto v = test_support::random_values(count, seed, -100.0, 100.0);
    std::vector<T> out(count);
    // Integers through int64 (negative values wrap into unsigned types, as conversions do).
    for (std::size_t i = 0; i < count; ++i)
        out[i] = std::is_integral_v<T> ? T(std::int64_t(std::round(v[i]))) : T(v[i]);
    return out;
}

/// matmul of random m x k and k x n matrices on `backend` against the loop: exact for
/// integers, within a relative 1e-10 of the sum of |products| for floating types.
template <class T>
void check_against_loop(gemm_backend backend, index_t m, index_t n, index_t k) {
    BOOST_TEST_CONTEXT("m = " << m << ", n = " << n << ", k = " << k) {
        const auto av = values<T>(std::size_t(m * k), 1 + std::uint64_t(m)), bv = values<T>(std::size_t(k * n), 7);
        const auto a = test_support::make_array<2, T>(bsx::shape_t<2>{m, k}, av);
        const auto b = test_support::make_array<2, T>(bsx::shape_t<2>{k, n}, bv);
        const auto want = loop_product(av, bv, m, n, k);
        const bsx::array<T, 2> got = bsx::detail::matmul_with(backend, a, b);
        BOOST_TEST_REQUIRE(got.shape() == (bsx::shape_t<2>{m, n}));
        index_t bad = 0;
        for (index_t i = 0; i < m * n; ++i) {
            const double g = double(got.data()[i]), w = double(want[std::size_t(i)]);
            // Both sums round at most k times, each by at most eps of a partial sum below k 1e4.
            const double bound = 2 * double(std::numeric_limits<T>::epsilon()) * double(k) * double(k) * 1e4;
            const bool ok = std::is_integral_v<T> ? got.data()[i] == want[std::size_t(i)] : std::abs(g - w) <= bound;
            if (!ok && bad++ < 5) BOOST_ERROR("element " << i << ": got " << g << ", want " << w);
        }
    }
}

}  // namespace

BOOST_AUTO_TEST_CASE(matmul_against_numpy) {
    const auto two = [](const std::string& name) {
        expect_close(bsx::matmul(fixture<double, 2>(name + "_a"), fixture<double, 2>(name + "_b")),
                     fixture<double, 2>(name + "_want"), name);
    };
    two("matmul_2d");
    two("matmul_empty_rows");
    two("matmul_empty_inner");
    expect_close(bsx::matmul(fixture<double, 1>("matmul_vec_mat_a"), fixture<double, 2>("matmul_vec_mat_b")),
                 fixture<double, 1>("matmul_vec_mat_want"), "vector @ matrix");
    expect_close(bsx::matmul(fixture<double, 2>("matmul_mat_vec_a"), fixture<double, 1>("matmul_mat_vec_b")),
                 fixture<double, 1>("matmul_mat_vec_want"), "matrix @ vector");
    expect_scalar(bsx::matmul(fixture<double, 1>("matmul_vec_vec_a"), fixture<double, 1>("matmul_vec_vec_b")),
                  "matmul_vec_vec");
    expect_close(bsx::matmul(fixture<double, 4>("matmul_batch_a"), fixture<double, 3>("matmul_batch_b")),
                 fixture<double, 4>("matmul_batch_want"), "batch axes broadcast");
    expect_close(bsx::matmul(fixture<double, 2>("matmul_batch_vec_a"), fixture<double, 3>("matmul_batch_vec_b")),
                 fixture<double, 3>("matmul_batch_vec_want"), "matrix @ stack");
    expect_close(bsx::matmul(fixture<double, 3>("matmul_stack_vec_a"), fixture<double, 1>("matmul_stack_vec_b")),
                 fixture<double, 2>("matmul_stack_vec_want"), "stack @ vector");
    const auto ints = bsx::matmul(fixture<std::int32_t, 2>("matmul_int_a"), fixture<std::int32_t, 2>("matmul_int_b"));
    static_assert(std::is_same_v<decltype(ints), const bsx::array<std::int32_t, 2>>);
    BOOST_TEST(bsx::array_equal(ints, fixture<std::int32_t, 2>("matmul_int_want")));
    // Empty inner axes give zeros, on both kernels.
    const auto zeros = bsx::detail::matmul_with(gemm_backend::own, fixture<double, 2>("matmul_empty_inner_a"),
                                                fixture<double, 2>("matmul_empty_inner_b"));
    BOOST_TEST(bsx::array_equal(zeros, bsx::zeros<double>(2, 3)));
}

BOOST_AUTO_TEST_CASE(matmul_of_expressions_and_mixed_types) {
    // Views and lazy expressions are evaluated once; int with double computes in double.
    const auto a = fixture<double, 2>("matmul_2d_a");
    const auto b = fixture<double, 2>("matmul_2d_b");
    const auto want = fixture<double, 2>("matmul_2d_want");
    expect_close(bsx::matmul(bsx::transpose(bsx::transpose(a)), b * 1.0), want, "views and expressions");
    const auto bt_at = bsx::matmul(bsx::transpose(b), bsx::transpose(a));
    expect_close(bsx::transpose(bt_at), want, "transposed operands");
    const bsx::array<int, 2> i{{1, 2}, {3, 4}};
    const bsx::array<double, 2> d{{0.5, 0}, {0, 0.25}};
    const auto mixed = bsx::matmul(i, d);
    static_assert(std::is_same_v<decltype(mixed), const bsx::array<double, 2>>);
    BOOST_TEST(bsx::array_equal(mixed, bsx::array<double, 2>{{0.5, 0.5}, {1.5, 1.0}}));
    // int8 products compute in int, as bsx's int8 * int8 does.
    const bsx::array<std::int8_t, 1> small{100, 100};
    static_assert(std::is_same_v<decltype(bsx::matmul(small, small)), int>);
    BOOST_TEST(bsx::matmul(small, small) == 20000);
}

BOOST_AUTO_TEST_CASE(matmul_into_out) {
    const auto a = fixture<double, 2>("matmul_2d_a");
    const auto b = fixture<double, 2>("matmul_2d_b");
    const auto want = fixture<double, 2>("matmul_2d_want");
    bsx::array<double, 2> out(want.shape(), -1.0);
    const double* const where = out.data();
    bsx::matmul(a, b, out);
    expect_close(out, want, "into out");
    BOOST_TEST(out.data() == where);  // written in place, not replaced
    // An operand as out: the product of the values before the call, as NumPy's out=.
    bsx::array<double, 2> sq{{1, 2}, {3, 4}};
    bsx::matmul(sq, sq, sq);
    BOOST_TEST(bsx::array_equal(sq, bsx::array<double, 2>{{7, 10}, {15, 22}}));
    bsx::array<double, 2> wrong(bsx::shape_t<2>{want.extent(1), want.extent(0)}, 5.0);
    if (wrong.shape() != want.shape()) {
        expect_throw<std::invalid_argument>([&] { bsx::matmul(a, b, wrong); }, "bsx: matmul: out has shape");
        BOOST_TEST(bsx::all(wrong == 5.0));
    }
}

BOOST_AUTO_TEST_CASE(own_kernel_against_loops) {
    // Edges of the register tile (6 rows, 2 vectors of columns), of the row block (96) and
    // of the k block (256), one element, a single row or column.
    for (auto backend : {gemm_backend::own, gemm_backend::any}) {
        check_against_loop<double>(backend, 1, 1, 1);
        check_against_loop<double>(backend, 7, 33, 5);
        check_against_loop<double>(backend, 97, 41, 300);
        check_against_loop<double>(backend, 1, 70, 20);
        check_against_loop<double>(backend, 70, 1, 20);
        check_against_loop<float>(backend, 13, 37, 260);
    }
    check_against_loop<std::int32_t>(gemm_backend::own, 37, 29, 270);
    check_against_loop<std::int64_t>(gemm_backend::own, 10, 50, 9);
    check_against_loop<std::uint16_t>(gemm_backend::own, 9, 70, 11);
    check_against_loop<std::uint8_t>(gemm_backend::own, 5, 130, 3);
}

BOOST_AUTO_TEST_CASE(integer_products_wrap) {
    // int64 sums that overflow wrap as bsx's integer arithmetic does (no trap, no UB).
    const std::int64_t big = std::int64_t(1) << 62;
    const bsx::array<std::int64_t, 2> a{{big, big}};
    const bsx::array<std::int64_t, 2> b{{2}, {2}};
    BOOST_TEST(bsx::matmul(a, b)(0, 0) == 0);
}

BOOST_AUTO_TEST_CASE(same_bits_at_any_thread_count) {
    const index_t n = 150;
    const auto a = test_support::make_array<2>(bsx::shape_t<2>{n, n}, test_support::random_values(n * n, 3));
    const auto b = test_support::make_array<2>(bsx::shape_t<2>{n, n}, test_support::random_values(n * n, 4));
    const bsx::array<double, 3> stack = bsx::broadcast_to(a, bsx::shape_t<3>{8, n, n}) * 1.0;
    bsx::array<double, 2> first;
    bsx::array<double, 3> first_stack;
    bool have = false;
    test_support::for_thread_counts([&] {
        const bsx::array<double, 2> c = bsx::detail::matmul_with(gemm_backend::own, a, b);
        const bsx::array<double, 3> s = bsx::detail::matmul_with(gemm_backend::own, stack, b);
        if (!have) {
            first = c;
            first_stack = s;
            have = true;
        }
        BOOST_TEST(std::memcmp(c.data(), first.data(), sizeof(double) * std::size_t(c.size())) == 0);
        BOOST_TEST(std::memcmp(s.data(), first_stack.data(), sizeof(double) * std::size_t(s.size())) == 0);
    });
    // Each matrix of a stack has the bits of the single product.
    BOOST_TEST(std::memcmp(first_stack.data() + 5 * n * n, first.data(), sizeof(double) * std::size_t(n * n)) == 0);
}

BOOST_AUTO_TEST_CASE(dot_inner_outer_vdot_against_numpy) {
    expect_close(bsx::dot(fixture<double, 2>("dot_2d_a"), fixture<double, 2>("dot_2d_b")),
                 fixture<double, 2>("dot_2d_want"), "dot 2-D");
    expect_close(bsx::dot(fixture<double, 3>("dot_nd_a"), fixture<double, 3>("dot_nd_b")),
                 fixture<double, 4>("dot_nd_want"), "dot N-D");
    expect_close(bsx::dot(fixture<double, 1>("dot_vec_nd_a"), fixture<double, 3>("dot_vec_nd_b")),
                 fixture<double, 2>("dot_vec_nd_want"), "dot 1-D with N-D");
    const bsx::array<double, 0> two(2.0);
    BOOST_TEST(bsx::array_equal(bsx::dot(two, bsx::array<double, 1>{1, 2}), bsx::array<double, 1>{2, 4}));
    expect_close(bsx::inner(fixture<double, 2>("inner_2d_a"), fixture<double, 2>("inner_2d_b")),
                 fixture<double, 2>("inner_2d_want"), "inner 2-D");
    expect_close(bsx::inner(fixture<double, 3>("inner_nd_a"), fixture<double, 1>("inner_nd_b")),
                 fixture<double, 2>("inner_nd_want"), "inner N-D with 1-D");
    BOOST_TEST(bsx::inner(bsx::array<int, 1>{1, 2, 3}, bsx::array<int, 1>{4, 5, 6}) == 32);
    expect_close(bsx::outer(fixture<double, 2>("outer_a"), fixture<double, 1>("outer_b")),
                 fixture<double, 2>("outer_want"), "outer");
    expect_scalar(bsx::vdot(fixture<double, 2>("vdot_a"), fixture<double, 2>("vdot_b")), "vdot");
}

BOOST_AUTO_TEST_CASE(einsum_against_numpy) {
    const auto two = [](const std::string& name, const auto& got, auto want) { expect_close(got, want, name); };
    const auto f2 = [](const std::string& name) { return fixture<double, 2>(name); };
    two("contraction", bsx::einsum<"ij,jk->ik">(f2("einsum_contract_a"), f2("einsum_contract_b")),
        f2("einsum_contract_want"));
    two("contraction, result transposed",
        bsx::einsum<"ij,jk->ki">(f2("einsum_contract_t_a"), f2("einsum_contract_t_b")), f2("einsum_contract_t_want"));
    two("batched",
        bsx::einsum<"bij,bjk->bik">(fixture<double, 3>("einsum_batch_a"), fixture<double, 3>("einsum_batch_b")),
        fixture<double, 3>("einsum_batch_want"));
    two("mixed order", bsx::einsum<"ijk,jl->lik">(fixture<double, 3>("einsum_mixed_a"), f2("einsum_mixed_b")),
        fixture<double, 3>("einsum_mixed_want"));
    two("transpose", bsx::einsum<"ij->ji">(f2("einsum_transpose_a")), f2("einsum_transpose_want"));
    expect_scalar(bsx::einsum<"ii->">(f2("einsum_trace_a")), "einsum_trace");
    two("diagonal", bsx::einsum<"ii->i">(f2("einsum_diagonal_a")), fixture<double, 1>("einsum_diagonal_want"));
    two("outer", bsx::einsum<"i,j->ij">(fixture<double, 1>("einsum_outer_a"), fixture<double, 1>("einsum_outer_b")),
        f2("einsum_outer_want"));
    two("row dot", bsx::einsum<"ij,ij->i">(f2("einsum_rowdot_a"), f2("einsum_rowdot_b")),
        fixture<double, 1>("einsum_rowdot_want"));
    expect_scalar(bsx::einsum<"ij->">(f2("einsum_total_a")), "einsum_total");
    const auto ints =
        bsx::einsum<"ij,jk->ik">(fixture<std::int64_t, 2>("einsum_int_a"), fixture<std::int64_t, 2>("einsum_int_b"));
    BOOST_TEST(bsx::array_equal(ints, fixture<std::int64_t, 2>("einsum_int_want")));
    // The trace of a lazy expression, and a contraction equal to matmul's bits.
    const auto a = f2("einsum_contract_a"), b = f2("einsum_contract_b");
    BOOST_TEST(bsx::einsum<"ii->">(bsx::matmul(a, bsx::transpose(a)) + 0.0) == bsx::sum(a * a),
               boost::test_tools::tolerance(1e-12));
    BOOST_TEST(bsx::array_equal(bsx::einsum<"ij,jk->ik">(a, b), bsx::matmul(a, b)));
}

BOOST_AUTO_TEST_CASE(errors_name_the_shapes) {
    const bsx::array<double, 2> a(bsx::shape_t<2>{2, 3}, 1.0), b(bsx::shape_t<2>{4, 5}, 1.0);
    const bsx::array<double, 1> v(bsx::shape_t<1>{4}, 1.0);
    expect_throw<std::invalid_argument>([&] { (void)bsx::matmul(a, b); },
                                        "bsx: matmul: shapes (2,3) and (4,5) do not match: the last axis of the first "
                                        "(3) differs from the second-to-last axis of the second (4)");
    expect_throw<std::invalid_argument>(
        [&] { (void)bsx::matmul(a, v); },
        "shapes (2,3) and (4,) do not match: the last axis of the first (3) differs from the only axis");
    expect_throw<std::invalid_argument>([&] { (void)bsx::matmul(v, a); },
                                        "shapes (4,) and (2,3) do not match: the only axis of the first (4)");
    const bsx::array<double, 3> s2(bsx::shape_t<3>{2, 3, 3}, 1.0), s3(bsx::shape_t<3>{3, 3, 3}, 1.0);
    expect_throw<bsx::broadcast_error>([&] { (void)bsx::matmul(s2, s3); },
                                       "batch axes of shapes (2,3,3) and (3,3,3) do not broadcast: 2 against 3");
    expect_throw<std::invalid_argument>([&] { (void)bsx::dot(a, b); }, "bsx: dot: shapes (2,3) and (4,5)");
    expect_throw<std::invalid_argument>(
        [&] {
            (void)bsx::dot(s2, bsx::array<double, 3>(bsx::shape_t<3>{2, 2, 3}));
        },
        "bsx: dot: shapes (2,3,3) and (2,2,3)");
    expect_throw<std::invalid_argument>([&] { (void)bsx::inner(a, b); },
                                        "bsx: inner: shapes (2,3) and (4,5) do not match: their last axes differ");
    expect_throw<std::invalid_argument>([&] { (void)bsx::vdot(a, v); },
                                        "bsx: vdot: shapes (2,3) and (4,) have different sizes (6 and 4)");
    expect_throw<std::invalid_argument>([&] { (void)bsx::einsum<"ij,jk->ik">(a, a); },
                                        "bsx: einsum: \"ij,jk->ik\": subscript 'j' has extent 3 elsewhere but 2 on "
                                        "axis 0 of operand 1 (shape (2,3))");
    expect_throw<std::invalid_argument>([&] { (void)bsx::einsum<"ii->">(a); }, "subscript 'i' has extent 2");
    expect_throw<std::invalid_argument>([&] { (void)bsx::einsum<"ij,ij->ij">(a, b); }, "subscript 'i'");
}
