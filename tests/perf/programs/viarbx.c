/*
 * viarbx: a function whose CFA is kept in rbx, as glibc's
 * _dl_runtime_resolve keeps it, for test_perf_dwarf.py's BadStacks: the
 * frame under it (leaf) says nothing about rbx, so the caller's rbx is the
 * sampled one (libunwind's rule; libdw 0.188 drops it there).
 */
__attribute__((noinline)) int leaf(int x)
{
    return x * 3 + 1;
}

__asm__(".text\n.globl viarbx\n.type viarbx,@function\nviarbx:\n.cfi_startproc\n"
        "push %rbx\n.cfi_def_cfa_offset 16\n.cfi_offset rbx, -16\n"
        "mov %rsp, %rbx\n.cfi_def_cfa_register rbx\n"
        "and $-64, %rsp\ncall leaf\nmov %rbx, %rsp\n.cfi_def_cfa_register rsp\n"
        "pop %rbx\n.cfi_def_cfa_offset 8\nret\n.cfi_endproc\n.size viarbx, .-viarbx\n");
int viarbx(int x);

__attribute__((noinline)) int outer(int x)
{
    return viarbx(x) + 1;
}

int main(int argc, char **argv)
{
    (void)argv;
    return outer(argc) == 4 ? 0 : 1;
}
