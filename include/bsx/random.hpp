// bsx/random.hpp: counter-based random numbers. bsx::random::generator draws each call
// from its own Philox4x32-10 stream, and element i of a call is a function of (seed, call
// number, i) alone: the values are lazy generated leaves, the same bits at any thread count,
// chunk length or slice, on any platform.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
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

#if defined(__clang__)
// The fill loops are simd loops: for long double, or a table lookup clang does not turn into
// vector code, it leaves one scalar, which is not a warning about the user's code.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpass-failed"
#endif
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

    static constexpr index_t max_words = 64;
    /// The four 32-bit words of up to max_words blocks, word j of block t in [j][t].
    using block_words = std::uint32_t[4][max_words];
    /// 64-bit word `half` (0 or 1) of block t, as bits() makes it.
    static std::uint64_t word(const block_words& c, int half, index_t t) noexcept {
        return std::uint64_t(c[2 * half][t]) << 32 | c[2 * half + 1][t];
    }
    /// bits(first + t * step)[0] into words[t] for t < n <= max_words.
    void first_words(index_t first, index_t step, index_t n, std::uint64_t* words) const noexcept {
        block_words c;
        encipher(first, step, n, c);
        for (index_t t = 0; t < n; ++t) words[t] = word(c, 0, t);
    }
    /// Philox of the counters (first + t * step, call, 0) for t < n, into c[0..3][t]: the
    /// same rounds as philox4x32, each one pass over the n blocks, a loop that vectorizes
    /// (one block per call does not).
    void encipher(index_t first, index_t step, index_t n, block_words& c) const noexcept {
        for (index_t t = 0; t < n; ++t) {
            const auto i = std::uint64_t(first + t * step);
            c[0][t] = std::uint32_t(i), c[1][t] = std::uint32_t(i >> 32), c[2][t] = call, c[3][t] = 0;
        }
        std::array<std::uint32_t, 2> k = key;
        for (int round = 0; round < 10; ++round) {
            if (round > 0) k[0] += 0x9E3779B9, k[1] += 0xBB67AE85;
            BSX_SIMD_LOOP_4_LANES
            for (index_t t = 0; t < n; ++t) {
                const std::uint64_t p0 = std::uint64_t(0xD2511F53) * c[0][t], p1 = std::uint64_t(0xCD9E8D57) * c[2][t];
                c[0][t] = std::uint32_t(p1 >> 32) ^ c[1][t] ^ k[0];
                c[1][t] = std::uint32_t(p1);
                c[2][t] = std::uint32_t(p0 >> 32) ^ c[3][t] ^ k[1];
                c[3][t] = std::uint32_t(p0);
            }
        }
    }
};

/// A uniform value in [0, 1) of T's precision from 64 random bits (the top bits, scaled
/// exactly). The integer is converted in ways that vectorize without AVX-512, which alone
/// converts 64-bit integers: through int32 for float, and for double as two halves of at
/// most 32 bits, each placed in the mantissa of 2^52 (exact; their sum is below 2^53).
template <std::floating_point T>
T unit_interval(std::uint64_t bits) noexcept {
    constexpr int digits = std::numeric_limits<T>::digits < 64 ? std::numeric_limits<T>::digits : 64;
    constexpr T scale = T(1) / T(std::uint64_t(1) << (digits - 1)) / T(2);
    const std::uint64_t top = bits >> (64 - digits);
    if constexpr (digits <= 31) {
        return T(std::int32_t(top)) * scale;
    } else if constexpr (std::is_same_v<T, double> && digits == 53) {
        constexpr std::uint64_t two_52 = 0x4330000000000000;  // the bits of 2^52
        const double high = std::bit_cast<double>(two_52 | top >> 32) - 0x1p52;
        const double low = std::bit_cast<double>(two_52 | (top & 0xFFFFFFFF)) - 0x1p52;
        return (high * 0x1p32 + low) * scale;
    } else {
        return T(top) * scale;
    }
}

/// values.fill's walk, shared by the generators that take Per elements from a block of
/// their stream `values.s`: runs of elements that share at most stream::max_words blocks,
/// each run's blocks enciphered at once into c, then run(c, blocks, skip, n, b) places
/// elements [b, b + n) of out, the run starting `skip` elements into its first block. A
/// read with another step than 1 (transposed, reversed) shares no block: element by element.
template <index_t Per, class Values, class T, class Run>
void fill_by_block_runs(const Values& values, index_t first, index_t step, index_t len, T* out, Run run) noexcept {
    if (step != 1) {
        for (index_t t = 0; t < len; ++t) out[t] = values(first + t * step);
        return;
    }
    stream::block_words c;
    for (index_t b = 0; b < len;) {
        const index_t e = first + b, skip = e % Per;
        const index_t n = std::min(len - b, Per * stream::max_words - skip);
        const index_t blocks = (skip + n + Per - 1) / Per;
        values.s.encipher(e / Per, 1, blocks, c);
        run(c, blocks, skip, n, b);
        b += n;
    }
}

/// Uniform values in [lo, hi). One Philox block holds the bits of four values of at most
/// 32 digits (float: a 32-bit word each) or two of more (a 64-bit word each): element i
/// takes word i % per of block i / per. fill() enciphers the blocks a run of elements
/// shares at once.
template <std::floating_point T>
struct uniform_values {
    static constexpr index_t per = std::numeric_limits<T>::digits <= 32 ? 4 : 2;
    stream s;
    T lo, width, hi, below_hi;  // below_hi: the largest value under hi, where rounding would give hi
    /// A value from the top bits of 64 random bits.
    T from_bits(std::uint64_t bits) const noexcept {
        const T v = lo + width * unit_interval<T>(bits);
        return v < hi ? v : below_hi;
    }
    T operator()(index_t i) const noexcept {
        const auto w = s.bits(i / per);
        if constexpr (per == 4)
            return from_bits(i % 4 % 2 == 0 ? w[i % 4 / 2] : w[i % 4 / 2] << 32);
        else
            return from_bits(w[i % 2]);
    }
    void fill(index_t first, index_t step, index_t len, T* out) const noexcept {
        T staged[per * stream::max_words];
        fill_by_block_runs<per>(*this, first, step, len, out,
                                [&](const stream::block_words& c, index_t blocks, index_t skip, index_t n, index_t b) {
                                    if (skip == 0 && n == per * blocks) {  // whole blocks: straight into out
                                        values_of_blocks(c, blocks, out + b);
                                    } else {  // a run's first or last blocks
                                        values_of_blocks(c, blocks, staged);
                                        std::copy_n(staged + skip, n, out + b);
                                    }
                                });
    }

private:
    /// The values of blocks t < n, per of them each, into out[per * t + j].
    void values_of_blocks(const stream::block_words& c, index_t n, T* out) const noexcept {
        BSX_SIMD_LOOP
        for (index_t t = 0; t < n; ++t) {
            if constexpr (per == 4) {
                for (int j = 0; j < 4; ++j) out[4 * t + j] = from_bits(std::uint64_t(c[j][t]) << 32);
            } else {
                out[2 * t] = from_bits(stream::word(c, 0, t));
                out[2 * t + 1] = from_bits(stream::word(c, 1, t));
            }
        }
    }
};

/// The 256 layers of Marsaglia and Tsang's ziggurat for the standard normal ("The
/// ziggurat method for generating random variables", J. Stat. Softw. 5(8), 2000): layer i
/// is the strip between heights f(x[i]) and f(x[i+1]) under f(x) = exp(-x^2/2), all of
/// area v; layer 0 is the base strip and the tail beyond r, as one strip x[0] wide.
/// Computed once, with the C library's exp, log and sqrt.
struct ziggurat_layers {
    static constexpr int count = 256;
    static constexpr double r = 3.6541528853610088, v = 4.92867323399e-3;
    static double density(double x) noexcept { return std::exp(-0.5 * x * x); }
    double x[count + 1];
    double f[count + 1];  // density(x[i])
    ziggurat_layers() noexcept {
        x[0] = v / density(r);
        x[1] = r;
        for (int i = 2; i < count; ++i) x[i] = std::sqrt(-2 * std::log(v / x[i - 1] + density(x[i - 1])));
        x[count] = 0;
        for (int i = 0; i <= count; ++i) f[i] = density(x[i]);
    }
};
inline const ziggurat_layers& normal_layers() noexcept {
    static const ziggurat_layers layers;
    return layers;
}

/// The rare draws: a point outside its layer's inner rectangle (about 1.5% of the first
/// draws), in a wedge (tested against the density with the block's second word) or in
/// the tail beyond r (Marsaglia's exponential rejection, a new block per try); a rejected
/// point takes the element's next attempt.
[[gnu::noinline]] inline double standard_normal_slow(const stream& s, index_t i) noexcept {
    const ziggurat_layers& z = normal_layers();
    for (std::uint32_t attempt = 0;;) {
        const auto w = s.bits(i, attempt++);
        const unsigned layer = unsigned(w[0] & 0xFF);
        const double sign = w[0] & 0x100 ? -1.0 : 1.0;
        double x = unit_interval<double>(w[0]) * z.x[layer];
        if (x < z.x[layer + 1]) return sign * x;
        if (layer == 0) {
            for (;;) {
                const auto t = s.bits(i, attempt++);
                const double a = -std::log(1.0 - unit_interval<double>(t[0])) / z.r;
                const double b = -std::log(1.0 - unit_interval<double>(t[1]));
                if (2 * b >= a * a) return sign * (z.r + a);
            }
        }
        if (z.f[layer] + unit_interval<double>(w[1]) * (z.f[layer + 1] - z.f[layer]) < ziggurat_layers::density(x))
            return sign * x;
    }
}

/// The ziggurat's common case for a first word: a point inside its layer's rectangle,
/// a table lookup, a product and a compare (no branch: the loops that call it vectorize).
/// The layer is the word's low 8 bits, the sign bit 8, the position its top 53 bits
/// (unit_interval). False where the draw needs standard_normal_slow.
inline bool standard_normal_fast(const ziggurat_layers& z, std::uint64_t first, double& value) noexcept {
    const std::uint64_t layer = first & 0xFF;
    const double x = unit_interval<double>(first) * z.x[layer];
    value = first & 0x100 ? -x : x;
    return x < z.x[layer + 1];
}

/// Normal values, one per element from its own counter (the ziggurat above: exact
/// arithmetic but for the rare draws), scaled in double (long double for long double).
/// fill() enciphers a block of counters, places them in a loop that vectorizes, then
/// redoes the rare draws.
template <std::floating_point T>
struct normal_values {
    using F = std::conditional_t<std::is_same_v<T, long double>, long double, double>;
    stream s;
    F mean, stddev;
    T operator()(index_t i) const noexcept {
        double z;
        if (!standard_normal_fast(normal_layers(), s.bits(i)[0], z)) z = standard_normal_slow(s, i);
        return T(mean + stddev * F(z));
    }
    void fill(index_t first, index_t step, index_t len, T* out) const noexcept {
        const ziggurat_layers& layers = normal_layers();
        std::uint64_t words[stream::max_words];
        double z[stream::max_words];
        for (index_t b = 0; b < len; b += stream::max_words) {
            const index_t n = std::min(stream::max_words, len - b);
            s.first_words(first + b * step, step, n, words);
            std::uint64_t inside[stream::max_words];  // not bool, and a 64-bit layer: else no vectors
            BSX_SIMD_LOOP
            for (index_t t = 0; t < n; ++t) inside[t] = standard_normal_fast(layers, words[t], z[t]);
            for (index_t t = 0; t < n; ++t)
                if (inside[t] == 0) z[t] = standard_normal_slow(s, first + (b + t) * step);
            BSX_SIMD_LOOP
            for (index_t t = 0; t < n; ++t) out[b + t] = T(mean + stddev * F(z[t]));
        }
    }
};

/// The high and low 64 bits of a * b (a struct, not an array: an array returned inside a
/// simd loop keeps GCC from vectorizing it).
struct wide_product {
    std::uint64_t high, low;
};
constexpr wide_product multiply_wide(std::uint64_t a, std::uint64_t b) noexcept {
    const std::uint64_t a0 = a & 0xFFFFFFFF, a1 = a >> 32, b0 = b & 0xFFFFFFFF, b1 = b >> 32;
    const std::uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const std::uint64_t middle = (p00 >> 32) + (p01 & 0xFFFFFFFF) + (p10 & 0xFFFFFFFF);
    return {p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32), (middle << 32) | (p00 & 0xFFFFFFFF)};
}

/// A uniform integer in [0, range) (range >= 1) for element i, without bias:
/// Lemire's multiply-and-reject ("Fast random integer generation in an interval", 2019),
/// on the 64-bit words of the element's blocks (i, call, attempt) from `attempt` on: a
/// rejected draw (probability below range / 2^64) takes the block's next word, then the
/// next attempt's block.
inline std::uint64_t bounded(const stream& s, index_t i, std::uint64_t range, std::uint32_t attempt = 0) noexcept {
    const std::uint64_t threshold = (0 - range) % range;  // 2^64 mod range: the draws to reject
    for (;; ++attempt) {
        for (const std::uint64_t x : s.bits(i, attempt)) {
            const auto [high, low] = multiply_wide(x, range);
            if (low >= threshold) return high;
        }
    }
}

/// Uniform integers in [lo, lo + range). As uniform_values, a block serves two elements:
/// element i's first draw is 64-bit word i % 2 of block i / 2; a rejected one goes on
/// with bounded() from the element's attempt 1.
template <std::integral T>
struct integer_values {
    stream s;
    std::uint64_t lo, range;
    std::uint64_t threshold = (0 - range) % range;  // 2^64 mod range, as bounded's: a lower low word rejects
    T operator()(index_t i) const noexcept {
        const auto [high, low] = multiply_wide(s.bits(i / 2)[std::size_t(i % 2)], range);
        return T(lo + (low >= threshold ? high : bounded(s, i, range, 1)));
    }
    /// The blocks a run of elements shares enciphered once, the common case (the first draw
    /// accepted) in a loop that vectorizes, then the rare rejections one by one.
    void fill(index_t first, index_t step, index_t len, T* out) const noexcept {
        std::uint64_t words[2 * stream::max_words];
        fill_by_block_runs<2>(*this, first, step, len, out,
                              [&](const stream::block_words& c, index_t blocks, index_t skip, index_t n, index_t b) {
                                  BSX_SIMD_LOOP
                                  for (index_t t = 0; t < blocks; ++t) {
                                      words[2 * t] = stream::word(c, 0, t);
                                      words[2 * t + 1] = stream::word(c, 1, t);
                                  }
                                  std::uint64_t* const w = words + skip;
                                  BSX_SIMD_LOOP
                                  for (index_t t = 0; t < n; ++t) {
                                      const auto [high, low] = multiply_wide(w[t], range);
                                      out[b + t] = T(lo + high);
                                      w[t] = low;  // kept for the test below: a reduction would need its own clause
                                  }
                                  for (index_t t = 0; t < n; ++t)
                                      if (w[t] < threshold) out[b + t] = T(lo + bounded(s, first + b + t, range, 1));
                              });
    }
};

[[noreturn, gnu::cold]] inline void throw_random_argument(std::string_view operation, const std::string& what) {
    throw std::invalid_argument("bsx: random::generator::" + std::string(operation) + ": " + what);
}

}  // namespace detail
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

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
    /// the ziggurat. Lazy.
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
