// bsx/eval/parallel.hpp: the one place that starts threads, and decides how many. Every
// assignment and reduction asks region_threads for a count and hands its work to
// parallel_for or parallel_region as a function_ref, so the OpenMP region, the split, the
// carrying of exceptions and the thread policy are compiled once per program. The user's
// controls live here too: bsx::set_max_threads and bsx::thread_limit.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "../config.hpp"
#include "../detail/first_exception.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace bsx {

namespace detail {

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

/// What the thread policy remembers between regions, for the whole process.
struct thread_state {
    std::atomic<int> cap{0};            // set_max_threads (0: none)
    std::atomic<int> extra_threads{0};  // threads bsx regions have started beyond their callers
    std::atomic<double> calm_until{0};  // omp_get_wtime() before which regions run on one thread
    std::atomic<double> backoff{0};     // how long the next calm lasts (doubles while workers stay late)
    std::atomic<double> load_read_at{-1};
    std::atomic<int> others_running{0};  // runnable threads of other processes, at the last reading
    std::atomic<double> last_region_end{-1};
    std::atomic<int> last_team{1};
};
inline thread_state& threads() noexcept {
    static thread_state state;
    return state;
}
/// thread_limit's cap for the calling thread (0: none).
inline thread_local int thread_cap = 0;

}  // namespace detail

/// Caps the threads any bsx assignment or reduction uses, from now on, in every thread
/// (n >= 1; 0 removes the cap). OpenMP's own count (OMP_NUM_THREADS, omp_set_num_threads)
/// still applies beneath it.
inline void set_max_threads(int n) {
    if (n < 0) throw std::invalid_argument("bsx: set_max_threads: " + std::to_string(n) + " is negative");
    detail::threads().cap.store(n, std::memory_order_relaxed);
}

/// Caps the threads bsx uses for work started by the calling thread, while the guard
/// lives (guards nest; the innermost cap that is lower wins): `bsx::thread_limit one(1);`.
class thread_limit {
public:
    explicit thread_limit(int n) : saved_(detail::thread_cap) {
        if (n < 1) throw std::invalid_argument("bsx: thread_limit: " + std::to_string(n) + " is not a thread count");
        if (saved_ == 0 || n < saved_) detail::thread_cap = n;
    }
    thread_limit(const thread_limit&) = delete;
    thread_limit& operator=(const thread_limit&) = delete;
    ~thread_limit() { detail::thread_cap = saved_; }

private:
    int saved_;
};

namespace detail {

#ifdef _OPENMP
/// Whether bsx adapts its thread counts to the load: unless OMP_DYNAMIC says false, which
/// asks for exactly the threads requested (OpenMP's own meaning of the variable).
inline bool adapts_to_load() noexcept {
    static const bool adapts = [] {
        const char* v = std::getenv("OMP_DYNAMIC");
        return !(v && (std::strcmp(v, "false") == 0 || std::strcmp(v, "FALSE") == 0 || std::strcmp(v, "0") == 0));
    }();
    return adapts;
}

/// Runnable threads of other processes, from /proc/loadavg (its fourth field counts the
/// runnable threads now), read at most every 100 ms. bsx's own workers that may still be
/// spinning after the last region are not counted as others. 0 where there is no such
/// file.
[[gnu::noinline]] inline int others_running(double now) noexcept {
    thread_state& s = threads();
    if (now - s.load_read_at.load(std::memory_order_relaxed) < 0.1)
        return s.others_running.load(std::memory_order_relaxed);
    s.load_read_at.store(now, std::memory_order_relaxed);
    int running = 0;
    if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
        double l1, l5, l15;
        int total;
        if (std::fscanf(f, "%lf %lf %lf %d/%d", &l1, &l5, &l15, &running, &total) != 5) running = 0;
        std::fclose(f);
    }
    // Ourselves, and the workers of a region that ended less than a millisecond ago
    // (OpenMP keeps them spinning for a while before they sleep).
    const bool spinning = now - s.last_region_end.load(std::memory_order_relaxed) < 1e-3;
    const int own = 1 + (spinning ? s.last_team.load(std::memory_order_relaxed) - 1 : 0);
    const int others = std::max(0, running - own);
    s.others_running.store(others, std::memory_order_relaxed);
    return others;
}
#endif

/// The threads a region over `elements` elements gets. One below BSX_PARALLEL_THRESHOLD
/// and inside an enclosing parallel region (a user's `omp parallel`: bsx never multiplies
/// threads); otherwise OpenMP's count under set_max_threads and thread_limit. Unless
/// OMP_DYNAMIC is false, also one for a while after a region whose workers started late
/// (the machine is busy: they were waiting for a core, and every region ends at a barrier
/// that waits for the last of them), no more than one per BSX_PARALLEL_THRESHOLD / 2
/// elements, and no more than the cores that other processes leave free.
[[gnu::noinline]] inline int region_threads(index_t elements) noexcept {
#ifdef _OPENMP
    if (elements < BSX_PARALLEL_THRESHOLD || omp_in_parallel()) return 1;
    int n = omp_get_max_threads();
    const thread_state& s = threads();
    if (const int cap = s.cap.load(std::memory_order_relaxed); cap > 0) n = std::min(n, cap);
    if (thread_cap > 0) n = std::min(n, thread_cap);
    if (n > 1 && adapts_to_load()) {
        n = int(std::min<index_t>(n, elements / (BSX_PARALLEL_THRESHOLD / 2)));
        const double now = omp_get_wtime();
        if (now < s.calm_until.load(std::memory_order_relaxed)) return 1;
        n = std::min(n, omp_get_num_procs() - others_running(now));
    }
    return std::max(n, 1);
#else
    (void)elements;
    return 1;
#endif
}

#ifdef _OPENMP
/// Reserves up to `wanted` threads beyond the caller from the budget that all concurrent
/// bsx regions share (the cores, less one each for their callers' own threads); returns
/// how many it got.
inline int reserve_extra_threads(int wanted) noexcept {
    std::atomic<int>& extra = threads().extra_threads;
    const int limit = omp_get_num_procs() - 1;
    int now = extra.load(std::memory_order_relaxed);
    for (;;) {
        const int got = std::max(0, std::min(wanted, limit - now));
        if (got == 0 || extra.compare_exchange_weak(now, now + got, std::memory_order_relaxed)) return got;
    }
}

/// After a region: a worker that started this late was waiting for a core (a worker
/// woken from sleep takes microseconds), so the next regions run on one thread, for a
/// time that doubles while it keeps happening (up to a second) and shrinks when it does
/// not.
[[gnu::noinline]] inline void note_region(double started, double latest_start, int team) noexcept {
    thread_state& s = threads();
    constexpr double late = 200e-6, first_backoff = 10e-3, longest_backoff = 1.0;
    const double end = omp_get_wtime();
    s.last_region_end.store(end, std::memory_order_relaxed);
    s.last_team.store(team, std::memory_order_relaxed);
    double backoff = s.backoff.load(std::memory_order_relaxed);
    if (latest_start - started > late) {
        backoff = std::clamp(backoff * 2, first_backoff, longest_backoff);
        s.calm_until.store(end + backoff, std::memory_order_relaxed);
    } else {
        backoff /= 2;
    }
    s.backoff.store(backoff, std::memory_order_relaxed);
}
#endif

/// Threads bsx regions are running beyond their callers' own, now (for tests).
inline int extra_threads_in_use() noexcept { return threads().extra_threads.load(std::memory_order_relaxed); }

/// A block of work on one thread: [begin, end), and the region's failure flag (null when
/// serial), which a long block looks at to give up early once another thread has failed.
using block_task = function_ref<void(index_t begin, index_t end, const first_exception* errors)>;

/// Runs task(t, n, errors) on each of the n threads of one region (n <= threads, fewer
/// when concurrent regions already use the cores; task(0, 1, nullptr) alone when threads
/// is 1). An exception from any thread reaches the caller as itself, after the region;
/// the other threads see errors->stopped() and give up.
[[gnu::noinline]] inline void parallel_region(int threads,
                                              function_ref<void(int t, int n, const first_exception* errors)> task) {
#ifdef _OPENMP
    if (threads > 1) threads = 1 + reserve_extra_threads(threads - 1);
    if (threads > 1) {
        struct release {
            int extra;
            ~release() { detail::threads().extra_threads.fetch_sub(extra, std::memory_order_relaxed); }
        } const reserved{threads - 1};
        first_exception errors;
        const double started = omp_get_wtime();
        std::atomic<double> latest_start{started};
#pragma omp parallel num_threads(threads)
        {
            const int n = omp_get_num_threads(), t = omp_get_thread_num();
            if (t != 0) {
                const double at = omp_get_wtime();
                double seen = latest_start.load(std::memory_order_relaxed);
                while (at > seen && !latest_start.compare_exchange_weak(seen, at, std::memory_order_relaxed)) {
                }
            }
            errors.run([&] { task(t, n, &errors); });
        }
        if (adapts_to_load()) note_region(started, latest_start.load(std::memory_order_relaxed), threads);
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
/// sizes and the thread count alone, never on timing.
inline void parallel_for(index_t total, int threads, index_t granule, block_task task) {
    if (threads <= 1) return task(0, total, nullptr);
    const index_t units = total / granule;
    parallel_region(threads, [&](int t, int n, const first_exception* errors) {
        task(units * t / n * granule, t + 1 == n ? total : units * (t + 1) / n * granule, errors);
    });
}

}  // namespace detail
}  // namespace bsx
