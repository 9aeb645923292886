// Text files of numbers: 10^5 lines of 10 doubles written as np.savetxt writes them ("%.18e",
// space-separated, 26 MB), at 1 thread (text parsing is serial):
//
//   load_txt   a = bsx::load_txt<double, 2>(file)   (as np.loadtxt(file))
//   save_txt   bsx::save_txt(file, a)                (as np.savetxt(file, a))
//
// Variants (all in this binary so that ratios come from one run):
//   bsx         the line above
//   strtod      the loop a C programmer writes: the file read whole, then std::strtod value
//               after value into a vector, values per line counted at each newline
//   from_chars  the same loop with std::from_chars (what load_txt parses with)
//   snprintf    save_txt's counterpart: snprintf("%.18e") per value into a buffer, fwrite
//
// NumPy's side of the same cases: benchmark/vs_numpy.py.
// Names: BM_<workload>_<variant>/threads:<t>/real_time (parsed by ratios.py).

#include <bsx/bsx.hpp>

#include <benchmark/benchmark.h>

#include "bench_common.hpp"

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

constexpr bsx::index_t lines = 100'000;
constexpr bsx::index_t columns = 10;

const bsx::array<double, 2>& values() {
    static const bsx::array<double, 2> a = [] {
        auto v = bsx::zeros<double>(lines, columns);
        std::mt19937_64 rng(42);
        std::uniform_real_distribution<double> u(-1.0, 1.0);
        for (double& x : v) x = u(rng);
        return v;
    }();
    return a;
}

/// The input file, written once by save_txt (the bytes np.savetxt writes) and removed at exit.
const std::filesystem::path& input() {
    struct file {
        std::filesystem::path path =
            std::filesystem::temp_directory_path() / ("bsx_bench_files_" + std::to_string(::getpid()) + ".txt");
        file() { bsx::save_txt(path, values()); }
        ~file() { std::filesystem::remove(path); }
    };
    static const file f;
    return f.path;
}

std::string read_whole(const std::filesystem::path& path) {
    std::string text(std::filesystem::file_size(path), '\0');
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr || std::fread(text.data(), 1, text.size(), f) != text.size()) std::abort();
    std::fclose(f);
    return text;
}

void count(benchmark::State& state) { state.SetItemsProcessed(state.iterations() * lines * columns); }

void one_thread(benchmark::internal::Benchmark* b) {
    b->ArgName("threads")->Arg(1)->UseRealTime()->Unit(benchmark::kMillisecond);
}

void BM_load_txt_bsx(benchmark::State& state) {
    set_threads(state, 1);
    const auto& path = input();
    for (auto _ : state) {
        auto a = bsx::load_txt<double, 2>(path);
        benchmark::DoNotOptimize(a.data());
    }
    count(state);
}
BENCHMARK(BM_load_txt_bsx)->Apply(one_thread);

/// The hand loop over the whole file; `parse` reads one value at p and returns its end.
template <class Parse>
std::vector<double> hand_load(const std::filesystem::path& path, Parse parse) {
    const std::string text = read_whole(path);
    std::vector<double> v;
    const char* p = text.data();
    const char* const end = p + text.size();
    std::size_t in_line = 0, per_line = 0;
    while (p < end) {
        if (*p == '\n') {
            if (per_line == 0) per_line = in_line;
            if (in_line != per_line) std::abort();
            in_line = 0;
            ++p;
        } else if (*p == ' ') {
            ++p;
        } else {
            double x;
            p = parse(p, end, x);
            v.push_back(x);
            ++in_line;
        }
    }
    return v;
}

void BM_load_txt_strtod(benchmark::State& state) {
    set_threads(state, 1);
    const auto& path = input();
    for (auto _ : state) {
        auto v = hand_load(path, [](const char* p, const char*, double& x) {
            char* stop;
            x = std::strtod(p, &stop);
            return static_cast<const char*>(stop);
        });
        benchmark::DoNotOptimize(v.data());
    }
    count(state);
}
BENCHMARK(BM_load_txt_strtod)->Apply(one_thread);

void BM_load_txt_from_chars(benchmark::State& state) {
    set_threads(state, 1);
    const auto& path = input();
    for (auto _ : state) {
        auto v =
            hand_load(path, [](const char* p, const char* end, double& x) { return std::from_chars(p, end, x).ptr; });
        benchmark::DoNotOptimize(v.data());
    }
    count(state);
}
BENCHMARK(BM_load_txt_from_chars)->Apply(one_thread);

void BM_save_txt_bsx(benchmark::State& state) {
    set_threads(state, 1);
    const auto& a = values();
    const auto path = input().string() + ".out";
    for (auto _ : state) bsx::save_txt(path, a);
    std::filesystem::remove(path);
    count(state);
}
BENCHMARK(BM_save_txt_bsx)->Apply(one_thread);

void BM_save_txt_snprintf(benchmark::State& state) {
    set_threads(state, 1);
    const auto& a = values();
    const auto path = input().string() + ".out";
    std::string buffer;
    for (auto _ : state) {
        buffer.clear();
        char field[40];
        for (bsx::index_t r = 0; r < lines; ++r)
            for (bsx::index_t c = 0; c < columns; ++c) {
                const int n = std::snprintf(field, sizeof field, "%.18e", a(r, c));
                buffer.append(field, std::size_t(n));
                buffer += c + 1 < columns ? ' ' : '\n';
            }
        std::FILE* f = std::fopen(path.c_str(), "wb");
        std::fwrite(buffer.data(), 1, buffer.size(), f);
        std::fclose(f);
    }
    std::filesystem::remove(path);
    count(state);
}
BENCHMARK(BM_save_txt_snprintf)->Apply(one_thread);

}  // namespace

BENCHMARK_MAIN();
