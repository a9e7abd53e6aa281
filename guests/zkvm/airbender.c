/*
 * airbender: a guest written to ZKsync Airbender's conventions
 * (matter-labs/zksync-airbender riscv_common/src/lib.rs and
 * examples/scripts/lds at 539f3a1b; airbender.ld): text from 0, the stack
 * from 2 MiB, no ecall: input is read word by word from the oracle CSR
 * (csrrw rd, 0x7c0, x0), text goes out through QuasiUART (0xffffffff, a
 * word count, the byte length, the bytes, written to the same CSR), and
 * the run ends in zksync_os_finish_success: the output in x10..x17 and a
 * jump to itself. The first word read is a mode:
 *   0  write "ok" through the UART, finish with the next 8 words
 *   1  blake2s round delegation (CSR 0x7C7): read the 24-word state, the
 *      16-word block, x12 and x13; write the state (24 words) through the
 *      UART, finish with its first 8 words
 *   2  u256 delegation (CSR 0x7CA): read a, b (8 words each) and x12; write
 *      a and x12 out through the UART, finish with a
 *   3  zksync_os_finish_error: write the cycle CSR (Airbender refuses it)
 *   4  read the unknown CSR 0x7c5
 *   5  access_once(the next two words) (zkvm_guest.h); finish with its result
 * The functions are named riscv_common_*, as the crate's are.
 */
#include "zkvm_guest.h"

__asm__(ZKVM_START_GP "  la sp, _stack_top\n"
                      "  call riscv_common_main\n"
                      "  .text\n"); /* back to .text, where GCC expects its functions */

__attribute__((noinline)) uint32_t riscv_common_csr_read_word(void)
{
    uint32_t v;
    __asm__ volatile("csrrw %0, 0x7c0, x0" : "=r"(v));
    return v;
}

__attribute__((noinline)) void riscv_common_csr_write_word(uint32_t v)
{
    __asm__ volatile("csrrw x0, 0x7c0, %0" : : "r"(v));
}

/* QuasiUART: the hello word, the word count (length word and text), the length, the text. */
__attribute__((noinline)) void riscv_common_uart_write(const void *p, uint32_t n)
{
    const uint8_t *b = p;
    riscv_common_csr_write_word(0xffffffffu);
    riscv_common_csr_write_word(1 + (n + 3) / 4);
    riscv_common_csr_write_word(n);
    for (uint32_t i = 0; i < n; i += 4) {
        uint32_t w = 0;
        for (uint32_t k = 0; k < 4 && i + k < n; k++)
            w |= (uint32_t)b[i + k] << (8 * k);
        riscv_common_csr_write_word(w);
    }
}

__attribute__((noreturn, noinline)) void riscv_common_zksync_os_finish_success(const uint32_t o[8])
{
    register uint32_t a0 __asm__("a0") = o[0], a1 __asm__("a1") = o[1], a2 __asm__("a2") = o[2],
                         a3 __asm__("a3") = o[3], a4 __asm__("a4") = o[4], a5 __asm__("a5") = o[5],
                         a6 __asm__("a6") = o[6], a7 __asm__("a7") = o[7];
    __asm__ volatile("1: j 1b"
                     :
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(a4), "r"(a5), "r"(a6), "r"(a7));
    __builtin_unreachable();
}

__attribute__((noreturn, noinline)) void riscv_common_zksync_os_finish_error(void)
{
    __asm__ volatile(".word 0xc0001073"); /* csrrw x0, cycle, x0 */
    __builtin_unreachable();
}

static void read_words(uint32_t *w, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        w[i] = riscv_common_csr_read_word();
}

/* The operands lie in RAM above 2 MiB, the state 128-aligned, as the delegations want. */
static uint32_t blake_state[24] __attribute__((aligned(128)));
static uint32_t blake_block[16] __attribute__((aligned(128)));
static uint32_t u256_a[8] __attribute__((aligned(32)));
static uint32_t u256_b[8] __attribute__((aligned(32)));

__attribute__((noinline)) void riscv_common_blake2s_round(uint32_t x12, uint32_t x13)
{
    register uint32_t r10 __asm__("x10") = (uint32_t)(uintptr_t)blake_state;
    register uint32_t r11 __asm__("x11") = (uint32_t)(uintptr_t)blake_block;
    register uint32_t r12 __asm__("x12") = x12;
    register uint32_t r13 __asm__("x13") = x13;
    __asm__ volatile("csrrw x0, 0x7c7, x0"
                     : "+r"(r10), "+r"(r11), "+r"(r12), "+r"(r13)
                     :
                     : "memory");
}

__attribute__((noinline)) uint32_t riscv_common_u256_op(uint32_t x12)
{
    register uint32_t r10 __asm__("x10") = (uint32_t)(uintptr_t)u256_a;
    register uint32_t r11 __asm__("x11") = (uint32_t)(uintptr_t)u256_b;
    register uint32_t r12 __asm__("x12") = x12;
    __asm__ volatile("csrrw x0, 0x7ca, x0" : "+r"(r10), "+r"(r11), "+r"(r12) : : "memory");
    return r12;
}

void riscv_common_main(void)
{
    uint32_t out[9];
    memset(out, 0, sizeof(out));
    switch (riscv_common_csr_read_word()) {
    case 0:
        riscv_common_uart_write("ok", 2);
        read_words(out, 8);
        break;
    case 1: {
        uint32_t ctl[2];
        read_words(blake_state, 24);
        read_words(blake_block, 16);
        read_words(ctl, 2);
        riscv_common_blake2s_round(ctl[0], ctl[1]);
        riscv_common_uart_write(blake_state, sizeof(blake_state));
        memcpy(out, blake_state, 32);
        break;
    }
    case 2: {
        uint32_t x12;
        read_words(u256_a, 8);
        read_words(u256_b, 8);
        read_words(&x12, 1);
        out[8] = riscv_common_u256_op(x12);
        memcpy(out, u256_a, 32);
        riscv_common_uart_write(out, sizeof(out));
        break;
    }
    case 3: riscv_common_zksync_os_finish_error();
    case 4: __asm__ volatile("csrrw %0, 0x7c5, x0" : "=r"(out[0])); break;
    case 5: {
        uint32_t a[2];
        read_words(a, 2);
        out[0] = (uint32_t)access_once(a[0], a[1]);
        break;
    }
    }
    riscv_common_zksync_os_finish_success(out);
}
