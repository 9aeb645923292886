// Printing (doc/reference.md, section 7): `os << x` must give what NumPy's
// np.array2string(x, separator=', ') gives for the same array. The NumPy output is
// committed in test/data/print/numpy_print.txt (made by make_expected.py next to it);
// each case here builds the same array with bsx, under the same print options.
#define BOOST_TEST_MODULE bsx_print
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <map>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>

namespace {

using bsx::index_t;

/// The blocks of numpy_print.txt: "@@ name" then the text NumPy printed.
const std::map<std::string, std::string>& numpy_output() {
    static const std::map<std::string, std::string> cases = [] {
        std::ifstream in(std::string(BSX_TEST_DATA_DIR) + "/print/numpy_print.txt");
        if (!in) throw std::runtime_error("cannot open test/data/print/numpy_print.txt");
        std::map<std::string, std::string> out;
        std::string line, name;
        while (std::getline(in, line)) {
            if (line.rfind("@@ ", 0) == 0) {
                name = line.substr(3);
                out[name];
            } else {
                std::string& text = out.at(name);
                if (!text.empty()) text += '\n';
                text += line;
            }
        }
        return out;
    }();
    return cases;
}

template <class E>
std::string print(const E& e) {
    std::ostringstream os;
    os << e;
    return os.str();
}

template <class E>
void check(const std::string& name, const E& e, const bsx::print_options& options = {}) {
    bsx::print_options_scope scope(options);
    BOOST_TEST(print(e) == numpy_output().at(name), name);
}

template <class T>
bsx::array<T, 1> values(std::initializer_list<T> v) {
    return bsx::array<T, 1>(v);
}

const double qnan = std::numeric_limits<double>::quiet_NaN();
const double inf = std::numeric_limits<double>::infinity();

}  // namespace

BOOST_AUTO_TEST_CASE(integers) {
    check("int_columns", bsx::array<int, 2>{{1, 2, 3}, {10, 20, 30}});
    check("int_negative", values<int>({-5, 100, 7}));
    check("int_rank0", bsx::array<int, 0>(7));
    const auto flat = bsx::arange<int>(24);
    check("int_rank3", bsx::reshape<3>(flat, {2, 3, 4}));
    check("int64_extremes",
          values<std::int64_t>({std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()}));
    check("uint64_max", values<std::uint64_t>({0, std::numeric_limits<std::uint64_t>::max()}));
    check("int8_bytes", values<std::int8_t>({-128, 127, 0}));
    check("uint8_bytes", values<std::uint8_t>({200, 7}));
}

BOOST_AUTO_TEST_CASE(floats) {
    check("float_whole", bsx::array<double, 2>{{1, 2, 3}, {4, 5, 6}});
    check("float_mixed", values<double>({1.0, 2.5, -0.125, 100.0}));
    check("float_rounded", values<double>({1.0 / 3, 2.0 / 3, 0.1 + 0.2}));
    check("float_rank0", bsx::array<double, 0>(2.5));
    check("float_negative_zero", values<double>({-0.0, 1.0}));
    check("float32_values", values<float>({0.1f, 1.0f / 3, 100.5f}));
    // scientific mantissas padded with the value's own further digits, not zeros
    check("float32_exact_digits", values<float>({-4.737826e9f, 7.5900657e9f, 2.5e10f}));
    check("float_precision3", values<double>({std::numbers::pi, std::numbers::e, std::sqrt(2.0)}), {.precision = 3});
    // precision 0: the zeros of the integer part stay (issue 35)
    check("float_precision0", values<double>({10.4, 100.3, 0.4}), {.precision = 0});
    check("float_precision0_halves", values<double>({0.5, 1.5, 2.5, -0.4, qnan}), {.precision = 0});
    check("float_precision0_exp", values<double>({1.5e10, 2.5e-3}), {.precision = 0});
}

BOOST_AUTO_TEST_CASE(nan_and_inf) {
    check("float_nan_inf", values<double>({qnan, inf, -inf, 1.5, -qnan}));  // never "-nan"
    check("float_nan_only", values<double>({qnan, std::copysign(qnan, -1.0)}));
    check("float_inf_wide", bsx::array<double, 2>{{inf, 123.25}, {-inf, 0.5}});
    check("float_exp_nan", values<double>({1e-7, qnan, -inf}));
}

BOOST_AUTO_TEST_CASE(scientific_notation) {
    check("float_exp_small", values<double>({1e-5, 1.0, 3.0}));
    check("float_exp_large", values<double>({1e8, 1.0, -2.5}));
    check("float_exp_ratio", values<double>({1.0, 2000.0}));
    check("float_exp_3digit", values<double>({1e-300, 1e300}));
    check("float_suppress", values<double>({1e-5, 1.0, 3.0}), {.suppress = true});
    check("float_suppress_tiny", values<double>({1e-10, 1.0, -1e-10}), {.suppress = true});
    // long double in fixed notation: 1e-600 has 600 digits after the point (the 512-byte
    // buffer overflowed, to_chars failed and the text was garbage); NumPy's longdouble
    // prints these
    const auto tiny = values<long double>({1e-600L, 1.0L});
    {
        bsx::print_options_scope scope({.suppress = true});
        BOOST_TEST(print(tiny) == "[0., 1.]");
    }
    BOOST_TEST(print(tiny) == "[1.e-600, 1.e+000]");
}

BOOST_AUTO_TEST_CASE(booleans) {
    check("bool_matrix", bsx::array<bool, 2>{{true, false}, {false, true}});
    check("bool_all_true", values<bool>({true, true}));
    check("bool_rank0", bsx::array<bool, 0>(false));
}

BOOST_AUTO_TEST_CASE(line_wrapping) {
    check("wrap_ints", bsx::arange<int>(30));
    check("wrap_floats", bsx::arange<double>(20) / 7.0);
    const auto flat = bsx::arange<double>(30);
    check("wrap_rows", bsx::reshape<2>(flat, {2, 15}) * 1.5);
    check("line_width_30", bsx::arange<int>(12), {.line_width = 30});
}

BOOST_AUTO_TEST_CASE(summarization) {
    check("summary_1d", bsx::arange<int>(2000));
    const auto f = bsx::arange<double>(1600);
    check("summary_2d", bsx::reshape<2>(f, {40, 40}) * 0.5);
    const auto i = bsx::arange<int>(1331);
    check("summary_3d", bsx::reshape<3>(i, {11, 11, 11}));
    const auto j = bsx::arange<int>(1002);
    check("summary_narrow_axis", bsx::reshape<2>(j, {2, 501}));
    check("summary_options", bsx::arange<int>(20), {.threshold = 10, .edge_items = 2});
    // edge items beyond any extent (2 * edge_items overflowed), none, fewer than none (issue 35)
    const index_t huge = std::numeric_limits<index_t>::max();
    check("summary_edge_items_huge", bsx::arange<int>(20), {.threshold = 5, .edge_items = huge});
    check("summary_edge_items_0", values<double>({1000.5, 1, 2, 3, 4, 5, 19.5}), {.threshold = 5, .edge_items = 0});
    const auto twelve = bsx::arange<int>(12);
    check("summary_edge_items_0_2d", bsx::reshape<2>(twelve, {3, 4}), {.threshold = 5, .edge_items = 0});
    check("summary_edge_items_negative", bsx::arange<int>(20), {.threshold = 5, .edge_items = -1});
    const auto k = bsx::arange<double>(1500);
    check("summary_nan", bsx::where(bsx::arange<int>(1500) % 2 == 0, k * 0.25, qnan));
}

BOOST_AUTO_TEST_CASE(options_scope) {
    const auto third = values<double>({1.0 / 3});
    BOOST_TEST(print(third) == "[0.33333333]");
    {
        bsx::print_options_scope outer({.precision = 3});
        BOOST_TEST(print(third) == "[0.333]");
        {
            bsx::print_options_scope inner({.precision = 1});
            BOOST_TEST(print(third) == "[0.3]");
        }
        BOOST_TEST(print(third) == "[0.333]");
        BOOST_TEST(bsx::get_print_options().precision == 3);
    }
    BOOST_TEST(print(third) == "[0.33333333]");
    BOOST_TEST(bsx::get_print_options().threshold == 1000);
    // A negative precision is refused when it is set (NumPy: "precision must be >= 0").
    try {
        bsx::print_options_scope bad({.precision = -1});
        BOOST_ERROR("a negative precision was accepted");
    } catch (const std::invalid_argument& e) {
        BOOST_TEST(std::string(e.what()) == "bsx: print_options: precision must be >= 0, not -1");
    }
    BOOST_TEST(bsx::get_print_options().precision == 8);
}

BOOST_AUTO_TEST_CASE(expressions_views_and_empty_arrays) {
    const bsx::array<int, 2> a{{1, 2, 3}, {4, 5, 6}};
    BOOST_TEST(print(a * 2 - 1) == "[[ 1,  3,  5],\n [ 7,  9, 11]]");  // an expression prints its values
    BOOST_TEST(print(a.row(1)) == "[[4, 5, 6]]");
    BOOST_TEST(print(bsx::transpose(a)) == "[[1, 4],\n [2, 5],\n [3, 6]]");
    BOOST_TEST(print(a > 2) == "[[False, False,  True],\n [ True,  True,  True]]");
    // NumPy prints every empty array as []
    BOOST_TEST(print(bsx::zeros<int>(0)) == "[]");
    BOOST_TEST(print(bsx::zeros<double>(0, 3)) == "[]");
    BOOST_TEST(print(bsx::zeros<int>(2, 0)) == "[]");
    std::ostringstream os;
    os << bsx::array<int, 1>{1} << "|" << bsx::array<int, 1>{2};
    BOOST_TEST(os.str() == "[1]|[2]");
}
