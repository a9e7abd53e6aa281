/* C: a reserved encoding, c.lwsp into x0 (0x4002), is an illegal
 * instruction (exit 70). */
#include "test_macros.h"

TEST_BEGIN
  c.li a0, 1
  .half 0x4002
  c.j fail
TEST_END
