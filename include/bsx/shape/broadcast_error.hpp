// bsx/shape/broadcast_error.hpp: the exception thrown when shapes cannot be
// broadcast together (or dims given for an XLA-style broadcast are invalid).
#pragma once

#include <stdexcept>
#include <string>

namespace bsx {

/// Thrown when operand shapes are incompatible under the rule set in force.
/// `what()` names the operation, the shapes, the rule set and the first bad axis.
class broadcast_error : public std::invalid_argument {
public:
    explicit broadcast_error(const std::string& message) : std::invalid_argument(message) {}
    explicit broadcast_error(const char* message) : std::invalid_argument(message) {}
};

}  // namespace bsx
