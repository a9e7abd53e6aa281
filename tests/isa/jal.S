/* jal: rd = pc + 4; pc += sext(offset21). Checks the link value against
 * the absolute address of the next instruction (lui + addi), jumps
 * forwards and backwards, offsets that set many bits of the scattered
 * immediate, and rd = x0 (`j`). */
#include "test_macros.h"

TEST_BEGIN

  /* Forward, link in ra. */
  TEST_NUM(1)
  li x1, 0
  jal x1, 1f
ret_1:
  j fail
1:
  LA_ABS(x15, ret_1)
  bne x1, x15, fail

  /* Backward, link in another register. */
  TEST_NUM(2)
  li x14, 0
  j 2f
1:
  j 3f
2:
  jal x14, 1b
ret_2:
  j fail
3:
  LA_ABS(x15, ret_2)
  bne x14, x15, fail

  /* rd = x31, rd = t0 (the alternate link register). */
  TEST_NUM(3)
  jal x31, 1f
ret_3:
  j fail
1:
  jal x5, 2f
ret_3b:
  j fail
2:
  LA_ABS(x15, ret_3)
  bne x31, x15, fail
  LA_ABS(x15, ret_3b)
  bne x5, x15, fail

  /* rd = x0: no link is written. */
  TEST_NUM(4)
  li x14, 0x55
  jal x0, 1f
  j fail
1:
  bnez x0, fail
  CHECK(x14, 0x55)

  /* Jump to the very next instruction (offset 4) and to itself + 8. */
  TEST_NUM(5)
  jal x14, 1f
1:
  LA_ABS(x15, 1b)
  bne x14, x15, fail
  jal x14, 2f
  j fail
2:

  /* Far forward, offset 0x12aac: bits 2, 3, 5, 7, 9, 11 (the imm bit that
   * sits at instruction bit 20), 13 and 16 of the immediate. */
  TEST_NUM(6)
  jal x14, far_6
ret_6:
  j fail
  .skip 0x12aac - 8
far_6:
  LA_ABS(x15, ret_6)
  bne x14, x15, fail
  LA_ABS(x15, far_6)
  LA_ABS(x16, ret_6)
  sub x15, x15, x16
  CHECK(x15, 0x12aac - 4)

  /* Far backward, offset -0x15554 (sign bit and the alternate bits). */
  TEST_NUM(7)
  j 2f
back_7:
  j 3f
  .skip 0x15554 - 4
2:
  jal x14, back_7
ret_7:
  j fail
3:
  LA_ABS(x15, ret_7)
  bne x14, x15, fail
  LA_ABS(x15, ret_7)
  LA_ABS(x16, back_7)
  sub x15, x15, x16
  CHECK(x15, 0x15554 + 4)

TEST_END
