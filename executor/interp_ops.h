/*
 * interp_ops: the interpreter's operations that are one statement (an
 * assignment to rd, a load, a store, a conditional branch), listed once so
 * that interp_impl.h can make from them both the plain handlers and, in
 * the fast loop, the fused pairs: a handler that runs one of these and
 * then goes straight (by a direct jump) to the next instruction's handler.
 * The indirect jump of threaded dispatch costs more than most operations
 * themselves, and a pair needs one where two instructions needed two.
 *
 * Entries are X(NAME, statement); a statement must keep its commas inside
 * parentheses, since it is passed on through further macros. They use the
 * names interp_impl.h defines (RD, RS1, RS2, IMM, PC(), LOAD_BODY,
 * STORE_BODY, BRANCH_BODY).
 */
#ifndef EXECUTOR_INTERP_OPS_H
#define EXECUTOR_INTERP_OPS_H

/* clang-format off */

/* Operations that compute rd from registers, the immediate and the pc. */
#define ALU_OPS(X)                                                                                 \
    X(LUI, RD = IMM)                                                                               \
    X(AUIPC, RD = PC() + IMM)                                                                      \
    X(ADDI, RD = RS1 + IMM)                                                                        \
    X(SLTI, RD = (sreg)RS1 < (sreg)IMM)                                                            \
    X(SLTIU, RD = RS1 < IMM)                                                                       \
    X(XORI, RD = RS1 ^ IMM)                                                                        \
    X(ORI, RD = RS1 | IMM)                                                                         \
    X(ANDI, RD = RS1 & IMM)                                                                        \
    X(SLLI, RD = RS1 << (ip->imm & SHAMT_MASK))                                                    \
    X(SRLI, RD = RS1 >> (ip->imm & SHAMT_MASK))                                                    \
    X(SRAI, RD = (ureg)((sreg)RS1 >> (ip->imm & SHAMT_MASK)))                                      \
    X(ADD, RD = RS1 + RS2)                                                                         \
    X(SUB, RD = RS1 - RS2)                                                                         \
    X(SLL, RD = RS1 << (RS2 & SHAMT_MASK))                                                         \
    X(SLT, RD = (sreg)RS1 < (sreg)RS2)                                                             \
    X(SLTU, RD = RS1 < RS2)                                                                        \
    X(XOR, RD = RS1 ^ RS2)                                                                         \
    X(SRL, RD = RS1 >> (RS2 & SHAMT_MASK))                                                         \
    X(SRA, RD = (ureg)((sreg)RS1 >> (RS2 & SHAMT_MASK)))                                           \
    X(OR, RD = RS1 | RS2)                                                                          \
    X(AND, RD = RS1 & RS2)                                                                         \
    X(MUL, RD = RS1 * RS2)

/* Rarer ones: handlers, but no fused pairs. */
#define ALU_RARE_OPS(X)                                                                            \
    X(MULH, RD = MULH_(RS1, RS2))                                                                  \
    X(MULHSU, RD = MULHSU_(RS1, RS2))                                                              \
    X(MULHU, RD = MULHU_(RS1, RS2))

/* The RV64 word operations: the 32-bit result, sign-extended. */
#define ALU_W_OPS(X)                                                                               \
    X(ADDIW, RD = SEXT32(RS1 + IMM))                                                               \
    X(SLLIW, RD = SEXT32((uint32_t)RS1 << (ip->imm & 31)))                                         \
    X(SRLIW, RD = SEXT32((uint32_t)RS1 >> (ip->imm & 31)))                                         \
    X(SRAIW, RD = SEXT32((int32_t)RS1 >> (ip->imm & 31)))                                          \
    X(ADDW, RD = SEXT32(RS1 + RS2))                                                                \
    X(SUBW, RD = SEXT32(RS1 - RS2))                                                                \
    X(SLLW, RD = SEXT32((uint32_t)RS1 << (RS2 & 31)))                                              \
    X(SRLW, RD = SEXT32((uint32_t)RS1 >> (RS2 & 31)))                                              \
    X(SRAW, RD = SEXT32((int32_t)RS1 >> (RS2 & 31)))                                               \
    X(MULW, RD = SEXT32((uint32_t)RS1 * (uint32_t)RS2))

/* The jumps, whose handlers differ between the plain and the traced loop. */
#define JUMP_OPS(X) X(JAL) X(JAL_CALL) X(JALR) X(JALR_CALL) X(JALR_RET) X(JALR_RETCALL)

/* Loads (they may fault, which ends the run at their own pc). */
#define LOAD_OPS(X)                                                                                \
    X(LB, LOAD_BODY(int8_t))                                                                       \
    X(LH, LOAD_BODY(int16_t))                                                                      \
    X(LW, LOAD_BODY(int32_t))                                                                      \
    X(LBU, LOAD_BODY(uint8_t))                                                                     \
    X(LHU, LOAD_BODY(uint16_t))
#define LOAD_64_OPS(X)                                                                             \
    X(LWU, LOAD_BODY(uint32_t))                                                                    \
    X(LD, LOAD_BODY(uint64_t))

/* Stores (see STORE_BODY for why they may start a fused pair). */
#define STORE_OPS(X)                                                                               \
    X(SB, STORE_BODY(uint8_t))                                                                     \
    X(SH, STORE_BODY(uint16_t))                                                                    \
    X(SW, STORE_BODY(uint32_t))
#define STORE_64_OPS(X) X(SD, STORE_BODY(uint64_t))

/* Conditional branches: a pair starting with one runs its second half when not taken. */
#define BRANCH_OPS(X)                                                                              \
    X(BEQ, BRANCH_BODY(RS1 == RS2))                                                                \
    X(BNE, BRANCH_BODY(RS1 != RS2))                                                                \
    X(BLT, BRANCH_BODY((sreg)RS1 < (sreg)RS2))                                                     \
    X(BGE, BRANCH_BODY((sreg)RS1 >= (sreg)RS2))                                                    \
    X(BLTU, BRANCH_BODY(RS1 < RS2))                                                                \
    X(BGEU, BRANCH_BODY(RS1 >= RS2))

/*
 * Fused pairs: a first operation from FUSE_FIRST (anything but jumps and
 * the rare ones) and a second from
 * FUSE_SECOND, which may be anything common but a plain jalr (guest
 * interpreters' dispatch jumps were predicted worse when fused). The
 * pairs ending in a jump (FUSE_SECOND_JUMPS) have a traced version too.
 * Operations an RV32 hart never
 * decodes are left out of its loops' pairs.
 */
#define FUSE_SECOND_JUMPS(X, ...)                                                                  \
    X(JAL, __VA_ARGS__) X(JAL_CALL, __VA_ARGS__)                                                   \
    X(JALR_CALL, __VA_ARGS__) X(JALR_RET, __VA_ARGS__)
#define FUSE_SECOND_COMMON(X, ...)                                                                 \
    X(LUI, __VA_ARGS__) X(AUIPC, __VA_ARGS__)                                                      \
    X(BEQ, __VA_ARGS__) X(BNE, __VA_ARGS__) X(BLT, __VA_ARGS__) X(BGE, __VA_ARGS__)                \
    X(BLTU, __VA_ARGS__) X(BGEU, __VA_ARGS__)                                                      \
    X(LB, __VA_ARGS__) X(LH, __VA_ARGS__) X(LW, __VA_ARGS__) X(LBU, __VA_ARGS__)                   \
    X(LHU, __VA_ARGS__)                                                                            \
    X(SB, __VA_ARGS__) X(SH, __VA_ARGS__) X(SW, __VA_ARGS__)                                       \
    X(ADDI, __VA_ARGS__) X(SLTI, __VA_ARGS__) X(SLTIU, __VA_ARGS__) X(XORI, __VA_ARGS__)           \
    X(ORI, __VA_ARGS__) X(ANDI, __VA_ARGS__) X(SLLI, __VA_ARGS__) X(SRLI, __VA_ARGS__)             \
    X(SRAI, __VA_ARGS__)                                                                           \
    X(ADD, __VA_ARGS__) X(SUB, __VA_ARGS__) X(SLL, __VA_ARGS__) X(SLT, __VA_ARGS__)                \
    X(SLTU, __VA_ARGS__) X(XOR, __VA_ARGS__) X(SRL, __VA_ARGS__) X(SRA, __VA_ARGS__)               \
    X(OR, __VA_ARGS__) X(AND, __VA_ARGS__) X(MUL, __VA_ARGS__)
#define FUSE_SECOND_64(X, ...)                                                                     \
    X(LWU, __VA_ARGS__) X(LD, __VA_ARGS__) X(SD, __VA_ARGS__)                                      \
    X(ADDIW, __VA_ARGS__) X(SLLIW, __VA_ARGS__) X(SRLIW, __VA_ARGS__) X(SRAIW, __VA_ARGS__)        \
    X(ADDW, __VA_ARGS__) X(SUBW, __VA_ARGS__) X(SLLW, __VA_ARGS__) X(SRLW, __VA_ARGS__)            \
    X(SRAW, __VA_ARGS__) X(MULW, __VA_ARGS__)

#if XLEN == 64
#define FUSE_FIRST(X)                                                                              \
    ALU_OPS(X) ALU_W_OPS(X) LOAD_OPS(X) LOAD_64_OPS(X) STORE_OPS(X) STORE_64_OPS(X) BRANCH_OPS(X)
#define FUSE_SECOND(X, ...)                                                                        \
    FUSE_SECOND_COMMON(X, __VA_ARGS__) FUSE_SECOND_JUMPS(X, __VA_ARGS__) FUSE_SECOND_64(X, __VA_ARGS__)
#else
#define FUSE_FIRST(X) ALU_OPS(X) LOAD_OPS(X) STORE_OPS(X) BRANCH_OPS(X)
#define FUSE_SECOND(X, ...) FUSE_SECOND_COMMON(X, __VA_ARGS__) FUSE_SECOND_JUMPS(X, __VA_ARGS__)
#endif

/* clang-format on */

#endif
