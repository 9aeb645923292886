// Tests of bsx::dist, run under mpirun with 1, 2 and 3 ranks. Every rank builds the same
// global arrays (fixed seeds), so each can compute the single-process reference itself;
// distributed results are gathered (or are already replicated) and compared with it:
// bit for bit, except for the vector math functions, whose chunk tails may round apart.

#include <bsx/dist.hpp>

#define BOOST_TEST_MODULE bsx_dist
#define BOOST_TEST_NO_MAIN
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unistd.h>
#include <utility>

namespace {

int world_rank() { return bsx::dist::detail::rank_in(MPI_COMM_WORLD); }
int world_size() { return bsx::dist::detail::size_of(MPI_COMM_WORLD); }

/// A global array with values in [-50, 50), the same on every rank for the same seed.
template <std::size_t N>
bsx::array<double, N> random_array(const bsx::shape_t<N>& shape, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> value(-50.0, 50.0);
    bsx::array<double, N> a(shape);
    for (double& x : a) x = value(rng);
    return a;
}

/// Element-wise equality of the bits of two arrays of one shape (0.0 and -0.0 differ).
template <class T, std::size_t N>
bool same_bits(const bsx::array<T, N>& a, const bsx::array<T, N>& b) {
    return a.shape() == b.shape() &&
           (a.size() == 0 || std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(T)) == 0);
}
template <class T>
bool same_bits(T a, T b) {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// d gathered on every rank (gather to root, then broadcast): the whole array anywhere.
template <class T, std::size_t N>
bsx::array<T, N> whole(const bsx::dist::array<T, N>& d) {
    bsx::array<T, N> all = bsx::dist::gather(d, 0);
    if (world_rank() != 0) all = bsx::array<T, N>(d.shape());
    MPI_Bcast(all.data(), int(all.size() * sizeof(T)), MPI_BYTE, 0, MPI_COMM_WORLD);
    return all;
}

/// True on every rank when it is true on every rank (the test's verdicts agree).
bool everywhere(bool ok) {
    int mine = ok ? 1 : 0, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all == 1;
}

}  // namespace

BOOST_AUTO_TEST_CASE(rows_split_into_near_equal_blocks) {
    for (const bsx::index_t rows : {0, 1, 2, 7, 10}) {
        bsx::dist::array<double, 2> d({rows, 3});
        BOOST_TEST(d.shape() == (bsx::shape_t<2>{rows, 3}));
        BOOST_TEST(d.local().shape()[0] == d.local_rows());
        // Offsets and block lengths tile [0, rows) in rank order, lengths differ by <= 1.
        bsx::index_t mine[2] = {d.offset(), d.local_rows()};
        std::vector<bsx::index_t> all(2 * std::size_t(world_size()));
        MPI_Allgather(mine, 2 * sizeof(bsx::index_t), MPI_BYTE, all.data(), 2 * sizeof(bsx::index_t), MPI_BYTE,
                      MPI_COMM_WORLD);
        bsx::index_t next = 0, shortest = rows, longest = 0;
        for (int r = 0; r < world_size(); ++r) {
            BOOST_TEST(all[2 * std::size_t(r)] == next);
            next += all[2 * std::size_t(r) + 1];
            shortest = std::min(shortest, all[2 * std::size_t(r) + 1]);
            longest = std::max(longest, all[2 * std::size_t(r) + 1]);
        }
        BOOST_TEST(next == rows);
        BOOST_TEST(longest - shortest <= 1);
    }
}

BOOST_AUTO_TEST_CASE(factories_fill_every_rank_s_rows) {
    BOOST_TEST(same_bits(whole(bsx::dist::zeros<double>(5, 3)), bsx::zeros<double>(5, 3)));
    BOOST_TEST(same_bits(whole(bsx::dist::ones<float>(4, 2, 2)), bsx::ones<float>(4, 2, 2)));
    const auto f = bsx::dist::full(bsx::shape_t<2>{7, 2}, 2.5);
    BOOST_TEST(f.shape() == (bsx::shape_t<2>{7, 2}));
    BOOST_TEST(same_bits(whole(f), bsx::full(bsx::shape_t<2>{7, 2}, 2.5)));
}

BOOST_AUTO_TEST_CASE(scatter_gather_round_trips) {
    const auto check = [](const auto& g) {
        // Only the root's argument counts: the others pass an empty array.
        const auto d = bsx::dist::scatter(world_rank() == 0 ? g : std::remove_cvref_t<decltype(g)>{});
        BOOST_TEST(d.shape() == g.shape());
        const auto back = bsx::dist::gather(d);
        if (world_rank() == 0)
            BOOST_TEST(same_bits(back, g));
        else
            BOOST_TEST(back.size() == 0);
        BOOST_TEST(same_bits(whole(d), g));
    };
    check(random_array<2>({7, 5}, 1));
    check(random_array<2>({2, 3}, 2));  // fewer rows than ranks (under -np 3)
    check(random_array<2>({0, 4}, 3));
    check(random_array<1>({11}, 4));
    check(random_array<3>({5, 2, 3}, 5));
}

BOOST_AUTO_TEST_CASE(element_wise_operations_match_one_process) {
    const auto ga = random_array<2>({9, 6}, 10), gb = random_array<2>({9, 6}, 11);
    const auto a = bsx::dist::scatter(ga), b = bsx::dist::scatter(gb);
    bsx::dist::array<double, 2> d({9, 6});
    // Arithmetic, unary, comparison and selection operators, functions, scalars.
    d = a + b * 2.0 - a / (b * b + 1.0);
    BOOST_TEST(same_bits(whole(d), bsx::array<double, 2>(ga + gb * 2.0 - ga / (gb * gb + 1.0))));
    d = -a + bsx::where(a > b, a, b) + bsx::max(a, 0.0);
    BOOST_TEST(same_bits(whole(d), bsx::array<double, 2>(-ga + bsx::where(ga > gb, ga, gb) + bsx::max(ga, 0.0))));
    bsx::dist::array<bool, 2> less({9, 6});
    less = a < b && !(a == b);
    BOOST_TEST(same_bits(whole(less), bsx::array<bool, 2>(ga < gb && !(ga == gb))));
    d = 3.5;
    BOOST_TEST(same_bits(whole(d), bsx::array<double, 2>({9, 6}, 3.5)));
    // Vector math: SLEEF's vector and scalar tails may round differently, so within 4 ulp.
    d = bsx::exp(a / 50.0) + bsx::sqrt(bsx::abs(b));
    const bsx::array<double, 2> expect = bsx::exp(ga / 50.0) + bsx::sqrt(bsx::abs(gb));
    const auto got = whole(d);
    for (bsx::index_t i = 0; i < got.size(); ++i)
        BOOST_TEST(got.data()[i] == expect.data()[i], boost::test_tools::tolerance(1e-15));
    // Construction from an expression, and element-wise copy of a distributed array.
    const bsx::dist::array<double, 2> c(a * b);
    BOOST_TEST(same_bits(whole(c), bsx::array<double, 2>(ga * gb)));
    d = c;
    BOOST_TEST(same_bits(whole(d), bsx::array<double, 2>(ga * gb)));
}

BOOST_AUTO_TEST_CASE(rank_1_arrays_split_their_only_axis) {
    const auto gv = random_array<1>({11}, 15), rep = random_array<1>({11}, 16);
    auto v = bsx::dist::scatter(gv);
    v = v * 2.0 + rep - 1.0;
    const bsx::array<double, 1> expect = gv * 2.0 + rep - 1.0;
    BOOST_TEST(same_bits(whole(v), expect));
    BOOST_TEST(same_bits(bsx::dist::sum(v), bsx::sum(expect)));
    BOOST_TEST(same_bits(bsx::dist::sum(v, bsx::axis(0)), bsx::array<double, 0>(bsx::sum(expect, bsx::axis(0)))));
}

BOOST_AUTO_TEST_CASE(replicated_operands_broadcast_along_the_split_axis) {
    const auto ga = random_array<2>({10, 4}, 20);
    const auto a = bsx::dist::scatter(ga);
    const auto row = random_array<2>({1, 4}, 21);   // (1, n): broadcast over the rows
    const auto vec = random_array<1>({4}, 22);      // (n,): NumPy puts it on the last axis
    const auto col = random_array<2>({10, 1}, 23);  // (m, 1): spans the split axis
    const auto full = random_array<2>({10, 4}, 24);
    bsx::dist::array<double, 2> d({10, 4});
    d = a * row + vec - col + full;
    BOOST_TEST(same_bits(whole(d), bsx::array<double, 2>(ga * row + vec - col + full)));
    // A lazy replicated subexpression, and the destination as its own operand.
    d = a + (full * col) * 0.5;
    BOOST_TEST(same_bits(whole(d), bsx::array<double, 2>(ga + (full * col) * 0.5)));
    d = d * d;
    const bsx::array<double, 2> squared = bsx::array<double, 2>(ga + (full * col) * 0.5);
    BOOST_TEST(same_bits(whole(d), bsx::array<double, 2>(squared * squared)));
    // A replicated array alone (broadcast along the rows, and one that spans them).
    d = row;
    BOOST_TEST(same_bits(whole(d), bsx::array<double, 2>(row + bsx::zeros<double>(10, 4))));
    d = full;
    BOOST_TEST(same_bits(whole(d), full));
    // Octave rules: a rank-1 operand lies on axis 0, the split one.
    const auto rows_vec = random_array<1>({10}, 25);
    d = a + bsx::with_rules<bsx::octave_rules>(rows_vec);
    const bsx::array<double, 2> octave_ref = ga + bsx::with_rules<bsx::octave_rules>(rows_vec);
    BOOST_TEST(same_bits(whole(d), octave_ref));
    d = bsx::with_rules<bsx::octave_rules>(a) * rows_vec;
    BOOST_TEST(same_bits(whole(d), bsx::array<double, 2>(bsx::with_rules<bsx::octave_rules>(ga) * rows_vec)));
    // XLA rules: equal ranks, or explicit broadcast dimensions (a replicated in_dims view).
    d = bsx::with_rules<bsx::xla_rules>(a) + bsx::in_dims<2>(vec, {1});
    BOOST_TEST(
        same_bits(whole(d), bsx::array<double, 2>(bsx::with_rules<bsx::xla_rules>(ga) + bsx::in_dims<2>(vec, {1}))));
}

// Assembly nodes hold their pieces outside children(); bsx::dist finds their types
// (operand_types) and refuses distributed pieces at compile time (test/dist/*_fails.cpp).
using dist_2 = bsx::dist::array<double, 2>;
static_assert(bsx::dist::detail::reads_distributed<decltype(bsx::concatenate({std::declval<const dist_2&>()}, 0))>());
static_assert(bsx::dist::detail::reads_distributed<decltype(bsx::tile(std::declval<const dist_2&>() + 1.0, {1, 2}))>());
static_assert(
    !bsx::dist::detail::reads_distributed<decltype(bsx::tile(std::declval<const bsx::array<double, 2>&>(), {1, 2}))>());

BOOST_AUTO_TEST_CASE(assembly_nodes_of_replicated_operands_combine_with_distributed_arrays) {
    const auto ga = random_array<2>({10, 4}, 26);
    const auto a = bsx::dist::scatter(ga);
    const auto top = random_array<2>({4, 4}, 27), bottom = random_array<2>({6, 4}, 28);
    const auto narrow = random_array<2>({10, 2}, 29);
    bsx::dist::array<double, 2> d({10, 4});
    // Spanning the split axis, each is read at this rank's rows.
    d = a + bsx::concatenate({top, bottom}, 0);
    BOOST_TEST(same_bits(whole(d), bsx::array<double, 2>(ga + bsx::concatenate({top, bottom}, 0))));
    d = a * bsx::tile(narrow, {1, 2}) - bsx::pad(narrow, {{0, 0}, {1, 1}}, bsx::pad_edge) + bsx::roll(ga, 3, 0);
    const bsx::array<double, 2> mixed_ref =
        ga * bsx::tile(narrow, {1, 2}) - bsx::pad(narrow, {{0, 0}, {1, 1}}, bsx::pad_edge) + bsx::roll(ga, 3, 0);
    BOOST_TEST(same_bits(whole(d), mixed_ref));
    // Inside reductions of distributed expressions: along axis 0, another axis, and whole.
    BOOST_TEST(same_bits(bsx::array<double, 1>(bsx::sum(a + bsx::roll(ga, 3, 0), bsx::axis(0))),
                         bsx::array<double, 1>(bsx::sum(ga + bsx::roll(ga, 3, 0), bsx::axis(0)))));
    const bsx::dist::array<double, 1> row_max = bsx::max(a - bsx::repeat(narrow, 2, 1), bsx::axis(1));
    BOOST_TEST(
        same_bits(whole(row_max), bsx::array<double, 1>(bsx::max(ga - bsx::repeat(narrow, 2, 1), bsx::axis(1)))));
    BOOST_TEST(same_bits(bsx::sum(a * bsx::vstack(top, bottom)), bsx::sum(ga * bsx::vstack(top, bottom))));
}

BOOST_AUTO_TEST_CASE(rows_are_fetched_from_their_owner_and_columns_read_locally) {
    const auto g = random_array<2>({8, 8}, 30);
    const auto a = bsx::dist::scatter(g);
    bsx::dist::array<double, 2> d({8, 8});
    for (bsx::index_t k = 0; k < 8; ++k) {  // rows held by every rank in turn
        const auto before = bsx::dist::bytes_communicated();
        d = a.col(k) + a.row(k) * 2.0;
        // One broadcast of n doubles (sent or received once by each rank).
        BOOST_TEST(bsx::dist::bytes_communicated() - before == 8 * sizeof(double));
        BOOST_TEST(same_bits(whole(d), bsx::array<double, 2>(g.col(k) + g.row(k) * 2.0)));
    }
    BOOST_CHECK_THROW(a.row(8), std::out_of_range);
    BOOST_CHECK_THROW(a.col(-1), std::out_of_range);
}

BOOST_AUTO_TEST_CASE(floyd_warshall_in_place_matches_one_process) {
    const bsx::index_t n = 13;
    auto g = random_array<2>({n, n}, 40);
    g = bsx::abs(g);
    auto dist = bsx::dist::scatter(g);
    for (bsx::index_t k = 0; k < n; ++k) {
        dist = bsx::min(dist, dist.col(k) + dist.row(k));
        g = bsx::min(g, g.col(k) + g.row(k));
    }
    BOOST_TEST(same_bits(whole(dist), g));
}

BOOST_AUTO_TEST_CASE(reductions_have_the_bits_of_one_process) {
    // 100 x 70: several blocks of the fixed plan, which straddle the ranks' rows.
    const auto ga = random_array<2>({100, 70}, 50);
    const auto row = random_array<2>({1, 70}, 51);
    const auto a = bsx::dist::scatter(ga);
    BOOST_TEST(same_bits(bsx::dist::sum(a), bsx::sum(ga)));
    BOOST_TEST(same_bits(bsx::dist::sum(a * row + 1.0), bsx::sum(ga * row + 1.0)));
    BOOST_TEST(same_bits(bsx::dist::mean(a), bsx::mean(ga)));
    BOOST_TEST(same_bits(bsx::dist::min(a), bsx::min(ga)));
    BOOST_TEST(same_bits(bsx::dist::max(a - row), bsx::max(ga - row)));
    BOOST_TEST(bsx::dist::all(a > -50.0) == bsx::all(ga > -50.0));
    BOOST_TEST(bsx::dist::any(a > 49.9) == bsx::any(ga > 49.9));
    BOOST_TEST(bsx::dist::all(a > 0.0) == bsx::all(ga > 0.0));
    for (const bsx::index_t k : {0, 1, -1}) {
        const auto axis = bsx::axis(k);
        BOOST_TEST(same_bits(bsx::dist::sum(a, axis), bsx::array<double, 1>(bsx::sum(ga, axis))));
        BOOST_TEST(same_bits(bsx::dist::sum(a * row, axis), bsx::array<double, 1>(bsx::sum(ga * row, axis))));
        BOOST_TEST(same_bits(bsx::dist::mean(a, axis), bsx::array<double, 1>(bsx::mean(ga, axis))));
        BOOST_TEST(same_bits(bsx::dist::min(a, axis), bsx::array<double, 1>(bsx::min(ga, axis))));
        BOOST_TEST(same_bits(bsx::dist::max(a, axis), bsx::array<double, 1>(bsx::max(ga, axis))));
        BOOST_TEST(same_bits(bsx::dist::all(a > -40.0, axis), bsx::array<bool, 1>(bsx::all(ga > -40.0, axis))));
        BOOST_TEST(same_bits(bsx::dist::any(a > 45.0, axis), bsx::array<bool, 1>(bsx::any(ga > 45.0, axis))));
    }
    // Float sums round at every step: the order of the tree shows in the bits.
    bsx::array<float, 2> gf = ga * 1e3;
    const auto f = bsx::dist::scatter(gf);
    BOOST_TEST(same_bits(bsx::dist::sum(f), bsx::sum(gf)));
    BOOST_TEST(same_bits(bsx::dist::sum(f, bsx::axis(0)), bsx::array<float, 1>(bsx::sum(gf, bsx::axis(0)))));
    // Rows and columns of a distributed array reduce too.
    BOOST_TEST(same_bits(bsx::dist::sum(a.row(57)), bsx::sum(ga.row(57))));
    BOOST_TEST(same_bits(bsx::dist::sum(a.col(3)), bsx::sum(ga.col(3))));
}

BOOST_AUTO_TEST_CASE(axis_0_reductions_combine_chunk_partials_as_one_process_does) {
    // 3000 rows: two blocks of the fixed plan, each of several chunks; the ranks' rows
    // start in the middle of chunks. 5 and 2 rows: one chunk, some ranks hold no row.
    for (const bsx::index_t rows : {3000, 5, 2}) {
        const auto gd = random_array<2>({rows, 3}, 80 + std::uint64_t(rows));
        const bsx::array<float, 2> gf = gd * 1e3;
        const auto row = random_array<1>({3}, 81);
        const auto d = bsx::dist::scatter(gd);
        const auto f = bsx::dist::scatter(gf);
        const auto axis = bsx::axis(0);
        const auto before = bsx::dist::bytes_communicated();
        const auto sums = bsx::dist::sum(f, axis);
        BOOST_TEST(same_bits(sums, bsx::array<float, 1>(bsx::sum(gf, axis))));
        if (rows == 3000)  // chunk partials and the rows of straddling chunks, not the whole array
            BOOST_TEST(bsx::dist::bytes_communicated() - before < 3000 * 3 * sizeof(float) / 4);
        BOOST_TEST(
            same_bits(bsx::dist::sum(d * row - 1.0, axis), bsx::array<double, 1>(bsx::sum(gd * row - 1.0, axis))));
        BOOST_TEST(same_bits(bsx::dist::mean(f, axis), bsx::array<float, 1>(bsx::mean(gf, axis))));
        BOOST_TEST(same_bits(bsx::dist::min(d, axis), bsx::array<double, 1>(bsx::min(gd, axis))));
        BOOST_TEST(same_bits(bsx::dist::max(d, axis), bsx::array<double, 1>(bsx::max(gd, axis))));
        BOOST_TEST(same_bits(bsx::dist::all(d > -49.0, axis), bsx::array<bool, 1>(bsx::all(gd > -49.0, axis))));
        BOOST_TEST(same_bits(bsx::dist::any(d > 49.0, axis), bsx::array<bool, 1>(bsx::any(gd > 49.0, axis))));
        BOOST_TEST(same_bits(bsx::dist::sum(f), bsx::sum(gf)));  // whole, over the flattened elements
        BOOST_TEST(same_bits(bsx::dist::mean(d * d), bsx::mean(gd * gd)));
        const bsx::array<int, 2> gi = bsx::cast<int>(gd);
        const auto di = bsx::dist::scatter(gi);
        BOOST_TEST(same_bits(bsx::dist::sum(di, axis), bsx::array<std::int64_t, 1>(bsx::sum(gi, axis))));
    }
    // Rank 3: the outputs are the rows' trailing axes, flattened.
    const auto g3 = random_array<3>({600, 2, 3}, 90);
    BOOST_TEST(same_bits(bsx::dist::sum(bsx::dist::scatter(g3), bsx::axis(0)),
                         bsx::array<double, 2>(bsx::sum(g3, bsx::axis(0)))));
}

BOOST_AUTO_TEST_CASE(whole_reductions_of_element_wise_expressions_combine_chunk_partials) {
    // 101 x 70 (7070 elements): four blocks; the ranks' rows start inside chunks.
    const auto ga = random_array<2>({101, 70}, 95), gb = random_array<2>({101, 70}, 96);
    const bsx::array<float, 2> gf = ga * 1e3;
    const auto a = bsx::dist::scatter(ga), b = bsx::dist::scatter(gb);
    const auto f = bsx::dist::scatter(gf);
    const auto before = bsx::dist::bytes_communicated();
    BOOST_TEST(same_bits(bsx::dist::sum(f), bsx::sum(gf)));
    // Chunk partials and the elements of straddling chunks, not the array (28 KB).
    BOOST_TEST(bsx::dist::bytes_communicated() - before < 101 * 70 * sizeof(float) / 8);
    BOOST_TEST(same_bits(bsx::dist::sum(a * b + 1.0), bsx::sum(ga * gb + 1.0)));
    BOOST_TEST(same_bits(bsx::dist::mean(bsx::with_rules<bsx::octave_rules>(f) * 2.0f),
                         bsx::mean(bsx::with_rules<bsx::octave_rules>(gf) * 2.0f)));
    BOOST_TEST(same_bits(bsx::dist::min(a - b), bsx::min(ga - gb)));
    BOOST_TEST(same_bits(bsx::dist::max(b), bsx::max(gb)));
    BOOST_TEST(bsx::dist::all(a < 50.0) == bsx::all(ga < 50.0));
    BOOST_TEST(bsx::dist::any(a > b + 99.0) == bsx::any(ga > gb + 99.0));
    // Empty: the identity, and min's error, on every rank.
    const auto empty = bsx::dist::scatter(bsx::array<double, 2>(bsx::shape_t<2>{0, 3}));
    BOOST_TEST(bsx::dist::sum(empty) == 0.0);
    BOOST_CHECK_THROW(bsx::dist::min(empty), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(bsx_reductions_of_distributed_expressions_have_the_bits_of_one_process) {
    // 100 x 70: several blocks of the fixed plan, which straddle the ranks' rows.
    const auto ga = random_array<2>({100, 70}, 110);
    const auto row = random_array<2>({1, 70}, 111);
    const auto a = bsx::dist::scatter(ga);
    // Near 1: the product of 7000 of them stays finite, and its rounding shows the tree.
    const bsx::array<double, 2> gp = 1.0 + ga / 5000.0;
    const auto p = bsx::dist::scatter(gp);
    // Whole: the same value on every rank, with replicated operands and scalars mixed in.
    BOOST_TEST(same_bits(bsx::sum(a), bsx::sum(ga)));
    BOOST_TEST(same_bits(bsx::prod(p), bsx::prod(gp)));
    BOOST_TEST(same_bits(bsx::mean(a * row + 1.0), bsx::mean(ga * row + 1.0)));
    BOOST_TEST(same_bits(bsx::min(a), bsx::min(ga)));
    BOOST_TEST(same_bits(bsx::max(a - row), bsx::max(ga - row)));
    BOOST_TEST((bsx::all(a >= -50.0) && !bsx::all(a > 0.0)));
    BOOST_TEST((bsx::any(a > 49.9) == bsx::any(ga > 49.9) && !bsx::any(a > 50.0)));
    // Along an axis, for each reduction: axis 0 gives an ordinary array on every rank; along
    // axis 1 the result stays distributed, each rank reducing its own rows without a message.
    const auto along = [](const auto& f, const auto& x, const auto& gx) {
        using V = bsx::value_type_t<decltype(f(gx, bsx::axis(0)))>;
        const bsx::array<V, 1> columns = f(x, bsx::axis(0));
        BOOST_TEST(same_bits(columns, bsx::array<V, 1>(f(gx, bsx::axis(0)))));
        const auto before = bsx::dist::bytes_communicated();
        const bsx::dist::array<V, 1> rows = f(x, bsx::axis(1));
        BOOST_TEST(bsx::dist::bytes_communicated() == before);
        const bsx::array<V, 1> expect = f(gx, bsx::axis(-1));
        BOOST_TEST(same_bits(whole(rows), expect));
        // Evaluated into an ordinary array instead, the rows' results are all-gathered.
        BOOST_TEST(same_bits(bsx::array<V, 1>(f(x, bsx::axis(-1))), expect));
    };
    along(bsx::sum, a, ga);
    along(bsx::prod, p, gp);
    along(bsx::mean, a * row, ga * row);
    along(bsx::min, a, ga);
    along(bsx::max, a - 1.0, ga - 1.0);
    along(bsx::all, a > -45.0, ga > -45.0);
    along(bsx::any, a > 45.0, ga > 45.0);
    BOOST_TEST(same_bits(bsx::dist::prod(p, bsx::axis(1)), bsx::array<double, 1>(bsx::prod(gp, bsx::axis(1)))));
    // Float sums round at every step: the order of the tree shows in the bits.
    const bsx::array<float, 2> gf = ga * 1e3;
    const auto f = bsx::dist::scatter(gf);
    BOOST_TEST(same_bits(bsx::sum(f), bsx::sum(gf)));
    along(bsx::sum, f, gf);
    // Inside larger expressions: an ordinary one (the reduction is computed once, then
    // read), a distributed one (along axis 1 each rank's rows, along axis 0 the whole
    // result, broadcast), and reductions of reductions.
    const auto vec = random_array<1>({70}, 112);
    const bsx::array<double, 1> scaled = bsx::sum(a, bsx::axis(0)) * 2.0 + vec;
    BOOST_TEST(same_bits(scaled, bsx::array<double, 1>(bsx::sum(ga, bsx::axis(0)) * 2.0 + vec)));
    bsx::dist::array<double, 2> d({100, 70});
    const auto before = bsx::dist::bytes_communicated();
    d = a - bsx::mean(a, bsx::axis(1), bsx::keepdims);
    BOOST_TEST(bsx::dist::bytes_communicated() == before);
    BOOST_TEST(same_bits(whole(d), bsx::array<double, 2>(ga - bsx::mean(ga, bsx::axis(1), bsx::keepdims))));
    d = a / bsx::max(bsx::abs(a), bsx::axis(0), bsx::keepdims) + row;
    BOOST_TEST(
        same_bits(whole(d), bsx::array<double, 2>(ga / bsx::max(bsx::abs(ga), bsx::axis(0), bsx::keepdims) + row)));
    BOOST_TEST(same_bits(bsx::sum(bsx::sum(a, bsx::axis(1))), bsx::sum(bsx::sum(ga, bsx::axis(1)))));
    BOOST_TEST(
        same_bits(bsx::array<double, 1>(bsx::max(a - bsx::mean(a, bsx::axis(0), bsx::keepdims), bsx::axis(0))),
                  bsx::array<double, 1>(bsx::max(ga - bsx::mean(ga, bsx::axis(0), bsx::keepdims), bsx::axis(0)))));
    BOOST_TEST(same_bits(bsx::mean(a * bsx::sum(a, bsx::axis(1), bsx::keepdims)),
                         bsx::mean(ga * bsx::sum(ga, bsx::axis(1), bsx::keepdims))));
    // The destination read by the reduction written into it: every output reads all of c,
    // which must be read as it was before (the gathered path, through a row).
    bsx::array<double, 1> c = vec, gc = vec;
    c = bsx::sum(bsx::in_dims<2>(c, {0}) * a.row(3), bsx::axis(0));
    gc = bsx::sum(bsx::in_dims<2>(gc, {0}) * ga.row(3), bsx::axis(0));
    BOOST_TEST(same_bits(c, gc));
    c = bsx::sum(a * c, bsx::axis(0));
    gc = bsx::sum(ga * gc, bsx::axis(0));
    BOOST_TEST(same_bits(c, gc));
    // Rank 3: along axes 1 and 2 the result keeps the split axis 0.
    const auto g3 = random_array<3>({30, 4, 5}, 113);
    const auto d3 = bsx::dist::scatter(g3);
    const bsx::array<double, 2> over_rows = bsx::sum(d3, bsx::axis(0));
    BOOST_TEST(same_bits(over_rows, bsx::array<double, 2>(bsx::sum(g3, bsx::axis(0)))));
    const bsx::dist::array<double, 2> over_columns = bsx::mean(d3, bsx::axis(-2));
    BOOST_TEST(same_bits(whole(over_columns), bsx::array<double, 2>(bsx::mean(g3, bsx::axis(1)))));
    const bsx::dist::array<double, 3> kept = bsx::min(d3, bsx::axis(2), bsx::keepdims);
    BOOST_TEST(same_bits(whole(kept), bsx::array<double, 3>(bsx::min(g3, bsx::axis(2), bsx::keepdims))));
    // Rows, columns and rank-1 arrays.
    BOOST_TEST(same_bits(bsx::sum(a.row(57)), bsx::sum(ga.row(57))));
    BOOST_TEST(same_bits(bsx::prod(p.col(3)), bsx::prod(gp.col(3))));
    const bsx::array<double, 1> row_sums = bsx::sum(a.row(5), bsx::axis(0));
    BOOST_TEST(same_bits(row_sums, bsx::array<double, 1>(bsx::sum(ga.row(5), bsx::axis(0)))));
    const bsx::dist::array<double, 1> column = bsx::max(a.col(3), bsx::axis(1));
    BOOST_TEST(same_bits(whole(column), bsx::array<double, 1>(bsx::max(ga.col(3), bsx::axis(1)))));
    const auto gv = random_array<1>({11}, 114);
    const auto v = bsx::dist::scatter(gv);
    BOOST_TEST(same_bits(bsx::mean(v), bsx::mean(gv)));
    const bsx::array<double, 0> total = bsx::sum(v, bsx::axis(0));
    BOOST_TEST(same_bits(total, bsx::array<double, 0>(bsx::sum(gv, bsx::axis(0)))));
}

BOOST_AUTO_TEST_CASE(bsx_reductions_of_distributed_integers_match_plain_loops) {
    // 37 x 5 values in [-20, 20], and 37 x 5 in {1, 2, 3} whose product wraps modulo 2^64.
    const bsx::index_t m = 37, n = 5;
    bsx::array<int, 2> gi(bsx::shape_t<2>{m, n}), gs(bsx::shape_t<2>{m, n});
    for (bsx::index_t i = 0; i < m; ++i)
        for (bsx::index_t j = 0; j < n; ++j) {
            gi(i, j) = int((i * 7 + j * 13) % 41) - 20;
            gs(i, j) = int(1 + (i + 2 * j) % 3);
        }
    const auto di = bsx::dist::scatter(gi), ds = bsx::dist::scatter(gs);
    std::int64_t total = 0;
    std::uint64_t product = 1;
    int lo = gi(0, 0), hi = gi(0, 0);
    bsx::array<std::int64_t, 1> column_sums(bsx::shape_t<1>{n}, 0), row_sums(bsx::shape_t<1>{m}, 0);
    bsx::array<std::int64_t, 1> column_products(bsx::shape_t<1>{n}, 1), row_products(bsx::shape_t<1>{m}, 1);
    bsx::array<int, 1> column_min(bsx::shape_t<1>{n}, 20), row_max(bsx::shape_t<1>{m}, -20);
    bsx::array<bool, 1> column_all(bsx::shape_t<1>{n}, true), row_any(bsx::shape_t<1>{m}, false);
    const auto times = [](std::int64_t x, int y) { return std::int64_t(std::uint64_t(x) * std::uint64_t(y)); };
    for (bsx::index_t i = 0; i < m; ++i)
        for (bsx::index_t j = 0; j < n; ++j) {
            const int x = gi(i, j);
            total += x;
            product *= std::uint64_t(gs(i, j));
            lo = std::min(lo, x);
            hi = std::max(hi, x);
            column_sums(j) += x;
            row_sums(i) += x;
            column_products(j) = times(column_products(j), gs(i, j));
            row_products(i) = times(row_products(i), gs(i, j));
            column_min(j) = std::min(column_min(j), x);
            row_max(i) = std::max(row_max(i), x);
            column_all(j) = column_all(j) && x != 0;
            row_any(i) = row_any(i) || x > 15;
        }
    BOOST_TEST(bsx::sum(di) == total);
    BOOST_TEST(bsx::prod(ds) == std::int64_t(product));
    BOOST_TEST(same_bits(bsx::mean(di), double(total) / double(m * n)));  // an exact sum, one division
    BOOST_TEST(bsx::min(di) == lo);
    BOOST_TEST(bsx::max(di) == hi);
    BOOST_TEST(bsx::all(di != 0) == bsx::all(column_all));
    BOOST_TEST(bsx::any(di > 15) == bsx::any(row_any));
    // Axis 0: ordinary arrays on every rank.
    BOOST_TEST(same_bits(bsx::array<std::int64_t, 1>(bsx::sum(di, bsx::axis(0))), column_sums));
    BOOST_TEST(same_bits(bsx::array<std::int64_t, 1>(bsx::prod(ds, bsx::axis(0))), column_products));
    BOOST_TEST(same_bits(bsx::array<int, 1>(bsx::min(di, bsx::axis(0))), column_min));
    BOOST_TEST(same_bits(bsx::array<bool, 1>(bsx::all(di, bsx::axis(0))), column_all));
    bsx::array<double, 1> column_means = bsx::mean(di, bsx::axis(0));
    for (bsx::index_t j = 0; j < n; ++j) BOOST_TEST(same_bits(column_means(j), double(column_sums(j)) / double(m)));
    // Axis 1: distributed; each rank holds its rows' results.
    const bsx::dist::array<std::int64_t, 1> sums = bsx::sum(di, bsx::axis(1)), products = bsx::prod(ds, bsx::axis(1));
    const bsx::dist::array<int, 1> maxima = bsx::max(di, bsx::axis(1));
    const bsx::dist::array<bool, 1> some = bsx::any(di > 15, bsx::axis(1));
    BOOST_TEST(sums.offset() == di.offset());
    BOOST_TEST(sums.local_rows() == di.local_rows());
    BOOST_TEST(same_bits(whole(sums), row_sums));
    BOOST_TEST(same_bits(whole(products), row_products));
    BOOST_TEST(same_bits(whole(maxima), row_max));
    BOOST_TEST(same_bits(whole(some), row_any));
}

BOOST_AUTO_TEST_CASE(bsx_reductions_of_distributed_expressions_raise_errors_on_every_rank) {
    const auto a = bsx::dist::scatter(random_array<2>({6, 6}, 120));
    const auto empty = bsx::dist::scatter(bsx::array<double, 2>(bsx::shape_t<2>{0, 3}));
    BOOST_TEST(bsx::sum(empty) == 0.0);
    BOOST_TEST(std::isnan(bsx::mean(empty)));
    const auto thrown = [](const auto& f, const std::string& what) {
        bool caught = false;
        try {
            f();
        } catch (const std::exception& e) {
            caught = std::string(e.what()).find(what) != std::string::npos;
        }
        return everywhere(caught);
    };
    BOOST_TEST(thrown([&] { (void)bsx::min(empty); }, "no elements"));
    BOOST_TEST(thrown([&] { (void)bsx::max(empty, bsx::axis(0)); }, "is empty"));
    BOOST_TEST(thrown([&] { (void)bsx::sum(a, bsx::axis(2)); }, "out of range"));
    // Along axis 1 the (6,) result is split along its axis 0, which NumPy's rules put on
    // the destination's axis 1.
    bsx::dist::array<double, 2> d({6, 6});
    BOOST_TEST(thrown([&] { d = a + bsx::sum(a, bsx::axis(1)); }, "axis 0"));
    BOOST_TEST(everywhere(true));  // every rank is still in step
}

BOOST_AUTO_TEST_CASE(errors_are_raised_on_every_rank) {
    const auto a = bsx::dist::scatter(random_array<2>({6, 4}, 60));
    bsx::dist::array<double, 2> d({6, 4}, 1.0);
    const auto wrong = random_array<2>({1, 5}, 61);
    bool thrown = false;
    try {
        d = a + wrong;
    } catch (const bsx::broadcast_error&) {
        thrown = true;
    }
    BOOST_TEST(everywhere(thrown));
    const auto other = bsx::dist::scatter(random_array<2>({5, 4}, 62));
    BOOST_CHECK_THROW(d = a + other, bsx::broadcast_error);
    // The same shape over another communicator: a different distribution.
    MPI_Comm copy;
    MPI_Comm_dup(MPI_COMM_WORLD, &copy);
    {
        const bsx::dist::array<double, 2> elsewhere({6, 4}, 2.0, copy);
        thrown = false;
        try {
            d = a + elsewhere;
        } catch (const std::invalid_argument& e) {
            thrown = std::string(e.what()).find("different communicators") != std::string::npos;
        }
        BOOST_TEST(everywhere(thrown));
        BOOST_CHECK_THROW(d = a.col(1) + elsewhere.row(0), std::invalid_argument);
    }
    MPI_Comm_free(&copy);
    // A distributed vector under NumPy rules lies on axis 1, not on the split axis 0 ...
    const auto vec = bsx::dist::scatter(random_array<1>({4}, 63));
    thrown = false;
    try {
        d = a + vec;
    } catch (const std::invalid_argument& e) {
        thrown = std::string(e.what()).find("axis 0") != std::string::npos;
    }
    BOOST_TEST(everywhere(thrown));
    // ... and under Octave rules on axis 0, split as the destination is.
    const auto gcol = random_array<1>({6}, 64);
    const auto col = bsx::dist::scatter(gcol);
    bsx::dist::array<double, 2> e({6, 4});
    e = bsx::with_rules<bsx::octave_rules>(col) * 2.0 + a;
    const bsx::array<double, 2> ga = whole(a);
    BOOST_TEST(same_bits(whole(e), bsx::array<double, 2>(bsx::with_rules<bsx::octave_rules>(gcol) * 2.0 + ga)));
    // Nothing was written, and every rank is still in step (the collective returns).
    BOOST_TEST(everywhere(same_bits(d.local(), bsx::array<double, 2>(d.local().shape(), 1.0))));
    BOOST_CHECK_THROW(bsx::dist::sum(a, bsx::axis(2)), std::out_of_range);
    BOOST_TEST(everywhere(true));
}

/// Whether f throws on every rank an exception of type E whose what() contains `what`
/// (every rank the same, as agree.hpp promises), and every rank is still in step after it.
template <class E, class F>
bool thrown_everywhere(F&& f, const std::string& what) {
    std::string got = "(no exception)";
    try {
        f();
    } catch (const E& e) {
        got = e.what();
    } catch (...) {
        got = "(another exception type)";
    }
    BOOST_TEST_INFO("rank " << world_rank() << ": " << got);
    // The lowest rank's text on every rank: the same exception everywhere.
    const std::string first = bsx::dist::detail::broadcast_string(got, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);  // a rank left in a collective would hang here (the test's timeout)
    return everywhere(got == first && got.find(what) != std::string::npos);
}

/// x, except on the last rank (rank 1 where there are more), where it throws: a user
/// function that fails on one rank only.
struct fails_on_one_rank {
    bool standard = true;
    double operator()(double x) const {
        if (world_rank() == std::min(1, world_size() - 1)) {
            if (standard) throw std::runtime_error("the user function refuses");
            throw 42;
        }
        return x;
    }
};

// Issue 35: a user function that threw on one rank left the others waiting in the next
// collective. Every operation now agrees on failure before its next collective, and every
// rank throws the same exception.
BOOST_AUTO_TEST_CASE(an_exception_on_one_rank_is_thrown_on_every_rank) {
    const auto g = random_array<2>({7, 5}, 90);
    const auto a = bsx::dist::scatter(g);
    const auto f = bsx::map(fails_on_one_rank{}, a);
    const std::string refuses = "the user function refuses";
    // Reductions: over all elements (flat), along axis 0 (chunks), along axis 1 (rows), of
    // an expression that reads a row (gathered), and a lazy one assigned to an ordinary array.
    BOOST_TEST(thrown_everywhere<std::runtime_error>([&] { (void)bsx::dist::sum(f); }, refuses));
    BOOST_TEST(thrown_everywhere<std::runtime_error>([&] { (void)bsx::dist::max(f, bsx::axis(0)); }, refuses));
    BOOST_TEST(thrown_everywhere<std::runtime_error>([&] { (void)bsx::dist::mean(f, bsx::axis(1)); }, refuses));
    BOOST_TEST(thrown_everywhere<std::runtime_error>([&] { (void)bsx::sum(f + a.row(2)); }, refuses));
    BOOST_TEST(thrown_everywhere<std::runtime_error>([&] { bsx::array<double, 1> c = bsx::sum(f * 2.0, bsx::axis(0)); },
                                                     refuses));
    // Assignments: element-wise, with a fetched row, with a reduction nested, a construction.
    bsx::dist::array<double, 2> d({7, 5}, 1.0);
    BOOST_TEST(thrown_everywhere<std::runtime_error>([&] { d = f + 1.0; }, refuses));
    BOOST_TEST(thrown_everywhere<std::runtime_error>([&] { d = a.col(1) + f * a.row(3); }, refuses));
    BOOST_TEST(thrown_everywhere<std::runtime_error>([&] { d = a + bsx::sum(f, bsx::axis(0)); }, refuses));
    BOOST_TEST(thrown_everywhere<std::runtime_error>([&] { bsx::dist::array<double, 2> e(f); }, refuses));
    // An exception of no standard type travels as std::runtime_error.
    const auto odd = bsx::map(fails_on_one_rank{false}, a);
    BOOST_TEST(
        thrown_everywhere<std::runtime_error>([&] { (void)bsx::dist::sum(odd); }, "not derived from std::exception"));
    BOOST_TEST(thrown_everywhere<std::runtime_error>([&] { d = odd; }, "not derived from std::exception"));
    // Every rank is in step, and the operations work again.
    d = a * 2.0;
    BOOST_TEST(same_bits(whole(d), bsx::array<double, 2>(g * 2.0)));
    BOOST_TEST(same_bits(bsx::dist::sum(a), bsx::sum(g)));
}

// Issue 35: ranks given other shapes (a user error) sent and waited for messages of other
// sizes (MPI_ERR_TRUNCATE), or one rank returned while the others waited. Every rank now
// throws std::invalid_argument naming what rank 0 and the first other rank were given.
BOOST_AUTO_TEST_CASE(ranks_given_other_shapes_fail_alike) {
    if (world_size() == 1) return;  // one rank agrees with itself
    const bool odd = world_rank() % 2 == 1;
    const std::string differ = "the ranks disagree: rank 0 does ";
    const auto g = random_array<2>({6, 4}, 91);
    const auto a = bsx::dist::scatter(g);
    bsx::dist::array<double, 2> d({6, 4}, 1.0);
    // (Shapes that do not broadcast on one rank fail there as the expression is built, in
    // the caller's code, before bsx::dist is called: these broadcast on every rank.)
    const bsx::dist::array<double, 2> other({odd ? 1 : 6, 4}, 2.0);
    BOOST_TEST(thrown_everywhere<std::invalid_argument>([&] { d = other; }, differ));
    BOOST_TEST(thrown_everywhere<std::invalid_argument>(
        [&] { d = a + other; },
        "bsx::dist: operator=: the ranks disagree: rank 0 does an assignment to distributed (6,4) of (distributed "
        "(6,4), distributed (6,4)); rank 1 does an assignment to distributed (6,4) of (distributed (6,4), "
        "distributed (1,4))"));
    BOOST_TEST(thrown_everywhere<std::invalid_argument>([&] { (void)bsx::sum(other); }, differ));
    BOOST_TEST(thrown_everywhere<std::invalid_argument>([&] { (void)bsx::dist::sum(other, bsx::axis(0)); }, differ));
    BOOST_TEST(thrown_everywhere<std::invalid_argument>([&] { (void)bsx::dist::gather(other); }, differ));
    // A replicated operand of another shape, another row, another axis, another root.
    const auto rep = random_array<2>({odd ? 1 : 6, 4}, 92);
    BOOST_TEST(thrown_everywhere<std::invalid_argument>([&] { d = a + rep; }, differ));
    BOOST_TEST(thrown_everywhere<std::invalid_argument>([&] { d = a + a.row(odd ? 1 : 2); }, differ));
    BOOST_TEST(
        thrown_everywhere<std::invalid_argument>([&] { (void)bsx::dist::max(a, bsx::axis(odd ? 1 : 0)); }, differ));
    BOOST_TEST(thrown_everywhere<std::invalid_argument>([&] { (void)bsx::dist::gather(a, odd ? 1 : 0); }, differ));
    BOOST_TEST(thrown_everywhere<std::invalid_argument>([&] { (void)bsx::dist::scatter(g, odd ? 1 : 0); }, differ));
    const auto path = std::filesystem::temp_directory_path() / "bsx_dist_never_written.npy";
    BOOST_TEST(thrown_everywhere<std::invalid_argument>([&] { bsx::dist::save_npy(path, a, odd ? 1 : 0); }, differ));
    BOOST_TEST(everywhere(!std::filesystem::exists(path)));
    // Nothing was written.
    BOOST_TEST(everywhere(same_bits(d.local(), bsx::array<double, 2>(d.local().shape(), 1.0))));
}

/// The bytes of a file.
std::string file_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

BOOST_AUTO_TEST_CASE(npy_files_round_trip) {
    // One directory for all ranks: the root's process id.
    int pid = int(getpid());
    MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
    const auto path = std::filesystem::temp_directory_path() / ("bsx_dist_" + std::to_string(pid) + ".npy");
    const auto single = std::filesystem::temp_directory_path() / ("bsx_single_" + std::to_string(pid) + ".npy");
    // Each rank writes its rows into one file: the same bytes as bsx::save_npy of the whole
    // array, for uneven blocks (7 rows), ranks without rows (2 rows on 3 ranks) and bools.
    const auto check = [&](const auto& g) {
        using A = std::remove_cvref_t<decltype(g)>;
        const auto d = bsx::dist::scatter(g);
        bsx::dist::save_npy(path, d);
        if (world_rank() == 0) {
            bsx::save_npy(single, g);
            BOOST_TEST(file_bytes(path) == file_bytes(single));
        }
        const auto back = bsx::dist::load_npy<typename A::value_type, A::rank>(path);
        BOOST_TEST(same_bits(whole(back), g));
        BOOST_TEST(back.offset() == d.offset());
        MPI_Barrier(MPI_COMM_WORLD);
    };
    check(random_array<2>({7, 3}, 70));
    check(random_array<3>({2, 3, 2}, 71));
    check(bsx::array<bool, 2>(random_array<2>({5, 4}, 72) > 0.0));
    if (world_rank() == 0) {
        std::filesystem::remove(path);
        std::filesystem::remove(single);
    }
    // NumPy's big-endian and Fortran-order files read as the single-process reader reads them.
    const auto fixtures = std::filesystem::path(BSX_TEST_DATA_DIR) / "npy";
    BOOST_TEST(same_bits(whole(bsx::dist::load_npy<double, 3>(fixtures / "big_float64_r3.npy")),
                         bsx::load_npy<double, 3>(fixtures / "big_float64_r3.npy")));
    BOOST_TEST(same_bits(whole(bsx::dist::load_npy<float, 3>(fixtures / "big_fortran_float32_r3.npy")),
                         bsx::load_npy<float, 3>(fixtures / "big_fortran_float32_r3.npy")));
    // A failure (no such file; a file of another dtype) is thrown on every rank.
    for (const auto& bad : {path, fixtures / "dtype_float32.npy"}) {
        bool thrown = false;
        try {
            (void)bsx::dist::load_npy<double, 1>(bad);
        } catch (const std::runtime_error&) {
            thrown = true;
        }
        BOOST_TEST(everywhere(thrown));
    }
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    const int status = boost::unit_test::unit_test_main([] { return true; }, argc, argv);
    MPI_Finalize();
    return status;
}
