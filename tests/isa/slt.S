/* slt: rd = (signed) rs1 < (signed) rs2 ? 1 : 0. */
#include "test_macros.h"

TEST_BEGIN

  TEST_RR_OP(1, slt, 0, 0, 0)
  TEST_RR_OP(2, slt, 0, 1, 1)
  TEST_RR_OP(3, slt, 1, 3, 7)
  TEST_RR_OP(4, slt, 0, 7, 3)
  TEST_RR_OP(5, slt, 1, -1, 0)          /* negative < 0 */
  TEST_RR_OP(6, slt, 0, 0, -1)
  TEST_RR_OP(7, slt, 1, -2, -1)
  TEST_RR_OP(8, slt, 0, -1, -2)
  TEST_RR_OP(9, slt, 1, XMIN, XMAX)
  TEST_RR_OP(10, slt, 0, XMAX, XMIN)
  TEST_RR_OP(11, slt, 1, XMIN, 0)
  TEST_RR_OP(12, slt, 0, XMIN, XMIN)
  TEST_RR_OP(13, slt, 1, XMAX - 1, XMAX)
  TEST_RR_OP(14, slt, 1, XMIN, XMIN + 1)
#if __riscv_xlen == 64
  /* 0x80000000 is positive on RV64. */
  TEST_RR_OP(15, slt, 0, 0x80000000, 0)
  TEST_RR_OP(16, slt, 1, 0x7fffffff, 0x80000000)
  TEST_RR_OP(17, slt, 1, 0xffffffff00000000, 0x00000000ffffffff)
#else
  TEST_RR_OP(15, slt, 1, 0x80000000, 0)
  TEST_RR_OP(16, slt, 0, 0x7fffffff, 0x80000000)
  TEST_RR_OP(17, slt, 0, 0, -1)
#endif

  TEST_RR_SRC1_EQ_DEST(20, slt, 1, 13, 14)
  TEST_RR_SRC2_EQ_DEST(21, slt, 0, 14, 13)
  TEST_RR_SRC12_EQ_DEST(22, slt, 0, -5)
  TEST_RR_SRC12_SAME(23, slt, 0, 5)
  TEST_RR_ZEROSRC1(24, slt, 1, 5)
  TEST_RR_ZEROSRC1(25, slt, 0, -5)
  TEST_RR_ZEROSRC2(26, slt, 1, -5)
  TEST_RR_ZEROSRC2(27, slt, 0, 5)
  TEST_RR_ZEROSRC12(28, slt, 0)
  TEST_RR_ZERODEST(29, slt, -1, 1)

TEST_END
