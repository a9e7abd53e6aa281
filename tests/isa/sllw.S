/* sllw (RV64 only): rd = sext32(rs1[31:0] << rs2[4:0]). The upper 32 bits
 * of the sources are ignored and the 32-bit result is sign-extended to 64
 * bits. */
#include "test_macros.h"

TEST_BEGIN

  TEST_RR_OP(1, sllw, 1, 1, 0)
  TEST_RR_OP(2, sllw, 2, 1, 1)
  TEST_RR_OP(3, sllw, 128, 1, 7)
  TEST_RR_OP(4, sllw, 0xffffffff80000000, 1, 31)
  TEST_RR_OP(5, sllw, 0xffffffff80000000, -1, 31)
  TEST_RR_OP(6, sllw, 1, 1, 32)
  TEST_RR_OP(7, sllw, 2, 1, 33)
  TEST_RR_OP(8, sllw, 0xffffffff80000000, 1, 63)
  TEST_RR_OP(9, sllw, 0xffffffff80000000, 1, -1)
  TEST_RR_OP(10, sllw, 0xffffffff90909080, 0x0000000021212121, 7)
  TEST_RR_OP(11, sllw, 0x0000000048484000, 0x0000000021212121, 14)
  TEST_RR_OP(12, sllw, 1, 0xdeadbeef00000001, 0)  /* upper bits ignored */
  TEST_RR_OP(13, sllw, 0xffffffff80000000, 0xdeadbeef00000001, 31)  /* upper bits ignored */
  TEST_RR_OP(14, sllw, 0xffffffffc0000000, 0xffffffff00000003, 30)
  TEST_RR_OP(15, sllw, 0xffffffff80000000, 0x0000000180000000, 0)  /* upper bits ignored */

  TEST_RR_SRC1_EQ_DEST(40, sllw, 128, 1, 7)
  TEST_RR_SRC2_EQ_DEST(41, sllw, 0x0000000000004000, 1, 14)
  TEST_RR_SRC12_EQ_DEST(42, sllw, 24, 3)
  TEST_RR_SRC12_SAME(43, sllw, 0xffffffffa0000000, -3)
  TEST_RR_ZEROSRC1(44, sllw, 0, 31)
  TEST_RR_ZEROSRC2(45, sllw, 31, 31)
  TEST_RR_ZEROSRC12(46, sllw, 0)
  TEST_RR_ZERODEST(47, sllw, 33, 11)

TEST_END
