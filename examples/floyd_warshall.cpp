// Floyd-Warshall all-pairs shortest paths, written the way you would write it in
// Octave or NumPy -- one line per step -- and checked against a plain triple loop.
//
//   Octave:  for k = 1:n, dist = min(dist, dist(:,k) + dist(k,:)); end
//   NumPy:   for k in range(n): dist = np.minimum(dist, dist[:, k, None] + dist[None, k, :])
//   bsx:     for (k...) dist = bsx::min(dist, dist.col(k) + dist.row(k));
//
// Usage: floyd_warshall [n ...]      (default: one run with n = 1000)
// For each n the program builds a random weighted directed graph, runs both
// versions, checks that they agree exactly, and prints both times.
// Exit code 1 if the results differ.

#include <bsx/bsx.hpp>

#include "random_graph.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace {

using examples::inf;
using examples::random_graph;

// The reference: the textbook triple loop on a plain row-major std::vector.
void floyd_warshall_plain(std::vector<double>& d, bsx::index_t n) {
    for (bsx::index_t k = 0; k < n; ++k)
        for (bsx::index_t i = 0; i < n; ++i)
            for (bsx::index_t j = 0; j < n; ++j) d[i * n + j] = std::min(d[i * n + j], d[i * n + k] + d[k * n + j]);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<bsx::index_t> sizes;
    for (int a = 1; a < argc; ++a) {
        const std::string arg = argv[a];
        std::size_t used = 0;
        bsx::index_t n = -1;
        try {
            n = std::stol(arg, &used);
        } catch (const std::exception&) {
        }
        if (n < 0 || used != arg.size()) {
            std::cerr << "usage: floyd_warshall [n ...]   (n >= 0; default 1000), not '" << arg << "'\n";
            return 2;
        }
        sizes.push_back(n);
    }
    if (sizes.empty()) sizes.push_back(1000);

#ifdef _OPENMP
    const int threads = omp_get_max_threads();  // set with OMP_NUM_THREADS
#else
    const int threads = 1;  // built without OpenMP
#endif

    for (const bsx::index_t n : sizes) {
        bsx::array<double, 2> dist = random_graph(n, 42);

        // A copy of the same graph for the plain loop, as a flat row-major vector.
        std::vector<double> plain(dist.data(), dist.data() + dist.size());

        // --- bsx: one line per step ------------------------------------------
        // dist.col(k) has shape (n, 1) and dist.row(k) has shape (1, n), so their
        // sum broadcasts to the (n, n) "outer sum" dist(i, k) + dist(k, j).
        // Nothing is computed until the assignment; the assignment then runs one
        // fused (and, above a size threshold, OpenMP-parallel) pass over dist.
        // dist is read on the right-hand side. dist itself is read at the element
        // being written, and col(k) at (i, k), read when row i starts and before any
        // of it is written: neither needs a copy. row(k) is read by every row, so bsx
        // copies it (n values) before writing: the result is the one NumPy or Octave
        // gives.
        auto start = std::chrono::steady_clock::now();
        for (bsx::index_t k = 0; k < n; ++k) dist = bsx::min(dist, dist.col(k) + dist.row(k));
        const double t_bsx = seconds_since(start);

        // --- the plain triple loop (serial) -----------------------------------
        start = std::chrono::steady_clock::now();
        floyd_warshall_plain(plain, n);
        const double t_plain = seconds_since(start);

        // --- both must agree exactly: same operations in the same order -------
        bsx::index_t mismatches = 0, connected = 0;
        for (bsx::index_t i = 0; i < n; ++i)
            for (bsx::index_t j = 0; j < n; ++j) {
                mismatches += dist(i, j) != plain[i * n + j];
                connected += dist(i, j) != inf;
            }
        if (mismatches != 0) {
            std::cerr << "floyd_warshall: n = " << n << ": bsx and the plain loop differ in " << mismatches << " of "
                      << n * n << " entries\n";
            return 1;
        }

        std::cout << "n = " << n << ": bsx " << t_bsx << " s, plain loop " << t_plain
                  << " s (plain/bsx = " << t_plain / t_bsx << "), OpenMP threads: " << threads
                  << ", connected pairs: " << connected << " of " << n * n << ", results identical\n";
    }
    return 0;
}
