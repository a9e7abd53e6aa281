/*
 * zisk_old_input: a guest of ZisK before v0.16.0, which put the input at
 * INPUT_ADDR 0x9000_0000 (core/src/mem.rs up to v0.15.0): from v0.7.0 a
 * free-input word of 0, then the input's length and its bytes
 * (read_input at INPUT_ADDR + 8); before v0.7.0 (built with
 * -DZISK_LENGTH_FIRST) the length first and the bytes after it. Its
 * system area is at the bottom of RAM (SYS_ADDR 0xA000_0000: the UART
 * at + 0x200, the output area at + 0x1_0000), its data from 0xA002_0000.
 * It outputs the input's length and its bytes (padded to 4) as public
 * words, prints "ok\n" and exits 0; given an empty input it prints a panic
 * message and runs `unimp`, where ziskos ends a panic.
 */
#include "zkvm_guest.h"

__asm__(ZKVM_START_GP "  li sp, 0xA03FFFF0\n"
                      "  call ziskos_main\n"
                      "  li a0, 0\n"
                      "  li a7, 93\n"
                      "  ecall\n");

#define INPUT_ADDR  0x90000000ul
#define OUTPUT_ADDR 0xA0010000ul
#define UART_ADDR   0xA0000200ul

#ifdef ZISK_LENGTH_FIRST
#define LENGTH_AT 0
#else
#define LENGTH_AT 8
#endif

static uint32_t outputs;

__attribute__((noinline)) void ziskos_set_output(uint32_t value)
{
    volatile uint32_t *out = (volatile uint32_t *)OUTPUT_ADDR;
    out[1 + outputs++] = value;
    out[0] = outputs;
}

__attribute__((noinline)) void ziskos_print(const char *s)
{
    while (*s)
        *(volatile uint8_t *)UART_ADDR = (uint8_t)*s++;
}

__attribute__((noinline)) const uint8_t *ziskos_read_input(uint64_t *len)
{
    *len = *(const volatile uint64_t *)(INPUT_ADDR + LENGTH_AT);
    return (const uint8_t *)(INPUT_ADDR + LENGTH_AT + 8);
}

__attribute__((noinline, noreturn)) void ziskos_panic(const char *why)
{
    ziskos_print(why);
    __asm__ volatile("unimp");
    __builtin_unreachable();
}

void ziskos_main(void)
{
    uint64_t len;
    const uint8_t *in = ziskos_read_input(&len);
    if (len == 0)
        ziskos_panic("panicked: the input is empty\n");
    ziskos_set_output((uint32_t)len);
    for (uint64_t i = 0; i < len; i += 4) {
        uint32_t w = 0;
        for (uint64_t k = 0; k < 4 && i + k < len; k++)
            w |= (uint32_t)in[i + k] << (8 * k);
        ziskos_set_output(w);
    }
    ziskos_print("ok\n");
}
