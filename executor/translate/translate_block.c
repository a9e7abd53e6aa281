/*
 * translate_block: a block of decoded RISC-V instructions into x86-64
 * (see translate_block.h). Each instruction reads its operands from the
 * register file (rdi), computes in rax, rcx and rdx, and writes rd back,
 * as the interpreter's handlers do, without their dispatch; loads and
 * stores test the same rights byte (rsi: guest memory, the rights table
 * GUEST_RIGHTS_OFFSET below it).
 */
#include "executor/translate/translate_block.h"

#include <stddef.h>
#include <string.h>

#include "executor/memory.h"
#include "executor/trace.h"

/*
 * The host registers a block may keep guest registers in: first the
 * caller-saved ones it is free to clobber, then callee-saved ones, which
 * the block pushes on entry and pops on its way out. A block that runs
 * passes (runs_passes) counts down its budget in r9 and keeps one fewer;
 * r10 holds the hooks, but a plain block that loops may take it for a
 * register its loop uses (drop_r10; sha256's round loop 0.94x the time).
 */
static const uint8_t keep_hosts[] = {X_R8,  X_R9,  X_R11, X_R10, X_RBX,
                                     X_RBP, X_R12, X_R13, X_R14, X_R15};
#define KEEP_MAX          (sizeof(keep_hosts) / sizeof(keep_hosts[0]))
#define KEEP_CALLER_SAVED 4 /* keep_hosts' first: r8, r9, r11, r10 */

/*
 * The block's frame on the host stack, below the pushed registers, the
 * slots it needs from the top down: the budget the call gave (the next
 * block's is what is left of it); the hooks when r10 keeps a guest
 * register (place_slots); for one that loops on itself a count nobody
 * reads (for a branch no frame counts) and where its loop branch counts
 * its runs (emit_loop_counter). Their offsets from rsp; -1: no such slot.
 * (Else the hooks stay in r10: a traced block's taken branches read them.)
 */
struct frame {
    int32_t budget, hooks, scratch, loop_count, size;
};

/* A field of the top frame's link, from the frame (hooks->top). */
#define FRAME_LINK(field)                                                                          \
    (int32_t)(offsetof(struct trace_frame, link) + offsetof(struct trace_link, field))
/* A field of the frame above the top one (where a call pushes), from the top one. */
#define FRAME_UP(field) (int32_t)(sizeof(struct trace_frame) + (field))

/* The block being written. */
struct emit {
    struct x86_buf *b;
    bool w;                       /* RV64: 64-bit registers */
    struct translate_mode mode;   /* the hooks the loops give: traced, per pc, cost clock */
    unsigned sz;                  /* bytes per guest register */
    const struct insn *const *at; /* the block's entries, in the order it runs them */
    const uint64_t *pcs;          /* and their guest pcs */
    size_t n;
    uint8_t *start; /* the first instruction's code, where a pass starts */
    /* jumps to the exit before instruction miss_of[k] (it does not retire) */
    uint8_t *miss_at[TRANSLATE_BLOCK_MAX * 4]; /* at most 4 per instruction */
    uint32_t miss_of[TRANSLATE_BLOCK_MAX * 4];
    size_t nmiss;
    /*
     * The accesses whose entry lacks the fast bit, tested out of line as
     * the interpreter tests them (access_elsewhere): from the jcc at
     * inside_at[k], back to inside_back[k] when the access of instruction
     * inside_of[k] stays inside an entry with the `ok` bit.
     */
    uint8_t *inside_at[TRANSLATE_BLOCK_MAX], *inside_back[TRANSLATE_BLOCK_MAX];
    uint32_t inside_of[TRANSLATE_BLOCK_MAX];
    uint8_t inside_ok[TRANSLATE_BLOCK_MAX], inside_size[TRANSLATE_BLOCK_MAX];
    size_t ninside;
    /*
     * Guest registers kept in host registers for the whole block: loaded
     * on entry, written back on every way out (the shared epilogue, which
     * the exits jump to: exit_at) when the block writes them.
     */
    bool r9_counts;           /* r9 holds the budget left when the pass began */
    int8_t host_of[REG_SINK]; /* hosts[k] holding guest register r, or -1 */
    uint8_t kept[KEEP_MAX];   /* the guest registers kept, in hosts' order */
    uint8_t hosts[KEEP_MAX];  /* the host registers it may keep them in (keep_hosts') */
    unsigned nhosts, caller_saved;
    unsigned nkept;
    bool written[REG_SINK]; /* the block writes guest register r */
    /* the exits that may run on into the next block, and those before a miss */
    uint8_t *exit_at[TRANSLATE_BLOCK_MAX * 2 + 4], *miss_exit_at[TRANSLATE_BLOCK_MAX];
    size_t nexit, nmiss_exit;
    intptr_t slot_delta;         /* from a code cache entry to its translate_slot */
    const struct code_cache *cc; /* whose entries a jalr that leaves the block leaves for */
    uint8_t *code_of[TRANSLATE_BLOCK_MAX]; /* where instruction i's host code starts */
    /* the jcc of branch taken_of[k] to its taken path, written after the body */
    uint8_t *taken_at[TRANSLATE_BLOCK_MAX];
    uint32_t taken_of[TRANSLATE_BLOCK_MAX];
    size_t ntaken;
    /*
     * The first branch back to the block's start (-1: none). Its run count
     * is found once per call (emit_loop_counter): the frame's loop_count
     * slot holds where it counts, 0 when outside the frame's function.
     */
    ptrdiff_t loop_branch;
    /*
     * Per-pc mode: the loop branch's taken count is derived on the way out
     * from the budget its passes took (derive_passes), not counted a pass:
     * passes = (budget - r9) >> pass_shift, times pass_inverse (mod 2^64).
     */
    bool derived;
    unsigned pass_shift;
    uint64_t pass_inverse;
    struct frame frame;
    /*
     * Traced calls the fast path missed: from the jccs at linked_at[k][]
     * (NULL: unused) to the out-of-line call of translate_trace_call for
     * instruction linked_of[k], then back to linked_back[k]; or, where
     * linked_back[k] is NULL, a jal's tail call: translate_trace_tail, then
     * out to the target (emit_linked_calls).
     */
    uint8_t *linked_at[TRANSLATE_BLOCK_MAX][4], *linked_back[TRANSLATE_BLOCK_MAX];
    uint32_t linked_of[TRANSLATE_BLOCK_MAX];
    size_t nlinked;
    /*
     * The linked jumps' site caches, sites[k] for linked_of[k] (NULL: none,
     * translate_site_count), and where a call's push begins (trace_enter),
     * for a slot relinked from its cache.
     */
    struct trace_link *sites;
    uint8_t *linked_enter[TRANSLATE_BLOCK_MAX];
    /*
     * Leaf calls whose frame stays unpushed (plan_unpushed): for such a
     * call at c, unpushed_ret[c] is its return's index (0: none); for each
     * instruction k after it through that return, unpushed_in[k] = c + 1.
     */
    uint32_t unpushed_ret[TRANSLATE_BLOCK_MAX];
    uint8_t unpushed_in[TRANSLATE_BLOCK_MAX];
};

/* Register r = v, a guest address (RV32: its 32 bits). */
static void mov_address(struct emit *e, unsigned r, uint64_t v)
{
    x86_mov_imm(e->b, r, e->w ? v : (uint32_t)v);
}

/* The guest pc after instruction i (a call's return address): 2 or 4 bytes on. */
static uint64_t next_pc(const struct emit *e, size_t i)
{
    return e->pcs[i] + translate_insn_length(e->at[i]);
}

/* The code cache entry after instruction i's (a 4-byte one spans two on a hart with C). */
static const struct insn *next_entry(const struct emit *e, size_t i)
{
    return e->at[i] + (translate_insn_length(e->at[i]) >> e->cc->slot_shift);
}

bool translate_op_supported(unsigned op, int xlen)
{
    switch (translate_base_op(op)) {
    case OP_LUI:
    case OP_AUIPC:
    case OP_ADDI:
    case OP_SLTI:
    case OP_SLTIU:
    case OP_XORI:
    case OP_ORI:
    case OP_ANDI:
    case OP_SLLI:
    case OP_SRLI:
    case OP_SRAI:
    case OP_ADD:
    case OP_SUB:
    case OP_SLL:
    case OP_SLT:
    case OP_SLTU:
    case OP_XOR:
    case OP_SRL:
    case OP_SRA:
    case OP_OR:
    case OP_AND:
    case OP_MUL:
    case OP_MULH:
    case OP_MULHSU:
    case OP_MULHU:
    case OP_DIV:
    case OP_DIVU:
    case OP_REM:
    case OP_REMU:
    case OP_LB:
    case OP_LH:
    case OP_LW:
    case OP_LBU:
    case OP_LHU:
    case OP_SB:
    case OP_SH:
    case OP_SW:
    case OP_LH_A:
    case OP_LW_A:
    case OP_LHU_A:
    case OP_SH_A:
    case OP_SW_A:
    case OP_FENCE:
    case OP_JAL: return true;
    case OP_ADDIW:
    case OP_SLLIW:
    case OP_SRLIW:
    case OP_SRAIW:
    case OP_ADDW:
    case OP_SUBW:
    case OP_SLLW:
    case OP_SRLW:
    case OP_SRAW:
    case OP_MULW:
    case OP_DIVW:
    case OP_DIVUW:
    case OP_REMW:
    case OP_REMUW:
    case OP_LWU:
    case OP_LD:
    case OP_SD:
    case OP_LWU_A:
    case OP_LD_A:
    case OP_SD_A: return xlen == 64;
    default: return translate_op_ends_block(op);
    }
}

/*
 * `op` with ModRM reg field `reg` and, as its other operand, guest
 * register r: the host register keeping it, or its place in the register
 * file (rdi).
 */
static void op_guest(struct emit *e, bool w, unsigned op, unsigned reg, unsigned r)
{
    if (r < REG_SINK && e->host_of[r] >= 0)
        x86_op_reg(e->b, w, op, reg, (unsigned)e->host_of[r]);
    else
        x86_op_mem(e->b, w, op, reg, X_RDI, (int32_t)(r * e->sz));
}

/* The host register keeping guest register r, or -1 (x0, the sink and others stay in the file). */
static int kept_host(const struct emit *e, unsigned r)
{
    return r < REG_SINK ? e->host_of[r] : -1;
}

/* mov h, guest register r (w: all 64 bits; else the low 32, zero-extended). */
static void load_reg(struct emit *e, bool w, unsigned h, unsigned r)
{
    op_guest(e, w, 0x8B, h, r);
}

/* Guest register rd = h (writes to x0 go to the sink in the interpreter: none here). */
static void store_reg(struct emit *e, unsigned h, unsigned rd)
{
    if (rd < REG_SINK)
        op_guest(e, e->w, 0x89, h, rd);
}

/*
 * Guest register rd = rax, or with `word` (an RV64 *W result) = eax sign-
 * extended: straight into rd's host register when it is kept.
 */
static void store_result(struct emit *e, bool word, unsigned rd)
{
    int h = kept_host(e, rd);
    if (word && h >= 0) {
        x86_op_reg(e->b, true, 0x63, (unsigned)h, X_RAX); /* movsxd h, eax */
        return;
    }
    if (word && rd < REG_SINK)
        x86_movsxd(e->b, X_RAX);
    store_reg(e, X_RAX, rd);
}

/* addiw: rd = rs1 + imm, sign-extended from 32 bits; sext.w (imm 0) is one movsxd. */
static void emit_addiw(struct emit *e, const struct insn *in)
{
    if (in->imm == 0 && in->rd < REG_SINK) {
        int h = kept_host(e, in->rd);
        op_guest(e, true, 0x63, h >= 0 ? (unsigned)h : X_RAX, in->rs1); /* movsxd, rs1 */
        if (h < 0)
            store_reg(e, X_RAX, in->rd);
        return;
    }
    load_reg(e, false, X_RAX, in->rs1);
    x86_alu_imm(e->b, false, 0, X_RAX, in->imm);
    store_result(e, true, in->rd);
}

/* rax = rax `op` guest register r (an ALU opcode with a register or memory source). */
static void op_reg(struct emit *e, bool w, unsigned op, unsigned r)
{
    op_guest(e, w, op, X_RAX, r);
}

/*
 * Leaves the block for the entry in rax (exit_to: for entry `ip`) with
 * `retired` instructions of this pass retired (rdx), besides those of the
 * passes before (the budget less what r9 has left of it, in a block that
 * runs passes), by the way out that runs on into that entry's block
 * (emit_chain).
 */
static void exit_to_rax(struct emit *e, uint64_t retired)
{
    if (e->r9_counts) {
        x86_op_mem(e->b, true, 0x8B, X_RDX, X_RSP, e->frame.budget);
        x86_op_reg(e->b, true, 0x2B, X_RDX, X_R9);                    /* sub rdx, r9 */
        x86_op_mem(e->b, true, 0x8D, X_RDX, X_RDX, (int32_t)retired); /* lea rdx, [rdx + n] */
    } else {
        x86_mov_imm(e->b, X_RDX, retired);
    }
    e->exit_at[e->nexit++] = x86_jmp(e->b);
}

static void exit_to(struct emit *e, const struct insn *ip, uint64_t retired)
{
    x86_mov_imm(e->b, X_RAX, (uint64_t)(uintptr_t)ip);
    exit_to_rax(e, retired);
}

/* A jcc to the exit before instruction i. */
static void miss(struct emit *e, enum x86_cc cc, size_t i)
{
    e->miss_at[e->nmiss] = x86_jcc(e->b, cc);
    e->miss_of[e->nmiss++] = (uint32_t)i;
}

/* rax = rs1 + imm, the access's guest address (RV32: mod 2^32). */
static void address(struct emit *e, const struct insn *in)
{
    int h = kept_host(e, in->rs1);
    if (h >= 0) { /* lea: for RV32 the 32-bit form wraps as the guest does */
        x86_op_mem(e->b, e->w, 0x8D, X_RAX, (unsigned)h, in->imm);
        return;
    }
    load_reg(e, e->w, X_RAX, in->rs1);
    if (in->imm)
        x86_alu_imm(e->b, e->w, 0, X_RAX, in->imm);
}

/*
 * test byte [rights + rcx], bits: the rights table lies GUEST_RIGHTS_OFFSET
 * below guest memory (rsi), so no register holds it.
 */
static void test_rights(struct x86_buf *b, unsigned bits)
{
    _Static_assert(GUEST_RIGHTS_OFFSET <= INT32_MAX, "the rights table within a displacement");
    x86_op_sib_disp(b, false, 0xF6, 0, X_RSI, X_RCX, -(int32_t)GUEST_RIGHTS_OFFSET);
    x86_byte(b, (uint8_t)bits);
}

/*
 * The interpreter's fast test of the access at rax (interp_impl.h,
 * FAST_ACCESS): in the window, and the rights byte has `fast`; and for an
 * aligned form, a multiple of `size`. Without `fast`, its test for an
 * access inside the entry (IN_PAGE_ACCESS, rights `ok`) runs out of line
 * (emit_inside_tests). Any miss leaves before instruction i.
 */
static void access_test(struct emit *e, size_t i, unsigned size, bool aligned, unsigned fast,
                        unsigned ok)
{
    struct x86_buf *b = e->b;
    if (aligned && size > 1) { /* test al, size - 1 */
        x86_byte(b, 0xA8);
        x86_byte(b, (uint8_t)(size - 1));
        miss(e, CC_NE, i);
    }
    /* rcx = the rights entry: guest_rights_entry(a) */
    if (GUEST_HIGH_SPAN <= INT32_MAX) {
        x86_op_mem(b, true, 0x8D, X_RCX, X_RAX, (int32_t)GUEST_HIGH_SPAN); /* lea */
    } else {
        x86_mov_imm(b, X_RCX, GUEST_HIGH_SPAN);
        x86_op_reg(b, true, 0x03, X_RCX, X_RAX);
    }
    x86_shift(b, true, 5, X_RCX, GUEST_RIGHTS_SHIFT, false);
    if (e->w) { /* an RV32 address always lies in the window */
        if (GUEST_RIGHTS_BYTES <= INT32_MAX) {
            x86_alu_imm(b, true, 7, X_RCX, (int32_t)GUEST_RIGHTS_BYTES);
        } else {
            x86_mov_imm(b, X_RDX, GUEST_RIGHTS_BYTES);
            x86_op_reg(b, true, 0x3B, X_RCX, X_RDX);
        }
        miss(e, CC_AE, i);
    }
    test_rights(b, fast);
    size_t k = e->ninside++;
    e->inside_at[k] = x86_jcc(b, CC_E);
    e->inside_back[k] = b->p;
    e->inside_of[k] = (uint32_t)i;
    e->inside_ok[k] = (uint8_t)ok;
    e->inside_size[k] = (uint8_t)size;
}

/*
 * The out-of-line tests of access_test: the access at rax goes on when
 * its entry (rcx) has the `ok` bit and it ends inside that entry (the last
 * entry of a segment, the top of the stack), else leaves before its
 * instruction. rcx is free again once the access has its rights.
 */
static void emit_inside_tests(struct emit *e)
{
    struct x86_buf *b = e->b;
    for (size_t k = 0; k < e->ninside; k++) {
        x86_patch(e->inside_at[k], b->p);
        test_rights(b, e->inside_ok[k]);
        miss(e, CC_E, e->inside_of[k]);
        x86_op_reg(b, false, 0x8B, X_RCX, X_RAX); /* mov ecx, eax */
        x86_alu_imm(b, false, 4, X_RCX, GUEST_RIGHTS_SIZE - 1);
        x86_alu_imm(b, false, 7, X_RCX, (int32_t)(GUEST_RIGHTS_SIZE - e->inside_size[k]));
        miss(e, CC_A, e->inside_of[k]);
        x86_patch(x86_jmp(b), e->inside_back[k]);
    }
}

/* A load of `size` bytes into rd: `op` moves [rsi + rax] into rax (64-bit when w). */
static void emit_load(struct emit *e, size_t i, unsigned size, bool aligned, bool w, unsigned op)
{
    const struct insn *in = e->at[i];
    address(e, in);
    access_test(e, i, size, aligned, PAGE_LOAD_FAST, PAGE_LOAD_OK);
    int h = kept_host(e, in->rd);
    if (h >= 0) { /* straight into rd's host register (a 32-bit load zero-extends, as rax's) */
        x86_op_sib(e->b, w, op, (unsigned)h, X_RSI, X_RAX);
        return;
    }
    x86_op_sib(e->b, w, op, X_RAX, X_RSI, X_RAX);
    store_reg(e, X_RAX, in->rd);
}

/* A store of rs2's low `size` bytes: `op` moves dl, dx, edx or rdx to [rsi + rax]. */
static void emit_store(struct emit *e, size_t i, unsigned size, bool aligned, unsigned op)
{
    const struct insn *in = e->at[i];
    address(e, in);
    access_test(e, i, size, aligned, PAGE_STORE_FAST, PAGE_STORE_OK);
    int h = kept_host(e, in->rs2);
    if (h >= 0 && size > 1) { /* (a byte of rbp would need a REX prefix: through rdx) */
        x86_op_sib(e->b, size == 8, op, (unsigned)h, X_RSI, X_RAX);
        return;
    }
    load_reg(e, e->w, X_RDX, in->rs2);
    x86_op_sib(e->b, size == 8, op, X_RDX, X_RSI, X_RAX);
}

/* rd = rs1 `ext` imm (group 1: add, or, and, xor), or a compare into rd (cc). */
static void emit_alu_imm(struct emit *e, const struct insn *in, unsigned ext, int cc)
{
    int hd = kept_host(e, in->rd), h1 = kept_host(e, in->rs1);
    /* add, or, xor of 0 (mv) leave rs1 as it is */
    bool identity = in->imm == 0 && (ext == 0 || ext == 1 || ext == 6);
    if (in->rs1 == 0 && ext == 0 && cc < 0) { /* li: x0 + imm */
        uint64_t v = e->w ? (uint64_t)(int64_t)in->imm : (uint32_t)in->imm;
        x86_mov_imm(e->b, hd >= 0 ? (unsigned)hd : X_RAX, v);
        if (hd < 0)
            store_reg(e, X_RAX, in->rd);
        return;
    }
    if (hd >= 0 && cc < 0) { /* in rd's host register: lea for an add, else mov and the op */
        if (ext == 0 && h1 >= 0) {
            x86_op_mem(e->b, e->w, 0x8D, (unsigned)hd, (unsigned)h1, in->imm);
            return;
        }
        if (in->rd != in->rs1)
            load_reg(e, e->w, (unsigned)hd, in->rs1);
        if (!identity)
            x86_alu_imm(e->b, e->w, ext, (unsigned)hd, in->imm);
        return;
    }
    load_reg(e, e->w, X_RAX, in->rs1);
    if (!identity || cc >= 0)
        x86_alu_imm(e->b, e->w, ext, X_RAX, in->imm);
    if (cc >= 0)
        x86_setcc_rax(e->b, (enum x86_cc)cc);
    store_reg(e, X_RAX, in->rd);
}

/* rd = rs1 `op` rs2, or a compare into rd (cc); `word`: the RV64 *W form. */
static void emit_alu_reg(struct emit *e, const struct insn *in, unsigned op, int cc, bool word)
{
    bool w = e->w && !word;
    int hd = kept_host(e, in->rd);
    if (hd >= 0 && cc < 0 && !word && (in->rd != in->rs2 || in->rd == in->rs1)) {
        if (in->rd != in->rs1) /* rd = rs1, then rd op= rs2 (rs2 is not rd) */
            load_reg(e, w, (unsigned)hd, in->rs1);
        op_guest(e, w, op, (unsigned)hd, in->rs2);
        return;
    }
    load_reg(e, w, X_RAX, in->rs1);
    op_reg(e, w, op, in->rs2);
    if (cc >= 0)
        x86_setcc_rax(e->b, (enum x86_cc)cc);
    store_result(e, word, in->rd);
}

/* rd = rs1 shifted (`ext`: 4 shl, 5 shr, 7 sar) by the immediate or by rs2 (`by_reg`). */
static void emit_shift(struct emit *e, const struct insn *in, unsigned ext, bool by_reg, bool word)
{
    bool w = e->w && !word;
    if (by_reg)
        load_reg(e, false, X_RCX, in->rs2);
    load_reg(e, w, X_RAX, in->rs1);
    unsigned mask = w ? 63 : 31;
    x86_shift(e->b, w, ext, X_RAX, (unsigned)in->imm & mask, by_reg);
    store_result(e, word, in->rd);
}

/* The high half of the product (signed: both signed; mixed: rs1 signed, rs2 unsigned). */
static void emit_mulh(struct emit *e, const struct insn *in, bool sign1, bool sign2)
{
    struct x86_buf *b = e->b;
    if (!e->w) { /* the 64-bit product of the extended halves, shifted down */
        if (sign1)
            op_guest(e, true, 0x63, X_RAX, in->rs1); /* movsxd */
        else
            load_reg(e, false, X_RAX, in->rs1);
        if (sign2)
            op_guest(e, true, 0x63, X_RCX, in->rs2);
        else
            load_reg(e, false, X_RCX, in->rs2);
        x86_op_reg(b, true, X86_0F(0xAF), X_RAX, X_RCX); /* imul rax, rcx */
        x86_shift(b, true, 5, X_RAX, 32, false);
        store_reg(e, X_RAX, in->rd);
        return;
    }
    load_reg(e, true, X_RAX, in->rs1);
    /* imul / mul qword [rs2]: rdx:rax = rax * rs2 */
    op_guest(e, true, 0xF7, sign2 ? 5 : 4, in->rs2);
    if (sign1 && !sign2) { /* mulhu - (rs1 < 0 ? rs2 : 0) */
        load_reg(e, true, X_RCX, in->rs1);
        x86_shift(b, true, 7, X_RCX, 63, false);
        op_guest(e, true, 0x23, X_RCX, in->rs2); /* and */
        x86_op_reg(b, true, 0x2B, X_RDX, X_RCX); /* sub */
    }
    store_reg(e, X_RDX, in->rd);
}

/*
 * Division and remainder as RISC-V defines them: by zero, the quotient is
 * all ones and the remainder the dividend; the signed overflow (the
 * smallest value by -1) gives the dividend and 0.
 */
static void emit_div(struct emit *e, const struct insn *in, bool sign, bool rem, bool word)
{
    struct x86_buf *b = e->b;
    bool w = e->w && !word;
    load_reg(e, w, X_RAX, in->rs1);
    load_reg(e, w, X_RCX, in->rs2);
    x86_op_reg(b, w, 0x85, X_RCX, X_RCX); /* test rcx, rcx */
    uint8_t *to_zero = x86_jcc(b, CC_E);
    uint8_t *to_done[2] = {NULL, NULL};
    if (sign) {
        x86_alu_imm(b, w, 7, X_RCX, -1);
        uint8_t *to_normal = x86_jcc(b, CC_NE);
        if (rem)
            x86_op_reg(b, false, 0x31, X_RAX, X_RAX); /* xor eax, eax */
        else
            x86_op_reg(b, w, 0xF7, 3, X_RAX); /* neg: the smallest value stays itself */
        to_done[0] = x86_jmp(b);
        x86_patch(to_normal, b->p);
        if (w)
            x86_byte(b, 0x48);
        x86_byte(b, 0x99);                /* cqo / cdq */
        x86_op_reg(b, w, 0xF7, 7, X_RCX); /* idiv rcx */
    } else {
        x86_op_reg(b, false, 0x31, X_RDX, X_RDX); /* xor edx, edx */
        x86_op_reg(b, w, 0xF7, 6, X_RCX);         /* div rcx */
    }
    if (rem)
        x86_op_reg(b, w, 0x8B, X_RAX, X_RDX);
    to_done[1] = x86_jmp(b);
    x86_patch(to_zero, b->p);
    if (!rem) /* rax keeps the dividend for a remainder */
        x86_mov_imm(b, X_RAX, w ? UINT64_MAX : UINT32_MAX);
    x86_patch(to_done[0], b->p);
    x86_patch(to_done[1], b->p);
    store_result(e, word, in->rd);
}

static void emit_taken_hooks(struct emit *e, size_t i, const struct insn *to, uint64_t pc);
static void emit_loop_back(struct emit *e, size_t i);

/*
 * Whether the branch or jal at instruction i counts its runs when taken:
 * in per-pc mode, unless the code cache says its hooks do nothing there
 * (code_cache_runs_unhooked: functions that keep no runs, as the loops'
 * unhooked handlers have it; a function said to keep them after all makes
 * the translator forget every block).
 */
static bool counts_runs(const struct emit *e, size_t i)
{
    return e->mode.per_pc && !code_cache_runs_unhooked(e->cc, (size_t)(e->at[i] - e->cc->insns));
}

/*
 * A conditional branch at instruction i: not taken, the block goes on
 * (or, the last instruction, leaves for the entry after it); taken, to
 * its taken path (emit_taken_path), written after the body. A branch back
 * to the block's start has its taken path inline, behind the inverse
 * test, so that a pass of a loop takes one host jump, not two (matmul
 * plain 0.90x the time, coremark 0.96x).
 */
static void emit_branch(struct emit *e, size_t i, enum x86_cc cc)
{
    const struct insn *in = e->at[i];
    load_reg(e, e->w, X_RAX, in->rs1);
    op_reg(e, e->w, 0x3B, in->rs2); /* cmp rax, rs2 */
    if (in + in->imm == e->at[0]) { /* back to the start: its taken path inline, one jump a pass */
        uint8_t *not_taken = x86_jcc(e->b, (enum x86_cc)(cc ^ 1));
        emit_taken_hooks(e, i, e->at[0], e->pcs[i]);
        emit_loop_back(e, i);
        x86_patch(not_taken, e->b->p);
    } else {
        e->taken_at[e->ntaken] = x86_jcc(e->b, cc);
        e->taken_of[e->ntaken++] = (uint32_t)i;
    }
    if (i == e->n - 1)
        exit_to(e, next_entry(e, i), i + 1);
}

/*
 * Compares the offset of the address in register r in the function of
 * frame f (register `f`) with the function's span, as trace_frame_holds
 * does: below means inside. After, r holds the offset and register
 * `span` (which may be f) the span.
 */
static void compare_reg_with_frame(struct emit *e, unsigned f, unsigned r, unsigned span)
{
    struct x86_buf *b = e->b;
    x86_op_mem(b, true, 0x2B, r, f, FRAME_LINK(lo));
    x86_op_mem(b, false, 0x8B, span, f, FRAME_LINK(span));
    x86_op_reg(b, true, 0x3B, r, span); /* cmp r, span */
}

/* compare_reg_with_frame for guest address addr: rax the offset, rcx the span. */
static void compare_with_frame(struct emit *e, unsigned f, uint64_t addr)
{
    mov_address(e, X_RAX, addr);
    compare_reg_with_frame(e, f, X_RAX, X_RCX);
}

/*
 * The register holding the hooks: r10, or `scratch`, loaded from their
 * slot when r10 keeps a guest register (place_slots). At the frame's
 * level only: rsp as the body has it.
 */
static unsigned hooks_reg(struct emit *e, unsigned scratch)
{
    if (e->frame.hooks < 0)
        return X_R10;
    x86_op_mem(e->b, true, 0x8B, scratch, X_RSP, e->frame.hooks);
    return scratch;
}

/* Register r = hooks->top, the tracer's top frame (a traced mode's block: never NULL). */
static void load_top(struct emit *e, unsigned r)
{
    x86_op_mem(e->b, true, 0x8B, r, hooks_reg(e, r),
               (int32_t)offsetof(struct translate_hooks, top));
}

/* hooks->top = rdx, which now holds the top frame (clobbers rcx when the hooks wait in a slot). */
static void set_top(struct emit *e)
{
    x86_op_mem(e->b, true, 0x89, X_RDX, hooks_reg(e, X_RCX),
               (int32_t)offsetof(struct translate_hooks, top));
}

static void emit_cost_hook(struct emit *e, const struct insn *from, const struct insn *to);
static void emit_push_unpushed(struct emit *e, size_t k);
/* emit_run_count_address's `none` when it is RUN_COUNT_NONE_VALUE, not a register's value */
enum { RUN_COUNT_NONE = -1, RUN_COUNT_NONE_VALUE = 1 };
static void emit_run_count_address(struct emit *e, uint64_t pc, int none);

/*
 * The hooks of a taken branch from entry `from` (at guest pc `pc`) to
 * entry `to`, as the loops' branch handler runs them (r10: the block's
 * struct translate_hooks): the cost clock's sum moves by what running
 * straight on would have counted (the costs lie CODE_COST_OFFSET above
 * the entries), and the top frame's run array counts the branch taken at
 * its slot. A branch outside the frame's function leaves the block before
 * it, for the interpreter's hooks (so that test comes before any count).
 */
static void emit_taken_hooks(struct emit *e, size_t i, const struct insn *to, uint64_t pc)
{
    struct x86_buf *b = e->b;
    bool found = (ptrdiff_t)i == e->loop_branch; /* where it counts, found at entry */
    /* runs: rax = where the branch counts (the hooks' address: nowhere), 0: outside the function */
    if (counts_runs(e, i) && !(found && e->derived)) {
        if (found) { /* a count or the scratch one, never the hooks */
            x86_op_mem(b, true, 0x8B, X_RAX, X_RSP, e->frame.loop_count);
        } else {
            emit_run_count_address(e, pc, RUN_COUNT_NONE);
        }
        x86_op_reg(b, true, 0x85, X_RAX, X_RAX);
        miss(e, CC_E, i);
        uint8_t *nowhere = NULL;
        if (!found) {
            x86_alu_imm(b, true, 7, X_RAX, RUN_COUNT_NONE_VALUE); /* cmp rax, NONE */
            nowhere = x86_jcc(b, CC_E);
        }
        x86_op_mem(b, true, 0x83, 0, X_RAX, 0); /* add qword [rax], 1 */
        x86_byte(b, 1);
        x86_patch(nowhere, b->p);
    }
    emit_cost_hook(e, e->at[i], to);
}

/*
 * Per-pc mode: the run-array count of the branch at pc in the top frame
 * (hooks->top) into rax: its address, or the value of register `none`
 * (RUN_COUNT_NONE: RUN_COUNT_NONE_VALUE) when nothing counts runs there,
 * or 0 when pc lies outside the frame's function (the interpreter's hook
 * must run). Clobbers rcx, rdx.
 */
static void emit_run_count_address(struct emit *e, uint64_t pc, int none)
{
    struct x86_buf *b = e->b;
    if (none == RUN_COUNT_NONE)
        x86_mov_imm(b, X_RAX, RUN_COUNT_NONE_VALUE);
    else
        x86_op_reg(b, true, 0x8B, X_RAX, (unsigned)none);
    load_top(e, X_RCX);
    x86_op_mem(b, true, 0x8B, X_RDX, X_RCX, FRAME_LINK(runs));
    x86_op_reg(b, true, 0x85, X_RDX, X_RDX);
    uint8_t *no_runs = x86_jcc(b, CC_E);
    compare_with_frame(e, X_RCX, pc);
    uint8_t *inside = x86_jcc(b, CC_B);
    x86_op_reg(b, false, 0x31, X_RAX, X_RAX); /* xor eax, eax */
    uint8_t *done = x86_jmp(b);
    x86_patch(inside, b->p);
    x86_shift(b, true, 5, X_RAX, e->cc->slot_shift, false); /* the slot */
    x86_shift(b, true, 4, X_RAX, 4, false);                 /* two int64 per slot */
    x86_op_sib(b, true, 0x8D, X_RAX, X_RAX, X_RDX);         /* lea rax, [rax + rdx] */
    x86_alu_imm(b, true, 0, X_RAX, (int32_t)sizeof(int64_t));
    x86_patch(no_runs, b->p);
    x86_patch(done, b->p);
}

/*
 * A block that loops on itself finds where its loop branch counts once
 * per call, not once per pass (matmul's inner loop: a third more host
 * instructions per pass otherwise): e->frame.loop_count = that address,
 * e->frame.scratch's when nothing counts runs, or 0 when the branch lies
 * outside the frame's function (a block whose count is derived then
 * leaves before its first instruction; another, at the branch).
 */
static void emit_loop_counter(struct emit *e)
{
    if (e->loop_branch < 0 || !counts_runs(e, (size_t)e->loop_branch))
        return;
    x86_op_mem(e->b, true, 0x8D, X_RDX, X_RSP, e->frame.scratch); /* lea rdx, [rsp + scratch] */
    emit_run_count_address(e, e->pcs[e->loop_branch], X_RDX);
    x86_op_mem(e->b, true, 0x89, X_RAX, X_RSP, e->frame.loop_count);
    if (e->derived) { /* outside the frame's function: the loop's passes are the interpreter's */
        x86_op_reg(e->b, true, 0x85, X_RAX, X_RAX);
        miss(e, CC_E, 0);
    }
}

/*
 * Whether instruction i is a branch whose taken path goes ahead inside
 * the block (a jal's target comes next, or lies outside it).
 */
static bool jumps_ahead(const struct emit *e, size_t i)
{
    const struct insn *in = e->at[i];
    if (!translate_op_ends_block(in->op))
        return false;
    size_t j = translate_path_index(e->at, e->n, in + in->imm);
    return j > i && j < e->n;
}

/*
 * Whether the loop branch's taken count can be derived from the budget on
 * the way out: it counts runs, and only its passes move r9 (no other
 * branch or jal back to the start, none ahead inside the block), each by
 * its length L = loop_branch + 1, so that budget - r9 is L times the passes
 * taken. Division by L is then exact: a shift by L's trailing zeros, and
 * a product with the inverse of its odd part mod 2^64.
 */
static void derive_passes(struct emit *e)
{
    if (e->loop_branch < 0 || !counts_runs(e, (size_t)e->loop_branch))
        return;
    for (size_t i = 0; i < e->n; i++)
        if (translate_loops_back(e->at[i], e->at[0]) ? (ptrdiff_t)i != e->loop_branch
                                                     : jumps_ahead(e, i))
            return;
    uint64_t length = (uint64_t)e->loop_branch + 1, odd = length, inverse = 1;
    unsigned shift = 0;
    while (!(odd & 1)) {
        odd >>= 1;
        shift++;
    }
    for (int k = 0; k < 6; k++) /* Newton: each step doubles the bits right */
        inverse *= 2 - odd * inverse;
    e->derived = true;
    e->pass_shift = shift;
    e->pass_inverse = inverse;
}

/*
 * The derived loop count on the way out: the passes the budget paid for
 * go to where the loop branch counts (the frame's loop_count: a run count
 * or the scratch slot; 0 only when the block left before its first
 * instruction). After the kept registers are written back: r8 and r11 are
 * free.
 */
static void emit_passes_out(struct emit *e)
{
    struct x86_buf *b = e->b;
    if (!e->derived)
        return;
    x86_op_mem(b, true, 0x8B, X_R8, X_RSP, e->frame.budget);
    x86_op_reg(b, true, 0x2B, X_R8, X_R9); /* sub r8, r9: L x passes */
    if (e->pass_shift)
        x86_shift(b, true, 5, X_R8, e->pass_shift, false);
    if (e->pass_inverse != 1) {
        x86_mov_imm(b, X_R11, e->pass_inverse);
        x86_op_reg(b, true, X86_0F(0xAF), X_R8, X_R11); /* imul r8, r11 */
    }
    x86_op_mem(b, true, 0x8B, X_R11, X_RSP, e->frame.loop_count);
    x86_op_reg(b, true, 0x85, X_R11, X_R11);
    uint8_t *outside = x86_jcc(b, CC_E);
    x86_op_mem(b, true, 0x01, X_R8, X_R11, 0); /* add [r11], r8 */
    x86_patch(outside, b->p);
}

/*
 * rcx = hooks->cost_cl, the loop's cost clock sum (in a block of a cost
 * mode, never NULL: translate_enter).
 */
static void load_cost_sum(struct emit *e)
{
    x86_op_mem(e->b, true, 0x8B, X_RCX, hooks_reg(e, X_RCX),
               (int32_t)offsetof(struct translate_hooks, cost_cl));
}

/* The cost clock's hook of a taken transfer from entry `from` to `to`. */
static void emit_cost_hook(struct emit *e, const struct insn *from, const struct insn *to)
{
    struct x86_buf *b = e->b;
    if (!e->mode.cost)
        return;
    /* *cost_cl += to's before - from's through */
    load_cost_sum(e);
    x86_mov_imm(b, X_RDX, (uint64_t)(uintptr_t)from + CODE_COST_OFFSET);
    x86_mov_imm(b, X_RAX, (uint64_t)(uintptr_t)to + CODE_COST_OFFSET);
    x86_op_mem(b, true, 0x8B, X_RAX, X_RAX, (int32_t)offsetof(struct code_cost, before));
    x86_op_mem(b, true, 0x2B, X_RAX, X_RDX, (int32_t)offsetof(struct code_cost, through));
    x86_op_mem(b, true, 0x01, X_RAX, X_RCX, 0); /* add [rcx], rax */
}

/* r9, the budget left, less n: instructions retired by a pass, or skipped (n < 0) */
static void count_retired(struct emit *e, ptrdiff_t n)
{
    x86_alu_imm(e->b, true, 5, X_R9, (int32_t)n); /* sub r9, n */
}

/*
 * A taken transfer from instruction i back to the block's start: another
 * pass while the budget left holds one, else out to the start.
 */
static void emit_loop_back(struct emit *e, size_t i)
{
    count_retired(e, (ptrdiff_t)i + 1);
    x86_alu_imm(e->b, true, 7, X_R9, (int32_t)e->n); /* cmp r9, n */
    x86_patch(x86_jcc(e->b, CC_AE), e->start);
    exit_to(e, e->at[0], 0);
}

/*
 * Branch i's taken path: its hooks, then back to the block's start while
 * the budget holds another pass after those retired so far; forward into
 * the block, the retired count less the instructions skipped (exits count
 * by position); or out to its target.
 */
static void emit_taken_path(struct emit *e, size_t k)
{
    size_t i = e->taken_of[k];
    const struct insn *in = e->at[i];
    const struct insn *to = in + in->imm;
    x86_patch(e->taken_at[k], e->b->p);
    emit_taken_hooks(e, i, to, e->pcs[i]);
    size_t j = translate_path_index(e->at, e->n, to);
    if (j == 0) {
        emit_loop_back(e, i);
    } else if (j > i && j < e->n) {
        count_retired(e, (ptrdiff_t)i + 1 - (ptrdiff_t)j);
        x86_patch(x86_jmp(e->b), e->code_of[j]);
    } else {
        emit_push_unpushed(e, i);
        exit_to(e, to, i + 1);
    }
}

/* The guest address a jal (or a jal to a link) at instruction i goes to: imm counts entries. */
static uint64_t jal_target(const struct emit *e, size_t i)
{
    return e->pcs[i] + ((uint64_t)(int64_t)e->at[i]->imm << e->cc->slot_shift);
}

/*
 * A jal inside the block (translate_at follows it): rd gets the return
 * address; a jump out of the top frame's function (trace_jump_fast: a tail
 * call) goes out of line to the tracer's tail call (emit_linked_calls) and
 * leaves for the target; else its hooks, as a taken branch's, and the
 * block goes on at the target, its next instruction (or back at its start,
 * when the jal closes the loop).
 */
static void emit_jal(struct emit *e, size_t i)
{
    struct x86_buf *b = e->b;
    const struct insn *in = e->at[i];
    const struct insn *to = in + in->imm;
    uint64_t pc = e->pcs[i], target = jal_target(e, i);
    if (e->mode.traced) { /* the tracer's top frame: a target outside its function, a tail call */
        load_top(e, X_RCX);
        compare_with_frame(e, X_RCX, target);
        size_t k = e->nlinked++;
        e->linked_of[k] = (uint32_t)i;
        e->linked_at[k][0] = x86_jcc(b, CC_AE);
        e->linked_at[k][1] = e->linked_at[k][2] = e->linked_at[k][3] = NULL;
        e->linked_back[k] = NULL;
    }
    if (in->rd < REG_SINK) {
        mov_address(e, X_RAX, next_pc(e, i));
        store_reg(e, X_RAX, in->rd);
    }
    emit_taken_hooks(e, i, to, pc);
    if (to == e->at[0])
        emit_loop_back(e, i);
    else if (i + 1 == e->n || e->at[i + 1] != to) /* (translate_emit's callers avoid it) */
        exit_to(e, to, i + 1);
}

/*
 * rax = the tracer's instruction clock after instruction i of this pass
 * retired: -16 x the budget left after it (trace.h; the interpreter's
 * NOW()), that is 16 x (i - r9), r9 the budget left when the pass began.
 */
static void emit_clock(struct emit *e, size_t i)
{
    x86_op_reg(e->b, true, 0x6B, X_RAX, X_R9); /* imul rax, r9, -16 */
    x86_byte(e->b, (uint8_t)-TRACE_CLOCK_TICKS);
    if (i)
        x86_alu_imm(e->b, true, 0, X_RAX, (int32_t)(i * TRACE_CLOCK_TICKS));
}

/*
 * Cost mode: `op` (0x29 sub, 0x01 add) the cost clock after the transfer
 * at `from` retired (its sum through it, less the loop's cl) to the count
 * at [rdx + disp]. Clobbers rax, rcx.
 */
static void emit_cost_clock_to(struct emit *e, const struct insn *from, unsigned op, int32_t disp)
{
    struct x86_buf *b = e->b;
    if (!e->mode.cost)
        return;
    load_cost_sum(e);
    x86_mov_imm(b, X_RAX, (uint64_t)(uintptr_t)from + CODE_COST_OFFSET);
    x86_op_mem(b, true, 0x8B, X_RAX, X_RAX, (int32_t)offsetof(struct code_cost, through));
    x86_op_mem(b, true, 0x2B, X_RAX, X_RCX, 0); /* sub rax, [rcx] */
    x86_op_mem(b, true, op, X_RAX, X_RDX, disp);
}

/* Whether guest address v (as mov_address has it) fits an instruction's sign-extended imm32. */
static bool address_fits_imm32(const struct emit *e, uint64_t v)
{
    return (e->w ? v : (uint32_t)v) <= INT32_MAX;
}

/* The quadword at [base + disp] = guest address v (through rax when no imm32 holds it). */
static void store_address(struct emit *e, unsigned base, int32_t disp, uint64_t v)
{
    if (address_fits_imm32(e, v)) {
        x86_op_mem(e->b, true, 0xC7, 0, base, disp); /* mov qword [base + disp], imm32 */
        x86_u32(e->b, (uint32_t)v);
        return;
    }
    mov_address(e, X_RAX, v);
    x86_op_mem(e->b, true, 0x89, X_RAX, base, disp);
}

/* Compares the quadword at [base + disp] with guest address v, for je or jne (clobbers rax). */
static void compare_address(struct emit *e, unsigned base, int32_t disp, uint64_t v)
{
    if (address_fits_imm32(e, v)) {
        x86_op_mem(e->b, true, 0x81, 7, base, disp); /* cmp qword [base + disp], imm32 */
        x86_u32(e->b, (uint32_t)v);
        return;
    }
    mov_address(e, X_RAX, v);
    x86_op_mem(e->b, true, 0x3B, X_RAX, base, disp);
}

/* Register r = the address a jalr `in` jumps to: (rs1 + imm) & ~1. */
static void emit_jalr_address(struct emit *e, const struct insn *in, unsigned r)
{
    load_reg(e, e->w, r, in->rs1);
    x86_alu_imm(e->b, e->w, 0, r, in->imm);
    x86_alu_imm(e->b, e->w, 4, r, -2); /* & ~1 */
}

/*
 * Per-pc mode: whether every function holding the entry is known to keep
 * no run arrays (code_cache_note_runs; one said to keep them later makes
 * the translator forget every block). A call from such a pc hangs under
 * the top frame's node whatever that frame is (its inline chain is empty,
 * so the site is the caller), as the fast path without call sites finds
 * it; and a frame of such a function has no runs to end. (NULL: false.)
 */
static bool keeps_no_runs(const struct emit *e, const struct insn *entry)
{
    const struct code_cache *cc = e->cc;
    return entry && cc->runs && cc->runs[entry - cc->insns] == CODE_RUNS_NONE;
}

/*
 * Unpushed leaf calls. A call the block makes whose return comes back in
 * the block, with nothing between that reads the top frame (no call, jal
 * or return; in per-pc mode a callee that keeps no runs, so no hooks), sets
 * the slot above up as the fast path does (the link, the return address,
 * the count from now) but leaves the top frame where it is, and its return
 * adds the clock to the slot's count and moves nothing. Every way out in
 * between (a miss, a taken branch leaving the block) first completes the
 * push (emit_push_unpushed), so that the interpreter finds the frame it
 * would have. The index of the return of the call at c, or 0 when the call
 * does not qualify.
 */
static size_t unpushed_return(const struct emit *e, size_t c)
{
    if (!e->mode.traced || e->mode.cost || c + 1 >= e->n ||
        translate_base_op(e->at[c]->op) != OP_JAL_CALL)
        return 0;
    const struct insn *callee = e->at[c] + e->at[c]->imm;
    if (e->mode.per_pc && !keeps_no_runs(e, callee))
        return 0;
    /*
     * The return must not be the last instruction (a return out leaves with
     * the frame on top), nor lie before where a branch between jumps ahead.
     */
    size_t reach = 0;
    for (size_t k = c + 1; k + 1 < e->n; k++) {
        const struct insn *in = e->at[k];
        if (translate_base_op(in->op) == OP_JALR_RET)
            return reach <= k ? k : 0;
        if (translate_op_leaves(in->op) || translate_op_jumps_out(in->op))
            return 0;
        if (translate_op_ends_block(in->op)) {
            size_t j = translate_path_index(e->at, e->n, in + in->imm);
            if (counts_runs(e, k) || j == 0)
                return 0;                       /* hooks, or a loop back */
            if (j > k && j < e->n && j > reach) /* ahead inside the block (jumps_ahead) */
                reach = j;
        }
    }
    return 0;
}

/* Finds the block's unpushed leaf calls (unpushed_return). */
static void plan_unpushed(struct emit *e)
{
    for (size_t c = 0; c < e->n; c++) {
        size_t r = unpushed_return(e, c);
        e->unpushed_ret[c] = (uint32_t)r;
        for (size_t k = c + 1; r && k <= r; k++)
            e->unpushed_in[k] = (uint8_t)(c + 1);
    }
}

/*
 * On a way out before or after instruction k inside an unpushed call's
 * stretch: the push completes, the slot above becoming the top frame with
 * where its return address's code lies. Clobbers rax, rcx, rdx.
 */
static void emit_push_unpushed(struct emit *e, size_t k)
{
    if (!e->unpushed_in[k])
        return;
    size_t c = (size_t)e->unpushed_in[k] - 1;
    struct x86_buf *b = e->b;
    load_top(e, X_RDX);
    x86_alu_imm(b, true, 0, X_RDX, (int32_t)sizeof(struct trace_frame));
    x86_mov_imm(b, X_RAX, (uint64_t)(uintptr_t)next_entry(e, c));
    x86_op_mem(b, true, 0x89, X_RAX, X_RDX, (int32_t)offsetof(struct trace_frame, ret_at));
    set_top(e);
}

/*
 * The tracer's call fast path (trace_call_fast, or trace_call_fast_site
 * when the top frame's link has call sites) for the call at instruction
 * i, from pc to *target (NULL: a call through a register, its target in
 * rax): unless the slot above the top frame (rdx) is set
 * up for this call, the block leaves before it, for the interpreter's
 * handler and its slower paths. Then the slot becomes the top frame: its
 * return address, where that code lies (ret_at: the entry after the
 * call), and its counts from now.
 */
static void emit_trace_call_to(struct emit *e, size_t i, const uint64_t *target)
{
    struct x86_buf *b = e->b;
    uint64_t ret = next_pc(e, i);
    size_t k = e->nlinked++;
    e->linked_of[k] = (uint32_t)i;
    if (target)
        compare_address(e, X_RDX, FRAME_UP(FRAME_LINK(key)), *target);
    else
        x86_op_mem(b, true, 0x3B, X_RAX, X_RDX, FRAME_UP(FRAME_LINK(key)));
    e->linked_at[k][0] = x86_jcc(b, CC_NE);
    x86_op_mem(b, false, 0x8B, X_RCX, X_RDX, FRAME_LINK(node));
    uint8_t *sites = NULL;
    if (e->mode.per_pc && !keeps_no_runs(e, e->at[i])) {
        x86_op_mem(b, false, 0xF6, 0, X_RDX, FRAME_LINK(runs)); /* test byte [runs], SITES */
        x86_byte(b, (uint8_t)TRACE_RUNS_SITES);
        sites = x86_jcc(b, CC_NE);
    }
    x86_op_mem(b, false, 0x3B, X_RCX, X_RDX, FRAME_UP(FRAME_LINK(parent)));
    e->linked_at[k][1] = x86_jcc(b, CC_NE);
    e->linked_at[k][2] = e->linked_at[k][3] = NULL;
    if (sites) { /* per-pc mode: a caller with call sites (trace_call_fast_site) */
        uint8_t *set_up = x86_jmp(b);
        x86_patch(sites, b->p);
        x86_op_mem(b, false, 0x3B, X_RCX, X_RDX, FRAME_UP(FRAME_LINK(caller)));
        e->linked_at[k][2] = x86_jcc(b, CC_NE);
        compare_address(e, X_RDX, FRAME_UP((int32_t)offsetof(struct trace_frame, ret)), ret);
        e->linked_at[k][3] = x86_jcc(b, CC_NE);
        x86_patch(set_up, b->p);
    }
    /* trace_enter: the frame above is the top now */
    e->linked_enter[k] = b->p;
    if (e->unpushed_ret[i]) { /* its return address and counts, the top left where it is */
        store_address(e, X_RDX, FRAME_UP((int32_t)offsetof(struct trace_frame, ret)), ret);
        emit_clock(e, i);
        x86_op_mem(b, true, 0x29, X_RAX, X_RDX,
                   FRAME_UP((int32_t)offsetof(struct trace_frame, acc)));
        e->linked_back[k] = b->p;
        return;
    }
    x86_alu_imm(b, true, 0, X_RDX, (int32_t)sizeof(struct trace_frame));
    store_address(e, X_RDX, (int32_t)offsetof(struct trace_frame, ret), ret);
    x86_mov_imm(b, X_RAX, (uint64_t)(uintptr_t)next_entry(e, i));
    x86_op_mem(b, true, 0x89, X_RAX, X_RDX, (int32_t)offsetof(struct trace_frame, ret_at));
    emit_clock(e, i);
    x86_op_mem(b, true, 0x29, X_RAX, X_RDX, (int32_t)offsetof(struct trace_frame, acc));
    emit_cost_clock_to(e, e->at[i], 0x29, (int32_t)offsetof(struct trace_frame, cost_acc));
    set_top(e);
    e->linked_back[k] = b->p;
}

/* The host registers a call out of the block to C must keep: the arguments, hooks, kept ones. */
static const uint8_t call_saved[] = {X_RDI, X_RSI, X_R8, X_R9, X_R10, X_R11};

/*
 * rax = the tracer's clock after instruction i, as emit_clock reads it, in
 * a block whose r9 may not hold the budget (one that runs no passes: then
 * the budget it was given is the pass's).
 */
static void emit_clock_anywhere(struct emit *e, size_t i)
{
    if (e->r9_counts) {
        emit_clock(e, i);
        return;
    }
    x86_op_mem(e->b, true, 0x6B, X_RAX, X_RSP, e->frame.budget); /* imul rax, [budget], -16 */
    x86_byte(e->b, (uint8_t)-TRACE_CLOCK_TICKS);
    if (i)
        x86_alu_imm(e->b, true, 0, X_RAX, (int32_t)(i * TRACE_CLOCK_TICKS));
}

/*
 * A jal's tail call that translate_trace_tail took: rd gets the return
 * address (a jump's link register that is not a link), the cost clock's
 * transfer, and out to the target.
 */
static void emit_tail_taken(struct emit *e, size_t i)
{
    const struct insn *in = e->at[i];
    if (in->rd < REG_SINK) {
        mov_address(e, X_RAX, next_pc(e, i));
        store_reg(e, X_RAX, in->rd);
    }
    emit_cost_hook(e, in, in + in->imm);
    exit_to(e, in + in->imm, i + 1);
}

/*
 * Register r = the target of linked jump k: a call through a register's
 * address now (rs1 is still the guest's), else the jal's.
 */
static void emit_link_target(struct emit *e, size_t k, unsigned r)
{
    size_t i = e->linked_of[k];
    const struct insn *in = e->at[i];
    if (translate_op_jumps_out(in->op))
        emit_jalr_address(e, in, r);
    else
        mov_address(e, r, jal_target(e, i));
}

/* A field of a site cache (a struct trace_link) from its address. */
#define SITE(field) (int32_t) offsetof(struct trace_link, field)

/*
 * A jump to `other` unless site cache k is of linked jump k's target (a
 * call through a register: its address now) and of the frame at [rdx]:
 * its `field` (caller, or for a tail call parent) is the frame's. Leaves
 * rcx = the cache; clobbers rax.
 */
static void emit_site_test(struct emit *e, size_t k, int32_t frame_field, int32_t site_field,
                           uint8_t **other)
{
    struct x86_buf *b = e->b;
    const struct insn *in = e->at[e->linked_of[k]];
    x86_mov_imm(b, X_RCX, (uint64_t)(uintptr_t)&e->sites[k]);
    if (translate_op_jumps_out(in->op)) {
        emit_jalr_address(e, in, X_RAX);
        x86_op_mem(b, true, 0x3B, X_RAX, X_RCX, SITE(key));
    } else {
        compare_address(e, X_RCX, SITE(key), jal_target(e, e->linked_of[k]));
    }
    other[0] = x86_jcc(b, CC_NE);
    x86_op_mem(b, false, 0x8B, X_RAX, X_RDX, frame_field);
    x86_op_mem(b, false, 0x3B, X_RAX, X_RCX, site_field);
    other[1] = x86_jcc(b, CC_NE);
}

/*
 * trace_slot_relink's hand-over for the frame at [rdx + at]: its node's
 * count += (its acc + the clock) / TRACE_CLOCK_TICKS, the clock after
 * instruction i (emit_clock_anywhere), or 0 for a popped slot (i =
 * SIZE_MAX). Clobbers rax, rcx.
 */
static void emit_hand_over(struct emit *e, int32_t at, size_t i)
{
    struct x86_buf *b = e->b;
    x86_op_mem(b, false, 0x8B, X_RCX, X_RDX, at + FRAME_LINK(node));
    x86_op_reg(b, true, 0x6B, X_RCX, X_RCX); /* imul rcx, rcx, sizeof(struct call_node) */
    x86_byte(b, (uint8_t)sizeof(struct call_node));
    _Static_assert(sizeof(struct call_node) < 128, "the imul's imm8");
    unsigned h = hooks_reg(e, X_RAX);
    x86_op_mem(b, true, 0x8B, X_RAX, h, (int32_t)offsetof(struct translate_hooks, tracer));
    x86_op_mem(b, true, 0x03, X_RCX, X_RAX, (int32_t)offsetof(struct flow_tracer, nodes));
    int32_t acc = at + (int32_t)offsetof(struct trace_frame, acc);
    if (i == SIZE_MAX) {
        x86_op_mem(b, true, 0x8B, X_RAX, X_RDX, acc);
    } else {
        emit_clock_anywhere(e, i);
        x86_op_mem(b, true, 0x03, X_RAX, X_RDX, acc);
    }
    x86_shift(b, true, 5, X_RAX, 4, false); /* shr rax, log2 TRACE_CLOCK_TICKS */
    _Static_assert(TRACE_CLOCK_TICKS == 16, "the shift above");
    x86_op_mem(b, true, 0x01, X_RAX, X_RCX, (int32_t)offsetof(struct call_node, count));
}

/* The link of the frame at [rdx + at] = site cache k's; its acc = 0. Clobbers rax, rcx. */
static void emit_link_from_site(struct emit *e, size_t k, int32_t at)
{
    struct x86_buf *b = e->b;
    x86_mov_imm(b, X_RCX, (uint64_t)(uintptr_t)&e->sites[k]);
    for (int32_t o = 0; o < (int32_t)sizeof(struct trace_link); o += 8) {
        x86_op_mem(b, true, 0x8B, X_RAX, X_RCX, o);
        x86_op_mem(b, true, 0x89, X_RAX, X_RDX, at + FRAME_LINK(key) + o);
    }
    _Static_assert(sizeof(struct trace_link) % 8 == 0, "copied in quadwords");
    x86_op_mem(b, true, 0xC7, 0, X_RDX, at + (int32_t)offsetof(struct trace_frame, acc));
    x86_u32(b, 0);
}

/*
 * Call k, which the fast path missed, from site cache k when it is the
 * caller's (trace_call_linked with the link the cache holds, rdx the top
 * frame): the slot above hands its count over and is set up from the
 * cache, and the push goes on (linked_enter). Else, or when the slot
 * above is the guard, a jump to `other`.
 */
static void emit_call_from_site(struct emit *e, size_t k, uint8_t **other)
{
    struct x86_buf *b = e->b;
    emit_site_test(e, k, FRAME_LINK(node), SITE(caller), other);
    unsigned h = hooks_reg(e, X_RAX); /* rax = guard - top */
    x86_op_mem(b, true, 0x8B, X_RAX, h, (int32_t)offsetof(struct translate_hooks, tracer));
    x86_op_mem(b, true, 0x8B, X_RAX, X_RAX, (int32_t)offsetof(struct flow_tracer, guard));
    x86_op_reg(b, true, 0x2B, X_RAX, X_RDX); /* sub rax, rdx */
    x86_alu_imm(b, true, 7, X_RAX, (int32_t)sizeof(struct trace_frame));
    other[2] = x86_jcc(b, CC_E);
    emit_hand_over(e, FRAME_UP(0), SIZE_MAX);
    emit_link_from_site(e, k, FRAME_UP(0));
    x86_patch(x86_jmp(b), e->linked_enter[k]);
}

/*
 * Tail call k, which the fast path missed, from site cache k when it is
 * of the top frame's parent (trace_tail_fast with the link the cache
 * holds; in per-pc mode only where neither node keeps runs, else a jump
 * to `other` as when the cache is another's): the frame hands its count
 * over, is set up from the cache and counts from now; out to the target.
 */
static void emit_tail_from_site(struct emit *e, size_t k, uint8_t **other)
{
    struct x86_buf *b = e->b;
    size_t i = e->linked_of[k];
    load_top(e, X_RDX);
    emit_site_test(e, k, FRAME_LINK(parent), SITE(parent), other);
    if (e->mode.per_pc) {
        x86_op_mem(b, true, 0x83, 7, X_RDX, FRAME_LINK(runs)); /* cmp qword [runs], 0 */
        x86_byte(b, 0);
        other[2] = x86_jcc(b, CC_NE);
        x86_op_mem(b, true, 0x83, 7, X_RCX, SITE(runs));
        x86_byte(b, 0);
        other[3] = x86_jcc(b, CC_NE);
    }
    emit_hand_over(e, 0, i);
    emit_link_from_site(e, k, 0);
    emit_clock_anywhere(e, i); /* trace_frame_open */
    x86_op_mem(b, true, 0x29, X_RAX, X_RDX, (int32_t)offsetof(struct trace_frame, acc));
    emit_tail_taken(e, i);
}

/*
 * The traced calls the fast path missed (emit_trace_call_to) and the jals'
 * tail calls (emit_jal): their site caches (emit_call_from_site,
 * emit_tail_from_site), else the tracer's next fast path, in C
 * (translate_trace_call, translate_trace_tail), with the caller-saved
 * registers the block uses saved around it and the stack aligned for the
 * call. When it pushed the frame, back after the fast path's push; when
 * it took the tail call, out to the target (emit_tail_taken); else the
 * block leaves before the jump, for the loop's slow path.
 */
static void emit_linked_calls(struct emit *e)
{
    struct x86_buf *b = e->b;
    unsigned pushed = 8 * (e->nkept > e->caller_saved ? e->nkept - e->caller_saved : 0);
    bool pad = (pushed + (unsigned)e->frame.size + sizeof(call_saved) * 8) % 16 != 8;
    for (size_t k = 0; k < e->nlinked; k++) {
        size_t i = e->linked_of[k];
        bool tail = e->linked_back[k] == NULL;
        for (size_t j = 0; j < 4; j++)
            x86_patch(e->linked_at[k][j], b->p);
        if (e->sites) {
            uint8_t *other[4] = {NULL, NULL, NULL, NULL};
            if (tail)
                emit_tail_from_site(e, k, other);
            else
                emit_call_from_site(e, k, other);
            for (size_t j = 0; j < 4; j++)
                x86_patch(other[j], b->p);
        }
        emit_clock_anywhere(e, i); /* (before the pushes move rsp) */
        for (size_t j = 0; j < sizeof(call_saved); j++)
            x86_push(b, call_saved[j]);
        if (pad)
            x86_alu_imm(b, true, 5, X_RSP, 8);
        const struct insn *in = e->at[i];
        emit_link_target(e, k, X_RCX);
        x86_op_reg(b, true, 0x8B, X_R8, X_RAX);
        if (e->frame.hooks < 0)
            x86_op_reg(b, true, 0x8B, X_RDI, X_R10);
        else /* from their slot, past the registers pushed */
            x86_op_mem(b, true, 0x8B, X_RDI, X_RSP,
                       e->frame.hooks + (int32_t)(sizeof(call_saved) * 8 + (pad ? 8 : 0)));
        x86_mov_imm(b, X_RSI, (uint64_t)(uintptr_t)in);
        mov_address(e, X_RDX, e->pcs[i]);
        x86_mov_imm(b, X_R9, (uint64_t)(uintptr_t)(e->sites ? &e->sites[k] : NULL));
        x86_mov_imm(b, X_RAX,
                    (uint64_t)(uintptr_t)(tail ? translate_trace_tail : translate_trace_call));
        x86_op_reg(b, false, 0xFF, 2, X_RAX); /* call rax */
        if (pad)
            x86_alu_imm(b, true, 0, X_RSP, 8);
        for (size_t j = sizeof(call_saved); j-- > 0;)
            x86_pop(b, call_saved[j]);
        x86_op_reg(b, false, 0x85, X_RAX, X_RAX); /* test eax, eax */
        miss(e, CC_E, i);
        if (tail)
            emit_tail_taken(e, i);
        else {
            if (e->unpushed_ret[i]) { /* C pushed it: the top goes back below it */
                load_top(e, X_RDX);
                x86_alu_imm(b, true, 5, X_RDX, (int32_t)sizeof(struct trace_frame));
                set_top(e);
            }
            x86_patch(x86_jmp(b), e->linked_back[k]);
        }
    }
}

/*
 * Per-pc mode: the run of the top frame (rdx), a callee the block called,
 * ends after the return at instruction i (trace_run_end_before); a return
 * address outside the callee's function leaves first, for the
 * interpreter's clamp. Clobbers rax, rcx.
 */
static void emit_callee_run_end(struct emit *e, size_t i)
{
    struct x86_buf *b = e->b;
    x86_op_mem(b, true, 0x83, 7, X_RDX, FRAME_LINK(runs)); /* cmp qword [runs], 0 */
    x86_byte(b, 0);
    uint8_t *no_runs = x86_jcc(b, CC_E);
    mov_address(e, X_RAX, next_pc(e, i));
    x86_op_mem(b, true, 0x2B, X_RAX, X_RDX, FRAME_LINK(lo));
    x86_op_mem(b, false, 0x8B, X_RCX, X_RDX, FRAME_LINK(span));
    x86_op_reg(b, true, 0x3B, X_RAX, X_RCX); /* cmp rax, rcx */
    miss(e, CC_A, i);
    unsigned shift = e->cc->slot_shift;             /* the run array's (trace_run_index) */
    x86_alu_imm(b, true, 4, X_RAX, -(1 << shift));  /* and: the slot's */
    x86_shift(b, true, 4, X_RAX, 4 - shift, false); /* x 16 / slot: two int64 per slot */
    x86_op_mem(b, true, 0x03, X_RAX, X_RDX, FRAME_LINK(runs));
    x86_op_mem(b, true, 0x83, 0, X_RAX, 0); /* add qword [rax], -1: TRACE_RUN_DELTA */
    x86_byte(b, 0xFF);
    x86_patch(no_runs, b->p);
}

/*
 * The entry of the function the return at instruction i leaves: the
 * target of the call in the block it returns to; NULL for a return to a
 * caller outside the block, whose frame was pushed before it.
 */
static const struct insn *callee_of(const struct emit *e, size_t i)
{
    size_t open = 0; /* returns between, each closing a call between */
    for (size_t k = i; k-- > 0;) {
        unsigned op = translate_base_op(e->at[k]->op);
        if (op == OP_JALR_RET)
            open++;
        else if (op == OP_JAL_CALL && open-- == 0)
            return e->at[k] + e->at[k]->imm;
    }
    return NULL;
}

/*
 * The tracer's return fast path (trace_return_fast) for the return at
 * instruction i to the call the block made earlier, whose frame (rdx) is
 * the top one and expects this address: in per-pc mode the callee's run
 * ends (emit_callee_run_end); its counts take the clocks; the frame below
 * is the top again. The caller's run, open since the call, goes on.
 */
static void emit_trace_return(struct emit *e, size_t i)
{
    struct x86_buf *b = e->b;
    if (e->mode.per_pc && !keeps_no_runs(e, callee_of(e, i)))
        emit_callee_run_end(e, i);
    emit_clock(e, i);
    x86_op_mem(b, true, 0x01, X_RAX, X_RDX, (int32_t)offsetof(struct trace_frame, acc));
    emit_cost_clock_to(e, e->at[i], 0x01, (int32_t)offsetof(struct trace_frame, cost_acc));
    x86_alu_imm(b, true, 5, X_RDX, (int32_t)sizeof(struct trace_frame));
    set_top(e);
}

/*
 * A call (jal to a link register) the block follows into the callee: the
 * tracer's call, the link, the cost clock's transfer; the callee's code
 * comes next, or, when the call is the last instruction (block_path could
 * not follow it: a recursion), the block leaves for the callee's entry.
 */
static void emit_call(struct emit *e, size_t i)
{
    const struct insn *in = e->at[i];
    if (e->mode.traced) {
        uint64_t target = jal_target(e, i);
        load_top(e, X_RDX);
        emit_trace_call_to(e, i, &target);
    }
    mov_address(e, X_RAX, next_pc(e, i));
    store_reg(e, X_RAX, in->rd);
    emit_cost_hook(e, in, in + in->imm);
    if (i + 1 == e->n) /* the last: out for the callee's entry */
        exit_to(e, in + in->imm, i + 1);
}

/*
 * A return (jalr through a link register) to the call the block made
 * earlier: the target must be that call's return address (else the block
 * leaves before it), then the tracer's return, the cost clock's transfer;
 * the caller's code comes next.
 */
static void emit_return(struct emit *e, size_t i)
{
    const struct insn *in = e->at[i];
    uint64_t back = e->pcs[i + 1];
    emit_jalr_address(e, in, X_RAX);
    mov_address(e, X_RCX, back);
    x86_op_reg(e->b, true, 0x3B, X_RAX, X_RCX);
    miss(e, CC_NE, i);
    if (e->mode.traced && e->unpushed_in[i]) { /* the slot above counts what ran in it */
        load_top(e, X_RDX);
        emit_clock(e, i);
        x86_op_mem(e->b, true, 0x01, X_RAX, X_RDX,
                   FRAME_UP((int32_t)offsetof(struct trace_frame, acc)));
    } else if (e->mode.traced) {
        load_top(e, X_RDX);
        emit_trace_return(e, i);
    }
    if (in->rd < REG_SINK) {
        mov_address(e, X_RAX, next_pc(e, i));
        store_reg(e, X_RAX, in->rd);
    }
    emit_cost_hook(e, in, e->at[i + 1]);
}

/*
 * rax = the target of the jalr at instruction i, (rs1 + imm) & ~1 (as
 * the interpreter's JALR_TARGET); one off its slot (4 bytes; on a hart
 * with C every even address is one) leaves before it, for the
 * interpreter's fault.
 */
static void emit_jalr_target(struct emit *e, size_t i)
{
    emit_jalr_address(e, e->at[i], X_RAX);
    if (e->cc->slot_shift == 1)
        return;
    x86_byte(e->b, 0xA8); /* test al, 3 */
    x86_byte(e->b, 3);
    miss(e, CC_NE, i);
}

/*
 * The target address in rax (kept) must lie in the code: else the block
 * leaves before instruction i, for the interpreter's fault. Clobbers rcx, rdx.
 */
static void emit_target_in_code(struct emit *e, size_t i)
{
    struct x86_buf *b = e->b;
    x86_mov_imm(b, X_RCX, e->cc->lo);
    x86_op_reg(b, true, 0x8B, X_RDX, X_RAX);
    x86_op_reg(b, true, 0x2B, X_RDX, X_RCX); /* rdx = rax - lo */
    x86_mov_imm(b, X_RCX, e->cc->span);
    x86_op_reg(b, true, 0x3B, X_RDX, X_RCX);
    miss(e, CC_AE, i);
}

/* rax = the code cache entry of the target address in rax, which lies in the code. Clobbers rcx. */
static void emit_entry_of(struct emit *e)
{
    struct x86_buf *b = e->b;
    x86_mov_imm(b, X_RCX, e->cc->lo);
    x86_op_reg(b, true, 0x2B, X_RAX, X_RCX);                    /* sub rax, rcx */
    x86_shift(b, true, 4, X_RAX, 4 - e->cc->slot_shift, false); /* a 16-byte entry per slot */
    x86_mov_imm(b, X_RCX, (uint64_t)(uintptr_t)e->cc->insns);
    x86_op_reg(b, true, 0x03, X_RAX, X_RCX);
}

/* The cost clock's hook of a taken transfer from entry `from` to the entry in rax (kept). */
static void emit_cost_hook_to_rax(struct emit *e, const struct insn *from)
{
    struct x86_buf *b = e->b;
    if (!e->mode.cost)
        return;
    load_cost_sum(e);
    _Static_assert(CODE_COST_OFFSET + sizeof(struct code_cost) <= INT32_MAX, "in a displacement");
    x86_op_mem(b, true, 0x8B, X_RDX, X_RAX,
               (int32_t)(CODE_COST_OFFSET + offsetof(struct code_cost, before)));
    x86_op_mem(b, true, 0x01, X_RDX, X_RCX, 0); /* add [rcx], rdx */
    x86_mov_imm(b, X_RDX, (uint64_t)(uintptr_t)from + CODE_COST_OFFSET);
    x86_op_mem(b, true, 0x8B, X_RDX, X_RDX, (int32_t)offsetof(struct code_cost, through));
    x86_op_mem(b, true, 0x29, X_RDX, X_RCX, 0); /* sub [rcx], rdx */
}

/*
 * The end of a jalr that leaves the block (its last instruction) for the
 * entry in rax: rd gets the return address (unless x0), the cost clock's
 * transfer, out. Clobbers rcx.
 */
static void emit_leave_for_rax(struct emit *e, size_t i)
{
    const struct insn *in = e->at[i];
    if (in->rd < REG_SINK) {
        mov_address(e, X_RCX, next_pc(e, i));
        store_reg(e, X_RCX, in->rd);
    }
    emit_cost_hook_to_rax(e, in);
    exit_to_rax(e, i + 1);
}

/*
 * A return that leaves the block (the last instruction), for the entry
 * its target lies at. Traced: only to the top frame's return address
 * (else it leaves before the return, for the interpreter's slow path),
 * whose entry the frame noted at its call (ret_at; one past the code's
 * end leaves first, for the interpreter's fault), after the tracer's
 * return (emit_trace_return).
 */
static void emit_return_out(struct emit *e, size_t i)
{
    struct x86_buf *b = e->b;
    emit_jalr_target(e, i);
    if (e->mode.traced) {
        load_top(e, X_RDX);
        x86_op_mem(b, true, 0x3B, X_RAX, X_RDX, (int32_t)offsetof(struct trace_frame, ret));
        miss(e, CC_NE, i);
        x86_mov_imm(b, X_RAX, (uint64_t)(uintptr_t)e->cc->end);
        x86_op_mem(b, true, 0x3B, X_RAX, X_RDX, (int32_t)offsetof(struct trace_frame, ret_at));
        miss(e, CC_E, i);
        emit_trace_return(e, i); /* rdx: the frame below */
        x86_op_mem(b, true, 0x8B, X_RAX, X_RDX,
                   FRAME_UP((int32_t)offsetof(struct trace_frame, ret_at)));
    } else {
        emit_target_in_code(e, i);
        emit_entry_of(e);
    }
    emit_leave_for_rax(e, i);
}

/*
 * A call through a register (the last instruction): the tracer's call
 * (emit_trace_call_to), the link, and out for the entry of its target (one
 * outside the code leaves before the call, for the interpreter's fault).
 */
static void emit_call_out(struct emit *e, size_t i)
{
    const struct insn *in = e->at[i];
    emit_jalr_target(e, i);
    emit_target_in_code(e, i);
    if (e->mode.traced) {
        load_top(e, X_RDX);
        emit_trace_call_to(e, i, NULL);
        emit_jalr_address(e, in, X_RAX); /* again: the call path took the registers */
    }
    emit_entry_of(e);
    emit_leave_for_rax(e, i);
}

/*
 * A jump through a register (the last instruction: a jump table's), out
 * for the entry of its target. Traced, only to a target inside the top
 * frame's function, where the tracer does nothing (in per-pc mode, in a
 * function that keeps no runs, whose hooks do nothing either); else it
 * leaves before the jump, for the interpreter's hooks (a tail call, a
 * run's end). A target outside the code leaves too, for its fault.
 */
static void emit_jump_out(struct emit *e, size_t i)
{
    const struct insn *in = e->at[i];
    if (e->mode.per_pc && !keeps_no_runs(e, in)) {
        exit_to(e, in, i); /* the loop runs the jump */
        return;
    }
    emit_jalr_target(e, i);
    emit_target_in_code(e, i);
    if (e->mode.traced) { /* trace_jump_fast, on a copy of the target */
        load_top(e, X_RDX);
        x86_op_reg(e->b, true, 0x8B, X_RCX, X_RAX); /* mov rcx, rax */
        compare_reg_with_frame(e, X_RDX, X_RCX, X_RDX);
        miss(e, CC_AE, i);
    }
    emit_entry_of(e);
    emit_leave_for_rax(e, i);
}

/* Instruction i of the block, at guest pc `pc`. */
static void emit_insn(struct emit *e, size_t i, uint64_t pc)
{
    switch (translate_base_op(e->at[i]->op)) {
    case OP_JAL: emit_jal(e, i); return;
    case OP_JAL_CALL: emit_call(e, i); return;
    case OP_JALR_RET:
        if (i + 1 < e->n)
            emit_return(e, i); /* to the call the block made, which comes next */
        else
            emit_return_out(e, i);
        return;
    case OP_JALR_CALL: emit_call_out(e, i); return;
    case OP_JALR: emit_jump_out(e, i); return;
    default: break;
    }
    const struct insn *in = e->at[i];
    bool w = e->w;
    switch (translate_base_op(in->op)) {
    case OP_LUI:
        x86_mov_imm(e->b, X_RAX, w ? (uint64_t)(int64_t)in->imm : (uint32_t)in->imm);
        store_reg(e, X_RAX, in->rd);
        break;
    case OP_AUIPC: {
        uint64_t v = pc + (uint64_t)(int64_t)in->imm;
        x86_mov_imm(e->b, X_RAX, w ? v : (uint32_t)v);
        store_reg(e, X_RAX, in->rd);
        break;
    }
    case OP_ADDI: emit_alu_imm(e, in, 0, -1); break;
    case OP_XORI: emit_alu_imm(e, in, 6, -1); break;
    case OP_ORI: emit_alu_imm(e, in, 1, -1); break;
    case OP_ANDI: emit_alu_imm(e, in, 4, -1); break;
    case OP_SLTI: emit_alu_imm(e, in, 7, CC_L); break;
    case OP_SLTIU: emit_alu_imm(e, in, 7, CC_B); break;
    case OP_SLLI: emit_shift(e, in, 4, false, false); break;
    case OP_SRLI: emit_shift(e, in, 5, false, false); break;
    case OP_SRAI: emit_shift(e, in, 7, false, false); break;
    case OP_ADD: emit_alu_reg(e, in, 0x03, -1, false); break;
    case OP_SUB: emit_alu_reg(e, in, 0x2B, -1, false); break;
    case OP_XOR: emit_alu_reg(e, in, 0x33, -1, false); break;
    case OP_OR: emit_alu_reg(e, in, 0x0B, -1, false); break;
    case OP_AND: emit_alu_reg(e, in, 0x23, -1, false); break;
    case OP_MUL: emit_alu_reg(e, in, X86_0F(0xAF), -1, false); break;
    case OP_SLT: emit_alu_reg(e, in, 0x3B, CC_L, false); break;
    case OP_SLTU: emit_alu_reg(e, in, 0x3B, CC_B, false); break;
    case OP_SLL: emit_shift(e, in, 4, true, false); break;
    case OP_SRL: emit_shift(e, in, 5, true, false); break;
    case OP_SRA: emit_shift(e, in, 7, true, false); break;
    case OP_MULH: emit_mulh(e, in, true, true); break;
    case OP_MULHSU: emit_mulh(e, in, true, false); break;
    case OP_MULHU: emit_mulh(e, in, false, false); break;
    case OP_DIV: emit_div(e, in, true, false, false); break;
    case OP_DIVU: emit_div(e, in, false, false, false); break;
    case OP_REM: emit_div(e, in, true, true, false); break;
    case OP_REMU: emit_div(e, in, false, true, false); break;
    case OP_ADDIW: emit_addiw(e, in); break;
    case OP_SLLIW: emit_shift(e, in, 4, false, true); break;
    case OP_SRLIW: emit_shift(e, in, 5, false, true); break;
    case OP_SRAIW: emit_shift(e, in, 7, false, true); break;
    case OP_ADDW: emit_alu_reg(e, in, 0x03, -1, true); break;
    case OP_SUBW: emit_alu_reg(e, in, 0x2B, -1, true); break;
    case OP_MULW: emit_alu_reg(e, in, X86_0F(0xAF), -1, true); break;
    case OP_SLLW: emit_shift(e, in, 4, true, true); break;
    case OP_SRLW: emit_shift(e, in, 5, true, true); break;
    case OP_SRAW: emit_shift(e, in, 7, true, true); break;
    case OP_DIVW: emit_div(e, in, true, false, true); break;
    case OP_DIVUW: emit_div(e, in, false, false, true); break;
    case OP_REMW: emit_div(e, in, true, true, true); break;
    case OP_REMUW: emit_div(e, in, false, true, true); break;
    case OP_LB: emit_load(e, i, 1, false, w, X86_0F(0xBE)); break;
    case OP_LH: emit_load(e, i, 2, false, w, X86_0F(0xBF)); break;
    case OP_LH_A: emit_load(e, i, 2, true, w, X86_0F(0xBF)); break;
    case OP_LW: emit_load(e, i, 4, false, w, w ? 0x63 : 0x8B); break;
    case OP_LW_A: emit_load(e, i, 4, true, w, w ? 0x63 : 0x8B); break;
    case OP_LBU: emit_load(e, i, 1, false, false, X86_0F(0xB6)); break;
    case OP_LHU: emit_load(e, i, 2, false, false, X86_0F(0xB7)); break;
    case OP_LHU_A: emit_load(e, i, 2, true, false, X86_0F(0xB7)); break;
    case OP_LWU: emit_load(e, i, 4, false, false, 0x8B); break;
    case OP_LWU_A: emit_load(e, i, 4, true, false, 0x8B); break;
    case OP_LD: emit_load(e, i, 8, false, true, 0x8B); break;
    case OP_LD_A: emit_load(e, i, 8, true, true, 0x8B); break;
    case OP_SB: emit_store(e, i, 1, false, 0x88); break;
    case OP_SH: emit_store(e, i, 2, false, X86_P66 | 0x89); break;
    case OP_SH_A: emit_store(e, i, 2, true, X86_P66 | 0x89); break;
    case OP_SW: emit_store(e, i, 4, false, 0x89); break;
    case OP_SW_A: emit_store(e, i, 4, true, 0x89); break;
    case OP_SD: emit_store(e, i, 8, false, 0x89); break;
    case OP_SD_A: emit_store(e, i, 8, true, 0x89); break;
    case OP_BEQ: emit_branch(e, i, CC_E); break;
    case OP_BNE: emit_branch(e, i, CC_NE); break;
    case OP_BLT: emit_branch(e, i, CC_L); break;
    case OP_BGE: emit_branch(e, i, CC_GE); break;
    case OP_BLTU: emit_branch(e, i, CC_B); break;
    case OP_BGEU: emit_branch(e, i, CC_AE); break;
    default: break; /* FENCE: nothing to do on one hart */
    }
}

/* The exits of the accesses that missed: one per instruction, shared by its tests. */
static void emit_miss_exits(struct emit *e)
{
    enum { NONE = UINT16_MAX };
    uint16_t first[TRANSLATE_BLOCK_MAX], next[TRANSLATE_BLOCK_MAX * 4]; /* each instruction's */
    _Static_assert(TRANSLATE_BLOCK_MAX * 4 < NONE, "miss indexes fit");
    memset(first, 0xFF, sizeof(first));
    for (size_t k = e->nmiss; k-- > 0;) {
        next[k] = first[e->miss_of[k]];
        first[e->miss_of[k]] = (uint16_t)k;
    }
    for (size_t i = 0; i < e->n; i++) {
        if (first[i] == NONE)
            continue;
        for (size_t k = first[i]; k != NONE; k = next[k])
            x86_patch(e->miss_at[k], e->b->p);
        emit_push_unpushed(e, i);
        exit_to(e, e->at[i], i);
        e->miss_exit_at[e->nmiss_exit++] = e->exit_at[--e->nexit]; /* the interpreter runs i */
    }
}

/* The register fields operation `op` reads (rs1, rs2) and writes (rd). */
enum { USES_RS1 = 1, USES_RS2 = 2, WRITES_RD = 4 };

static unsigned op_fields(unsigned op)
{
    switch (translate_base_op(op)) {
    case OP_FENCE: return 0;
    case OP_LUI:
    case OP_AUIPC:
    case OP_JAL:
    case OP_JAL_CALL: return WRITES_RD;
    case OP_JALR_RET:
    case OP_JALR_CALL:
    case OP_JALR: return USES_RS1 | WRITES_RD;
    case OP_SB:
    case OP_SH:
    case OP_SW:
    case OP_SD:
    case OP_SH_A:
    case OP_SW_A:
    case OP_SD_A: return USES_RS1 | USES_RS2;
    default:
        if (translate_op_ends_block(op))
            return USES_RS1 | USES_RS2;
        return USES_RS1 | USES_RS2 | WRITES_RD; /* rs2 over-counted for the I forms: harmless */
    }
}

/* How much more a use in a loop's body counts than one elsewhere (choose_kept). */
enum { LOOP_WEIGHT = 8 };

/*
 * The uses a guest register needs to earn the block's k-th host register:
 * two for a caller-saved one (its load on entry, its store on the way
 * out); a callee-saved one costs a push and a pop besides, which a block
 * that loops pays once for many passes, and one that does not pays for
 * every few instructions (coremark's traced run: 1.05x slower with them
 * at two).
 */
static unsigned keep_threshold(const struct emit *e, unsigned k)
{
    return k < e->caller_saved || e->loop_branch >= 0 ? 2 : 4;
}

/*
 * r10, which holds the hooks, may keep a guest register in a plain block
 * that loops (the hooks then wait in a slot for the way out), when the
 * loop's body uses it twice or more; else it leaves the hosts to the rest.
 */
static bool drop_r10(struct emit *e, unsigned best_uses)
{
    if (e->hosts[e->nkept] != X_R10 || best_uses >= 2 * LOOP_WEIGHT)
        return false;
    memmove(&e->hosts[e->nkept], &e->hosts[e->nkept + 1], e->nhosts - e->nkept - 1);
    e->nhosts--;
    e->caller_saved--;
    return true;
}

/*
 * Chooses the guest registers to keep in host registers: those the block
 * uses most, up to the hosts it has (keep_threshold: a single use saves
 * nothing over the load and store it costs). A block that does not loop
 * counts the part every call runs (up to its first branch); one that
 * loops counts all of it, a use in the loop's body (up to the loop branch)
 * LOOP_WEIGHT times: matmul's inner loop shares its block with the outer
 * loops' steps, whose registers otherwise took the hosts.
 */
static void choose_kept(struct emit *e)
{
    unsigned uses[REG_SINK] = {0};
    bool sure = true; /* before the first branch: every call runs it */
    for (size_t i = 0; i < e->n; i++) {
        const struct insn *in = e->at[i];
        unsigned f = op_fields(in->op);
        if ((f & WRITES_RD) && in->rd < REG_SINK)
            e->written[in->rd] = true;
        if (!sure && e->loop_branch < 0)
            continue;
        unsigned w = (ptrdiff_t)i <= e->loop_branch ? LOOP_WEIGHT : 1;
        if ((f & USES_RS1) && in->rs1 < REG_SINK)
            uses[in->rs1] += w;
        if ((f & USES_RS2) && in->rs2 < REG_SINK)
            uses[in->rs2] += w;
        if ((f & WRITES_RD) && in->rd < REG_SINK)
            uses[in->rd] += w;
        if (translate_op_ends_block(in->op))
            sure = false;
    }
    uses[0] = 0; /* x0 reads as 0 from the file */
    memset(e->host_of, -1, sizeof(e->host_of));
    while (e->nkept < e->nhosts) {
        unsigned best = 0;
        for (unsigned r = 1; r < REG_SINK; r++)
            if (uses[r] > uses[best])
                best = r;
        if (drop_r10(e, uses[best]))
            continue;
        if (uses[best] < keep_threshold(e, e->nkept))
            break;
        e->host_of[best] = (int8_t)e->hosts[e->nkept];
        e->kept[e->nkept++] = (uint8_t)best;
        uses[best] = 0;
    }
}

/* Whether the block runs passes: a taken branch or jal back to its start or ahead inside it. */
static bool runs_passes(const struct emit *e)
{
    for (size_t i = 0; i < e->n; i++)
        if (translate_loops_back(e->at[i], e->at[0]) || jumps_ahead(e, i))
            return true;
    return false;
}

/*
 * The host registers left to keep guest registers in: all but r9 when r9
 * holds the budget, in a block that runs passes (it counts it down) or
 * reads the tracer's clock at its calls and returns (`calls`); r10 only
 * in a plain block that loops (drop_r10).
 */
static void plan_hosts(struct emit *e, bool calls)
{
    bool passes = runs_passes(e) || (e->mode.traced && calls);
    /* a loop's passes may take r10 for a register, the hooks going to a slot */
    bool plain = e->loop_branch >= 0;
    e->r9_counts = passes;
    for (size_t k = 0; k < KEEP_MAX; k++)
        if ((!passes || keep_hosts[k] != X_R9) && (plain || keep_hosts[k] != X_R10)) {
            e->caller_saved += k < KEEP_CALLER_SAVED;
            e->hosts[e->nhosts++] = keep_hosts[k];
        }
}

/*
 * Saves the callee-saved host registers the block keeps guest registers
 * in, takes the hooks (r8) into r10 or their slot, builds the frame from
 * the budget (rcx; r9 counts it down), and loads the kept guest registers.
 */
/*
 * The frame's slots (struct frame), pushed in this order (each offset
 * counts from the last), once the kept registers are chosen: the hooks
 * get one when r10 keeps a guest register.
 */
static void place_slots(struct emit *e)
{
    struct frame *f = &e->frame;
    int32_t *order[] = {&f->budget, &f->hooks, &f->scratch, &f->loop_count};
    bool loops = e->loop_branch >= 0 && counts_runs(e, (size_t)e->loop_branch);
    bool r10_kept = false;
    for (unsigned k = 0; k < e->nkept; k++)
        r10_kept |= e->hosts[k] == X_R10;
    bool has[] = {true, r10_kept, loops, loops};
    int32_t n = 0;
    for (size_t k = 0; k < 4; k++)
        n += has[k];
    f->size = 8 * n;
    for (size_t k = 0; k < 4; k++)
        *order[k] = has[k] ? 8 * --n : -1;
}

static void emit_prologue(struct emit *e)
{
    struct x86_buf *b = e->b;
    for (unsigned k = e->caller_saved; k < e->nkept; k++)
        x86_push(b, e->hosts[k]);
    if (e->frame.hooks < 0)
        x86_op_reg(b, true, 0x8B, X_R10, X_R8); /* mov r10, r8: the hooks */
    x86_push(b, X_RCX);
    if (e->frame.hooks >= 0)
        x86_push(b, X_R8); /* the hooks, in their slot (after the budget's) */
    if (e->r9_counts)
        x86_op_reg(b, true, 0x8B, X_R9, X_RCX); /* mov r9, rcx: the budget left */
    for (int32_t k = 1 + (e->frame.hooks >= 0); 8 * k < e->frame.size; k++) {
        x86_byte(b, 0x6A); /* push 0: scratch, loop count */
        x86_byte(b, 0);
    }
    for (unsigned k = 0; k < e->nkept; k++)
        x86_op_mem(b, e->w, 0x8B, e->hosts[k], X_RDI, (int32_t)(e->kept[k] * e->sz));
}

/* The way out: the kept registers the block writes go back to the file, the stack as it came. */
static void emit_epilogue(struct emit *e)
{
    for (unsigned k = 0; k < e->nkept; k++)
        if (e->written[e->kept[k]])
            x86_op_mem(e->b, e->w, 0x89, e->hosts[k], X_RDI, (int32_t)(e->kept[k] * e->sz));
    emit_passes_out(e);
    if (e->frame.hooks >= 0) /* r10 = the hooks again, for the way out */
        x86_op_mem(e->b, true, 0x8B, X_R10, X_RSP, e->frame.hooks);
    x86_alu_imm(e->b, true, 0, X_RSP, e->frame.size);
    for (unsigned k = e->nkept; k-- > e->caller_saved;)
        x86_pop(e->b, e->hosts[k]);
}

/*
 * The exits that go on: when a block starts at their entry (rax) and the
 * budget left after this one (rcx) holds it, as the loop's `translated`
 * handler would find, this block's count (rdx) goes to hooks->chained and
 * the next block runs in its place, a tail call with the same arguments
 * and the budget left: the loop sees one block that retired them all.
 * Otherwise back to the loop.
 */
static void emit_chain(struct emit *e)
{
    struct x86_buf *b = e->b;
    for (size_t k = 0; k < e->nexit; k++)
        x86_patch(e->exit_at[k], b->p);
    x86_op_mem(b, true, 0x8B, X_RCX, X_RSP, e->frame.budget);
    x86_op_reg(b, true, 0x2B, X_RCX, X_RDX); /* sub rcx, rdx */
    emit_epilogue(e);
    x86_mov_imm(b, X_R11, (uint64_t)e->slot_delta);
    x86_op_reg(b, true, 0x03, X_R11, X_RAX); /* add r11, rax: the slot */
    x86_op_mem(b, true, 0x8B, X_R9, X_R11, (int32_t)offsetof(struct translate_slot, n));
    x86_alu_imm(b, true, 5, X_R9, 1);       /* n - 1: none translated is the largest */
    x86_op_reg(b, true, 0x3B, X_R9, X_RCX); /* cmp r9, rcx */
    uint8_t *no_block = x86_jcc(b, CC_AE);
    x86_op_mem(b, true, 0x01, X_RDX, X_R10, (int32_t)offsetof(struct translate_hooks, chained));
    x86_op_reg(b, true, 0x8B, X_R8, X_R10);
    x86_op_mem(b, true, 0x8D, X_RDX, X_RSI, -(int32_t)GUEST_RIGHTS_OFFSET); /* the rights */
    x86_op_mem(b, false, 0xFF, 4, X_R11, (int32_t)offsetof(struct translate_slot, fn)); /* jmp */
    x86_patch(no_block, b->p);
    x86_byte(b, 0xC3);
}

/* The exits before a miss: back to the loop, which runs that instruction. */
static void emit_miss_return(struct emit *e)
{
    for (size_t k = 0; k < e->nmiss_exit; k++)
        x86_patch(e->miss_exit_at[k], e->b->p);
    emit_epilogue(e);
    x86_byte(e->b, 0xC3);
}

bool translate_emit(struct x86_buf *b, const struct insn *const *at, const uint64_t *pcs, size_t n,
                    int xlen, struct translate_mode mode, const struct code_cache *cc,
                    intptr_t slot_delta, struct trace_link *sites)
{
    struct emit e = {.b = b,
                     .sites = sites,
                     .cc = cc,
                     .w = xlen == 64,
                     .mode = mode,
                     .slot_delta = slot_delta,
                     .sz = (unsigned)xlen / 8,
                     .at = at,
                     .pcs = pcs,
                     .n = n};
    /*
     * Calls and returns move the top frame and read the tracer's clock.
     * The loop branch's run count is found at entry, in the entry's frame:
     * so only when the calls before it have all returned.
     */
    bool calls = false;
    for (size_t i = 0; i < n; i++)
        calls |= (translate_op_leaves(at[i]->op) && !translate_op_is_jal(at[i]->op)) ||
                 translate_op_jumps_out(at[i]->op);
    e.loop_branch = translate_loop_branch(at, n);
    if (e.loop_branch >= 0 && translate_calls_open(at, (size_t)e.loop_branch) != 0)
        e.loop_branch = -1;
    derive_passes(&e);
    plan_unpushed(&e);
    plan_hosts(&e, calls);
    choose_kept(&e);
    place_slots(&e);
    emit_prologue(&e);
    emit_loop_counter(&e);
    e.start = b->p;
    for (size_t i = 0; i < n; i++) {
        e.code_of[i] = b->p;
        emit_insn(&e, i, pcs[i]);
    }
    const struct insn *last = at[n - 1]; /* (n > 0) */
    if (!translate_op_ends_block(last->op) && !translate_op_leaves(last->op) &&
        !translate_op_jumps_out(last->op))
        exit_to(&e, next_entry(&e, n - 1), n);
    for (size_t k = 0; k < e.ntaken; k++)
        emit_taken_path(&e, k);
    emit_inside_tests(&e);
    emit_linked_calls(&e);
    emit_miss_exits(&e);
    emit_chain(&e);
    if (e.nmiss_exit)
        emit_miss_return(&e);
    return !b->full;
}
