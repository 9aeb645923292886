// Floyd-Warshall over MPI: the same one line per step as examples/floyd_warshall.cpp, on a
// distance matrix whose rows are split over the ranks (bsx::dist::array).
//
//   for (k...) dist = bsx::min(dist, dist.col(k) + dist.row(k));
//
// Each step broadcasts row k from the rank that holds it (n doubles) and updates every
// rank's rows locally; nothing else is communicated.
//
// Usage: mpirun -np P floyd_warshall_mpi [n] [--single T1,T2,...]   (default n = 1000)
// The result is gathered on rank 0 and compared with the single-process bsx version run
// there (exit code 1 if they differ). With --single, the single-process version is timed
// with each listed OpenMP thread count while the other ranks sleep (they do not spin); run
// it under `mpirun --bind-to none`, or OpenMPI binds rank 0, and all its threads, to one core.

#include <bsx/dist.hpp>

#include "random_graph.hpp"

#include <chrono>
#include <cstdint>
#include <exception>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Waits for every rank of `comm` without spinning: ranks that wait for rank 0's
/// single-process timings then leave its cores alone.
void sleeping_barrier(MPI_Comm comm) {
    MPI_Request request;
    MPI_Ibarrier(comm, &request);
    for (int done = 0; MPI_Test(&request, &done, MPI_STATUS_IGNORE), !done;)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
}

/// The single-process version, with `threads` OpenMP threads (0: as OMP_NUM_THREADS says).
bsx::array<double, 2> single_process(bsx::array<double, 2> dist, int threads, double& seconds) {
#ifdef _OPENMP
    const int before = omp_get_max_threads();
    if (threads > 0) omp_set_num_threads(threads);
#else
    (void)threads;
#endif
    const auto start = std::chrono::steady_clock::now();
    for (bsx::index_t k = 0; k < dist.extent(0); ++k) dist = bsx::min(dist, dist.col(k) + dist.row(k));
    seconds = seconds_since(start);
#ifdef _OPENMP
    omp_set_num_threads(before);
#endif
    return dist;
}

int run(int argc, char** argv) {
    const int rank = bsx::dist::detail::rank_in(MPI_COMM_WORLD);
    const int ranks = bsx::dist::detail::size_of(MPI_COMM_WORLD);
    bsx::index_t n = 1000;
    std::vector<int> single_threads;
    for (int a = 1; a < argc; ++a) {
        const std::string arg = argv[a];
        if (arg == "--single" && a + 1 < argc) {
            std::istringstream list(argv[++a]);
            for (std::string t; std::getline(list, t, ',');) single_threads.push_back(std::stoi(t));
        } else {
            n = std::stol(arg);
        }
    }

    // --- distributed: scatter the graph from rank 0, run, gather ---------------------
    const bsx::array<double, 2> graph = rank == 0 ? examples::random_graph(n, 42) : bsx::array<double, 2>{};
    auto dist = bsx::dist::scatter(graph);
    MPI_Barrier(MPI_COMM_WORLD);
    const auto bytes_before = bsx::dist::bytes_communicated();
    const auto start = std::chrono::steady_clock::now();
    for (bsx::index_t k = 0; k < n; ++k) dist = bsx::min(dist, dist.col(k) + dist.row(k));
    MPI_Barrier(MPI_COMM_WORLD);
    const double t_dist = seconds_since(start);
    const auto bytes_per_step = double(bsx::dist::bytes_communicated() - bytes_before) / double(n > 0 ? n : 1);
    const bsx::array<double, 2> result = bsx::dist::gather(dist);

    // --- single process on rank 0, the others asleep ---------------------------------
    int status = 0;
    if (rank == 0) {
#ifdef _OPENMP
        const int threads = omp_get_max_threads();
#else
        const int threads = 1;
#endif
        std::cout << "n = " << n << ": distributed over " << ranks << " rank(s) x " << threads
                  << " thread(s): " << t_dist << " s; bytes broadcast per step by this rank: " << bytes_per_step << " ("
                  << bytes_per_step / 8.0 << " doubles)\n";
        double seconds = 0;
        const auto reference = single_process(graph, 0, seconds);
        bsx::index_t mismatches = 0;
        for (bsx::index_t i = 0; i < result.size(); ++i) mismatches += result.data()[i] != reference.data()[i];
        if (mismatches != 0) {
            std::cerr << "floyd_warshall_mpi: n = " << n << ": the distributed and single-process results differ in "
                      << mismatches << " of " << n * n << " entries\n";
            status = 1;
        } else {
            std::cout << "results identical to the single-process run\n";
        }
        for (const int t : single_threads) {
            (void)single_process(graph, t, seconds);
            std::cout << "n = " << n << ": single process, " << t << " thread(s): " << seconds << " s\n";
        }
    }
    sleeping_barrier(MPI_COMM_WORLD);
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return status;
}

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int status = 2;
    try {
        status = run(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "floyd_warshall_mpi: " << e.what() << "\n";
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Finalize();
    return status;
}
