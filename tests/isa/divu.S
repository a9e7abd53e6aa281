/* divu: rd = rs1 / rs2, unsigned. x / 0 = 2^XLEN - 1 (all ones). */
#include "test_macros.h"

TEST_BEGIN

#if __riscv_xlen == 64
  TEST_RR_OP(1, divu, 3, 20, 6)
  TEST_RR_OP(2, divu, 0x2aaaaaaaaaaaaaa7, -20, 6)
  TEST_RR_OP(3, divu, 0, 20, -6)
  TEST_RR_OP(4, divu, 0, -20, -6)
  TEST_RR_OP(5, divu, 0, 0, 5)
  TEST_RR_OP(6, divu, 0, 5, 7)
  TEST_RR_OP(7, divu, 0x2492492492492491, -5, 7)
  TEST_RR_OP(8, divu, 1, 7, 7)
  TEST_RR_OP(9, divu, 0x7ffffffffffffffc, -7, 2)
  TEST_RR_OP(10, divu, 0, 7, -2)
  TEST_RR_OP(11, divu, 1, -1, -1)
  TEST_RR_OP(12, divu, -1, -1, 1)
  TEST_RR_OP(13, divu, 0, 1, -1)
  TEST_RR_OP(14, divu, 0x8000000000000000, 0x8000000000000000, 1)
  TEST_RR_OP(15, divu, 0, 0x8000000000000000, -1)
  TEST_RR_OP(16, divu, 0x4000000000000000, 0x8000000000000000, 2)
  TEST_RR_OP(17, divu, 0, 0x8000000000000000, -2)
  TEST_RR_OP(18, divu, 1, 0x8000000000000000, 0x8000000000000000)
  TEST_RR_OP(19, divu, 0, 0x7fffffffffffffff, -1)
  TEST_RR_OP(20, divu, 0, 0x7fffffffffffffff, 0x8000000000000000)
  TEST_RR_OP(21, divu, 1, 0x8000000000000000, 0x7fffffffffffffff)
  TEST_RR_OP(22, divu, 1, -1, 0x8000000000000000)
  TEST_RR_OP(23, divu, -1, 1, 0)  /* by zero */
  TEST_RR_OP(24, divu, -1, 0, 0)  /* by zero */
  TEST_RR_OP(25, divu, -1, -1, 0)  /* by zero */
  TEST_RR_OP(26, divu, -1, 0x8000000000000000, 0)  /* by zero */
  TEST_RR_OP(27, divu, -1, 0x7fffffffffffffff, 0)  /* by zero */
  TEST_RR_OP(28, divu, 0x0000000000010004, 0x0000000012345678, 0x0000000000001234)
  TEST_RR_OP(29, divu, 0x000e1042cd3c4ede, 0xffffffffedcba988, 0x0000000000001234)
  TEST_RR_OP(30, divu, 0, 0x0000000080000000, -1)
  TEST_RR_OP(31, divu, 0, 0xffffffff80000000, -1)
  TEST_RR_OP(32, divu, 0x0000000001234567, 0x0123456789abcdef, 0x0000000100000000)
  TEST_RR_OP(33, divu, 0x0000fedcba987654, 0xfedcba9876543211, 0x0000000000010000)
  TEST_RR_OP(34, divu, 0x0000000080000000, 0x8000000000000001, 0x00000000ffffffff)
  TEST_RR_OP(35, divu, 0x00000000ffffffff, 0x7fffffffffffffff, 0x0000000080000000)
#else
  TEST_RR_OP(1, divu, 3, 20, 6)
  TEST_RR_OP(2, divu, 0x2aaaaaa7, -20, 6)
  TEST_RR_OP(3, divu, 0, 20, -6)
  TEST_RR_OP(4, divu, 0, -20, -6)
  TEST_RR_OP(5, divu, 0, 0, 5)
  TEST_RR_OP(6, divu, 0, 5, 7)
  TEST_RR_OP(7, divu, 0x24924923, -5, 7)
  TEST_RR_OP(8, divu, 1, 7, 7)
  TEST_RR_OP(9, divu, 0x7ffffffc, -7, 2)
  TEST_RR_OP(10, divu, 0, 7, -2)
  TEST_RR_OP(11, divu, 1, -1, -1)
  TEST_RR_OP(12, divu, -1, -1, 1)
  TEST_RR_OP(13, divu, 0, 1, -1)
  TEST_RR_OP(14, divu, 0x80000000, 0x80000000, 1)
  TEST_RR_OP(15, divu, 0, 0x80000000, -1)
  TEST_RR_OP(16, divu, 0x40000000, 0x80000000, 2)
  TEST_RR_OP(17, divu, 0, 0x80000000, -2)
  TEST_RR_OP(18, divu, 1, 0x80000000, 0x80000000)
  TEST_RR_OP(19, divu, 0, 0x7fffffff, -1)
  TEST_RR_OP(20, divu, 0, 0x7fffffff, 0x80000000)
  TEST_RR_OP(21, divu, 1, 0x80000000, 0x7fffffff)
  TEST_RR_OP(22, divu, 1, -1, 0x80000000)
  TEST_RR_OP(23, divu, -1, 1, 0)  /* by zero */
  TEST_RR_OP(24, divu, -1, 0, 0)  /* by zero */
  TEST_RR_OP(25, divu, -1, -1, 0)  /* by zero */
  TEST_RR_OP(26, divu, -1, 0x80000000, 0)  /* by zero */
  TEST_RR_OP(27, divu, -1, 0x7fffffff, 0)  /* by zero */
  TEST_RR_OP(28, divu, 0x00010004, 0x12345678, 0x00001234)
  TEST_RR_OP(29, divu, 0x000d103e, 0xedcba988, 0x00001234)
  TEST_RR_OP(30, divu, 0, 0x80000000, -1)
  TEST_RR_OP(31, divu, 0, 0x80000000, -1)
#endif

  TEST_RR_SRC1_EQ_DEST(40, divu, 3, 20, 6)
  TEST_RR_SRC2_EQ_DEST(41, divu, 3, 21, 6)
  TEST_RR_SRC12_EQ_DEST(42, divu, 1, 7)
  TEST_RR_SRC12_SAME(43, divu, 1, -7)
  TEST_RR_ZEROSRC1(44, divu, 0, 31)
  TEST_RR_ZEROSRC2(45, divu, -1, 31)
  TEST_RR_ZEROSRC12(46, divu, -1)
  TEST_RR_ZERODEST(47, divu, 33, 11)

TEST_END
