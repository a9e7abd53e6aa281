/* ori: rd = rs1 | sext(imm12). The 12-bit immediate is sign-extended to XLEN
 * before the operation, so a negative one sets all the upper bits. */
#include "test_macros.h"

#define R(a, b) ((a) | (b))

TEST_BEGIN

  TEST_IMM_OP(1, ori, R(0xff00ff00, -0xf1), 0xff00ff00, -0xf1)   /* 0xf0f */
  TEST_IMM_OP(2, ori, R(0x0ff00ff0, 0x0f0), 0x0ff00ff0, 0x0f0)
  TEST_IMM_OP(3, ori, R(0x00ff00ff, 0x70f), 0x00ff00ff, 0x70f)
  TEST_IMM_OP(4, ori, R(0xf00ff00f, 0x0f0), 0xf00ff00f, 0x0f0)
  TEST_IMM_OP(5, ori, R(0, 0), 0, 0)
  TEST_IMM_OP(6, ori, R(0, -1), 0, -1)
  TEST_IMM_OP(7, ori, R(-1, -1), -1, -1)
  TEST_IMM_OP(8, ori, R(0x12345678, -2048), 0x12345678, -2048)
  TEST_IMM_OP(9, ori, R(0x12345678, 2047), 0x12345678, 2047)
  TEST_IMM_OP(10, ori, R(XMIN, -1), XMIN, -1)
  TEST_IMM_OP(11, ori, R(XMAX, -2048), XMAX, -2048)
  TEST_IMM_OP(12, ori, R(XMAX, 0x7ff), XMAX, 0x7ff)
#if __riscv_xlen == 64
  TEST_IMM_OP(13, ori, R(0x00ff00ff00ff00ff, -0x800), 0x00ff00ff00ff00ff, -0x800)
  TEST_IMM_OP(14, ori, R(0xff00ff0000ff00ff, 0x0f0), 0xff00ff0000ff00ff, 0x0f0)
#endif

  TEST_IMM_SRC1_EQ_DEST(20, ori, R(0xff00ff00, 0x70f), 0xff00ff00, 0x70f)
  TEST_IMM_SRC1_EQ_DEST(21, ori, R(0x0ff00ff0, -0x10), 0x0ff00ff0, -0x10)
  TEST_IMM_ZEROSRC1(22, ori, R(0, 0x0f0), 0x0f0)
  TEST_IMM_ZEROSRC1(23, ori, R(0, -0x7f1), -0x7f1)
  TEST_IMM_ZERODEST(24, ori, 0x00ff00ff, 0x70f)

TEST_END
