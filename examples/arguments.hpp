// examples/arguments.hpp: the command-line numbers of the examples (extents, counts).
#pragma once

#include <bsx/bsx.hpp>

#include <exception>
#include <string>

namespace examples {

// Whether `text` is a whole decimal number of at least `min`; it is stored in `out`.
inline bool parse_number(const char* text, bsx::index_t min, bsx::index_t& out) {
    const std::string arg = text;
    std::size_t used = 0;
    try {
        out = std::stol(arg, &used);
    } catch (const std::exception&) {
        return false;
    }
    return out >= min && used == arg.size();
}

}  // namespace examples
