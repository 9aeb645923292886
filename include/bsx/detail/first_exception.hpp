// bsx/detail/first_exception.hpp: carrying an exception out of an OpenMP parallel
// region, which an exception must not leave (the program would terminate). Each thread
// runs its share through run(); the first exception is kept, the other threads see
// stopped() and give up at their next check, and rethrow() raises it after the region.
#pragma once

#include <atomic>
#include <exception>

namespace bsx::detail {

class first_exception {
public:
    /// Runs f unless another thread has failed already; an exception from f is kept.
    template <class F>
    void run(F&& f) noexcept {
        if (stopped()) return;
        try {
            f();
        } catch (...) {
            if (!claimed_.exchange(true)) error_ = std::current_exception();
            stop_.store(true, std::memory_order_relaxed);
        }
    }
    /// Whether some thread failed: its work and everyone else's should stop.
    bool stopped() const noexcept { return stop_.load(std::memory_order_relaxed); }
    /// After the region (whose closing barrier makes error_ visible): the first exception, if any.
    void rethrow() const {
        if (error_) std::rethrow_exception(error_);
    }

private:
    std::atomic<bool> stop_{false};
    std::atomic<bool> claimed_{false};
    std::exception_ptr error_;
};

}  // namespace bsx::detail
