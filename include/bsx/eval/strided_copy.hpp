// bsx/eval/strided_copy.hpp: elements copied between two strided layouts of one shape, by
// one function for every element type and rank: an operand that overlaps its destination,
// a reduction written to a strided destination, and a lone view assigned (the copy plan)
// compile no loop nest of their own.
#pragma once

#include <cstddef>
#include <cstring>
#include <span>

#include "../config.hpp"
#include "loop.hpp"

namespace bsx::detail {

/// A copy whose last axes, from `inner` on, are walked as one row of `length` elements.
struct strided_copy {
    std::span<const index_t> shape, from_strides, to_strides;  // in elements
    std::size_t bytes;
    std::size_t inner;
    index_t length, from_step, to_step;

    [[gnu::noinline]] void walk(std::size_t d, const std::byte* from, std::byte* to) const noexcept {
        if (d == inner) {
            if (from_step == 1 && to_step == 1)
                std::memcpy(to, from, std::size_t(length) * bytes);
            else
                copy_elements(from, from_step, to, to_step, length, bytes);
            return;
        }
        const auto b = index_t(bytes);
        for (index_t i = 0; i < shape[d]; ++i) walk(d + 1, from + i * from_strides[d] * b, to + i * to_strides[d] * b);
    }
};

/// Copies the elements (`bytes` bytes each) of `shape` from `from`, laid out by
/// `from_strides` (0 repeats an element along an axis), to `to`, laid out by
/// `to_strides`. The last axes that both layouts step through alike become one row, so a
/// copy between two contiguous layouts is a single block.
[[gnu::noinline]] inline void copy_strided(const std::byte* from, std::span<const index_t> from_strides, std::byte* to,
                                           std::span<const index_t> to_strides, std::span<const index_t> shape,
                                           std::size_t bytes) noexcept {
    strided_copy copy{shape, from_strides, to_strides, bytes, shape.size(), 1, 0, 0};
    for (; copy.inner > 0; --copy.inner) {
        const std::size_t d = copy.inner - 1;
        if (shape[d] == 1) continue;  // any strides: it is walked once
        if (copy.length == 1) {
            copy.from_step = from_strides[d];
            copy.to_step = to_strides[d];
        } else if (from_strides[d] != copy.from_step * copy.length || to_strides[d] != copy.to_step * copy.length) {
            break;
        }
        copy.length *= shape[d];
    }
    copy.walk(0, from, to);
}

}  // namespace bsx::detail
