/* sraw (RV64 only): rd = sext32(rs1[31:0] >> rs2[4:0]), arithmetic. The
 * upper 32 bits of the sources are ignored and the 32-bit result is sign-
 * extended to 64 bits. */
#include "test_macros.h"

TEST_BEGIN

  TEST_RR_OP(1, sraw, 0xffffffff80000000, 0x0000000080000000, 0)
  TEST_RR_OP(2, sraw, 0xffffffffc0000000, 0x0000000080000000, 1)
  TEST_RR_OP(3, sraw, -1, 0x0000000080000000, 31)
  TEST_RR_OP(4, sraw, -1, -1, 0)
  TEST_RR_OP(5, sraw, -1, -1, 31)
  TEST_RR_OP(6, sraw, 0x000000003fffffff, 0x000000007fffffff, 1)
  TEST_RR_OP(7, sraw, 0, 0x000000007fffffff, 31)
  TEST_RR_OP(8, sraw, 0x000000007fffffff, 0x000000007fffffff, 32)
  TEST_RR_OP(9, sraw, 0x000000003fffffff, 0x000000007fffffff, 33)
  TEST_RR_OP(10, sraw, 0xfffffffff8000000, 0xdeadbeef80000000, 4)  /* upper bits ignored */
  TEST_RR_OP(11, sraw, 0x0000000007ffffff, 0xffffffff7fffffff, 4)
  TEST_RR_OP(12, sraw, -1, 0x0000000080000000, -1)

  TEST_RR_SRC1_EQ_DEST(40, sraw, -16, -256, 4)
  TEST_RR_SRC2_EQ_DEST(41, sraw, 0x00000000000048d1, 0x0000000012345678, 14)
  TEST_RR_SRC12_EQ_DEST(42, sraw, -64, -127)
  TEST_RR_SRC12_SAME(43, sraw, 0, 127)
  TEST_RR_ZEROSRC1(44, sraw, 0, 31)
  TEST_RR_ZEROSRC2(45, sraw, 31, 31)
  TEST_RR_ZEROSRC12(46, sraw, 0)
  TEST_RR_ZERODEST(47, sraw, 33, 11)

TEST_END
