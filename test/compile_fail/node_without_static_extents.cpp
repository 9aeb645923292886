// expect: bsx: a node kind declares value_type, rank, rules_tag, static_extents, shape\(\), element\(index\) and children\(\)
// A new node kind that misses a member of the node protocol (expr/node.hpp), here
// static_extents, fails where it is built, with one message naming the protocol.
#include <bsx/bsx.hpp>

#include <utility>

template <class Held>
class doubled : public bsx::unary_node<doubled<Held>, Held> {
    using base = bsx::unary_node<doubled<Held>, Held>;

public:
    using base::operand;
    using value_type = double;
    using rules_tag = void;
    static constexpr std::size_t rank = 1;

    explicit doubled(Held held) : base(std::move(held)) {}
    const bsx::shape_t<1>& shape() const noexcept { return operand().shape(); }
    double element(const bsx::shape_t<1>& i) const { return 2 * operand().element(i); }
};

int main() {
    const bsx::array<double, 1> a = bsx::ones<double>(3);
    const doubled<bsx::detail::held_t<const bsx::array<double, 1>&>> d(bsx::detail::hold(a));
    return int(d.size());
}
