// bsx/version.hpp: the library's version. This header is its one source: CMake reads the
// three numbers below into its project version, so the CMake package and bsx.pc carry the
// same one (keep each on its own line, as `#define BSX_VERSION_<PART> <number>`).
#pragma once

#define BSX_VERSION_MAJOR 0
#define BSX_VERSION_MINOR 1
#define BSX_VERSION_PATCH 0

/// One number that orders versions: MAJOR * 10000 + MINOR * 100 + PATCH (0.1.0 is 100), for
/// `#if BSX_VERSION >= ...`.
#define BSX_VERSION (BSX_VERSION_MAJOR * 10000 + BSX_VERSION_MINOR * 100 + BSX_VERSION_PATCH)
