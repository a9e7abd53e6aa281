/*
 * rule.h: helpers for the flamegraph rule guests (tests/flamegraph/rules).
 *
 * Every macro expands to a fixed number of real instructions (no
 * pseudo-instruction that may become one or two, no linker relaxation), so
 * the hand-counted expectations in each guest hold for RV32 and RV64 alike.
 * .text is 256-byte aligned, which puts it at 0x10100 for both ELF classes
 * (the ELF and program headers fit below), so addresses are the same too.
 */
#if __riscv_xlen == 64
#define SREG sd
#define LREG ld
#else
#define SREG sw
#define LREG lw
#endif

	.option norvc
	.option norelax

/* exit(0): 3 instructions, the ecall counted */
#define EXIT	addi a0, x0, 0; addi a7, x0, 93; ecall
/* reg = address of sym: 2 instructions */
#define LA(reg, sym)	lui reg, %hi(sym); addi reg, reg, %lo(sym)
/* a global STT_FUNC symbol; END gives it its size */
#define FUNC(name)	.globl name; .type name, @function; name:
#define END(name)	.size name, . - name

/* start of .text at a fixed address for both XLENs */
#define TEXT	.text; .balign 256
