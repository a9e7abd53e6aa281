/* addi: rd = rs1 + sext(imm12), wrapping modulo 2^XLEN. Also `li` and
 * `mv` are addi. */
#include "test_macros.h"

TEST_BEGIN

  TEST_IMM_OP(1, addi, 0, 0, 0)
  TEST_IMM_OP(2, addi, 2, 1, 1)
  TEST_IMM_OP(3, addi, 10, 3, 7)
  TEST_IMM_OP(4, addi, -2048, 0, -2048)       /* most negative imm */
  TEST_IMM_OP(5, addi, 2047, 0, 2047)         /* most positive imm */
  TEST_IMM_OP(6, addi, -1, 0, -1)
  TEST_IMM_OP(7, addi, 0, 1, -1)
  TEST_IMM_OP(8, addi, XMIN, XMAX, 1)         /* wraps */
  TEST_IMM_OP(9, addi, XMAX, XMIN, -1)
  TEST_IMM_OP(10, addi, XMIN + 2047, XMIN, 2047)
  TEST_IMM_OP(11, addi, XMAX - 2048, XMAX, -2048)
  TEST_IMM_OP(12, addi, 0x7ff + 0x7ff, 0x7ff, 0x7ff)
  TEST_IMM_OP(13, addi, 0x800 - 0x800, 0x800, -0x800)
#if __riscv_xlen == 64
  TEST_IMM_OP(14, addi, 0x0000000080000000, 0x7fffffff, 1)   /* no 32-bit wrap */
  TEST_IMM_OP(15, addi, 0x00000000ffffffff, 0x0000000100000000, -1)
  TEST_IMM_OP(16, addi, -0x80000001, -0x80000000, -1)
#else
  TEST_IMM_OP(14, addi, -0x80000000, 0x7fffffff, 1)
  TEST_IMM_OP(15, addi, 0xffffffff, 0, -1)
  TEST_IMM_OP(16, addi, 0x7fffffff, -0x80000000, -1)
#endif

  TEST_IMM_SRC1_EQ_DEST(20, addi, 24, 13, 11)
  TEST_IMM_SRC1_EQ_DEST(21, addi, -2035, 13, -2048)
  TEST_IMM_ZEROSRC1(22, addi, 32, 32)
  TEST_IMM_ZEROSRC1(23, addi, -2048, -2048)
  TEST_IMM_ZERODEST(24, addi, 33, 50)

TEST_END
