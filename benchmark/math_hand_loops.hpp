// benchmark/math_hand_loops.hpp: hand-written loops for bench_math.cpp, compiled apart
// (math_hand_loops.cpp) with -fno-math-errno.
#pragma once

/// r[i][j] = sqrt(x[i]^2 + y[j]^2) for an n x n r, rows shared among OpenMP threads.
void hand_hypot_outer(const double* x, const double* y, double* r, long n);

/// Whether hand_sum_exp runs glibc's AVX-512 vector exp (the binary is built for AVX-512).
bool hand_sum_exp_available() noexcept;

/// The sum of exp(x[i]) through glibc's vector exp, 8 lanes at a time.
double hand_sum_exp(const double* x, long n);
