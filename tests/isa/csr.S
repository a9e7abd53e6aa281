/* Zicsr reads: rdinstret/rdcycle/rdtime count retired instructions (no
 * cycle or time model: all three are the instruction count), read before
 * the reading instruction retires; marchid reads 0 under the linux ABI.
 * Only these reads are supported (docs/CONTRACT.md). qemu-user's counters
 * are host time, not instructions, so qemu cannot check this one. */
#include "test_macros.h"

TEST_BEGIN

  /* Two reads with 5 instructions between: 6 apart (the first read retires too). */
  TEST_NUM(1)
  rdinstret x20
  nop; nop; nop; nop; nop
  rdinstret x21
  sub x14, x21, x20; CHECK(x14, 6)
  /* Adjacent reads of each counter: 1 apart. */
  TEST_NUM(2)
  rdcycle x20; rdcycle x21; sub x14, x21, x20; CHECK(x14, 1)
  TEST_NUM(3)
  rdtime x20; rdtime x21; sub x14, x21, x20; CHECK(x14, 1)
  /* A loop of 100 iterations of 2 instructions. */
  TEST_NUM(4)
  li x16, 100
  rdinstret x20
1:addi x16, x16, -1
  bnez x16, 1b
  rdinstret x21
  sub x14, x21, x20; CHECK(x14, 201)
  /* The counter is positive and nonzero: instructions ran before it. */
  TEST_NUM(5)
  rdinstret x20; beqz x20, fail
#if __riscv_xlen == 32
  /* The upper halves are 0 in a short run. */
  TEST_NUM(6)
  rdinstreth x14; CHECK(x14, 0)
  rdcycleh x14; CHECK(x14, 0)
  rdtimeh x14; CHECK(x14, 0)
#endif
  /* Other read-only forms: csrrc with x0, csrrsi/csrrci with 0. */
  TEST_NUM(7)
  csrrc x20, instret, x0; csrrsi x21, instret, 0; csrrci x22, instret, 0
  sub x14, x21, x20; CHECK(x14, 1)
  sub x14, x22, x20; CHECK(x14, 2)
  TEST_NUM(8)
  csrr x14, marchid; CHECK(x14, 0)

TEST_END
