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
/// (negative floats have all their bits flipped, the others their sign bit). Branch-free:
/// the passes compute it again for every value they move.
template <radix_sortable T>
struct sort_key {
    using type = unsigned_of_size<sizeof(T)>;
    static constexpr int sign_shift = 8 * int(sizeof(T)) - 1;
    static constexpr type sign = type(type(1) << sign_shift);

    static type to(T v) noexcept {
        if constexpr (std::is_same_v<T, bool>) {
            return type(v);
        } else {
            const auto u = std::bit_cast<type>(v);
            if constexpr (std::is_floating_point_v<T>)
                return type(u ^ (type(0 - type(u >> sign_shift)) | sign));  // all ones where negative
            else if constexpr (std::is_signed_v<T>)
                return type(u ^ sign);
            else
                return u;
        }
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

    // Buffers the radix passes go back and forth between: uninitialized, on huge pages
    // where large (detail/storage.hpp), kept for the next line.
    template <class U>
    struct buffer {
        storage_ptr<U> data;
        index_t capacity = 0;
        U* get(index_t n) {
            if (n > capacity) {
                data = allocate_storage<U>(std::size_t(n), false);
                capacity = n;
            }
            return data.get();
        }
    };
    buffer<T> values_buffers_[2];
    buffer<index_t> index_buffers_[2];
    std::vector<index_t> counts_;

    static constexpr int key_bits = 8 * int(sizeof(T));
    static constexpr int digit_bits = sizeof(T) >= 4 ? 11 : 8;
    static constexpr int passes = (key_bits + digit_bits - 1) / digit_bits;
    static constexpr index_t radix_size = index_t(1) << digit_bits;
    // Below this a comparison sort is faster than the radix sort's fixed cost (clearing
    // and scanning its histograms).
    static constexpr index_t radix_from = radix_size * passes / 4;

    // Runs task(block) for each block, on up to `blocks` threads, block b on thread b % n.
    static void for_blocks(int blocks, function_ref<void(int)> task) {
        parallel_region(blocks, [&](int t, int n, const first_exception*) {
            for (int b = t; b < blocks; b += n) task(b);
        });
    }

    // The passes move the values themselves (and their indices), a digit of their keys at
    // a time: stable, so after the last pass equal keys keep their first order.
    void radix(strided_line<const T> in, strided_line<output> out, int blocks)
        requires radix_sortable<T>
    {
        using K = typename sort_key<T>::type;
        const index_t n = in.n;
        blocks = int(std::clamp<index_t>(index_t(blocks), 1, n / radix_from));
        const auto block_begin = [&](int b) { return n * b / blocks; };

        // Two buffers; a contiguous output is the second one (pass 0 reads the line into
        // the first, so the output may be the line itself).
        const bool out_is_buffer = out.stride == 1;
        T* values[2] = {values_buffers_[0].get(n), nullptr};
        index_t* indices[2] = {nullptr, nullptr};
        if constexpr (Index) {
            values[1] = values_buffers_[1].get(n);
            indices[0] = index_buffers_[0].get(n);
            indices[1] = out_is_buffer ? out.data : index_buffers_[1].get(n);
        } else {
            values[1] = out_is_buffer ? out.data : values_buffers_[1].get(n);
        }

        // Histograms: every pass's over the line; per block, one for the pass at hand and
        // its NaN count; and when blocks > 1, every pass's per block.
        const std::size_t global = std::size_t(passes * radix_size), per_block = std::size_t(radix_size + 1);
        counts_.assign(global + std::size_t(blocks) * (per_block + (blocks > 1 ? global : 0)), 0);
        index_t* const hist = counts_.data();
        index_t* const block_hist = hist + global;
        index_t* const block_all = block_hist + std::size_t(blocks) * per_block;
        const auto all_of = [&](int b) { return blocks > 1 ? block_all + std::size_t(b) * global : hist; };
        const auto digit = [](T v, int pass) {
            return index_t((sort_key<T>::to(v) >> (pass * digit_bits)) & K(radix_size - 1));
        };

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
                for (int p = 0; p < passes; ++p) ++h[p * radix_size + digit(v, p)];
            }
        });
        if (blocks > 1)
            for (int b = 0; b < blocks; ++b)
                for (std::size_t j = 0; j < global; ++j) hist[j] += all_of(b)[j];
        index_t nans = 0;
        for (int b = 0; b < blocks; ++b) nans += block_hist[std::size_t(b) * per_block + radix_size];
        const index_t m = n - nans;

        // Each block's first output place per digit: the digit's start, past the earlier
        // blocks' values of that digit. Count the blocks' values of the pass first (pass 0
        // was counted above; with one block the global histogram is the block's).
        const auto place_blocks = [&](int pass, const T* from, bool counted) {
            if (blocks > 1 && !counted) {
                for_blocks(blocks, [&](int b) {
                    index_t* bh = block_hist + std::size_t(b) * per_block;
                    std::fill(bh, bh + radix_size, 0);
                    for (index_t i = m * b / blocks; i < m * (b + 1) / blocks; ++i) ++bh[digit(from[i], pass)];
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

        // Pass 0 reads the line itself and puts the NaNs after the others, in order.
        std::vector<index_t> nan_start(static_cast<std::size_t>(blocks));
        index_t nan_place = m;
        for (int b = 0; b < blocks; ++b) {
            nan_start[std::size_t(b)] = nan_place;
            nan_place += block_hist[std::size_t(b) * per_block + radix_size];
        }
        if (blocks > 1)
            for (int b = 0; b < blocks; ++b)
                std::copy_n(all_of(b), radix_size, block_hist + std::size_t(b) * per_block);
        place_blocks(0, nullptr, true);
        for_blocks(blocks, [&](int b) {
            index_t* place = block_hist + std::size_t(b) * per_block;
            index_t nan_at = nan_start[std::size_t(b)];
            for (index_t i = block_begin(b); i < block_begin(b + 1); ++i) {
                const T v = in[i];
                const index_t at = is_nan_value(v) ? nan_at++ : place[digit(v, 0)]++;
                values[0][at] = v;
                if constexpr (Index) indices[0][at] = i;
            }
        });

        // The other passes, skipping digits that all non-NaN keys share.
        int current = 0;
        for (int pass = 1; pass < passes; ++pass) {
            const index_t* h = hist + pass * radix_size;
            if (std::find(h, h + radix_size, m) != h + radix_size) continue;
            const T* from = values[current];
            T* to = values[1 - current];
            const index_t* from_index = indices[current];
            index_t* to_index = indices[1 - current];
            place_blocks(pass, from, false);
            for_blocks(blocks, [&](int b) {
                index_t* place = block_hist + std::size_t(b) * per_block;
                for (index_t i = m * b / blocks; i < m * (b + 1) / blocks; ++i) {
                    const T v = from[i];
                    const index_t at = place[digit(v, pass)]++;
                    to[at] = v;
                    if constexpr (Index) to_index[at] = from_index[i];
                }
            });
            current = 1 - current;
        }

        // Out: the sorted values (or indices) from the last pass's buffer, the NaNs from
        // pass 0's; nothing to copy of what the last pass left in the output itself.
        const auto result = [&](int which) -> const output* {
            if constexpr (Index)
                return indices[which];
            else
                return values[which];
        };
        const index_t copy_from = out_is_buffer && current == 1 ? m : 0;
        for_blocks(blocks, [&](int b) {
            const index_t first = std::max(copy_from, block_begin(b)), last = block_begin(b + 1);
            for (index_t i = first; i < last; ++i) out[i] = result(i < m ? current : 0)[i];
        });
    }
};

}  // namespace bsx::detail
