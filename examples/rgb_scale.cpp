// Scaling the three colour channels of an RGB image by three different factors,
// the example from GNU Octave's broadcasting chapter:
//
//   Octave:  img .*= permute([0.8, 0.9, 1.2], [1, 3, 2]);     % img is rows x cols x 3
//   NumPy:   img *= np.array([0.8, 0.9, 1.2])                   # img.shape == (rows, cols, 3)
//
// Both are written below with bsx, once under Octave rules and once under NumPy rules,
// and each is checked against a plain triple loop.
//
// Usage: rgb_scale [rows cols]      (default: 480 640)
// Prints a few pixels before and after. Exit code 1 if a bsx result differs from the loop.

#include <bsx/bsx.hpp>

#include "arguments.hpp"

#include <cstddef>
#include <exception>
#include <iostream>
#include <string>

namespace {

// A deterministic test image of shape (rows, cols, 3), values 0..255.
bsx::array<double, 3> make_image(bsx::index_t rows, bsx::index_t cols) {
    bsx::array<double, 3> img = bsx::zeros<double>(rows, cols, 3);
    for (bsx::index_t r = 0; r < rows; ++r)
        for (bsx::index_t c = 0; c < cols; ++c)
            for (bsx::index_t ch = 0; ch < 3; ++ch) img(r, c, ch) = double((7 * r + 3 * c + 85 * ch) % 256);
    return img;
}

void print_pixel(const char* label, const bsx::array<double, 3>& img, bsx::index_t r, bsx::index_t c) {
    std::cout << "  " << label << " pixel (" << r << ", " << c << "): [" << img(r, c, 0) << ", " << img(r, c, 1) << ", "
              << img(r, c, 2) << "]\n";
}

// Number of elements where `got` and `want` differ (both are the same product of the
// same two doubles, so they must agree exactly).
bsx::index_t count_mismatches(const bsx::array<double, 3>& got, const bsx::array<double, 3>& want) {
    bsx::index_t bad = 0;
    for (auto g = got.begin(), w = want.begin(); g != got.end(); ++g, ++w) bad += *g != *w;
    return bad;
}

}  // namespace

int main(int argc, char** argv) {
    bsx::index_t rows = 480, cols = 640;
    if (argc != 1 &&
        (argc != 3 || !examples::parse_number(argv[1], 1, rows) || !examples::parse_number(argv[2], 1, cols))) {
        std::cerr << "usage: rgb_scale [rows cols]   (both >= 1; default 480 640)\n";
        return 2;
    }

    const bsx::array<double, 3> original = make_image(rows, cols);
    const double factor[3] = {0.8, 0.9, 1.2};

    // --- the reference: a plain loop ------------------------------------------
    bsx::array<double, 3> expected = original;
    for (bsx::index_t r = 0; r < rows; ++r)
        for (bsx::index_t c = 0; c < cols; ++c)
            for (bsx::index_t ch = 0; ch < 3; ++ch) expected(r, c, ch) *= factor[ch];

    // --- Octave rules -----------------------------------------------------------
    // Octave's [0.8, 0.9, 1.2] is a 1 x 3 matrix. Under Octave rules a shorter shape is
    // padded with 1s at the END, so the 1 x 3 row would meet the (rows, cols, 3) image as
    // (1, 3, 1): its 3 would line up with the columns, not the channels. That is why the
    // Octave line calls permute(w, [1, 3, 2]): it reads w as 1 x 3 x 1 and swaps the last
    // two axes, giving 1 x 1 x 3. bsx::permute only reorders existing axes, so the same
    // placement is written with bsx::in_dims<3>(w, {0, 2}): axis 0 of w (extent 1) goes to
    // axis 0, axis 1 of w (the three factors) to axis 2, the channel axis, and axis 1 gets
    // extent 1 -- exactly where permute puts them. (A strided view; nothing is copied.)
    const bsx::array<double, 2> w{{0.8, 0.9, 1.2}};      // shape (1,3), Octave's row vector
    const auto w_channels = bsx::in_dims<3>(w, {0, 2});  // shape (1,1,3)

    bsx::array<double, 3> img_octave = original;
    img_octave *= bsx::with_rules<bsx::octave_rules>(w_channels);

    std::cout << "image " << rows << " x " << cols << " x 3, factors [0.8, 0.9, 1.2]\n";
    std::cout << "Octave rules: img *= with_rules<octave_rules>(in_dims<3>(w, {0, 2})), w of shape "
              << bsx::format_shape(w.shape()) << " placed as " << bsx::format_shape(w_channels.shape()) << '\n';

    // Without the permute, Octave rules put the factors on the column axis: an error
    // unless the image happens to have 3 columns.
    bsx::array<double, 3> scratch = original;
    try {
        scratch *= bsx::with_rules<bsx::octave_rules>(w);
        std::cout << "  without in_dims: accepted, because cols == 3 -- and it scaled the columns, not the channels\n";
    } catch (const bsx::broadcast_error& e) {
        std::cout << "  without in_dims: " << e.what() << '\n';
    }

    // --- NumPy rules (the default) ---------------------------------------------
    // A (3,) vector is padded with 1s at the FRONT: (1, 1, 3), already the channel axis.
    const bsx::array<double, 1> v{0.8, 0.9, 1.2};
    bsx::array<double, 3> img_numpy = original;
    img_numpy *= v;
    std::cout << "NumPy rules:  img *= v, v of shape " << bsx::format_shape(v.shape()) << '\n';

    // --- a few pixels, and the checks --------------------------------------------
    const bsx::index_t pixels[3][2] = {{0, 0}, {rows / 2, cols / 2}, {rows - 1, cols - 1}};
    for (const auto& p : pixels) {
        print_pixel("before      ", original, p[0], p[1]);
        print_pixel("Octave rules", img_octave, p[0], p[1]);
        print_pixel("NumPy rules ", img_numpy, p[0], p[1]);
        print_pixel("plain loop  ", expected, p[0], p[1]);
    }

    const bsx::index_t bad_octave = count_mismatches(img_octave, expected);
    const bsx::index_t bad_numpy = count_mismatches(img_numpy, expected);
    if (bad_octave != 0 || bad_numpy != 0) {
        std::cout << "rgb_scale: MISMATCH against the plain loop: " << bad_octave << " (Octave rules) and " << bad_numpy
                  << " (NumPy rules) of " << expected.size() << " elements\n";
        return 1;
    }
    std::cout << "rgb_scale: both versions match the plain loop on all " << expected.size() << " elements\n";
    return 0;
}
