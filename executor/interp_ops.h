/*
 * interp_ops: the interpreter's operations that are one statement (an
 * assignment to rd, a load, a store, a conditional branch), each written
 * once as OP_BODY_<NAME>, so that interp_impl.h can make from them both
 * the plain handlers and, in the fast loop, the fused pairs: one handler
 * that runs two instructions' statements one after the other and then
 * dispatches once. The indirect jump of threaded dispatch costs more than
 * most operations themselves, and a pair needs one where two instructions
 * needed two; with both statements in one handler, a pair also takes no
 * jump between them.
 *
 * The lists below name the operations (X(NAME)); a handler pastes
 * OP_BODY_##NAME, which uses the names interp_impl.h defines (RD, RS1,
 * RS2, IMM, PC(), LOAD_BODY, STORE_BODY, BRANCH_BODY). The bodies are
 * separate macros, not list entries, because a pair needs two of them at
 * once, and a list cannot be expanded inside its own expansion.
 */
#ifndef EXECUTOR_INTERP_OPS_H
#define EXECUTOR_INTERP_OPS_H

/* clang-format off */

/* Operations that compute rd from registers, the immediate and the pc. */
#define ALU_OPS(X)                                                                                 \
    X(LUI) X(AUIPC) X(ADDI) X(SLTI) X(SLTIU) X(XORI) X(ORI) X(ANDI) X(SLLI) X(SRLI) X(SRAI)        \
    X(ADD) X(SUB) X(SLL) X(SLT) X(SLTU) X(XOR) X(SRL) X(SRA) X(OR) X(AND) X(MUL)
#define OP_BODY_LUI RD = IMM
#define OP_BODY_AUIPC RD = PC() + IMM
#define OP_BODY_ADDI RD = RS1 + IMM
#define OP_BODY_SLTI RD = (sreg)RS1 < (sreg)IMM
#define OP_BODY_SLTIU RD = RS1 < IMM
#define OP_BODY_XORI RD = RS1 ^ IMM
#define OP_BODY_ORI RD = RS1 | IMM
#define OP_BODY_ANDI RD = RS1 & IMM
#define OP_BODY_SLLI RD = RS1 << (ip->imm & SHAMT_MASK)
#define OP_BODY_SRLI RD = RS1 >> (ip->imm & SHAMT_MASK)
#define OP_BODY_SRAI RD = (ureg)((sreg)RS1 >> (ip->imm & SHAMT_MASK))
#define OP_BODY_ADD RD = RS1 + RS2
#define OP_BODY_SUB RD = RS1 - RS2
#define OP_BODY_SLL RD = RS1 << (RS2 & SHAMT_MASK)
#define OP_BODY_SLT RD = (sreg)RS1 < (sreg)RS2
#define OP_BODY_SLTU RD = RS1 < RS2
#define OP_BODY_XOR RD = RS1 ^ RS2
#define OP_BODY_SRL RD = RS1 >> (RS2 & SHAMT_MASK)
#define OP_BODY_SRA RD = (ureg)((sreg)RS1 >> (RS2 & SHAMT_MASK))
#define OP_BODY_OR RD = RS1 | RS2
#define OP_BODY_AND RD = RS1 & RS2
#define OP_BODY_MUL RD = RS1 * RS2

/* Rarer ones: handlers, but no fused pairs. */
#define ALU_RARE_OPS(X) X(MULH) X(MULHSU) X(MULHU)
#define OP_BODY_MULH RD = MULH_(RS1, RS2)
#define OP_BODY_MULHSU RD = MULHSU_(RS1, RS2)
#define OP_BODY_MULHU RD = MULHU_(RS1, RS2)

/* The RV64 word operations: the 32-bit result, sign-extended. */
#define ALU_W_OPS(X)                                                                               \
    X(ADDIW) X(SLLIW) X(SRLIW) X(SRAIW) X(ADDW) X(SUBW) X(SLLW) X(SRLW) X(SRAW) X(MULW)
#define OP_BODY_ADDIW RD = SEXT32(RS1 + IMM)
#define OP_BODY_SLLIW RD = SEXT32((uint32_t)RS1 << (ip->imm & 31))
#define OP_BODY_SRLIW RD = SEXT32((uint32_t)RS1 >> (ip->imm & 31))
#define OP_BODY_SRAIW RD = SEXT32((int32_t)RS1 >> (ip->imm & 31))
#define OP_BODY_ADDW RD = SEXT32(RS1 + RS2)
#define OP_BODY_SUBW RD = SEXT32(RS1 - RS2)
#define OP_BODY_SLLW RD = SEXT32((uint32_t)RS1 << (RS2 & 31))
#define OP_BODY_SRLW RD = SEXT32((uint32_t)RS1 >> (RS2 & 31))
#define OP_BODY_SRAW RD = SEXT32((int32_t)RS1 >> (RS2 & 31))
#define OP_BODY_MULW RD = SEXT32((uint32_t)RS1 * (uint32_t)RS2)

/* The jumps, whose handlers differ between the plain and the traced loop (no bodies here). */
#define JUMP_OPS(X) X(JAL) X(JAL_CALL) X(JALR) X(JALR_CALL) X(JALR_RET) X(JALR_RETCALL)

/* Loads (they may fault, which ends the run at their own pc). */
#define LOAD_OPS(X) X(LB) X(LH) X(LW) X(LBU) X(LHU)
#define LOAD_64_OPS(X) X(LWU) X(LD)
#define OP_BODY_LB LOAD_BODY(int8_t)
#define OP_BODY_LH LOAD_BODY(int16_t)
#define OP_BODY_LW LOAD_BODY(int32_t)
#define OP_BODY_LBU LOAD_BODY(uint8_t)
#define OP_BODY_LHU LOAD_BODY(uint16_t)
#define OP_BODY_LWU LOAD_BODY(uint32_t)
#define OP_BODY_LD LOAD_BODY(uint64_t)

/*
 * Their aligned forms (decode.h: ALIGNED_OPS): handlers, but no fused
 * pairs, so a zkVM that traps misaligned accesses pays one test each.
 */
#define ALIGNED_LOAD_OPS(X) X(LH_A) X(LW_A) X(LHU_A) X(LWU_A) X(LD_A)
#define OP_BODY_LH_A ALIGNED_LOAD_BODY(int16_t)
#define OP_BODY_LW_A ALIGNED_LOAD_BODY(int32_t)
#define OP_BODY_LHU_A ALIGNED_LOAD_BODY(uint16_t)
#define OP_BODY_LWU_A ALIGNED_LOAD_BODY(uint32_t)
#define OP_BODY_LD_A ALIGNED_LOAD_BODY(uint64_t)
#define ALIGNED_STORE_OPS(X) X(SH_A) X(SW_A) X(SD_A)
#define OP_BODY_SH_A ALIGNED_STORE_BODY(uint16_t)
#define OP_BODY_SW_A ALIGNED_STORE_BODY(uint32_t)
#define OP_BODY_SD_A ALIGNED_STORE_BODY(uint64_t)

/* Stores (see STORE_BODY for why they may start a fused pair). */
#define STORE_OPS(X) X(SB) X(SH) X(SW)
#define STORE_64_OPS(X) X(SD)
#define OP_BODY_SB STORE_BODY(uint8_t)
#define OP_BODY_SH STORE_BODY(uint16_t)
#define OP_BODY_SW STORE_BODY(uint32_t)
#define OP_BODY_SD STORE_BODY(uint64_t)

/* Conditional branches: a pair starting with one runs its second half when not taken. */
#define BRANCH_OPS(X) X(BEQ) X(BNE) X(BLT) X(BGE) X(BLTU) X(BGEU)
#define OP_BODY_BEQ BRANCH_BODY(RS1 == RS2)
#define OP_BODY_BNE BRANCH_BODY(RS1 != RS2)
#define OP_BODY_BLT BRANCH_BODY((sreg)RS1 < (sreg)RS2)
#define OP_BODY_BGE BRANCH_BODY((sreg)RS1 >= (sreg)RS2)
#define OP_BODY_BLTU BRANCH_BODY(RS1 < RS2)
#define OP_BODY_BGEU BRANCH_BODY(RS1 >= RS2)

/*
 * Fused pairs (interp_pairs.h lists them): a first operation that goes on
 * to the next instruction or a branch, and a second of the same kinds or
 * a jump other than a plain jalr (guest interpreters' dispatch jumps,
 * plain jalr, were predicted worse when fused).
 */

/*
 * The compressed forms (decode.h: RVC_OPS), whose statements are those of
 * the instructions they expand to, and which the loops of a hart with C
 * (RVC 1) fuse with each other (RVC_FUSED_PAIRS in interp_pairs.h). Their
 * loads, stores and branches step over one entry, not two.
 */
#define RVC_BODY_OPS(X)                                                                            \
    X(C_ADDI) X(C_LUI) X(C_SLLI) X(C_SRLI) X(C_SRAI) X(C_ANDI)                                     \
    X(C_ADD) X(C_SUB) X(C_XOR) X(C_OR) X(C_AND) X(C_LW) X(C_SW) X(C_BEQ) X(C_BNE)                  \
    X(C_ADDIW) X(C_ADDW) X(C_SUBW) X(C_LD) X(C_SD)
#define RVC_JUMP_OPS(X) X(C_JAL) X(C_JAL_CALL) X(C_JALR) X(C_JALR_CALL) X(C_JALR_RET) X(C_JALR_RETCALL)
#define OP_BODY_C_ADDI OP_BODY_ADDI
#define OP_BODY_C_LUI OP_BODY_LUI
#define OP_BODY_C_SLLI OP_BODY_SLLI
#define OP_BODY_C_SRLI OP_BODY_SRLI
#define OP_BODY_C_SRAI OP_BODY_SRAI
#define OP_BODY_C_ANDI OP_BODY_ANDI
#define OP_BODY_C_ADD OP_BODY_ADD
#define OP_BODY_C_SUB OP_BODY_SUB
#define OP_BODY_C_XOR OP_BODY_XOR
#define OP_BODY_C_OR OP_BODY_OR
#define OP_BODY_C_AND OP_BODY_AND
#define OP_BODY_C_ADDIW OP_BODY_ADDIW
#define OP_BODY_C_ADDW OP_BODY_ADDW
#define OP_BODY_C_SUBW OP_BODY_SUBW
#define OP_BODY_C_LW LOAD_BODY_C(int32_t)
#define OP_BODY_C_LD LOAD_BODY_C(uint64_t)
#define OP_BODY_C_SW STORE_BODY_C(uint32_t)
#define OP_BODY_C_SD STORE_BODY_C(uint64_t)
#define RVC_ALIGNED_OPS(X) X(C_LW_A) X(C_LD_A) X(C_SW_A) X(C_SD_A)
#define OP_BODY_C_LW_A ALIGNED_LOAD_BODY_C(int32_t)
#define OP_BODY_C_LD_A ALIGNED_LOAD_BODY_C(uint64_t)
#define OP_BODY_C_SW_A ALIGNED_STORE_BODY_C(uint32_t)
#define OP_BODY_C_SD_A ALIGNED_STORE_BODY_C(uint64_t)
#define OP_BODY_C_BEQ BRANCH_BODY_C(RS1 == RS2)
#define OP_BODY_C_BNE BRANCH_BODY_C(RS1 != RS2)

/* clang-format on */

#endif
