// test/test_support.hpp: helpers the unit tests share: NumPy-style shape text written
// independently of bsx, and an evaluated expression flattened to doubles (one plain
// comparison function instead of one per expression type keeps compile times down).
#pragma once

#include <bsx/bsx.hpp>

#include <cstddef>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace test_support {

/// Runs f once per thread count (1, 2, 3 with OpenMP; once without), restoring the
/// previous setting afterwards. Large cases then take both the serial and the parallel path.
template <class F>
void for_thread_counts(F&& f) {
#ifdef _OPENMP
    const int saved = omp_get_max_threads();
    for (int t : {1, 2, 3}) {
        omp_set_num_threads(t);
        BOOST_TEST_CONTEXT("threads = " << t) { f(); }
    }
    omp_set_num_threads(saved);
#else
    f();
#endif
}

/// A shape as NumPy prints it: `()`, `(3,)`, `(2,3)`.
template <class S>
std::string fmt(const S& s) {
    std::string out = "(";
    for (std::size_t k = 0; k < s.size(); ++k) {
        if (k) out += ',';
        out += std::to_string(s[k]);
    }
    if (s.size() == 1) out += ',';
    out += ')';
    return out;
}

/// Shape and row-major values of an expression, evaluated by bsx::eval.
struct flat {
    std::string shape;
    std::vector<double> values;
};
template <class E>
flat evaluated(const E& e) {
    const auto r = bsx::eval(e);
    return {fmt(r.shape()), std::vector<double>(r.begin(), r.end())};
}

/// a(i, j, k) = 100 i + 10 j + k, shape (p, q, r): every element names its index.
inline bsx::array<double, 3> grid3(bsx::index_t p, bsx::index_t q, bsx::index_t r) {
    auto a = bsx::zeros<double>(p, q, r);
    for (bsx::index_t i = 0; i < p; ++i)
        for (bsx::index_t j = 0; j < q; ++j)
            for (bsx::index_t k = 0; k < r; ++k) a(i, j, k) = 100.0 * i + 10.0 * j + k;
    return a;
}

}  // namespace test_support
