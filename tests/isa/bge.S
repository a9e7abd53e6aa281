/* bge: branch if rs1 >= rs2, signed.
 * Each pair of values is tried forwards and backwards, taken or not as
 * the comparison says; then both operands in one register, and the
 * extreme offsets +4092 and -4096. */
#include "test_macros.h"

TEST_BEGIN

#if __riscv_xlen == 64
  TEST_BR2_OP_TAKEN(1, bge, 0, 0)
  TEST_BR2_OP_TAKEN(2, bge, 1, 1)
  TEST_BR2_OP_TAKEN(3, bge, -1, -1)
  TEST_BR2_OP_NOTTAKEN(4, bge, 0, 1)
  TEST_BR2_OP_TAKEN(5, bge, 1, 0)
  TEST_BR2_OP_NOTTAKEN(6, bge, -1, 1)
  TEST_BR2_OP_TAKEN(7, bge, 1, -1)
  TEST_BR2_OP_NOTTAKEN(8, bge, -2, -1)
  TEST_BR2_OP_TAKEN(9, bge, -1, -2)
  TEST_BR2_OP_NOTTAKEN(10, bge, 0x8000000000000000, 0x7fffffffffffffff)
  TEST_BR2_OP_TAKEN(11, bge, 0x7fffffffffffffff, 0x8000000000000000)
  TEST_BR2_OP_NOTTAKEN(12, bge, 0x8000000000000000, 0)
  TEST_BR2_OP_TAKEN(13, bge, 0, 0x8000000000000000)
  TEST_BR2_OP_TAKEN(14, bge, 0x8000000000000000, 0x8000000000000000)
  TEST_BR2_OP_TAKEN(15, bge, 0x7fffffffffffffff, 0x7fffffffffffffff)
  TEST_BR2_OP_NOTTAKEN(16, bge, -1, 0)
  TEST_BR2_OP_TAKEN(17, bge, 0, -1)
  TEST_BR2_OP_TAKEN(18, bge, 0x0000000080000000, 0)
  TEST_BR2_OP_NOTTAKEN(19, bge, 0, 0x0000000080000000)
  TEST_BR2_OP_NOTTAKEN(20, bge, 0x000000007fffffff, 0x0000000080000000)
  TEST_BR2_OP_TAKEN(21, bge, 0x0000000100000001, 1)
  TEST_BR2_OP_NOTTAKEN(22, bge, 1, 0x0000000100000001)
  TEST_BR2_OP_NOTTAKEN(23, bge, 0x00000000ffffffff, 0x0000000100000000)
  TEST_BR2_OP_TAKEN(24, bge, 0x0000000100000000, 0x00000000ffffffff)
  TEST_BR2_OP_NOTTAKEN(25, bge, 0xffffffff00000000, 0x00000000ffffffff)
  TEST_BR2_OP_TAKEN(26, bge, 0x00000000ffffffff, 0xffffffff00000000)
#else
  TEST_BR2_OP_TAKEN(1, bge, 0, 0)
  TEST_BR2_OP_TAKEN(2, bge, 1, 1)
  TEST_BR2_OP_TAKEN(3, bge, -1, -1)
  TEST_BR2_OP_NOTTAKEN(4, bge, 0, 1)
  TEST_BR2_OP_TAKEN(5, bge, 1, 0)
  TEST_BR2_OP_NOTTAKEN(6, bge, -1, 1)
  TEST_BR2_OP_TAKEN(7, bge, 1, -1)
  TEST_BR2_OP_NOTTAKEN(8, bge, -2, -1)
  TEST_BR2_OP_TAKEN(9, bge, -1, -2)
  TEST_BR2_OP_NOTTAKEN(10, bge, 0x80000000, 0x7fffffff)
  TEST_BR2_OP_TAKEN(11, bge, 0x7fffffff, 0x80000000)
  TEST_BR2_OP_NOTTAKEN(12, bge, 0x80000000, 0)
  TEST_BR2_OP_TAKEN(13, bge, 0, 0x80000000)
  TEST_BR2_OP_TAKEN(14, bge, 0x80000000, 0x80000000)
  TEST_BR2_OP_TAKEN(15, bge, 0x7fffffff, 0x7fffffff)
  TEST_BR2_OP_NOTTAKEN(16, bge, -1, 0)
  TEST_BR2_OP_TAKEN(17, bge, 0, -1)
  TEST_BR2_OP_NOTTAKEN(18, bge, 0x80000000, 0)
  TEST_BR2_OP_TAKEN(19, bge, 0, 0x80000000)
  TEST_BR2_OP_TAKEN(20, bge, 0x7fffffff, 0x80000000)
#endif

  TEST_BR1_SAME_TAKEN(40, bge, 0)
  TEST_BR1_SAME_TAKEN(41, bge, -7)
  TEST_BR2_OP_FAR_TAKEN(42, bge, 0, 0)
  TEST_BR2_OP_FAR_NOTTAKEN(43, bge, 0, 1)

TEST_END
