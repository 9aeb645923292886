// expect: no common integer type that holds both; cast one of them first
// A signed operand with a 64-bit unsigned one: C++ would turn -1 into 2^64 - 1, and no
// integer type holds both ranges, so bsx refuses to compile and says to cast.
#include <bsx/bsx.hpp>

#include <cstdint>

int main() {
    bsx::array<std::int64_t, 1> a{-1, 2};
    bsx::array<std::uint64_t, 1> b{1, 2};
    bsx::array<std::int64_t, 1> r = a + b;
    return static_cast<int>(r(0));
}
