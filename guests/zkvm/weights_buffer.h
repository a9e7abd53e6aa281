/*
 * weights_buffer.h: for the weight tests' guests (weights.S, costmix.S),
 * `buffer REG` puts the data buffer's address in REG: 0x0010_0000
 * (lui, an add-class instruction), or under ZisK 0xA0A0_0000 in its RAM
 * (lui, slli: a lui alone would sign-extend it on RV64).
 */
    .macro buffer reg
#ifdef ZISK
    lui \reg, 0x50500
    slli \reg, \reg, 1
#else
    lui \reg, 0x100
#endif
    .endm
