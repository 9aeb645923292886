// The bsx side of the NumPy round trip (check_numpy.py drives it):
//   npy_tool copy <list>   each line "dtype rank in out": load_npy<dtype, rank>(in), then save_npy(out, ...)
//   npy_tool make <dir>    writes a few expressions whose values check_numpy.py recomputes with NumPy
#include <bsx/bsx.hpp>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

namespace {

template <class T, std::size_t... N>
bool copy_as(int rank, const std::filesystem::path& in, const std::filesystem::path& out, std::index_sequence<N...>) {
    return ((rank == int(N) ? (bsx::save_npy(out, bsx::load_npy<T, N>(in)), true) : false) || ...);
}

template <class T>
bool copy(int rank, const std::filesystem::path& in, const std::filesystem::path& out) {
    return copy_as<T>(rank, in, out, std::make_index_sequence<5>{});
}

bool copy_file(const std::string& dtype, int rank, const std::filesystem::path& in, const std::filesystem::path& out) {
    if (dtype == "bool") return copy<bool>(rank, in, out);
    if (dtype == "int8") return copy<std::int8_t>(rank, in, out);
    if (dtype == "int16") return copy<std::int16_t>(rank, in, out);
    if (dtype == "int32") return copy<std::int32_t>(rank, in, out);
    if (dtype == "int64") return copy<std::int64_t>(rank, in, out);
    if (dtype == "uint8") return copy<std::uint8_t>(rank, in, out);
    if (dtype == "uint16") return copy<std::uint16_t>(rank, in, out);
    if (dtype == "uint32") return copy<std::uint32_t>(rank, in, out);
    if (dtype == "uint64") return copy<std::uint64_t>(rank, in, out);
    if (dtype == "float32") return copy<float>(rank, in, out);
    if (dtype == "float64") return copy<double>(rank, in, out);
    return false;
}

void make(const std::filesystem::path& dir) {
    const auto numbers = bsx::arange<double>(24);
    const auto cube = bsx::reshape<3>(numbers, {2, 3, 4});
    bsx::save_npy(dir / "transpose_f8.npy", bsx::transpose(cube) * 0.5);
    bsx::save_npy(dir / "multiple_of_3_bool.npy", bsx::arange<int>(10) % 3 == 0);
    bsx::save_npy(dir / "thousands_u16.npy", bsx::cast<std::uint16_t>(bsx::arange<int>(7) * 1000));
    bsx::save_npy(dir / "all_i8.npy", bsx::cast<std::int8_t>(bsx::arange<int>(256) - 128));
    bsx::save_npy(dir / "scalar_f4.npy", bsx::array<float, 0>(3.25f));
}

}  // namespace

int main(int argc, char** argv) try {
    const std::string mode = argc == 3 ? argv[1] : "";
    if (mode == "make") {
        make(argv[2]);
        return 0;
    }
    if (mode != "copy") {
        std::fprintf(stderr, "usage: npy_tool copy <list> | npy_tool make <dir>\n");
        return 2;
    }
    std::ifstream list(argv[2]);
    std::string dtype, in, out;
    int rank = 0, copied = 0;
    while (list >> dtype >> rank >> in >> out) {
        if (!copy_file(dtype, rank, in, out)) {
            std::fprintf(stderr, "npy_tool: no dtype %s of rank %d\n", dtype.c_str(), rank);
            return 2;
        }
        ++copied;
    }
    std::printf("npy_tool: %d files copied\n", copied);
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "npy_tool: %s\n", e.what());
    return 1;
}
