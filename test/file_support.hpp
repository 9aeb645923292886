// test/file_support.hpp: what the tests of bsx's files share: a scratch directory per test,
// a file's bytes, and the check that a load or save failed with a message naming the file.
#pragma once

#include <boost/test/unit_test.hpp>

#include "test_support.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <stdexcept>
#include <string>
#include <system_error>

namespace test_support {

/// A fresh scratch directory, removed at the end of the test.
struct scratch_dir {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("bsx_test_files_" + std::to_string(std::random_device{}()));
    scratch_dir() { std::filesystem::create_directories(path); }
    ~scratch_dir() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
};

inline std::string file_bytes(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

/// Runs f, which must throw std::runtime_error whose message names `file` and contains `fault`.
template <class F>
void expect_failure(F&& f, const std::filesystem::path& file, const std::string& fault) {
    const std::string m = message_of<std::runtime_error>(f);
    BOOST_TEST(m.find(file.string()) != std::string::npos, "message: '" << m << "' does not name " << file);
    BOOST_TEST(m.find(fault) != std::string::npos, "message: '" << m << "' lacks '" << fault << "'");
}

}  // namespace test_support
