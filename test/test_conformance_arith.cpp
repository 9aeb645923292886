// Broadcasting conformance cases (test/data/broadcast_cases.txt and the shared
// file) for the ops plus minus times rdivide ldivide power.
// The driver is test/conformance_driver.hpp.
#define BOOST_TEST_MODULE bsx_conformance_arith
#include <boost/test/unit_test.hpp>

#include "conformance_driver.hpp"

using bsx_conformance::op_group;

BOOST_AUTO_TEST_CASE(committed_case_file) { bsx_conformance::run_committed_file<op_group::arithmetic>(); }

BOOST_AUTO_TEST_CASE(shared_case_file) { bsx_conformance::run_shared_file<op_group::arithmetic>(); }
