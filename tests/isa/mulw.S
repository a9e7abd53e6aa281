/* mulw (RV64 only): rd = sext32(low 32 bits of rs1 * rs2). The upper 32
 * bits of the sources are ignored and the 32-bit result is sign-extended
 * to 64 bits. */
#include "test_macros.h"

TEST_BEGIN

  TEST_RR_OP(1, mulw, 0, 0, 0)
  TEST_RR_OP(2, mulw, 1, 1, 1)
  TEST_RR_OP(3, mulw, 21, 3, 7)
  TEST_RR_OP(4, mulw, 1, -1, -1)
  TEST_RR_OP(5, mulw, -1, -1, 1)
  TEST_RR_OP(6, mulw, -2, 0x000000007fffffff, 2)
  TEST_RR_OP(7, mulw, 0, 0x0000000000010000, 0x0000000000010000)
  TEST_RR_OP(8, mulw, 0xffffffff80000000, 0x0000000000008000, 0x0000000000010000)
  TEST_RR_OP(9, mulw, 1, 0x00000000ffffffff, 0x00000000ffffffff)
  TEST_RR_OP(10, mulw, 15, 0x0000000100000003, 0x0000000200000005)  /* upper bits ignored */
  TEST_RR_OP(11, mulw, 0x00000000242d2080, 0x0000000012345678, 0x000000009abcdef0)
  TEST_RR_OP(12, mulw, 0xffffffff80000000, 0xffffffff80000000, -1)
  TEST_RR_OP(13, mulw, 1, 0xdeadbeef7fffffff, 0xdeadbeef7fffffff)  /* upper bits ignored */

  TEST_RR_SRC1_EQ_DEST(40, mulw, 143, 13, 11)
  TEST_RR_SRC2_EQ_DEST(41, mulw, -15, -3, 5)
  TEST_RR_SRC12_EQ_DEST(42, mulw, 49, 7)
  TEST_RR_SRC12_SAME(43, mulw, 49, -7)
  TEST_RR_ZEROSRC1(44, mulw, 0, 31)
  TEST_RR_ZEROSRC2(45, mulw, 0, 31)
  TEST_RR_ZEROSRC12(46, mulw, 0)
  TEST_RR_ZERODEST(47, mulw, 33, 11)

TEST_END
