// bsx/algorithm/line_sort.hpp: the kernel behind bsx::sort and bsx::argsort: one strided
// line of numbers put in order, NaNs last. Numbers of up to 8 bytes are sorted by their
// keys (their bits mapped to unsigned integers that order as the numbers do) with an LSD
// radix sort, in parallel blocks for a long line; short lines and other types by comparison.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "../config.hpp"
#include "../detail/storage.hpp"
#include "../eval/parallel.hpp"

namespace bsx::detail {

/// The order bsx sorts in: a before b. NaNs come last (the callers set them aside first),
/// and -0.0 before +0.0, so that the order of distinct bits is unique (as the radix keys).
template <class T>
bool sorts_before(T a, T b) noexcept {
    if constexpr (std::is_floating_point_v<T>)
        return a < b || (a == b && std::signbit(a) && !std::signbit(b));
    else
        return a < b;
}

template <class T>
bool is_nan_value(T v) noexcept {
    if constexpr (std::is_floating_point_v<T>)
        return std::isnan(v);
    else
        return false;
}

/// Types the radix sort takes: integers, bool, and IEEE float and double.
template <class T>
concept radix_sortable =
    (std::is_integral_v<T> && sizeof(T) <= 8) ||
    (std::is_floating_point_v<T> && std::numeric_limits<T>::is_iec559 && (sizeof(T) == 4 || sizeof(T) == 8));

template <std::size_t Bytes>
using unsigned_of_size = std::conditional_t<
    Bytes == 1, std::uint8_t,
    std::conditional_t<Bytes == 2, std::uint16_t, std::conditional_t<Bytes == 4, std::uint32_t, std::uint64_t>>>;

/// The radix key of a number: unsigned, and ordered as sorts_before orders the numbers
/// (negative floats have all their bits flipped, the others their sign bit). One-to-one,
/// so from_sort_key gives back every bit, NaN payloads included.
template <radix_sortable T>
struct sort_key {
    using type = unsigned_of_size<sizeof(T)>;
    static constexpr type sign = type(type(1) << (8 * sizeof(T) - 1));

    static type to(T v) noexcept {
        if constexpr (std::is_same_v<T, bool>) {
            return type(v);
        } else {
            const auto u = std::bit_cast<type>(v);
            if constexpr (std::is_floating_point_v<T>)
                return (u & sign) ? type(~u) : type(u | sign);
            else if constexpr (std::is_signed_v<T>)
                return type(u ^ sign);
            else
                return u;
        }
    }
    static T from(type k) noexcept {
        if constexpr (std::is_same_v<T, bool>)
            return k != 0;
        else if constexpr (std::is_floating_point_v<T>)
            return std::bit_cast<T>((k & sign) ? type(k ^ sign) : type(~k));
        else if constexpr (std::is_signed_v<T>)
            return std::bit_cast<T>(type(k ^ sign));
        else
            return k;
    }
};

/// Where one line lives: element i at data[i * stride], n elements.
template <class T>
struct strided_line {
    T* data;
    index_t n;
    index_t stride;
    T& operator[](index_t i) const noexcept { return data[i * stride]; }
};

/// Sorts a line of values in place (Index = false), or writes the stable order of a line
/// of values as indices (Index = true). Scratch memory is kept between lines of one call.
template <class T, bool Index>
class line_sorter {
public:
    using output = std::conditional_t<Index, index_t, T>;

    /// blocks > 1 runs the radix passes of a long line on up to that many threads; the
    /// result is the same for any count, as the order it produces is unique.
    void operator()(strided_line<const T> in, strided_line<output> out, int blocks) {
        if constexpr (radix_sortable<T>) {
            if (in.n >= radix_from) return radix(in, out, blocks);
        }
        compare(in, out);
    }

private:
    std::vector<T> values_;
    std::vector<index_t> indices_;

    // Non-NaN values (or their indices) to the front in order, NaNs to the back reversed;
    // sort the front, then write both parts out.
    void compare(strided_line<const T> in, strided_line<output> out) {
        const index_t n = in.n;
        index_t front = 0, back = n;
        if constexpr (Index) {
            indices_.resize(std::size_t(n));
            for (index_t i = 0; i < n; ++i) indices_[std::size_t(is_nan_value(in[i]) ? --back : front++)] = i;
            std::sort(indices_.begin(), indices_.begin() + front, [&](index_t a, index_t b) {
                return sorts_before(in[a], in[b]) || (!sorts_before(in[b], in[a]) && a < b);
            });
            std::reverse(indices_.begin() + front, indices_.end());
            for (index_t i = 0; i < n; ++i) out[i] = indices_[std::size_t(i)];
        } else {
            values_.resize(std::size_t(n));
            for (index_t i = 0; i < n; ++i) {
                const T v = in[i];
                values_[std::size_t(is_nan_value(v) ? --back : front++)] = v;
            }
            std::sort(values_.begin(), values_.begin() + front, sorts_before<T>);
            std::reverse(values_.begin() + front, values_.end());
            for (index_t i = 0; i < n; ++i) out[i] = values_[std::size_t(i)];
        }
    }

    // Two buffers of keys (and of indices) that the passes go back and forth between,
    // uninitialized and on huge pages where large (detail/storage.hpp), and the histograms.
    template <class K>
    struct radix_scratch {
        storage_ptr<K> keys[2];
        storage_ptr<index_t> indices[2];
        index_t capacity = 0;
        std::vector<index_t> counts;

        void reserve(index_t n) {
            if (n <= capacity) return;
            for (auto& k : keys) k = allocate_storage<K>(std::size_t(n), false);
            if constexpr (Index)
                for (auto& i : indices) i = allocate_storage<index_t>(std::size_t(n), false);
            capacity = n;
        }
    };

    static constexpr int key_bits = 8 * int(sizeof(T));
    static constexpr int digit_bits = sizeof(T) >= 4 ? 11 : 8;
    static constexpr int passes = (key_bits + digit_bits - 1) / digit_bits;
    static constexpr index_t radix_size = index_t(1) << digit_bits;
    // Below this a comparison sort is faster than the radix sort's fixed cost (clearing
    // and scanning its histograms).
    static constexpr index_t radix_from = radix_size * passes / 4;

    radix_scratch<unsigned_of_size<sizeof(T)>> scratch_;  // unused by types that are not radix_sortable

    // Runs task(block) for each block, on up to `blocks` threads, block b on thread b % n.
    static void for_blocks(int blocks, function_ref<void(int)> task) {
        parallel_region(blocks, [&](int t, int n, const first_exception*) {
            for (int b = t; b < blocks; b += n) task(b);
        });
    }

    void radix(strided_line<const T> in, strided_line<output> out, int blocks)
        requires radix_sortable<T>
    {
        using K = typename sort_key<T>::type;
        const index_t n = in.n;
        auto& s = scratch_;
        s.reserve(n);
        blocks = int(std::clamp<index_t>(index_t(blocks), 1, n / radix_from));
        const auto block_begin = [&](int b) { return n * b / blocks; };

        // Histograms, all in scratch: every pass's over the line; per block, one for the
        // pass at hand and its NaN count; and when blocks > 1, every pass's per block.
        const std::size_t global = std::size_t(passes * radix_size), per_block = std::size_t(radix_size + 1);
        s.counts.assign(global + std::size_t(blocks) * (per_block + (blocks > 1 ? global : 0)), 0);
        index_t* const hist = s.counts.data();
        index_t* const block_hist = hist + global;
        index_t* const block_all = block_hist + std::size_t(blocks) * per_block;
        const auto all_of = [&](int b) { return blocks > 1 ? block_all + std::size_t(b) * global : hist; };
        const auto digit = [](K k, int pass) { return index_t((k >> (pass * digit_bits)) & K(radix_size - 1)); };

        // Count every digit of every non-NaN key, and the NaNs, per block.
        for_blocks(blocks, [&](int b) {
            index_t* h = all_of(b);
            index_t* bh = block_hist + std::size_t(b) * per_block;
            for (index_t i = block_begin(b); i < block_begin(b + 1); ++i) {
                const T v = in[i];
                if (is_nan_value(v)) {
                    ++bh[radix_size];
                    continue;
                }
                const K k = sort_key<T>::to(v);
                for (int p = 0; p < passes; ++p) ++h[p * radix_size + digit(k, p)];
            }
        });
        if (blocks > 1)
            for (int b = 0; b < blocks; ++b)
                for (std::size_t j = 0; j < global; ++j) hist[j] += all_of(b)[j];
        index_t nans = 0;
        for (int b = 0; b < blocks; ++b) nans += block_hist[std::size_t(b) * per_block + radix_size];
        const index_t m = n - nans;

        // Each block's first output place per digit: the digit's start, past the earlier
        // blocks' keys of that digit. Count the blocks' keys of the pass first (pass 0 was
        // counted above, with one block the global histogram is the block's).
        const auto place_blocks = [&](int pass, const K* keys, bool counted) {
            if (blocks > 1 && !counted) {
                for_blocks(blocks, [&](int b) {
                    index_t* bh = block_hist + std::size_t(b) * per_block;
                    std::fill(bh, bh + radix_size, 0);
                    for (index_t i = m * b / blocks; i < m * (b + 1) / blocks; ++i) ++bh[digit(keys[i], pass)];
                });
            }
            index_t start = 0;
            for (index_t d = 0; d < radix_size; ++d) {
                for (int b = 0; b < blocks; ++b) {
                    index_t& c = block_hist[std::size_t(b) * per_block + std::size_t(d)];
                    const index_t here = blocks > 1 ? c : hist[pass * radix_size + d];
                    c = start;
                    start += here;
                }
            }
        };

        // Pass 0 reads the line itself and puts the NaN keys after the others, in order.
        if (blocks > 1) {
            for (int b = 0; b < blocks; ++b)
                std::copy_n(all_of(b), radix_size, block_hist + std::size_t(b) * per_block);
        }
        {
            index_t nan_place = m;
            std::vector<index_t> nan_start(static_cast<std::size_t>(blocks));
            for (int b = 0; b < blocks; ++b) {
                nan_start[std::size_t(b)] = nan_place;
                nan_place += block_hist[std::size_t(b) * per_block + radix_size];
            }
            place_blocks(0, nullptr, true);
            K* const to = s.keys[0].get();
            index_t* const to_index = Index ? s.indices[0].get() : nullptr;
            for_blocks(blocks, [&](int b) {
                index_t* place = block_hist + std::size_t(b) * per_block;
                index_t nan_at = nan_start[std::size_t(b)];
                for (index_t i = block_begin(b); i < block_begin(b + 1); ++i) {
                    const T v = in[i];
                    const K k = sort_key<T>::to(v);
                    const index_t at = is_nan_value(v) ? nan_at++ : place[digit(k, 0)]++;
                    to[at] = k;
                    if constexpr (Index) to_index[at] = i;
                }
            });
        }

        // The other passes, skipping digits that all non-NaN keys share.
        int current = 0;
        for (int pass = 1; pass < passes; ++pass) {
            const index_t* h = hist + pass * radix_size;
            if (std::find(h, h + radix_size, m) != h + radix_size) continue;
            const K* from = s.keys[current].get();
            K* to = s.keys[1 - current].get();
            const index_t* from_index = Index ? s.indices[current].get() : nullptr;
            index_t* to_index = Index ? s.indices[1 - current].get() : nullptr;
            place_blocks(pass, from, false);
            for_blocks(blocks, [&](int b) {
                index_t* place = block_hist + std::size_t(b) * per_block;
                for (index_t i = m * b / blocks; i < m * (b + 1) / blocks; ++i) {
                    const K k = from[i];
                    const index_t at = place[digit(k, pass)]++;
                    to[at] = k;
                    if constexpr (Index) to_index[at] = from_index[i];
                }
            });
            current = 1 - current;
        }

        // Out: the sorted keys from the last pass's buffer, the NaNs from pass 0's.
        for_blocks(blocks, [&](int b) {
            for (index_t i = block_begin(b); i < block_begin(b + 1); ++i) {
                const int from = i < m ? current : 0;
                if constexpr (Index)
                    out[i] = s.indices[std::size_t(from)][std::size_t(i)];
                else
                    out[i] = sort_key<T>::from(s.keys[std::size_t(from)][std::size_t(i)]);
            }
        });
    }
};

}  // namespace bsx::detail
