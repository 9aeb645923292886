// bsx/detail/message.hpp: the text of an exception, assembled in a fixed buffer. The throw
// paths every assignment instantiates use it instead of std::string arithmetic, which the
// compiler inlines at every `+` and which made them a third of a small program's code.
#pragma once

#include <algorithm>
#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstring>
#include <span>
#include <string_view>

#include "../config.hpp"

namespace bsx::detail {

/// A shape as NumPy prints it (`()`, `(3,)`, `(2,3)`), for message's operator<<.
struct shape_text {
    std::span<const index_t> extents;
};

/// An exception's text: pieces appended with <<, then c_str() for the exception's
/// constructor. Text beyond the buffer is dropped (only shapes of absurd rank get there).
/// The appends are out of line: a throw site is a few calls, whatever it says.
class message {
public:
    [[gnu::noinline]] message& operator<<(std::string_view text) noexcept {
        const std::size_t n = std::min(text.size(), capacity - size_);
        std::memcpy(text_ + size_, text.data(), n);
        size_ += n;
        return *this;
    }
    message& operator<<(const char* text) noexcept { return *this << std::string_view(text); }

    template <std::integral I>
        requires(!std::same_as<I, bool>)
    message& operator<<(I value) noexcept {
        if constexpr (std::signed_integral<I>)
            if (value < 0) return append_digits(0ULL - static_cast<unsigned long long>(value), true);
        return append_digits(static_cast<unsigned long long>(value), false);
    }

    [[gnu::noinline]] message& operator<<(shape_text s) noexcept {
        *this << "(";
        for (std::size_t k = 0; k < s.extents.size(); ++k) {
            if (k) *this << ",";
            *this << s.extents[k];
        }
        return *this << (s.extents.size() == 1 ? ",)" : ")");
    }

    /// The text so far, NUL-terminated.
    const char* c_str() noexcept {
        text_[size_] = '\0';
        return text_;
    }
    std::string_view view() const noexcept { return {text_, size_}; }

private:
    /// The decimal digits of `magnitude`, after a minus sign if `negative`.
    [[gnu::noinline]] message& append_digits(unsigned long long magnitude, bool negative) noexcept {
        char digits[24] = {'-'};
        const auto end = std::to_chars(digits + 1, digits + sizeof digits, magnitude).ptr;
        const char* begin = negative ? digits : digits + 1;
        return *this << std::string_view(begin, std::size_t(end - begin));
    }

    static constexpr std::size_t capacity = 2047;
    char text_[capacity + 1];
    std::size_t size_ = 0;
};

}  // namespace bsx::detail
