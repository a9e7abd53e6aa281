/* xor: rd = rs1 ^ rs2 (bitwise exclusive or). */
#include "test_macros.h"

#define R(a, b) ((a) ^ (b))

TEST_BEGIN

  TEST_RR_OP(1, xor, R(0xff00ff00, 0x0f0f0f0f), 0xff00ff00, 0x0f0f0f0f)
  TEST_RR_OP(2, xor, R(0x0ff00ff0, 0xf0f0f0f0), 0x0ff00ff0, 0xf0f0f0f0)
  TEST_RR_OP(3, xor, R(0x00ff00ff, 0x0f0f0f0f), 0x00ff00ff, 0x0f0f0f0f)
  TEST_RR_OP(4, xor, R(0xf00ff00f, 0xf0f0f0f0), 0xf00ff00f, 0xf0f0f0f0)
  TEST_RR_OP(5, xor, R(0, 0), 0, 0)
  TEST_RR_OP(6, xor, R(-1, 0), -1, 0)
  TEST_RR_OP(7, xor, R(-1, -1), -1, -1)
  TEST_RR_OP(8, xor, R(XMIN, XMAX), XMIN, XMAX)
  TEST_RR_OP(9, xor, R(XMIN, -1), XMIN, -1)
  TEST_RR_OP(10, xor, R(-0x80000000, 0x7fffffff), -0x80000000, 0x7fffffff)
#if __riscv_xlen == 64
  /* The upper 32 bits take part. */
  TEST_RR_OP(11, xor, R(0xff00ff0000ff00ff, 0x0f0f0f0ff0f0f0f0), 0xff00ff0000ff00ff, 0x0f0f0f0ff0f0f0f0)
  TEST_RR_OP(12, xor, R(0x8000000000000001, 0xffffffff00000001), 0x8000000000000001, 0xffffffff00000001)
#endif

  TEST_RR_SRC1_EQ_DEST(20, xor, R(0xff00ff00, 0x0f0f0f0f), 0xff00ff00, 0x0f0f0f0f)
  TEST_RR_SRC2_EQ_DEST(21, xor, R(0xff00ff00, 0x0f0f0f0f), 0xff00ff00, 0x0f0f0f0f)
  TEST_RR_SRC12_EQ_DEST(22, xor, R(0xff00ff00, 0xff00ff00), 0xff00ff00)
  TEST_RR_SRC12_SAME(23, xor, R(-0x1234, -0x1234), -0x1234)
  TEST_RR_ZEROSRC1(24, xor, R(0, 0x11ff00ff), 0x11ff00ff)
  TEST_RR_ZEROSRC2(25, xor, R(0x00ff00ff, 0), 0x00ff00ff)
  TEST_RR_ZEROSRC12(26, xor, 0)
  TEST_RR_ZERODEST(27, xor, 0x11111111, 0x22222222)

TEST_END
