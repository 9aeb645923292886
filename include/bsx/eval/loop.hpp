// bsx/eval/loop.hpp: the loop nest every assignment and reduction walks. Axes are
// coalesced first (extent-1 axes dropped, adjacent axes merged where every operand steps
// through them as one); a range of the flattened index space is then walked in runs of
// rows (row_runs), and each row in unit-stride chunks (write_chunk and the gathers).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <utility>

#include "../config.hpp"
#include "../detail/convert.hpp"
#include "../shape/shape.hpp"

namespace bsx::detail {

/// The loop nest after coalescing: `nd` axes (at least one), innermost last. D >= 1:
/// rank-0 destinations run as rank 1.
template <std::size_t D>
struct loop_shape {
    std::size_t nd = 0;
    shape_t<D> extent{};
};

/// How the destination or one memory operand steps through the loop nest: a stride per
/// axis, in elements of `bytes` bytes, and, once short rows are folded (fold_short_rows),
/// the period with which an operand repeats along the row (0: it does not repeat). A
/// generated operand's strides step through its positions, not memory: it has no row to
/// read in place.
template <std::size_t D>
struct operand_steps {
    shape_t<D> stride{};
    std::size_t bytes = 0;
    index_t period = 0;
    bool generated = false;
};

/// Rows at most this long are folded into longer ones; it bounds the period tiles.
inline constexpr index_t max_fold_period = BSX_CHUNK / 4;

/// Chunk length when the only tiles are period tiles (filled once per row), streamed
/// results or math results: longer than BSX_CHUNK halves the per-chunk overhead, but not
/// much longer, or the tiles crowd the lines the loop streams through out of L1
/// (doc/design.md, "The evaluator", has the measurements).
inline constexpr index_t periodic_chunk = 2 * BSX_CHUNK;

/// Short rows (the pixels of an RGB image: rows of 3) would make per-row set-up dominate.
/// Folds the next outer axis into the row while every operand either continues through
/// it as if the row went on, or repeats along it (stride 0). A repeating operand then
/// reads the row from a tile filled once with its values repeated (`period`).
template <std::size_t D>
void fold_short_rows(loop_shape<D>& loop, std::span<operand_steps<D>* const> ops) {
    if constexpr (D < 2) return;  // one axis: nothing to fold
    while (loop.nd >= 2) {
        const std::size_t inner = loop.nd - 1, k = inner - 1;
        const index_t row = loop.extent[inner];
        if (row > max_fold_period) return;
        const auto continues = [&](const operand_steps<D>& o) {
            return o.period == 0 && o.stride[k] == o.stride[inner] * row;
        };
        for (std::size_t i = 0; i < ops.size(); ++i)  // ops[0], the destination, never repeats
            if (!continues(*ops[i]) && (i == 0 || ops[i]->stride[k] != 0)) return;
        for (std::size_t i = 1; i < ops.size(); ++i)  // an operand that repeats already keeps its period
            if (ops[i]->period == 0 && !continues(*ops[i])) ops[i]->period = row;
        for (auto* o : ops) o->stride[k] = o->stride[inner];
        loop.extent[k] *= row;
        loop.nd = inner;
    }
}

/// Coalesces the axes of `extent` in place in the strides of `ops`: ops[0] is the
/// destination, the rest are the memory operands. Depends on the rank only, not on the
/// expression, so it is compiled once per rank.
template <std::size_t D>
loop_shape<D> coalesce(const shape_t<D>& extent, std::span<operand_steps<D>* const> ops) {
    loop_shape<D> loop;
    const auto for_all_strides = [&](auto&& f) {
        for (auto* o : ops) f(o->stride);
    };
    // Drop extent-1 axes: their strides never matter.
    for (std::size_t k = 0; k < D; ++k) {
        if (extent[k] == 1) continue;
        const std::size_t to = loop.nd++;
        loop.extent[to] = extent[k];
        for_all_strides([&](auto& st) { st[to] = st[k]; });
    }
    if (loop.nd == 0) {  // a single element
        loop.nd = 1;
        loop.extent[0] = 1;
        for_all_strides([](auto& st) { st[0] = 0; });
        return loop;
    }
    // Merge axis k into the (already merged) inner group `inner` when every operand
    // steps over axis k exactly as if the group continued.
    std::array<bool, D> merged{};
    std::size_t inner = loop.nd - 1;
    for (std::size_t k = inner; k-- > 0;) {
        bool mergeable = true;
        for_all_strides([&](auto& st) { mergeable &= st[k] == st[inner] * loop.extent[inner]; });
        if (mergeable) {
            loop.extent[inner] *= loop.extent[k];
            merged[k] = true;
        } else {
            inner = k;
        }
    }
    std::size_t nd = 0;
    for (std::size_t k = 0; k < loop.nd; ++k) {
        if (merged[k]) continue;
        const std::size_t to = nd++;
        loop.extent[to] = loop.extent[k];
        if (to != k) for_all_strides([&](auto& st) { st[to] = st[k]; });
    }
    loop.nd = nd;
    fold_short_rows(loop, ops);
    return loop;
}

/// The type loops read and write elements of type T as: bool as its byte, because GCC
/// vectorizes no loop that loads or stores `bool` objects themselves.
template <class T>
using bytes_of_t = std::conditional_t<std::is_same_v<T, bool>, unsigned char, T>;

/// The inner kernel: out[j * step] = the reader's element j for j < len, step 1 unless the
/// destination's rows are written strided (loop_kind::strided). The reader is a local
/// copy, so the compiler knows stores to `out` cannot move its pointers (which matters for
/// char-sized destinations, which may alias anything). A reader that may throw (a user
/// function) runs without the simd pragma: OpenMP forbids an exception leaving a simd loop.
#if defined(__clang__)
// A libm call the operation makes (sqrt without -fno-math-errno) can keep clang from
// vectorizing; that is the user's flag choice, not a warning about their code.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpass-failed"
#endif
template <class T, class Reader, class Step = std::integral_constant<index_t, 1>>
void write_chunk(const Reader reader, T* out, index_t len, Step step = {}) noexcept(noexcept(reader.load(0))) {
    using B = bytes_of_t<T>;
    B* to = reinterpret_cast<B*>(out);
    if constexpr (noexcept(reader.load(0))) {
        BSX_SIMD_LOOP
        for (index_t j = 0; j < len; ++j) to[j * step] = static_cast<B>(convert<T>(reader.load(j)));
    } else {
        for (index_t j = 0; j < len; ++j) to[j * step] = static_cast<B>(convert<T>(reader.load(j)));
    }
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

#if defined(__clang__)
// As for write_chunk: a copy loop that clang cannot vectorize for some element size is not
// a warning about the user's code.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpass-failed"
#endif
/// Element copies for code written once for every element type: elements of `bytes`
/// bytes are moved as unsigned integers of that size, which may alias any object (long
/// double's 16 bytes by memcpy). Gathers at stride 2 and -1 of any size (every other
/// column, of bools too; a reversed axis) and writes at stride 2 of 4- and 8-byte elements
/// are constants in loops of their own, which then vectorize as vector loads and shuffles.
/// Other gathers and writes of elements of 2 bytes or more load or store element by element
/// into vectors (at stride 4 that beats the shuffles, which keep too few loads in flight);
/// single bytes, which the compiler would insert one at a time, run plainly.
using element_1 [[gnu::may_alias]] = std::uint8_t;
using element_2 [[gnu::may_alias]] = std::uint16_t;
using element_4 [[gnu::may_alias]] = std::uint32_t;
using element_8 [[gnu::may_alias]] = std::uint64_t;

/// Calls f(U{}) with the element type of `bytes` bytes; false for another size.
template <class F>
bool with_element_size(std::size_t bytes, F&& f) {
    switch (bytes) {
        case 1:
            return f(element_1{}), true;
        case 2:
            return f(element_2{}), true;
        case 4:
            return f(element_4{}), true;
        case 8:
            return f(element_8{}), true;
        default:
            return false;
    }
}

/// to[t * to_stride] = from[t * from_stride] for t < len elements of `bytes` bytes: a
/// gather into a tile (to_stride 1) or a tile written back (from_stride 1). Out of line:
/// one copy serves every kernel.
[[gnu::noinline]] inline void copy_elements(const std::byte* from, index_t from_stride, std::byte* to,
                                            index_t to_stride, index_t len, std::size_t bytes) noexcept {
    const bool known = with_element_size(bytes, [&]<class U>(U) {
        const U* src = reinterpret_cast<const U*>(from);
        U* dst = reinterpret_cast<U*>(to);
        const auto copy = [&](auto from_step, auto to_step) {
            BSX_SIMD_LOOP
            for (index_t t = 0; t < len; ++t) dst[t * to_step] = src[t * from_step];
        };
        using one = std::integral_constant<index_t, 1>;
        using two = std::integral_constant<index_t, 2>;
        using back = std::integral_constant<index_t, -1>;
        if (to_stride == 1 && from_stride == -1)  // a reversed axis (flip): vector loads, then a shuffle
            copy(back{}, one{});
        else if (to_stride == 1 && from_stride == 2)  // every size: every other column of bools too
            copy(two{}, one{});
        else if ((sizeof(U) == 4 || sizeof(U) == 8) && from_stride == 1 && to_stride == 2)
            copy(one{}, two{});
        else if (sizeof(U) > 1 && to_stride == 1)
            copy(from_stride, one{});
        else if (sizeof(U) > 1 && from_stride == 1 && to_stride != 0)  // stride 0: the last write wins
            copy(one{}, to_stride);
        else
            for (index_t t = 0; t < len; ++t) dst[t * to_stride] = src[t * from_stride];
    });
    if (!known)
        for (index_t t = 0; t < len; ++t)
            std::memcpy(to + t * to_stride * index_t(bytes), from + t * from_stride * index_t(bytes), bytes);
}

/// to[t] = *value for t < len elements of `bytes` bytes.
[[gnu::noinline]] inline void fill_elements(std::byte* to, const std::byte* value, index_t len,
                                            std::size_t bytes) noexcept {
    const bool known = with_element_size(bytes, [&]<class U>(U) {
        const U v = *reinterpret_cast<const U*>(value);
        U* dst = reinterpret_cast<U*>(to);
        BSX_SIMD_LOOP
        for (index_t t = 0; t < len; ++t) dst[t] = v;
    });
    if (!known)
        for (index_t t = 0; t < len; ++t) std::memcpy(to + t * index_t(bytes), value, bytes);
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

/// Where the row at outer indices `idx` starts, in elements from the first row: the
/// outer axes are at most D - 1, which the loop bound says, so that it unrolls.
template <std::size_t D>
index_t row_offset(const index_t* idx, const shape_t<D>& stride, std::size_t outer) noexcept {
    index_t offset = 0;
    for (std::size_t d = 0; d + 1 < D && d < outer; ++d) offset += idx[d] * stride[d];
    return offset;
}

/// The runs of rows that flattened elements [begin, end) of a loop nest cover, one
/// after another: a run is `rows()` rows, this one and the next ones along the last
/// outer axis, each covering the same part [first(), stop()) of its row (whole rows run
/// together, so that a loop over them can step its pointers); index() gives the outer
/// indices of its first row. Only the loops compiled once per rank (kernels.hpp, the
/// reduction traversals) walk it.
template <std::size_t D>
class row_runs {
public:
    row_runs(const loop_shape<D>& loop, index_t begin, index_t end) noexcept : loop_(loop), begin_(begin), end_(end) {
        if (begin != 0) {  // a serial loop starts at 0: spare it the divisions (tens of cycles)
            const std::size_t outer = loop.nd - 1;
            index_t r = begin / loop.extent[outer];
            first_ = begin % loop.extent[outer];
            for (std::size_t d = outer; d-- > 0;) {
                idx_[d] = r % loop.extent[d];
                r /= loop.extent[d];
            }
        }
    }
    /// Moves to the next run; false once the range is done.
    bool next() noexcept {
        const std::size_t outer = loop_.nd - 1;
        if (rows_ > 0) {  // step past the current run
            begin_ += rows_ * (stop_ - first_);
            first_ = 0;
            if constexpr (D > 1)
                if (outer > 0) idx_[outer - 1] += rows_ - 1;
            for (std::size_t d = outer; d-- > 0;) {
                if (++idx_[d] < loop_.extent[d]) break;
                idx_[d] = 0;
            }
        }
        if (begin_ >= end_) return false;
        const index_t n_inner = loop_.extent[outer];
        rows_ = 1;
        if constexpr (D > 1)
            if (first_ == 0 && outer > 0)
                rows_ = std::max<index_t>(
                    1, std::min(loop_.extent[outer - 1] - idx_[outer - 1], (end_ - begin_) / n_inner));
        stop_ = std::min(n_inner, first_ + (end_ - begin_));
        return true;
    }
    const shape_t<D>& index() const noexcept { return idx_; }
    index_t first() const noexcept { return first_; }
    index_t stop() const noexcept { return stop_; }
    index_t rows() const noexcept { return rows_; }

private:
    const loop_shape<D>& loop_;
    shape_t<D> idx_{};
    index_t begin_, end_, first_ = 0, stop_ = 0, rows_ = 0;
};

/// Visits flattened elements [begin, end) of the loop nest row by row: `row(idx, j,
/// stop)` gets the outer indices of a row and the part [j, stop) of it in the range.
template <std::size_t D, class Row>
void for_each_row(const loop_shape<D>& loop, index_t begin, index_t end, Row&& row) {
    for (row_runs<D> runs(loop, begin, end); runs.next();) {
        shape_t<D> idx = runs.index();
        for (index_t r = 0; r < runs.rows(); ++r) {
            if (r > 0) ++idx[loop.nd - 2];  // rows > 1 only with an outer axis
            row(idx, runs.first(), runs.stop());
        }
    }
}

/// Whether every operand reads the rows along loop axis `inner` in place: with unit
/// stride, or one of them with stride 0 (its value per row, which a row reader holds in a
/// register). `constant_leaf` gets 1 + that operand's index, or 0 for none.
template <std::size_t D>
bool rows_read_in_place(std::span<operand_steps<D>* const> leaves, std::size_t inner, std::size_t& constant_leaf) {
    constant_leaf = 0;
    for (std::size_t i = 0; i < leaves.size(); ++i) {
        const operand_steps<D>& o = *leaves[i];
        if (o.period != 0 || o.generated) return false;
        if (o.stride[inner] == 1) continue;
        if (o.stride[inner] != 0 || constant_leaf != 0) return false;
        constant_leaf = i + 1;
    }
    return true;
}

}  // namespace bsx::detail
