// bsx/detail/streaming_store.hpp: copying a computed tile into a large destination
// with non-temporal (streaming) stores, which write whole cache lines to memory without
// first reading them into the cache. Plain memcpy where the target has none.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace bsx::detail {

/// Copies `bytes` bytes from `from` to `to`: the part of `to` aligned to the vector
/// width with streaming stores, the unaligned ends with ordinary ones. Call
/// stream_fence() before other threads may read what was written. Out of line: one copy
/// serves every kernel.
[[gnu::noinline]] inline void stream_copy(void* to, const void* from, std::size_t bytes) noexcept {
#if defined(__SSE2__)
#if defined(__AVX512F__)
    constexpr std::size_t width = 64;
#elif defined(__AVX__)
    constexpr std::size_t width = 32;
#else
    constexpr std::size_t width = 16;
#endif
    auto* d = static_cast<unsigned char*>(to);
    const auto* s = static_cast<const unsigned char*>(from);
    const std::size_t misalign = reinterpret_cast<std::uintptr_t>(d) % width;
    const std::size_t head = misalign == 0 ? 0 : bytes < width - misalign ? bytes : width - misalign;
    std::memcpy(d, s, head);
    d += head;
    s += head;
    bytes -= head;
    for (; bytes >= width; bytes -= width, d += width, s += width) {
#if defined(__AVX512F__)
        _mm512_stream_si512(reinterpret_cast<__m512i*>(d), _mm512_loadu_si512(s));
#elif defined(__AVX__)
        _mm256_stream_si256(reinterpret_cast<__m256i*>(d), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s)));
#else
        _mm_stream_si128(reinterpret_cast<__m128i*>(d), _mm_loadu_si128(reinterpret_cast<const __m128i*>(s)));
#endif
    }
    std::memcpy(d, s, bytes);
#else
    std::memcpy(to, from, bytes);
#endif
}

/// Orders this thread's streaming stores before its later stores (and so before the
/// end of a parallel region).
inline void stream_fence() noexcept {
#if defined(__SSE2__)
    _mm_sfence();
#endif
}

}  // namespace bsx::detail
