/* bltu: branch if rs1 < rs2, unsigned.
 * Each pair of values is tried forwards and backwards, taken or not as
 * the comparison says; then both operands in one register, and the
 * extreme offsets +4092 and -4096. */
#include "test_macros.h"

TEST_BEGIN

#if __riscv_xlen == 64
  TEST_BR2_OP_NOTTAKEN(1, bltu, 0, 0)
  TEST_BR2_OP_NOTTAKEN(2, bltu, 1, 1)
  TEST_BR2_OP_NOTTAKEN(3, bltu, -1, -1)
  TEST_BR2_OP_TAKEN(4, bltu, 0, 1)
  TEST_BR2_OP_NOTTAKEN(5, bltu, 1, 0)
  TEST_BR2_OP_NOTTAKEN(6, bltu, -1, 1)
  TEST_BR2_OP_TAKEN(7, bltu, 1, -1)
  TEST_BR2_OP_TAKEN(8, bltu, -2, -1)
  TEST_BR2_OP_NOTTAKEN(9, bltu, -1, -2)
  TEST_BR2_OP_NOTTAKEN(10, bltu, 0x8000000000000000, 0x7fffffffffffffff)
  TEST_BR2_OP_TAKEN(11, bltu, 0x7fffffffffffffff, 0x8000000000000000)
  TEST_BR2_OP_NOTTAKEN(12, bltu, 0x8000000000000000, 0)
  TEST_BR2_OP_TAKEN(13, bltu, 0, 0x8000000000000000)
  TEST_BR2_OP_NOTTAKEN(14, bltu, 0x8000000000000000, 0x8000000000000000)
  TEST_BR2_OP_NOTTAKEN(15, bltu, 0x7fffffffffffffff, 0x7fffffffffffffff)
  TEST_BR2_OP_NOTTAKEN(16, bltu, -1, 0)
  TEST_BR2_OP_TAKEN(17, bltu, 0, -1)
  TEST_BR2_OP_NOTTAKEN(18, bltu, 0x0000000080000000, 0)
  TEST_BR2_OP_TAKEN(19, bltu, 0, 0x0000000080000000)
  TEST_BR2_OP_TAKEN(20, bltu, 0x000000007fffffff, 0x0000000080000000)
  TEST_BR2_OP_NOTTAKEN(21, bltu, 0x0000000100000001, 1)
  TEST_BR2_OP_TAKEN(22, bltu, 1, 0x0000000100000001)
  TEST_BR2_OP_TAKEN(23, bltu, 0x00000000ffffffff, 0x0000000100000000)
  TEST_BR2_OP_NOTTAKEN(24, bltu, 0x0000000100000000, 0x00000000ffffffff)
  TEST_BR2_OP_NOTTAKEN(25, bltu, 0xffffffff00000000, 0x00000000ffffffff)
  TEST_BR2_OP_TAKEN(26, bltu, 0x00000000ffffffff, 0xffffffff00000000)
#else
  TEST_BR2_OP_NOTTAKEN(1, bltu, 0, 0)
  TEST_BR2_OP_NOTTAKEN(2, bltu, 1, 1)
  TEST_BR2_OP_NOTTAKEN(3, bltu, -1, -1)
  TEST_BR2_OP_TAKEN(4, bltu, 0, 1)
  TEST_BR2_OP_NOTTAKEN(5, bltu, 1, 0)
  TEST_BR2_OP_NOTTAKEN(6, bltu, -1, 1)
  TEST_BR2_OP_TAKEN(7, bltu, 1, -1)
  TEST_BR2_OP_TAKEN(8, bltu, -2, -1)
  TEST_BR2_OP_NOTTAKEN(9, bltu, -1, -2)
  TEST_BR2_OP_NOTTAKEN(10, bltu, 0x80000000, 0x7fffffff)
  TEST_BR2_OP_TAKEN(11, bltu, 0x7fffffff, 0x80000000)
  TEST_BR2_OP_NOTTAKEN(12, bltu, 0x80000000, 0)
  TEST_BR2_OP_TAKEN(13, bltu, 0, 0x80000000)
  TEST_BR2_OP_NOTTAKEN(14, bltu, 0x80000000, 0x80000000)
  TEST_BR2_OP_NOTTAKEN(15, bltu, 0x7fffffff, 0x7fffffff)
  TEST_BR2_OP_NOTTAKEN(16, bltu, -1, 0)
  TEST_BR2_OP_TAKEN(17, bltu, 0, -1)
  TEST_BR2_OP_NOTTAKEN(18, bltu, 0x80000000, 0)
  TEST_BR2_OP_TAKEN(19, bltu, 0, 0x80000000)
  TEST_BR2_OP_TAKEN(20, bltu, 0x7fffffff, 0x80000000)
#endif

  TEST_BR1_SAME_NOTTAKEN(40, bltu, 0)
  TEST_BR1_SAME_NOTTAKEN(41, bltu, -7)
  TEST_BR2_OP_FAR_TAKEN(42, bltu, 0, 1)
  TEST_BR2_OP_FAR_NOTTAKEN(43, bltu, 0, 0)

TEST_END
