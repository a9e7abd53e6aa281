/* srliw (RV64 only): rd = sext32(rs1[31:0] >> shamt), logical; shift 0
 * still sign-extends. The upper 32 bits of the sources are ignored and the
 * 32-bit result is sign-extended to 64 bits. */
#include "test_macros.h"

TEST_BEGIN

  TEST_IMM_OP(1, srliw, 0xffffffff80000000, 0x0000000080000000, 0)
  TEST_IMM_OP(2, srliw, 0x0000000040000000, 0x0000000080000000, 1)
  TEST_IMM_OP(3, srliw, 1, 0x0000000080000000, 31)
  TEST_IMM_OP(4, srliw, -1, -1, 0)
  TEST_IMM_OP(5, srliw, 0x000000007fffffff, -1, 1)
  TEST_IMM_OP(6, srliw, 1, -1, 31)
  TEST_IMM_OP(7, srliw, 0x0000000000424242, 0x0000000021212121, 7)
  TEST_IMM_OP(8, srliw, 0xffffffff80000000, 0xdeadbeef80000000, 0)  /* upper bits ignored */
  TEST_IMM_OP(9, srliw, 0x0000000001234567, 0xdeadbeef12345678, 4)  /* upper bits ignored */
  TEST_IMM_OP(10, srliw, 1, 0x00000001ffffffff, 31)  /* upper bits ignored */
  TEST_IMM_OP(11, srliw, 0x000000007fffffff, 0x000000007fffffff, 0)

  TEST_IMM_SRC1_EQ_DEST(40, srliw, 0xffffffff80000000, 0x0000000080000000, 0)
  TEST_IMM_ZEROSRC1(41, srliw, 0, 5)
  TEST_IMM_ZERODEST(43, srliw, 0x7fffffff, 1)

TEST_END
