// test/test_support.hpp: helpers the unit tests share: NumPy-style shape text written
// independently of bsx, and an evaluated expression flattened to doubles (one plain
// comparison function instead of one per expression type keeps compile times down).
#pragma once

#include <bsx/bsx.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace test_support {

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

}  // namespace test_support
