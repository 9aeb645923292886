// libFuzzer target: expression trees. The input bytes fill a small memory pool and
// choose the result shape, four leaf views into the pool (any strides, including 0 for
// broadcasting and negative ones), the operation at each node, the tree's form and the
// destination: a new array, an array of the right or of a wrong shape, a strided view
// into the same pool (so the destination overlaps what the leaves read), or `+=` into
// such a view. bsx's result is compared with a naive element-by-element evaluation of
// the same tree on a snapshot of the pool; the whole pool is compared, so a write out
// of place is caught too. Any difference aborts.
//
// bsx types are static, so the tree shapes are a few fixed templates (maps whose
// operation is chosen at run time from bsx::ops, and a where/min/+ tree of the real
// operators, and a nested reduction); the run-time choices are everything else.
#include <bsx/bsx.hpp>

#include "fuzz_input.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using bsx::index_t;
constexpr index_t pool_size = 64;

using fuzz::bytes;

/// A binary operation chosen at run time among bsx's own scalar operations.
struct any_op {
    int code;
    double operator()(double a, double b) const {
        switch (code % 14) {
            case 0:
                return bsx::ops::plus{}(a, b);
            case 1:
                return bsx::ops::minus{}(a, b);
            case 2:
                return bsx::ops::multiplies{}(a, b);
            case 3:
                return bsx::ops::divides{}(a, b);
            case 4:
                return bsx::ops::minimum{}(a, b);
            case 5:
                return bsx::ops::maximum{}(a, b);
            case 6:
                return bsx::ops::fmin{}(a, b);
            case 7:
                return bsx::ops::fmax{}(a, b);
            case 8:
                return bsx::ops::mod{}(a, b);
            case 9:
                return bsx::ops::rem{}(a, b);
            case 10:
                return bsx::ops::less{}(a, b);
            case 11:
                return bsx::ops::negate{}(a);  // unary: the right operand is ignored
            case 12:
                return bsx::ops::abs{}(b);
            default:
                return bsx::ops::square{}(a);
        }
    }
};

/// Where a 2-D view lies in the pool.
struct placement {
    index_t offset = 0;
    std::array<index_t, 2> shape{}, strides{};
    index_t at(index_t i, index_t j) const {  // extent-1 axes broadcast
        return offset + (shape[0] == 1 ? 0 : i) * strides[0] + (shape[1] == 1 ? 0 : j) * strides[1];
    }
};

/// Places a view of `shape` with strides drawn from the bytes, inside the pool (stride 0
/// broadcasts). Destinations (`injective`) never map two indices to one element.
placement place(bytes& in, std::array<index_t, 2> shape, bool injective) {
    placement p;
    p.shape = shape;
    const std::uint8_t how = in.next();
    switch (how % 6) {
        case 0:
            p.strides = {shape[1], 1};
            break;  // row-major
        case 1:
            p.strides = {1, shape[0]};
            break;  // column-major
        case 2:
            p.strides = {-shape[1], -1};
            break;  // reversed both ways
        case 3:
            p.strides = {2 * shape[1], 2};
            break;  // every other element
        case 4:
            p.strides = {shape[1] + 1, -1};
            break;  // rows padded, reversed within a row
        default:
            p.strides = {injective ? shape[1] : 0, injective ? 1 : index_t(how / 6 % 3)};
            break;  // broadcast
    }
    index_t lo = 0, hi = 0;
    for (int k = 0; k < 2; ++k) {
        const index_t reach = (shape[k] - 1) * p.strides[k];
        (reach < 0 ? lo : hi) += reach;
    }
    const index_t room = pool_size - (hi - lo);
    if (room <= 0) return place(in, shape, injective);  // cannot happen for extents <= 5; kept total
    p.offset = -lo + index_t(in.next()) % room;
    return p;
}

bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

[[noreturn]] void mismatch(const char* what, index_t i, double want, double got) {
    std::fprintf(stderr, "%s: element %ld: want %.17g, bsx gave %.17g\n", what, static_cast<long>(i), want, got);
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    bytes in{data, size};
    const std::array<index_t, 2> drawn{index_t(in.next() % 6), index_t(in.next() % 6)};  // 0..5: empty too
    bsx::array<double, 1> pool(bsx::shape_t<1>{pool_size});
    for (double& v : pool) {
        const std::uint8_t b = in.next();
        v = b == 255 ? NAN : b == 254 ? -INFINITY : double(int(b % 17) - 8) / 2.0;  // exact halves
    }
    // four leaves: each axis either the result's extent or 1 (broadcast)
    std::array<placement, 4> leaf;
    std::array<index_t, 2> shape{1, 1};  // the result: the drawn extent where some leaf has it
    for (auto& l : leaf) {
        const std::uint8_t b = in.next();
        l = place(in, {b & 1 ? drawn[0] : 1, b & 2 ? drawn[1] : 1}, false);
        for (std::size_t k = 0; k < 2; ++k)
            if (l.shape[k] != 1) shape[k] = l.shape[k];
    }
    std::array<any_op, 3> op{any_op{in.next()}, any_op{in.next()}, any_op{in.next()}};
    const int form = in.next() % 3;
    // A sum is pairwise in bsx and sequential here: the summed values must be exact (halves,
    // their products and remainders are), so a sum of them is the same in any order.
    if (form == 2 && op[0].code % 14 == 3) op[0].code = 2;
    const int destination = in.next() % 5;
    const auto axis = static_cast<std::size_t>(in.next() % 2);
    if (form == 2)  // sum(op0(L0, L1), axis, keepdims) * L2 + L3: along `axis` only L2 and L3 count
        shape[axis] = leaf[2].shape[axis] != 1 ? leaf[2].shape[axis] : leaf[3].shape[axis];
    const placement dest = place(in, shape, true);

    // ---- the naive evaluation, on a snapshot of the pool
    const std::vector<double> before(pool.begin(), pool.end());
    const auto value = [&](int l, index_t i, index_t j) { return before[std::size_t(leaf[std::size_t(l)].at(i, j))]; };
    std::vector<double> want(std::size_t(shape[0] * shape[1]));
    std::vector<double> reduced(std::size_t(axis == 0 ? shape[1] : shape[0]), 0.0);
    if (form == 2) {  // sum over `axis` of op0(L0, L1), pairwise in bsx: inputs are halves, sums exact
        const index_t m = leaf[0].shape[axis] != 1 ? leaf[0].shape[axis] : leaf[1].shape[axis];
        for (std::size_t o = 0; o < reduced.size(); ++o)
            for (index_t t = 0; t < m; ++t) {
                const index_t i = axis == 0 ? t : index_t(o), j = axis == 0 ? index_t(o) : t;
                reduced[o] += op[0](value(0, i, j), value(1, i, j));
            }
    }
    for (index_t i = 0; i < shape[0]; ++i)
        for (index_t j = 0; j < shape[1]; ++j) {
            double r;
            if (form == 0) {
                r = op[2](op[0](value(0, i, j), value(1, i, j)), op[1](value(2, i, j), value(3, i, j)));
            } else if (form == 1) {
                r = value(0, i, j) < value(1, i, j)
                        ? value(2, i, j) + value(3, i, j)
                        : bsx::ops::minimum{}(value(0, i, j), value(3, i, j)) - value(1, i, j);
            } else {
                r = reduced[std::size_t(axis == 0 ? j : i)] * value(2, i, j) + value(3, i, j);
            }
            want[std::size_t(i * shape[1] + j)] = r;
        }

    // ---- bsx
    const auto view = [&](int l) {
        const placement& p = leaf[std::size_t(l)];
        return bsx::adapt(static_cast<const double*>(pool.data()) + p.offset, bsx::shape_t<2>{p.shape[0], p.shape[1]},
                          bsx::shape_t<2>{p.strides[0], p.strides[1]});
    };
    const auto l0 = view(0), l1 = view(1), l2 = view(2), l3 = view(3);
    const auto run = [&](auto&& write) {
        if (form == 0) {
            write(bsx::map(op[2], bsx::map(op[0], l0, l1), bsx::map(op[1], l2, l3)));
        } else if (form == 1) {
            write(bsx::where(l0 < l1, l2 + l3, bsx::min(l0, l3) - l1));
        } else {
            const auto s = bsx::sum(bsx::map(op[0], l0, l1), bsx::axis(index_t(axis)), bsx::keepdims);
            // an empty reduced axis gives a sum of nothing: 0, as the reference
            write(s * l2 + l3);
        }
    };
    const auto out_view = bsx::adapt(pool.data() + dest.offset, bsx::shape_t<2>{shape[0], shape[1]},
                                     bsx::shape_t<2>{dest.strides[0], dest.strides[1]});
    std::vector<double> got;
    if (destination <= 2) {
        run([&](auto&& e) {
            bsx::array<double, 2> r;
            if (destination == 0) {
                r = bsx::array<double, 2>(e);  // construction
            } else {
                // an array of the right shape (assigned in place) or a wrong one (resized)
                r = bsx::array<double, 2>(destination == 1 ? bsx::shape_t<2>{shape[0], shape[1]}
                                                           : bsx::shape_t<2>{7, 1});
                r = e;
            }
            if (r.shape() != bsx::shape_t<2>{shape[0], shape[1]}) std::abort();
            got.assign(r.begin(), r.end());
        });
        for (std::size_t i = 0; i < want.size(); ++i)
            if (!same(want[i], got[i])) mismatch("result", index_t(i), want[i], got[i]);
        for (index_t i = 0; i < pool_size; ++i)  // reading never writes
            if (!same(before[std::size_t(i)], pool(i)))
                mismatch("pool (read only)", i, before[std::size_t(i)], pool(i));
    } else {
        // the destination overlaps the leaves: value semantics (as if evaluated first)
        std::vector<double> expected = before;
        for (index_t i = 0; i < shape[0]; ++i)
            for (index_t j = 0; j < shape[1]; ++j) {
                double& slot = expected[std::size_t(dest.at(i, j))];
                const double w = want[std::size_t(i * shape[1] + j)];
                slot = destination == 3 ? w : bsx::ops::plus{}(slot, w);
            }
        run([&](auto&& e) {
            auto target = out_view;
            if (destination == 3)
                target = e;
            else
                target += e;
        });
        for (index_t i = 0; i < pool_size; ++i)
            if (!same(expected[std::size_t(i)], pool(i)))
                mismatch("pool after assignment", i, expected[std::size_t(i)], pool(i));
    }
    return 0;
}
