/*
 * abi_util: helpers the ABIs share (see abi_util.h).
 */
#include "executor/abi/abi_util.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "executor/precompile/keccak.h"

int abi_check_clear_of(const struct elf_image *img, uint64_t start, uint64_t end, const char *what,
                       const char *hint, struct error *e)
{
    for (size_t i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->segments[i];
        if (s->vaddr < end && s->vaddr + s->memsz > start) {
            error_fail(e, ERROR_UNSUPPORTED,
                       "segment [0x%llx, 0x%llx) overlaps %s [0x%llx, 0x%llx)%s",
                       (unsigned long long)s->vaddr, (unsigned long long)(s->vaddr + s->memsz),
                       what, (unsigned long long)start, (unsigned long long)end, hint);
            return -1;
        }
    }
    return 0;
}

int abi_check_inside(const struct elf_image *img, uint64_t start, uint64_t end, const char *what,
                     struct error *e)
{
    for (size_t i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->segments[i];
        if (s->vaddr < start || s->vaddr + s->memsz > end) {
            error_fail(e, ERROR_UNSUPPORTED,
                       "segment [0x%llx, 0x%llx) lies outside %s [0x%llx, 0x%llx)",
                       (unsigned long long)s->vaddr, (unsigned long long)(s->vaddr + s->memsz),
                       what, (unsigned long long)start, (unsigned long long)end);
            return -1;
        }
    }
    return 0;
}

bool abi_load(const struct machine *m, uint64_t addr, void *dst, uint64_t len)
{
    if (!mem_range_has(&m->mem, addr, len, PAGE_R))
        return false;
    if (len)
        memcpy(dst, mem_host(&m->mem, addr), len);
    return true;
}

/* Makes [addr, addr+len) ready for the host to write: false when a byte is not writable. */
static bool prepare_write(struct machine *m, uint64_t addr, uint64_t len)
{
    return mem_range_has(&m->mem, addr, len, PAGE_W) && mem_snapshot_note(&m->mem, addr, len);
}

bool abi_store(struct machine *m, uint64_t addr, const void *src, uint64_t len)
{
    if (!prepare_write(m, addr, len))
        return false;
    if (len) {
        memcpy(mem_host(&m->mem, addr), src, len);
        code_cache_invalidate(&m->code, addr, len);
    }
    return true;
}

bool abi_move(struct machine *m, uint64_t dst, uint64_t src, uint64_t len)
{
    if (!mem_range_has(&m->mem, src, len, PAGE_R) || !prepare_write(m, dst, len))
        return false;
    if (len) {
        memmove(mem_host(&m->mem, dst), mem_host(&m->mem, src), len);
        code_cache_invalidate(&m->code, dst, len);
    }
    return true;
}

bool abi_fill(struct machine *m, uint64_t dst, uint8_t byte, uint64_t len)
{
    if (!prepare_write(m, dst, len))
        return false;
    if (len) {
        memset(mem_host(&m->mem, dst), byte, len);
        code_cache_invalidate(&m->code, dst, len);
    }
    return true;
}

const uint8_t *abi_view(const struct machine *m, uint64_t addr, uint64_t len)
{
    return mem_range_has(&m->mem, addr, len, PAGE_R) ? mem_host(&m->mem, addr) : NULL;
}

bool abi_load_words(const struct machine *m, uint64_t addr, uint32_t *w, size_t n)
{
    return abi_load(m, addr, w, 4 * n); /* the host is little-endian, like the guest */
}

bool abi_store_words(struct machine *m, uint64_t addr, const uint32_t *w, size_t n)
{
    return abi_store(m, addr, w, 4 * n);
}

bool abi_write_fd(int host_fd, const void *buf, size_t len)
{
    const uint8_t *p = buf;
    while (host_fd >= 0 && len > 0) {
        ssize_t n = write(host_fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        len -= (size_t)n;
    }
    return true;
}

enum ecall_result abi_fault(struct machine *m, enum fault_kind kind, const char *call,
                            uint64_t addr, const char *why)
{
    m->fault = (struct fault){.kind = kind, .pc = m->pc, .addr = addr, .call = call, .why = why};
    return ECALL_FAULT;
}

enum ecall_result abi_keccakf_in_place(struct machine *m, const char *call, uint64_t at)
{
    uint64_t lanes[25];
    if (!abi_load(m, at, lanes, sizeof(lanes)))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, at, "the state is not in memory");
    keccak_f1600(lanes);
    if (!abi_store(m, at, lanes, sizeof(lanes)))
        return abi_fault(m, FAULT_ECALL_ARGUMENT, call, at, "the state is not writable");
    return ECALL_CONTINUE;
}

void abi_each_symbol(const struct elf_image *img,
                     void (*fn)(void *ctx, Elf *elf, const GElf_Sym *sym, const char *name),
                     void *ctx)
{
    Elf *elf = elf_memory((char *)img->file, img->file_size);
    if (!elf)
        return;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        if (!data)
            continue;
        size_t n = data->d_size / sh.sh_entsize;
        for (size_t i = 0; i < n; i++) {
            GElf_Sym sym;
            const char *s;
            if (gelf_getsym(data, (int)i, &sym) && GELF_ST_TYPE(sym.st_info) != STT_FILE &&
                (s = elf_strptr(elf, sh.sh_link, sym.st_name)))
                fn(ctx, elf, &sym, s);
        }
    }
    elf_end(elf);
}

void abi_free_state(struct machine *m)
{
    free(m->abi_state);
    m->abi_state = NULL;
}

void *abi_alloc_state(struct machine *m, size_t size, struct error *e)
{
    m->abi_state = calloc(1, size);
    if (!m->abi_state)
        error_fail(e, ERROR_NO_MEMORY, "out of memory");
    return m->abi_state;
}

void abi_map_flat(struct machine *m, const struct elf_image *img, uint64_t lo, uint64_t hi)
{
    abi_map_flat_with_device(m, img, lo, hi, 0);
}

void abi_map_flat_with_device(struct machine *m, const struct elf_image *img, uint64_t lo,
                              uint64_t hi, uint64_t device)
{
    uint64_t page = guest_page_floor(device);
    mem_fix_code(&m->mem);
    if (device >= lo && device < hi) { /* read-only, so that its stores reach abi->mmio_store */
        mem_grant(&m->mem, lo, page - lo, PAGE_R | PAGE_W);
        mem_grant(&m->mem, page, GUEST_PAGE_SIZE, PAGE_R);
        mem_grant(&m->mem, page + GUEST_PAGE_SIZE, hi - page - GUEST_PAGE_SIZE, PAGE_R | PAGE_W);
    } else {
        mem_grant(&m->mem, lo, hi - lo, PAGE_R | PAGE_W);
    }
    machine_map_segments(m, img, 0);
    code_cache_predecode(&m->code, img, m->xlen);
}

bool abi_buffer_put(struct abi_buffer *b, uint64_t at, const void *src, size_t n, size_t max)
{
    if (at > max || n > max - at)
        return false;
    if (at + n > b->size) {
        uint8_t *grown = realloc(b->data, at + n);
        if (!grown)
            return false;
        memset(grown + b->size, 0, at + n - b->size);
        b->data = grown;
        b->size = at + n;
    }
    memcpy(b->data + at, src, n);
    return true;
}

/* True when the executable segments hold some nonzero byte. */
static bool segments_hold_code(const struct elf_image *img)
{
    for (size_t i = 0; i < img->nsegments; i++) {
        const struct elf_segment *s = &img->segments[i];
        for (uint64_t k = 0; (s->rights & SEG_X) && k < s->filesz; k++)
            if (s->data[k])
                return true;
    }
    return false;
}

bool abi_elf_without_code(const struct elf_image *img)
{
    if (img->raw)
        return false;
    Elf *elf = elf_memory((char *)img->file, img->file_size);
    size_t nsections = 0, code = 0;
    for (Elf_Scn *scn = elf ? elf_nextscn(elf, NULL) : NULL; scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh))
            continue;
        nsections++;
        code += (sh.sh_flags & SHF_EXECINSTR) && sh.sh_type == SHT_PROGBITS && sh.sh_size;
    }
    if (elf)
        elf_end(elf);
    return nsections ? code == 0 : !segments_hold_code(img);
}
