// test/fuzz/fuzz_input.hpp: what the fuzz targets share: the input bytes read one at a
// time, zeros once they run out (so every input, even an empty one, decodes to a case).
#pragma once

#include <cstddef>
#include <cstdint>

namespace fuzz {

struct bytes {
    const std::uint8_t* p;
    std::size_t n;
    std::uint8_t next() {
        if (n == 0) return 0;
        --n;
        return *p++;
    }
};

}  // namespace fuzz
