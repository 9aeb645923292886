// libFuzzer target: the .npy reader. The input bytes are written to a file and read back
// with bsx::load_npy as double (rank 2), int16 (rank 1) and bool (rank 3). The contract
// (api.md): a file that is malformed, or of another dtype or rank, throws
// std::runtime_error; anything else that escapes (another exception, a crash, a read out
// of bounds under ASan) is a failure. A file that loads must hold exactly the elements
// its shape says, and must survive a save_npy / load_npy round trip unchanged.
#include <bsx/bsx.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <unistd.h>

namespace {

const std::filesystem::path& scratch(const char* what) {
    static const std::filesystem::path dir = std::filesystem::temp_directory_path();
    static std::filesystem::path paths[2];
    const int k = std::strcmp(what, "in") == 0 ? 0 : 1;
    if (paths[k].empty()) paths[k] = dir / ("bsx_fuzz_npy_" + std::to_string(::getpid()) + "_" + what + ".npy");
    return paths[k];
}

template <class T, std::size_t N>
void try_load(const std::filesystem::path& file) {
    bsx::array<T, N> a;
    try {
        a = bsx::load_npy<T, N>(file);
    } catch (const std::runtime_error&) {
        return;  // rejected, as the contract says
    }
    bsx::save_npy(scratch("out"), a);
    const auto back = bsx::load_npy<T, N>(scratch("out"));
    if (back.shape() != a.shape() ||
        (a.size() > 0 && std::memcmp(back.data(), a.data(), std::size_t(a.size()) * sizeof(T)) != 0))
        std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto& file = scratch("in");
    {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    try_load<double, 2>(file);
    try_load<std::int16_t, 1>(file);
    try_load<bool, 3>(file);
    return 0;
}
