/* A write to a counter CSR faults: exit 70 with an error naming it. */
#include "test_macros.h"

TEST_BEGIN
  li x12, 1
  csrw instret, x12
TEST_END
