// bsx/detail/stack_room.hpp: how much of the running thread's stack is left below the
// caller's frame, so that scratch that would not fit there goes to the heap instead of
// overflowing a thread with a small stack (macOS gives secondary threads 512 KiB, an
// OpenMP worker has OMP_STACKSIZE, a user may give a std::thread less).
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__linux__) || defined(__APPLE__)
#include <pthread.h>
#endif

namespace bsx::detail {

/// The lowest address of this thread's stack (it grows down), or 0 where it cannot be
/// told. Asked once per thread: glibc reads /proc/self/maps for the main thread.
inline std::uintptr_t stack_low_end() noexcept {
#if defined(__linux__)
    pthread_attr_t attr;
    void* low = nullptr;
    std::size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
    const bool known = pthread_attr_getstack(&attr, &low, &size) == 0;
    pthread_attr_destroy(&attr);
    return known ? reinterpret_cast<std::uintptr_t>(low) : 0;
#elif defined(__APPLE__)
    const auto high = reinterpret_cast<std::uintptr_t>(pthread_get_stackaddr_np(pthread_self()));
    return high - pthread_get_stacksize_np(pthread_self());
#else
    return 0;
#endif
}

/// Bytes of this thread's stack below the caller's frame (0 where it cannot be told).
inline std::size_t stack_room() noexcept {
    thread_local const std::uintptr_t low = stack_low_end();
    const auto here = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
    return low != 0 && here > low ? here - low : 0;
}

}  // namespace bsx::detail
