/*
 * crt0.S: guest entry point. Trusts the loader's sp (16-byte aligned, on an
 * empty Linux start frame), sets gp and tp, runs the constructors, calls
 * main(0, NULL, NULL) and leaves through exit() so that destructors run
 * and stdio is flushed.
 */
	.section .text._start, "ax", @progbits
	.option norvc
	.globl	_start
	.type	_start, @function
_start:
	/* gp must not be relaxed into a gp-relative load of itself */
	.option	push
	.option	norelax
	lla	gp, __global_pointer$
	.option	pop
	/* RISC-V TLS (variant I, no TCB): tp = start of the TLS block, here
	 * the initial image itself (see guest.ld). */
	lla	tp, __tls_base
	call	__libc_init_array	/* preinit_array, _init, init_array */
	li	a0, 0			/* argc */
	li	a1, 0			/* argv */
	li	a2, 0			/* envp */
	call	main
	call	exit			/* never returns */
	.size	_start, . - _start
