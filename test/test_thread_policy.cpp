// The thread policy of eval/parallel.hpp (issue 33): bsx inside a user's `omp parallel`
// region runs on the calling thread; concurrent callers share the cores; set_max_threads
// and thread_limit cap the threads; a region whose workers started late makes the next
// ones run on one thread. Results are checked against plain loops; nothing is timed. This
// test runs with bsx's adaptation on (the other unit tests turn it off, test/CMakeLists.txt).
#define BOOST_TEST_MODULE bsx_thread_policy
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace {

using bsx::index_t;

constexpr index_t rows = 300, cols = 400;  // 120000 elements: above the parallel threshold

bsx::array<double, 2> ramp() {
    bsx::array<double, 2> a(bsx::shape_t<2>{rows, cols});
    for (index_t i = 0; i < rows; ++i)
        for (index_t j = 0; j < cols; ++j) a(i, j) = double(i * cols + j) / 7.0;
    return a;
}

/// Every element of r is 2 a + 1.
void check_doubled(const bsx::array<double, 2>& r, const bsx::array<double, 2>& a) {
    for (index_t i = 0; i < rows; ++i)
        for (index_t j = 0; j < cols; ++j)
            if (r(i, j) != 2 * a(i, j) + 1) BOOST_FAIL("element (" << i << ", " << j << ") differs");
}

/// The largest team an element of the last assignment saw, and the deepest nesting.
struct team_seen {
    std::atomic<int> largest{0}, deepest{0};
    void note() {
#ifdef _OPENMP
        const int n = omp_get_num_threads(), level = omp_get_level();
        for (int seen = largest.load(); n > seen && !largest.compare_exchange_weak(seen, n);) {
        }
        for (int seen = deepest.load(); level > seen && !deepest.compare_exchange_weak(seen, level);) {
        }
#endif
    }
};

}  // namespace

BOOST_AUTO_TEST_CASE(inside_a_user_parallel_region_bsx_runs_on_the_calling_thread) {
    const bsx::array<double, 2> a = ramp();
    team_seen seen;
    std::vector<bsx::array<double, 2>> results(4);
#ifdef _OPENMP
#pragma omp parallel num_threads(2)
    {
        const int t = omp_get_thread_num(), n = omp_get_num_threads();
#else
    {
        const int t = 0, n = 1;
#endif
        for (int round = t; round < 4; round += n)
            results[std::size_t(round)] = bsx::map(
                [&](double x) {
                    seen.note();
                    return 2 * x + 1;
                },
                a);
    }
    for (const auto& r : results) check_doubled(r, a);
#ifdef _OPENMP
    BOOST_TEST(seen.deepest.load() == 1);  // the user's region only: bsx opened none inside it
    BOOST_TEST(seen.largest.load() <= 2);
#endif
}

BOOST_AUTO_TEST_CASE(concurrent_callers_share_the_cores) {
    const bsx::array<double, 2> a = ramp();
    std::atomic<int> most_extra{0};
    std::vector<bsx::array<double, 2>> results(8);
    std::vector<std::thread> callers;
    for (std::size_t t = 0; t < results.size(); ++t)
        callers.emplace_back([&, t] {
            for (int round = 0; round < 3; ++round)
                results[t] = bsx::map(
                    [&](double x) {
                        const int extra = bsx::detail::extra_threads_in_use();
                        for (int seen = most_extra.load();
                             extra > seen && !most_extra.compare_exchange_weak(seen, extra);) {
                        }
                        return 2 * x + 1;
                    },
                    a);
        });
    for (auto& c : callers) c.join();
    for (const auto& r : results) check_doubled(r, a);
#ifdef _OPENMP
    // Workers beyond the callers' own threads: never more than the cores leave.
    BOOST_TEST(most_extra.load() <= std::max(0, omp_get_num_procs() - 1));
#endif
    BOOST_TEST(bsx::detail::extra_threads_in_use() == 0);
}

BOOST_AUTO_TEST_CASE(thread_limit_and_set_max_threads_cap_the_team) {
    const bsx::array<double, 2> a = ramp();
    const auto doubled = [&](team_seen& seen) {
        return bsx::array<double, 2>(bsx::map(
            [&](double x) {
                seen.note();
                return 2 * x + 1;
            },
            a));
    };
    {
        team_seen seen;
        const bsx::thread_limit one(1);
        check_doubled(doubled(seen), a);
        BOOST_TEST(seen.largest.load() <= 1);
        {
            const bsx::thread_limit more(4);  // an outer, lower cap still holds
            team_seen inner;
            check_doubled(doubled(inner), a);
            BOOST_TEST(inner.largest.load() <= 1);
        }
    }
    {
        bsx::set_max_threads(1);
        team_seen seen;
        check_doubled(doubled(seen), a);
        bsx::set_max_threads(0);
        BOOST_TEST(seen.largest.load() <= 1);
    }
    BOOST_CHECK_THROW(bsx::set_max_threads(-1), std::invalid_argument);
    BOOST_CHECK_THROW(bsx::thread_limit(0), std::invalid_argument);
    // A reduction obeys the same caps.
    const bsx::thread_limit one(1);
    BOOST_TEST(bsx::sum(bsx::map([](double x) { return x > 0 ? 1.0 : 0.0; }, a)) == double(rows * cols - 1));
}

#ifdef _OPENMP
BOOST_AUTO_TEST_CASE(a_region_with_late_workers_makes_the_next_ones_serial) {
    if (omp_get_max_threads() < 2 || omp_get_num_procs() < 2) return;  // nothing to adapt
    const index_t big = 1 << 22;
    // A worker that started 5 ms after its region: the next regions run on one thread,
    // unless OMP_DYNAMIC=false turned the adaptation off (as CTest does for the other tests).
    const double now = omp_get_wtime();
    bsx::detail::note_region(now - 0.01, now - 0.005, 2);
    if (bsx::detail::adapts_to_load())
        BOOST_TEST(bsx::detail::region_threads(big) == 1);
    else
        BOOST_TEST(bsx::detail::region_threads(big) > 1);
    // The caps and the nesting rule hold whatever the load.
    BOOST_TEST(bsx::detail::region_threads(BSX_PARALLEL_THRESHOLD - 1) == 1);
}
#endif
