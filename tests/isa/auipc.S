/* auipc: rd = pc + sext(imm20 << 12). The expected values come from the
 * absolute address of the instruction (lui + addi, no auipc) plus the
 * sign-extended offset; on RV32 the sum wraps modulo 2^32. */
#include "test_macros.h"

/* auipc with `imm` at label auipc_<testnum>; compare with the label's
 * absolute address + `offset` (imm << 12 as a signed XLEN value). */
#define TEST_AUIPC(testnum, imm, offset)                               \
  TEST_NUM(testnum)                                                    \
  li x14, -1;                                                          \
  auipc_##testnum: auipc x14, imm;                                     \
  LA_ABS(x15, auipc_##testnum)                                         \
  li x16, MASK_XLEN(offset);                                           \
  add x15, x15, x16;                                                   \
  bne x14, x15, fail;

TEST_BEGIN

  TEST_AUIPC(1, 0, 0)
  TEST_AUIPC(2, 1, 0x1000)
  TEST_AUIPC(3, 0x12345, 0x12345000)
  TEST_AUIPC(4, 0x7ffff, 0x7ffff000)        /* largest positive */
  TEST_AUIPC(5, 0x80000, -0x80000000)       /* bit 31 set: backwards */
  TEST_AUIPC(6, 0xfffff, -0x1000)
  TEST_AUIPC(7, 0xabcde, SEXT32(0xabcde000))

  /* The same with fixed numbers: the text starts far below 2 GiB, so on
   * RV64 a backward offset of 2 GiB lands in the upper half. */
  TEST_NUM(8)
  auipc_8: auipc x14, 0x80000
  LA_ABS(x15, auipc_8)
  sub x14, x14, x15
  CHECK(x14, -0x80000000)
  srai x14, x14, 31
  CHECK(x14, -1)

  /* lla: auipc + addi with %pcrel_hi / %pcrel_lo, to code and to data. */
  TEST_NUM(9)
  lla x14, target_data
  LA_ABS(x15, target_data)
  bne x14, x15, fail
  lla x14, test_1
  LA_ABS(x15, test_1)
  bne x14, x15, fail
  lla x14, target_data + 0x12345
  LA_ABS(x15, target_data + 0x12345)
  bne x14, x15, fail

  /* auipc 0 then jal: both see the pc of their own instruction. */
  TEST_NUM(10)
  auipc x14, 0
  jal x15, 1f
1:
  sub x14, x15, x14
  CHECK(x14, 8)

  /* Write to x0 is dropped. */
  TEST_CASE(11, x0, 0, auipc x0, 0x12345)
  TEST_CASE_ZERO_USE(x0)

TEST_END

  .data
  .balign 8
target_data:
  .word 0x12345678
