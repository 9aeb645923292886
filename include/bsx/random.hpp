// bsx/random.hpp: counter-based random numbers. bsx::random::generator draws each call
// from its own Philox4x32-10 stream, and element i of a call is a function of (seed, call
// number, i) alone: the values are lazy generated leaves, the same bits at any thread count,
// chunk length or slice, on any platform.
#pragma once

#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "array.hpp"
#include "expr/generated.hpp"

namespace bsx::random {

/// Philox4x32-10 (Salmon, Moraes, Dror and Shaw, "Parallel random numbers: as easy as 1, 2,
/// 3", SC11, 2011): the block `counter` enciphered under `key`, ten rounds. Written from
/// the paper; it reproduces Random123's published known-answer vectors (test_random_threads).
constexpr std::array<std::uint32_t, 4> philox4x32(std::array<std::uint32_t, 4> counter,
                                                  std::array<std::uint32_t, 2> key) noexcept {
    constexpr std::uint64_t m0 = 0xD2511F53, m1 = 0xCD9E8D57;  // the round multipliers
    constexpr std::uint32_t w0 = 0x9E3779B9, w1 = 0xBB67AE85;  // the key schedule's Weyl increments
#pragma GCC unroll 10                                          // unrolled, the rounds vectorize across elements
    for (int round = 0; round < 10; ++round) {
        if (round > 0) {
            key[0] += w0;
            key[1] += w1;
        }
        const std::uint64_t p0 = m0 * counter[0], p1 = m1 * counter[2];
        counter = {std::uint32_t(p1 >> 32) ^ counter[1] ^ key[0], std::uint32_t(p1),
                   std::uint32_t(p0 >> 32) ^ counter[3] ^ key[1], std::uint32_t(p0)};
    }
    return counter;
}

namespace detail {

/// One call's stream: block i of attempt `attempt` is Philox of counter (i, call, attempt)
/// under the seed.
struct stream {
    std::array<std::uint32_t, 2> key;
    std::uint32_t call;

    /// 128 random bits for element i, as two 64-bit words.
    std::array<std::uint64_t, 2> bits(index_t i, std::uint32_t attempt = 0) const noexcept {
        const auto n = std::uint64_t(i);
        const auto w = philox4x32({std::uint32_t(n), std::uint32_t(n >> 32), call, attempt}, key);
        return {std::uint64_t(w[0]) << 32 | w[1], std::uint64_t(w[2]) << 32 | w[3]};
    }
};

/// A uniform value in [0, 1) of T's precision from 64 random bits (the top bits, scaled
/// exactly).
template <std::floating_point T>
T unit_interval(std::uint64_t bits) noexcept {
    constexpr int digits = std::numeric_limits<T>::digits < 64 ? std::numeric_limits<T>::digits : 64;
    return T(bits >> (64 - digits)) * (T(1) / T(std::uint64_t(1) << (digits - 1)) / T(2));
}

template <std::floating_point T>
struct uniform_values {
    stream s;
    T lo, width, hi, below_hi;  // below_hi: the largest value under hi, where rounding would give hi
    T operator()(index_t i) const noexcept {
        const T v = lo + width * unit_interval<T>(s.bits(i)[0]);
        return v < hi ? v : below_hi;
    }
};

/// Box-Muller, one normal value per element (the cosine branch) from 128 bits: an element
/// depends on its own counter only. Computed in double (long double for long double).
template <std::floating_point T>
struct normal_values {
    using F = std::conditional_t<std::is_same_v<T, long double>, long double, double>;
    stream s;
    F mean, stddev;
    T operator()(index_t i) const noexcept {
        const auto b = s.bits(i);
        const F u1 = F(1) - unit_interval<F>(b[0]);  // (0, 1]: log(u1) is finite
        const F u2 = unit_interval<F>(b[1]);
        constexpr F two_pi = F(6.283185307179586476925286766559L);
        return T(mean + stddev * (std::sqrt(F(-2) * std::log(u1)) * std::cos(two_pi * u2)));
    }
};

/// The high and low 64 bits of a * b.
constexpr std::array<std::uint64_t, 2> multiply_wide(std::uint64_t a, std::uint64_t b) noexcept {
    const std::uint64_t a0 = a & 0xFFFFFFFF, a1 = a >> 32, b0 = b & 0xFFFFFFFF, b1 = b >> 32;
    const std::uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const std::uint64_t middle = (p00 >> 32) + (p01 & 0xFFFFFFFF) + (p10 & 0xFFFFFFFF);
    return {p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32), (middle << 32) | (p00 & 0xFFFFFFFF)};
}

/// A uniform integer in [0, range) (range >= 1) for element i, without bias:
/// Lemire's multiply-and-reject ("Fast random integer generation in an interval", 2019).
/// A rejected draw (probability below range / 2^64) takes the element's next 64 bits, then
/// the next attempt's block.
inline std::uint64_t bounded(const stream& s, index_t i, std::uint64_t range) noexcept {
    const std::uint64_t threshold = (0 - range) % range;  // 2^64 mod range: the draws to reject
    for (std::uint32_t attempt = 0;; ++attempt) {
        for (const std::uint64_t x : s.bits(i, attempt)) {
            const auto [high, low] = multiply_wide(x, range);
            if (low >= threshold) return high;
        }
    }
}

template <std::integral T>
struct integer_values {
    stream s;
    std::uint64_t lo, range;
    T operator()(index_t i) const noexcept { return T(lo + bounded(s, i, range)); }
};

[[noreturn, gnu::cold]] inline void throw_random_argument(std::string_view operation, const std::string& what) {
    throw std::invalid_argument("bsx: random::generator::" + std::string(operation) + ": " + what);
}

}  // namespace detail

/// A seeded source of random expressions. Each call (uniform, normal, integers,
/// permutation, shuffle) draws from a new stream, numbered by the calls before it; two
/// generators of one seed give the same values for the same sequence of calls. Not
/// NumPy's bit stream. Up to 2^32 calls per generator.
class generator {
public:
    explicit generator(std::uint64_t seed) noexcept : key_{std::uint32_t(seed), std::uint32_t(seed >> 32)} {}

    /// Values uniform in [lo, hi) (lo < hi, both finite, hi - lo finite). Lazy.
    template <std::floating_point T, std::size_t N>
    auto uniform(const shape_t<N>& shape, T lo = T(0), T hi = T(1)) {
        if (!(lo < hi) || !std::isfinite(hi - lo))
            detail::throw_random_argument("uniform", "the interval [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                                         ") is empty or not finite");
        const detail::stream s = next("random::generator::uniform", shape);
        return generated<detail::uniform_values<T>, N>("random::generator::uniform", shape,
                                                       {s, lo, hi - lo, hi, std::nextafter(hi, lo)});
    }

    /// Normal values of mean `mean` and standard deviation `stddev` (finite, >= 0), by
    /// Box-Muller. Lazy.
    template <std::floating_point T, std::size_t N>
    auto normal(const shape_t<N>& shape, T mean = T(0), T stddev = T(1)) {
        if (!std::isfinite(mean) || !std::isfinite(stddev) || stddev < 0)
            detail::throw_random_argument("normal", "the mean must be finite and the stddev finite and >= 0 (mean " +
                                                        std::to_string(mean) + ", stddev " + std::to_string(stddev) +
                                                        ")");
        const detail::stream s = next("random::generator::normal", shape);
        return generated<detail::normal_values<T>, N>("random::generator::normal", shape, {s, mean, stddev});
    }

    /// Integers uniform in [lo, hi) (lo < hi), without bias. Lazy.
    template <std::integral T, std::size_t N>
        requires(!std::same_as<T, bool>)
    auto integers(T lo, T hi, const shape_t<N>& shape) {
        if (!(lo < hi))
            detail::throw_random_argument(
                "integers", "the interval [" + std::to_string(lo) + ", " + std::to_string(hi) + ") is empty");
        const detail::stream s = next("random::generator::integers", shape);
        return generated<detail::integer_values<T>, N>("random::generator::integers", shape,
                                                       {s, std::uint64_t(lo), std::uint64_t(hi) - std::uint64_t(lo)});
    }

    /// 0, 1, ..., n-1 in random order (Fisher-Yates on this call's stream). Eager.
    array<index_t, 1> permutation(index_t n) {
        if (n < 0) detail::throw_random_argument("permutation", "n is negative (" + std::to_string(n) + ")");
        const detail::stream s = next("random::generator::permutation", shape_t<1>{n});
        array<index_t, 1> p(shape_t<1>{n});
        index_t* v = p.data();
        for (index_t i = 0; i < n; ++i) v[i] = i;
        for (index_t i = n - 1; i > 0; --i) std::swap(v[i], v[index_t(detail::bounded(s, i, std::uint64_t(i) + 1))]);
        return p;
    }

    /// Reorders x's subarrays along axis 0 by permutation(x.extent(0)). Eager, in place.
    template <class T, std::size_t N>
        requires(N >= 1)
    void shuffle(array<T, N>& x) {
        const array<index_t, 1> p = permutation(x.extent(0));
        const array<T, N> before = x;
        const index_t row = x.extent(0) == 0 ? 0 : x.size() / x.extent(0);
        for (index_t i = 0; i < x.extent(0); ++i)
            std::memcpy(x.data() + i * row, before.data() + p(i) * row, std::size_t(row) * sizeof(T));
    }

    /// The calls made so far (the next call's stream number).
    std::uint64_t calls() const noexcept { return calls_; }

private:
    std::array<std::uint32_t, 2> key_;
    std::uint64_t calls_ = 0;

    /// The stream of the next call, whose shape is checked first (a call that throws
    /// consumes no stream). `operation` names the call in messages.
    template <std::size_t N>
    detail::stream next(std::string_view operation, const shape_t<N>& shape) {
        bsx::detail::checked_size(operation, shape);
        if (calls_ > std::numeric_limits<std::uint32_t>::max())
            throw std::length_error("bsx: random::generator: more than 2^32 calls on one generator");
        return {key_, std::uint32_t(calls_++)};
    }
};

}  // namespace bsx::random
