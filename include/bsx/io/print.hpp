// bsx/io/print.hpp: `std::ostream << x` for any expression, NumPy style:
// `[[1, 2, 3],\n [4, 5, 6]]`, booleans as True/False.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <type_traits>

#include "../expr/expression.hpp"
#include "../factories.hpp"

namespace bsx {

namespace detail {
template <class A, std::size_t K>
void print_axis(std::ostream& os, const A& a, shape_t<A::rank>& idx) {
    constexpr std::size_t N = A::rank;
    if constexpr (K == N) {
        const auto v = a.element(idx);
        if constexpr (std::is_same_v<std::remove_cv_t<decltype(v)>, bool>) os << (v ? "True" : "False");
        else if constexpr (sizeof(v) == 1 && std::is_integral_v<decltype(v)>) os << int(v);
        else os << v;
    } else {
        os << '[';
        for (index_t i = 0; i < a.shape()[K]; ++i) {
            if (i > 0) {
                os << ',';
                if constexpr (K + 1 < N) os << std::string(N - K - 1, '\n') << std::string(K + 1, ' ');
                else os << ' ';
            }
            idx[K] = i;
            print_axis<A, K + 1>(os, a, idx);
        }
        os << ']';
    }
}
}  // namespace detail

template <expression E>
std::ostream& operator<<(std::ostream& os, const E& e) {
    if (rank_v<E> > 0 && e.size() == 0) return os << "[]";  // as NumPy, whatever the shape
    const auto a = eval(e);
    shape_t<rank_v<E>> idx{};
    detail::print_axis<std::remove_const_t<decltype(a)>, 0>(os, a, idx);
    return os;
}

}  // namespace bsx
