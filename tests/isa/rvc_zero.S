/* C: the all-zero halfword is an illegal instruction (exit 70), not
 * c.addi4spn with a zero immediate. */
#include "test_macros.h"

TEST_BEGIN
  c.li a0, 1
  .half 0
  c.j fail
TEST_END
