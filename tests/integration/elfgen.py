"""elfgen: write tiny RISC-V ELF executables from scratch, byte by byte.

The integration tests use it to build exactly the (valid or broken) ELF
files they need, without the cross assembler:

    from elfgen import *
    text = assemble(exit_with(7))
    elf = build_elf([Segment(0x10000, text)], entry=0x10000, xlen=32)

A file is laid out as: ELF header, program headers, the data of each
segment (at an offset congruent to its vaddr modulo its alignment, as the
Linux loader wants), then, only when symbols are given, the symbol table,
its string tables and the section headers. Every header field can be forced
to a wrong value through the keyword arguments, so a test can build one
precise defect at a time.

Instruction helpers (`addi`, `lui`, `jal`, `beq`, ...) return 32-bit
instruction words; `assemble` turns a list of them (plus `label("x")`
markers, and branches/jumps to label names) into little-endian bytes.

Run `python3 elfgen.py OUT.elf [32|64]` to write a guest that exits with 7.
"""

import os
import struct
import sys
from dataclasses import dataclass
from typing import Optional

# --- ELF constants -------------------------------------------------------

ELFCLASS32, ELFCLASS64 = 1, 2
ELFDATA2LSB, ELFDATA2MSB = 1, 2
ET_REL, ET_EXEC, ET_DYN = 1, 2, 3
EM_X86_64, EM_RISCV = 62, 243
EF_RISCV_RVC = 0x1

PT_LOAD, PT_NOTE, PT_GNU_STACK = 1, 4, 0x6474E551
PF_X, PF_W, PF_R = 1, 2, 4
PF_RX, PF_RW, PF_RWX = PF_R | PF_X, PF_R | PF_W, PF_R | PF_W | PF_X

SHT_PROGBITS, SHT_SYMTAB, SHT_STRTAB, SHT_NOBITS = 1, 2, 3, 8
SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR = 1, 2, 4
SHN_ABS = 0xFFF1
STB_LOCAL, STB_GLOBAL, STB_WEAK = 0, 1, 2
STT_NOTYPE, STT_FUNC = 0, 2

PAGE = 0x1000


@dataclass
class Segment:
    """A program header and its bytes. filesz/memsz/offset default to what
    the data implies; set them to lie about it."""
    vaddr: int
    data: bytes = b""
    flags: int = PF_RX
    memsz: Optional[int] = None
    filesz: Optional[int] = None
    offset: Optional[int] = None
    type: int = PT_LOAD
    align: int = PAGE


@dataclass
class Symbol:
    name: str
    value: int
    size: int = 0
    type: int = STT_FUNC
    bind: int = STB_GLOBAL


def _layout(fmt_prefix, xlen):
    """struct formats of the ELF header, program header, section header and
    symbol for one class and byte order."""
    p = fmt_prefix
    if xlen == 32:
        return dict(ehdr=p + "16sHHIIIIIHHHHHH", phdr=p + "IIIIIIII",
                    shdr=p + "IIIIIIIIII", sym=p + "IIIBBH")
    return dict(ehdr=p + "16sHHIQQQIHHHHHH", phdr=p + "IIQQQQQQ",
                shdr=p + "IIQQQQIIQQ", sym=p + "IBBHQQ")


def _align_to(pos, vaddr, align):
    """Smallest offset >= pos that is congruent to vaddr modulo align."""
    align = max(align, 1)
    off = pos - pos % align + vaddr % align
    return off if off >= pos else off + align


def build_elf(segments, entry, xlen=32, *, machine=EM_RISCV, etype=ET_EXEC,
              big_endian=False, flags=0, elf_class=None, symbols=(),
              phoff=None, phnum=None, phentsize=None, ehsize=None):
    """Return the bytes of an ELF executable.

    xlen picks the layout (ELF32 or ELF64); elf_class overrides only the
    e_ident class byte. phoff/phnum/phentsize/ehsize override the header
    fields (the program headers are still written after the ELF header)."""
    fmt = _layout(">" if big_endian else "<", xlen)
    ehdr_size = struct.calcsize(fmt["ehdr"])
    phdr_size = struct.calcsize(fmt["phdr"])
    out = bytearray(ehdr_size + phdr_size * len(segments))

    def put(off, blob):
        if len(out) < off + len(blob):
            out.extend(bytes(off + len(blob) - len(out)))
        out[off:off + len(blob)] = blob

    # Segment data, then the program headers that describe it.
    placed = []
    for seg in segments:
        off = seg.offset
        if off is None:
            off = _align_to(len(out), seg.vaddr, seg.align) if seg.data else 0
        if seg.data:
            put(off, seg.data)
        filesz = len(seg.data) if seg.filesz is None else seg.filesz
        memsz = filesz if seg.memsz is None else seg.memsz
        placed.append((seg, off, filesz, memsz))
    for i, (seg, off, filesz, memsz) in enumerate(placed):
        if xlen == 32:
            ph = struct.pack(fmt["phdr"], seg.type, off, seg.vaddr, seg.vaddr,
                             filesz, memsz, seg.flags, seg.align)
        else:
            ph = struct.pack(fmt["phdr"], seg.type, seg.flags, off, seg.vaddr,
                             seg.vaddr, filesz, memsz, seg.align)
        put(ehdr_size + i * phdr_size, ph)

    shoff, shnum, shstrndx = 0, 0, 0
    if symbols:
        shoff, shnum, shstrndx = _put_sections(out, put, fmt, xlen, placed,
                                               symbols)

    ident = bytes([0x7F, ord("E"), ord("L"), ord("F"),
                   (ELFCLASS32 if xlen == 32 else ELFCLASS64) if elf_class is None
                   else elf_class,
                   ELFDATA2MSB if big_endian else ELFDATA2LSB,
                   1]) + bytes(9)  # EI_VERSION 1, OSABI SYSV, padding
    put(0, struct.pack(
        fmt["ehdr"], ident, etype, machine, 1, entry,
        ehdr_size if phoff is None else phoff, shoff, flags,
        ehdr_size if ehsize is None else ehsize,
        phdr_size if phentsize is None else phentsize,
        len(segments) if phnum is None else phnum,
        struct.calcsize(fmt["shdr"]) if symbols else 0, shnum, shstrndx))
    return bytes(out)


def _strtab(names):
    """A string table holding names; returns (bytes, {name: offset})."""
    blob, where = bytearray(b"\0"), {}
    for n in names:
        where[n] = len(blob)
        blob += n.encode() + b"\0"
    return bytes(blob), where


def _put_sections(out, put, fmt, xlen, placed, symbols):
    """Append one section per PT_LOAD segment, .symtab, .strtab, .shstrtab
    and the section header table. Returns (shoff, shnum, shstrndx)."""
    loads = [(s, off, fsz, msz) for s, off, fsz, msz in placed
             if s.type == PT_LOAD]
    sec_names = [f".seg{i}" for i in range(len(loads))]
    sec_names += [".symtab", ".strtab", ".shstrtab"]
    shstr, shname = _strtab(sec_names)
    symstr, symname = _strtab(sorted({s.name for s in symbols}))

    def section_of(addr):
        for i, (s, _, _, msz) in enumerate(loads):
            if s.vaddr <= addr < s.vaddr + max(msz, 1):
                return i + 1
        return SHN_ABS

    # Locals must come before globals in .symtab.
    ordered = sorted(symbols, key=lambda s: s.bind != STB_LOCAL)
    syms = [struct.pack(fmt["sym"], *([0] * 6))]
    for s in ordered:
        info = (s.bind << 4) | s.type
        shndx = section_of(s.value)
        if xlen == 32:
            syms.append(struct.pack(fmt["sym"], symname[s.name], s.value,
                                    s.size, info, 0, shndx))
        else:
            syms.append(struct.pack(fmt["sym"], symname[s.name], info, 0,
                                    shndx, s.value, s.size))
    first_global = 1 + sum(s.bind == STB_LOCAL for s in ordered)
    word = xlen // 8

    def append(blob, align):
        off = -(-len(out) // align) * align
        put(off, blob)
        return off

    symtab_off = append(b"".join(syms), word)
    strtab_off = append(symstr, 1)
    shstr_off = append(shstr, 1)

    n_loads = len(loads)
    # (name, type, flags, addr, offset, size, link, info, align, entsize)
    headers = [("", 0, 0, 0, 0, 0, 0, 0, 0, 0)]
    for i, (s, off, fsz, msz) in enumerate(loads):
        fl = SHF_ALLOC | (SHF_EXECINSTR if s.flags & PF_X else 0) \
            | (SHF_WRITE if s.flags & PF_W else 0)
        headers.append((sec_names[i], SHT_PROGBITS if fsz else SHT_NOBITS, fl,
                        s.vaddr, off, fsz or msz, 0, 0, 4, 0))
    headers.append((".symtab", SHT_SYMTAB, 0, 0, symtab_off,
                    len(syms) * len(syms[0]), n_loads + 2, first_global,
                    word, len(syms[0])))
    headers.append((".strtab", SHT_STRTAB, 0, 0, strtab_off, len(symstr),
                    0, 0, 1, 0))
    headers.append((".shstrtab", SHT_STRTAB, 0, 0, shstr_off, len(shstr),
                    0, 0, 1, 0))
    table = b"".join(struct.pack(fmt["shdr"], shname.get(h[0], 0), *h[1:])
                     for h in headers)
    return append(table, word), len(headers), len(headers) - 1


# --- Instructions --------------------------------------------------------

ZERO, RA, SP, GP, TP, T0, T1, T2, S0, S1 = range(10)
A0, A1, A2, A3, A4, A5, A6, A7 = range(10, 18)

SYS_READ, SYS_WRITE, SYS_EXIT, SYS_EXIT_GROUP, SYS_BRK = 63, 64, 93, 94, 214


def _check(value, bits, signed=True):
    lo, hi = (-(1 << (bits - 1)), 1 << (bits - 1)) if signed else (0, 1 << bits)
    if not lo <= value < hi:
        raise ValueError(f"immediate {value} does not fit in {bits} bits")
    return value & ((1 << bits) - 1)


def r_type(opcode, funct3, funct7, rd, rs1, rs2):
    return (funct7 << 25) | (rs2 << 20) | (rs1 << 15) | (funct3 << 12) \
        | (rd << 7) | opcode


def i_type(opcode, funct3, rd, rs1, imm):
    return (_check(imm, 12) << 20) | (rs1 << 15) | (funct3 << 12) \
        | (rd << 7) | opcode


def s_type(opcode, funct3, rs1, rs2, imm):
    imm = _check(imm, 12)
    return ((imm >> 5) << 25) | (rs2 << 20) | (rs1 << 15) | (funct3 << 12) \
        | ((imm & 0x1F) << 7) | opcode


def b_type(funct3, rs1, rs2, offset):
    if offset % 2:
        raise ValueError("branch offset must be even")
    imm = _check(offset, 13)
    return (((imm >> 12) & 1) << 31) | (((imm >> 5) & 0x3F) << 25) \
        | (rs2 << 20) | (rs1 << 15) | (funct3 << 12) \
        | (((imm >> 1) & 0xF) << 8) | (((imm >> 11) & 1) << 7) | 0x63


def u_type(opcode, rd, imm20):
    return (_check(imm20, 20, signed=False) << 12) | (rd << 7) | opcode


def j_type(rd, offset):
    if offset % 2:
        raise ValueError("jump offset must be even")
    imm = _check(offset, 21)
    return (((imm >> 20) & 1) << 31) | (((imm >> 1) & 0x3FF) << 21) \
        | (((imm >> 11) & 1) << 20) | (((imm >> 12) & 0xFF) << 12) \
        | (rd << 7) | 0x6F


def addi(rd, rs1, imm): return i_type(0x13, 0, rd, rs1, imm)
def andi(rd, rs1, imm): return i_type(0x13, 7, rd, rs1, imm)
def add(rd, rs1, rs2): return r_type(0x33, 0, 0, rd, rs1, rs2)
def sub(rd, rs1, rs2): return r_type(0x33, 0, 0x20, rd, rs1, rs2)
def or_(rd, rs1, rs2): return r_type(0x33, 6, 0, rd, rs1, rs2)
def lui(rd, imm20): return u_type(0x37, rd, imm20)
def auipc(rd, imm20): return u_type(0x17, rd, imm20)
def lw(rd, rs1, imm): return i_type(0x03, 2, rd, rs1, imm)
def ld(rd, rs1, imm): return i_type(0x03, 3, rd, rs1, imm)
def sw(rs2, rs1, imm): return s_type(0x23, 2, rs1, rs2, imm)
def sd(rs2, rs1, imm): return s_type(0x23, 3, rs1, rs2, imm)
def jalr(rd, rs1, imm=0): return i_type(0x67, 0, rd, rs1, imm)
def mv(rd, rs): return addi(rd, rs, 0)
def nop(): return addi(ZERO, ZERO, 0)


ECALL = 0x00000073
EBREAK = 0x00100073


def ecall(): return ECALL
def ebreak(): return EBREAK


def li(rd, value):
    """Load a value in [-2**31, 2**31) (lui+addi, or one addi when small).
    On RV64 the result is sign-extended from 32 bits, like the `li` of gas."""
    if -2048 <= value < 2048:
        return [addi(rd, ZERO, value)]
    value &= 0xFFFFFFFF
    lo = value & 0xFFF
    lo = lo - 0x1000 if lo >= 0x800 else lo
    hi = ((value - lo) >> 12) & 0xFFFFF
    return [lui(rd, hi)] + ([addi(rd, rd, lo)] if lo else [])


def syscall(number, *args):
    """li a0.., args; li a7, number; ecall."""
    words = []
    for reg, value in zip((A0, A1, A2, A3, A4, A5), args):
        words += li(reg, value)
    return words + li(A7, number) + [ECALL]


def exit_with(code):
    """Exit the guest with `code` (Linux exit, a7 = 93)."""
    return syscall(SYS_EXIT, code)


# --- Labels and assembly -------------------------------------------------

@dataclass
class label:
    """Marks the address of the next instruction: assemble(label("loop"), ...)."""
    name: str


@dataclass
class _Fixup:
    """An instruction whose encoding needs the address of a label."""
    encode: object  # (offset) -> word
    target: str


def _branch(funct3):
    def make(rs1, rs2, target):
        if isinstance(target, str):
            return _Fixup(lambda off: b_type(funct3, rs1, rs2, off), target)
        return b_type(funct3, rs1, rs2, target)
    return make


beq, bne, blt, bge = _branch(0), _branch(1), _branch(4), _branch(5)
bltu, bgeu = _branch(6), _branch(7)


def jal(rd, target):
    """jal rd, target (a byte offset, or a label name)."""
    if isinstance(target, str):
        return _Fixup(lambda off: j_type(rd, off), target)
    return j_type(rd, target)


def j(target): return jal(ZERO, target)


def _flatten(items):
    for item in items:
        if isinstance(item, (list, tuple)):
            yield from _flatten(item)
        else:
            yield item


def label_addresses(*items, base=0):
    """{label name: address} for the instructions in items placed at base."""
    labels, pc = {}, base
    for item in _flatten(items):
        if isinstance(item, label):
            labels[item.name] = pc
        else:
            pc += 4
    return labels


def assemble(*items, base=0):
    """Little-endian bytes of the instructions in items (nested lists are
    flattened; ints are raw words, so `0xFFFFFFFF` is an illegal word).
    base is the address of the first instruction, for labels."""
    flat = list(_flatten(items))
    labels = label_addresses(flat, base=base)
    words, pc = [], base
    for item in flat:
        if isinstance(item, label):
            continue
        if isinstance(item, _Fixup):
            item = item.encode(labels[item.target] - pc)
        words.append(item & 0xFFFFFFFF)
        pc += 4
    return struct.pack(f"<{len(words)}I", *words)


# --- Ready-made guests ---------------------------------------------------

TEXT = 0x10000  # where the ready-made guests put their code
DATA = 0x20000  # and their data


def simple_elf(code, xlen=32, *, data=None, symbols=None, **kw):
    """An ELF with `code` (a list of instructions) in an RX segment at TEXT,
    entry at TEXT, and optionally `data` bytes in an RW segment at DATA.
    By default it has a `_start` function symbol covering the code."""
    text = assemble(code, base=TEXT)
    segs = [Segment(TEXT, text, PF_RX)]
    if data is not None:
        segs.append(Segment(DATA, data, PF_RW))
    if symbols is None:
        symbols = [Symbol("_start", TEXT, len(text))]
    return build_elf(segs, TEXT, xlen, symbols=symbols, **kw)


def write_elf(path, data):
    """Write an ELF file, executable: qemu-user refuses files without x."""
    with open(path, "wb") as f:
        f.write(data)
    os.chmod(path, 0o755)
    return path


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit("usage: elfgen.py OUT.elf [32|64]  (writes a guest that exits 7)")
    write_elf(argv[1], simple_elf(exit_with(7), int(argv[2]) if len(argv) == 3 else 32))


if __name__ == "__main__":
    main(sys.argv)
