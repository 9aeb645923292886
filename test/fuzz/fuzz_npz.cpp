// libFuzzer target: the .npz and text readers. The input bytes are written to a file, opened
// with bsx::load_npz, and every member is read as double (rank 2), int16 (rank 1) and bool
// (rank 0); then the same file is read with bsx::load_txt as double (rank 2) and int32
// (rank 1). The contract (api.md): a damaged archive, a member of another dtype or rank, or
// text that is not numbers throws std::runtime_error; anything else that escapes (another
// exception, a crash, a read out of bounds under ASan) is a failure. A member that loads
// must survive a save_npz_compressed / load_npz round trip unchanged.
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

const std::filesystem::path& scratch(int k) {
    static const std::filesystem::path dir = std::filesystem::temp_directory_path();
    static std::filesystem::path paths[2];
    if (paths[k].empty())
        paths[k] = dir / ("bsx_fuzz_npz_" + std::to_string(::getpid()) + (k == 0 ? "_in.npz" : "_out.npz"));
    return paths[k];
}

template <class T, std::size_t N>
void try_member(const bsx::npz_file& f, const std::string& name) {
    bsx::array<T, N> a;
    try {
        a = f.get<T, N>(name);
    } catch (const std::runtime_error&) {
        return;  // rejected, as the contract says
    }
    bsx::save_npz_compressed(scratch(1), {{"m", a}});
    const auto back = bsx::load_npz(scratch(1)).get<T, N>("m");
    if (back.shape() != a.shape() ||
        (a.size() > 0 && std::memcmp(back.data(), a.data(), std::size_t(a.size()) * sizeof(T)) != 0))
        std::abort();
}

template <class T, std::size_t N>
void try_text(const std::filesystem::path& file) {
    try {
        (void)bsx::load_txt<T, N>(file);
    } catch (const std::runtime_error&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto& file = scratch(0);
    {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    try {
        const auto f = bsx::load_npz(file);
        for (const auto& name : f.names()) {
            try_member<double, 2>(f, name);
            try_member<std::int16_t, 1>(f, name);
            try_member<bool, 0>(f, name);
        }
    } catch (const std::runtime_error&) {
    }
    try_text<double, 2>(file);
    try_text<std::int32_t, 1>(file);
    return 0;
}
