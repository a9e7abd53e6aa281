/* lui: rd = sext(imm20 << 12). The low 12 bits become 0; on RV64 bit 31
 * of the result is copied into bits 63..32. */
#include "test_macros.h"

#define TEST_LUI(testnum, result, imm)                                 \
  TEST_CASE(testnum, x14, result, li x14, -1; lui x14, imm)

TEST_BEGIN

  TEST_LUI(1, 0, 0)
  TEST_LUI(2, 0x1000, 1)
  TEST_LUI(3, 0x12345000, 0x12345)
  TEST_LUI(4, 0x7ffff000, 0x7ffff)          /* largest positive */
  TEST_LUI(5, -0x80000000, 0x80000)         /* bit 31 set: negative */
  TEST_LUI(6, -0x80000000 + 0x1000, 0x80001)
  TEST_LUI(7, -0x1000, 0xfffff)
#if __riscv_xlen == 64
  TEST_LUI(9, 0xffffffffabcdf000, 0xabcdf)
#else
  TEST_LUI(9, 0xabcdf000, 0xabcdf)
#endif

  /* The sign extension shows in an arithmetic shift. */
  TEST_CASE(10, x14, -0x40000000, lui x14, 0x80000; srai x14, x14, 1)
  TEST_CASE(11, x14, 0x3ffff800, lui x14, 0x7ffff; srai x14, x14, 1)
  /* lui + addi, as `li` builds a 32-bit constant. */
  TEST_CASE(12, x14, 0x12345678, lui x14, 0x12345; addi x14, x14, 0x678)
  /* 0x80000000 - 1: 0x7fffffff on RV32, 0xffffffff7fffffff on RV64. */
  TEST_CASE(13, x14, -0x80000001, lui x14, 0x80000; addi x14, x14, -1)
  /* Write to x0 is dropped. */
  TEST_CASE(14, x0, 0, lui x0, 0x80000)
  TEST_CASE_ZERO_USE(x0)
  /* Every rd. */
  TEST_CASE(15, x31, 0x0fedc000, lui x31, 0x0fedc)
  TEST_CASE(16, x1, 0x1000, lui x1, 1)

TEST_END
