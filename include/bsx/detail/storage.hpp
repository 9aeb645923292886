// bsx/detail/storage.hpp: the element buffer of bsx::array. Buffers are aligned to a
// cache line; large ones to a 2 MiB boundary and marked for transparent huge pages
// (Linux madvise), so that the kernel can back them with huge pages: fewer TLB misses
// and page faults on the wide outputs that bound element-wise speed.
#pragma once

#include <cstddef>
#include <memory>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace bsx::detail {

/// Buffers of at least this many bytes start on a huge-page boundary and are advised to
/// use huge pages. Smaller ones would waste most of a huge page.
inline constexpr std::size_t huge_page_bytes = std::size_t{2} << 20;

constexpr std::align_val_t storage_alignment(std::size_t bytes) noexcept {
    return std::align_val_t{bytes >= huge_page_bytes ? huge_page_bytes : 64};
}

/// Destroys the elements and frees the buffer with the alignment it was allocated with.
template <class T>
struct storage_deleter {
    std::size_t count = 0;
    void operator()(T* p) const noexcept {
        std::destroy_n(p, count);
        ::operator delete(static_cast<void*>(p), storage_alignment(count * sizeof(T)));
    }
};

template <class T>
using storage_ptr = std::unique_ptr<T[], storage_deleter<T>>;

/// A buffer of n > 0 elements, value-initialized (zero for numbers) or default-initialized.
/// The byte size must not overflow (checked_size has said so).
template <class T>
storage_ptr<T> allocate_storage(std::size_t n, bool value_init) {
    const std::size_t bytes = n * sizeof(T);
    void* raw = ::operator new(bytes, storage_alignment(bytes));
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= huge_page_bytes) (void)madvise(raw, bytes, MADV_HUGEPAGE);  // a hint: failure changes nothing
#endif
    T* p = static_cast<T*>(raw);
    try {
        if (value_init)
            std::uninitialized_value_construct_n(p, n);
        else
            std::uninitialized_default_construct_n(p, n);
    } catch (...) {
        ::operator delete(raw, storage_alignment(bytes));
        throw;
    }
    return storage_ptr<T>(p, storage_deleter<T>{n});
}

}  // namespace bsx::detail
