// Reductions of bsx (api.md section 6): sum, prod, mean, min, max, all, any over the
// whole expression and along every axis (negative axes, keepdims) of rank-1, -2 and -3
// arrays, views and expressions; element access of a lazy reduction; result element
// types; empty extents; NaN; int and bool elements; a reduction nested in a larger
// expression is evaluated once; the same bits for any thread count; accuracy of long
// sums; broadcast, strided and tagged operands. Expected values come from plain loops
// written here, never from bsx. The operands' values are chosen so that every sum and
// product is exact in any order (small multiples of 1/2, or powers of two), so most
// comparisons are exact.
#define BOOST_TEST_MODULE bsx_reductions
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include "test_support.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace {

using namespace test_support;

using bsx::index_t;
template <std::size_t N>
using shape = std::array<index_t, N>;

const double qnan = std::numeric_limits<double>::quiet_NaN();
const double pinf = std::numeric_limits<double>::infinity();

// ======================================================================= reference

enum class red : unsigned { sum = 1, prod = 2, mean = 4, min = 8, max = 16, all = 32, any = 64 };
constexpr unsigned every = 127;
constexpr unsigned sum_only = unsigned(red::sum);

const char* name(red r) {
    switch (r) {
        case red::sum:
            return "sum";
        case red::prod:
            return "prod";
        case red::mean:
            return "mean";
        case red::min:
            return "min";
        case red::max:
            return "max";
        case red::all:
            return "all";
        case red::any:
            return "any";
    }
    return "?";
}
/// min and max have no identity: an empty extent has no result.
bool needs_elements(red r) { return r == red::min || r == red::max; }

/// The reduction of a list of values, by a plain loop. all/any: nonzero is true (NaN too).
double ref_fold(red r, const std::vector<double>& xs) {
    switch (r) {
        case red::sum: {
            double s = 0;
            for (double x : xs) s += x;
            return s;
        }
        case red::prod: {
            double p = 1;
            for (double x : xs) p *= x;
            return p;
        }
        case red::mean: {
            if (xs.empty()) return qnan;
            double s = 0;
            for (double x : xs) s += x;
            return s / double(xs.size());
        }
        case red::min:
        case red::max: {
            double m = xs.at(0);
            for (double x : xs) {
                if (std::isnan(x)) return x;
                if (r == red::min ? x < m : x > m) m = x;
            }
            return m;
        }
        case red::all:
            for (double x : xs)
                if (x == 0) return 0.0;
            return 1.0;
        case red::any:
            for (double x : xs)
                if (x != 0) return 1.0;
            return 0.0;
    }
    return qnan;
}

/// Row-major values with their shape: what the reference knows of an operand.
struct ref_array {
    std::vector<index_t> shape;
    std::vector<double> values;
};

index_t count(const std::vector<index_t>& s) {
    index_t n = 1;
    for (index_t e : s) n *= e;
    return n;
}

/// The reduction along axis k (0 <= k < rank), by plain loops: the shape drops axis k.
ref_array ref_axis(red r, const ref_array& x, std::size_t k) {
    index_t outer = 1, inner = 1;
    for (std::size_t d = 0; d < k; ++d) outer *= x.shape[d];
    for (std::size_t d = k + 1; d < x.shape.size(); ++d) inner *= x.shape[d];
    const index_t m = x.shape[k];
    ref_array out;
    out.shape = x.shape;
    out.shape.erase(out.shape.begin() + std::ptrdiff_t(k));
    std::vector<double> line;
    for (index_t o = 0; o < outer; ++o)
        for (index_t i = 0; i < inner; ++i) {
            line.clear();
            for (index_t j = 0; j < m; ++j) line.push_back(x.values[std::size_t((o * m + j) * inner + i)]);
            out.values.push_back(ref_fold(r, line));
        }
    return out;
}

/// Every element of `e`, read with e(i, j, ...), in row-major order. (The templates
/// here hold no Boost.Test assertion: those cost compile time per instantiation.)
template <class E>
std::vector<double> elements_of(const E& e) {
    constexpr std::size_t R = E::rank;
    const auto s = e.shape();
    std::vector<double> out;
    std::array<index_t, R> idx{};
    for (index_t k = 0; k < e.size(); ++k) {
        index_t rest = k;
        for (std::size_t d = R; d-- > 0;) {
            idx[d] = rest % s[d];
            rest /= s[d];
        }
        out.push_back(static_cast<double>(std::apply(e, idx)));
    }
    return out;
}
template <class E>
void expect_elements(const E& e, const std::vector<double>& want) {
    expect_same_values(elements_of(e), want, "e(i, ...)");
}

/// What one call gave: the exception it threw, or the result's shape, its values as
/// evaluated by bsx::eval (when asked for), and its values read element by element.
struct observed {
    std::string error;  // "", "invalid_argument" or "out_of_range"
    std::string shape;
    bool evaluated = false;
    std::vector<double> values, elements;
};
template <class F>
observed attempt(F&& f) {
    try {
        return f();
    } catch (const std::out_of_range&) {
        return {"out_of_range", {}, false, {}, {}};
    } catch (const std::invalid_argument&) {
        return {"invalid_argument", {}, false, {}, {}};
    }
}
template <bool Evaluate, class E>
observed observe(const E& e) {
    observed o{"", fmt(e.shape()), Evaluate, {}, elements_of(e)};
    if constexpr (Evaluate) {
        const auto a = bsx::eval(e);
        o.values.assign(a.begin(), a.end());
    }
    return o;
}

/// Reduction `f` (bsx::sum, ...) of `x`: the whole reduction; for k = -N ... N-1,
/// f(x, axis(k)) and f(x, axis(k), keepdims); then axis(N), axis(-N-1) and
/// axis(N+5) with keepdims (out of range). Every result is read element by element
/// and evaluated, except keepdims results unless EvaluateKeepdims. (Each evaluated
/// reduction type costs compile time; element access of a keepdims node runs the
/// same code as without keepdims, and evaluating one differs only in the shape.)
template <bool EvaluateKeepdims, class F, class X>
std::vector<observed> observe_reduction(const F& f, const X& x) {
    constexpr index_t N = index_t(bsx::rank_v<X>);
    std::vector<observed> out;
    out.push_back(attempt([&] { return observed{"", "()", true, {static_cast<double>(f(x))}, {}}; }));
    for (index_t k = -N; k < N; ++k) {
        out.push_back(attempt([&] {
            const auto node = f(x, bsx::axis(k));
            static_assert(decltype(node)::rank == std::size_t(N - 1));
            return observe<true>(node);
        }));
        out.push_back(attempt([&] {
            const auto node = f(x, bsx::axis(k), bsx::keepdims);
            static_assert(decltype(node)::rank == std::size_t(N));
            return observe<EvaluateKeepdims>(node);
        }));
    }
    out.push_back(attempt([&] { return observe<false>(f(x, bsx::axis(N))); }));
    out.push_back(attempt([&] { return observe<false>(f(x, bsx::axis(-N - 1))); }));
    out.push_back(attempt([&] { return observe<false>(f(x, bsx::axis(N + 5), bsx::keepdims)); }));
    return out;
}

/// Checks what observe_reduction saw against the reference values `ref` of the
/// operand: min/max along an empty extent throw std::invalid_argument (also when the
/// result is empty too, as NumPy);
/// out-of-range axes throw std::out_of_range.
void check_observed(red r, const ref_array& ref, const std::string& operand_shape, const std::vector<observed>& got) {
    const auto N = index_t(ref.shape.size());
    BOOST_TEST_REQUIRE(operand_shape == fmt(ref.shape));
    BOOST_TEST_REQUIRE(got.size() == std::size_t(2 * 2 * N + 4));
    BOOST_TEST_CONTEXT(name(r) << " of an operand of shape " << fmt(ref.shape)) {
        if (needs_elements(r) && ref.values.empty()) {
            BOOST_TEST(got[0].error == "invalid_argument");
        } else {
            BOOST_TEST_REQUIRE(got[0].error == "");
            const double want = ref_fold(r, ref.values);
            BOOST_TEST(same_value(got[0].values.at(0), want),
                       "whole: got " << got[0].values.at(0) << ", want " << want);
        }
        std::size_t at = 1;
        for (index_t k = -N; k < N; ++k) {
            const auto axis = std::size_t(k < 0 ? k + N : k);
            BOOST_TEST_CONTEXT("axis(" << k << ")") {
                auto kept = ref.shape;
                kept[axis] = 1;
                const observed& node = got[at++];
                const observed& keep = got[at++];
                if (needs_elements(r) && ref.shape[axis] == 0) {
                    BOOST_TEST(node.error == "invalid_argument");
                    BOOST_TEST(keep.error == "invalid_argument");
                } else {
                    const ref_array want = ref_axis(r, ref, axis);
                    BOOST_TEST_REQUIRE(node.error == "");
                    BOOST_TEST_REQUIRE(keep.error == "");
                    BOOST_TEST(node.shape == fmt(want.shape));
                    expect_same_values(node.values, want.values, "evaluated");
                    expect_same_values(node.elements, want.values, "e(i, ...)");
                    BOOST_TEST(keep.shape == fmt(kept));
                    if (keep.evaluated) expect_same_values(keep.values, want.values, "keepdims, evaluated");
                    expect_same_values(keep.elements, want.values, "keepdims, e(i, ...)");
                }
            }
        }
        BOOST_TEST(got[at++].error == "out_of_range");
        BOOST_TEST(got[at++].error == "out_of_range");
        BOOST_TEST(got[at++].error == "out_of_range");
    }
}

template <bool EvaluateKeepdims, class F, class X>
void check_one(red r, const F& f, const X& x, const ref_array& ref) {
    check_observed(r, ref, fmt(x.shape()), observe_reduction<EvaluateKeepdims>(f, x));
}

/// check_one for each reduction in the mask Ops; keepdims results are evaluated for
/// the reductions in the mask Keep.
template <unsigned Ops, unsigned Keep, class X>
void check_reductions(const X& x, const ref_array& ref) {
    constexpr auto has = [](unsigned mask, red r) { return (mask & unsigned(r)) != 0; };
    if constexpr (has(Ops, red::sum)) check_one<has(Keep, red::sum)>(red::sum, bsx::sum, x, ref);
    if constexpr (has(Ops, red::prod)) check_one<has(Keep, red::prod)>(red::prod, bsx::prod, x, ref);
    if constexpr (has(Ops, red::mean)) check_one<has(Keep, red::mean)>(red::mean, bsx::mean, x, ref);
    if constexpr (has(Ops, red::min)) check_one<has(Keep, red::min)>(red::min, bsx::min, x, ref);
    if constexpr (has(Ops, red::max)) check_one<has(Keep, red::max)>(red::max, bsx::max, x, ref);
    if constexpr (has(Ops, red::all)) check_one<has(Keep, red::all)>(red::all, bsx::all, x, ref);
    if constexpr (has(Ops, red::any)) check_one<has(Keep, red::any)>(red::any, bsx::any, x, ref);
}

// ======================================================================= operands

/// n deterministic values whose sums, and products (the tests take products of at most
/// 33 of the first kind), are exact in any order: up to 64 values from {+-0.5, +-1,
/// +-1.5, +-2, +-3} (3^33 < 2^53); more, mostly +-1 with a few +-2 and +-0.5 (so
/// partial products stay far from overflow) and a rare +-4: powers of two.
/// A zero every `zero_every` values on average (0: none); NaN at the given positions.
std::vector<double> pattern(std::size_t n, std::uint64_t seed, unsigned zero_every = 0,
                            const std::vector<std::size_t>& nans = {}) {
    static const double rich[] = {-3, -2, -1.5, -1, -0.5, 0.5, 1, 1.5, 2, 3};
    std::uint64_t s = seed * 0x9E3779B97F4A7C15ull + 12345;
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        const std::uint64_t u = s >> 33;
        double x;
        if (n <= 64) {
            x = rich[u % 10];
        } else {
            const std::uint64_t c = u % 1000;
            x = c < 20 ? 2.0 : c < 40 ? 0.5 : c < 41 ? 4.0 : 1.0;
            if ((u >> 12) & 1) x = -x;
        }
        if (zero_every != 0 && (u >> 16) % zero_every == 0) x = 0.0;
        v[i] = x;
    }
    for (std::size_t p : nans) v.at(p) = qnan;
    return v;
}

/// Operands of rank N: each shape, with and without zeros, and one with a NaN.
template <std::size_t N>
void check_arrays_of_rank(const std::vector<std::vector<index_t>>& shapes) {
    std::uint64_t seed = 100 * N;
    for (const auto& s : shapes) {
        const auto n = std::size_t(count(s));
        for (int variant = 0; variant < 3; ++variant) {
            const unsigned zeros = variant == 0 ? 0u : n <= 64 ? 4u : unsigned(std::max<std::size_t>(8, n / 40));
            std::vector<std::size_t> nans;
            if (variant == 2 && n > 0) nans = {n / 2};
            ref_array ref{s, pattern(n, ++seed, zeros, nans)};
            const auto a = make_array<N>(s, ref.values);
            BOOST_TEST_CONTEXT("variant " << variant) { check_reductions<every, sum_only>(a, ref); }
        }
    }
}

}  // namespace

// ======================================================================= whole and axes
BOOST_AUTO_TEST_SUITE(arrays)

BOOST_AUTO_TEST_CASE(rank1) {
    // 1000 and 100000 cross chunks (256) and blocks (2048); 100000 runs in parallel.
    check_arrays_of_rank<1>({{7}, {1}, {16}, {1000}, {100000}, {0}});
}

BOOST_AUTO_TEST_CASE(rank2) {
    // (37,300): reduced lines longer than a chunk; (3,5000), (5000,3): several blocks
    // along a contiguous and a strided axis; (3,20000): the parallel path.
    check_arrays_of_rank<2>(
        {{3, 4}, {1, 5}, {5, 1}, {1, 1}, {37, 300}, {3, 5000}, {5000, 3}, {3, 20000}, {0, 3}, {3, 0}, {0, 0}});
}

BOOST_AUTO_TEST_CASE(rank3) {
    check_arrays_of_rank<3>({{2, 3, 4}, {4, 1, 3}, {1, 1, 1}, {3, 70, 200}, {2, 0, 3}, {0, 2, 2}, {3, 2, 0}});
}

BOOST_AUTO_TEST_CASE(hand_computed) {
    // [[1, 2, 3], [4, 5, 6]]: NumPy's a.sum(0) = [5, 7, 9], a.sum(1) = [6, 15], ...
    const bsx::array<double, 2> a{{1, 2, 3}, {4, 5, 6}};
    BOOST_TEST(bsx::sum(a) == 21.0);
    BOOST_TEST(bsx::prod(a) == 720.0);
    BOOST_TEST(bsx::mean(a) == 3.5);
    BOOST_TEST(bsx::min(a) == 1.0);
    BOOST_TEST(bsx::max(a) == 6.0);
    BOOST_TEST(bsx::all(a) == true);
    const bsx::array<double, 2> z{{0, 1, 2}, {3, 4, 5}};
    BOOST_TEST(bsx::any(z) == true);
    BOOST_TEST(bsx::all(z) == false);
    expect_values(bsx::sum(a, bsx::axis(0)), "(3,)", {5, 7, 9});
    expect_values(bsx::sum(a, bsx::axis(1)), "(2,)", {6, 15});
    expect_values(bsx::sum(a, bsx::axis(-1)), "(2,)", {6, 15});
    expect_values(bsx::sum(a, bsx::axis(-2)), "(3,)", {5, 7, 9});
    expect_values(bsx::prod(a, bsx::axis(1)), "(2,)", {6, 120});
    expect_values(bsx::mean(a, bsx::axis(0)), "(3,)", {2.5, 3.5, 4.5});
    expect_values(bsx::min(a, bsx::axis(1)), "(2,)", {1, 4});
    expect_values(bsx::max(a, bsx::axis(0)), "(3,)", {4, 5, 6});
    expect_values(bsx::sum(a, bsx::axis(1), bsx::keepdims), "(2,1)", {6, 15});
    expect_values(bsx::sum(a, bsx::axis(0), bsx::keepdims), "(1,3)", {5, 7, 9});
    BOOST_CHECK_THROW((void)bsx::sum(a, bsx::axis(2)), std::out_of_range);
    BOOST_CHECK_THROW((void)bsx::sum(a, bsx::axis(-3)), std::out_of_range);
    BOOST_CHECK_THROW((void)bsx::min(a, bsx::axis(2)), std::out_of_range);
    BOOST_CHECK_THROW((void)bsx::all(a, bsx::axis(-3), bsx::keepdims), std::out_of_range);
    // the message names the reduction, the axis and the shape
    try {
        (void)bsx::mean(a, bsx::axis(5));
        BOOST_ERROR("no exception");
    } catch (const std::out_of_range& e) {
        const std::string what = e.what();
        BOOST_TEST(what.find("mean") != std::string::npos, what);
        BOOST_TEST(what.find('5') != std::string::npos, what);
        BOOST_TEST(what.find("(2,3)") != std::string::npos, what);
    }
}

BOOST_AUTO_TEST_SUITE_END()

// ======================================================================= views and expressions
BOOST_AUTO_TEST_SUITE(operands)

BOOST_AUTO_TEST_CASE(views) {
    // Views of const arrays are all strided_view<const double, 2>: one type, many layouts.
    // (Every reduction is checked on plain arrays; here the layouts matter, and each
    // reduction type checked costs compile time: sum stands for all.)
    const auto src = pattern(20, 7, 4);
    const auto a = make_array<2>({4, 5}, src);
    auto at = [&](index_t i, index_t j) { return src[std::size_t(i * 5 + j)]; };
    {  // transpose: (5,4), t(i,j) = a(j,i)
        ref_array ref{{5, 4}, {}};
        for (index_t i = 0; i < 5; ++i)
            for (index_t j = 0; j < 4; ++j) ref.values.push_back(at(j, i));
        BOOST_TEST_CONTEXT("transpose") { check_reductions<sum_only, sum_only>(bsx::transpose(a), ref); }
        // min, max and any take no tree: their one output spans the view's rows too.
        const auto t = bsx::transpose(a);
        BOOST_TEST(bsx::min(t) == *std::min_element(src.begin(), src.end()));
        BOOST_TEST(bsx::max(t) == *std::max_element(src.begin(), src.end()));
        BOOST_TEST(bsx::any(t == src.back()));
    }
    {  // a[0:4:3, 4:0:-1]: rows 0, 3; columns 4, 3, 2, 1
        ref_array ref{{2, 4}, {}};
        for (index_t i : {0, 3})
            for (index_t j : {4, 3, 2, 1}) ref.values.push_back(at(i, j));
        BOOST_TEST_CONTEXT("strided slice") {
            check_reductions<sum_only, sum_only>(bsx::slice(a, bsx::range(0, 4, 3), bsx::range(4, 0, -1)), ref);
        }
    }
    {  // broadcast_to(a.row(1), (3,5)): a zero stride along the rows
        ref_array ref{{3, 5}, {}};
        for (index_t i = 0; i < 3; ++i)
            for (index_t j = 0; j < 5; ++j) ref.values.push_back(at(1, j));
        BOOST_TEST_CONTEXT("broadcast_to") {
            check_reductions<sum_only, sum_only>(bsx::broadcast_to(a.row(1), shape<2>{3, 5}), ref);
        }
    }
    {  // a column: (4,1) with stride 5
        ref_array ref{{4, 1}, {}};
        for (index_t i = 0; i < 4; ++i) ref.values.push_back(at(i, 2));
        BOOST_TEST_CONTEXT("col") { check_reductions<sum_only, sum_only>(a.col(2), ref); }
    }
    {  // slice(x3, all, 1) of a (3,2,4) array: x3[:, 1, :]
        const auto v3 = pattern(24, 8);
        const auto x3 = make_array<3>({3, 2, 4}, v3);
        ref_array ref{{3, 4}, {}};
        for (index_t i = 0; i < 3; ++i)
            for (index_t k = 0; k < 4; ++k) ref.values.push_back(v3[std::size_t(i * 8 + 4 + k)]);
        BOOST_TEST_CONTEXT("slice(x, all, 1)") {
            check_reductions<sum_only, sum_only>(bsx::slice(x3, bsx::all, 1), ref);
        }
        // permute to (4,3,2): p(i,j,k) = x3(j,k,i)
        ref_array pref{{4, 3, 2}, {}};
        for (index_t i = 0; i < 4; ++i)
            for (index_t j = 0; j < 3; ++j)
                for (index_t k = 0; k < 2; ++k) pref.values.push_back(v3[std::size_t(j * 8 + k * 4 + i)]);
        BOOST_TEST_CONTEXT("permute") { check_reductions<sum_only, 0>(bsx::permute(x3, {2, 0, 1}), pref); }
    }
    {  // a long strided view: the transpose of (300,37), reduced along its 300-long rows
        const auto big = pattern(300 * 37, 9, 50);
        const auto b = make_array<2>({300, 37}, big);
        ref_array ref{{37, 300}, {}};
        for (index_t i = 0; i < 37; ++i)
            for (index_t j = 0; j < 300; ++j) ref.values.push_back(big[std::size_t(j * 37 + i)]);
        BOOST_TEST_CONTEXT("long transpose") { check_reductions<sum_only, sum_only>(bsx::transpose(b), ref); }
    }
}

BOOST_AUTO_TEST_CASE(expressions) {
    // a * b + 1 for same-shape operands, for a (3,1) column times a (1,4) row, a (1,1)
    // times a (6,50), and (0,4) times (1,4) (broadcast inside the reduced operand, empty
    // too): one expression type.
    for (const auto& [sa, sb] : {std::pair<std::vector<index_t>, std::vector<index_t>>{{3, 4}, {3, 4}},
                                 {{3, 1}, {1, 4}},
                                 {{1, 1}, {6, 50}},
                                 {{0, 4}, {1, 4}}}) {
        const auto va = pattern(std::size_t(count(sa)), 11, 6), vb = pattern(std::size_t(count(sb)), 12, 6);
        const auto a = make_array<2>(sa, va), b = make_array<2>(sb, vb);
        const index_t m = sa[0] == 1 ? sb[0] : sa[0], n = sa[1] == 1 ? sb[1] : sa[1];
        ref_array ref{{m, n}, {}};
        for (index_t i = 0; i < m; ++i)
            for (index_t j = 0; j < n; ++j) {
                const double x = va[std::size_t((sa[0] == 1 ? 0 : i) * sa[1] + (sa[1] == 1 ? 0 : j))];
                const double y = vb[std::size_t((sb[0] == 1 ? 0 : i) * sb[1] + (sb[1] == 1 ? 0 : j))];
                ref.values.push_back(x * y + 1.0);
            }
        BOOST_TEST_CONTEXT("a * b + 1, shapes " << fmt(sa) << " and " << fmt(sb)) {
            check_reductions<sum_only, 0>(a * b + 1.0, ref);
        }
    }
    // A rank-3 array times a rank-1 vector (NumPy rules: the vector runs along the last axis).
    {
        const auto vx = pattern(2 * 3 * 4, 13), vv = pattern(4, 14);
        const auto x = make_array<3>({2, 3, 4}, vx);
        const auto v = make_array<1>({4}, vv);
        ref_array ref{{2, 3, 4}, {}};
        for (std::size_t i = 0; i < vx.size(); ++i) ref.values.push_back(vx[i] - vv[i % 4]);
        BOOST_TEST_CONTEXT("x3 - v") { check_reductions<sum_only, 0>(x - v, ref); }
    }
    // A rank-1 expression: abs(v) * 2
    {
        const auto vv = pattern(300, 15, 30);
        const auto v = make_array<1>({300}, vv);
        ref_array ref{{300}, {}};
        for (double e : vv) ref.values.push_back(std::fabs(e) * 2.0);
        BOOST_TEST_CONTEXT("abs(v) * 2") { check_reductions<unsigned(red::mean), 0>(bsx::abs(v) * 2.0, ref); }
    }
}

BOOST_AUTO_TEST_CASE(broadcast_strided_and_tagged_operands) {
    // The matrix product as a broadcast reduction: in_dims places a (3,4) at axes 0,1
    // and b (4,5) at axes 1,2 of a (3,4,5) space; summing axis 1 gives a * b.
    const auto va = pattern(12, 21), vb = pattern(20, 22);
    const auto a = make_array<2>({3, 4}, va), b = make_array<2>({4, 5}, vb);
    std::vector<double> want;
    for (index_t i = 0; i < 3; ++i)
        for (index_t j = 0; j < 5; ++j) {
            double s = 0;
            for (index_t k = 0; k < 4; ++k) s += va[std::size_t(i * 4 + k)] * vb[std::size_t(k * 5 + j)];
            want.push_back(s);
        }
    const auto product = bsx::sum(bsx::in_dims<3>(a, {0, 1}) * bsx::in_dims<3>(b, {1, 2}), bsx::axis(1));
    expect_values(product, "(3,5)", want);
    expect_elements(product, want);
    bsx::array<double, 2> r = bsx::zeros<double>(3, 5);
    r = product;
    expect_values(r, "(3,5)", want);

    // A strided operand: every other column of a (4,10) array, summed along rows and columns.
    const auto vc = pattern(40, 23);
    const auto c = make_array<2>({4, 10}, vc);
    const auto odd = bsx::slice(c, bsx::all, bsx::range(1, 10, 2));
    std::vector<double> rows, cols(5, 0.0);
    for (index_t i = 0; i < 4; ++i) {
        double s = 0;
        for (index_t j = 1; j < 10; j += 2) {
            s += vc[std::size_t(i * 10 + j)];
            cols[std::size_t(j / 2)] += vc[std::size_t(i * 10 + j)];
        }
        rows.push_back(s);
    }
    expect_values(bsx::sum(odd, bsx::axis(1)), "(4,)", rows);
    expect_values(bsx::sum(odd, bsx::axis(0)), "(5,)", cols);

    // A tagged operand: under Octave rules a (3,) vector is a (3,1) column, so it adds to
    // every column of the (3,4) matrix inside the reduction...
    const auto vm = pattern(12, 24), vv = pattern(3, 25);
    const auto m = make_array<2>({3, 4}, vm);
    const auto v = make_array<1>({3}, vv);
    const auto t = bsx::with_rules<bsx::octave_rules>(m);
    std::vector<double> row_sums, centered;
    double total = 0;
    for (index_t i = 0; i < 3; ++i) {
        double s = 0, sm = 0;
        for (index_t j = 0; j < 4; ++j) {
            s += vm[std::size_t(i * 4 + j)] + vv[std::size_t(i)];
            sm += vm[std::size_t(i * 4 + j)];
        }
        row_sums.push_back(s);
        total += s;
        for (index_t j = 0; j < 4; ++j) centered.push_back(vm[std::size_t(i * 4 + j)] - sm / 4.0);
    }
    expect_values(bsx::sum(t + v, bsx::axis(1)), "(3,)", row_sums);
    BOOST_TEST(bsx::sum(t + v) == total);
    // ...and a reduction of a tagged operand carries the tag: its (3,) row means are a
    // column against the matrix (under NumPy rules the same shapes cannot broadcast).
    const auto c2 = t - bsx::mean(t, bsx::axis(1));
    expect_values(c2, "(3,4)", centered);
    expect_elements(c2, centered);
    BOOST_CHECK_THROW((void)(m - bsx::mean(m, bsx::axis(1))), bsx::broadcast_error);
}

BOOST_AUTO_TEST_SUITE_END()

// ======================================================================= keepdims, nesting
BOOST_AUTO_TEST_SUITE(composition)

BOOST_AUTO_TEST_CASE(keepdims_broadcasts_against_the_operand) {
    const auto vx = pattern(5 * 7, 31, 5);
    const auto x = make_array<2>({5, 7}, vx);
    std::vector<double> row_mean(5, 0.0), col_sum(7, 0.0);
    for (index_t i = 0; i < 5; ++i)
        for (index_t j = 0; j < 7; ++j) {
            row_mean[std::size_t(i)] += vx[std::size_t(i * 7 + j)];
            col_sum[std::size_t(j)] += vx[std::size_t(i * 7 + j)];
        }
    for (double& e : row_mean) e /= 7.0;
    std::vector<double> centered, scaled;
    for (index_t i = 0; i < 5; ++i)
        for (index_t j = 0; j < 7; ++j) {
            centered.push_back(vx[std::size_t(i * 7 + j)] - row_mean[std::size_t(i)]);
            scaled.push_back(vx[std::size_t(i * 7 + j)] - col_sum[std::size_t(j)]);
        }
    const auto kd = bsx::mean(x, bsx::axis(1), bsx::keepdims);
    BOOST_TEST(fmt(kd.shape()) == "(5,1)");
    const auto c = x - kd;
    BOOST_TEST(fmt(c.shape()) == "(5,7)");
    expect_values(c, "(5,7)", centered);
    expect_elements(c, centered);
    const bsx::array<double, 2> c_arr = x - bsx::mean(x, bsx::axis(-1), bsx::keepdims);
    expect_values(c_arr, "(5,7)", centered);
    // without keepdims: the (7,) column sums broadcast along the rows (NumPy), the (5,)
    // row means do not fit a (5,7) operand
    expect_values(x - bsx::sum(x, bsx::axis(0)), "(5,7)", scaled);
    BOOST_CHECK_THROW((void)(x - bsx::mean(x, bsx::axis(1))), bsx::broadcast_error);
    // keepdims on a rank-1 operand: shape (1,)
    const auto v = make_array<1>({4}, {1, 2, 3, 6});
    BOOST_TEST(fmt(bsx::sum(v, bsx::axis(0), bsx::keepdims).shape()) == "(1,)");
    expect_values(v / bsx::sum(v, bsx::axis(0), bsx::keepdims), "(4,)", {1 / 12.0, 2 / 12.0, 3 / 12.0, 0.5});
}

BOOST_AUTO_TEST_CASE(element_access_of_a_lazy_reduction) {
    const bsx::array<double, 2> a{{1, 2, 3}, {4, 5, 6}};
    const auto s0 = bsx::sum(a, bsx::axis(0));
    BOOST_TEST(s0(0) == 5.0);
    BOOST_TEST(s0(2) == 9.0);
    const auto s1 = bsx::sum(a, bsx::axis(1), bsx::keepdims);
    BOOST_TEST(s1(1, 0) == 15.0);
    BOOST_TEST(bsx::mean(a, bsx::axis(-1))(0) == 2.0);
    BOOST_TEST(bsx::max(a, bsx::axis(0))(1) == 5.0);
    BOOST_TEST(bsx::prod(a, bsx::axis(1))(1) == 120.0);
    const bsx::array<double, 2> z{{0, 1, 2}, {3, 4, 5}};
    BOOST_TEST(bsx::any(z, bsx::axis(1))(0) == true);
    BOOST_TEST(bsx::all(z, bsx::axis(1))(0) == false);
    BOOST_TEST(bsx::all(z, bsx::axis(1))(1) == true);
    // rank 0: the reduction of a vector along its only axis
    const bsx::array<double, 1> v{1, 2, 3, 4};
    const auto r0 = bsx::sum(v, bsx::axis(0));
    static_assert(decltype(r0)::rank == 0);
    BOOST_TEST(r0() == 10.0);
    BOOST_TEST(r0.size() == 1);
    const bsx::array<double, 0> e0 = r0;
    BOOST_TEST(e0() == 10.0);
    // inside a larger expression
    BOOST_TEST((a - bsx::mean(a, bsx::axis(1), bsx::keepdims))(1, 2) == 1.0);
    // the node is lazy: it reads the array when asked, not when built
    bsx::array<double, 2> w{{1, 2}, {3, 4}};
    const auto lazy = bsx::sum(std::as_const(w), bsx::axis(1));
    w(0, 0) = 10.0;
    BOOST_TEST(lazy(0) == 12.0);
    expect_values(lazy, "(2,)", {12, 7});
}

BOOST_AUTO_TEST_CASE(nested_reductions) {
    const auto vx = pattern(3 * 4 * 5, 41, 9);
    const auto x = make_array<3>({3, 4, 5}, vx);
    auto at = [&](index_t i, index_t j, index_t k) { return vx[std::size_t((i * 4 + j) * 5 + k)]; };
    // sum over axes 2 then 0: (4,)
    std::vector<double> want(4, 0.0);
    double mx = -pinf;
    for (index_t j = 0; j < 4; ++j)
        for (index_t i = 0; i < 3; ++i)
            for (index_t k = 0; k < 5; ++k) want[std::size_t(j)] += at(i, j, k);
    for (index_t i = 0; i < 3; ++i)
        for (index_t k = 0; k < 5; ++k) {
            double mn = pinf;
            for (index_t j = 0; j < 4; ++j) mn = std::min(mn, at(i, j, k));
            mx = std::max(mx, mn);
        }
    const auto nested = bsx::sum(bsx::sum(x, bsx::axis(2)), bsx::axis(0));
    expect_values(nested, "(4,)", want);
    expect_elements(nested, want);
    BOOST_TEST(bsx::max(bsx::min(x, bsx::axis(1))) == mx);
    // the whole reduction of a rank-0 node
    const bsx::array<double, 1> v{1, 2, 3, 4};
    BOOST_TEST(bsx::sum(bsx::sum(v, bsx::axis(0))) == 10.0);
}

BOOST_AUTO_TEST_CASE(reductions_of_the_destination) {
    // The reduction is computed before the outer loop writes: value semantics hold.
    const auto vx = pattern(4 * 5, 51, 6);
    auto a = make_array<2>({4, 5}, vx);
    std::vector<double> col_mean(5, 0.0);
    for (index_t i = 0; i < 4; ++i)
        for (index_t j = 0; j < 5; ++j) col_mean[std::size_t(j)] += vx[std::size_t(i * 5 + j)] / 4.0;
    std::vector<double> want;
    for (index_t i = 0; i < 4; ++i)
        for (index_t j = 0; j < 5; ++j) want.push_back(vx[std::size_t(i * 5 + j)] - col_mean[std::size_t(j)]);
    a = a - bsx::mean(a, bsx::axis(0), bsx::keepdims);  // in-place centering
    expect_values(a, "(4,5)", want);
    // the same with compound assignment, on a fresh copy
    auto b = make_array<2>({4, 5}, vx);
    b -= bsx::mean(b, bsx::axis(0), bsx::keepdims);
    expect_values(b, "(4,5)", want);
    // a row overwritten with the column sums, which read that row
    std::vector<double> sums(5, 0.0);
    for (index_t i = 0; i < 4; ++i)
        for (index_t j = 0; j < 5; ++j) sums[std::size_t(j)] += want[std::size_t(i * 5 + j)];
    a.row(0) = bsx::sum(a, bsx::axis(0), bsx::keepdims);
    for (index_t j = 0; j < 5; ++j) want[std::size_t(j)] = sums[std::size_t(j)];
    expect_values(a, "(4,5)", want);
    // an array resized to its own row sums
    std::vector<double> rs(4, 0.0);
    for (index_t i = 0; i < 4; ++i)
        for (index_t j = 0; j < 5; ++j) rs[std::size_t(i)] += want[std::size_t(i * 5 + j)];
    a = bsx::sum(a, bsx::axis(1), bsx::keepdims);
    expect_values(a, "(4,1)", rs);
}

BOOST_AUTO_TEST_CASE(reductions_into_strided_and_broadcast_destinations) {
    // A destination that is not contiguous, or that the result broadcasts to, gets the
    // result through a buffer; the elements outside it stay as they were.
    const auto vx = pattern(4 * 5, 52, 6);
    const auto a = make_array<2>({4, 5}, vx);
    std::vector<double> row_sums(4, 0.0), col_max(5, -1e300);
    for (index_t i = 0; i < 4; ++i)
        for (index_t j = 0; j < 5; ++j) {
            const double x = vx[std::size_t(i * 5 + j)];
            row_sums[std::size_t(i)] += x;
            col_max[std::size_t(j)] = std::max(col_max[std::size_t(j)], x);
        }
    {  // a column, (4,1) with stride 3
        bsx::array<double, 2> m = bsx::full<double>(shape<2>{4, 3}, 7.0);
        m.col(1) = bsx::sum(a, bsx::axis(1), bsx::keepdims);
        std::vector<double> want;
        for (index_t i = 0; i < 4; ++i)
            for (index_t j = 0; j < 3; ++j) want.push_back(j == 1 ? row_sums[std::size_t(i)] : 7.0);
        expect_values(m, "(4,3)", want);
    }
    {  // a reversed row, written with the maxima of an operand it overlaps
        bsx::array<double, 2> m = a;
        bsx::slice(m, 0, bsx::range(-1, -6, -1)) = bsx::max(m, bsx::axis(0));
        std::vector<double> want = vx;
        for (index_t j = 0; j < 5; ++j) want[std::size_t(4 - j)] = col_max[std::size_t(j)];
        expect_values(m, "(4,5)", want);
    }
    {  // keepdims (4,1) broadcast along the columns of a strided (4,2) view
        bsx::array<double, 2> m = bsx::full<double>(shape<2>{4, 4}, 7.0);
        bsx::slice(m, bsx::all, bsx::range(0, 4, 2)) = bsx::sum(a, bsx::axis(1), bsx::keepdims);
        std::vector<double> want;
        for (index_t i = 0; i < 4; ++i)
            for (index_t j = 0; j < 4; ++j) want.push_back(j % 2 == 0 ? row_sums[std::size_t(i)] : 7.0);
        expect_values(m, "(4,4)", want);
    }
    {  // a contiguous row, written straight with the sums of a transposed view of its
        // array: that operand is read from a copy, gathered along its columns
        const auto vs = pattern(5 * 5, 53, 6);
        auto m = make_array<2>({5, 5}, vs);
        std::vector<double> want = vs;
        for (index_t j = 0; j < 5; ++j) {
            double total = 0;
            for (index_t i = 0; i < 5; ++i) total += vs[std::size_t(i * 5 + j)];
            want[std::size_t(j)] = total;
        }
        bsx::slice(m, 0, bsx::all) = bsx::sum(bsx::transpose(m), bsx::axis(1));
        expect_values(m, "(5,5)", want);
    }
    {  // an operand resized after the reduction was built: the error, the view unchanged
        auto b = bsx::zeros<double>(4, 5);
        const auto s = bsx::sum(b, bsx::axis(1), bsx::keepdims);
        b = bsx::zeros<double>(6, 5);
        bsx::array<double, 2> m = bsx::full<double>(shape<2>{4, 3}, 7.0);
        BOOST_CHECK_THROW(m.col(0) = s, std::logic_error);
        expect_values(m, "(4,3)", std::vector<double>(12, 7.0));
    }
}

BOOST_AUTO_TEST_SUITE_END()

// ======================================================================= types, empties, NaN, int, bool
BOOST_AUTO_TEST_SUITE(elements)

BOOST_AUTO_TEST_CASE(result_element_types) {
    const bsx::array<double, 2> d{{1.5, 2}, {3, 4}};
    const bsx::array<float, 1> f{1.5f, 2.5f};
    const bsx::array<int, 1> i{1, 2};
    const bsx::array<std::uint8_t, 1> u{200, 200};
    const bsx::array<bool, 1> b{true, false, true};
    // Types through decltype (no code is generated for them); the values of most of
    // these are checked by the int, bool and NaN tests.
    static_assert(std::is_same_v<decltype(bsx::sum(d)), double>);
    static_assert(std::is_same_v<decltype(bsx::sum(f)), float>);
    static_assert(std::is_same_v<decltype(bsx::sum(i)), std::int64_t>);
    static_assert(std::is_same_v<decltype(bsx::sum(u)), std::int64_t>);
    static_assert(std::is_same_v<decltype(bsx::sum(b)), std::int64_t>);
    static_assert(std::is_same_v<decltype(bsx::prod(d)), double>);
    static_assert(std::is_same_v<decltype(bsx::prod(f)), float>);
    static_assert(std::is_same_v<decltype(bsx::prod(i)), std::int64_t>);
    static_assert(std::is_same_v<decltype(bsx::prod(u)), std::int64_t>);
    static_assert(std::is_same_v<decltype(bsx::prod(b)), std::int64_t>);
    static_assert(std::is_same_v<decltype(bsx::mean(d)), double>);
    static_assert(std::is_same_v<decltype(bsx::mean(f)), float>);
    static_assert(std::is_same_v<decltype(bsx::mean(i)), double>);
    static_assert(std::is_same_v<decltype(bsx::mean(u)), double>);
    static_assert(std::is_same_v<decltype(bsx::mean(b)), double>);
    static_assert(std::is_same_v<decltype(bsx::min(d)), double>);
    static_assert(std::is_same_v<decltype(bsx::min(f)), float>);
    static_assert(std::is_same_v<decltype(bsx::min(i)), int>);
    static_assert(std::is_same_v<decltype(bsx::max(u)), std::uint8_t>);
    static_assert(std::is_same_v<decltype(bsx::max(b)), bool>);
    static_assert(std::is_same_v<decltype(bsx::all(d)), bool>);
    static_assert(std::is_same_v<decltype(bsx::all(i)), bool>);
    static_assert(std::is_same_v<decltype(bsx::any(f)), bool>);
    static_assert(std::is_same_v<decltype(bsx::any(b)), bool>);
    static_assert(std::is_same_v<decltype(bsx::sum(d > 2.0)), std::int64_t>);
    static_assert(std::is_same_v<decltype(bsx::mean(d > 2.0)), double>);
    // lazy nodes: value_type and rank
    using sum_i_node = decltype(bsx::sum(i, bsx::axis(0)));
    static_assert(std::is_same_v<bsx::value_type_t<sum_i_node>, std::int64_t>);
    static_assert(sum_i_node::rank == 0);
    using mean_i_node = decltype(bsx::mean(i, bsx::axis(0), bsx::keepdims));
    static_assert(std::is_same_v<bsx::value_type_t<mean_i_node>, double>);
    static_assert(mean_i_node::rank == 1);
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::sum(d > 2.0, bsx::axis(1)))>, std::int64_t>);
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::sum(u, bsx::axis(0)))>, std::int64_t>);
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::min(i, bsx::axis(0)))>, int>);
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::all(d, bsx::axis(1)))>, bool>);
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::any(f, bsx::axis(0)))>, bool>);
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::mean(f, bsx::axis(0)))>, float>);
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::prod(b, bsx::axis(0)))>, std::int64_t>);
    static_assert(std::is_same_v<bsx::value_type_t<decltype(bsx::max(b, bsx::axis(0)))>, bool>);
    static_assert(decltype(bsx::sum(d, bsx::axis(1)))::rank == 1);
    static_assert(decltype(bsx::sum(d, bsx::axis(1), bsx::keepdims))::rank == 2);
    // an evaluated node is an array of that element type
    const auto counts = bsx::eval(bsx::sum(d > 2.0, bsx::axis(1)));
    static_assert(std::is_same_v<std::remove_const_t<decltype(counts)>, bsx::array<std::int64_t, 1>>);
    BOOST_TEST(counts(0) == 0);
    BOOST_TEST(counts(1) == 2);
    // a few values
    const auto s_u = bsx::sum(u);
    BOOST_TEST(s_u == 400);  // no wrap-around in uint8
    const auto s_f = bsx::sum(f);
    BOOST_TEST(s_f == 4.0f);
    BOOST_TEST(bsx::mean(i) == 1.5);
    BOOST_TEST(bsx::sum(b) == 2);
    BOOST_TEST(bsx::mean(f, bsx::axis(0))() == 2.0f);
    BOOST_TEST(bsx::sum(u, bsx::axis(0))() == 400);
}

BOOST_AUTO_TEST_CASE(empty_extents) {
    // (0,3): NumPy gives sum(axis=0) = [0,0,0], prod [1,1,1], mean [qnan]*3 (with a
    // warning), all [True]*3, any [False]*3, and min/max raise; along axis 1, shape (0,).
    const auto e03 = bsx::zeros<double>(0, 3);
    const auto e30 = bsx::zeros<double>(3, 0);
    BOOST_TEST(bsx::sum(e03) == 0.0);
    BOOST_TEST(bsx::prod(e03) == 1.0);
    BOOST_TEST(std::isnan(bsx::mean(e03)));
    BOOST_TEST(bsx::all(e03) == true);
    BOOST_TEST(bsx::any(e03) == false);
    BOOST_CHECK_THROW((void)bsx::min(e03), std::invalid_argument);
    BOOST_CHECK_THROW((void)bsx::max(e30), std::invalid_argument);
    expect_values(bsx::sum(e03, bsx::axis(0)), "(3,)", {0, 0, 0});
    expect_values(bsx::prod(e03, bsx::axis(0)), "(3,)", {1, 1, 1});
    expect_values(bsx::mean(e03, bsx::axis(0)), "(3,)", {qnan, qnan, qnan});
    expect_values(bsx::all(e03, bsx::axis(0)), "(3,)", {1, 1, 1});
    expect_values(bsx::any(e03, bsx::axis(0)), "(3,)", {0, 0, 0});
    expect_values(bsx::sum(e03, bsx::axis(0), bsx::keepdims), "(1,3)", {0, 0, 0});
    BOOST_CHECK_THROW((void)bsx::min(e03, bsx::axis(0)), std::invalid_argument);
    BOOST_CHECK_THROW((void)bsx::max(e03, bsx::axis(-2)), std::invalid_argument);
    BOOST_CHECK_THROW((void)bsx::max(e03, bsx::axis(0), bsx::keepdims), std::invalid_argument);
    // along axis 1 of (0,3) nothing is reduced and there is no output: no error
    expect_values(bsx::sum(e03, bsx::axis(1)), "(0,)", {});
    expect_values(bsx::min(e03, bsx::axis(1)), "(0,)", {});
    BOOST_TEST(fmt(bsx::max(e03, bsx::axis(1), bsx::keepdims).shape()) == "(0,1)");
    // (3,0): axis 0 gives (0,) (min fine), axis 1 gives three empty reductions
    expect_values(bsx::min(e30, bsx::axis(0)), "(0,)", {});
    expect_values(bsx::sum(e30, bsx::axis(1)), "(3,)", {0, 0, 0});
    expect_values(bsx::prod(e30, bsx::axis(1)), "(3,)", {1, 1, 1});
    expect_values(bsx::mean(e30, bsx::axis(-1)), "(3,)", {qnan, qnan, qnan});
    expect_values(bsx::all(e30, bsx::axis(1)), "(3,)", {1, 1, 1});
    BOOST_TEST(fmt(bsx::any(e30, bsx::axis(1), bsx::keepdims).shape()) == "(3,1)");
    expect_elements(bsx::any(e30, bsx::axis(1), bsx::keepdims), {0, 0, 0});
    BOOST_CHECK_THROW((void)bsx::min(e30, bsx::axis(1)), std::invalid_argument);
    // (0,0): NumPy raises along either axis, although the result (0,) is empty too
    const auto e00 = bsx::zeros<double>(0, 0);
    BOOST_CHECK_THROW((void)bsx::min(e00, bsx::axis(0)), std::invalid_argument);
    BOOST_CHECK_THROW((void)bsx::max(e00, bsx::axis(1)), std::invalid_argument);
    BOOST_CHECK_THROW((void)bsx::max(e00, bsx::axis(-1), bsx::keepdims), std::invalid_argument);
    expect_values(bsx::sum(e00, bsx::axis(1)), "(0,)", {});
    // element access of an empty reduction
    BOOST_TEST(bsx::prod(e30, bsx::axis(1))(2) == 1.0);
    BOOST_TEST(std::isnan(bsx::mean(e03, bsx::axis(0))(1)));
    // rank 1: (0,) along axis 0 is one empty reduction (rank 0)
    const bsx::array<double, 1> e0;
    BOOST_TEST(bsx::sum(e0, bsx::axis(0))() == 0.0);
    BOOST_TEST(bsx::eval(bsx::prod(e0, bsx::axis(0)))() == 1.0);
    BOOST_CHECK_THROW((void)bsx::min(e0, bsx::axis(0)), std::invalid_argument);
    BOOST_CHECK_THROW((void)bsx::max(e0), std::invalid_argument);
    // integral and bool elements
    const bsx::array<int, 2> ei(shape<2>{0, 2});
    BOOST_TEST(bsx::sum(ei) == 0);
    BOOST_TEST(bsx::prod(ei) == 1);
    BOOST_TEST(std::isnan(bsx::mean(ei)));
    BOOST_CHECK_THROW((void)bsx::min(ei), std::invalid_argument);
    const bsx::array<bool, 1> eb;
    BOOST_TEST(bsx::sum(eb) == 0);
    BOOST_TEST(bsx::all(eb) == true);
    BOOST_TEST(bsx::any(eb) == false);
    expect_values(bsx::sum(ei, bsx::axis(0)), "(2,)", {0, 0});
    // the message names the reduction and the shape
    try {
        (void)bsx::min(e03, bsx::axis(0));
        BOOST_ERROR("no exception");
    } catch (const std::invalid_argument& x) {
        const std::string what = x.what();
        BOOST_TEST(what.find("min") != std::string::npos, what);
        BOOST_TEST(what.find("(0,3)") != std::string::npos, what);
    }
}

BOOST_AUTO_TEST_CASE(nan_propagates_through_min_and_max) {
    // A single NaN anywhere in 1000 elements: lane, chunk and block boundaries.
    for (std::size_t p : {0, 1, 7, 8, 9, 255, 256, 257, 511, 998, 999}) {
        BOOST_TEST_CONTEXT("NaN at " << p) {
            auto values = pattern(1000, 61);
            values[p] = qnan;
            const auto v = make_array<1>({1000}, values);
            BOOST_TEST(std::isnan(bsx::min(v)));
            BOOST_TEST(std::isnan(bsx::max(v)));
            BOOST_TEST(std::isnan(bsx::min(v, bsx::axis(0))()));
            BOOST_TEST(std::isnan(bsx::eval(bsx::max(v, bsx::axis(0)))()));
            BOOST_TEST(std::isnan(bsx::sum(v)));
        }
    }
    // NaN beside infinities
    const bsx::array<double, 1> w{-pinf, qnan, pinf};
    BOOST_TEST(std::isnan(bsx::min(w)));
    BOOST_TEST(std::isnan(bsx::max(w)));
    const bsx::array<double, 1> only_inf{pinf, pinf};
    BOOST_TEST(bsx::min(only_inf) == pinf);
    const bsx::array<double, 1> only_minus_inf{-pinf, -pinf};
    BOOST_TEST(bsx::max(only_minus_inf) == -pinf);
    // along axes: only the lines holding a NaN are NaN
    auto values = pattern(2400, 62);
    values[2 * 600 + 300] = qnan;
    const auto a = make_array<2>({4, 600}, values);
    const auto by_row = bsx::eval(bsx::min(a, bsx::axis(1)));
    const auto by_col = bsx::eval(bsx::max(a, bsx::axis(0)));
    for (index_t i = 0; i < 4; ++i) BOOST_TEST(std::isnan(by_row(i)) == (i == 2));
    for (index_t j = 0; j < 600; ++j)
        if (std::isnan(by_col(j)) != (j == 300)) BOOST_ERROR("column " << j);
    BOOST_TEST(std::isnan(bsx::max(a, bsx::axis(0))(300)));
    BOOST_TEST(!std::isnan(bsx::max(a, bsx::axis(0))(299)));
    // float elements too
    const bsx::array<float, 1> f{1.0f, std::numeric_limits<float>::quiet_NaN(), -1.0f};
    BOOST_TEST(std::isnan(bsx::min(f)));
    BOOST_TEST(std::isnan(bsx::max(f)));
}

BOOST_AUTO_TEST_CASE(nan_counts_as_true) {
    const bsx::array<double, 1> n1{qnan, 1.0};
    const bsx::array<double, 1> n0{0.0, qnan};
    const bsx::array<double, 1> zeros{0.0, -0.0};
    BOOST_TEST(bsx::all(n1) == true);
    BOOST_TEST(bsx::any(n0) == true);
    BOOST_TEST(bsx::all(n0) == false);
    BOOST_TEST(bsx::any(zeros) == false);  // -0.0 is zero, so false
    const bsx::array<double, 2> m{{qnan, 0.0}, {qnan, qnan}};
    expect_values(bsx::all(m, bsx::axis(1)), "(2,)", {0, 1});
    expect_values(bsx::any(m, bsx::axis(0)), "(2,)", {1, 1});
    expect_values(bsx::all(m, bsx::axis(0)), "(2,)", {1, 0});
    BOOST_TEST(bsx::all(m, bsx::axis(1))(1) == true);
}

BOOST_AUTO_TEST_CASE(int_elements) {
    const int big = std::numeric_limits<int>::max(), small = std::numeric_limits<int>::min();
    const bsx::array<int, 2> m{{big, big, 5}, {small, 1, -3}};
    const std::int64_t B = big, S = small;
    BOOST_TEST(bsx::sum(m) == 2 * B + 5 + S + 1 - 3);  // beyond int32: accumulated in int64
    expect_values(bsx::sum(m, bsx::axis(0)), "(3,)", {double(B + S), double(B + 1), 2});
    expect_values(bsx::sum(m, bsx::axis(1)), "(2,)", {double(2 * B + 5), double(S - 2)});
    BOOST_TEST(bsx::sum(m, bsx::axis(0))(1) == B + 1);
    const auto p0 = bsx::eval(bsx::prod(m, bsx::axis(0)));
    static_assert(std::is_same_v<std::remove_const_t<decltype(p0)>, bsx::array<std::int64_t, 1>>);
    BOOST_TEST(p0(0) == B * S);
    BOOST_TEST(p0(1) == B);
    BOOST_TEST(p0(2) == -15);
    const bsx::array<int, 2> q{{100000, 100000}, {3, -1}};
    BOOST_TEST(bsx::prod(q) == std::int64_t(-30000000000));
    BOOST_TEST(bsx::mean(m) == double(2 * B + 5 + S + 1 - 3) / 6.0);
    expect_values(bsx::mean(m, bsx::axis(1)), "(2,)", {double(2 * B + 5) / 3.0, double(S - 2) / 3.0});
    BOOST_TEST(bsx::min(m) == small);
    BOOST_TEST(bsx::max(m) == big);
    expect_values(bsx::min(m, bsx::axis(1)), "(2,)", {5, double(S)});
    expect_elements(bsx::max(m, bsx::axis(0)), {double(B), double(B), 5});
    // extremes survive the identities (int has no infinity)
    const bsx::array<int, 1> only_max{big, big}, only_min{small};
    BOOST_TEST(bsx::min(only_max) == big);
    BOOST_TEST(bsx::max(only_min) == small);
    BOOST_TEST(bsx::all(m) == true);
    const bsx::array<int, 2> z{{0, 3}, {0, 0}};
    BOOST_TEST(bsx::all(z) == false);
    BOOST_TEST(bsx::any(z) == true);
    expect_elements(bsx::all(z, bsx::axis(1)), {0, 0});
    expect_elements(bsx::any(z, bsx::axis(1)), {1, 0});
    expect_elements(bsx::any(z, bsx::axis(0)), {0, 1});
    // a long int sum in parallel: 100000 * 30000 = 3e9 > int32
    const bsx::array<int, 1> many = bsx::full<int>(shape<1>{100000}, 30000);
    BOOST_TEST(bsx::sum(many) == std::int64_t(3000000000));
    BOOST_TEST(bsx::sum(many, bsx::axis(0))() == std::int64_t(3000000000));
    BOOST_TEST(bsx::mean(many) == 30000.0);
}

BOOST_AUTO_TEST_CASE(bool_elements) {
    const bsx::array<double, 2> a{{1, 5, 3}, {4, 2, 6}};
    const auto gt = a > 2.5;  // [[F, T, T], [T, F, T]]
    BOOST_TEST(bsx::sum(gt) == 4);
    expect_values(bsx::sum(gt, bsx::axis(0)), "(3,)", {1, 1, 2});
    expect_values(bsx::sum(gt, bsx::axis(1)), "(2,)", {2, 2});
    BOOST_TEST(bsx::mean(gt) == 4.0 / 6.0);
    BOOST_TEST(bsx::all(gt) == false);
    BOOST_TEST(bsx::any(gt) == true);
    expect_elements(bsx::all(gt, bsx::axis(0)), {0, 0, 1});
    expect_elements(bsx::any(gt, bsx::axis(-1)), {1, 1});
    const bsx::array<bool, 1> b{true, true, false, true};
    BOOST_TEST(bsx::sum(b) == 3);
    BOOST_TEST(bsx::prod(b) == 0);
    BOOST_TEST(bsx::min(b) == false);
    BOOST_TEST(bsx::max(b) == true);
    BOOST_TEST(bsx::all(b) == false);
    BOOST_TEST(bsx::any(b) == true);
    BOOST_TEST(bsx::sum(b, bsx::axis(0))() == 3);
    // counting over a long comparison (parallel path)
    const auto v = make_array<1>({100000}, pattern(100000, 71));
    std::int64_t positives = 0;
    for (double e : v) positives += e > 0;
    BOOST_TEST(bsx::sum(v > 0.0) == positives);
}

BOOST_AUTO_TEST_CASE(names_shared_with_slicing_and_elementwise_functions) {
    // bsx::all is still the slice spec; bsx::min/max are still element-wise functions.
    const bsx::array<double, 2> a{{1, 5, 3}, {4, 2, 6}};
    expect_values(bsx::slice(a, bsx::all, 1), "(2,)", {5, 2});
    expect_values(bsx::min(a, 3.0), "(2,3)", {1, 3, 3, 3, 2, 3});
    expect_values(bsx::max(a, bsx::array<double, 1>{2, 2, 7}), "(2,3)", {2, 5, 7, 4, 2, 7});
    expect_values(bsx::min(a, bsx::array<double, 1>{0, 9}, {0}), "(2,3)", {0, 0, 0, 4, 2, 6});
    BOOST_TEST(bsx::all(a) == true);  // the same object, as a reduction
}

BOOST_AUTO_TEST_SUITE_END()

// ======================================================================= evaluation
namespace {

/// The identity, counting its calls (from any thread).
struct counting_identity {
    std::atomic<long>* calls;
    double operator()(double v) const {
        calls->fetch_add(1, std::memory_order_relaxed);
        return v;
    }
};

void set_threads([[maybe_unused]] int t) {
#ifdef _OPENMP
    omp_set_num_threads(t);
#endif
}
int max_threads() {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

}  // namespace

BOOST_AUTO_TEST_SUITE(evaluation)

BOOST_AUTO_TEST_CASE(nested_reduction_is_evaluated_once) {
    const int saved = max_threads();
    // (300,200) = 60000 elements: the outer loop and the reduction run in parallel.
    for (const auto& [n, m] : {std::pair<index_t, index_t>{5, 7}, {300, 200}}) {
        for (int t : {1, 2}) {
            set_threads(t);
            BOOST_TEST_CONTEXT("shape (" << n << "," << m << "), threads " << t) {
                const auto vx = pattern(std::size_t(n * m), 81, 5);
                const auto x = make_array<2>({n, m}, vx);
                std::vector<double> row(std::size_t(n), 0.0), col(std::size_t(m), -pinf);
                for (index_t i = 0; i < n; ++i)
                    for (index_t j = 0; j < m; ++j) {
                        row[std::size_t(i)] += vx[std::size_t(i * m + j)];
                        col[std::size_t(j)] = std::max(col[std::size_t(j)], vx[std::size_t(i * m + j)]);
                    }
                std::vector<double> want, want2;
                for (index_t i = 0; i < n; ++i)
                    for (index_t j = 0; j < m; ++j) {
                        want.push_back(vx[std::size_t(i * m + j)] - row[std::size_t(i)]);
                        want2.push_back(vx[std::size_t(i * m + j)] * col[std::size_t(j)]);
                    }
                std::atomic<long> calls{0};
                const counting_identity f{&calls};
                // construction
                bsx::array<double, 2> r = x - bsx::sum(bsx::map(f, x), bsx::axis(1), bsx::keepdims);
                BOOST_TEST(calls.load() == n * m);
                expect_values(r, fmt(std::vector<index_t>{n, m}), want);
                // assignment into a preallocated array
                calls = 0;
                r = 0.0;
                r = x - bsx::sum(bsx::map(f, x), bsx::axis(1), bsx::keepdims);
                BOOST_TEST(calls.load() == n * m);
                expect_values(r, fmt(std::vector<index_t>{n, m}), want);
                // a reduction without keepdims, broadcast along the rows
                calls = 0;
                r = x * bsx::max(bsx::map(f, x), bsx::axis(0));
                BOOST_TEST(calls.load() == n * m);
                expect_values(r, fmt(std::vector<index_t>{n, m}), want2);
                // the whole reduction of a reduction
                calls = 0;
                const double total = bsx::sum(bsx::sum(bsx::map(f, x), bsx::axis(1)));
                BOOST_TEST(calls.load() == n * m);
                double want_total = 0;
                for (double e : row) want_total += e;
                BOOST_TEST(total == want_total);
            }
        }
    }
    set_threads(saved);
}

BOOST_AUTO_TEST_CASE(same_bits_for_any_thread_count) {
    const int saved = max_threads();
    std::mt19937_64 rng(2024);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    auto random_array = [&](const std::vector<index_t>& s) {
        std::vector<double> v(std::size_t(count(s)));
        for (double& e : v) e = u(rng);
        return v;
    };
    // Above BSX_PARALLEL_THRESHOLD, reduce_outputs gives whole outputs to threads when
    // there are at least as many outputs as threads, else splits each output's blocks
    // among them: `big`, `single` and (with 4 threads) `wide` take the second path.
    const auto big = make_array<1>({1000000}, random_array({1000000}));         // one output
    const auto single = make_array<2>({1, 600000}, random_array({1, 600000}));  // one output along axis 1
    const auto wide = make_array<2>({3, 400000}, random_array({3, 400000}));    // few long outputs
    const auto many = make_array<2>({2000, 300}, random_array({2000, 300}));    // many outputs
    const auto cube = make_array<3>({40, 50, 60}, random_array({40, 50, 60}));
    const auto wide_cols = make_array<2>({3000, 700}, random_array({3000, 700}));  // long columns
    const auto pa = make_array<2>({60, 70}, random_array({60, 70}));
    const auto pb = make_array<2>({70, 80}, random_array({70, 80}));
    // Every sum, flattened into one vector of doubles.
    auto all_sums = [&] {
        std::vector<double> out;
        auto append = [&](const auto& arr) { out.insert(out.end(), arr.begin(), arr.end()); };
        out.push_back(bsx::sum(big));
        out.push_back(bsx::mean(big));
        append(bsx::eval(bsx::sum(big, bsx::axis(0))));
        append(bsx::eval(bsx::sum(single, bsx::axis(1))));
        append(bsx::eval(bsx::sum(single, bsx::axis(-1), bsx::keepdims)));
        out.push_back(bsx::sum(wide));
        append(bsx::eval(bsx::sum(wide, bsx::axis(1))));
        append(bsx::eval(bsx::sum(wide, bsx::axis(0))));
        out.push_back(bsx::sum(many));
        append(bsx::eval(bsx::sum(many, bsx::axis(1))));
        append(bsx::eval(bsx::sum(many, bsx::axis(0))));
        append(bsx::eval(bsx::sum(bsx::transpose(many), bsx::axis(1))));
        append(bsx::eval(bsx::mean(many, bsx::axis(-1), bsx::keepdims)));
        out.push_back(bsx::sum(cube));
        for (index_t k = 0; k < 3; ++k) append(bsx::eval(bsx::sum(cube, bsx::axis(k))));
        // The outer traversal (a tile of adjacent outputs at a time): columns of a wide
        // matrix, a middle axis, a product read through broadcasts, a strided view.
        append(bsx::eval(bsx::sum(wide_cols, bsx::axis(0))));
        append(bsx::eval(bsx::max(wide_cols, bsx::axis(0))));
        append(bsx::eval(bsx::mean(cube, bsx::axis(1), bsx::keepdims)));
        append(bsx::eval(bsx::sum(bsx::in_dims<3>(pa, {0, 1}) * bsx::in_dims<3>(pb, {1, 2}), bsx::axis(1))));
        append(bsx::eval(bsx::sum(bsx::slice(many, bsx::range(0, 2000, 3), bsx::all), bsx::axis(0))));
        return out;
    };
    set_threads(1);
    const std::vector<double> one = all_sums();
    // Element access takes the same blocks, chunks and lanes as the evaluator: the same bits,
    // whichever traversal evaluated it (many0 and cols0 take the outer one).
    const auto cols0 = bsx::sum(wide_cols, bsx::axis(0));
    const auto cols0_eval = bsx::eval(cols0);
    const auto wide1 = bsx::sum(wide, bsx::axis(1));
    const auto many0 = bsx::sum(many, bsx::axis(0));
    const auto cube1 = bsx::sum(cube, bsx::axis(1));
    const auto wide1_eval = bsx::eval(wide1);
    const auto many0_eval = bsx::eval(many0);
    const auto cube1_eval = bsx::eval(cube1);
    bool elements_equal = true;
    for (index_t i = 0; i < 3; ++i) {
        const double x = wide1(i), y = wide1_eval(i);
        elements_equal = elements_equal && std::memcmp(&x, &y, sizeof x) == 0;
    }
    for (index_t j = 0; j < 300; ++j) {
        const double x = many0(j), y = many0_eval(j);
        elements_equal = elements_equal && std::memcmp(&x, &y, sizeof x) == 0;
    }
    for (index_t j = 0; j < 700; j += 9) {
        const double x = cols0(j), y = cols0_eval(j);
        elements_equal = elements_equal && std::memcmp(&x, &y, sizeof x) == 0;
    }
    // The same tree in both traversals: columns of a matrix are bit for bit the rows of its
    // transpose stored contiguously.
    const bsx::array<double, 2> cols_t = bsx::transpose(wide_cols);
    const auto rows_of_t = bsx::eval(bsx::sum(cols_t, bsx::axis(1)));
    BOOST_TEST(std::memcmp(rows_of_t.data(), cols0_eval.data(), 700 * sizeof(double)) == 0);
    for (index_t i = 0; i < 40; i += 13)
        for (index_t k = 0; k < 60; k += 7) {
            const double x = cube1(i, k), y = cube1_eval(i, k);
            elements_equal = elements_equal && std::memcmp(&x, &y, sizeof x) == 0;
        }
    BOOST_TEST(elements_equal);
#ifdef _OPENMP
    // 2 threads; 3 (uneven splits); 4 (more threads than the 3 outputs of `wide`: its
    // long rows are split into blocks shared among the threads).
    for (int t : {2, 3, 4}) {
        set_threads(t);
        BOOST_TEST_CONTEXT("threads " << t) {
            BOOST_TEST(max_threads() == t);
            const std::vector<double> other = all_sums();
            BOOST_TEST_REQUIRE(other.size() == one.size());
            std::size_t first_difference = one.size();
            for (std::size_t k = 0; k < one.size() && first_difference == one.size(); ++k)
                if (std::memcmp(&one[k], &other[k], sizeof(double)) != 0) first_difference = k;
            BOOST_TEST(first_difference == one.size(), "results differ from 1 thread's, first at " << first_difference);
            BOOST_TEST(std::memcmp(one.data(), other.data(), one.size() * sizeof(double)) == 0);
        }
    }
#endif
    set_threads(saved);
    // sanity: the sums are right (1e-12 relative of a long double loop)
    long double ref = 0;
    for (double e : big) ref += e;
    BOOST_TEST(std::fabs(one[0] - double(ref)) <= 1e-12 * std::fabs(double(ref)) + 1e-12);
}

/// The tree of a double sum as doc/design.md defines it, written out plainly: blocks of
/// about 2048 elements (at most 256), each a whole number of BSX_CHUNK-long chunks,
/// combined by recursive halving; chunks into 8 interleaved lanes that halve, chunk
/// values through a binary counter (the older partial on the left).
double tree_sum(const std::vector<double>& x) {
    const auto n = index_t(x.size());
    const auto divide_up = [](index_t a, index_t b) { return a / b + (a % b != 0); };
    const index_t wanted = std::clamp<index_t>(divide_up(n, 2048), 1, 256);
    const index_t length = divide_up(divide_up(n, wanted), BSX_CHUNK) * BSX_CHUNK;
    const index_t blocks = std::max<index_t>(1, divide_up(n, length));
    const auto block_sum = [&](index_t b) {
        std::vector<std::pair<double, int>> counter;  // (partial, level)
        for (index_t c = std::min(b * length, n); c < std::min((b + 1) * length, n); c += BSX_CHUNK) {
            double lane[8] = {};
            for (index_t j = c; j < std::min({c + BSX_CHUNK, (b + 1) * length, n}); ++j)
                lane[(j - c) % 8] += x[std::size_t(j)];
            for (int width = 4; width > 0; width /= 2)
                for (int l = 0; l < width; ++l) lane[l] += lane[l + width];
            std::pair<double, int> value{lane[0], 0};
            while (!counter.empty() && counter.back().second == value.second) {
                value = {counter.back().first + value.first, value.second + 1};
                counter.pop_back();
            }
            counter.push_back(value);
        }
        double out = 0;
        for (auto p = counter.rbegin(); p != counter.rend(); ++p) out = p->first + out;
        return out;
    };
    const auto halving = [&](const auto& self, index_t first, index_t count) -> double {
        if (count == 1) return block_sum(first);
        return self(self, first, count / 2) + self(self, first + count / 2, count - count / 2);
    };
    return halving(halving, 0, blocks);
}

BOOST_AUTO_TEST_CASE(sums_follow_the_documented_tree) {
    // Bit for bit, at every length that shapes the tree differently: one partial chunk,
    // blocks of under, exactly and over eight chunks (the inner traversal pushes chunk
    // values in groups of eight), 256 blocks of 9 and of 16 chunks, a last block cut
    // short. Also along axis 0, where the outer traversal computes the same tree another way.
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (const index_t n : {index_t(1), index_t(255), index_t(257), index_t(3 * 2048 + 5), index_t(16 * 2048),
                            index_t(256 * 2048 + 777), index_t(1000000)}) {
        BOOST_TEST_CONTEXT("n = " << n) {
            std::vector<double> v(static_cast<std::size_t>(n));
            for (double& e : v) e = u(rng);
            const double expected = tree_sum(v);
            const auto x = make_array<1>({n}, v);
            const double got = bsx::sum(x);
            BOOST_TEST(std::memcmp(&got, &expected, sizeof got) == 0, "sum " << got << ", the tree " << expected);
            if (n > 600000) continue;  // (the matrix below would take 128 MB)
            auto matrix = bsx::zeros<double>(n, 16);
            for (index_t i = 0; i < n; ++i) matrix(i, 5) = v[std::size_t(i)];
            const double down = bsx::eval(bsx::sum(matrix, bsx::axis(0)))(5);
            BOOST_TEST(std::memcmp(&down, &expected, sizeof down) == 0,
                       "along axis 0 " << down << ", the tree " << expected);
        }
    }
}

BOOST_AUTO_TEST_CASE(outer_traversal_rows_side_by_side_follow_the_tree) {
    // The outer traversal folds a lane's rows four at a time, each row through its own copy
    // of the evaluator, with its own tiles: here a math node (exp) and an operand broadcast
    // along the rows (c, read through a period tile), an inner part of two axes (3 x 7
    // outputs), and lengths whose chunks leave passes of one to four rows. Every output is
    // still the documented tree of its column, at every thread count.
    std::mt19937_64 rng(13);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (const index_t m : {index_t(5), index_t(3 * 256 + 37), index_t(9 * 256 + 250)}) {
        BOOST_TEST_CONTEXT("m = " << m) {
            bsx::array<double, 3> x(shape<3>{m, 3, 7}), c(shape<3>{m, 1, 1});
            for (double& e : x) e = u(rng);
            for (double& e : c) e = u(rng);
            const bsx::array<double, 3> terms = bsx::exp(x) - c;  // the elements, each computed alone
            std::vector<double> expected;
            for (index_t i = 0; i < 3; ++i)
                for (index_t j = 0; j < 7; ++j) {
                    std::vector<double> column;
                    for (index_t k = 0; k < m; ++k) column.push_back(terms(k, i, j));
                    expected.push_back(tree_sum(column));
                }
            for_thread_counts([&] {
                const bsx::array<double, 2> got = bsx::sum(bsx::exp(x) - c, bsx::axis(0));
                for (index_t i = 0; i < 3; ++i)
                    for (index_t j = 0; j < 7; ++j) {
                        const double want = expected[std::size_t(i * 7 + j)];
                        BOOST_TEST(same_bits(got(i, j), want),
                                   "output (" << i << ", " << j << "): " << got(i, j) << ", the tree " << want);
                    }
            });
        }
    }
}

BOOST_AUTO_TEST_CASE(outer_traversal_in_place_rows_follow_the_tree) {
    // Rows that every operand reads in place, one of them with stride 0 (a(i, k): one value
    // per row, as in the broadcast matrix product), are read with row readers, not tiles;
    // the constant operand comes first or second. Every output is still the tree of its
    // column, at every thread count. (A sum of sums: no multiply to contract into an FMA.)
    std::mt19937_64 rng(17);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (const index_t m : {index_t(5), index_t(3 * 256 + 37), index_t(9 * 256 + 250)}) {
        BOOST_TEST_CONTEXT("m = " << m) {
            bsx::array<double, 2> a(shape<2>{3, m}), b(shape<2>{m, 37});
            for (double& e : a) e = u(rng);
            for (double& e : b) e = u(rng);
            std::vector<double> expected;
            for (index_t i = 0; i < 3; ++i)
                for (index_t j = 0; j < 37; ++j) {
                    std::vector<double> column;
                    for (index_t k = 0; k < m; ++k) column.push_back(a(i, k) + b(k, j));
                    expected.push_back(tree_sum(column));
                }
            for_thread_counts([&] {
                const bsx::array<double, 2> first =
                    bsx::sum(bsx::in_dims<3>(a, {0, 1}) + bsx::in_dims<3>(b, {1, 2}), bsx::axis(1));
                const bsx::array<double, 2> second =
                    bsx::sum(bsx::in_dims<3>(b, {1, 2}) + bsx::in_dims<3>(a, {0, 1}), bsx::axis(1));
                for (index_t i = 0; i < 3; ++i)
                    for (index_t j = 0; j < 37; ++j) {
                        const double want = expected[std::size_t(i * 37 + j)];
                        BOOST_TEST(same_bits(first(i, j), want),
                                   "output (" << i << ", " << j << "): " << first(i, j) << ", the tree " << want);
                        BOOST_TEST(same_bits(second(i, j), want),
                                   "output (" << i << ", " << j << "): " << second(i, j) << ", the tree " << want);
                    }
            });
        }
    }
}

BOOST_AUTO_TEST_CASE(long_sums_are_accurate) {
    // 10^7 doubles (10^6 under sanitizers): pairwise summation stays within 1e-14 relative
    // of a compensated long double reference (a naive double loop is typically ~1e-13 off
    // at 10^7).
    const index_t n = sanitized ? 1000000 : 10000000, row = n / 10;
    bsx::array<double, 1> x(shape<1>{n});
    std::mt19937_64 rng(7);
    for (const auto& [lo, hi] : {std::pair<double, double>{0.0, 1.0}, {-1.0, 1.0}}) {
        BOOST_TEST_CONTEXT("uniform in [" << lo << ", " << hi << ")") {
            std::uniform_real_distribution<double> u(lo, hi);
            for (double& e : x) e = u(rng);
            long double s = 0, c = 0;  // Kahan in long double
            double naive = 0;
            for (double e : x) {
                const long double y = (long double)e - c;
                const long double t = s + y;
                c = (t - s) - y;
                s = t;
                naive += e;
            }
            const double ref = double(s);
            const double got = bsx::sum(x);
            const double rel = std::fabs(got - ref) / std::fabs(ref);
            BOOST_TEST_MESSAGE("sum of " << n << " in [" << lo << "," << hi << "): relative error " << rel
                                         << " (naive loop " << std::fabs(naive - ref) / std::fabs(ref) << ")");
            BOOST_TEST(rel <= 1e-14, "relative error " << rel);
            const double mean_rel = std::fabs(bsx::mean(x) - ref / double(n)) / std::fabs(ref / double(n));
            BOOST_TEST(mean_rel <= 1e-14, "mean: relative error " << mean_rel);
            // the same numbers as 10 rows, summed along axis 1 (lazy node, evaluated)
            const auto matrix = bsx::reshape<2>(std::as_const(x), shape<2>{10, row});
            const auto rows = bsx::eval(bsx::sum(matrix, bsx::axis(1)));
            for (index_t i = 0; i < 10; ++i) {
                long double rs = 0, rc = 0;
                for (index_t j = 0; j < row; ++j) {
                    const long double y = (long double)x(i * row + j) - rc;
                    const long double t = rs + y;
                    rc = (t - rs) - y;
                    rs = t;
                }
                const double rrel = std::fabs(rows(i) - double(rs)) / std::fabs(double(rs));
                BOOST_TEST(rrel <= 1e-14, "row " << i << ": relative error " << rrel);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(long_columns_are_accurate) {
    // 10^7 doubles as (500000, 20) (a tenth of the rows under sanitizers), summed along
    // axis 0: every column takes the outer traversal and must keep the pairwise bound,
    // 1e-14 relative of a compensated long double reference (a plain loop down each column
    // is printed for comparison).
    const index_t m = sanitized ? 50000 : 500000, n = 20;
    bsx::array<double, 2> x(shape<2>{m, n});
    std::mt19937_64 rng(8);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (double& e : x) e = u(rng);
    const auto cols = bsx::eval(bsx::sum(x, bsx::axis(0)));
    double worst = 0, worst_naive = 0;
    for (index_t j = 0; j < n; ++j) {
        long double s = 0, c = 0;
        double naive = 0;
        for (index_t i = 0; i < m; ++i) {
            const long double y = (long double)x(i, j) - c;
            const long double t = s + y;
            c = (t - s) - y;
            s = t;
            naive += x(i, j);
        }
        worst = std::max(worst, std::fabs(cols(j) - double(s)) / double(s));
        worst_naive = std::max(worst_naive, std::fabs(naive - double(s)) / double(s));
    }
    BOOST_TEST_MESSAGE("columns of " << m << ": worst relative error " << worst << " (plain loop " << worst_naive
                                     << ")");
    BOOST_TEST(worst <= 1e-14, "worst relative error " << worst);
}

BOOST_AUTO_TEST_CASE(early_exit_gives_the_answer_of_a_full_scan) {
    // all/any stop once a chunk decides; the answer must be what a full scan gives, wherever
    // the deciding element is (first, last, at chunk and block edges, nowhere), at every
    // thread count, for bool and double elements (NaN is true).
    // The rows are long enough (200000) that a row's own early exit looks at its lanes
    // (every 8 chunks of 16384 elements in place, of 256 through vector math).
    const int saved = max_threads();
    const index_t n = 600000, row = n / 3;
    const std::vector<index_t> positions{-1, 0, 1, 255, 256, 2047, 2048, 150000, row + 5, 2 * row - 1, n - 1};
    for (int t : {1, 2, 3}) {
        set_threads(t);
        for (index_t p : positions) {
            BOOST_TEST_CONTEXT("threads " << t << ", deciding element at " << p) {
                bsx::array<bool, 1> ones(shape<1>{n}, true), zeros(shape<1>{n}, false);
                bsx::array<double, 1> dones(shape<1>{n}, 2.0), dzeros(shape<1>{n}, 0.0);
                if (p >= 0) {
                    ones(p) = false;
                    zeros(p) = true;
                    dones(p) = 0.0;
                    dzeros(p) = qnan;
                }
                const bool decided = p >= 0;
                BOOST_TEST(bsx::all(ones) == !decided);
                BOOST_TEST(bsx::any(zeros) == decided);
                BOOST_TEST(bsx::all(dones) == !decided);
                BOOST_TEST(bsx::any(dzeros) == decided);
                BOOST_TEST(bsx::all(!zeros) == !decided);                  // through an expression
                BOOST_TEST(bsx::all(bsx::exp(dzeros) > 0.5) == !decided);  // through vector math (exp(NaN) is NaN)
                // Along axis 1 of three rows: only the row of the deciding element changes.
                const auto rows_of = [&](const auto& x) { return bsx::reshape<2>(std::as_const(x), shape<2>{3, row}); };
                const auto all_per_row = bsx::eval(bsx::all(rows_of(ones), bsx::axis(1)));
                const auto any_per_row = bsx::eval(bsx::any(rows_of(zeros), bsx::axis(1)));
                const auto math_per_row = bsx::eval(bsx::all(bsx::exp(rows_of(dzeros)) > 0.5, bsx::axis(1)));
                for (index_t r = 0; r < 3; ++r) {
                    const bool in_row = decided && p / row == r;
                    BOOST_TEST(all_per_row(r) == !in_row, "row " << r);
                    BOOST_TEST(any_per_row(r) == in_row, "row " << r);
                    BOOST_TEST(math_per_row(r) == !in_row, "row " << r);
                }
            }
        }
    }
    set_threads(saved);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(misuse)

// Integer sums and products wrap like NumPy's int64 instead of overflowing (UB in C++).
BOOST_AUTO_TEST_CASE(integer_overflow_wraps) {
    constexpr std::int64_t top = std::numeric_limits<std::int64_t>::max();
    const bsx::array<std::int64_t, 1> big{top, 1};
    BOOST_TEST(bsx::sum(big) == std::numeric_limits<std::int64_t>::min());
    const bsx::array<std::int64_t, 1> tens = bsx::full<std::int64_t>(shape<1>{20}, 10);
    std::uint64_t expected = 1;
    for (int i = 0; i < 20; ++i) expected *= 10u;  // unsigned: wraps by definition
    BOOST_TEST(bsx::prod(tens) == static_cast<std::int64_t>(expected));
}

// A lazy reduction whose operand array is resized afterwards must not write past its
// buffer: evaluating it names the problem instead.
BOOST_AUTO_TEST_CASE(operand_resized_after_building_throws) {
    auto a = bsx::zeros<double>(2, 3);
    const auto s = bsx::sum(a, bsx::axis(1));
    a = bsx::zeros<double>(4, 3);
    try {
        const bsx::array<double, 1> r = s;
        BOOST_ERROR("no exception; result size " << r.size());
    } catch (const std::logic_error& e) {
        const std::string what = e.what();
        BOOST_TEST(what.find("sum") != std::string::npos);
        BOOST_TEST(what.find("resized") != std::string::npos);
        BOOST_TEST(what.find("(4,)") != std::string::npos);
    }
}

BOOST_AUTO_TEST_SUITE_END()
