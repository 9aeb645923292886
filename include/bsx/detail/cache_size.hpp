// bsx/detail/cache_size.hpp: the size from which results are written with streaming stores,
// BSX_STREAMING_THRESHOLD where the user defines it, else from the last-level cache the
// system reports.
#pragma once

#include <cstddef>

#include "../config.hpp"

#if !defined(BSX_STREAMING_THRESHOLD) && defined(__linux__)
#include <unistd.h>
#endif

namespace bsx::detail {

/// Bytes from which a destination the expression does not read is streamed. By default
/// the larger of 16 MiB and an eighth of the last-level cache (sysconf's, on Linux): a
/// result that fits the cache beside its operands stays there for what reads it next, and
/// server parts with hundreds of MiB of cache keep results of tens of MiB that a fixed
/// threshold would send to memory. Read once.
inline std::size_t streaming_threshold() noexcept {
#if defined(BSX_STREAMING_THRESHOLD)
    return BSX_STREAMING_THRESHOLD;
#else
    static const std::size_t bytes = [] {
        constexpr std::size_t least = std::size_t{16} << 20;
        long cache = 0;
#if defined(__linux__) && defined(_SC_LEVEL3_CACHE_SIZE)
        cache = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
        return cache > 0 && std::size_t(cache) / 8 > least ? std::size_t(cache) / 8 : least;
    }();
    return bytes;
#endif
}

}  // namespace bsx::detail
