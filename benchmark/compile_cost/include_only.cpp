// Compile cost of the include alone.
#include <bsx/bsx.hpp>

int main() { return 0; }
