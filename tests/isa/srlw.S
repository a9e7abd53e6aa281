/* srlw (RV64 only): rd = sext32(rs1[31:0] >> rs2[4:0]), logical. The upper
 * 32 bits of the sources are ignored and the 32-bit result is sign-
 * extended to 64 bits. */
#include "test_macros.h"

TEST_BEGIN

  TEST_RR_OP(1, srlw, 0xffffffff80000000, 0x0000000080000000, 0)
  TEST_RR_OP(2, srlw, 0x0000000040000000, 0x0000000080000000, 1)
  TEST_RR_OP(3, srlw, 1, 0x0000000080000000, 31)
  TEST_RR_OP(4, srlw, -1, -1, 0)
  TEST_RR_OP(5, srlw, 0x000000007fffffff, -1, 1)
  TEST_RR_OP(6, srlw, 1, -1, 31)
  TEST_RR_OP(7, srlw, -1, -1, 32)
  TEST_RR_OP(8, srlw, 0x000000007fffffff, -1, 33)
  TEST_RR_OP(9, srlw, 0x0000000000424242, 0x0000000021212121, 7)
  TEST_RR_OP(10, srlw, 0xffffffff80000000, 0xdeadbeef80000000, 0)  /* upper bits ignored */
  TEST_RR_OP(11, srlw, 0x0000000001234567, 0xdeadbeef12345678, 4)  /* upper bits ignored */
  TEST_RR_OP(12, srlw, 1, 0x00000001ffffffff, 63)  /* upper bits ignored */
  TEST_RR_OP(13, srlw, 0x000000007fffffff, 0x000000007fffffff, 0)

  TEST_RR_SRC1_EQ_DEST(40, srlw, 0x0000000001ffffff, -1, 7)
  TEST_RR_SRC2_EQ_DEST(41, srlw, 0x00000000000048d1, 0x0000000012345678, 14)
  TEST_RR_SRC12_EQ_DEST(42, srlw, 64, 129)
  TEST_RR_SRC12_SAME(43, srlw, 1, -129)
  TEST_RR_ZEROSRC1(44, srlw, 0, 31)
  TEST_RR_ZEROSRC2(45, srlw, 31, 31)
  TEST_RR_ZEROSRC12(46, srlw, 0)
  TEST_RR_ZERODEST(47, srlw, 33, 11)

TEST_END
