/* A guest built without C (no EF_RISCV_RVC) runs on a hart without C: two
 * compressed instructions (c.li a0, 1; c.li a0, 0) read as one 32-bit word
 * that is an illegal instruction (exit 70), as they would on such a hart. */
#include "test_macros.h"

TEST_BEGIN
  .half 0x4505, 0x4501
  j fail
TEST_END
