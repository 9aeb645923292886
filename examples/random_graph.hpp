// examples/random_graph.hpp: the random weighted directed graph both Floyd-Warshall examples
// start from (floyd_warshall.cpp on one process, floyd_warshall_mpi.cpp over MPI).
#pragma once

#include <bsx/bsx.hpp>

#include <cstdint>
#include <limits>
#include <random>

namespace examples {

constexpr double inf = std::numeric_limits<double>::infinity();

// A random directed graph with n vertices as an n x n distance matrix:
// dist(i, j) is the weight of the edge i -> j, +infinity where there is no edge,
// and 0 on the diagonal. Each edge exists with probability 0.1 and has a weight
// in [1, 100). With about 0.1 * n out-edges per vertex, almost every pair of
// vertices ends up connected by some path once the algorithm has run.
inline bsx::array<double, 2> random_graph(bsx::index_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);  // fixed seed: every run sees the same graph
    std::bernoulli_distribution has_edge(0.1);
    std::uniform_real_distribution<double> weight(1.0, 100.0);

    bsx::array<double, 2> dist = bsx::zeros<double>(n, n);
    for (bsx::index_t i = 0; i < n; ++i)
        for (bsx::index_t j = 0; j < n; ++j)
            if (i != j) dist(i, j) = has_edge(rng) ? weight(rng) : inf;
    return dist;
}

}  // namespace examples
