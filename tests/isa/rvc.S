/* C (RVC): every compressed instruction of RV32C/RV64C without floating
 * point, each against the value its 32-bit expansion gives, plus what C
 * changes around it: return addresses of c.jal/c.jalr are pc + 2, jumps
 * to 2-byte aligned targets, 4-byte instructions at 2 mod 4 and one that
 * crosses a page boundary. Built with C, so the assembler compresses
 * the macros' own code too; sp is saved in s11 around the sp-relative
 * forms and put back. */
#include "test_macros.h"

  .option rvc
TEST_BEGIN
  mv s11, sp

  /* c.addi4spn, c.addi16sp: sp-relative, scaled immediates. */
  LA_ABS(sp, data)
  TEST_CASE(1, a0, 0, c.addi4spn a0, sp, 1020; LA_ABS(a1, data + 1020); sub a0, a0, a1)
  TEST_CASE(2, a0, 0, c.addi16sp sp, 496; LA_ABS(a1, data + 496); sub a0, sp, a1)
  TEST_CASE(3, a0, 0, c.addi16sp sp, -512; LA_ABS(a1, data - 16); sub a0, sp, a1)

  /* c.lw, c.sw (x8-x15 and a scaled offset), c.lwsp, c.swsp. */
  LA_ABS(s0, data)
  TEST_CASE(4, a2, SEXT32(0x89abcdef + 1), c.lw a0, 4(s0); addi a0, a0, 1; c.sw a0, 4(s0); c.lw a2, 4(s0))
  TEST_CASE(5, a3, SEXT32(0x89abcdf0 + 1), LA_ABS(sp, data); c.lwsp a3, 4(sp); addi a3, a3, 1; c.swsp a3, 124(sp); c.lwsp a3, 124(sp))
#if __riscv_xlen == 64
  TEST_CASE(6, a2, 0x89abcdf001234568, c.ld a0, 0(s0); addi a0, a0, 1; c.sd a0, 120(s0); c.ld a2, 120(s0))
  TEST_CASE(7, a3, 0x89abcdf001234569, LA_ABS(sp, data); c.ldsp a3, 0(sp); addi a3, a3, 2; c.sdsp a3, 504(sp); c.ldsp a3, 504(sp))
#endif
  mv sp, s11

  /* Immediates. */
  TEST_CASE(8, a0, -31, li a0, 1; c.addi a0, -32)
  TEST_CASE(9, a0, 32, li a0, 1; c.addi a0, 31)
  TEST_CASE(10, a5, -32, li a5, 7; c.li a5, -32)
  TEST_CASE(11, s0, SEXT32(0xfffe1000), c.lui s0, 0xfffe1)
  TEST_CASE(12, s0, 0x1f000, c.lui s0, 0x1f)
  TEST_CASE(13, s0, -31, c.lui s0, 0xfffe1; c.srai s0, 12)
#if __riscv_xlen == 64
  TEST_CASE(14, s0, 0x000fffffffffffe1, c.lui s0, 0xfffe1; c.srli s0, 12)
#else
  TEST_CASE(14, s0, 0x000fffe1, c.lui s0, 0xfffe1; c.srli s0, 12)
#endif
  TEST_CASE(15, s1, ~0x13, li s1, -1; c.andi s1, -20)
  TEST_CASE(16, a4, 0x12340, li a4, 0x1234; c.slli a4, 4)
  TEST_CASE(17, a4, MASK_XLEN(1 << (XLEN - 1)), li a4, 1; c.slli a4, XLEN - 1)
#if __riscv_xlen == 64
  TEST_CASE(18, a0, SEXT32(0x80000000), li a0, 0x7fffffff; c.addiw a0, 1)
  TEST_CASE(19, a0, 5, li a0, 0x100000004; c.addiw a0, 1)
#endif

  /* Register-register forms. */
  TEST_CASE(20, s1, 14, li s1, 20; li a0, 6; c.sub s1, a0)
  TEST_CASE(21, s1, 18, li s1, 20; li a0, 6; c.xor s1, a0)
  TEST_CASE(22, s1, 22, li s1, 20; li a0, 6; c.or s1, a0)
  TEST_CASE(23, s1, 4, li s1, 20; li a0, 6; c.and s1, a0)
#if __riscv_xlen == 64
  TEST_CASE(24, s1, SEXT32(0x80000000), li s1, 0x7fffffff; li a0, -1; c.subw s1, a0)
  TEST_CASE(25, s1, SEXT32(0x80000000), li s1, 0x7fffffff; li a0, 1; c.addw s1, a0)
#endif
  TEST_CASE(26, t6, 0x246, li a0, 0x123; c.mv t6, a0; c.add t6, a0)
  TEST_CASE(27, t6, 0x123, li a0, 0x123; c.mv t6, a0; c.mv t5, t6; c.mv t6, t5)

  /* The checks below branch with c.beqz and friends (reach: 256 bytes)
   * to this stub. */
  c.j 1f
fail_c:
  j fail
1:

  /* c.j, c.beqz, c.bnez, taken and not. */
  TEST_NUM(30)
  c.j 1f
  c.j fail_c
1:
  li s0, 0
  c.bnez s0, fail_c
  c.beqz s0, 2f
  c.j fail_c
2:
  li s0, 3
  c.beqz s0, fail_c
  c.bnez s0, 3f
  c.j fail_c
3:

  /* c.jr to a 2-byte aligned target, and c.jalr: ra = pc + 2. */
  TEST_NUM(31)
  LA_ABS(t1, 4f)
  c.jr t1
  c.j fail_c
4:
  LA_ABS(t1, 5f)
  c.jalr t1
ret_31:
  c.j fail_c
5:
  LA_ABS(t2, ret_31)
  bne ra, t2, fail_c
#if __riscv_xlen == 32
  TEST_NUM(32)
  c.jal 6f
ret_32:
  c.j fail_c
6:
  LA_ABS(t2, ret_32)
  bne ra, t2, fail_c
#endif

  /* A 4-byte jal at 2 mod 4 links pc + 4. */
  TEST_NUM(33)
  .balign 4
  c.nop
  .option push
  .option norvc
  jal ra, 7f
  .option pop
ret_33:
  c.j fail_c
7:
  LA_ABS(t2, ret_33)
  bne ra, t2, fail_c
  andi t2, t2, 3
  li t3, 2
  bne t2, t3, fail_c

  /* A call and return with c.jalr and c.jr ra. */
  TEST_NUM(34)
  LA_ABS(t1, leaf)
  li a0, 5
  c.jalr t1
  li t2, 6
  bne a0, t2, fail_c

  /* A 4-byte instruction whose second half lies on the next page. */
  TEST_NUM(35)
  li a1, 41
  j 8f
  .balign 4096, 0
  .skip 4094, 0
8:
  .option push
  .option norvc
  addi a1, a1, 1
  .option pop
  li t2, 42
  bne a1, t2, fail
  j pass_c

leaf:
  c.addi a0, 1
  c.jr ra
pass_c:
TEST_END

  .data
  .balign 8
  .skip 16
data:
  .word 0x01234567, 0x89abcdef, 0x89abcdf0
  .skip 1024
