/* slliw (RV64 only): rd = sext32(rs1[31:0] << shamt), shamt 0..31. The
 * upper 32 bits of the sources are ignored and the 32-bit result is sign-
 * extended to 64 bits. */
#include "test_macros.h"

TEST_BEGIN

  TEST_IMM_OP(1, slliw, 1, 1, 0)
  TEST_IMM_OP(2, slliw, 2, 1, 1)
  TEST_IMM_OP(3, slliw, 128, 1, 7)
  TEST_IMM_OP(4, slliw, 0xffffffff80000000, 1, 31)
  TEST_IMM_OP(5, slliw, 0xffffffff80000000, -1, 31)
  TEST_IMM_OP(6, slliw, 0xffffffff90909080, 0x0000000021212121, 7)
  TEST_IMM_OP(7, slliw, 1, 0xdeadbeef00000001, 0)  /* upper bits ignored */
  TEST_IMM_OP(8, slliw, 0xffffffff80000000, 0xdeadbeef00000001, 31)  /* upper bits ignored */
  TEST_IMM_OP(9, slliw, 0xffffffffc0000000, 0xffffffff00000003, 30)
  TEST_IMM_OP(10, slliw, 0xffffffff80000000, 0x0000000180000000, 0)  /* upper bits ignored */
  TEST_IMM_OP(11, slliw, 0xffffffff80000000, 0x0000000080000000, 0)

  TEST_IMM_SRC1_EQ_DEST(40, slliw, 0xffffffff80000000, 1, 31)
  TEST_IMM_ZEROSRC1(41, slliw, 0, 5)
  TEST_IMM_ZERODEST(43, slliw, 0x7fffffff, 1)

TEST_END
