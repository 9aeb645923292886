// libFuzzer target: shapes and rule sets. The input bytes choose a rule set, two or
// three operand shapes (ranks 0-4, extents small, 0, negative or huge) and, for XLA
// broadcast dimensions, a dims list. bsx (broadcast_shapes, broadcast_in_dim) and a
// small reference model of the three rule sets written here must agree on the result
// shape or on the exact error (type and message); any difference aborts.
#include <bsx/bsx.hpp>

#include "fuzz_input.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using bsx::index_t;
using extents = std::vector<index_t>;

// ---------------------------------------------------------------- input decoding
using fuzz::bytes;

index_t extent_from(std::uint8_t b) {
    switch (b % 16) {
        case 10:
            return -1;
        case 11:
            return -7;
        case 12:
            return index_t{1} << 31;
        case 13:
            return index_t{1} << 40;
        case 14:
            return std::numeric_limits<index_t>::max();
        case 15:
            return 1;
        default:
            return b % 16 < 6 ? index_t(b % 16) : index_t(1);  // 0..5, and 1 often
    }
}

// ---------------------------------------------------------------- the reference model
struct outcome {
    std::string error;    // "" (a result), "invalid_argument", "length_error", "broadcast_error"
    std::string message;  // what() of the error
    extents shape;        // the result
};
bool operator==(const outcome& a, const outcome& b) {
    return a.error == b.error && a.message == b.message && a.shape == b.shape;
}

std::string text(const extents& s) {
    std::string out = "(";
    for (std::size_t k = 0; k < s.size(); ++k) out += (k ? "," : "") + std::to_string(s[k]);
    return out + (s.size() == 1 ? ",)" : ")");
}

const char* rule_name(int rules) { return rules == 0 ? "numpy" : rules == 1 ? "octave" : "xla"; }

/// The checks every shape entering bsx goes through: negative extents, then overflow of
/// the product of the non-zero extents (counted in 128 bits here).
std::optional<outcome> entry_check(const std::string& op, const extents& s) {
    for (std::size_t k = 0; k < s.size(); ++k)
        if (s[k] < 0)
            return outcome{"invalid_argument",
                           "bsx: " + op + ": shape " + text(s) + " has the negative extent " + std::to_string(s[k]) +
                               " on axis " + std::to_string(k),
                           {}};
    __int128 product = 1;
    for (index_t e : s)
        if (e != 0) {
            product *= e;
            if (product > std::numeric_limits<index_t>::max())
                return outcome{"length_error",
                               "bsx: " + op + ": shape " + text(s) +
                                   " is too large: its element count exceeds PTRDIFF_MAX (" +
                                   std::to_string(std::numeric_limits<index_t>::max()) + ")",
                               {}};
        }
    return std::nullopt;
}

/// Pads a shape to rank R: NumPy on the left, Octave and XLA on the right.
extents aligned(int rules, const extents& s, std::size_t R) {
    extents out(R, 1);
    const std::size_t shift = rules == 0 ? R - s.size() : 0;
    for (std::size_t k = 0; k < s.size(); ++k) out[k + shift] = s[k];
    return out;
}

outcome model_broadcast(int rules, const std::vector<extents>& shapes) {
    for (const auto& s : shapes)
        if (auto bad = entry_check("broadcast_shapes", s)) return *bad;
    std::size_t R = 0;
    for (const auto& s : shapes) R = std::max(R, s.size());
    std::vector<extents> a;
    for (const auto& s : shapes) a.push_back(aligned(rules, s, R));
    extents result(R, 1);
    for (std::size_t axis = 0; axis < R; ++axis) {
        // the first operand that is not 1 on this axis fixes the extent; the first later
        // one that differs (and is not 1) clashes with it
        std::size_t fixer = shapes.size();
        for (std::size_t i = 0; i < a.size(); ++i) {
            const index_t e = a[i][axis];
            if (e == 1) continue;
            if (fixer == shapes.size()) {
                fixer = i;
                result[axis] = e;
            } else if (e != result[axis]) {
                std::string msg = "bsx: broadcast_shapes: shapes ";
                if (shapes.size() == 2) {
                    msg += text(shapes[0]) + " and " + text(shapes[1]) + " cannot be broadcast under " +
                           rule_name(rules) + " rules: axis " + std::to_string(axis) + " has extents " +
                           std::to_string(a[0][axis]) + " and " + std::to_string(a[1][axis]);
                } else {
                    for (std::size_t j = 0; j < shapes.size(); ++j)
                        msg += (j == 0 ? "" : j + 1 == shapes.size() ? " and " : ", ") + text(shapes[j]);
                    const auto who = [&](std::size_t j) {
                        return std::to_string(a[j][axis]) + " (operand " + std::to_string(j + 1) + ", shape " +
                               text(shapes[j]) + ")";
                    };
                    msg += " cannot be broadcast under " + std::string(rule_name(rules)) + " rules: axis " +
                           std::to_string(axis) + " has extents " + who(fixer) + " and " + who(i);
                }
                return {"broadcast_error", msg, {}};
            }
        }
    }
    if (auto bad = entry_check("broadcast_shapes", result)) return *bad;
    return {"", "", result};
}

/// XLA broadcast_in_dim of an operand of shape s to `target` with `dims`.
outcome model_in_dim(const extents& s, const extents& target, const std::vector<index_t>& dims) {
    const std::size_t R = target.size();
    std::string dims_text = "{";
    for (std::size_t i = 0; i < dims.size(); ++i) dims_text += (i ? ", " : "") + std::to_string(dims[i]);
    dims_text += "}";
    const std::string head = "bsx: broadcast_in_dim: broadcast dimensions " + dims_text + " for an operand of shape " +
                             text(s) + " at rank " + std::to_string(R) + " are invalid under xla rules: ";
    if (dims.size() != s.size())
        return {"broadcast_error",
                head + "there must be one dimension per operand axis (" + std::to_string(s.size()) + "), not " +
                    std::to_string(dims.size()),
                {}};
    for (std::size_t i = 0; i < dims.size(); ++i) {
        const std::string entry = "dims[" + std::to_string(i) + "] = " + std::to_string(dims[i]);
        if (dims[i] < 0 || dims[i] >= index_t(R))
            return {"broadcast_error",
                    head + entry + " is out of range: each dimension must lie in [0, " + std::to_string(R) + ")",
                    {}};
        if (i > 0 && dims[i] <= dims[i - 1])
            return {"broadcast_error",
                    head + entry + " does not exceed dims[" + std::to_string(i - 1) +
                        "] = " + std::to_string(dims[i - 1]) + ": dimensions must be strictly increasing",
                    {}};
    }
    if (auto bad = entry_check("broadcast_in_dim", target)) return *bad;
    extents placed(R, 1);
    for (std::size_t i = 0; i < dims.size(); ++i) placed[std::size_t(dims[i])] = s[i];
    for (std::size_t axis = 0; axis < R; ++axis)
        if (placed[axis] != 1 && placed[axis] != target[axis])
            return {"broadcast_error",
                    "bsx: broadcast_in_dim: shape " + text(placed) + " cannot be broadcast to the destination shape " +
                        text(target) + " under xla rules: axis " + std::to_string(axis) + " has extent " +
                        std::to_string(placed[axis]) + " where the destination has " + std::to_string(target[axis]),
                    {}};
    return {"", "", target};
}

// ---------------------------------------------------------------- running bsx
template <class F>
outcome observe(F&& f) {
    try {
        return {"", "", f()};
    } catch (const bsx::broadcast_error& e) {
        return {"broadcast_error", e.what(), {}};
    } catch (const std::invalid_argument& e) {
        return {"invalid_argument", e.what(), {}};
    } catch (const std::length_error& e) {
        return {"length_error", e.what(), {}};
    }
}

template <std::size_t N>
bsx::shape_t<N> to_shape(const extents& s) {
    bsx::shape_t<N> out{};
    for (std::size_t k = 0; k < N; ++k) out[k] = s[k];
    return out;
}
template <std::size_t N>
extents to_extents(const bsx::shape_t<N>& s) {
    return extents(s.begin(), s.end());
}

/// Calls f with std::integral_constant<std::size_t, r> for r < Max (a run-time rank made static).
template <std::size_t Max, class F, std::size_t R = 0>
auto with_rank(std::size_t r, F&& f) {
    if constexpr (R + 1 < Max) {
        if (r != R) return with_rank<Max, F, R + 1>(r, std::forward<F>(f));
    }
    return f(std::integral_constant<std::size_t, R>{});
}

template <class Rules>
outcome bsx_broadcast(const std::vector<extents>& s) {
    return observe([&] {
        if (s.size() == 2)
            return with_rank<5>(s[0].size(), [&](auto A) {
                return with_rank<5>(s[1].size(), [&](auto B) {
                    if constexpr (Rules::aligns(std::min(A(), B()), std::max(A(), B())))
                        return to_extents(bsx::broadcast_shapes<Rules>(to_shape<A>(s[0]), to_shape<B>(s[1])));
                    else
                        return extents{-99};  // does not compile under xla rules: never asked
                });
            });
        return with_rank<4>(s[0].size(), [&](auto A) {
            return with_rank<4>(s[1].size(), [&](auto B) {
                return with_rank<4>(s[2].size(), [&](auto C) {
                    constexpr std::size_t R = std::max({A(), B(), C()});
                    if constexpr (Rules::aligns(A, R) && Rules::aligns(B, R) && Rules::aligns(C, R))
                        return to_extents(
                            bsx::broadcast_shapes<Rules>(to_shape<A>(s[0]), to_shape<B>(s[1]), to_shape<C>(s[2])));
                    else
                        return extents{-99};
                });
            });
        });
    });
}

outcome bsx_in_dim(const extents& s, const extents& target, const std::vector<index_t>& dims) {
    return observe([&] {
        return with_rank<3>(s.size(), [&](auto N) {
            return with_rank<4>(target.size(), [&](auto M) {
                if constexpr (N() > M()) {
                    return extents{-99};
                } else {
                    const bsx::array<float, N> x(to_shape<N>(s));
                    std::array<index_t, N> d{};
                    for (std::size_t i = 0; i < N; ++i) d[i] = dims[i];
                    return to_extents(bsx::broadcast_in_dim(x, to_shape<M>(target), d).shape());
                }
            });
        });
    });
}

[[noreturn]] void mismatch(const char* what, const outcome& want, const outcome& got) {
    std::fprintf(stderr, "%s mismatch\n  model: [%s] %s %s\n  bsx:   [%s] %s %s\n", what, want.error.c_str(),
                 want.message.c_str(), text(want.shape).c_str(), got.error.c_str(), got.message.c_str(),
                 text(got.shape).c_str());
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    bytes in{data, size};
    const std::uint8_t mode = in.next();
    const int rules = mode % 3;
    if (mode / 3 % 4 != 3) {
        // broadcast_shapes of two or three shapes
        const std::size_t count = mode / 3 % 4 == 2 ? 3 : 2;
        std::vector<extents> shapes;
        for (std::size_t i = 0; i < count; ++i) {
            extents s(in.next() % (count == 2 ? 5 : 4));
            for (auto& e : s) e = extent_from(in.next());
            shapes.push_back(s);
        }
        std::size_t R = 0;
        for (const auto& s : shapes) R = std::max(R, s.size());
        if (rules == 2)
            for (const auto& s : shapes)
                if (s.size() != R && !s.empty()) return 0;  // XLA without dims: does not compile
        const outcome want = model_broadcast(rules, shapes);
        const outcome got = rules == 0   ? bsx_broadcast<bsx::numpy_rules>(shapes)
                            : rules == 1 ? bsx_broadcast<bsx::octave_rules>(shapes)
                                         : bsx_broadcast<bsx::xla_rules>(shapes);
        if (!(want == got)) mismatch("broadcast_shapes", want, got);
    } else {
        // broadcast_in_dim: an operand of rank 0-2 (a valid, small array) placed at rank <= 3
        extents s(in.next() % 3);
        for (auto& e : s) e = index_t(in.next() % 4);
        extents target(in.next() % 4);
        for (auto& e : target) e = extent_from(in.next());
        if (s.size() > target.size()) return 0;
        std::vector<index_t> dims(s.size());
        for (auto& d : dims) d = index_t(in.next() % 6) - 1;  // -1..4: out of range both ways
        const outcome want = model_in_dim(s, target, dims);
        const outcome got = bsx_in_dim(s, target, dims);
        if (!(want == got)) mismatch("broadcast_in_dim", want, got);
    }
    return 0;
}
