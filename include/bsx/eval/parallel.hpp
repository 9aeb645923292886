// bsx/eval/parallel.hpp: the one place that starts threads. Every assignment and
// reduction hands its work to parallel_for or parallel_region as a function_ref, so the
// OpenMP region, the split and the carrying of exceptions are compiled once per program,
// not once per expression.
#pragma once

#include <memory>
#include <type_traits>
#include <utility>

#include "../config.hpp"
#include "../detail/first_exception.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace bsx::detail {

template <class Signature>
class function_ref;

/// A non-owning reference to a callable: a pointer to it and one small trampoline per
/// callable type, so that code taking it is not a template.
template <class R, class... Args>
class function_ref<R(Args...)> {
public:
    template <class F>
        requires(!std::is_same_v<std::remove_cvref_t<F>, function_ref> && std::is_invocable_r_v<R, F&, Args...>)
    function_ref(F&& f) noexcept  // NOLINT: converts implicitly, as a reference does
        : callable_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
          call_([](void* callable, Args... args) -> R {
              return (*static_cast<std::remove_reference_t<F>*>(callable))(std::forward<Args>(args)...);
          }) {}
    R operator()(Args... args) const { return call_(callable_, std::forward<Args>(args)...); }

private:
    void* callable_;
    R (*call_)(void*, Args...);
};

/// The number of threads work of `elements` elements runs on: OpenMP's count at or
/// above BSX_PARALLEL_THRESHOLD and outside any enclosing parallel region, else 1.
inline int loop_threads(index_t elements) noexcept {
#ifdef _OPENMP
    if (elements >= BSX_PARALLEL_THRESHOLD && !omp_in_parallel()) return omp_get_max_threads();
#else
    (void)elements;
#endif
    return 1;
}

/// A block of work on one thread: [begin, end), and the region's failure flag (null when
/// serial), which a long block looks at to give up early once another thread has failed.
using block_task = function_ref<void(index_t begin, index_t end, const first_exception* errors)>;

/// Runs task(t, n, errors) on each of the n threads of one region (n <= threads; task(0,
/// 1, nullptr) alone when threads is 1). An exception from any thread reaches the caller
/// as itself, after the region; the other threads see errors->stopped() and give up.
inline void parallel_region(int threads, function_ref<void(int t, int n, const first_exception* errors)> task) {
#ifdef _OPENMP
    if (threads > 1) {
        first_exception errors;
#pragma omp parallel num_threads(threads)
        {
            const int n = omp_get_num_threads(), t = omp_get_thread_num();
            errors.run([&] { task(t, n, &errors); });
        }
        errors.rethrow();
        return;
    }
#else
    (void)threads;
#endif
    task(0, 1, nullptr);
}

/// Runs task over [0, total) on `threads` threads, split statically into one contiguous
/// block per thread whose bounds are multiples of `granule`: the split depends on the
/// sizes alone, never on timing.
inline void parallel_for(index_t total, int threads, index_t granule, block_task task) {
    if (threads <= 1) return task(0, total, nullptr);
    const index_t units = total / granule;
    parallel_region(threads, [&](int t, int n, const first_exception* errors) {
        task(units * t / n * granule, t + 1 == n ? total : units * (t + 1) / n * granule, errors);
    });
}

}  // namespace bsx::detail
