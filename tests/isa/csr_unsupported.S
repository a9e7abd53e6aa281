/* A CSR this executor does not have (mstatus) faults: exit 70 with an
 * error naming the CSR (the test checks both). */
#include "test_macros.h"

TEST_BEGIN
  csrr x14, mstatus
TEST_END
