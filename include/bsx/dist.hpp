// bsx/dist.hpp: the optional distributed module (CMake target bsx::dist, needs MPI):
// bsx::dist::array split along axis 0 over an MPI communicator, assignment of the same
// expressions as on one machine, reductions, scatter/gather and .npy files.
#pragma once

#include "bsx.hpp"
#include "dist/agree.hpp"
#include "dist/array.hpp"
#include "dist/assign.hpp"
#include "dist/factories.hpp"
#include "dist/npy.hpp"
#include "dist/partition.hpp"
#include "dist/reductions.hpp"
#include "dist/scatter_gather.hpp"
#include "dist/tree.hpp"
