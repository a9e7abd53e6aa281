/*
 * pages_c: a guest with C whose last compressed instruction ends its 1 KiB
 * code page, for the paging test of compressed fetches
 * (tests/zkvm/test_weights.py): the fetch of that 2-byte instruction
 * touches its own page only, so the run pages in the one code page.
 *
 *   _start (0x0020_0800): c.j to the page's last halfword
 *   exit:                 addi a7 = 93, c.li a0 = 0, ecall (exit 0)
 *   0x0020_0BFE:          c.j exit
 */
    .section .text._start, "ax"
    .globl _start
    .type _start, @function
    .option rvc
_start:
    c.j 1f
exit:
    addi a7, zero, 93
    c.li a0, 0
    ecall
    .skip 0x3FE - (. - _start)
1:
    c.j exit
    .size _start, . - _start
