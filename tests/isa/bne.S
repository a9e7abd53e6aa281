/* bne: branch if rs1 != rs2.
 * Each pair of values is tried forwards and backwards, taken or not as
 * the comparison says; then both operands in one register, and the
 * extreme offsets +4092 and -4096. */
#include "test_macros.h"

TEST_BEGIN

#if __riscv_xlen == 64
  TEST_BR2_OP_NOTTAKEN(1, bne, 0, 0)
  TEST_BR2_OP_NOTTAKEN(2, bne, 1, 1)
  TEST_BR2_OP_NOTTAKEN(3, bne, -1, -1)
  TEST_BR2_OP_TAKEN(4, bne, 0, 1)
  TEST_BR2_OP_TAKEN(5, bne, 1, 0)
  TEST_BR2_OP_TAKEN(6, bne, -1, 1)
  TEST_BR2_OP_TAKEN(7, bne, 1, -1)
  TEST_BR2_OP_TAKEN(8, bne, -2, -1)
  TEST_BR2_OP_TAKEN(9, bne, -1, -2)
  TEST_BR2_OP_TAKEN(10, bne, 0x8000000000000000, 0x7fffffffffffffff)
  TEST_BR2_OP_TAKEN(11, bne, 0x7fffffffffffffff, 0x8000000000000000)
  TEST_BR2_OP_TAKEN(12, bne, 0x8000000000000000, 0)
  TEST_BR2_OP_TAKEN(13, bne, 0, 0x8000000000000000)
  TEST_BR2_OP_NOTTAKEN(14, bne, 0x8000000000000000, 0x8000000000000000)
  TEST_BR2_OP_NOTTAKEN(15, bne, 0x7fffffffffffffff, 0x7fffffffffffffff)
  TEST_BR2_OP_TAKEN(16, bne, -1, 0)
  TEST_BR2_OP_TAKEN(17, bne, 0, -1)
  TEST_BR2_OP_TAKEN(18, bne, 0x0000000080000000, 0)
  TEST_BR2_OP_TAKEN(19, bne, 0, 0x0000000080000000)
  TEST_BR2_OP_TAKEN(20, bne, 0x000000007fffffff, 0x0000000080000000)
  TEST_BR2_OP_TAKEN(21, bne, 0x0000000100000001, 1)
  TEST_BR2_OP_TAKEN(22, bne, 1, 0x0000000100000001)
  TEST_BR2_OP_TAKEN(23, bne, 0x00000000ffffffff, 0x0000000100000000)
  TEST_BR2_OP_TAKEN(24, bne, 0x0000000100000000, 0x00000000ffffffff)
  TEST_BR2_OP_TAKEN(25, bne, 0xffffffff00000000, 0x00000000ffffffff)
  TEST_BR2_OP_TAKEN(26, bne, 0x00000000ffffffff, 0xffffffff00000000)
#else
  TEST_BR2_OP_NOTTAKEN(1, bne, 0, 0)
  TEST_BR2_OP_NOTTAKEN(2, bne, 1, 1)
  TEST_BR2_OP_NOTTAKEN(3, bne, -1, -1)
  TEST_BR2_OP_TAKEN(4, bne, 0, 1)
  TEST_BR2_OP_TAKEN(5, bne, 1, 0)
  TEST_BR2_OP_TAKEN(6, bne, -1, 1)
  TEST_BR2_OP_TAKEN(7, bne, 1, -1)
  TEST_BR2_OP_TAKEN(8, bne, -2, -1)
  TEST_BR2_OP_TAKEN(9, bne, -1, -2)
  TEST_BR2_OP_TAKEN(10, bne, 0x80000000, 0x7fffffff)
  TEST_BR2_OP_TAKEN(11, bne, 0x7fffffff, 0x80000000)
  TEST_BR2_OP_TAKEN(12, bne, 0x80000000, 0)
  TEST_BR2_OP_TAKEN(13, bne, 0, 0x80000000)
  TEST_BR2_OP_NOTTAKEN(14, bne, 0x80000000, 0x80000000)
  TEST_BR2_OP_NOTTAKEN(15, bne, 0x7fffffff, 0x7fffffff)
  TEST_BR2_OP_TAKEN(16, bne, -1, 0)
  TEST_BR2_OP_TAKEN(17, bne, 0, -1)
  TEST_BR2_OP_TAKEN(18, bne, 0x80000000, 0)
  TEST_BR2_OP_TAKEN(19, bne, 0, 0x80000000)
  TEST_BR2_OP_TAKEN(20, bne, 0x7fffffff, 0x80000000)
#endif

  TEST_BR1_SAME_NOTTAKEN(40, bne, 0)
  TEST_BR1_SAME_NOTTAKEN(41, bne, -7)
  TEST_BR2_OP_FAR_TAKEN(42, bne, 0, 1)
  TEST_BR2_OP_FAR_NOTTAKEN(43, bne, 0, 0)

TEST_END
