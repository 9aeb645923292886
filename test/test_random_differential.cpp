// Randomized differential test: random expression trees evaluated by bsx and by a
// naive eager evaluator written here (each node evaluated into a std::vector<double>,
// NumPy broadcasting done by hand), compared element by element.
//
// How the trees are made. bsx ranks and types are static, so a tree's structure must
// be known at compile time. A constexpr generator `generate(seed)` draws a random tree
// (depth 2..4 at the root, so subtrees of every depth 1..4; leaf ranks 0..4; up to 10
// leaves) from a seed; `tree_v<seed>` is that tree as a constexpr value. The bsx
// expression is built from it by a recursive template (`build<Seed, node>`), and the
// naive evaluator walks the very same description at run time. `kTrees` structures
// are instantiated (see BSX_RANDOM_STRUCTURES below: compile time); each is then run
// `kVariants` times (kRuns = 12000 runs in all) with fresh run-time choices drawn from a
// fixed-seed std::mt19937_64:
//   * the result shape (extents 0, 1, small, and sometimes large enough for the
//     parallel path, > 32768 elements), and each leaf's shape (its trailing axes of the
//     result shape, each possibly 1);
//   * what each view leaf is: transpose, permute, strided/reversed slice (optionally
//     dropping an extra axis with an integer index), row/col, newaxis, broadcast_to,
//     adapt with column-major strides;
//   * leaf values (halves in [-4, 4], sometimes NaN or +-inf; ints in [-3, 3]);
//   * how the result is written: construction, assignment (with and without resize),
//     into a transposed view, bsx::eval, `+=`, or into one of the tree's own array
//     leaves D; in "aliasing runs" some view leaves are views OF D (reversed, permuted,
//     a broadcast row block, row/col, D indexed along its first axis), so the
//     destination is read on the right through overlapping views: value semantics
//     must hold;
//   * sometimes a leaf gets a wrong extent: then the naive evaluator's broadcast check
//     and bsx (bsx::broadcast_error when the expression is built) must agree on
//     whether it is an error.
// Inner nodes: + - * / % mod rem min max fmin fmax, unary -, abs, square, sign, < == >= &&,
// where (its condition usually a comparison), and sum / max / any along a run-time axis
// with keepdims (max along an empty axis must throw). Each tree has one rule set (numpy,
// octave or xla; every memory leaf tagged with it) and the naive evaluator aligns ranks by
// it. Values stay exactly representable except after `/`, which both sides round the
// same way; reduced subtrees are small and division-free, so any summation order gives
// the same bits, and the comparison is exact (NaN equals NaN).
#define BOOST_TEST_MODULE bsx_random_differential
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include "test_support.hpp"  // BSX_TEST_SANITIZED

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using bsx::index_t;

/// Runs per test run: at least 10^4 of them are evaluated (the rest are broadcast errors).
constexpr int kRuns = 12000;

// ============================================================== tree description

enum kind : int {
    // leaves
    leaf_array,       // bsx::array<double, r> (held by reference)
    leaf_int_array,   // bsx::array<int, r>
    leaf_view,        // bsx::strided_view<const double, r> of some kind chosen at run time
    leaf_scalar,      // double
    leaf_int_scalar,  // int
    // unary
    op_neg,
    op_abs,
    op_square,
    op_sign,
    op_sum_k,  // sum(x, axis(k), keepdims), k drawn at run time (maybe negative)
    op_max_k,  // max(x, axis(k), keepdims): an empty axis is an error
    op_any_k,  // any(x, axis(k), keepdims)
    // binary
    op_plus,
    op_minus,
    op_times,
    op_min,
    op_max,
    op_fmin,
    op_fmax,
    op_less,
    op_equal,
    op_greater_equal,
    op_and,
    op_div,
    op_mod,
    op_rem,
    op_pct,  // %: integral operands only (the generator makes it rem otherwise)
    // ternary
    op_where,
};

constexpr bool is_leaf(int k) { return k <= leaf_int_scalar; }
constexpr bool is_scalar_leaf(int k) { return k == leaf_scalar || k == leaf_int_scalar; }
constexpr bool is_reduction(int k) { return k >= op_sum_k && k <= op_any_k; }
constexpr int arity_of(int k) { return is_leaf(k) ? 0 : k <= op_any_k ? 1 : k == op_where ? 3 : 2; }

/// The rule set of a whole tree: every memory leaf is tagged with it (numpy: untagged).
enum rule_kind : int { rules_numpy, rules_octave, rules_xla };

/// What the naive evaluator needs of a node's element type: division and remainders
/// differ between integral and floating operands, and `%` takes integers only.
enum elem_kind : int { elem_double, elem_int, elem_bool };

constexpr int max_nodes = 40;
constexpr int max_leaves = 10;

struct tree_desc {
    int count = 0;   // nodes used
    int leaves = 0;  // leaves used (= slots)
    int root = 0;
    int max_rank = 0;  // the result rank (max of the leaf ranks)
    int rules = rules_numpy;
    int kinds[max_nodes]{};
    int ranks[max_nodes]{};  // every node: leaf rank, or the max of its children's
    int elems[max_nodes]{};  // elem_kind of every node
    int slots[max_nodes]{};  // leaves: index into the instance's leaf table
    int children[max_nodes][3]{};
};

/// splitmix64: a small constexpr PRNG.
struct cx_rng {
    std::uint64_t s;
    constexpr std::uint64_t next() {
        std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    constexpr int below(int n) { return int(next() % std::uint64_t(n)); }
};

/// Every inner op, in kind order.
constexpr int inner_ops[] = {op_neg,           op_abs,   op_square, op_sign, op_sum_k, op_max_k, op_any_k, op_plus,
                             op_minus,         op_times, op_min,    op_max,  op_fmin,  op_fmax,  op_less,  op_equal,
                             op_greater_equal, op_and,   op_div,    op_mod,  op_rem,   op_pct,   op_where};
constexpr int n_inner_ops = int(sizeof(inner_ops) / sizeof(inner_ops[0]));

struct generator {
    tree_desc t;
    cx_rng rng;
    int rank_cap;
    int forced[3] = {0, 0, 0};  // the first three inner nodes get these ops (coverage of every op)
    int n_forced = 0;

    constexpr int add(int k) {
        const int i = t.count++;
        t.kinds[i] = k;
        return i;
    }
    /// A leaf; `integral`: an int array or int scalar.
    constexpr int leaf(bool need_memory, bool integral = false) {
        int k;
        const int r = rng.below(100);
        if (integral)
            k = !need_memory && r < 25 ? leaf_int_scalar : leaf_int_array;
        else if (!need_memory && r < 25)
            k = rng.below(4) == 0 ? leaf_int_scalar : leaf_scalar;
        else if (r < 55)
            k = leaf_view;
        else if (r < 65)
            k = leaf_int_array;
        else
            k = leaf_array;
        const int i = add(k);
        t.slots[i] = t.leaves++;
        t.elems[i] = k == leaf_int_array || k == leaf_int_scalar ? elem_int : elem_double;
        if (is_scalar_leaf(k)) {
            t.ranks[i] = 0;
        } else {
            // Rank: mostly the cap, sometimes lower (never under XLA rules, which need equal
            // ranks); rank 0 only for double arrays.
            int rank = rng.below(3) == 0 && t.rules != rules_xla ? rng.below(rank_cap + 1) : rank_cap;
            if (rank == 0 && k != leaf_array) rank = 1;
            t.ranks[i] = rank;
            t.max_rank = rank > t.max_rank ? rank : t.max_rank;
        }
        return i;
    }
    constexpr int comparison(int depth, bool no_div) {
        const int ops[] = {op_less, op_equal, op_greater_equal};
        const int i = add(ops[rng.below(3)]);
        const int m = rng.below(2);
        const int a = node(depth - 1, m == 0, no_div), b = node(depth - 1, m == 1, no_div);
        t.children[i][0] = a;
        t.children[i][1] = b;
        finish(i);
        return i;
    }
    /// Element kind and rank of inner node i from its children; ops that do not fit their
    /// operands are replaced here (so a structure is always valid).
    constexpr void finish(int i) {
        int& k = t.kinds[i];
        const int* c = t.children[i];
        const int n = arity_of(k);
        int rank = 0;
        bool integral = true, any_bool = false, all_int = true;
        for (int j = k == op_where ? 1 : 0; j < n; ++j) {
            integral = integral && t.elems[c[j]] != elem_double;
            any_bool = any_bool || t.elems[c[j]] == elem_bool;
            all_int = all_int && t.elems[c[j]] == elem_int;
        }
        for (int j = 0; j < n; ++j) rank = t.ranks[c[j]] > rank ? t.ranks[c[j]] : rank;
        if (k == op_pct && !all_int) k = op_rem;
        if ((k == op_div || k == op_mod || k == op_rem) && any_bool) k = op_minus;
        if (is_reduction(k) && rank == 0) k = op_neg;  // nothing to reduce along
        t.ranks[i] = rank;
        // Integral nodes with a bool operand count as bool (they may be bool in bsx, as
        // min(bool, bool) is): / mod rem % never see them.
        if (k == op_less || k == op_equal || k == op_greater_equal || k == op_and || k == op_any_k)
            t.elems[i] = elem_bool;
        else
            t.elems[i] = !integral ? elem_double : any_bool ? elem_bool : elem_int;
    }
    /// A subtree of at most `depth` levels of inner nodes; `need_memory`: it must not be a
    /// lone scalar (every node keeps at least one expression operand); `no_div`: no
    /// division inside (under a reduction, whose pairwise sums are exact only for
    /// exactly representable terms).
    constexpr int node(int depth, bool need_memory, bool no_div) {
        const bool forcing = n_forced < 3 && depth > 0;
        if (!forcing && (depth == 0 || t.leaves >= max_leaves - 2 || t.count >= max_nodes - 8 || rng.below(100) < 30))
            return leaf(need_memory);
        const int ops[] = {op_neg, op_abs,   op_square, op_sign, op_plus,  op_minus, op_times,
                           op_min, op_max,   op_fmin,   op_fmax, op_less,  op_equal, op_greater_equal,
                           op_and, op_where, op_where,  op_plus, op_times, op_min,   op_minus,
                           op_div, op_mod,   op_rem,    op_pct,  op_sum_k, op_max_k, op_any_k};
        int k = forcing ? forced[n_forced++] : ops[rng.below(int(sizeof(ops) / sizeof(ops[0])))];
        if (no_div && k == op_div) k = op_times;
        const int i = add(k);
        const int n = arity_of(k);
        const int m = rng.below(n);  // this child is never a lone scalar
        for (int c = 0; c < n; ++c) {
            int child;
            if (k == op_where && c == 0 && depth >= 2 && rng.below(100) < 75) child = comparison(depth - 1, no_div);
            // A reduced subtree is at most 2 deep: its values stay small enough that any
            // order of summation gives the same bits.
            else if (is_reduction(k))
                child = node(depth - 1 < 2 ? depth - 1 : 2, true, true);
            else if (k == op_pct)
                child = leaf(c == m, true);  // % takes integers
            else
                child = node(depth - 1, c == m, no_div);
            t.children[i][c] = child;
        }
        finish(i);
        return i;
    }
};

/// Tree number seed - 1: random, except that its first three inner nodes get ops
/// 3(seed-1) .. 3(seed-1)+2 of `inner_ops` (cyclically), so any 8 consecutive trees try
/// every op; and its rule set is numpy for even seeds, octave for seed % 4 == 1, xla
/// for seed % 4 == 3.
constexpr tree_desc generate(std::uint64_t seed) {
    generator g{{}, {seed * 0x2545F4914F6CDD1Dull + 1}, 0};
    g.t.rules = seed % 2 == 0 ? rules_numpy : seed % 4 == 1 ? rules_octave : rules_xla;
    for (int j = 0; j < 3; ++j) g.forced[j] = inner_ops[(3 * (seed - 1) + std::uint64_t(j)) % n_inner_ops];
    const int caps[] = {1, 2, 2, 3, 3, 4, 4, 4};
    g.rank_cap = caps[g.rng.below(8)];
    const int depths[] = {2, 2, 3, 3, 3, 4, 4, 4, 4};  // depth 1 subtrees occur inside
    const int depth = depths[g.rng.below(9)];
    g.t.root = g.node(depth, true, false);
    return g.t;
}

template <std::uint64_t Seed>
inline constexpr tree_desc tree_v = generate(Seed);

std::string describe(const tree_desc& t, int i) {
    static const char* names[] = {"A",     "I",     "V",  "s", "i",   "neg", "abs", "square", "sign", "sum_k",
                                  "max_k", "any_k", "+",  "-", "*",   "min", "max", "fmin",   "fmax", "<",
                                  "==",    ">=",    "&&", "/", "mod", "rem", "%",   "where"};
    static_assert(sizeof(names) / sizeof(names[0]) == op_where + 1);
    std::ostringstream os;
    const int k = t.kinds[i];
    if (is_leaf(k)) {
        os << names[k] << t.slots[i];
        if (!is_scalar_leaf(k)) os << "r" << t.ranks[i];
        return os.str();
    }
    os << names[k] << "(";
    for (int c = 0; c < arity_of(k); ++c) os << (c ? ", " : "") << describe(t, t.children[i][c]);
    os << ")";
    return os.str();
}

// ============================================================== naive evaluator

using shape_v = std::vector<index_t>;

struct narr {
    shape_v shape;
    std::vector<double> v;
};

struct naive_broadcast_error {};

index_t count_of(const shape_v& s) {
    index_t n = 1;
    for (index_t e : s) n *= e;
    return n;
}

std::vector<index_t> row_major_strides(const shape_v& s) {
    std::vector<index_t> st(s.size());
    index_t step = 1;
    for (std::size_t k = s.size(); k-- > 0;) {
        st[k] = step;
        step *= s[k];
    }
    return st;
}

/// Where axis 0 of a rank-r operand lands in a rank-R result: NumPy aligns ranks on
/// the right, Octave on the left (missing trailing axes), XLA needs equal ranks or rank 0.
std::size_t first_axis(std::size_t r, std::size_t R, int rules) { return rules == rules_numpy ? R - r : 0; }

/// Broadcasting of any number of shapes under `rules`, by hand.
shape_v broadcast_all(const std::vector<const shape_v*>& shapes, int rules) {
    std::size_t rank = 0;
    for (auto* s : shapes) rank = std::max(rank, s->size());
    shape_v out(rank, 1);
    for (std::size_t axis = 0; axis < rank; ++axis) {
        bool have = false;
        index_t e = 1;
        for (auto* s : shapes) {
            if (rules == rules_xla && !s->empty() && s->size() != rank) throw naive_broadcast_error{};
            const std::size_t first = first_axis(s->size(), rank, rules);
            if (axis < first || axis >= first + s->size()) continue;
            const index_t x = (*s)[axis - first];
            if (x == 1) continue;
            if (!have) {
                e = x;
                have = true;
            } else if (x != e) {
                throw naive_broadcast_error{};
            }
        }
        out[axis] = e;
    }
    return out;
}

/// The scalar ops. `integral`: the operands are integers (division truncates, and a zero
/// divisor gives 0, or x for mod), else IEEE doubles; mod is floored (sign of the divisor,
/// mod(x, 0) == x), rem and % truncated (sign of the dividend), as api.md states.
double naive_op(int k, bool integral, const double* x) {
    const double a = x[0], b = x[1];
    const double nan = std::numeric_limits<double>::quiet_NaN();
    switch (k) {
        case op_neg:
            return -a;
        case op_abs:
            return std::fabs(a);
        case op_square:
            return a * a;
        case op_sign:
            return a > 0 ? 1.0 : a < 0 ? -1.0 : a;
        case op_plus:
            return a + b;
        case op_minus:
            return a - b;
        case op_times:
            return a * b;
        case op_min:
            return (std::isnan(a) || std::isnan(b)) ? nan : (b < a ? b : a);
        case op_max:
            return (std::isnan(a) || std::isnan(b)) ? nan : (b > a ? b : a);
        case op_fmin:
            return std::fmin(a, b);
        case op_fmax:
            return std::fmax(a, b);
        case op_less:
            return a < b ? 1.0 : 0.0;
        case op_equal:
            return a == b ? 1.0 : 0.0;
        case op_greater_equal:
            return a >= b ? 1.0 : 0.0;
        case op_and:
            return (a != 0.0 && b != 0.0) ? 1.0 : 0.0;
        case op_div:
            if (!integral) return a / b;
            return b == 0 ? 0.0 : std::trunc(a / b);
        case op_rem:
        case op_pct:
            if (integral && b == 0) return 0.0;
            return std::fmod(a, b);  // exact; NaN for a zero floating divisor
        case op_mod: {
            if (b == 0) return a;
            double r = std::fmod(a, b);
            if (r != 0 && (r < 0) != (b < 0)) r += b;
            return r;
        }
        case op_where:
            return a != 0.0 ? b : x[2];  // NaN != 0: true, as static_cast<bool>
    }
    throw std::logic_error("naive_op: unknown op");
}

/// max over an empty axis: NumPy raises, and so must bsx.
struct naive_reduce_error {};

/// sum / max / any of `c` along `axis` (negative: from the end), keeping the axis.
narr naive_reduce(int k, const narr& c, int axis) {
    const std::size_t R = c.shape.size();
    const std::size_t a = std::size_t(axis < 0 ? axis + int(R) : axis);
    const index_t n = c.shape[a];
    if (n == 0 && k == op_max_k) throw naive_reduce_error{};
    narr out{c.shape, {}};
    out.shape[a] = 1;
    // c as (outer, n, stride): the axes before `a` flattened, `a`, the axes after it flattened.
    const index_t stride = row_major_strides(c.shape)[a];
    const index_t outer = count_of(shape_v(c.shape.begin(), c.shape.begin() + std::ptrdiff_t(a)));
    for (index_t o = 0; o < outer; ++o)
        for (index_t i = 0; i < stride; ++i) {
            // Element j of this output by index, not by pointer: c.v.data() is null when n == 0.
            const auto at = [&](index_t j) { return c.v[std::size_t((o * n + j) * stride + i)]; };
            double acc = k == op_max_k ? at(0) : 0.0;
            for (index_t j = 0; j < n; ++j) {
                const double v = at(j);
                if (k == op_sum_k)
                    acc += v;
                else if (k == op_any_k)
                    acc = (acc != 0 || v != 0) ? 1.0 : 0.0;  // NaN counts as true
                else
                    acc = (std::isnan(acc) || std::isnan(v)) ? std::numeric_limits<double>::quiet_NaN()
                                                             : std::max(acc, v);
            }
            out.v.push_back(acc);
        }
    return out;
}

struct leaf_values {
    narr value;  // the leaf as the naive evaluator sees it
};

/// Node i of `t` evaluated eagerly; `axes[i]` is the axis a reduction node reduces.
[[gnu::noinline]] narr naive_eval(const tree_desc& t, int i, const std::vector<leaf_values>& leaves,
                                  const std::vector<int>& axes) {
    const int k = t.kinds[i];
    if (is_leaf(k)) return leaves[std::size_t(t.slots[i])].value;
    if (is_reduction(k)) return naive_reduce(k, naive_eval(t, t.children[i][0], leaves, axes), axes[std::size_t(i)]);
    const int n = arity_of(k);
    std::vector<narr> ch;
    for (int c = 0; c < n; ++c) ch.push_back(naive_eval(t, t.children[i][c], leaves, axes));
    std::vector<const shape_v*> shapes;
    for (auto& c : ch) shapes.push_back(&c.shape);
    narr out;
    out.shape = broadcast_all(shapes, t.rules);
    const std::size_t R = out.shape.size();
    const index_t total = count_of(out.shape);
    out.v.resize(std::size_t(total));
    // Each child's stride per result axis (0 where it broadcasts or is missing).
    std::vector<std::vector<index_t>> cst(ch.size(), std::vector<index_t>(R, 0));
    for (std::size_t c = 0; c < ch.size(); ++c) {
        const auto own = row_major_strides(ch[c].shape);
        const std::size_t first = first_axis(ch[c].shape.size(), R, t.rules);
        for (std::size_t a = 0; a < ch[c].shape.size(); ++a) cst[c][a + first] = ch[c].shape[a] == 1 ? 0 : own[a];
    }
    const bool integral = t.elems[i] != elem_double;
    std::vector<index_t> idx(R, 0);
    for (index_t flat = 0; flat < total; ++flat) {
        double x[3] = {0.0, 0.0, 0.0};
        for (std::size_t c = 0; c < ch.size(); ++c) {
            index_t off = 0;
            for (std::size_t a = 0; a < R; ++a) off += idx[a] * cst[c][a];
            x[c] = ch[c].v[std::size_t(off)];
        }
        out.v[std::size_t(flat)] = naive_op(k, integral, x);
        for (std::size_t a = R; a-- > 0;) {
            if (++idx[a] < out.shape[a]) break;
            idx[a] = 0;
        }
    }
    return out;
}

// ============================================================== run-time instance

using rng_t = std::mt19937_64;

int uniform(rng_t& g, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(g); }
bool chance(rng_t& g, int percent) { return uniform(g, 0, 99) < percent; }

double random_double(rng_t& g) {
    const int r = uniform(g, 0, 99);
    if (r < 2) return std::numeric_limits<double>::quiet_NaN();
    if (r < 3) return std::numeric_limits<double>::infinity();
    if (r < 4) return -std::numeric_limits<double>::infinity();
    return uniform(g, -8, 8) * 0.5;  // halves in [-4, 4]: products stay exact
}

/// Everything one run of one tree needs: the leaves as bsx objects and as naive arrays.
struct instance {
    std::vector<leaf_values> leaves;
    std::vector<double> scalars;
    std::vector<int> int_scalars;
    // The bsx leaf objects, type-erased (the tree's static type knows what each slot holds):
    // bsx::array<double, r>, bsx::array<int, r> or bsx::strided_view<const double, r>.
    std::vector<std::shared_ptr<void>> objects;
    std::vector<std::shared_ptr<void>> keep_alive;  // bases of the views
    std::vector<std::string> view_kinds;
    std::vector<int> axes = std::vector<int>(max_nodes, 0);  // per node: the axis a reduction reduces

    explicit instance(std::size_t n) : leaves(n), scalars(n), int_scalars(n), objects(n), view_kinds(n) {}
    template <std::size_t R>
    bsx::array<double, R>& array(int slot) {
        return *static_cast<bsx::array<double, R>*>(objects[std::size_t(slot)].get());
    }
    template <std::size_t R>
    const bsx::array<int, R>& int_array(int slot) {
        return *static_cast<const bsx::array<int, R>*>(objects[std::size_t(slot)].get());
    }
    template <std::size_t R>
    const bsx::strided_view<const double, R>& view(int slot) {
        return *static_cast<const bsx::strided_view<const double, R>*>(objects[std::size_t(slot)].get());
    }
};

template <std::size_t R>
bsx::shape_t<R> to_shape(const shape_v& s) {
    bsx::shape_t<R> out{};
    for (std::size_t k = 0; k < R; ++k) out[k] = s[k];
    return out;
}

/// Visits every multi-index of `shape` in row-major order.
template <class F>
void for_each_index(const shape_v& shape, F&& f) {
    const index_t total = count_of(shape);
    std::vector<index_t> idx(shape.size(), 0);
    for (index_t flat = 0; flat < total; ++flat) {
        f(idx);
        for (std::size_t a = shape.size(); a-- > 0;) {
            if (++idx[a] < shape[a]) break;
            idx[a] = 0;
        }
    }
}

/// A new bsx array of the given shape with random values; `values` gets them in row-major order.
template <class T, std::size_t R>
std::shared_ptr<bsx::array<T, R>> random_base(const shape_v& s, rng_t& g, std::vector<double>& values) {
    auto a = std::make_shared<bsx::array<T, R>>(to_shape<R>(s));
    values.resize(std::size_t(a->size()));
    for (index_t k = 0; k < a->size(); ++k) {
        const double v = std::is_same_v<T, int> ? double(uniform(g, -3, 3)) : random_double(g);
        a->data()[k] = static_cast<T>(v);
        values[std::size_t(k)] = v;
    }
    return a;
}

/// The naive values of a view leaf: element idx of the leaf is base value number
/// sum_b (off[b] + step[b] * idx[src[b]]) * bstride[b] (src[b] = -1: no leaf axis).
struct base_map {
    std::vector<int> src;
    std::vector<index_t> off, step, bstride;
};
narr gather(const shape_v& leaf_shape, const std::vector<double>& base, const base_map& m) {
    narr out{leaf_shape, {}};
    out.v.reserve(std::size_t(count_of(leaf_shape)));
    for_each_index(leaf_shape, [&](const std::vector<index_t>& idx) {
        index_t o = 0;
        for (std::size_t b = 0; b < m.src.size(); ++b) {
            const index_t i = m.off[b] + (m.src[b] >= 0 ? m.step[b] * idx[std::size_t(m.src[b])] : 0);
            o += i * m.bstride[b];
        }
        out.v.push_back(base[std::size_t(o)]);
    });
    return out;
}

/// bsx::slice(base, rg[0], ..., rg[Q-1], j, rg[Q], ..., rg[R-1]) for a run-time Q.
template <std::size_t R, class Base, std::size_t Q = 0>
bsx::strided_view<const double, R> slice_with_index(Base& base, const std::array<bsx::range_t, R>& rg, index_t j,
                                                    std::size_t q) {
    if constexpr (Q > R) {
        throw std::logic_error("slice_with_index: bad position");
    } else {
        if (q == Q)
            return [&]<std::size_t... A, std::size_t... B>(std::index_sequence<A...>, std::index_sequence<B...>) {
                return bsx::strided_view<const double, R>(bsx::slice(base, rg[A]..., j, rg[Q + B]...));
            }(std::make_index_sequence<Q>{}, std::make_index_sequence<R - Q>{});
        return slice_with_index<R, Base, Q + 1>(base, rg, j, q);
    }
}

/// bsx::slice(base, all, ..., all, newaxis) with `Q` alls, for a run-time Q.
template <std::size_t R, class Base, std::size_t Q = 0>
bsx::strided_view<const double, R> slice_newaxis(Base& base, std::size_t q) {
    if constexpr (Q >= R) {
        throw std::logic_error("slice_newaxis: bad position");
    } else {
        if (q == Q)
            return [&]<std::size_t... A>(std::index_sequence<A...>) {
                return bsx::strided_view<const double, R>(bsx::slice(base, (void(A), bsx::all)..., bsx::newaxis));
            }(std::make_index_sequence<Q>{});
        return slice_newaxis<R, Base, Q + 1>(base, q);
    }
}

/// What a view-making function returns: the bsx view, what keeps its memory alive, the
/// naive values and a name for messages.
template <std::size_t R>
struct made_view {
    std::shared_ptr<void> object;  // a bsx::strided_view<const double, R>
    std::shared_ptr<void> base;
    narr naive;
    const char* name = "";
};

/// Identity map from leaf axes to base axes (src a, offset 0, step 1).
base_map identity_map(std::size_t r) {
    base_map m;
    for (std::size_t a = 0; a < r; ++a) {
        m.src.push_back(int(a));
        m.off.push_back(0);
        m.step.push_back(1);
    }
    return m;
}

// Each kind of view in its own non-inlined function: small functions keep the build
// cheap (sanitizer builds with -g are superlinear in function size).

template <std::size_t R>
[[gnu::noinline]] made_view<R> view_transpose(const shape_v& s, rng_t& g) {
    made_view<R> out;
    std::vector<double> vals;
    shape_v bs(s.rbegin(), s.rend());
    auto base = random_base<double, R>(bs, g, vals);
    out.object = std::make_shared<bsx::strided_view<const double, R>>(bsx::transpose(*base));
    base_map m;
    for (std::size_t b = 0; b < R; ++b) m.src.push_back(int(R - 1 - b));
    m.off.assign(R, 0);
    m.step.assign(R, 1);
    m.bstride = row_major_strides(bs);
    out.naive = gather(s, vals, m);
    out.base = base;
    out.name = "transpose";
    return out;
}

template <std::size_t R>
[[gnu::noinline]] made_view<R> view_permute(const shape_v& s, rng_t& g) {
    made_view<R> out;
    std::vector<double> vals;
    std::array<index_t, R> p{};  // result axis i is base axis p[i]
    for (std::size_t i = 0; i < R; ++i) p[i] = index_t(i);
    std::shuffle(p.begin(), p.end(), g);
    shape_v bs(R);
    base_map m;
    m.src.assign(R, -1);
    for (std::size_t i = 0; i < R; ++i) {
        bs[std::size_t(p[i])] = s[i];
        m.src[std::size_t(p[i])] = int(i);
    }
    auto base = random_base<double, R>(bs, g, vals);
    out.object = std::make_shared<bsx::strided_view<const double, R>>(bsx::permute(*base, p));
    m.off.assign(R, 0);
    m.step.assign(R, 1);
    m.bstride = row_major_strides(bs);
    out.naive = gather(s, vals, m);
    out.base = base;
    out.name = "permute";
    return out;
}

/// A strided / reversed slice of a bigger base, maybe dropping an extra axis with an integer.
template <std::size_t R>
[[gnu::noinline]] made_view<R> view_slice(const shape_v& s, rng_t& g) {
    made_view<R> out;
    std::vector<double> vals;
    const bool drop = chance(g, 35);
    const std::size_t q = drop ? std::size_t(uniform(g, 0, int(R))) : 0;
    std::array<bsx::range_t, R> rg{};
    shape_v bs;
    base_map m;
    index_t j = 0, jext = 1;
    std::size_t axis = 0;  // leaf axis
    for (std::size_t b = 0; b < R + (drop ? 1 : 0); ++b) {
        if (drop && b == q) {
            jext = uniform(g, 1, 3);
            j = uniform(g, 0, int(jext) - 1);
            bs.push_back(jext);
            m.src.push_back(-1);
            m.off.push_back(j);
            m.step.push_back(0);
            continue;
        }
        const index_t n = s[axis];
        const int steps[] = {1, 1, 2, 3, -1, -1, -2};
        const index_t k = steps[uniform(g, 0, 6)];
        const index_t extra = uniform(g, 0, 2);
        const index_t mag = k < 0 ? -k : k;
        const index_t ext = n * mag + extra;
        bs.push_back(ext);
        index_t first = 0;
        if (k > 0) {
            const index_t o = uniform(g, 0, int(extra));
            rg[axis] = bsx::range(o, o + n * k, k);
            first = o;
        } else if (n == 0) {
            rg[axis] = bsx::range(0, 0, k);
        } else {
            const index_t o = uniform(g, 0, int(extra));
            const index_t b0 = o + (n - 1) * mag;                 // first element read
            const index_t e = b0 - n * mag;                       // one step past the last
            rg[axis] = bsx::range(b0, e >= 0 ? e : -ext - 1, k);  // NumPy: a negative end counts from the end
            first = b0;
        }
        m.src.push_back(int(axis));
        m.off.push_back(first);
        m.step.push_back(k);
        ++axis;
    }
    m.bstride = row_major_strides(bs);
    if (drop) {
        auto base = random_base<double, R + 1>(bs, g, vals);
        const index_t jj = chance(g, 50) ? j : j - jext;  // a negative index counts from the end
        out.object = std::make_shared<bsx::strided_view<const double, R>>(slice_with_index<R>(*base, rg, jj, q));
        out.base = base;
    } else {
        auto base = random_base<double, R>(bs, g, vals);
        out.object =
            std::make_shared<bsx::strided_view<const double, R>>([&]<std::size_t... A>(std::index_sequence<A...>) {
                return bsx::strided_view<const double, R>(bsx::slice(*base, rg[A]...));
            }(std::make_index_sequence<R>{}));
        out.base = base;
    }
    out.naive = gather(s, vals, m);
    out.name = drop ? "slice+index" : "slice";
    return out;
}

/// Row or column of a bigger matrix (shape (1, n) or (m, 1)).
[[gnu::noinline]] made_view<2> view_row_col(const shape_v& s, rng_t& g) {
    made_view<2> out;
    std::vector<double> vals;
    const bool row = s[0] == 1 && (s[1] != 1 || chance(g, 50));
    const index_t other = uniform(g, 1, 4);
    const index_t j = uniform(g, 0, int(other) - 1);
    shape_v bs = row ? shape_v{other, s[1]} : shape_v{s[0], other};
    auto base = random_base<double, 2>(bs, g, vals);
    out.object = std::make_shared<bsx::strided_view<const double, 2>>(row ? base->row(j) : base->col(j));
    base_map m;
    if (row)
        m.src = {-1, 1}, m.off = {j, 0}, m.step = {0, 1};
    else
        m.src = {0, -1}, m.off = {0, j}, m.step = {1, 0};
    m.bstride = row_major_strides(bs);
    out.naive = gather(s, vals, m);
    out.base = base;
    out.name = row ? "row" : "col";
    return out;
}

/// slice(base, all, ..., newaxis) inserting the extent-1 axis at a position where s has 1.
template <std::size_t R>
[[gnu::noinline]] made_view<R> view_newaxis(const shape_v& s, rng_t& g) {
    made_view<R> out;
    std::vector<double> vals;
    std::vector<std::size_t> ones;
    for (std::size_t a = 0; a < R; ++a)
        if (s[a] == 1) ones.push_back(a);
    const std::size_t q = ones[std::size_t(uniform(g, 0, int(ones.size()) - 1))];
    shape_v bs;
    base_map m;
    for (std::size_t a = 0; a < R; ++a)
        if (a != q) {
            bs.push_back(s[a]);
            m.src.push_back(int(a));
            m.off.push_back(0);
            m.step.push_back(1);
        }
    auto base = random_base<double, R - 1>(bs, g, vals);
    out.object = std::make_shared<bsx::strided_view<const double, R>>(slice_newaxis<R>(*base, q));
    m.bstride = row_major_strides(bs);
    out.naive = gather(s, vals, m);
    out.base = base;
    out.name = "newaxis";
    return out;
}

/// broadcast_to(base, s) from a base of rank RB <= R with some extents 1.
template <std::size_t R, std::size_t RB>
[[gnu::noinline]] made_view<R> view_broadcast(const shape_v& s, rng_t& g) {
    made_view<R> out;
    std::vector<double> vals;
    shape_v bs;
    base_map m;
    for (std::size_t b = 0; b < RB; ++b) {
        const std::size_t a = b + (R - RB);
        const bool one = s[a] == 1 || chance(g, 40);
        bs.push_back(one ? 1 : s[a]);
        m.src.push_back(one ? -1 : int(a));
        m.off.push_back(0);
        m.step.push_back(one ? 0 : 1);
    }
    m.bstride = row_major_strides(bs);
    auto base = random_base<double, RB>(bs, g, vals);
    out.object = std::make_shared<bsx::strided_view<const double, R>>(bsx::broadcast_to(*base, to_shape<R>(s)));
    out.naive = gather(s, vals, m);
    out.base = base;
    out.name = "broadcast_to";
    return out;
}

/// in_dims<R>(base, dims) (XLA placement) of a base of rank RB whose axes are the leaf
/// axes `dims`; every other leaf axis has extent 1 in s.
template <std::size_t R, std::size_t RB>
[[gnu::noinline]] made_view<R> view_in_dims(const shape_v& s, const std::vector<index_t>& dims, rng_t& g) {
    made_view<R> out;
    std::vector<double> vals;
    shape_v bs;
    base_map m;
    std::array<index_t, RB> d{};
    for (std::size_t b = 0; b < RB; ++b) {
        d[b] = dims[b];
        bs.push_back(s[std::size_t(dims[b])]);
        m.src.push_back(int(dims[b]));
        m.off.push_back(0);
        m.step.push_back(1);
    }
    m.bstride = row_major_strides(bs);
    auto base = random_base<double, RB>(bs, g, vals);
    out.object = std::make_shared<bsx::strided_view<const double, R>>(bsx::in_dims<R>(*base, d));
    out.naive = gather(s, vals, m);
    out.base = base;
    out.name = "in_dims";
    return out;
}

/// adapt over a caller-owned buffer with column-major strides.
template <std::size_t R>
[[gnu::noinline]] made_view<R> view_adapt(const shape_v& s, rng_t& g) {
    made_view<R> out;
    auto buf = std::make_shared<std::vector<double>>(std::size_t(count_of(s)) + 1);
    for (auto& x : *buf) x = random_double(g);
    bsx::shape_t<R> st{};
    index_t step = 1;
    for (std::size_t a = 0; a < R; ++a) {
        st[a] = step;
        step *= s[a];
    }
    out.object = std::make_shared<bsx::strided_view<const double, R>>(
        bsx::adapt(static_cast<const double*>(buf->data()), to_shape<R>(s), st));
    base_map m = identity_map(R);
    m.bstride.assign(st.begin(), st.end());
    out.naive = gather(s, *buf, m);
    out.base = buf;
    out.name = "adapt";
    return out;
}

/// Makes view leaf `slot` of shape `s` (rank R >= 1): some kind of bsx view over a fresh base.
template <std::size_t R>
[[gnu::noinline]] void make_view_leaf(instance& in, int slot, const shape_v& s, rng_t& g) {
    std::vector<int> kinds{0, 1, 2, 5, 6, 7};  // transpose, permute, slice, broadcast_to, adapt, in_dims
    if (R == 2 && (s[0] == 1 || s[1] == 1)) kinds.push_back(3);                        // row / col
    if (R >= 2 && std::count(s.begin(), s.end(), index_t(1)) > 0) kinds.push_back(4);  // newaxis
    const int kind = kinds[std::size_t(uniform(g, 0, int(kinds.size()) - 1))];
    made_view<R> v;
    switch (kind) {
        case 0:
            v = view_transpose<R>(s, g);
            break;
        case 1:
            v = view_permute<R>(s, g);
            break;
        case 2:
            v = view_slice<R>(s, g);
            break;
        case 3:
            if constexpr (R == 2) v = view_row_col(s, g);
            break;
        case 4:
            if constexpr (R >= 2) v = view_newaxis<R>(s, g);
            break;
        case 5: {
            const int rb = uniform(g, 0, int(R));  // base rank 0..R
            if (rb == 0)
                v = view_broadcast<R, 0>(s, g);
            else if (rb == 1)
                v = view_broadcast<R, 1>(s, g);
            else if constexpr (R >= 2) {
                if (rb == 2)
                    v = view_broadcast<R, 2>(s, g);
                else if constexpr (R >= 3) {
                    if (rb == 3)
                        v = view_broadcast<R, 3>(s, g);
                    else if constexpr (R >= 4)
                        v = view_broadcast<R, 4>(s, g);
                }
            }
            break;
        }
        case 6:
            v = view_adapt<R>(s, g);
            break;
        default: {
            // The placed axes: every axis of extent other than 1, and some of the others.
            std::vector<index_t> dims;
            for (std::size_t a = 0; a < R; ++a)
                if (s[a] != 1 || chance(g, 50)) dims.push_back(index_t(a));
            if (dims.empty()) dims.push_back(uniform(g, 0, int(R) - 1));
            if (dims.size() == 1)
                v = view_in_dims<R, 1>(s, dims, g);
            else if constexpr (R >= 2) {
                if (dims.size() == 2)
                    v = view_in_dims<R, 2>(s, dims, g);
                else if constexpr (R >= 3) {
                    if (dims.size() == 3)
                        v = view_in_dims<R, 3>(s, dims, g);
                    else if constexpr (R >= 4)
                        v = view_in_dims<R, 4>(s, dims, g);
                }
            }
            break;
        }
    }
    in.objects[std::size_t(slot)] = std::move(v.object);
    in.keep_alive.push_back(v.base);
    in.leaves[std::size_t(slot)].value = std::move(v.naive);
    in.view_kinds[std::size_t(slot)] = v.name;
}

// ---- views of the destination (aliasing runs) ----------------------------------------
// In an aliasing run one double array leaf D of the result's rank and shape is the
// destination (`D = expr`), and some view leaves are views OF D: reversed along some
// axes, permuted (where the extents allow), a broadcast row block, row/col, or D with
// its first axis indexed away. The result must be as if the whole right-hand side were
// evaluated before D is written.

/// A view of D (rank R, shape S) with leaf rank R.
template <std::size_t R>
[[gnu::noinline]] made_view<R> view_of_dest(bsx::array<double, R>& D, const std::vector<double>& dv, const shape_v& S,
                                            rng_t& g) {
    made_view<R> out;
    const auto dstride = row_major_strides(S);
    std::vector<int> kinds{0};  // reversed axes
    // Permutations that keep the shape (the identity included: it reads the written element).
    std::vector<std::array<index_t, R>> perms;
    std::array<index_t, R> p{};
    for (std::size_t i = 0; i < R; ++i) p[i] = index_t(i);
    do {
        bool keeps = true;
        for (std::size_t i = 0; i < R; ++i) keeps = keeps && S[std::size_t(p[i])] == S[i];
        if (keeps) perms.push_back(p);
    } while (std::next_permutation(p.begin(), p.end()));
    kinds.push_back(1);
    if (S[0] >= 1) kinds.push_back(2);                         // broadcast block of rows
    if (R == 2 && S[0] >= 1 && S[1] >= 1) kinds.push_back(3);  // row / col
    const int kind = kinds[std::size_t(uniform(g, 0, int(kinds.size()) - 1))];
    base_map m;
    m.bstride = dstride;
    shape_v leaf = S;
    if (kind == 0) {
        std::array<bsx::range_t, R> rg{};
        for (std::size_t a = 0; a < R; ++a) {
            const index_t n = S[a];
            const bool flip = chance(g, 60);
            rg[a] = flip ? bsx::range(-1, -n - 1, -1) : bsx::range(0, n);
            m.src.push_back(int(a));
            m.off.push_back(flip ? n - 1 : 0);
            m.step.push_back(flip ? -1 : 1);
        }
        out.object =
            std::make_shared<bsx::strided_view<const double, R>>([&]<std::size_t... A>(std::index_sequence<A...>) {
                return bsx::strided_view<const double, R>(bsx::slice(D, rg[A]...));
            }(std::make_index_sequence<R>{}));
        out.name = "reversed view of the destination";
    } else if (kind == 1) {
        const auto q = perms[std::size_t(uniform(g, 0, int(perms.size()) - 1))];
        m.src.assign(R, -1);
        for (std::size_t i = 0; i < R; ++i) m.src[std::size_t(q[i])] = int(i);
        m.off.assign(R, 0);
        m.step.assign(R, 1);
        out.object = std::make_shared<bsx::strided_view<const double, R>>(bsx::permute(D, q));
        out.name = "permuted view of the destination";
    } else if (kind == 2) {
        const index_t j = uniform(g, 0, int(S[0]) - 1);
        m.src.push_back(-1);
        m.off.push_back(j);
        m.step.push_back(0);
        for (std::size_t a = 1; a < R; ++a) {
            m.src.push_back(int(a));
            m.off.push_back(0);
            m.step.push_back(1);
        }
        out.object = std::make_shared<bsx::strided_view<const double, R>>(
            bsx::broadcast_to(bsx::slice(D, bsx::range(j, j + 1)), to_shape<R>(S)));
        out.name = "broadcast row block of the destination";
    } else {
        if constexpr (R == 2) {
            const bool row = chance(g, 50);
            const index_t j = uniform(g, 0, int(row ? S[0] : S[1]) - 1);
            if (row)
                leaf = {1, S[1]}, m.src = {-1, 1}, m.off = {j, 0}, m.step = {0, 1};
            else
                leaf = {S[0], 1}, m.src = {0, -1}, m.off = {0, j}, m.step = {1, 0};
            out.object = std::make_shared<bsx::strided_view<const double, 2>>(row ? D.row(j) : D.col(j));
            out.name = row ? "row of the destination" : "col of the destination";
        }
    }
    out.naive = gather(leaf, dv, m);
    return out;
}

/// slice(D, j): the destination (rank R + 1, shape S, S[0] >= 1) with its first axis indexed away.
template <std::size_t R>
[[gnu::noinline]] made_view<R> view_drop_of_dest(bsx::array<double, R + 1>& D, const std::vector<double>& dv,
                                                 const shape_v& S, rng_t& g) {
    made_view<R> out;
    const index_t j = uniform(g, 0, int(S[0]) - 1);
    base_map m;
    m.bstride = row_major_strides(S);
    m.src.push_back(-1);
    m.off.push_back(j);
    m.step.push_back(0);
    for (std::size_t a = 1; a <= R; ++a) {
        m.src.push_back(int(a - 1));
        m.off.push_back(0);
        m.step.push_back(1);
    }
    out.object = std::make_shared<bsx::strided_view<const double, R>>(bsx::slice(D, j));
    out.naive = gather(shape_v(S.begin() + 1, S.end()), dv, m);
    out.name = "indexed view of the destination";
    return out;
}

template <std::size_t RR>
void make_alias_view_r(instance& in, int leaf_rank, int slot, int dest_slot, const shape_v& S, rng_t& g) {
    auto& D = in.array<RR>(dest_slot);
    const auto& dv = in.leaves[std::size_t(dest_slot)].value.v;
    auto store = [&](auto v) {
        in.objects[std::size_t(slot)] = std::move(v.object);
        in.leaves[std::size_t(slot)].value = std::move(v.naive);
        in.view_kinds[std::size_t(slot)] = v.name;
    };
    if (std::size_t(leaf_rank) == RR)
        store(view_of_dest<RR>(D, dv, S, g));
    else if constexpr (RR >= 2)
        store(view_drop_of_dest<RR - 1>(D, dv, S, g));
}

void make_alias_view(instance& in, int leaf_rank, int slot, int dest_slot, const shape_v& S, rng_t& g) {
    switch (S.size()) {
        case 1:
            make_alias_view_r<1>(in, leaf_rank, slot, dest_slot, S, g);
            break;
        case 2:
            make_alias_view_r<2>(in, leaf_rank, slot, dest_slot, S, g);
            break;
        case 3:
            make_alias_view_r<3>(in, leaf_rank, slot, dest_slot, S, g);
            break;
        case 4:
            make_alias_view_r<4>(in, leaf_rank, slot, dest_slot, S, g);
            break;
        default:
            throw std::logic_error("make_alias_view: bad rank");
    }
}

template <std::size_t R>
[[gnu::noinline]] void make_memory_leaf(instance& in, int kind, int slot, const shape_v& s, rng_t& g) {
    narr& naive = in.leaves[std::size_t(slot)].value;
    naive.shape = s;
    if (kind == leaf_array)
        in.objects[std::size_t(slot)] = random_base<double, R>(s, g, naive.v);
    else if (kind == leaf_int_array)
        in.objects[std::size_t(slot)] = random_base<int, R>(s, g, naive.v);
    else if constexpr (R >= 1)
        make_view_leaf<R>(in, slot, s, g);
}

void make_leaf_dispatch(instance& in, int kind, int rank, int slot, const shape_v& s, rng_t& g) {
    switch (rank) {
        case 0:
            make_memory_leaf<0>(in, kind, slot, s, g);
            break;
        case 1:
            make_memory_leaf<1>(in, kind, slot, s, g);
            break;
        case 2:
            make_memory_leaf<2>(in, kind, slot, s, g);
            break;
        case 3:
            make_memory_leaf<3>(in, kind, slot, s, g);
            break;
        case 4:
            make_memory_leaf<4>(in, kind, slot, s, g);
            break;
        default:
            throw std::logic_error("bad rank");
    }
}

/// The result shape for rank R: mostly small extents, sometimes large (parallel path).
shape_v random_result_shape(int R, bool large, rng_t& g) {
    shape_v s(static_cast<std::size_t>(R));
    if (large) {
        const int lo[] = {0, 33000, 182, 33, 14}, hi[] = {0, 40000, 220, 40, 16};
        for (auto& e : s) e = uniform(g, lo[R], hi[R]);
        return s;
    }
    for (auto& e : s) {
        const int r = uniform(g, 0, 99);
        e = r < 4 ? 0 : r < 25 ? 1 : r < 45 ? 2 : r < 65 ? 3 : r < 80 ? 4 : r < 92 ? 5 : 7;
    }
    return s;
}

// ============================================================== building the bsx expression

/// A memory leaf under the tree's rule set (NumPy's is the default: no tag).
template <int Rules, class X>
decltype(auto) tagged(X& x) {
    if constexpr (Rules == rules_octave)
        return bsx::with_rules<bsx::octave_rules>(x);
    else if constexpr (Rules == rules_xla)
        return bsx::with_rules<bsx::xla_rules>(x);
    else
        return (x);
}

template <std::uint64_t Seed, int I>
decltype(auto) build(instance& in) {
    constexpr const tree_desc& t = tree_v<Seed>;
    constexpr int k = t.kinds[I];
    constexpr std::size_t r = std::size_t(t.ranks[I]);
    constexpr int c0 = t.children[I][0], c1 = t.children[I][1], c2 = t.children[I][2];
    const int slot = t.slots[I];
    if constexpr (k == leaf_array) {
        return tagged<t.rules>(static_cast<const bsx::array<double, r>&>(in.array<r>(slot)));
    } else if constexpr (k == leaf_int_array) {
        return tagged<t.rules>(in.int_array<r>(slot));
    } else if constexpr (k == leaf_view) {
        return tagged<t.rules>(in.view<r>(slot));
    } else if constexpr (k == leaf_scalar) {
        return double(in.scalars[std::size_t(slot)]);
    } else if constexpr (k == leaf_int_scalar) {
        return int(in.int_scalars[std::size_t(slot)]);
    } else if constexpr (k == op_neg) {
        return -build<Seed, c0>(in);
    } else if constexpr (k == op_abs) {
        return bsx::abs(build<Seed, c0>(in));
    } else if constexpr (k == op_square) {
        return bsx::square(build<Seed, c0>(in));
    } else if constexpr (k == op_sign) {
        return bsx::sign(build<Seed, c0>(in));
    } else if constexpr (k == op_sum_k) {
        return bsx::sum(build<Seed, c0>(in), bsx::axis(in.axes[std::size_t(I)]), bsx::keepdims);
    } else if constexpr (k == op_max_k) {
        return bsx::max(build<Seed, c0>(in), bsx::axis(in.axes[std::size_t(I)]), bsx::keepdims);
    } else if constexpr (k == op_any_k) {
        return bsx::any(build<Seed, c0>(in), bsx::axis(in.axes[std::size_t(I)]), bsx::keepdims);
    } else if constexpr (k == op_plus) {
        return build<Seed, c0>(in) + build<Seed, c1>(in);
    } else if constexpr (k == op_minus) {
        return build<Seed, c0>(in) - build<Seed, c1>(in);
    } else if constexpr (k == op_times) {
        return build<Seed, c0>(in) * build<Seed, c1>(in);
    } else if constexpr (k == op_min) {
        return bsx::min(build<Seed, c0>(in), build<Seed, c1>(in));
    } else if constexpr (k == op_max) {
        return bsx::max(build<Seed, c0>(in), build<Seed, c1>(in));
    } else if constexpr (k == op_fmin) {
        return bsx::fmin(build<Seed, c0>(in), build<Seed, c1>(in));
    } else if constexpr (k == op_fmax) {
        return bsx::fmax(build<Seed, c0>(in), build<Seed, c1>(in));
    } else if constexpr (k == op_less) {
        return build<Seed, c0>(in) < build<Seed, c1>(in);
    } else if constexpr (k == op_equal) {
        return build<Seed, c0>(in) == build<Seed, c1>(in);
    } else if constexpr (k == op_greater_equal) {
        return build<Seed, c0>(in) >= build<Seed, c1>(in);
    } else if constexpr (k == op_and) {
        return build<Seed, c0>(in) && build<Seed, c1>(in);
    } else if constexpr (k == op_div) {
        return build<Seed, c0>(in) / build<Seed, c1>(in);
    } else if constexpr (k == op_mod) {
        return bsx::mod(build<Seed, c0>(in), build<Seed, c1>(in));
    } else if constexpr (k == op_rem) {
        return bsx::rem(build<Seed, c0>(in), build<Seed, c1>(in));
    } else if constexpr (k == op_pct) {
        return build<Seed, c0>(in) % build<Seed, c1>(in);
    } else {
        static_assert(k == op_where);
        return bsx::where(build<Seed, c0>(in), build<Seed, c1>(in), build<Seed, c2>(in));
    }
}

// ============================================================== comparison

#if defined(__FMA__)
constexpr double ref_tol = 1e-12;  // a*b + c may be contracted differently: compare to rounding
#else
constexpr double ref_tol = 0.0;
#endif

bool value_equal(double g, double e) {
    if (g == e) return true;
    if (std::isnan(g) && std::isnan(e)) return true;
    return ref_tol > 0 && std::isfinite(g) && std::isfinite(e) &&
           std::abs(g - e) <= ref_tol * std::max(std::abs(g), std::abs(e));
}

struct stats {
    int trees = 0, valid = 0, errors = 0, parallel = 0, empty = 0, aliasing = 0, aliasing_views = 0;
    int valid_by_rules[3] = {0, 0, 0};
    int reductions = 0;  // evaluated runs whose tree has a reduction
    int max_depth_seen = 0;
    int failures = 0;
};

/// Compares the strided memory at `data` (element idx at sum idx[a] * strides[a]) with
/// the naive result; `why` gets the first difference.
bool compare_strided(const narr& expected, const double* data, const std::vector<index_t>& strides, std::string& why) {
    std::size_t flat = 0;
    bool ok = true;
    for_each_index(expected.shape, [&](const std::vector<index_t>& idx) {
        index_t o = 0;
        for (std::size_t a = 0; a < idx.size(); ++a) o += idx[a] * strides[a];
        const double g = data[o], e = expected.v[flat];
        if (ok && !value_equal(g, e)) {
            std::ostringstream os;
            os << "element " << flat << ": bsx " << g << ", naive " << e;
            why = os.str();
            ok = false;
        }
        ++flat;
    });
    return ok;
}

/// A bsx array of rank R against the naive result: shape first, then every element
/// (elements of other types, from bsx::eval, compared after conversion to double).
template <class T, std::size_t R>
bool compare_array(const narr& expected, const bsx::array<T, R>& got, std::string& why) {
    const shape_v gs(got.shape().begin(), got.shape().end());
    if (gs != expected.shape) {
        why = "result shape differs";
        return false;
    }
    if constexpr (std::is_same_v<T, double>) {
        return compare_strided(expected, got.data(), row_major_strides(gs), why);
    } else {
        const std::vector<double> converted(got.begin(), got.end());
        return compare_strided(expected, converted.data(), row_major_strides(gs), why);
    }
}

int depth_of(const tree_desc& t, int i) {
    if (is_leaf(t.kinds[i])) return 0;
    int d = 0;
    for (int c = 0; c < arity_of(t.kinds[i]); ++c) d = std::max(d, depth_of(t, t.children[i][c]));
    return d + 1;
}

/// Ways of writing the result.
enum form : int {
    form_construct,
    form_assign_empty,
    form_assign_sized,
    form_transposed_view,
    form_eval,
    form_compound,
    form_own_leaf,
    form_count
};

/// Everything about one run that does not depend on the tree's static type.
struct run_plan {
    instance in;
    std::optional<narr> expected;  // empty: the naive evaluator finds the shapes incompatible
    std::string context;
    int form = form_construct;
    int alias_slot = -1;                 // form_own_leaf: the leaf array assigned to
    std::vector<double> compound_start;  // form_compound: the destination's values before +=
};

[[gnu::noinline]] run_plan plan_run(const tree_desc& t, std::uint64_t seed, int variant, bool allow_compound, rng_t& g,
                                    stats& st) {
    const std::size_t RR = std::size_t(t.max_rank);
    ++st.trees;
    st.max_depth_seen = std::max(st.max_depth_seen, depth_of(t, t.root));
    run_plan p{instance(std::size_t(t.leaves)), {}, {}, form_construct, -1, {}};
    instance& in = p.in;
    // Parallel-sized runs cost most (under ASan at -O0 above all): about 70 of them per
    // CI run, whatever the run count.
    const bool large = uniform(g, 0, kRuns - 1) < 70;
    const shape_v S = random_result_shape(int(RR), large, g);
    // Aliasing run: a double array leaf of the result's rank, with the full shape S, is the
    // destination, and some view leaves become views of it.
    int dest_slot = -1;
    for (int i = 0; i < t.count; ++i)
        if (t.kinds[i] == leaf_array && std::size_t(t.ranks[i]) == RR && RR >= 1) dest_slot = t.slots[i];
    const bool alias_run = dest_slot >= 0 && chance(g, 50);
    std::vector<bool> alias_view(std::size_t(t.leaves), false);
    // Leaf shapes: the axes of S where the rule set aligns the leaf (NumPy: trailing, Octave:
    // leading), each possibly 1 (0 stays 0 or becomes 1).
    std::vector<shape_v> leaf_shapes(std::size_t(t.leaves));
    std::vector<int> memory_leaves;
    for (int i = 0; i < t.count; ++i) {
        const int k = t.kinds[i];
        if (!is_leaf(k) || is_scalar_leaf(k)) continue;
        const int r = t.ranks[i];
        shape_v s(static_cast<std::size_t>(r));
        const bool full = alias_run && t.slots[i] == dest_slot;
        for (int a = 0; a < r; ++a) {
            const index_t e = S[first_axis(std::size_t(r), RR, t.rules) + std::size_t(a)];
            s[std::size_t(a)] = !full && chance(g, large ? 15 : 30) ? 1 : e;
        }
        leaf_shapes[std::size_t(t.slots[i])] = s;
        if (r > 0) memory_leaves.push_back(i);
        if (alias_run && k == leaf_view &&
            (std::size_t(r) == RR || (std::size_t(r) + 1 == RR && S[0] >= 1 && t.rules == rules_numpy)) &&
            chance(g, 75))
            alias_view[std::size_t(t.slots[i])] = true;
    }
    // Sometimes make one leaf's extent wrong (it may or may not break broadcasting); an
    // axis where S has extent 0 is preferred (0 against n > 1 is an error).
    if (!large && !alias_run && !memory_leaves.empty() && chance(g, 18)) {
        const int i = memory_leaves[std::size_t(uniform(g, 0, int(memory_leaves.size()) - 1))];
        shape_v& s = leaf_shapes[std::size_t(t.slots[i])];
        std::size_t a = std::size_t(uniform(g, 0, int(s.size()) - 1));
        for (std::size_t b = 0; b < s.size(); ++b)
            if (S[first_axis(s.size(), RR, t.rules) + b] == 0 && chance(g, 70)) a = b;
        const index_t e = S[first_axis(s.size(), RR, t.rules) + a];
        s[a] = e <= 1 ? index_t(uniform(g, 2, 3)) : e + 1;
    }
    if (alias_run) make_leaf_dispatch(in, leaf_array, int(RR), dest_slot, leaf_shapes[std::size_t(dest_slot)], g);
    for (int i = 0; i < t.count; ++i) {
        const int k = t.kinds[i];
        if (!is_leaf(k)) continue;
        const int slot = t.slots[i];
        if (k == leaf_scalar) {
            in.scalars[std::size_t(slot)] = random_double(g);
            in.leaves[std::size_t(slot)].value = {{}, {in.scalars[std::size_t(slot)]}};
        } else if (k == leaf_int_scalar) {
            in.int_scalars[std::size_t(slot)] = uniform(g, -3, 3);
            in.leaves[std::size_t(slot)].value = {{}, {double(in.int_scalars[std::size_t(slot)])}};
        } else if (alias_run && slot == dest_slot) {
            continue;  // made first
        } else if (alias_view[std::size_t(slot)]) {
            make_alias_view(in, t.ranks[i], slot, dest_slot, S, g);
        } else {
            make_leaf_dispatch(in, k, t.ranks[i], slot, leaf_shapes[std::size_t(slot)], g);
        }
    }
    for (int i = 0; i < t.count; ++i)
        if (is_reduction(t.kinds[i])) in.axes[std::size_t(i)] = uniform(g, -t.ranks[i], t.ranks[i] - 1);
    try {
        p.expected = naive_eval(t, t.root, in.leaves, in.axes);
    } catch (const naive_broadcast_error&) {
    } catch (const naive_reduce_error&) {
    }

    std::ostringstream ctx;
    ctx << "seed " << seed << " variant " << variant << ": " << describe(t, t.root) << "; result shape (";
    for (auto e : S) ctx << e << ",";
    ctx << ")";
    for (int s = 0; s < t.leaves; ++s) {
        ctx << "; leaf " << s << " (";
        for (auto e : in.leaves[std::size_t(s)].value.shape) ctx << e << ",";
        ctx << ")" << (in.view_kinds[std::size_t(s)].empty() ? "" : " " + in.view_kinds[std::size_t(s)]);
    }
    for (int i = 0; i < t.count; ++i)
        if (is_reduction(t.kinds[i])) ctx << "; node " << i << " reduces axis " << in.axes[std::size_t(i)];
    static const char* rule_names[] = {"numpy", "octave", "xla"};
    ctx << "; " << rule_names[t.rules] << " rules";
    p.context = ctx.str();

    if (!p.expected) {
        ++st.errors;
        return p;
    }
    ++st.valid;
    ++st.valid_by_rules[t.rules];
    for (int i = 0; i < t.count; ++i)
        if (is_reduction(t.kinds[i])) {
            ++st.reductions;
            break;
        }
    const index_t n = count_of(p.expected->shape);
    if (n >= 32768) ++st.parallel;
    if (n == 0) ++st.empty;
    for (int i = 0; i < t.count; ++i)
        if (t.kinds[i] == leaf_array && std::size_t(t.ranks[i]) == RR) p.alias_slot = t.slots[i];
    if (alias_run) p.alias_slot = dest_slot;
    p.form = alias_run && chance(g, 75) ? int(form_own_leaf) : uniform(g, 0, form_count - 1);
    if (p.form == form_own_leaf && p.alias_slot < 0) p.form = form_construct;
    if (p.form == form_compound && !allow_compound) p.form = form_assign_sized;
    if (p.form == form_own_leaf) ++st.aliasing;
    if (p.form == form_own_leaf && alias_run && std::count(alias_view.begin(), alias_view.end(), true) > 0)
        ++st.aliasing_views;
    if (p.form == form_compound) {
        p.compound_start.resize(std::size_t(n));
        for (auto& x : p.compound_start) x = random_double(g);
    }
    p.context += "; form " + std::to_string(p.form);
    return p;
}

void report_failure(stats& st, const std::string& context, const std::string& why) {
    ++st.failures;
    BOOST_ERROR(context << ": " << why);
}

/// One run of tree `Seed` with run-time choices from `g`. Only the bsx side is per tree.
template <std::uint64_t Seed>
void run_once(rng_t& g, stats& st, int variant) {
    constexpr const tree_desc& t = tree_v<Seed>;
    constexpr std::size_t RR = std::size_t(t.max_rank);
    // `+=` instantiates a second evaluator per tree; a third of the trees use it (compile time).
    constexpr bool allow_compound = Seed % 3 == 0;
    run_plan p = plan_run(t, Seed, variant, allow_compound, g, st);
    instance& in = p.in;

    if (!p.expected) {
        try {
            auto e = build<Seed, t.root>(in);
            (void)e;
        } catch (const bsx::broadcast_error&) {
            return;  // both agree: an error
        } catch (const std::invalid_argument& x) {
            if (std::string(x.what()).find("is empty") != std::string::npos) return;  // max along an empty axis
            return report_failure(st, p.context, std::string("unexpected exception ") + x.what());
        } catch (const std::exception& x) {
            return report_failure(st, p.context, std::string("unexpected exception ") + x.what());
        }
        return report_failure(st, p.context,
                              "the naive evaluator finds the shapes incompatible but bsx does not throw");
    }

    const narr& expected = *p.expected;
    std::string why;
    bool ok = false;
    try {
        auto e = build<Seed, t.root>(in);
        static_assert(bsx::rank_v<decltype(e)> == RR, "the result rank is the maximum leaf rank");
        const auto shape = to_shape<RR>(expected.shape);
        if (e.shape() != shape) return report_failure(st, p.context, "expression shape differs from the naive shape");
        switch (p.form) {
            case form_construct: {
                bsx::array<double, RR> r = e;
                ok = compare_array(expected, r, why);
                break;
            }
            case form_assign_empty: {
                bsx::array<double, RR> r;
                r = e;
                ok = compare_array(expected, r, why);
                break;
            }
            case form_assign_sized: {
                bsx::array<double, RR> r = bsx::full<double, RR>(shape, 12345.0);
                r = e;
                ok = compare_array(expected, r, why);
                break;
            }
            case form_transposed_view: {  // into a transposed view of an array of the reversed shape
                bsx::shape_t<RR> rev{};
                for (std::size_t a = 0; a < RR; ++a) rev[a] = shape[RR - 1 - a];
                bsx::array<double, RR> buf = bsx::full<double, RR>(rev, -777.0);
                bsx::transpose(buf) = e;
                const auto bst = row_major_strides(shape_v(rev.begin(), rev.end()));
                ok = compare_strided(expected, buf.data(), std::vector<index_t>(bst.rbegin(), bst.rend()), why);
                break;
            }
            case form_eval: {
                ok = compare_array(expected, bsx::eval(e), why);
                break;
            }
            case form_compound: {  // r += e, r random
                if constexpr (allow_compound) {
                    bsx::array<double, RR> r(shape);
                    std::copy(p.compound_start.begin(), p.compound_start.end(), r.data());
                    r += e;
                    narr sum = expected;
                    for (std::size_t q = 0; q < sum.v.size(); ++q) sum.v[q] = p.compound_start[q] + expected.v[q];
                    ok = compare_array(sum, r, why);
                }
                break;
            }
            default: {  // one of the tree's own array leaves is the destination: value semantics
                auto& dest = in.array<RR>(p.alias_slot);
                dest = e;
                ok = compare_array(expected, dest, why);
                if (!ok) why = "(assigned to its own leaf A" + std::to_string(p.alias_slot) + ") " + why;
                break;
            }
        }
    } catch (const std::exception& x) {
        why = std::string("unexpected exception: ") + x.what();
    }
    if (!ok) report_failure(st, p.context, why);
}

// ============================================================== the driver

// Each tree structure is a distinct static expression type: its evaluator is compiled
// once per structure, and that dominates the build (about 5 s per structure with
// g++ -O3, 2 s with clang++ -O2, 3 s and much memory under sanitizers with -g).
// Optimized g++ builds use 28 structures, optimized clang builds 20,
// sanitizer and unoptimized builds 10; the run count stays kRuns in every case (more
// run-time variants per structure). Override with -DBSX_RANDOM_STRUCTURES=n.
#ifndef BSX_RANDOM_STRUCTURES
#if defined(BSX_TEST_SANITIZED) || !defined(__OPTIMIZE__)
#define BSX_RANDOM_STRUCTURES 10
#elif defined(__clang__)
#define BSX_RANDOM_STRUCTURES 20
#else
#define BSX_RANDOM_STRUCTURES 28
#endif
#endif
constexpr std::size_t kTrees = BSX_RANDOM_STRUCTURES;
constexpr int kVariants = int((kRuns + int(kTrees) - 1) / int(kTrees));

template <std::size_t K>
void run_tree(stats& st) {
    rng_t g(0xB5C0FFEEull + K * 7919);
    for (int v = 0; v < kVariants; ++v) run_once<std::uint64_t(K) + 1>(g, st, v);
}

template <std::size_t... K>
void run_all(stats& st, std::index_sequence<K...>) {
    (run_tree<K>(st), ...);
}

}  // namespace

BOOST_AUTO_TEST_CASE(random_trees_match_naive_evaluator) {
    stats st;
    run_all(st, std::make_index_sequence<kTrees>{});
    BOOST_TEST_MESSAGE(
        "random trees: " << st.trees << " runs of " << kTrees << " tree structures; " << st.valid << " evaluated ("
                         << st.parallel << " parallel-sized, " << st.empty << " empty, " << st.aliasing
                         << " assigned to their own leaf, " << st.aliasing_views
                         << " of them also reading it through views), " << st.errors
                         << " errors (broadcast, or max along an empty axis); " << st.valid_by_rules[rules_numpy] << "/"
                         << st.valid_by_rules[rules_octave] << "/" << st.valid_by_rules[rules_xla]
                         << " evaluated under numpy/octave/xla rules, " << st.reductions
                         << " with reductions; max depth " << st.max_depth_seen << "; failures " << st.failures);
    BOOST_TEST(st.failures == 0);
    BOOST_TEST(st.trees >= 10000);
    BOOST_TEST(st.valid >= 10000);        // issue 10: at least 10^4 evaluated trees per run
    BOOST_TEST(st.errors >= 20);          // non-broadcastable trees were exercised
    BOOST_TEST(st.parallel >= 20);        // and the parallel path
    BOOST_TEST(st.empty >= 10);           // and zero-size results
    BOOST_TEST(st.aliasing >= 50);        // and destinations read on the right
    BOOST_TEST(st.aliasing_views >= 30);  // also through overlapping views
    BOOST_TEST(st.max_depth_seen == 4);
    for (int r : st.valid_by_rules) BOOST_TEST(r >= 1000);  // every rule set
    BOOST_TEST(st.reductions >= 1000);
}

BOOST_AUTO_TEST_CASE(generator_covers_ranks_ops_and_leaf_kinds) {
    // The compile-time trees use every rank 1..4 as the result rank, every op and every leaf kind.
    std::array<int, 5> ranks{};
    std::array<int, op_where + 1> kinds{};
    std::array<int, 3> rules{};
    [&]<std::size_t... K>(std::index_sequence<K...>) {
        ((++ranks[std::size_t(tree_v<K + 1>.max_rank)], ++rules[std::size_t(tree_v<K + 1>.rules)],
          [&] {
              for (int i = 0; i < tree_v<K + 1>.count; ++i) ++kinds[std::size_t(tree_v<K + 1>.kinds[i])];
          }()),
         ...);
    }(std::make_index_sequence<kTrees>{});
    for (int r = 1; r <= 4; ++r) BOOST_TEST(ranks[std::size_t(r)] > 0, "result rank " << r);
    for (int k = 0; k <= op_where; ++k) BOOST_TEST(kinds[std::size_t(k)] > 0, "kind " << k);
    for (int r = 0; r < 3; ++r) BOOST_TEST(rules[std::size_t(r)] > 0, "rule set " << r);
}
