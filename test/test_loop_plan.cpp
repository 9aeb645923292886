// Which plan representative assignments and reductions get (eval/loop_plan.hpp,
// eval/reduce.hpp), as Eigen's vectorization_logic test pins its traversals: a fast path
// that stops being taken fails here, not only in a benchmark. The values the paths compute
// are checked elsewhere (test_loop_paths, test_evaluation, test_reductions).
#define BOOST_TEST_MODULE bsx_loop_plan
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace {

using bsx::index_t;
using bsx::detail::loop_kind;

/// The plan of `dest = expr` for an array or view `dest` of the expression's shape: a
/// view's rows may be strided, an array's are not.
template <class Dest, class E>
auto plan_of(Dest& dest, const E& expr) {
    using bsx::detail::destination_rows;
    constexpr auto rows = bsx::detail::contiguous_by_type<std::remove_const_t<Dest>> ? destination_rows::unit_stride
                                                                                     : destination_rows::any_stride;
    return bsx::detail::plan_assignment<rows>(dest.data(), dest.shape(), dest.strides(), expr);
}

/// The threads OpenMP gives a region outside any other (1 without OpenMP).
int max_threads() {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

const char* kind_name(loop_kind k) {
    switch (k) {
        case loop_kind::empty:
            return "empty";
        case loop_kind::static_loop:
            return "static_loop";
        case loop_kind::reduction_into:
            return "reduction_into";
        case loop_kind::rows:
            return "rows";
        case loop_kind::strided:
            return "strided";
        case loop_kind::tiles:
            return "tiles";
        case loop_kind::copy:
            return "copy";
    }
    return "?";
}

}  // namespace

namespace bsx::detail {
std::ostream& operator<<(std::ostream& os, loop_kind k) { return os << kind_name(k); }
}  // namespace bsx::detail

BOOST_AUTO_TEST_CASE(contiguous_operands_run_as_one_flat_row) {
    bsx::array<double, 2> a = bsx::ones<double>(300, 200), b = a, r = a;
    const auto plan = plan_of(r, a * b + 1.0);
    BOOST_TEST(plan.kind == loop_kind::rows);
    BOOST_TEST(plan.constant_leaf == 0u);
    BOOST_TEST(plan.loop.nd == 1u);  // (300, 200) coalesced into one axis
    BOOST_TEST(plan.loop.extent[0] == 60000);
    BOOST_TEST(plan.split.threads == max_threads());  // 60000 elements: above the threshold
}

BOOST_AUTO_TEST_CASE(small_assignments_stay_on_one_thread) {
    bsx::array<double, 1> a = bsx::ones<double>(1000), r = a;
    const auto plan = plan_of(r, a + a);
    BOOST_TEST(plan.kind == loop_kind::rows);
    BOOST_TEST(plan.split.threads == 1);
}

BOOST_AUTO_TEST_CASE(a_row_broadcast_reads_rows_in_place) {
    bsx::array<double, 2> a = bsx::ones<double>(40, 300), r = a;
    bsx::array<double, 1> v = bsx::ones<double>(300);
    const auto plan = plan_of(r, a + v);
    BOOST_TEST(plan.kind == loop_kind::rows);
    BOOST_TEST(plan.constant_leaf == 0u);
    BOOST_TEST(plan.loop.nd == 2u);  // v's stride 0 along axis 0 keeps the two axes apart
}

BOOST_AUTO_TEST_CASE(a_column_broadcast_holds_the_column_in_a_register) {
    bsx::array<double, 2> a = bsx::ones<double>(40, 30), c = bsx::ones<double>(40, 1), r = a;
    BOOST_TEST(plan_of(r, a - c).constant_leaf == 2u);  // leaf 1 (c), counted from 1
    BOOST_TEST(plan_of(r, c - a).constant_leaf == 1u);
    BOOST_TEST(plan_of(r, c - a).kind == loop_kind::rows);
}

BOOST_AUTO_TEST_CASE(a_floyd_warshall_step_runs_whole_rows_in_place) {
    bsx::array<double, 2> d = bsx::ones<double>(100, 100);
    const index_t k = 7;
    const auto plan = plan_of(d, bsx::min(d, d.col(k) + d.row(k)));
    BOOST_TEST(plan.kind == loop_kind::rows);
    BOOST_TEST(plan.constant_leaf == 2u);  // d.col(k), read once per row
    BOOST_TEST(plan.split.whole_rows);
}

BOOST_AUTO_TEST_CASE(a_transposed_operand_is_gathered_into_tiles) {
    bsx::array<double, 2> a = bsx::ones<double>(50, 60), b = bsx::ones<double>(60, 50), r = b;
    const auto plan = plan_of(r, bsx::transpose(a) + b);
    BOOST_TEST(plan.kind == loop_kind::tiles);
    BOOST_TEST(plan.chunk == BSX_CHUNK);
    BOOST_TEST(!plan.streaming);
}

BOOST_AUTO_TEST_CASE(small_strides_are_read_in_place) {
    // Every other column of two matrices, added: one loop reads both with stride 2, no tiles.
    bsx::array<double, 2> a = bsx::ones<double>(50, 120), b = a, r = bsx::ones<double>(50, 60);
    const auto every_other = [](auto& m, index_t step) {
        return bsx::slice(m, bsx::all, bsx::range(0, 60 * step, step));
    };
    const auto plan = plan_of(r, every_other(a, 2) + every_other(b, 2));
    BOOST_TEST(plan.kind == loop_kind::strided);
    BOOST_TEST(plan.split.whole_rows);
    BOOST_TEST(plan_of(r, every_other(a, 2) * 2.0 - r).kind == loop_kind::strided);  // beside unit stride
    // Up to max_strided_read; beyond it, gathered into tiles.
    bsx::array<double, 2> wide = bsx::ones<double>(50, 60 * (bsx::detail::max_strided_read + 1));
    BOOST_TEST(plan_of(r, every_other(wide, bsx::detail::max_strided_read) + 1.0).kind == loop_kind::strided);
    BOOST_TEST(plan_of(r, every_other(wide, bsx::detail::max_strided_read + 1) + 1.0).kind == loop_kind::tiles);
    // Elements of 1 or 2 bytes at stride 2 keep the tiles (their gather shuffles vectors);
    // at stride 3 they are read in place, as 4-byte elements are at stride 2.
    bsx::array<std::int16_t, 2> shorts = bsx::zeros<std::int16_t>(50, 180), s = bsx::zeros<std::int16_t>(50, 60);
    BOOST_TEST(plan_of(s, every_other(shorts, 2) + every_other(shorts, 2)).kind == loop_kind::tiles);
    BOOST_TEST(plan_of(s, every_other(shorts, 3) + every_other(shorts, 3)).kind == loop_kind::strided);
    bsx::array<float, 2> floats = bsx::zeros<float>(50, 120), f = bsx::zeros<float>(50, 60);
    BOOST_TEST(plan_of(f, every_other(floats, 2) * 2.0f).kind == loop_kind::strided);
    // A small transposed matrix steps by its short rows.
    bsx::array<double, 2> small = bsx::ones<double>(6, 6), t = small;
    BOOST_TEST(plan_of(t, bsx::transpose(small) + small).kind == loop_kind::strided);
    // Math nodes, a column held beside and a reversed axis keep the tiles; but sqrt, at the
    // root, reads its argument where it lies, computed or not, where its kernel computes
    // the argument itself (a translation unit with AVX: test_native_math).
    BOOST_TEST(plan_of(r, bsx::exp(every_other(a, 2))).kind == loop_kind::tiles);
    const auto by_sqrt =
        bsx::detail::fusing_kernels<bsx::detail::vmath::sqrt, double> ? loop_kind::strided : loop_kind::tiles;
    BOOST_TEST(plan_of(r, bsx::sqrt(every_other(a, 2))).kind == by_sqrt);
    BOOST_TEST(plan_of(r, bsx::sqrt(every_other(a, 2) * 2.0 + every_other(b, 2))).kind == by_sqrt);
    BOOST_TEST(plan_of(r, bsx::sqrt(bsx::exp(every_other(a, 2)))).kind == loop_kind::tiles);
    BOOST_TEST(plan_of(r, bsx::sqrt(every_other(a, 2)) + 1.0).kind == loop_kind::tiles);
    BOOST_TEST(plan_of(r, bsx::sqrt(every_other(a, 1))).kind == loop_kind::tiles);  // unit stride: its block kernel
    BOOST_TEST(plan_of(r, every_other(a, 2) + a.col(0)).kind == loop_kind::tiles);
    BOOST_TEST(plan_of(r, every_other(a, 2) + bsx::flip(every_other(b, 2), 1)).kind == loop_kind::tiles);
}

BOOST_AUTO_TEST_CASE(a_lone_view_is_copied_without_a_kernel) {
    // Rows that cannot be read in place, of the destination's own type and nothing else:
    // copied from where they lie, with no tile in between.
    bsx::array<double, 2> a = bsx::ones<double>(50, 60), r = a, t = bsx::ones<double>(60, 50);
    BOOST_TEST(plan_of(r, bsx::flip(a)).kind == loop_kind::copy);
    BOOST_TEST(plan_of(t, bsx::transpose(a)).kind == loop_kind::copy);
    auto every_other = bsx::slice(a, bsx::all, bsx::range(0, 60, 2));
    bsx::array<double, 2> half = bsx::ones<double>(50, 30);
    BOOST_TEST(plan_of(half, every_other).kind == loop_kind::copy);
    BOOST_TEST(plan_of(r, a).kind == loop_kind::rows);  // read in place: the rows kernel
    // Into a strided destination. A flip of the destination itself is copied at binding,
    // in the view's own order, and that copy is read in place.
    bsx::array<double, 2> wide = bsx::ones<double>(60, 100);
    auto odd_columns = bsx::slice(wide, bsx::all, bsx::range(1, 100, 2));
    BOOST_TEST(plan_of(odd_columns, bsx::transpose(a)).kind == loop_kind::copy);
    BOOST_TEST(plan_of(r, bsx::flip(r)).kind == loop_kind::rows);
    // The outermost axis is shared among threads: with fewer rows than threads, another
    // plan (here strided: the transposed rows step by 2).
    bsx::array<double, 2> tall = bsx::ones<double>(50000, 2), two = bsx::ones<double>(2, 50000);
    const auto few = plan_of(two, bsx::transpose(tall));
    BOOST_TEST((few.kind == loop_kind::copy) == (few.split.threads <= 2), few.kind << " on " << few.split.threads);
    // Anything to compute, or an element type to convert, takes the tiles.
    BOOST_TEST(plan_of(r, bsx::flip(a) * 2.0).kind == loop_kind::tiles);
    bsx::array<float, 2> f = bsx::ones<float>(50, 60);
    BOOST_TEST(plan_of(r, bsx::flip(f)).kind == loop_kind::tiles);
    // A wide result is streamed from a tile.
    const index_t n = index_t(bsx::detail::streaming_threshold() / sizeof(double));
    bsx::array<double, 1> v = bsx::ones<double>(n), w = bsx::zeros<double>(n);
    BOOST_TEST(plan_of(w, bsx::flip(v)).kind == loop_kind::tiles);
}

BOOST_AUTO_TEST_CASE(short_rows_fold_into_a_period_tile) {
    // Rows of at most 64 elements fold into longer ones: (40, 30) + (30,) runs as one row
    // of 1200 through a tile that holds the (30,) operand over and over.
    bsx::array<double, 2> a = bsx::ones<double>(40, 30), r = a;
    bsx::array<double, 1> v = bsx::ones<double>(30);
    const auto row_plan = plan_of(r, a + v);
    BOOST_TEST(row_plan.kind == loop_kind::tiles);
    BOOST_TEST(row_plan.loop.nd == 1u);
    // Octave's RGB scaling: (n, n, 3) .* (1, 1, 3) becomes one flat loop, the scale a
    // tile of period 3, chunks a multiple of 3 and of 16.
    bsx::array<double, 3> img = bsx::ones<double>(20, 20, 3), scaled = img;
    bsx::array<double, 3> w = bsx::ones<double>(1, 1, 3);
    const auto plan = plan_of(scaled, img * w);
    BOOST_TEST(plan.kind == loop_kind::tiles);
    BOOST_TEST(plan.loop.nd == 1u);
    BOOST_TEST(plan.chunk % 48 == 0);
    BOOST_TEST(plan.chunk <= 2 * BSX_CHUNK);
}

BOOST_AUTO_TEST_CASE(math_nodes_run_in_tiles_of_their_kernel) {
    bsx::array<double, 2> a = bsx::ones<double>(20, 1000), r = a;
    const auto plan = plan_of(r, bsx::exp(a));
    BOOST_TEST(plan.kind == loop_kind::tiles);
    BOOST_TEST(plan.chunk == 2 * BSX_CHUNK);
}

BOOST_AUTO_TEST_CASE(a_view_with_small_strides_is_written_in_place) {
    // Every other column of a matrix, assigned: one loop writes it with stride 2, no tile,
    // from contiguous operands as from strided ones.
    bsx::array<double, 2> big = bsx::zeros<double>(20, 200), a = bsx::ones<double>(20, 20);
    const auto columns = [&](index_t step) { return bsx::slice(big, bsx::all, bsx::range(0, 20 * step, step)); };
    auto every_other = columns(2);
    const auto plan = plan_of(every_other, a + 1.0);
    BOOST_TEST(plan.kind == loop_kind::strided);
    BOOST_TEST(plan.dst_strides[plan.loop.nd - 1] == 2);
    bsx::array<double, 2> wide = bsx::ones<double>(20, 60);
    BOOST_TEST(plan_of(every_other, bsx::slice(wide, bsx::all, bsx::range(0, 60, 3)) - a).kind == loop_kind::strided);
    auto widest = columns(bsx::detail::max_strided_read), beyond = columns(bsx::detail::max_strided_read + 1);
    BOOST_TEST(plan_of(widest, a + 1.0).kind == loop_kind::strided);
    BOOST_TEST(plan_of(beyond, a + 1.0).kind == loop_kind::tiles);
    // Every element size, bytes at stride 2 too: the tiles' write-back is no faster.
    bsx::array<std::int8_t, 2> bytes = bsx::zeros<std::int8_t>(20, 40), c = bsx::ones<std::int8_t>(20, 20);
    auto odd_bytes = bsx::slice(bytes, bsx::all, bsx::range(1, 40, 2));
    BOOST_TEST(plan_of(odd_bytes, c + c).kind == loop_kind::strided);
    // Math nodes and a column held beside keep the tiles, and so does memory whose caller
    // promised unit-stride rows (a block of a result being assembled).
    BOOST_TEST(plan_of(every_other, bsx::exp(a)).kind == loop_kind::tiles);
    BOOST_TEST(plan_of(every_other, bsx::sqrt(columns(3))).kind == loop_kind::tiles);
    BOOST_TEST(plan_of(every_other, a + a.col(0)).kind == loop_kind::tiles);
    BOOST_TEST(
        bsx::detail::plan_assignment(every_other.data(), every_other.shape(), every_other.strides(), a + 1.0).kind ==
        loop_kind::tiles);
}

BOOST_AUTO_TEST_CASE(wide_results_that_are_not_read_are_streamed) {
    const index_t n = index_t(bsx::detail::streaming_threshold() / sizeof(double));
    bsx::array<double, 1> a = bsx::ones<double>(n), r = bsx::zeros<double>(n);
    BOOST_TEST(plan_of(r, a * 2.0).streaming);
    BOOST_TEST(plan_of(r, a * 2.0).kind == loop_kind::tiles);
    BOOST_TEST(!plan_of(r, r * 2.0).streaming);  // the destination is read: ordinary stores
    BOOST_TEST(plan_of(r, r * 2.0).kind == loop_kind::rows);
}

BOOST_AUTO_TEST_CASE(aliasing_operands_are_copied_and_then_read_in_place) {
    // x.row(0) overlaps x and is not read at the element written: binding copies it, and
    // the copy is read in place like any row broadcast.
    bsx::array<double, 2> x = bsx::ones<double>(30, 400);
    const auto plan = plan_of(x, x.row(0) + x);
    BOOST_TEST(plan.kind == loop_kind::rows);
    BOOST_TEST(plan.constant_leaf == 0u);
}

BOOST_AUTO_TEST_CASE(paths_that_bind_nothing) {
    bsx::fixed_array<double, 3, 3> m{}, n{}, f{};
    BOOST_TEST(plan_of(f, m * n + 1.0).kind == loop_kind::static_loop);
    bsx::array<double, 2> a = bsx::ones<double>(30, 40);
    bsx::array<double, 1> s = bsx::zeros<double>(40);
    BOOST_TEST(plan_of(s, bsx::sum(a, bsx::axis(0))).kind == loop_kind::reduction_into);
    bsx::array<double, 2> e = bsx::zeros<double>(0, 5);
    BOOST_TEST(plan_of(e, e + 1.0).kind == loop_kind::empty);
    // A reduction inside a larger expression is computed first, then read as a leaf.
    bsx::array<double, 2> r = a;
    BOOST_TEST(plan_of(r, a - bsx::mean(a, bsx::axis(1), bsx::keepdims)).kind == loop_kind::rows);
}

BOOST_AUTO_TEST_CASE(reductions_choose_their_traversal) {
    bsx::array<double, 2> a = bsx::ones<double>(300, 200);
    const auto along_rows = bsx::detail::plan_reduction_of<bsx::ops::sum_reduction>(a, 1);
    BOOST_TEST(!along_rows.outer);
    BOOST_TEST(along_rows.chunk == BSX_CHUNK);  // the tree's chunks
    const auto max_along_rows = bsx::detail::plan_reduction_of<bsx::ops::max_reduction>(a, 1);
    BOOST_TEST(max_along_rows.chunk == 64 * BSX_CHUNK);  // no tree: long chunks in place
    const auto down_columns = bsx::detail::plan_reduction_of<bsx::ops::sum_reduction>(a, 0);
    BOOST_TEST(down_columns.outer);
    BOOST_TEST(down_columns.layout.in_place);
    BOOST_TEST(down_columns.layout.Q == 200);
    // Down the columns of a transposed view the reduced axis is the fast one.
    BOOST_TEST(!bsx::detail::plan_reduction_of<bsx::ops::sum_reduction>(bsx::transpose(a), 0).outer);
    // The fused product: a(i, k) is constant along the row, held in a register.
    bsx::array<double, 2> b = bsx::ones<double>(200, 300);
    const auto product = bsx::detail::plan_reduction_of<bsx::ops::sum_reduction>(
        bsx::in_dims<3>(a, {0, 1}) * bsx::in_dims<3>(b, {1, 2}), 1);
    BOOST_TEST(product.outer);
    BOOST_TEST(product.layout.in_place);
    BOOST_TEST(product.layout.constant_leaf == 1u);
    BOOST_TEST(!bsx::detail::plan_reduction_of<bsx::ops::sum_reduction>(a, 2).outer);  // the whole array
}
