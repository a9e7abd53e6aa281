/* bgeu: branch if rs1 >= rs2, unsigned.
 * Each pair of values is tried forwards and backwards, taken or not as
 * the comparison says; then both operands in one register, and the
 * extreme offsets +4092 and -4096. */
#include "test_macros.h"

TEST_BEGIN

#if __riscv_xlen == 64
  TEST_BR2_OP_TAKEN(1, bgeu, 0, 0)
  TEST_BR2_OP_TAKEN(2, bgeu, 1, 1)
  TEST_BR2_OP_TAKEN(3, bgeu, -1, -1)
  TEST_BR2_OP_NOTTAKEN(4, bgeu, 0, 1)
  TEST_BR2_OP_TAKEN(5, bgeu, 1, 0)
  TEST_BR2_OP_TAKEN(6, bgeu, -1, 1)
  TEST_BR2_OP_NOTTAKEN(7, bgeu, 1, -1)
  TEST_BR2_OP_NOTTAKEN(8, bgeu, -2, -1)
  TEST_BR2_OP_TAKEN(9, bgeu, -1, -2)
  TEST_BR2_OP_TAKEN(10, bgeu, 0x8000000000000000, 0x7fffffffffffffff)
  TEST_BR2_OP_NOTTAKEN(11, bgeu, 0x7fffffffffffffff, 0x8000000000000000)
  TEST_BR2_OP_TAKEN(12, bgeu, 0x8000000000000000, 0)
  TEST_BR2_OP_NOTTAKEN(13, bgeu, 0, 0x8000000000000000)
  TEST_BR2_OP_TAKEN(14, bgeu, 0x8000000000000000, 0x8000000000000000)
  TEST_BR2_OP_TAKEN(15, bgeu, 0x7fffffffffffffff, 0x7fffffffffffffff)
  TEST_BR2_OP_TAKEN(16, bgeu, -1, 0)
  TEST_BR2_OP_NOTTAKEN(17, bgeu, 0, -1)
  TEST_BR2_OP_TAKEN(18, bgeu, 0x0000000080000000, 0)
  TEST_BR2_OP_NOTTAKEN(19, bgeu, 0, 0x0000000080000000)
  TEST_BR2_OP_NOTTAKEN(20, bgeu, 0x000000007fffffff, 0x0000000080000000)
  TEST_BR2_OP_TAKEN(21, bgeu, 0x0000000100000001, 1)
  TEST_BR2_OP_NOTTAKEN(22, bgeu, 1, 0x0000000100000001)
  TEST_BR2_OP_NOTTAKEN(23, bgeu, 0x00000000ffffffff, 0x0000000100000000)
  TEST_BR2_OP_TAKEN(24, bgeu, 0x0000000100000000, 0x00000000ffffffff)
  TEST_BR2_OP_TAKEN(25, bgeu, 0xffffffff00000000, 0x00000000ffffffff)
  TEST_BR2_OP_NOTTAKEN(26, bgeu, 0x00000000ffffffff, 0xffffffff00000000)
#else
  TEST_BR2_OP_TAKEN(1, bgeu, 0, 0)
  TEST_BR2_OP_TAKEN(2, bgeu, 1, 1)
  TEST_BR2_OP_TAKEN(3, bgeu, -1, -1)
  TEST_BR2_OP_NOTTAKEN(4, bgeu, 0, 1)
  TEST_BR2_OP_TAKEN(5, bgeu, 1, 0)
  TEST_BR2_OP_TAKEN(6, bgeu, -1, 1)
  TEST_BR2_OP_NOTTAKEN(7, bgeu, 1, -1)
  TEST_BR2_OP_NOTTAKEN(8, bgeu, -2, -1)
  TEST_BR2_OP_TAKEN(9, bgeu, -1, -2)
  TEST_BR2_OP_TAKEN(10, bgeu, 0x80000000, 0x7fffffff)
  TEST_BR2_OP_NOTTAKEN(11, bgeu, 0x7fffffff, 0x80000000)
  TEST_BR2_OP_TAKEN(12, bgeu, 0x80000000, 0)
  TEST_BR2_OP_NOTTAKEN(13, bgeu, 0, 0x80000000)
  TEST_BR2_OP_TAKEN(14, bgeu, 0x80000000, 0x80000000)
  TEST_BR2_OP_TAKEN(15, bgeu, 0x7fffffff, 0x7fffffff)
  TEST_BR2_OP_TAKEN(16, bgeu, -1, 0)
  TEST_BR2_OP_NOTTAKEN(17, bgeu, 0, -1)
  TEST_BR2_OP_TAKEN(18, bgeu, 0x80000000, 0)
  TEST_BR2_OP_NOTTAKEN(19, bgeu, 0, 0x80000000)
  TEST_BR2_OP_NOTTAKEN(20, bgeu, 0x7fffffff, 0x80000000)
#endif

  TEST_BR1_SAME_TAKEN(40, bgeu, 0)
  TEST_BR1_SAME_TAKEN(41, bgeu, -7)
  TEST_BR2_OP_FAR_TAKEN(42, bgeu, 0, 0)
  TEST_BR2_OP_FAR_NOTTAKEN(43, bgeu, 0, 1)

TEST_END
