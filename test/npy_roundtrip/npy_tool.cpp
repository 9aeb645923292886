// The bsx side of the NumPy round trip (check_numpy.py drives it):
//   npy_tool copy <list>   each line "dtype rank in out": load_npy<dtype, rank>(in), then save_npy(out, ...)
//   npy_tool print <list>  each line "dtype rank in": load_npy, then std::cout << it, then a line "@@"
//   npy_tool npz <list>    each line "dtype rank in.npz member out": load_npz(in).get<dtype, rank>(member),
//                          then save_npy(out, ...)
//   npy_tool txt <list>    each line "in out": load_txt<double, 2>(in), then save_txt(out, ...)
//   npy_tool make <dir>    writes a few expressions (.npy, .npz and text files) whose values check_numpy.py
//                          recomputes with NumPy
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

/// Loads an array with load.template operator()<T, rank>() and hands it to f (ranks 0 to 4).
template <class T, class Load, class F, std::size_t... N>
bool visit_as(int rank, Load& load, F& f, std::index_sequence<N...>) {
    return ((rank == int(N) ? (f(load.template operator()<T, N>()), true) : false) || ...);
}

/// The same for a dtype named as NumPy names it; false for an unknown dtype or rank.
template <class Load, class F>
bool visit(const std::string& dtype, int rank, Load&& load, F&& f) {
    const auto as = [&]<class T>(std::type_identity<T>) {
        return visit_as<T>(rank, load, f, std::make_index_sequence<5>{});
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
#ifdef BSX_HAVE_ZLIB
    for (const bool deflate : {false, true}) {
        const auto save = deflate ? &bsx::save_npz_compressed : &bsx::save_npz;
        save(dir / (deflate ? "deflated.npz" : "stored.npz"),
             {{"transpose_f8", bsx::transpose(cube) * 0.5},
              {"multiple_of_3_bool", bsx::arange<int>(10) % 3 == 0},
              {"all_i8", bsx::cast<std::int8_t>(bsx::arange<int>(256) - 128)},
              {"scalar_f4", bsx::array<float, 0>(3.25f)},
              {"empty_u32", bsx::zeros<std::uint32_t>(0, 3)},
              {"long_i64", bsx::arange<std::int64_t>(300000) * 7 - 5},
              {"temp\xc3\xa9rature_f8", bsx::arange<double>(3)}});  // a UTF-8 name
    }
#endif
    bsx::save_txt(dir / "thirds.txt", bsx::reshape<2>(numbers, {4, 6}) / 3.0);
    bsx::save_txt(dir / "thirds.csv", bsx::reshape<2>(numbers, {4, 6}) / 3.0, ',');
}

}  // namespace

int main(int argc, char** argv) try {
    const std::string mode = argc == 3 ? argv[1] : "";
    if (mode == "make") {
        make(argv[2]);
        return 0;
    }
    if (mode != "copy" && mode != "print" && mode != "npz" && mode != "txt") {
        std::fprintf(stderr, "usage: npy_tool copy|print|npz|txt <list> | npy_tool make <dir>\n");
        return 2;
    }
    std::ifstream list(argv[2]);
    std::string dtype, in, member, out;
    int rank = 0;
    if (mode == "txt") {
        while (list >> in >> out) bsx::save_txt(out, bsx::load_txt<double, 2>(in));
        return 0;
    }
    while (list >> dtype >> rank >> in) {
        const auto load_npy = [&]<class T, std::size_t N>() { return bsx::load_npy<T, N>(in); };
        bool known = false;
        if (mode == "copy") {
            list >> out;
            known = visit(dtype, rank, load_npy, [&](const auto& a) { bsx::save_npy(out, a); });
        } else if (mode == "npz") {
#ifdef BSX_HAVE_ZLIB
            list >> member >> out;
            const auto load_member = [&]<class T, std::size_t N>() { return bsx::load_npz(in).get<T, N>(member); };
            known = visit(dtype, rank, load_member, [&](const auto& a) { bsx::save_npy(out, a); });
#else
            std::fprintf(stderr, "npy_tool: built without zlib: no .npz files\n");
            return 77;
#endif
        } else {
            known = visit(dtype, rank, load_npy, [](const auto& a) { std::cout << a << "\n@@\n"; });
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
