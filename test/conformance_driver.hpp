// Data-driven broadcasting conformance test: the shared driver of
// test_conformance_arith.cpp, test_conformance_compare.cpp and
// test_conformance_func.cpp (one Boost.Test executable per op group).
//
// Reads the case files described in ../shared/conformance/README.md (format,
// op table, tolerance rule, rule sets) and runs every case of
// the executable's op group through bsx, under every rule set: build the two operands as
// bsx::array<double, Ra> and bsx::array<double, Rb>, build the lazy
// expression named by the op table, evaluate it with bsx::eval and compare
// shape and values with the file. `expect error` cases must throw
// bsx::broadcast_error when the expression is built.
//
// Files:
//   * BSX_TEST_DATA_DIR "/broadcast_cases.txt" -- the committed copy, always run
//   * BSX_SHARED_CONFORMANCE_DIR "/broadcast_cases.txt" -- the shared file, run
//     when it exists (the test case reports itself skipped otherwise)
//
// Ranks are static in bsx, so each case is dispatched at run time on the pair
// (rank of a, rank of b), both in 0..max_rank, through a table of function
// template instantiations; each instantiation switches on the op id. That is
// (max_rank+1)^2 expression instantiations per op and rule set, which is why
// the ops are split into groups, one translation unit each.
//
// The tolerance (rel, abs, ops) is read from the file's `# tolerance` header.
//
// Every rule set runs: numpy (the default), octave (one operand tagged with
// bsx::with_rules<bsx::octave_rules>), xla (tagged with bsx::xla_rules; a
// `dims` line places the lower-rank operand with bsx::in_dims). Under xla, a
// rank mismatch without dims must not compile: such a case passes when a
// requires-expression says the tagged `a + b` is ill-formed.
//
// Include after defining BOOST_TEST_MODULE and including
// <boost/test/unit_test.hpp>.
#ifndef BSX_TEST_CONFORMANCE_DRIVER_HPP
#define BSX_TEST_CONFORMANCE_DRIVER_HPP

#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#ifndef BSX_TEST_DATA_DIR
#error "BSX_TEST_DATA_DIR must be defined (absolute path of test/data)"
#endif

namespace bsx_conformance {

using bsx::index_t;

constexpr std::size_t max_rank = 5;  // operand ranks 0..max_rank are dispatched

// ---------------------------------------------------------------------------
// Op ids (README "Op ids and bsx names")
// ---------------------------------------------------------------------------
enum class op_id {
    plus,
    minus,
    times,
    rdivide,
    ldivide,
    power,
    lt,
    le,
    gt,
    ge,
    eq,
    ne,
    logical_and,
    logical_or,
    logical_xor,
    atan2,
    hypot,
    max,
    min,
    mod,
    rem,
};

constexpr std::array<std::pair<std::string_view, op_id>, 21> op_table{{
    {"plus", op_id::plus},       {"minus", op_id::minus},   {"times", op_id::times},     {"rdivide", op_id::rdivide},
    {"ldivide", op_id::ldivide}, {"power", op_id::power},   {"lt", op_id::lt},           {"le", op_id::le},
    {"gt", op_id::gt},           {"ge", op_id::ge},         {"eq", op_id::eq},           {"ne", op_id::ne},
    {"and", op_id::logical_and}, {"or", op_id::logical_or}, {"xor", op_id::logical_xor}, {"atan2", op_id::atan2},
    {"hypot", op_id::hypot},     {"max", op_id::max},       {"min", op_id::min},         {"mod", op_id::mod},
    {"rem", op_id::rem},
}};

inline std::optional<op_id> find_op(std::string_view name) {
    for (const auto& [n, id] : op_table)
        if (n == name) return id;
    return std::nullopt;
}

// Each op group is its own test executable, to keep the instantiations per
// translation unit down (each group instantiates (max_rank+1)^2 expressions
// per op). Every op belongs to exactly one group.
enum class op_group { arithmetic, comparison_logical, functions };

constexpr op_group group_of(op_id op) {
    switch (op) {  // no default: -Wswitch flags an op left out
        case op_id::plus:
        case op_id::minus:
        case op_id::times:
        case op_id::rdivide:
        case op_id::ldivide:
        case op_id::power:
            return op_group::arithmetic;
        case op_id::lt:
        case op_id::le:
        case op_id::gt:
        case op_id::ge:
        case op_id::eq:
        case op_id::ne:
        case op_id::logical_and:
        case op_id::logical_or:
        case op_id::logical_xor:
            return op_group::comparison_logical;
        case op_id::atan2:
        case op_id::hypot:
        case op_id::max:
        case op_id::min:
        case op_id::mod:
        case op_id::rem:
            return op_group::functions;
    }
    return op_group::arithmetic;
}

// A case with an op id missing from op_table is reported (as a failure) by
// the arithmetic executable only.
constexpr op_group group_of(const std::optional<op_id>& op) { return op ? group_of(*op) : op_group::arithmetic; }

constexpr const char* group_name(op_group g) {
    switch (g) {
        case op_group::arithmetic:
            return "arithmetic (plus minus times rdivide ldivide power)";
        case op_group::comparison_logical:
            return "comparison/logical (lt le gt ge eq ne and or xor)";
        case op_group::functions:
            return "functions (atan2 hypot max min mod rem)";
    }
    return "?";
}

// ---------------------------------------------------------------------------
// Case file model and parser
// ---------------------------------------------------------------------------
struct operand {
    std::vector<index_t> shape;
    std::vector<double> values;
};

struct test_case {
    std::string id;
    int line = 0;  // line of the `case` line, for messages
    std::string rules;
    std::string op_name;
    std::optional<op_id> op;
    std::optional<std::vector<index_t>> dims;
    operand a, b;
    std::optional<operand> expect;  // empty: `expect error`
};

struct tolerance {
    bool present = false;
    double rel = 0.0;
    double abs = 0.0;
    std::set<std::string> ops;
    bool applies_to(const std::string& op) const { return present && ops.count(op) != 0; }
};

struct case_file {
    std::string path;
    tolerance tol;
    std::vector<test_case> cases;
};

inline std::vector<std::string> split_tokens(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream ss(s);
    for (std::string t; ss >> t;) out.push_back(t);
    return out;
}

[[noreturn]] inline void parse_fail(const std::string& path, int line, const std::string& what) {
    throw std::runtime_error(path + ":" + std::to_string(line) + ": " + what);
}

inline double parse_value(const std::string& tok, const std::string& path, int line) {
    // strtod accepts inf, -inf and nan (istream >> double does not).
    char* end = nullptr;
    const double v = std::strtod(tok.c_str(), &end);
    if (tok.empty() || end != tok.c_str() + tok.size()) parse_fail(path, line, "bad value token '" + tok + "'");
    return v;
}

inline index_t parse_int(const std::string& tok, const std::string& path, int line) {
    char* end = nullptr;
    const long long v = std::strtoll(tok.c_str(), &end, 10);
    if (tok.empty() || end != tok.c_str() + tok.size()) parse_fail(path, line, "bad integer token '" + tok + "'");
    return static_cast<index_t>(v);
}

// tokens: <tag> shape n0 n1 ... : v0 v1 ...
inline operand parse_operand(const std::vector<std::string>& tok, const std::string& path, int line) {
    if (tok.size() < 3 || tok[1] != "shape") parse_fail(path, line, "expected '<tag> shape ... :'");
    operand o;
    std::size_t i = 2;
    for (; i < tok.size() && tok[i] != ":"; ++i) {
        const index_t e = parse_int(tok[i], path, line);
        if (e < 0) parse_fail(path, line, "negative extent");
        o.shape.push_back(e);
    }
    if (i == tok.size()) parse_fail(path, line, "missing ':'");
    for (++i; i < tok.size(); ++i) o.values.push_back(parse_value(tok[i], path, line));
    std::size_t n = 1;
    for (index_t e : o.shape) n *= static_cast<std::size_t>(e);
    if (o.values.size() != n)
        parse_fail(path, line,
                   "value count " + std::to_string(o.values.size()) + " != product of extents " + std::to_string(n));
    return o;
}

// "# tolerance rel=1e-12 abs=1e-300 ops=power,rdivide,ldivide,atan2,hypot"
inline void parse_tolerance(const std::string& line, tolerance& tol, const std::string& path, int lineno) {
    const auto tok = split_tokens(line);
    if (tok.size() < 2 || tok[0] != "#" || tok[1] != "tolerance") return;
    bool rel = false, abs = false, ops = false;
    for (std::size_t i = 2; i < tok.size(); ++i) {
        const auto eq = tok[i].find('=');
        if (eq == std::string::npos) continue;
        const std::string key = tok[i].substr(0, eq), val = tok[i].substr(eq + 1);
        if (key == "rel") {
            tol.rel = parse_value(val, path, lineno);
            rel = true;
        } else if (key == "abs") {
            tol.abs = parse_value(val, path, lineno);
            abs = true;
        } else if (key == "ops") {
            std::istringstream ss(val);
            for (std::string op; std::getline(ss, op, ',');)
                if (!op.empty()) tol.ops.insert(op);
            ops = true;
        }
    }
    if (!(rel && abs && ops)) parse_fail(path, lineno, "incomplete tolerance line");
    tol.present = true;
}

inline case_file parse_case_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    case_file f;
    f.path = path;
    std::optional<test_case> cur;
    bool have_a = false, have_b = false, have_expect = false;
    std::set<std::string> ids;
    int lineno = 0;
    for (std::string line; std::getline(in, line);) {
        ++lineno;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        if (line[0] == '#') {
            if (!f.tol.present) parse_tolerance(line, f.tol, path, lineno);
            continue;
        }
        const auto tok = split_tokens(line);
        if (tok.empty()) continue;
        const std::string& key = tok[0];
        if (key == "case") {
            if (cur) parse_fail(path, lineno, "'case' inside case " + cur->id + " (missing 'end')");
            if (tok.size() != 2) parse_fail(path, lineno, "expected 'case <id>'");
            cur.emplace();
            cur->id = tok[1];
            cur->line = lineno;
            have_a = have_b = have_expect = false;
            continue;
        }
        if (!cur) parse_fail(path, lineno, "'" + key + "' outside a case block");
        if (key == "rules") {
            if (tok.size() != 2) parse_fail(path, lineno, "expected 'rules <set>'");
            cur->rules = tok[1];
        } else if (key == "op") {
            if (tok.size() != 2) parse_fail(path, lineno, "expected 'op <name>'");
            cur->op_name = tok[1];
            cur->op = find_op(tok[1]);  // unknown ops are reported as a failing case
        } else if (key == "dims") {
            std::vector<index_t> d;
            for (std::size_t i = 1; i < tok.size(); ++i) d.push_back(parse_int(tok[i], path, lineno));
            cur->dims = std::move(d);
        } else if (key == "a") {
            cur->a = parse_operand(tok, path, lineno);
            have_a = true;
        } else if (key == "b") {
            cur->b = parse_operand(tok, path, lineno);
            have_b = true;
        } else if (key == "expect") {
            if (tok.size() == 2 && tok[1] == "error")
                cur->expect.reset();
            else
                cur->expect = parse_operand(tok, path, lineno);
            have_expect = true;
        } else if (key == "end") {
            if (cur->rules.empty() || cur->op_name.empty() || !have_a || !have_b || !have_expect)
                parse_fail(path, lineno, "incomplete case " + cur->id);
            if (!ids.insert(cur->id).second) parse_fail(path, lineno, "duplicate case id " + cur->id);
            f.cases.push_back(std::move(*cur));
            cur.reset();
        } else {
            parse_fail(path, lineno, "unknown line '" + line + "'");
        }
    }
    if (cur) parse_fail(path, lineno, "file ends inside case " + cur->id);
    return f;
}

// ---------------------------------------------------------------------------
// Formatting helpers for messages
// ---------------------------------------------------------------------------
template <class Shape>
std::string shape_str(const Shape& s) {  // NumPy tuple: (), (3,), (2,3)
    std::string r = "(";
    std::size_t k = 0;
    for (auto e : s) {
        if (k++) r += ",";
        r += std::to_string(static_cast<long long>(e));
    }
    if (k == 1) r += ",";
    return r + ")";
}

inline std::string num_str(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

inline std::string index_str(const std::vector<index_t>& shape, std::size_t flat) {
    std::vector<index_t> idx(shape.size());
    for (std::size_t k = shape.size(); k-- > 0;) {
        idx[k] = static_cast<index_t>(flat % static_cast<std::size_t>(shape[k]));
        flat /= static_cast<std::size_t>(shape[k]);
    }
    std::string r = "[";
    for (std::size_t k = 0; k < idx.size(); ++k) {
        if (k) r += ',';
        r += std::to_string(idx[k]);
    }
    return r + "]";
}

inline std::string case_str(const test_case& c) {
    std::string r = "case " + c.id + " (line " + std::to_string(c.line) + ", rules " + c.rules + ", op " + c.op_name +
                    ", a " + shape_str(c.a.shape) + ", b " + shape_str(c.b.shape) + ", expect ";
    r += c.expect ? shape_str(c.expect->shape) : std::string("error");
    return r + ")";
}

// ---------------------------------------------------------------------------
// Running one case
// ---------------------------------------------------------------------------
struct outcome {
    bool passed = false;
    std::string message;  // empty when passed
};

inline outcome pass() { return {true, {}}; }
inline outcome fail(const test_case& c, const std::string& why) { return {false, case_str(c) + ": " + why}; }

inline bool value_matches(double got, double want, bool tolerant, const tolerance& tol) {
    if (std::isnan(want)) return std::isnan(got);
    if (std::isinf(want)) return got == want;
    if (!tolerant) return got == want;  // -0 == 0
    if (!std::isfinite(got)) return false;
    return std::fabs(got - want) <= tol.rel * std::fabs(want) + tol.abs;
}

// Compares the evaluated values (already converted to double) with the file.
inline outcome compare_values(const test_case& c, const tolerance& tol, const std::vector<index_t>& got_shape,
                              const std::vector<double>& got) {
    const operand& want = *c.expect;
    if (got_shape != want.shape)
        return fail(c, "result shape " + shape_str(got_shape) + ", expected " + shape_str(want.shape));
    if (got.size() != want.values.size())
        return fail(c, "result size() " + std::to_string(got.size()) + " but shape " + shape_str(got_shape) + " has " +
                           std::to_string(want.values.size()) + " elements");
    const bool tolerant = tol.applies_to(c.op_name);
    for (std::size_t i = 0; i < got.size(); ++i)
        if (!value_matches(got[i], want.values[i], tolerant, tol))
            return fail(c, "first differing element " + index_str(want.shape, i) + " (flat " + std::to_string(i) +
                               "): got " + num_str(got[i]) + ", expected " + num_str(want.values[i]) +
                               (tolerant ? " (with tolerance)" : " (exact)"));
    return pass();
}

// An evaluated bsx::array with double or bool elements (bool compares as 0/1).
template <class Result>
outcome compare_result(const test_case& c, const tolerance& tol, const Result& r) {
    const auto s = r.shape();
    const std::vector<index_t> shape(s.begin(), s.end());
    const auto n = static_cast<std::size_t>(r.size());
    std::vector<double> values(n);
    const auto* p = r.data();
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<double>(p[i]);
    return compare_values(c, tol, shape, values);
}

inline outcome error_not_thrown(const test_case& c, const std::string& built_shape) {
    return fail(c,
                "expected bsx::broadcast_error when building the expression, but it was built "
                "with shape " +
                    built_shape);
}

inline outcome unexpected_exception(const test_case& c, const char* where, const std::exception& ex) {
    return fail(c, std::string(where) + ": " + ex.what());
}

// `build` returns the lazy expression. Expressions must check shapes when
// built, so an `expect error` case never reaches bsx::eval.
template <class Build>
outcome run_expression(const test_case& c, const tolerance& tol, Build&& build) {
    if (!c.expect) {
        try {
            return error_not_thrown(c, shape_str(build().shape()));
        } catch (const bsx::broadcast_error&) {
            return pass();
        }
    }
    try {
        auto e = build();
        try {
            return compare_result(c, tol, bsx::eval(e));
        } catch (const std::exception& ex) {
            return unexpected_exception(c, "bsx::eval threw", ex);
        }
    } catch (const bsx::broadcast_error& ex) {
        return unexpected_exception(c, "unexpected bsx::broadcast_error when building", ex);
    }
}

// The op table of the README, restricted to group G. A and B are the operand
// types (arrays, views, or tagged operands such as bsx::with_rules<...>(a));
// they are held by reference, and the expression is evaluated before this
// function returns.
template <op_group G, class A, class B>
outcome apply_op(const test_case& c, const tolerance& tol, const A& a, const B& b) {
    if constexpr (G == op_group::arithmetic) {
        switch (*c.op) {
            case op_id::plus:
                return run_expression(c, tol, [&] { return a + b; });
            case op_id::minus:
                return run_expression(c, tol, [&] { return a - b; });
            case op_id::times:
                return run_expression(c, tol, [&] { return a * b; });
            case op_id::rdivide:
                return run_expression(c, tol, [&] { return a / b; });
            case op_id::ldivide:
                return run_expression(c, tol, [&] { return bsx::ldivide(a, b); });
            case op_id::power:
                return run_expression(c, tol, [&] { return bsx::pow(a, b); });
            default:
                break;
        }
    } else if constexpr (G == op_group::comparison_logical) {
        switch (*c.op) {
            case op_id::lt:
                return run_expression(c, tol, [&] { return a < b; });
            case op_id::le:
                return run_expression(c, tol, [&] { return a <= b; });
            case op_id::gt:
                return run_expression(c, tol, [&] { return a > b; });
            case op_id::ge:
                return run_expression(c, tol, [&] { return a >= b; });
            case op_id::eq:
                return run_expression(c, tol, [&] { return a == b; });
            case op_id::ne:
                return run_expression(c, tol, [&] { return a != b; });
            case op_id::logical_and:
                return run_expression(c, tol, [&] { return bsx::logical_and(a, b); });
            case op_id::logical_or:
                return run_expression(c, tol, [&] { return bsx::logical_or(a, b); });
            case op_id::logical_xor:
                return run_expression(c, tol, [&] { return bsx::logical_xor(a, b); });
            default:
                break;
        }
    } else if constexpr (G == op_group::functions) {
        switch (*c.op) {
            case op_id::atan2:
                return run_expression(c, tol, [&] { return bsx::atan2(a, b); });
            case op_id::hypot:
                return run_expression(c, tol, [&] { return bsx::hypot(a, b); });
            case op_id::max:
                return run_expression(c, tol, [&] { return bsx::fmax(a, b); });
            case op_id::min:
                return run_expression(c, tol, [&] { return bsx::fmin(a, b); });
            case op_id::mod:
                return run_expression(c, tol, [&] { return bsx::mod(a, b); });
            case op_id::rem:
                return run_expression(c, tol, [&] { return bsx::rem(a, b); });
            default:
                break;
        }
    }
    return fail(c, std::string("op not handled by the group ") + group_name(G) + " (group_of and apply_op disagree)");
}

template <std::size_t R>
bsx::array<double, R> make_operand(const operand& o) {
    std::array<index_t, R> shape{};
    for (std::size_t k = 0; k < R; ++k) shape[k] = o.shape[k];
    auto arr = bsx::full<double>(shape, 0.0);
    if (arr.shape() != shape || static_cast<std::size_t>(arr.size()) != o.values.size())
        throw std::logic_error("bsx::full<double>" + shape_str(shape) + " gave shape " + shape_str(arr.shape()) +
                               " and size " + std::to_string(static_cast<long long>(arr.size())));
    std::copy(o.values.begin(), o.values.end(), arr.data());
    return arr;
}

// ---------------------------------------------------------------------------
// Rule sets: each builds the operands as bsx arrays of the case's ranks, tags
// them for its rule set and calls apply_op<G>.
// ---------------------------------------------------------------------------
template <op_group G>
struct numpy_rule_set {
    template <std::size_t Ra, std::size_t Rb>
    static outcome run(const test_case& c, const tolerance& tol) {
        const auto a = make_operand<Ra>(c.a);
        const auto b = make_operand<Rb>(c.b);
        return apply_op<G>(c, tol, a, b);  // numpy_rules is the default
    }
};

template <op_group G>
struct octave_rule_set {
    template <std::size_t Ra, std::size_t Rb>
    static outcome run(const test_case& c, const tolerance& tol) {
        const auto a = make_operand<Ra>(c.a);
        const auto b = make_operand<Rb>(c.b);
        return apply_op<G>(c, tol, bsx::with_rules<bsx::octave_rules>(a), b);  // one tag governs the node
    }
};

// Whether bsx accepts `x + y` at all: under xla rules, operands of different rank
// (neither rank 0) without dims must not compile.
template <class X, class Y>
constexpr bool combinable = requires(const X& x, const Y& y) { x + y; };

template <op_group G>
struct xla_rule_set {
    template <std::size_t Ra, std::size_t Rb>
    static outcome run(const test_case& c, const tolerance& tol) {
        const auto a = make_operand<Ra>(c.a);
        const auto b = make_operand<Rb>(c.b);
        const auto tagged_a = bsx::with_rules<bsx::xla_rules>(a);
        if (!c.dims) {
            if constexpr (combinable<decltype(tagged_a), decltype(b)>) {
                return apply_op<G>(c, tol, tagged_a, b);
            } else {
                return c.expect ? fail(c, "bsx rejects ranks " + std::to_string(Ra) + " and " + std::to_string(Rb) +
                                              " without dims at compile time, but the file expects a result")
                                : pass();
            }
        } else if constexpr (Ra == Rb || Ra == 0 || Rb == 0) {
            return fail(c, "a 'dims' line for equal ranks or a rank-0 operand is not part of the format");
        } else {
            // The lower-rank operand, placed at the higher rank by its dims.
            constexpr std::size_t R = std::max(Ra, Rb);
            try {
                if constexpr (Ra < Rb)
                    return apply_op<G>(
                        c, tol, bsx::with_rules<bsx::xla_rules>(bsx::in_dims<R>(a, std::span<const index_t>(*c.dims))),
                        b);
                else
                    return apply_op<G>(c, tol, tagged_a, bsx::in_dims<R>(b, std::span<const index_t>(*c.dims)));
            } catch (const bsx::broadcast_error& ex) {  // invalid dims
                return c.expect ? unexpected_exception(c, "bsx::in_dims threw", ex) : pass();
            }
        }
    }
};

using runner = outcome (*)(const test_case&, const tolerance&);
constexpr std::size_t rank_count = max_rank + 1;
using runner_table = std::array<runner, rank_count * rank_count>;

template <class RuleSet, std::size_t... I>
constexpr runner_table make_table(std::index_sequence<I...>) {
    return {{&RuleSet::template run<I / rank_count, I % rank_count>...}};
}

template <class RuleSet>
constexpr runner_table make_table() {
    return make_table<RuleSet>(std::make_index_sequence<rank_count * rank_count>{});
}

inline outcome dispatch(const runner_table& table, const test_case& c, const tolerance& tol) {
    if (!c.op) return fail(c, "unknown op id '" + c.op_name + "'");
    if (c.dims && c.rules != "xla") return fail(c, "a 'dims' line is only meaningful under xla rules");
    const std::size_t ra = c.a.shape.size(), rb = c.b.shape.size();
    if (ra > max_rank || rb > max_rank)
        return fail(
            c, "operand rank above " + std::to_string(max_rank) + " is not dispatched by this driver (raise max_rank)");
    if (c.expect && c.expect->shape.size() != std::max(ra, rb))
        return fail(c, "file expects result rank " + std::to_string(c.expect->shape.size()) +
                           ", but bsx results have rank max(ra, rb) = " + std::to_string(std::max(ra, rb)));
    try {
        return table[ra * rank_count + rb](c, tol);
    } catch (const std::exception& ex) {
        return fail(c, std::string("unexpected exception: ") + ex.what());
    }
}

// ---------------------------------------------------------------------------
// Running a file: the cases of group G.
// ---------------------------------------------------------------------------
struct op_stats {
    int run = 0, passed = 0, error_cases = 0;
};

template <op_group G>
void run_file(const std::string& path) {
    case_file f;
    try {
        f = parse_case_file(path);
    } catch (const std::exception& ex) {
        BOOST_FAIL("cannot parse " << path << ": " << ex.what());
    }
    BOOST_TEST_MESSAGE(path << ": " << f.cases.size() << " cases; this executable runs the ops " << group_name(G));
    BOOST_CHECK_MESSAGE(!f.cases.empty(), path << " has no cases");
    BOOST_CHECK_MESSAGE(f.tol.present, path << " has no '# tolerance ...' header line");

    static constexpr runner_table numpy_table = make_table<numpy_rule_set<G>>();
    static constexpr runner_table octave_table = make_table<octave_rule_set<G>>();
    static constexpr runner_table xla_table = make_table<xla_rule_set<G>>();
    const std::map<std::string, const runner_table*> tables{
        {"numpy", &numpy_table}, {"octave", &octave_table}, {"xla", &xla_table}};

    std::map<std::string, int> in_file, in_group;                    // rules -> number of cases
    std::map<std::string, op_stats> per_rules;                       // rules -> totals
    std::map<std::pair<std::string, std::string>, op_stats> per_op;  // (rules, op) -> stats
    for (const auto& c : f.cases) {
        ++in_file[c.rules];
        if (group_of(c.op) != G) continue;
        ++in_group[c.rules];
        const auto table = tables.find(c.rules);
        if (table == tables.end()) {
            BOOST_ERROR(case_str(c) + ": unknown rule set '" + c.rules + "'");
            continue;
        }
        const outcome o = dispatch(*table->second, c, f.tol);
        for (op_stats* s : {&per_rules[c.rules], &per_op[{c.rules, c.op_name}]}) {
            ++s->run;
            if (!c.expect) ++s->error_cases;
            if (o.passed) ++s->passed;
        }
        if (!o.passed) BOOST_ERROR(o.message);
    }

    // Summary per rule set and op.
    std::ostringstream sum;
    sum << "conformance summary for " << path << "\n  ops: " << group_name(G) << "\n";
    sum << "  rules   op        run  passed  (expect error)\n";
    for (const auto& [key, s] : per_op) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "  %-7s %-8s %4d  %6d  (%d)%s\n", key.first.c_str(), key.second.c_str(), s.run,
                      s.passed, s.error_cases, s.passed == s.run ? "" : "  <-- FAILURES");
        sum << buf;
    }
    for (const auto& [rules, table] : tables) {
        const op_stats& s = per_rules[rules];
        sum << "  " << rules << ": " << s.passed << "/" << s.run << " passed (" << in_file[rules] << " " << rules
            << " cases in the file, all ops)\n";
        BOOST_CHECK_MESSAGE(s.run == in_group[rules], path << ": ran " << s.run << " " << rules
                                                           << " cases, the file has " << in_group[rules]
                                                           << " of these ops");
        BOOST_CHECK_MESSAGE(s.passed == s.run,
                            path << ": " << s.passed << " of " << s.run << " " << rules << " cases passed");
    }
    std::cout << sum.str() << std::flush;
}

// The two Boost test cases of each executable.
template <op_group G>
void run_committed_file() {
    run_file<G>(BSX_TEST_DATA_DIR "/broadcast_cases.txt");
}

template <op_group G>
void run_shared_file() {
#ifdef BSX_SHARED_CONFORMANCE_DIR
    const std::string path = BSX_SHARED_CONFORMANCE_DIR "/broadcast_cases.txt";
    if (!std::filesystem::exists(path)) {
        BOOST_TEST_MESSAGE("skipped: " << path << " does not exist");
        BOOST_TEST(true);  // a test case without assertions is reported as a warning
        return;
    }
    run_file<G>(path);
#else
    BOOST_TEST_MESSAGE("skipped: BSX_SHARED_CONFORMANCE_DIR is not defined");
    BOOST_TEST(true);
#endif
}

}  // namespace bsx_conformance

#endif  // BSX_TEST_CONFORMANCE_DRIVER_HPP
