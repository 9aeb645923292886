// Concurrency from user code (issue 10): bsx called from the user's own threads.
//   * several std::threads evaluating different expressions (element-wise, reductions,
//     nested reductions, user functions) over shared read-only operands at once;
//   * std::threads whose user functions throw: each gets its own exception;
//   * an assignment inside the user's `omp parallel` region (runs serially in that
//     thread, as designed), when compiled with OpenMP.
// Results are compared with the same expressions evaluated first on one thread. The
// `tsan` preset builds this file with ThreadSanitizer (clang, OpenMP off).
#define BOOST_TEST_MODULE bsx_user_threads
#include <boost/test/unit_test.hpp>

#include <bsx/bsx.hpp>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace {

using bsx::index_t;

constexpr index_t rows = 64, cols = 600;  // 38400 elements: above the parallel threshold

/// The shared, read-only operands.
struct operands {
    bsx::array<double, 2> a = bsx::zeros<double>(rows, cols);
    bsx::array<double, 1> v = bsx::zeros<double>(cols);
    bsx::array<int, 2> k = bsx::zeros<int>(rows, cols);
    operands() {
        for (index_t i = 0; i < rows; ++i)
            for (index_t j = 0; j < cols; ++j) {
                a(i, j) = double((i * 37 + j * 11) % 101) / 8.0 - 6.0;
                k(i, j) = int((i * 13 + j * 7) % 23) - 11;
            }
        for (index_t j = 0; j < cols; ++j) v(j) = double(j % 17) / 4.0;
    }
};

/// Expression number `which` over the operands, evaluated into a fresh array.
bsx::array<double, 2> evaluate(const operands& in, int which) {
    const auto& [a, v, k] = in;
    switch (which % 6) {
        case 0:
            return bsx::eval(a * v + 1.0);
        case 1:
            return bsx::eval(bsx::where(a > v, a - v, bsx::cast<double>(k)));
        case 2:
            return bsx::eval(a - bsx::mean(a, bsx::axis(1), bsx::keepdims));  // nested reduction
        case 3:
            return bsx::eval(bsx::sum(bsx::abs(a - bsx::max(a, bsx::axis(0), bsx::keepdims)), bsx::axis(1),
                                      bsx::keepdims) *
                             v);  // reduction of a reduction
        case 4:
            return bsx::eval(bsx::map([](double x, int y) { return x * y - 0.5; }, a, k));
        default:
            return bsx::eval(bsx::cast<double>(k / (k % 5) + k * k));  // integer faults, defined
    }
}

}  // namespace

BOOST_AUTO_TEST_CASE(std_threads_share_read_only_operands) {
    const operands in;
    std::vector<bsx::array<double, 2>> expected;
    for (int w = 0; w < 6; ++w) expected.push_back(evaluate(in, w));
    constexpr int threads = 4, rounds = 3;
    std::vector<int> mismatches(threads, 0);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            for (int r = 0; r < rounds; ++r)
                for (int w = 0; w < 6; ++w) {
                    const int which = w + t;  // the threads run different expressions at once
                    const auto got = evaluate(in, which);
                    const auto& want = expected[std::size_t(which % 6)];
                    if (got.shape() != want.shape()) {
                        ++mismatches[std::size_t(t)];
                        continue;
                    }
                    for (index_t i = 0; i < got.size(); ++i)
                        if (got.data()[i] != want.data()[i]) {
                            ++mismatches[std::size_t(t)];
                            break;
                        }
                }
        });
    for (auto& th : pool) th.join();
    for (int t = 0; t < threads; ++t) BOOST_TEST(mismatches[std::size_t(t)] == 0, "thread " << t);
}

BOOST_AUTO_TEST_CASE(std_threads_get_their_own_exceptions) {
    const operands in;
    constexpr int threads = 4;
    std::vector<std::string> caught(threads);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            try {
                bsx::array<double, 2> r = bsx::map(
                    [t](double x) {
                        if (x > 5.0) throw std::runtime_error("thread " + std::to_string(t));
                        return x;
                    },
                    in.a);
            } catch (const std::runtime_error& e) {
                caught[std::size_t(t)] = e.what();
            }
        });
    for (auto& th : pool) th.join();
    for (int t = 0; t < threads; ++t) BOOST_TEST(caught[std::size_t(t)] == "thread " + std::to_string(t));
}

BOOST_AUTO_TEST_CASE(assignment_inside_a_user_parallel_region) {
    const operands in;
    const auto expected = evaluate(in, 0);
    bsx::array<double, 2> rowwise = bsx::zeros<double>(rows, cols);
    std::vector<bsx::array<double, 2>> whole(8);
    // Each thread writes its own rows through a view, and evaluates a whole expression
    // above the parallel threshold into its own array: bsx runs serially in that thread.
#ifdef _OPENMP
#pragma omp parallel num_threads(2)
#endif
    {
#ifdef _OPENMP
        const int t = omp_get_thread_num(), n = omp_get_num_threads();
#else
        const int t = 0, n = 1;
#endif
        for (index_t i = t; i < rows; i += n) rowwise.row(i) = in.a.row(i) * in.v + 1.0;
        whole[std::size_t(t)] = evaluate(in, 0);
    }
    for (index_t i = 0; i < rows; ++i)
        for (index_t j = 0; j < cols; ++j) BOOST_TEST_REQUIRE(rowwise(i, j) == expected(i, j));
    BOOST_TEST((whole[0].shape() == expected.shape()));
    BOOST_TEST(std::equal(whole[0].begin(), whole[0].end(), expected.begin()));
}
