// bsx/detail/storage.hpp: the element buffer of bsx::array. Buffers are aligned to a
// cache line; large ones to a 2 MiB boundary and marked for transparent huge pages
// (Linux madvise), so that the kernel can back them with huge pages: fewer TLB misses
// and page faults on the wide outputs that bound element-wise speed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace bsx::detail {

/// Buffers of at least this many bytes start on a huge-page boundary and are advised to
/// use huge pages. Smaller ones would waste most of a huge page.
inline constexpr std::size_t huge_page_bytes = std::size_t{2} << 20;

/// Smaller buffers start on a cache line.
inline constexpr std::size_t cache_line_bytes = 64;

/// Where a buffer of `bytes` comes from: the plain operator new, asked for its alignment
/// more than the elements need, the elements aligned inside, with the pointer to free
/// stored just before them. The aligned operator new is avoided at every size: on small
/// sizes it costs several times a plain one (glibc's memalign splits and frees chunks
/// where malloc takes one from its cache), and on huge ones glibc maps and unmaps every
/// aligned buffer afresh where it reuses a plain block of the same size, up to 32 MiB
/// (doc/design.md, "Allocation"): a new result made in a loop faulted its pages in on
/// every pass.
constexpr bool huge_storage(std::size_t bytes) noexcept { return bytes >= huge_page_bytes; }
constexpr std::size_t storage_alignment(std::size_t bytes) noexcept {
    return huge_storage(bytes) ? huge_page_bytes : cache_line_bytes;
}

/// The first `alignment` boundary in `raw` past room for the pointer stored before it. The
/// plain operator new returns at least pointer-aligned memory, so at most `alignment`
/// past raw.
inline void* align_within(void* raw, std::size_t alignment) noexcept {
    const auto at = reinterpret_cast<std::uintptr_t>(raw) + sizeof(void*);
    void* aligned = reinterpret_cast<void*>((at + alignment - 1) & ~std::uintptr_t{alignment - 1});
    static_cast<void**>(aligned)[-1] = raw;
    return aligned;
}

/// Frees a buffer that starts at p. Out of line: every array's destructor, inlined
/// wherever an array dies, calls it.
[[gnu::noinline]] inline void free_storage(void* p) noexcept { ::operator delete(static_cast<void**>(p)[-1]); }

/// Destroys the elements and frees the buffer as it was allocated.
template <class T>
struct storage_deleter {
    std::size_t count = 0;
    void operator()(T* p) const noexcept {
        std::destroy_n(p, count);
        free_storage(p);
    }
};

template <class T>
using storage_ptr = std::unique_ptr<T[], storage_deleter<T>>;

/// A buffer of n > 0 elements, value-initialized (zero for numbers) or default-initialized.
/// The byte size must not overflow (checked_size has said so: PTRDIFF_MAX at most, so the
/// alignment added stays below SIZE_MAX).
template <class T>
storage_ptr<T> allocate_storage(std::size_t n, bool value_init) {
    static_assert(alignof(T) <= cache_line_bytes, "bsx: element types aligned past a cache line are not stored");
    const std::size_t bytes = n * sizeof(T);
    const std::size_t alignment = storage_alignment(bytes);
    void* start = align_within(::operator new(bytes + alignment), alignment);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (huge_storage(bytes)) (void)madvise(start, bytes, MADV_HUGEPAGE);  // a hint: failure changes nothing
#endif
    T* p = static_cast<T*>(start);
    try {
        if (value_init)
            std::uninitialized_value_construct_n(p, n);
        else
            std::uninitialized_default_construct_n(p, n);
    } catch (...) {
        free_storage(start);
        throw;
    }
    return storage_ptr<T>(p, storage_deleter<T>{n});
}

}  // namespace bsx::detail
