// bsx/dist/tree.hpp: rewriting an expression that reads distributed arrays into an ordinary
// bsx expression: the element-wise nodes are rebuilt around new leaves, each distributed
// leaf replaced by what a policy makes of it (this rank's block, a fetched row, a gathered
// whole), each reduction of a distributed expression by what the policy makes of its result,
// each replicated operand by what the policy makes of that.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include <boost/hana/for_each.hpp>
#include <boost/hana/tuple.hpp>

#include "../detail/refusals.hpp"
#include "../expr/map_node.hpp"
#include "../expr/scalar.hpp"
#include "../expr/with_rules.hpp"
#include "../reduce/reduce_node.hpp"
#include "array.hpp"

namespace bsx::dist::detail {

template <class E>
struct is_distributed_leaf : std::false_type {};
template <class T, std::size_t N>
struct is_distributed_leaf<array<T, N>> : std::true_type {};
template <class T, std::size_t Axis>
struct is_distributed_leaf<line_view<T, Axis>> : std::true_type {};

template <class E>
struct is_row_view : std::false_type {};
template <class T>
struct is_row_view<row_view<T>> : std::true_type {};

template <class E>
struct is_line_view : std::false_type {};
template <class T, std::size_t Axis>
struct is_line_view<line_view<T, Axis>> : std::true_type {};

template <class E>
struct is_scalar_node : std::false_type {};
template <class T>
struct is_scalar_node<scalar<T>> : std::true_type {};

template <class E>
struct is_map_node : std::false_type {};
template <class Op, class... Held>
struct is_map_node<map_node<Op, Held...>> : std::true_type {};

template <class E>
struct is_reduce_node : std::false_type {};
template <class Op, class Held, bool KeepDims>
struct is_reduce_node<reduce_node<Op, Held, KeepDims>> : std::true_type {};

template <class E>
struct is_rules_tagged : std::false_type {};
template <rule_set R, class Held>
struct is_rules_tagged<rules_tagged<R, Held>> : std::true_type {
    using rules = R;
};

template <class E>
constexpr bool reads_distributed() noexcept;

template <class... Held>
constexpr bool any_reads_distributed(const boost::hana::tuple<Held...>*) noexcept {
    return (reads_distributed<bsx::detail::unwrapped_t<Held>>() || ...);
}

/// Whether node X reads a distributed array through the operands it holds outside
/// children() (its operand_types, expr/node.hpp: an assembly node's pieces).
template <class X>
constexpr bool lists_distributed_operand() noexcept {
    if constexpr (requires { typename X::operand_types; })
        return any_reads_distributed(static_cast<const typename X::operand_types*>(nullptr));
    else
        return false;
}

/// Whether expression E reads a distributed array anywhere in its tree.
template <class E>
constexpr bool reads_distributed() noexcept {
    using X = std::remove_cvref_t<E>;
    if constexpr (is_distributed_leaf<X>::value)
        return true;
    else if constexpr (requires(const X& x) { x.children(); })
        return lists_distributed_operand<X>() ||
               any_reads_distributed(
                   static_cast<const std::remove_cvref_t<decltype(std::declval<const X&>().children())>*>(nullptr));
    else
        return false;
}

/// The first node of E's tree (E itself first, then its children's trees left to right)
/// that reads a distributed array through its operand_types, as a null pointer to it; a
/// null void* where there is none. The rewrite cannot reach those operands to make this
/// rank's part of them.
template <class E>
constexpr auto first_assembling_node() noexcept;

template <class... Held>
constexpr auto first_assembling_node_in(const boost::hana::tuple<Held...>*) noexcept {
    const void* none = nullptr;
    if constexpr (sizeof...(Held) == 0) {
        return none;
    } else {
        return []<class Head, class... Tail>(const boost::hana::tuple<Head, Tail...>*) {
            constexpr auto head = first_assembling_node<bsx::detail::unwrapped_t<Head>>();
            if constexpr (std::is_same_v<decltype(head), const void* const>)
                return first_assembling_node_in(static_cast<const boost::hana::tuple<Tail...>*>(nullptr));
            else
                return head;
        }(static_cast<const boost::hana::tuple<Held...>*>(nullptr));
    }
}

template <class E>
constexpr auto first_assembling_node() noexcept {
    using X = std::remove_cvref_t<E>;
    const void* none = nullptr;
    if constexpr (is_distributed_leaf<X>::value || !reads_distributed<X>())
        return none;
    else if constexpr (lists_distributed_operand<X>())
        return static_cast<const X*>(nullptr);
    else
        return first_assembling_node_in(
            static_cast<const std::remove_cvref_t<decltype(std::declval<const X&>().children())>*>(nullptr));
}

/// Whether a node of E's tree reads a distributed array through its operand_types.
template <class E>
constexpr bool assembles_distributed() noexcept {
    return !std::is_same_v<decltype(first_assembling_node<E>()), const void*>;
}

/// The refusal of assembly node Node over distributed arrays (false): one error per node
/// type, however many reductions (var's two) or assignments read it.
template <class Node>
constexpr bool refuse_assembly() noexcept {
    static_assert(sizeof(Node) == 0, BSX_REFUSAL_DISTRIBUTED_ASSEMBLY(message));
    return false;
}

/// No axis: the operand does not span the distributed axis of its parent.
inline constexpr std::size_t no_axis = std::size_t(-1);

/// The axis of a rank-r operand of a rank-R node under Rules that lies on the node's axis
/// `axis`, or no_axis.
template <class Rules, std::size_t r, std::size_t R>
constexpr std::size_t operand_axis(std::size_t axis) noexcept {
    if (axis == no_axis) return no_axis;
    for (std::size_t k = 0; k < r; ++k)
        if (Rules::result_axis(k, r, R) == axis) return k;
    return no_axis;
}

/// Whether test.template operator()<C>() holds for every child C of the node E (unwrapped).
template <class E, class Test>
constexpr bool every_child(Test test) noexcept {
    using Children = std::remove_cvref_t<decltype(std::declval<const E&>().children())>;
    return []<class... Held>(const boost::hana::tuple<Held...>*, Test t) {
        return (t.template operator()<bsx::detail::unwrapped_t<Held>>() && ...);
    }(static_cast<const Children*>(nullptr), test);
}

/// Whether rewrite() takes E: a subtree that reads no distributed array, a distributed
/// leaf, or an element-wise node, rule tag or reduction over such operands.
template <class E>
constexpr bool rewritable() noexcept {
    if constexpr (!reads_distributed<E>() || is_distributed_leaf<E>::value)
        return true;
    else if constexpr (is_map_node<E>::value || is_rules_tagged<E>::value || is_reduce_node<E>::value)
        return every_child<E>([]<class C>() { return rewritable<C>(); });
    else
        return false;
}

/// rewritable<E>(), and where it is false one error naming why: the entry points
/// (assignment and reductions) go on only where it is true, so nothing after it fails too.
template <class E>
constexpr bool check_rewritable() noexcept {
    if constexpr (assembles_distributed<E>()) {
        return refuse_assembly<std::remove_cvref_t<decltype(*first_assembling_node<E>())>>();
    } else {
        static_assert(rewritable<E>(), BSX_REFUSAL_DISTRIBUTED_VIEW(message));
        return rewritable<E>();
    }
}

/// E (rewritable) rewritten by `policy`: `policy.leaf(x, axis)` for each distributed leaf,
/// `policy.reduction(x, axis)` for each reduction of a distributed expression and
/// `policy.replicated(x, axis)` for each largest subtree that reads none, `axis` being the
/// operand's axis that lies on the destination's axis 0 (or no_axis). Leaves are visited
/// left to right, the same order on every rank, so collectives the policy makes match.
template <class E, class Policy>
decltype(auto) rewrite(const E& e, const Policy& policy, std::size_t axis) {
    if constexpr (!reads_distributed<E>()) {
        return policy.replicated(e, axis);
    } else if constexpr (is_distributed_leaf<E>::value) {
        return policy.leaf(e, axis);
    } else if constexpr (is_map_node<E>::value) {
        using rules = rules_of_t<E>;
        auto operands = boost::hana::unpack(e.children(), [&](const auto&... held) {
            // Braces: the rewrites (and their collectives) run left to right.
            return std::tuple<decltype(rewrite(bsx::detail::unwrap(held), policy, 0))...>{
                rewrite(bsx::detail::unwrap(held), policy,
                        operand_axis<rules, rank_v<decltype(bsx::detail::unwrap(held))>, rank_v<E>>(axis))...};
        });
        return std::apply([&](auto&&... x) { return bsx::detail::make_node(e.op(), std::forward<decltype(x)>(x)...); },
                          std::move(operands));
    } else if constexpr (is_rules_tagged<E>::value) {
        return with_rules<typename is_rules_tagged<E>::rules>(rewrite(e.operand(), policy, axis));
    } else {  // a reduction: check_rewritable, at the entry points, lets nothing else through
        return policy.reduction(e, axis);
    }
}

/// Whether expression e is split along its axis 0 over the ranks: some distributed leaf is
/// (an array or a column, not a row), outside reductions along axis 0, whose results every
/// rank holds whole.
template <class E>
bool split_along_rows(const E& e) {
    if constexpr (is_distributed_leaf<E>::value) {
        return !is_row_view<E>::value;
    } else if constexpr (is_reduce_node<E>::value) {
        return e.reduced_axis() != 0 && split_along_rows(e.operand());
    } else if constexpr (reads_distributed<E>()) {
        bool split = false;
        boost::hana::for_each(e.children(),
                              [&](const auto& held) { split |= split_along_rows(bsx::detail::unwrap(held)); });
        return split;
    } else {
        return false;
    }
}

/// The result of reduction e of a distributed expression, whole, as an ordinary array on
/// every rank (collective).
template <class Op, class Held, bool KeepDims>
auto whole_result(const reduce_node<Op, Held, KeepDims>& e) {
    using E = reduce_node<Op, Held, KeepDims>;
    bsx::detail::check_not_resized(e);
    bsx::array<value_type_t<E>, rank_v<E>> out(e.shape());
    bsx_reduce(Op{}, e.operand(), e.reduced_axis(), out.data(), false);  // dist/reductions.hpp, by ADL
    return out;
}

/// Calls f(leaf) for each distributed leaf of e, left to right.
template <class E, class F>
void for_each_distributed_leaf(const E& e, F&& f) {
    if constexpr (is_distributed_leaf<E>::value) {
        f(e);
    } else if constexpr (reads_distributed<E>()) {
        boost::hana::for_each(e.children(),
                              [&](const auto& held) { for_each_distributed_leaf(bsx::detail::unwrap(held), f); });
    }
}

/// Appends to `out` what expression e asks of the ranks, in rewrite order: each distributed
/// leaf with its global shape (a row or column with its index), each reduction of a
/// distributed expression with its axis, each replicated operand with its shape. The ranks
/// compare it before they communicate (agree): a rank given other shapes would otherwise
/// send or wait for messages of other sizes, or none.
template <class E>
void describe_operands(const E& e, std::string& out) {
    if (!out.empty() && out.back() != '(') out += ", ";
    if constexpr (!reads_distributed<E>()) {
        out += "replicated " + format_shape(bsx::detail::operand_shape(e));
    } else if constexpr (is_line_view<E>::value) {
        out += (is_row_view<E>::value ? "row " : "column ") + std::to_string(e.index()) + " of distributed " +
               format_shape(e.source().shape());
    } else if constexpr (is_distributed_leaf<E>::value) {
        out += "distributed " + format_shape(e.shape());
    } else if constexpr (is_reduce_node<E>::value) {
        out += "a reduction along axis " + std::to_string(e.reduced_axis()) + " of (";
        describe_operands(e.operand(), out);
        out += ')';
    } else {
        boost::hana::for_each(e.children(),
                              [&](const auto& held) { describe_operands(bsx::detail::unwrap(held), out); });
    }
}

/// The distributed array a leaf reads.
template <class T, std::size_t N>
const array<T, N>& source_of(const array<T, N>& a) noexcept {
    return a;
}
template <class View>
const auto& source_of(const View& v) noexcept {
    return v.source();
}

/// The communicator of e's first distributed leaf (none if it reads none).
template <class E>
std::optional<MPI_Comm> communicator_of(const E& e) {
    std::optional<MPI_Comm> comm;
    for_each_distributed_leaf(e, [&](const auto& leaf) {
        if (!comm) comm = source_of(leaf).comm();
    });
    return comm;
}

}  // namespace bsx::dist::detail
