// XLA's broadcasting semantics, example by example, written with bsx.
//
// XLA does no implicit rank promotion: two operands of different rank meet only when
// one of them is a scalar (rank 0) or when the caller says, with "broadcast
// dimensions", which axes of the higher-rank operand the axes of the lower-rank one
// line up with. bsx offers three spellings of the same thing:
//
//   bsx::add(m, v, {1})                     XLA's Add(m, v, broadcast_dimensions = {1})
//   bsx::in_dims<2>(v, {1})                 v seen at rank 2, its axis 0 on axis 1: (1,3)
//   bsx::broadcast_in_dim(v, {2, 3}, {1})   XLA's BroadcastInDim: in_dims, then stretched
//
// and bsx::with_rules<bsx::xla_rules>(x), which makes an expression refuse (at compile
// time) to line up operands of different rank without dims. Operands of equal rank
// follow the per-axis rule shared with NumPy: equal extents, or one of them is 1.
//
// Usage: xla_broadcast        (no arguments)
// Every result is printed and compared with the value the XLA document gives (or, where
// it gives only shapes, with a plain loop). Exit code 1 on any mismatch.

#include <bsx/bsx.hpp>

#include <array>
#include <iostream>
#include <string>

namespace {

int failures = 0;

// Prints `got` and compares it with `expected` (shape and every element).
template <class E, class T, std::size_t N>
void check(const std::string& what, const E& got, const bsx::array<T, N>& expected) {
    const bool ok = bsx::array_equal(got, expected);
    std::cout << what << "  ->  shape " << bsx::format_shape(got.shape()) << (ok ? "" : "   MISMATCH") << '\n'
              << got << "\n\n";
    if (!ok) {
        std::cout << "expected shape " << bsx::format_shape(expected.shape()) << ":\n" << expected << "\n\n";
        ++failures;
    }
}

template <std::size_t N>
void check_shape(const std::string& what, const bsx::shape_t<N>& got, const bsx::shape_t<N>& expected) {
    const bool ok = got == expected;
    std::cout << what << "  ->  " << bsx::format_shape(got)
              << (ok ? "" : "   MISMATCH, expected " + bsx::format_shape(expected)) << '\n';
    failures += !ok;
}

// Runs `f`, which must throw bsx::broadcast_error, and prints the message.
template <class F>
void expect_error(const std::string& what, F f) {
    try {
        f();
    } catch (const bsx::broadcast_error& e) {
        std::cout << what << "  ->  bsx::broadcast_error:\n  " << e.what() << '\n';
        return;
    }
    std::cout << what << "  ->  MISMATCH: no bsx::broadcast_error thrown\n";
    ++failures;
}

void section(const char* title) { std::cout << "=== " << title << " ===\n\n"; }

}  // namespace

int main() {
    // Everything below uses XLA rules: tagging one operand of an expression tags the
    // whole expression, so `xla(m) + v` would not compile for a rank-1 v.
    const auto xla = [](const auto& x) { return bsx::with_rules<bsx::xla_rules>(x); };

    const bsx::array<double, 2> m{{1, 2, 3}, {4, 5, 6}};  // shape (2,3)
    const bsx::array<double, 1> v{7, 8, 9};               // shape (3,)

    // ------------------------------------------------------------------ scalars
    section("a scalar meets any array without dims");
    check("xla(m) + 7.0", xla(m) + 7.0, bsx::array<double, 2>{{8, 9, 10}, {11, 12, 13}});
    // A rank-0 array is a scalar too.
    const bsx::array<double, 0> seven(7.0);
    check("xla(m) + seven (rank 0)", xla(m) + seven, bsx::array<double, 2>{{8, 9, 10}, {11, 12, 13}});

    // ------------------------------------------------- matrix plus vector, dims {1}
    section("(2,3) matrix plus (3,) vector: broadcast dimensions {1}");
    // Dims {1}: axis 0 of v lines up with axis 1 of m, so v becomes each row.
    check("broadcast_in_dim(v, {2, 3}, {1})", bsx::broadcast_in_dim(v, bsx::shape_t<2>{2, 3}, {1}),
          bsx::array<double, 2>{{7, 8, 9}, {7, 8, 9}});
    check("add(xla(m), v, {1})", bsx::add(xla(m), v, {1}), bsx::array<double, 2>{{8, 10, 12}, {11, 13, 15}});
    check("xla(m) + in_dims<2>(v, {1})", xla(m) + bsx::in_dims<2>(v, {1}),
          bsx::array<double, 2>{{8, 10, 12}, {11, 13, 15}});
    // Dims {0} would line the 3 elements up with the 2 rows: an error, not a guess.
    expect_error("add(xla(m), v, {0})", [&] { (void)bsx::add(xla(m), v, {0}); });
    std::cout << '\n';

    // ------------------------------------------- 3x3 matrix: dims {1} or dims {0}
    section("(3,3) matrix plus (3,) vector: dims {1} (rows) or dims {0} (columns)");
    check("broadcast_in_dim(v, {3, 3}, {1})", bsx::broadcast_in_dim(v, bsx::shape_t<2>{3, 3}, {1}),
          bsx::array<double, 2>{{7, 8, 9}, {7, 8, 9}, {7, 8, 9}});
    check("broadcast_in_dim(v, {3, 3}, {0})", bsx::broadcast_in_dim(v, bsx::shape_t<2>{3, 3}, {0}),
          bsx::array<double, 2>{{7, 7, 7}, {8, 8, 8}, {9, 9, 9}});
    const bsx::array<double, 2> sq{{10, 20, 30}, {40, 50, 60}, {70, 80, 90}};
    check("add(xla(sq), v, {1})", bsx::add(xla(sq), v, {1}),
          bsx::array<double, 2>{{17, 28, 39}, {47, 58, 69}, {77, 88, 99}});
    check("add(xla(sq), v, {0})", bsx::add(xla(sq), v, {0}),
          bsx::array<double, 2>{{17, 27, 37}, {48, 58, 68}, {79, 89, 99}});

    // ------------------------------------------------ (2,3,4) box, (3,4) matrix
    section("(2,3,4) box plus (3,4) matrix: dims {1, 2}");
    bsx::array<double, 1> box_values = bsx::arange<double>(24);
    const auto box = bsx::reshape<3>(box_values, {2, 3, 4});  // box(i,j,k) = 12i + 4j + k
    bsx::array<double, 1> mat_values = 100.0 * bsx::arange<double>(12);
    const auto mat = bsx::reshape<2>(mat_values, {3, 4});  // mat(j,k) = 100 (4j + k)
    const bsx::array<double, 3> box_sum = bsx::add(xla(box), mat, {1, 2});
    bsx::array<double, 3> box_loop = bsx::zeros<double>(2, 3, 4);
    for (bsx::index_t i = 0; i < 2; ++i)
        for (bsx::index_t j = 0; j < 3; ++j)
            for (bsx::index_t k = 0; k < 4; ++k) box_loop(i, j, k) = box(i, j, k) + mat(j, k);
    check("add(xla(box), mat, {1, 2})", box_sum, box_loop);

    // ------------------------------------ the formal definition: MxNxPxQ = 2x3x4x5
    section("placing a vector T, then a matrix TxV, in an MxNxPxQ = (2,3,4,5) array");
    // T has to match the extent of the axis it is placed on, hence four lengths.
    const bsx::array<double, 1> t2{1, 2}, t3{1, 2, 3}, t4{1, 2, 3, 4}, t5{1, 2, 3, 4, 5};
    check_shape("in_dims<4>(T, {0}), T of length 2", bsx::in_dims<4>(t2, {0}).shape(), {2, 1, 1, 1});
    check_shape("in_dims<4>(T, {1}), T of length 3", bsx::in_dims<4>(t3, {1}).shape(), {1, 3, 1, 1});
    check_shape("in_dims<4>(T, {2}), T of length 4", bsx::in_dims<4>(t4, {2}).shape(), {1, 1, 4, 1});
    check_shape("in_dims<4>(T, {3}), T of length 5", bsx::in_dims<4>(t5, {3}).shape(), {1, 1, 1, 5});
    const auto big = bsx::zeros<double>(2, 3, 4, 5);
    check_shape("add(xla(big), (4,5) matrix, {2, 3})", bsx::add(xla(big), bsx::zeros<double>(4, 5), {2, 3}).shape(),
                {2, 3, 4, 5});
    check_shape("in_dims<4>((4,5) matrix, {2, 3})", bsx::in_dims<4>(bsx::zeros<double>(4, 5), {2, 3}).shape(),
                {1, 1, 4, 5});
    check_shape("in_dims<4>((3,4) matrix, {1, 2})", bsx::in_dims<4>(bsx::zeros<double>(3, 4), {1, 2}).shape(),
                {1, 3, 4, 1});
    check_shape("in_dims<4>((2,5) matrix, {0, 3})", bsx::in_dims<4>(bsx::zeros<double>(2, 5), {0, 3}).shape(),
                {2, 1, 1, 5});
    // The values land where the dims say: T x V at {0, 3} is read as tv(i, l) at (i, j, k, l).
    const bsx::array<double, 2> tv{{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}};
    const bsx::array<double, 4> placed = bsx::add(xla(big), tv, {0, 3});
    bool placed_ok = true;
    for (bsx::index_t i = 0; i < 2; ++i)
        for (bsx::index_t j = 0; j < 3; ++j)
            for (bsx::index_t k = 0; k < 4; ++k)
                for (bsx::index_t l = 0; l < 5; ++l) placed_ok &= placed(i, j, k, l) == tv(i, l);
    std::cout << "add(xla(big), tv, {0, 3}) holds tv(i, l) at every (i, j, k, l): "
              << (placed_ok ? "yes" : "NO, MISMATCH") << "\n\n";
    failures += !placed_ok;

    // ------------------------------------------------------ invalid dims lists
    section("invalid broadcast dimensions");
    // Dims must keep the order of the operand's axes: T before V.
    const auto t_by_v = bsx::zeros<double>(4, 3);  // T = 4 (fits P), V = 3 (fits N): dims {2, 1}
    expect_error("in_dims<4>((4,3) matrix, {2, 1})  (V on N, T on P)", [&] { (void)bsx::in_dims<4>(t_by_v, {2, 1}); });
    expect_error("in_dims<4>((4,3) matrix, {2, 2})  (one axis twice)", [&] { (void)bsx::in_dims<4>(t_by_v, {2, 2}); });
    expect_error("in_dims<4>((4,3) matrix, {1, 4})  (no axis 4)", [&] { (void)bsx::in_dims<4>(t_by_v, {1, 4}); });
    expect_error("in_dims<4>((4,3) matrix, {1})     (one dim short)", [&] { (void)bsx::in_dims<4>(t_by_v, {1}); });
    expect_error("add(xla(big), (3,4) matrix, {2, 1})", [&] {
        (void)bsx::add(xla(big), bsx::zeros<double>(3, 4), {2, 1});
    });
    expect_error("broadcast_in_dim(v, {2, 4}, {1})  (3 elements on an axis of 4)", [&] {
        (void)bsx::broadcast_in_dim(v, bsx::shape_t<2>{2, 4}, {1});
    });
    std::cout << '\n';

    // ------------------------------------------- equal ranks, degenerate axes
    section("equal ranks: each axis equal, or one of them is 1 (degenerate)");
    check_shape("(2,1) and (2,3)", bsx::broadcast_shapes<bsx::xla_rules>(bsx::shape_t<2>{2, 1}, bsx::shape_t<2>{2, 3}),
                {2, 3});
    check_shape("(1,2,5) and (7,2,5)",
                bsx::broadcast_shapes<bsx::xla_rules>(bsx::shape_t<3>{1, 2, 5}, bsx::shape_t<3>{7, 2, 5}), {7, 2, 5});
    check_shape("(7,2,5) and (7,1,5)",
                bsx::broadcast_shapes<bsx::xla_rules>(bsx::shape_t<3>{7, 2, 5}, bsx::shape_t<3>{7, 1, 5}), {7, 2, 5});
    expect_error("(7,2,5) and (7,2,6)", [] {
        (void)bsx::broadcast_shapes<bsx::xla_rules>(bsx::shape_t<3>{7, 2, 5}, bsx::shape_t<3>{7, 2, 6});
    });
    expect_error("xla(zeros(7,2,5)) + zeros(7,2,6)", [] {
        (void)(bsx::with_rules<bsx::xla_rules>(bsx::zeros<double>(7, 2, 5)) + bsx::zeros<double>(7, 2, 6));
    });
    check_shape("(2,1) and (1,3), the outer operation",
                bsx::broadcast_shapes<bsx::xla_rules>(bsx::shape_t<2>{2, 1}, bsx::shape_t<2>{1, 3}), {2, 3});
    std::cout << '\n';
    const bsx::array<double, 2> col{{1}, {2}};                     // (2,1)
    const bsx::array<double, 2> wide{{10, 20, 30}, {40, 50, 60}};  // (2,3)
    const bsx::array<double, 2> row{{10, 20, 30}};                 // (1,3)
    check("xla(col) + wide, (2,1) and (2,3)", xla(col) + wide, bsx::array<double, 2>{{11, 21, 31}, {42, 52, 62}});
    check("xla(col) + row, (2,1) and (1,3)", xla(col) + row, bsx::array<double, 2>{{11, 21, 31}, {12, 22, 32}});

    // ---------------------------------------------------------- composition
    section("composition: dims first, then degenerate axes");
    // A 4-vector with dims {0} is a (4,1) column; the (1,2) matrix then stretches down it.
    const bsx::array<double, 1> four{1, 2, 3, 4};
    const bsx::array<double, 2> five_six{{5, 6}};  // a 1x2 matrix, not a vector
    check_shape("in_dims<2>(four, {0})", bsx::in_dims<2>(four, {0}).shape(), {4, 1});
    check("add(xla(four), five_six, {0})", bsx::add(xla(four), five_six, {0}),
          bsx::array<double, 2>{{6, 7}, {7, 8}, {8, 9}, {9, 10}});

    // A (1,2) matrix with dims {1, 2} becomes (1,1,2); against (4,3,1) both stretch: (4,3,2).
    bsx::array<double, 1> tall_values = bsx::arange<double>(12) + 1.0;
    const auto tall = bsx::reshape<3>(tall_values, {4, 3, 1});  // 1 .. 12
    const bsx::array<double, 2> hundreds{{100, 200}};
    check_shape("in_dims<3>(hundreds, {1, 2})", bsx::in_dims<3>(hundreds, {1, 2}).shape(), {1, 1, 2});
    check("add(hundreds, xla(tall), {1, 2})", bsx::add(hundreds, xla(tall), {1, 2}),
          bsx::array<double, 3>{{{101, 201}, {102, 202}, {103, 203}},
                                {{104, 204}, {105, 205}, {106, 206}},
                                {{107, 207}, {108, 208}, {109, 209}},
                                {{110, 210}, {111, 211}, {112, 212}}});

    if (failures != 0) {
        std::cout << "xla_broadcast: " << failures << " check(s) failed\n";
        return 1;
    }
    std::cout << "xla_broadcast: every result matches\n";
    return 0;
}
