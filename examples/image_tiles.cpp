// A seamless tile from an image, as a NumPy user writes it:
//
//   NumPy  p = np.pad(img, 8, mode='reflect')                       # borders mirrored
//          half = np.concatenate([p, np.flip(p, 1)], axis=1)        # mirrored side by side
//          tile = np.concatenate([half, np.flip(half, 0)], axis=0)  # and upside down
//          shifted = np.roll(tile, w // 3, axis=1)
//          np.savez_compressed(path, image=img, tile=tile, shifted=shifted)
//   bsx    the same names; each line is one lazy node, and `tile` is assigned in one pass
//          from the image: no padded or half-size array is ever stored.
//
// The image is a smooth synthetic one (sines of the pixel coordinates). Every pixel of the
// tile and of the shifted tile is checked against plain index arithmetic, and the archive
// (where bsx has zlib, BSX_HAVE_ZLIB) is read back and compared; exit code 1 if a check fails.
//
// Usage: image_tiles [height width]      (both >= 9, the pad's width + 1; default 120 160)

#include <bsx/bsx.hpp>

#include "arguments.hpp"

#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>

namespace {

using bsx::index_t;
constexpr index_t border = 8;

// NumPy's 'reflect' index: the edge itself is not repeated.
index_t reflect(index_t i, index_t n) {
    if (i < 0) return -i;
    if (i >= n) return 2 * (n - 1) - i;
    return i;
}

}  // namespace

int main(int argc, char** argv) {
    index_t h = 120, w = 160;
    if (argc != 1 && (argc != 3 || !examples::parse_number(argv[1], border + 1, h) ||
                      !examples::parse_number(argv[2], border + 1, w))) {
        std::cerr << "usage: image_tiles [height width]   (both >= 9; default 120 160)\n";
        return 2;
    }
    const auto rows = bsx::in_dims<2>(bsx::arange<double>(0, double(h)), {0});  // (h, 1)
    const auto cols = bsx::in_dims<2>(bsx::arange<double>(0, double(w)), {1});  // (1, w)
    const bsx::array<double, 2> img = bsx::sin(rows / 7.0) * bsx::cos(cols / 11.0) + rows / double(h);

    const auto padded = bsx::pad(img, {{border, border}, {border, border}}, bsx::pad_reflect);
    const auto half = bsx::concatenate(padded, bsx::flip(padded, 1), 1);
    const bsx::array<double, 2> tile = bsx::concatenate(half, bsx::flip(half, 0), 0);
    const bsx::array<double, 2> shifted = bsx::roll(tile, w / 3, 1);

    // The same pixels by index arithmetic.
    const index_t ph = h + 2 * border, pw = w + 2 * border;
    index_t failures = 0;
    const auto expect = [&](const char* what, index_t i, index_t j, double got, double want) {
        if (got != want && ++failures <= 5)
            std::cerr << "image_tiles: " << what << "(" << i << ", " << j << ") is " << got << ", expected " << want
                      << '\n';
    };
    for (index_t i = 0; i < 2 * ph; ++i)
        for (index_t j = 0; j < 2 * pw; ++j) {
            const index_t pi = i < ph ? i : 2 * ph - 1 - i, pj = j < pw ? j : 2 * pw - 1 - j;  // the flips
            expect("tile", i, j, tile(i, j), img(reflect(pi - border, h), reflect(pj - border, w)));
            expect("shifted", i, j, shifted(i, (j + w / 3) % (2 * pw)), tile(i, j));
        }
    std::cout << "image " << h << " x " << w << " -> tile " << tile.extent(0) << " x " << tile.extent(1) << '\n';

#if defined(BSX_HAVE_ZLIB)
    const std::string path = (std::filesystem::temp_directory_path() / "bsx_image_tiles.npz").string();
    try {
        bsx::save_npz_compressed(path, {{"image", img}, {"tile", tile}, {"shifted", shifted}});
        const bsx::npz_file archive = bsx::load_npz(path);
        const bool same = bsx::array_equal(archive.get<double, 2>("image"), img) &&
                          bsx::array_equal(archive.get<double, 2>("tile"), tile) &&
                          bsx::array_equal(archive.get<double, 2>("shifted"), shifted);
        if (!same && ++failures) std::cerr << "image_tiles: " << path << " does not read back as written\n";
        std::cout << "saved and read back " << path << " (" << std::filesystem::file_size(path) << " bytes)\n";
    } catch (const std::exception& e) {
        std::cerr << "image_tiles: " << e.what() << '\n';
        ++failures;
    }
    std::remove(path.c_str());
#else
    std::cout << "(no zlib: the .npz archive is not written)\n";
#endif
    if (failures != 0) {
        std::cerr << "image_tiles: " << failures << " check(s) failed\n";
        return 1;
    }
    std::cout << "image_tiles: every pixel matches the index arithmetic\n";
    return 0;
}
