"""`cli execute` on bad input, faulting guests and bad command lines.

Every ELF here is built byte by byte with elfgen, so each case holds exactly
one defect and the test needs no cross compiler. What is checked
(docs/CONTRACT.md#accepted-elf-files, #5-exit-statuses):

- ELF files the loader must refuse: exit 65 and one stderr line
  `error: <path>: <reason>`, the reason naming the defect by a keyword;
  a file cut at any offset is refused the same way; unreadable paths: 66.
- Guests that fault: exit 70 and one line `error: guest fault: <what> at
  pc 0x<hex>[ in <function>]`.
- `--max-cycles`, `--stats`, unknown system calls, usage errors (64).
- A few well-formed guests as controls (so a refusal cannot pass by the
  loader refusing everything), checked against qemu: without qemu those
  checks are skipped (exit 77; a failure under CI=true).

Never a signal, never an exit status >= 128.

Run: CLI=build/cli/cli python3 tests/integration/test_bad_input.py [-v] [Class[.test]]
 or: python3 tests/integration/test_bad_input.py build/cli/cli [-v] [Class[.test]]
"""

import ctypes
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from elfgen import *  # noqa: E402,F401,F403
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

CLI = None  # set in main()
TIMEOUT = 30  # seconds for one cli run; every case here is tiny
XLENS = (32, 64)

EXIT_USAGE, EXIT_DATAERR, EXIT_NOINPUT, EXIT_FAULT, EXIT_CYCLES = 64, 65, 66, 70, 124


@dataclass
class Result:
    code: int
    stdout: bytes
    stderr: str

    @property
    def lines(self):
        return self.stderr.splitlines()

    @property
    def errors(self):
        return [line for line in self.lines if line.startswith("error:")]

    @property
    def warnings(self):
        return [line for line in self.lines if line.startswith("warning:")]

    def describe(self):
        return f"exit {self.code}, stderr:\n{self.stderr}"


def run(argv, stdin=b"", timeout=TIMEOUT, preexec_fn=None):
    p = subprocess.run(argv, input=stdin, capture_output=True, timeout=timeout,
                       preexec_fn=preexec_fn)
    return Result(p.returncode, p.stdout, p.stderr.decode(errors="replace"))


def cli(*args):
    return run([CLI, *map(str, args)])


def drop_read_any_file():
    """(In the child, as root) drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from the
    bounding set: the program it then runs cannot read a mode-000 file either."""
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    for cap in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def instructions_retired(result):
    """N from the `instructions: N` line of --stats, or None."""
    m = re.search(r"^instructions:\s*(\d+)\s*$", result.stderr, re.M)
    return int(m.group(1)) if m else None


class CliTest(unittest.TestCase):
    """Helpers: a scratch directory, writing ELFs, checking results."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="cli-test-")
        self.addCleanup(shutil.rmtree, self.dir)
        self.count = 0

    def write(self, data, name=None):
        self.count += 1
        return write_elf(os.path.join(self.dir, name or f"g{self.count}.elf"), data)

    def assert_no_signal(self, r):
        self.assertGreaterEqual(r.code, 0, f"killed by a signal: {r.describe()}")

    def assert_error(self, r, code, *keywords, only_line=True, prefix="error:"):
        """Exit `code`, exactly one `error:` line (and, with only_line, nothing
        else on stderr) starting with prefix, containing every keyword."""
        self.assert_no_signal(r)
        self.assertEqual(r.code, code, r.describe())
        self.assertEqual(len(r.errors), 1,
                         f"want exactly one 'error:' line: {r.describe()}")
        if only_line:
            self.assertEqual(len(r.lines), 1, f"want one stderr line: {r.describe()}")
        line = r.errors[0]
        self.assertTrue(line.startswith(prefix), f"want {prefix!r}...: {line!r}")
        for k in keywords:
            self.assertIn(k.lower(), line.lower(), f"want {k!r} in {line!r}")
        return line

    def assert_exit(self, r, code, stdout=b""):
        self.assert_no_signal(r)
        self.assertEqual(r.code, code, r.describe())
        self.assertEqual(r.errors, [], r.describe())
        self.assertEqual(r.stdout, stdout)

    def assert_qemu_agrees(self, path, xlen, code, stdout=b"", stdin=b""):
        """The control guests must behave the same under qemu-user (the
        reference): this checks the tests themselves, not the cli. Without
        qemu a skip, in a subtest: the test's other checks go on."""
        qemu = shutil.which(f"qemu-riscv{xlen}")
        if not qemu:
            with self.subTest(reference=f"qemu-riscv{xlen}"):
                self.skipTest(f"qemu-riscv{xlen} is not installed (Debian package qemu-user)")
            return
        q = run([qemu, path], stdin=stdin)
        self.assertEqual((q.code, q.stdout), (code, stdout),
                         f"qemu disagrees with the test: {q.describe()}")


# --- ELFs the loader must refuse ------------------------------------------

def valid(xlen, **kw):
    """A well-formed guest that exits 7."""
    return simple_elf(exit_with(7), xlen, **kw)


def two_segments(xlen, data_seg, entry=TEXT):
    """Code at TEXT (exits 7) plus data_seg, sorted by vaddr, no symbols."""
    text = Segment(TEXT, assemble(exit_with(7)), PF_RX)
    return build_elf(sorted([text, data_seg], key=lambda s: s.vaddr), entry, xlen)


def ehdr_size(xlen):
    return 52 if xlen == 32 else 64


def phdr_size(xlen):
    return 32 if xlen == 32 else 56


DATA16 = bytes(range(16))

# name -> (builder(xlen) -> bytes or None when not applicable,
#          keyword the reason must hold, or a tuple of alternatives)
REFUSALS = {
    "text file": (lambda x: b"#!/bin/sh\necho this is not an ELF\n" * 4, "not an ELF"),
    "zero bytes": (lambda x: bytes(128), "not an ELF"),
    "ELFCLASSNONE": (lambda x: valid(x, elf_class=0), "class"),
    "ELFCLASS 3": (lambda x: valid(x, elf_class=3), "class"),
    "x86-64 machine": (lambda x: valid(x, machine=EM_X86_64), "RISC-V"),
    "big endian": (lambda x: valid(x, big_endian=True), "endian"),
    "ET_DYN": (lambda x: valid(x, etype=ET_DYN), "ET_EXEC"),
    "ET_REL": (lambda x: valid(x, etype=ET_REL), "ET_EXEC"),
    "header cut": (lambda x: valid(x)[:40], "truncated"),
    "phdrs cut": (lambda x: valid(x)[:ehdr_size(x) + phdr_size(x) // 2], "truncated"),
    "phdrs past the end": (lambda x: valid(x, symbols=[], phoff=len(valid(x, symbols=[])) - 8),
                           "truncated"),  # e_phoff 8 bytes before the end of the file
    "overlapping segments": (lambda x: two_segments(
        x, data_seg=Segment(TEXT + 8, DATA16, PF_RW)), "overlap"),
    "overlapping bss": (lambda x: two_segments(
        x, data_seg=Segment(TEXT - 0x1000, DATA16, PF_RW, memsz=0x1004)), "overlap"),
    "filesz past the end": (lambda x: two_segments(
        x, data_seg=Segment(DATA, DATA16, PF_RW, filesz=0x10000)), "past the end"),
    "offset past the end": (lambda x: two_segments(
        x, data_seg=Segment(DATA, b"", PF_RW, offset=0x100000, filesz=16)), "past the end"),
    "segment at 4 GiB": (lambda x: two_segments(
        x, data_seg=Segment(0x100000000, DATA16, PF_RW)) if x == 64 else None,
        "address space"),
    "segment across 4 GiB": (lambda x: two_segments(
        x, data_seg=Segment(0xFFFFF000, DATA16, PF_RW, memsz=0x2000)), "address space"),
    "segment in the stack": (lambda x: two_segments(
        x, data_seg=Segment(0xEFF00000, DATA16, PF_RW)), "stack"),
    "bss reaching the stack": (lambda x: two_segments(
        x, data_seg=Segment(0xEF000000, DATA16, PF_RW, memsz=0x1000000)), "stack"),
    "p_filesz > p_memsz": (lambda x: two_segments(
        x, data_seg=Segment(DATA, DATA16, PF_RW, memsz=8)), "p_filesz"),
    "entry in data": (lambda x: two_segments(
        x, data_seg=Segment(DATA, assemble(exit_with(7)), PF_RW), entry=DATA), "entry"),
    "entry nowhere": (lambda x: build_elf([Segment(TEXT, assemble(exit_with(7)))],
                                          0x50000, x), "entry"),
    "no PT_LOAD": (lambda x: build_elf([Segment(0, type=PT_GNU_STACK, flags=PF_RW)],
                                       TEXT, x), ("entry", "PT_LOAD")),
    # 2-byte aligned is enough only with C (EF_RISCV_RVC)
    "entry 2 mod 4 without C": (lambda x: build_elf(
        [Segment(TEXT, b"\x01\x00" + assemble(exit_with(7)), PF_RX)], TEXT + 2, x), "aligned"),
    "code 65 MiB apart": (lambda x: two_segments(
        x, data_seg=Segment(TEXT + (65 << 20), assemble(exit_with(7)), PF_RX)), "span"),
}


class Refusals(CliTest):

    def assert_refused(self, data, keyword=None):
        path = self.write(data)
        r = cli("execute", path)
        line = self.assert_error(r, EXIT_DATAERR, prefix=f"error: {path}: ")
        self.assertEqual(r.stdout, b"")
        if keyword:
            alternatives = keyword if isinstance(keyword, tuple) else (keyword,)
            self.assertTrue(any(k.lower() in line.lower() for k in alternatives),
                            f"want {' or '.join(map(repr, alternatives))} in {line!r}")

    def test_refusals(self):
        for name, (build, keyword) in REFUSALS.items():
            for xlen in XLENS:
                data = build(xlen)
                if data is not None:
                    with self.subTest(name, xlen=xlen):
                        self.assert_refused(data, keyword)

    def test_truncated_anywhere(self):
        """A valid two-segment ELF (its last byte is segment data) cut at
        every offset of its headers and at some offsets in and between the
        segments: every cut leaves something past the end of the file."""
        for xlen in XLENS:
            data = two_segments(xlen, data_seg=Segment(DATA, bytes(range(64)), PF_RW))
            headers = ehdr_size(xlen) + 2 * phdr_size(xlen)
            text_off, data_off = 0x1000, 0x2000  # where elfgen puts them
            cuts = list(range(headers + 1)) + [headers + 100, 0x800, 0xFFF] \
                + [text_off + d for d in (0, 1, 4, 11)] \
                + [data_off + d for d in (0, 1, 32, 63)]
            self.assertEqual(len(data), data_off + 64)
            for cut in cuts:
                with self.subTest(xlen=xlen, cut=cut):
                    self.assert_refused(data[:cut])

    def test_zero_length_file(self):
        self.assert_refused(b"")

    def test_missing_file(self):
        self.assert_error(cli("execute", os.path.join(self.dir, "nope.elf")), EXIT_NOINPUT)

    def test_directory(self):
        self.assert_error(cli("execute", self.dir), EXIT_NOINPUT)

    def test_unreadable_file(self):
        path = self.write(valid(32))
        os.chmod(path, 0)
        # root reads any file: then cli runs without the capabilities that let it
        try:
            r = run([CLI, "execute", path],
                    preexec_fn=drop_read_any_file if os.geteuid() == 0 else None)
        except subprocess.SubprocessError as e:
            self.skipTest(f"root, and cannot drop CAP_DAC_OVERRIDE here: {e}")
        self.assert_error(r, EXIT_NOINPUT)

    def test_missing_private_input(self):
        r = cli("execute", self.write(valid(32)), "--private-input",
                os.path.join(self.dir, "nope.in"))
        self.assert_error(r, EXIT_NOINPUT)


# --- Well-formed guests (controls) ----------------------------------------

class Controls(CliTest):

    def check(self, data, xlen, code, *args, stdout=b"", stdin=b"", qemu=True):
        path = self.write(data)
        self.assert_exit(cli("execute", path, *args), code, stdout)
        if qemu:
            self.assert_qemu_agrees(path, xlen, code, stdout, stdin)
        return path

    def test_exit_status(self):
        for xlen in XLENS:
            for code in (0, 7, 255):
                with self.subTest(xlen=xlen, code=code):
                    self.check(simple_elf(exit_with(code), xlen), xlen, code)

    def test_exit_group_and_status_masked(self):
        for xlen in XLENS:
            with self.subTest(xlen=xlen):
                self.check(simple_elf(syscall(SYS_EXIT_GROUP, 0x1234), xlen), xlen, 0x34)

    def test_with_c(self):
        """EF_RISCV_RVC: the guest runs on a hart with C (qemu's has it
        too), and its entry may be 2-byte aligned."""
        for xlen in XLENS:
            with self.subTest(xlen=xlen):
                self.check(valid(xlen, flags=EF_RISCV_RVC), xlen, 7)
                code = b"\x01\x00" + assemble(exit_with(7))  # c.nop, then the code at +2
                self.check(build_elf([Segment(TEXT, code, PF_RX)], TEXT + 2, xlen,
                                     flags=EF_RISCV_RVC), xlen, 7, qemu=False)

    def test_without_symbols(self):
        for xlen in XLENS:
            with self.subTest(xlen=xlen):
                self.check(valid(xlen, symbols=[]), xlen, 7)

    def test_non_load_program_headers_are_ignored(self):
        for xlen in XLENS:
            with self.subTest(xlen=xlen):
                segs = [Segment(0, type=PT_GNU_STACK, flags=PF_RW),
                        Segment(TEXT, assemble(exit_with(7))),
                        Segment(0, b"\4\0\0\0\0\0\0\0\1\0\0\0", type=PT_NOTE, flags=PF_R, align=4)]
                self.check(build_elf(segs, TEXT, xlen), xlen, 7)

    def test_small_stack_makes_room(self):
        """The segment that collides with the default 8 MiB stack fits
        below a 64 KiB one."""
        for xlen in XLENS:
            with self.subTest(xlen=xlen):
                data = build_elf([Segment(0xEFF00000, assemble(exit_with(7)))], 0xEFF00000, xlen)
                self.check(data, xlen, 7, "--stack-size", 65536, qemu=False)

    def test_bss_is_zero_and_writable(self):
        """memsz > filesz: the rest reads 0 and can be written."""
        for xlen in XLENS:
            code = [li(T0, DATA + 0x1800),  # DATA+0x1000 .. DATA+0x1ffc is bss
                    lw(T1, T0, -0x800), bne(T1, ZERO, "bad"),
                    lw(T1, T0, 0x7FC), bne(T1, ZERO, "bad"),
                    li(T2, 7), sw(T2, T0, 8), lw(A0, T0, 8), li(A7, SYS_EXIT), ecall(),
                    label("bad"), exit_with(1)]
            data = build_elf([Segment(TEXT, assemble(code, base=TEXT)),
                              Segment(DATA, b"\xff" * 16, PF_RW, memsz=0x2000)], TEXT, xlen)
            with self.subTest(xlen=xlen):
                self.check(data, xlen, 7)

    def test_start_frame(self):
        """sp is 16-byte aligned and points at argc 0, argv NULL, envp NULL,
        auxv AT_NULL (qemu passes argc 1, so no qemu check)."""
        for xlen in XLENS:
            load, w = (lw, 4) if xlen == 32 else (ld, 8)
            code = [andi(T0, SP, 15), li(A0, 1), bne(T0, ZERO, "out")]
            for i in range(4):  # argc, argv[0], envp[0], auxv[0].a_type
                code += [load(T0, SP, i * w), li(A0, 2 + i), bne(T0, ZERO, "out")]
            # The whole stack region up to its top stays usable above the frame.
            code += [li(T0, 0xF0000000 - w)]
            if xlen == 64:  # li sign-extends: clear the upper half (slli, srli by 32)
                code += [i_type(0x13, 1, T0, T0, 32), i_type(0x13, 5, T0, T0, 32)]
            code += [li(T1, 7), sw(T1, T0, 0), lw(T2, T0, 0), li(A0, 6), bne(T1, T2, "out")]
            code += [li(A0, 0), label("out"), li(A7, SYS_EXIT), ecall()]
            with self.subTest(xlen=xlen):
                path = self.write(simple_elf(code, xlen))
                r = cli("execute", path)
                self.assertEqual(r.code, 0, "exit 1: sp misaligned, 2: argc != 0, "
                                 "3: argv, 4: envp, 5: auxv[0] not NULL, 6: the top of "
                                 "the stack region is not writable; " + r.describe())

    def test_code_segments_far_apart(self):
        """Executable segments 63 MiB apart are within the code cache's reach
        (65 MiB apart is refused, see REFUSALS)."""
        far = TEXT + (63 << 20)
        for xlen in XLENS:
            segs = [Segment(TEXT, assemble([li(T0, far), jalr(ZERO, T0)]), PF_RX),
                    Segment(far, assemble(exit_with(7)), PF_RX)]
            with self.subTest(xlen=xlen):
                self.check(build_elf(segs, TEXT, xlen), xlen, 7)

    def test_store_into_rwx_code_is_seen(self):
        """A store into an RWX segment changes what later fetches see."""
        for xlen in XLENS:
            # The jump ends qemu's translation block, which does not see a
            # store into itself; the contract wants the store seen either way.
            code = [li(T0, addi(A0, ZERO, 9)), auipc(T1, 0), sw(T0, T1, 12), j("patched"),
                    label("patched"), addi(A0, ZERO, 1),  # becomes addi a0, zero, 9
                    li(A7, SYS_EXIT), ecall()]
            data = build_elf([Segment(TEXT, assemble(code), PF_RWX)], TEXT, xlen)
            with self.subTest(xlen=xlen):
                self.check(data, xlen, 9)

    def test_store_into_a_fused_pair_is_seen(self):
        """The executor runs some adjacent instructions as one fused pair;
        a store into the second of them must still be seen by the next run
        of the first (exit 20 with the patch, 6 without)."""
        def code(offset):
            return [li(A0, 0), li(S1, 0),
                    label("again"), addi(A0, A0, 1), label("patched"), addi(A0, A0, 2),
                    bne(S1, ZERO, "done"), li(S1, 1),
                    li(T0, addi(A0, A0, 16)), label("here"), auipc(T1, 0), sw(T0, T1, offset),
                    j("again"),
                    label("done"), li(A7, SYS_EXIT), ecall()]
        labels = label_addresses(code(0), base=TEXT)
        items = code(labels["patched"] - labels["here"])
        for xlen in XLENS:
            data = build_elf([Segment(TEXT, assemble(items, base=TEXT), PF_RWX)], TEXT, xlen)
            with self.subTest(xlen=xlen):
                self.check(data, xlen, 20)

    def test_io(self):
        """read(0) gets the private input; write(1) goes to stdout, write(3)
        to the public output, write(5) fails with -EBADF."""
        for xlen in XLENS:
            code = [syscall(SYS_READ, 0, DATA, 64), mv(S1, A0),
                    li(A0, 1), li(A1, DATA), mv(A2, S1), li(A7, SYS_WRITE), ecall(),
                    li(A0, 3), li(A1, DATA), mv(A2, S1), li(A7, SYS_WRITE), ecall(),
                    syscall(SYS_WRITE, 5, DATA, 1), li(T0, -9), bne(A0, T0, "bad"),
                    exit_with(7), label("bad"), exit_with(1)]
            elf = self.write(simple_elf(code, xlen, data=bytes(64)))
            inp = os.path.join(self.dir, "in.txt")
            pub = os.path.join(self.dir, "pub.bin")
            with open(inp, "wb") as f:
                f.write(b"hello\n")
            with self.subTest(xlen=xlen):
                r = cli("execute", elf, "--private-input", inp, "--public-output", pub)
                self.assert_exit(r, 7, b"hello\n")
                with open(pub, "rb") as f:
                    self.assertEqual(f.read(), b"hello\n")


# --- Guests that fault ------------------------------------------------------

# What may follow is free ("..., after 3 instructions"), but a function name
# must come right after the pc.
FAULT_RE = re.compile(r"^error: guest fault: (.*?) at pc 0x([0-9a-fA-F]+)( in ([^\s,()]+))?")
UNMAPPED = 0x40000000  # far above every segment and the (empty) heap


@dataclass
class Fault:
    code: list            # runs in function `faulty`; label "fault" marks the faulting insn
    what: str             # keyword of the fault
    target: int = None    # for jumps: the target, also accepted as the pc
    data_seg: bool = False  # give the guest an RW segment at DATA holding exit code


FAULTS = {
    "jump to unmapped": Fault([li(T0, UNMAPPED), label("fault"), jalr(ZERO, T0)],
                              "unmapped", UNMAPPED),
    "call to address 0": Fault([label("fault"), jalr(RA, ZERO)], "unmapped", 0),
    "illegal word 0": Fault([label("fault"), 0x00000000], "illegal instruction"),
    "illegal word ffffffff": Fault([label("fault"), 0xFFFFFFFF], "illegal instruction"),
    "store into text": Fault([auipc(T0, 0), label("fault"), sw(T0, T0, 0)], "read-only"),
    "load unmapped": Fault([li(T0, UNMAPPED), label("fault"), lw(T1, T0, 0)], "unmapped"),
    "load unmapped, then an add": Fault([li(T0, UNMAPPED), label("fault"), lw(T1, T0, 0),
                                         add(T1, T1, T1)], "unmapped"),
    "load address 0": Fault([label("fault"), lw(T1, ZERO, 0)], "unmapped"),
    "store unmapped": Fault([li(T0, UNMAPPED), label("fault"), sw(T0, T0, 0)], "unmapped"),
    "misaligned jalr": Fault([auipc(T0, 0), label("fault"), jalr(ZERO, T0, 10)],
                             "misaligned", None),  # target computed below
    "ebreak": Fault([label("fault"), ebreak()], "breakpoint"),
    "jump into data": Fault([li(T0, DATA), label("fault"), jalr(ZERO, T0)],
                            "non-executable", DATA, data_seg=True),
    # The data segment is one page with nothing mapped after it, so the
    # loops' one-test path (it needs the next page mapped) never applies:
    # an access in its last bytes that stays in the page must work (the
    # in-page path; the count of retired instructions checks it), one that
    # runs on into the next page must fault.
    "load across the end of data": Fault(
        [li(T0, DATA + 4094), lw(T1, T0, -4), label("fault"), lw(T1, T0, 0),
         add(T1, T1, T1)], "unmapped", data_seg=True),
    "store across the end of data": Fault(
        [li(T0, DATA + 4094), sw(T0, T0, -4), label("fault"), sw(T0, T0, 0),
         add(T1, T1, T1)], "unmapped", data_seg=True),
}


def fault_guest(fault, xlen, symbols=True):
    """_start jumps to `faulty`, which runs fault.code. Returns (elf bytes,
    address of the faulting instruction, [_start, faulty) boundaries)."""
    items = [j("faulty"), label("faulty"), fault.code, exit_with(0)]
    labels = label_addresses(items, base=TEXT)
    end = TEXT + len(assemble(items))
    syms = [Symbol("_start", TEXT, 4), Symbol("faulty", labels["faulty"],
                                               end - labels["faulty"])]
    data = assemble(exit_with(7)) if fault.data_seg else None
    elf = simple_elf(items, xlen, data=data, symbols=syms if symbols else [])
    return elf, labels["fault"], (labels["faulty"], end)


class Faults(CliTest):

    def check_fault(self, fault, xlen, symbols=True):
        elf, fault_pc, (func_lo, func_hi) = fault_guest(fault, xlen, symbols)
        target = fault.target
        if fault.what == "misaligned":
            target = fault_pc - 4 + 10
        r = cli("execute", self.write(elf))
        line = self.assert_error(r, EXIT_FAULT, fault.what, prefix="error: guest fault: ")
        m = FAULT_RE.match(line)
        self.assertTrue(m, f"want 'error: guest fault: <what> at pc 0x<hex>"
                           f"[ in <function>]': {line!r}")
        self.assertIn(fault.what.lower(), m.group(1).lower(), line)
        pc = int(m.group(2), 16)
        allowed = {fault_pc} | ({target} if target is not None else set())
        self.assertIn(pc, allowed, f"pc: want one of {sorted(map(hex, allowed))}: {line!r}")
        if symbols and func_lo <= pc < func_hi:
            self.assertEqual(m.group(4), "faulty", f"want ' in faulty': {line!r}")
        else:
            self.assertIsNone(m.group(3), f"no symbol covers the pc: {line!r}")
        if target is None:
            # Straight-line code from TEXT: everything before the faulting
            # instruction retired, the faulting one did not.
            r = cli("execute", self.write(elf), "--stats")
            self.assertIn(f"instructions: {(fault_pc - TEXT) // 4}\n", r.stderr,
                          r.describe())

    def test_faults(self):
        for name, fault in FAULTS.items():
            for xlen in XLENS:
                with self.subTest(name, xlen=xlen):
                    self.check_fault(fault, xlen)

    def test_return_just_past_the_code(self):
        """A call in the code's last word returns to the first address past
        it: that fetch faults, naming the return it came from. With
        --flamegraph the return takes the tracer's fast path (the frame
        knows where its return address's code lies) and must fault alike."""
        words = 4096 // 4  # the code fills one page: its end is the span's
        items = [j("main"), label("f"), jalr(ZERO, RA), label("main"),
                 [nop()] * (words - 3), jal(RA, "f")]
        labels = label_addresses(items, base=TEXT)
        self.assertEqual(len(assemble(items)), 4096)
        syms = [Symbol("_start", TEXT, 4), Symbol("f", labels["f"], 4),
                Symbol("main", labels["main"], TEXT + 4096 - labels["main"])]
        for xlen in XLENS:
            with self.subTest(xlen=xlen):
                path = self.write(simple_elf(items, xlen, symbols=syms))
                plain = cli("execute", path)
                line = self.assert_error(plain, EXIT_FAULT, "fetch",
                                         prefix="error: guest fault: ")
                self.assertIn(f"at pc 0x{TEXT + 4096:x}", line)
                self.assertIn(f"(jumped to from 0x{labels['f']:x} in f)", line)
                traced = cli("execute", path, "--flamegraph",
                             os.path.join(self.dir, "past.folded"))
                self.assertEqual((traced.code, traced.errors), (plain.code, plain.errors),
                                 traced.describe())

    def test_call_to_bit_63(self):
        """An RV64 call to 0x8000000000000000 faults on the fetch. The
        tracer has a frame for it by then, and the tracer's zkVM-call leaves
        also carry bit 63 in their key: writing the flamegraph must not take
        the frame for one (with no zkVM call made there is no name to look
        up). The frame retired nothing, so only _start's three count."""
        slli = lambda rd, rs1, shamt: i_type(0x13, 1, rd, rs1, shamt)  # noqa: E731
        items = [addi(T0, ZERO, 1), slli(T0, T0, 63), label("fault"), jalr(RA, T0)]
        path = self.write(simple_elf(items, 64))
        folded = os.path.join(self.dir, "bit63.folded")
        r = cli("execute", path, "--flamegraph", folded)
        line = self.assert_error(r, EXIT_FAULT, "unmapped", prefix="error: guest fault: ")
        self.assertIn("at pc 0x8000000000000000", line)
        with open(folded) as f:
            stacks = f.read().splitlines()
        self.assertEqual(stacks, ["_start 3"])

    def test_fault_without_symbols(self):
        for name in ("illegal word 0", "load unmapped"):
            with self.subTest(name):
                self.check_fault(FAULTS[name], 32, symbols=False)


# --- Budgets, stats, system calls -----------------------------------------

class Running(CliTest):

    def test_max_cycles_stops_a_loop(self):
        for xlen in XLENS:
            path = self.write(simple_elf([label("loop"), j("loop")], xlen))
            with self.subTest(xlen=xlen):
                r = cli("execute", path, "--max-cycles", 1000, "--stats")
                self.assert_error(r, EXIT_CYCLES, "max-cycles", only_line=False)
                self.assertEqual(instructions_retired(r), 1000, r.describe())

    def test_max_cycles_boundary(self):
        """exit_with(7) is 3 instructions, the ecall included."""
        path = self.write(valid(32))
        r = cli("execute", path, "--max-cycles", 3, "--stats")
        self.assert_exit(r, 7)
        self.assertEqual(instructions_retired(r), 3, r.describe())
        r = cli("execute", path, "--max-cycles", 2, "--stats")
        self.assert_error(r, EXIT_CYCLES, "max-cycles", only_line=False)
        self.assertEqual(instructions_retired(r), 2, r.describe())

    def test_stats_counts_the_exit_ecall(self):
        for xlen in XLENS:
            with self.subTest(xlen=xlen):
                r = cli("execute", self.write(valid(xlen)), "--stats")
                self.assert_exit(r, 7)
                self.assertEqual(instructions_retired(r), 3, r.describe())

    def unknown_syscalls_guest(self, xlen):
        """Calls 500 twice and 501 once; exits 7 if each returned -ENOSYS."""
        check = [li(T0, -38), bne(A0, T0, "bad")]
        return simple_elf([syscall(500), check, syscall(500), check, syscall(501), check,
                           exit_with(7), label("bad"), exit_with(1)], xlen)

    def test_unknown_syscall_warns_once_per_number(self):
        for xlen in XLENS:
            path = self.write(self.unknown_syscalls_guest(xlen))
            with self.subTest(xlen=xlen):
                r = cli("execute", path)
                self.assert_exit(r, 7)
                self.assertEqual(len(r.warnings), 2, f"want one warning for 500, one for "
                                 f"501: {r.describe()}")
                self.assertEqual(len(r.lines), 2, r.describe())
                self.assertIn("500", r.warnings[0])
                self.assertIn("501", r.warnings[1])

    def test_unknown_syscall_strict(self):
        for xlen in XLENS:
            path = self.write(self.unknown_syscalls_guest(xlen))
            with self.subTest(xlen=xlen):
                self.assert_error(cli("execute", path, "--strict"), EXIT_FAULT, "500")


# --- Command lines --------------------------------------------------------

class Usage(CliTest):

    def test_usage_errors(self):
        elf = self.write(valid(32))
        cases = [(), ("execute",), ("frobnicate",), ("execute", elf, "--bogus"),
                 ("execute", elf, "--max-cycles", "abc"), ("execute", elf, "--max-cycles"),
                 ("execute", elf, "--max-cycles", "-5"), ("execute", elf, "--stack-size", "x"),
                 ("execute", elf, elf), ("execute", elf, "--engine", "jit"),
                 ("execute", elf, "--translate-after", "256"),
                 ("execute", elf, "--translate-after", "-1")]
        for args in cases:
            with self.subTest(args=" ".join(args).replace(elf, "g.elf")):
                r = cli(*args)
                self.assert_error(r, EXIT_USAGE, only_line=False)
                self.assertEqual(r.stdout, b"")

    def test_engines(self):
        """--engine: every engine runs a guest the tier can take alike (with
        or without C); one it cannot (code on a writable page) runs under
        auto and interp, and --engine translate refuses it with exit 64
        naming why."""
        for xlen in (32, 64):
            plain = self.write(valid(xlen))
            with_c = self.write(valid(xlen, flags=EF_RISCV_RVC))
            writable = self.write(build_elf(
                [Segment(TEXT, assemble(exit_with(7)), PF_RWX)], TEXT, xlen))
            for engine in ("auto", "interp", "translate"):
                with self.subTest(xlen=xlen, engine=engine):
                    self.assert_exit(cli("execute", plain, "--engine", engine), 7)
                    self.assert_exit(cli("execute", with_c, "--engine", engine), 7)
                    r = cli("execute", writable, "--engine", engine)
                    if engine == "translate":
                        self.assert_error(r, EXIT_USAGE, "--engine translate",
                                          "code on writable pages")
                    else:
                        self.assert_exit(r, 7)


def main():
    global CLI
    argv = sys.argv[:]
    if len(argv) > 1 and os.path.isfile(argv[1]):  # else a test name for unittest
        CLI = argv.pop(1)
    CLI = CLI or os.environ.get("CLI")
    if not CLI or not os.access(CLI, os.X_OK):
        sys.exit(f"error: no executable cli: set CLI=path/to/cli or pass it "
                 f"as the first argument (got {CLI!r})")
    CLI = os.path.abspath(CLI)
    ctest_status.main(argv=argv)


if __name__ == "__main__":
    main()
