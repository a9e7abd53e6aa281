/* slti: rd = (signed) rs1 < (signed) sext(imm12) ? 1 : 0. */
#include "test_macros.h"

TEST_BEGIN

  TEST_IMM_OP(1, slti, 0, 0, 0)
  TEST_IMM_OP(2, slti, 0, 1, 1)
  TEST_IMM_OP(3, slti, 1, 3, 7)
  TEST_IMM_OP(4, slti, 0, 7, 3)
  TEST_IMM_OP(5, slti, 1, -1, 0)
  TEST_IMM_OP(6, slti, 0, 0, -1)          /* imm -1 is negative */
  TEST_IMM_OP(7, slti, 0, 0, -2048)
  TEST_IMM_OP(8, slti, 1, 0, 2047)
  TEST_IMM_OP(9, slti, 1, -2049, -2048)
  TEST_IMM_OP(10, slti, 0, -2048, -2048)
  TEST_IMM_OP(11, slti, 0, 2047, 2047)
  TEST_IMM_OP(12, slti, 1, 2046, 2047)
  TEST_IMM_OP(13, slti, 1, XMIN, -2048)
  TEST_IMM_OP(14, slti, 0, XMAX, 2047)
  TEST_IMM_OP(15, slti, 0, 0x800, 0x7ff)
#if __riscv_xlen == 64
  TEST_IMM_OP(16, slti, 0, 0x80000000, 0)
#else
  TEST_IMM_OP(16, slti, 1, 0x80000000, 0)
#endif

  TEST_IMM_SRC1_EQ_DEST(20, slti, 1, 11, 13)
  TEST_IMM_SRC1_EQ_DEST(21, slti, 0, 13, -1)
  TEST_IMM_ZEROSRC1(22, slti, 0, 0)
  TEST_IMM_ZEROSRC1(23, slti, 1, 1)
  TEST_IMM_ZEROSRC1(24, slti, 0, -1)
  TEST_IMM_ZERODEST(25, slti, -1, 1)

TEST_END
