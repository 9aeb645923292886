// The bsx side of the NumPy round trip (check_numpy.py drives it):
//   npy_tool copy <list>   each line "dtype rank in out": load_npy<dtype, rank>(in), then save_npy(out, ...)
//   npy_tool print <list>  each line "dtype rank in": load_npy, then std::cout << it, then a line "@@"
//   npy_tool make <dir>    writes a few expressions whose values check_numpy.py recomputes with NumPy
#include <bsx/bsx.hpp>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <type_traits>
#include <utility>

namespace {

/// Loads `in` as load_npy<T, rank> and hands the array to f (ranks 0 to 4).
template <class T, class F, std::size_t... N>
bool visit_as(int rank, const std::filesystem::path& in, F& f, std::index_sequence<N...>) {
    return ((rank == int(N) ? (f(bsx::load_npy<T, N>(in)), true) : false) || ...);
}

/// The same for a dtype named as NumPy names it; false for an unknown dtype or rank.
template <class F>
bool visit(const std::string& dtype, int rank, const std::filesystem::path& in, F&& f) {
    const auto as = [&]<class T>(std::type_identity<T>) {
        return visit_as<T>(rank, in, f, std::make_index_sequence<5>{});
    };
    if (dtype == "bool") return as(std::type_identity<bool>{});
    if (dtype == "int8") return as(std::type_identity<std::int8_t>{});
    if (dtype == "int16") return as(std::type_identity<std::int16_t>{});
    if (dtype == "int32") return as(std::type_identity<std::int32_t>{});
    if (dtype == "int64") return as(std::type_identity<std::int64_t>{});
    if (dtype == "uint8") return as(std::type_identity<std::uint8_t>{});
    if (dtype == "uint16") return as(std::type_identity<std::uint16_t>{});
    if (dtype == "uint32") return as(std::type_identity<std::uint32_t>{});
    if (dtype == "uint64") return as(std::type_identity<std::uint64_t>{});
    if (dtype == "float32") return as(std::type_identity<float>{});
    if (dtype == "float64") return as(std::type_identity<double>{});
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
    if (mode != "copy" && mode != "print") {
        std::fprintf(stderr, "usage: npy_tool copy <list> | npy_tool print <list> | npy_tool make <dir>\n");
        return 2;
    }
    std::ifstream list(argv[2]);
    std::string dtype, in, out;
    int rank = 0;
    while (list >> dtype >> rank >> in) {
        bool known = false;
        if (mode == "copy") {
            list >> out;
            known = visit(dtype, rank, in, [&](const auto& a) { bsx::save_npy(out, a); });
        } else {
            known = visit(dtype, rank, in, [](const auto& a) { std::cout << a << "\n@@\n"; });
        }
        if (!known) {
            std::fprintf(stderr, "npy_tool: no dtype %s of rank %d\n", dtype.c_str(), rank);
            return 2;
        }
    }
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "npy_tool: %s\n", e.what());
    return 1;
}
