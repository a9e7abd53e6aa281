#!/usr/bin/env python3
"""Tests for scripts/enrich_flamegraph.py (docs/FORMATS.md#raw-folded-stacks).

A small C guest is cross compiled here (riscv64-unknown-elf-gcc, rv32im,
-O2 -g) with `static inline __attribute__((always_inline))` functions
inlined into a noinline one, so some addresses lie inside inlined code. It
never runs: enrich only reads the ELF. Addresses come from
riscv64-unknown-elf-nm at test time, and the expected names, inline chains
and lines come from riscv64-unknown-elf-addr2line run here independently,
one address at a time (enrich itself runs ONE process for the whole file and
by default prefers llvm-addr2line, so the two must agree).

Checked: names; inline expansion outermost first; merging of stacks that
become identical after naming; bytewise sorting; zero counts dropped;
--lines; --no-inline; unknown addresses stay 0x<hex>; one addr2line
process for the whole file (a counting wrapper); every available tool
(llvm-addr2line, GNU addr2line, llvm-symbolizer's LLVM output style) gives
the same output; parsing of canned output (padded addresses,
discriminators, blank-line separators, columns, names with `;`);
C++ names as `c++filt -p` prints them; errors: no tool (2), bad line (65),
missing ELF / input (66), output never half-written.

Run: ENRICH=scripts/enrich_flamegraph.py python3 tests/enrich/test_enrich.py [-v]
(without ENRICH the script is found relative to this file). Exit 77
(skipped) when the RISC-V cross toolchain is not installed (1 under CI=true).
"""

import importlib.util
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ENRICH = os.environ.get("ENRICH") or os.path.join(
    HERE, "..", "..", "scripts", "enrich_flamegraph.py")
ENRICH = os.path.abspath(ENRICH)

CROSS = "riscv64-unknown-elf-"
GCC, GXX = CROSS + "gcc", CROSS + "g++"
NM, A2L, CXXFILT = CROSS + "nm", CROSS + "addr2line", CROSS + "c++filt"
CFLAGS = ["-march=rv32im", "-mabi=ilp32", "-O2", "-g", "-nostdlib",
          "-nostartfiles", "-static"]

EX_NOTOOL, EX_DATAERR, EX_NOINPUT = 2, 65, 66

GUEST_C = r"""
static int acc;

static inline __attribute__((always_inline)) int inner(int x)
{
    acc += x * 3;
    return acc ^ x;
}

static inline __attribute__((always_inline)) int middle(int x)
{
    int r = inner(x + 1);
    acc -= r;
    return r * 7;
}

__attribute__((noinline)) int outer(int x)
{
    int s = 0;
    for (int i = 0; i < x; i++)
        s += middle(i);
    return s;
}

__attribute__((noinline)) int leaf(int x)
{
    return x * x + acc;
}

__attribute__((noinline)) int Zeta(int x)
{
    return leaf(x) + 1;
}

/* Two names for one function: docs/CONTRACT.md#functions-and-names names it `Sq` (both global
   STT_FUNC, same size, bytewise smallest name); addr2line says `sq`. */
__attribute__((noinline)) int sq(int x)
{
    return x * x;
}
extern int Sq(int) __attribute__((alias("sq")));

__attribute__((noinline)) int alpha(int x)
{
    return outer(x) + Zeta(x) + Sq(x);
}

void _start(void)
{
    volatile int r = alpha(5);
    (void)r;
    for (;;)
        ;
}
"""

GUEST_CXX = r"""
namespace ns {
template <class T> __attribute__((noinline)) T twice(T x) { return x * 2; }
struct S {
    int v;
    __attribute__((noinline)) int get() const { return v + twice<int>(v); }
    __attribute__((noinline)) operator int() const { return v * 3; }
    __attribute__((noinline)) int operator()(int a) const { return a + v; }
    __attribute__((noinline)) bool operator<(const S &o) const { return v < o.v; }
};
}
namespace {
__attribute__((noinline)) int anon(int x) { return x - 1; }
}
extern "C" void _start()
{
    ns::S s{3}, t{4};
    volatile int r = anon(s.get()) + int(s) + s(4) + (s < t) +
                     (int)ns::twice<unsigned long>(5);
    (void)r;
    for (;;)
        ;
}
"""


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, **kw)


def enrich(*args, stdin=None, env=None):
    return run([sys.executable, ENRICH] + list(args), input=stdin, env=env)


def nm_functions(elf):
    """{name: (address, size)} of the text symbols, from nm -S."""
    out = run([NM, "-S", "--defined-only", elf]).stdout
    funcs = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "TtWw":
            funcs[parts[3]] = (int(parts[0], 16), int(parts[1], 16))
    return funcs


def gnu_chain(elf, addr):
    """[(function, basename, line)] innermost first, from GNU addr2line run
    on this one address."""
    out = run([A2L, "-f", "-i", "-e", elf, "0x%x" % addr]).stdout.split("\n")
    chain = []
    for i in range(0, len(out) - 1, 2):
        loc = re.sub(r" \(discriminator \d+\)$", "", out[i + 1])
        path, _, line = loc.rpartition(":")
        chain.append((out[i], os.path.basename(path), line))
    return chain


def sort_key(line):
    return line.encode("utf-8")


def tool_available(name):
    return shutil.which(name) is not None


def write_exe(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP
             | stat.S_IXOTH)


class Guest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="enrich-test-")
        src = os.path.join(cls.tmp, "guest.c")
        with open(src, "w") as f:
            f.write(GUEST_C)
        cls.elf = os.path.join(cls.tmp, "guest.elf")
        r = run([GCC] + CFLAGS + [src, "-o", cls.elf])
        if r.returncode != 0:
            raise RuntimeError("cross compile failed:\n" + r.stderr)
        cls.funcs = nm_functions(cls.elf)
        for name in ("outer", "leaf", "Zeta", "alpha", "_start", "sq",
                     "Sq"):
            assert name in cls.funcs, (name, cls.funcs)
        assert "inner" not in cls.funcs and "middle" not in cls.funcs
        # Addresses inside the inlined code of `outer`, found with GNU
        # addr2line over every instruction of it (rv32im: 4 bytes each).
        start, size = cls.funcs["outer"]
        cls.in_inner = cls.in_middle = None
        for a in range(start, start + size, 4):
            names = [c[0] for c in gnu_chain(cls.elf, a)]
            if names == ["inner", "middle", "outer"] and cls.in_inner is None:
                cls.in_inner = a
            if names == ["middle", "outer"] and cls.in_middle is None:
                cls.in_middle = a
        assert cls.in_inner is not None and cls.in_middle is not None, \
            "no inlined code found in outer"
        cls.raw = os.path.join(cls.tmp, "in.raw.folded")
        # The same ELF without a symbol table, DWARF kept.
        cls.nosym = os.path.join(cls.tmp, "nosym.elf")
        r = run([CROSS + "objcopy", "--strip-all", "--keep-section=.debug_*",
                 cls.elf, cls.nosym])
        if r.returncode != 0:
            raise RuntimeError("objcopy failed:\n" + r.stderr)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def a(self, name, offset=0):
        return "0x%x" % (self.funcs[name][0] + offset)

    def enrich_text(self, raw, *args, elf=None):
        r = enrich("--elf", elf or self.elf, *args, stdin=raw)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "")
        return r.stdout

    # ---------------------------------------------------------------- names

    def test_names_inline_chain_outermost_first(self):
        # A frame 0x<target>@0x<pc> expands into the chain at the pc; one
        # without a pc is its function alone.
        s, al, o = self.a("_start"), self.a("alpha"), self.a("outer")
        raw = ("%s;%s;%s 7\n" % (s, al, o) +
               "%s;%s;%s@0x%x 5\n" % (s, al, o, self.in_inner) +
               "%s;%s;%s@0x%x 3\n" % (s, al, o, self.in_middle))
        # The chains GNU addr2line gives, reversed: outermost first.
        inner_chain = ";".join(c[0] for c in
                               reversed(gnu_chain(self.elf, self.in_inner)))
        self.assertEqual(inner_chain, "outer;middle;inner")
        self.assertEqual(self.enrich_text(raw), textwrap.dedent("""\
            _start;alpha;outer 7
            _start;alpha;outer;middle 3
            _start;alpha;outer;middle;inner 5
            """))

    def test_merge_after_naming(self):
        # Two different addresses inside leaf become the same frame; an
        # input line repeated is merged too.
        s, z = self.a("_start"), self.a("Zeta")
        self.assertEqual([c[0] for c in gnu_chain(
            self.elf, self.funcs["leaf"][0] + 4)], ["leaf"])
        raw = ("%s;%s;%s 10\n" % (s, z, self.a("leaf")) +
               "%s;%s;%s 32\n" % (s, z, self.a("leaf", 4)) +
               "%s;%s 1\n%s;%s 2\n" % (s, z, s, z))
        self.assertEqual(self.enrich_text(raw),
                         "_start;Zeta 3\n_start;Zeta;leaf 42\n")

    def test_sorted_bytewise_and_zero_counts_dropped(self):
        s = self.a("_start")
        raw = "".join("%s;%s %d\n" % (s, self.a(n), c) for n, c in
                      [("alpha", 1), ("leaf", 2), ("Zeta", 3), ("outer", 0),
                       ("_start", 4)])
        raw += "%s 0\n%s 5\n" % (s, s)
        out = self.enrich_text(raw)
        lines = out.splitlines()
        self.assertEqual(lines, sorted(lines, key=sort_key))
        # bytewise: `;` (0x3b) < `Z` < `_` < `a` < `l`
        self.assertEqual(out, textwrap.dedent("""\
            _start 5
            _start;Zeta 3
            _start;_start 4
            _start;alpha 1
            _start;leaf 2
            """))
        self.assertNotIn("outer", out)

    def test_lines(self):
        # The leaf frame (the innermost inline level at the leaf's pc, or
        # its function) becomes name:LINE, LINE the pc's own line; frames
        # above the leaf, and a leaf without a pc, keep their names.
        s, al, o = self.a("_start"), self.a("alpha"), self.a("outer")
        call = self.funcs["alpha"][0] + 4
        raw = ("%s;%s@0x%x;%s@0x%x 5\n%s;%s 1\n%s;%s@0x%x 2\n"
               % (s, al, call, o, self.in_inner, s, al, s, al, call))
        inner = gnu_chain(self.elf, self.in_inner)[0][2]
        at_call = gnu_chain(self.elf, call)
        above = ";".join(c[0] for c in reversed(at_call[:-1]))
        alpha = "alpha;" + above if above else "alpha"
        out = self.enrich_text(raw, "--lines")
        self.assertEqual(out, "\n".join(sorted([
            "_start;alpha 1",
            "_start;%s:%s 2" % (alpha, at_call[0][2]),
            "_start;%s;outer;middle;inner:%s 5" % (alpha, inner)], key=sort_key)) + "\n")
        self.assertRegex(out, r"inner:\d+ 5\n")

    def test_no_inline(self):
        s, al = self.a("_start"), self.a("alpha")
        o = self.a("outer")
        raw = ("%s;%s;%s@0x%x 5\n%s;%s;%s@0x%x 3\n%s;%s;%s 1\n"
               % (s, al, o, self.in_inner, s, al, o, self.in_middle, s, al, o))
        self.assertEqual(self.enrich_text(raw, "--no-inline"),
                         "_start;alpha;outer 9\n")

    def test_unknown_addresses_stay_hex(self):
        s = self.a("_start")
        # below every symbol, far past the end (llvm-addr2line would name
        # it `_end`), uppercase hex in the input
        raw = "%s;0x4 1\n%s;0x7ffff000 2\n%s;0X1ABC 3\n" % (s, s, s)
        self.assertEqual(self.enrich_text(raw), textwrap.dedent("""\
            _start;0x1abc 3
            _start;0x4 1
            _start;0x7ffff000 2
            """))

    def test_aliases_named_by_the_spec_rule(self):
        # addr2line names the DWARF function `sq`; the frame is the
        # symbol the alias rule of docs/CONTRACT.md#functions-and-names picks, as `cli --flamegraph` writes.
        self.assertEqual(self.funcs["sq"][0], self.funcs["Sq"][0])
        self.assertEqual(gnu_chain(self.elf, self.funcs["sq"][0])[0][0], "sq")
        s, al, q = self.a("_start"), self.a("alpha"), self.a("sq")
        raw = "%s;%s;%s 3\n" % (s, al, q)
        self.assertEqual(self.enrich_text(raw), "_start;alpha;Sq 3\n")
        line = gnu_chain(self.elf, self.funcs["sq"][0])[0][2]
        self.assertEqual(self.enrich_text("%s;%s;%s@%s 3\n" % (s, al, q, q), "--lines"),
                         "_start;alpha;Sq:%s 3\n" % line)

    def test_without_symbol_table_addr2line_alone(self):
        # .symtab removed, DWARF kept: names and inline chains still come
        # from the debug info.
        elf = self.nosym
        self.assertNotIn("outer", run([NM, elf]).stdout)
        s, al = self.a("_start"), self.a("alpha")
        raw = "%s;%s;%s@0x%x 5\n%s;0x4 1\n" % (s, al, self.a("outer"), self.in_inner, s)
        r = enrich("--elf", elf, stdin=raw)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, "_start;0x4 1\n"
                         "_start;alpha;outer;middle;inner 5\n")

    def test_every_tool_gives_the_same_output(self):
        s, al = self.a("_start"), self.a("alpha")
        o = self.a("outer")
        raw = ("%s;%s;%s@0x%x 5\n%s;%s;%s@0x%x 3\n%s;%s;%s 2\n%s;0x4 1\n"
               "%s;%s;%s@%s 6\n%s;0x7ffff000 7\n"
               % (s, al, o, self.in_inner, s, al, o, self.in_middle, s, al,
                  self.a("Zeta"), s, s, al, self.a("sq"), self.a("sq"), s))
        tools = []
        for tool in ("llvm-addr2line", A2L, "addr2line", "llvm-symbolizer"):
            if tool_available(tool):
                tools.append(tool)
            else:
                with self.subTest(tool=tool):  # a skip; the other tools are compared
                    self.skipTest(f"{tool} is not installed")
        self.assertIn(A2L, tools)
        for flags in ([], ["--lines"], ["--no-inline"]):
            want = None
            for tool in tools:
                with self.subTest(tool=tool, flags=flags):
                    out = self.enrich_text(raw, "--addr2line-bin", tool,
                                           *flags)
                    if want is None:
                        want = out
                    self.assertEqual(out, want)

    # ---------------------------------------------------------- processes

    def test_one_addr2line_process_for_the_whole_file(self):
        count = os.path.join(self.tmp, "count")
        wrapper = os.path.join(self.tmp, "counting-addr2line")
        real = shutil.which("llvm-addr2line") or shutil.which(A2L)
        write_exe(wrapper, "#!/bin/sh\necho run >> '%s'\nexec '%s' \"$@\"\n"
                  % (count, real))
        # every instruction address of the text, in 200 stacks
        lo = min(a for a, _ in self.funcs.values())
        hi = max(a + n for a, n in self.funcs.values())
        addrs = list(range(lo, hi, 4))
        s = self.a("_start")
        raw = "".join("%s;0x%x;0x%x %d\n" % (s, addrs[i % len(addrs)],
                                             addrs[(7 * i) % len(addrs)], i + 1)
                      for i in range(200))
        with open(self.raw, "w") as f:
            f.write(raw)
        out = os.path.join(self.tmp, "out.folded")
        r = enrich("--elf", self.elf, "-i", self.raw, "-o", out,
                   "--addr2line-bin", wrapper)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(count) as f:
            self.assertEqual(f.read(), "run\n")
        with open(out) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines, sorted(lines, key=sort_key))
        self.assertEqual(sum(int(l.rsplit(" ", 1)[1]) for l in lines),
                         sum(range(1, 201)))
        # the same through the default tool, on stdin/stdout
        r2 = enrich("--elf", self.elf, stdin=raw)
        self.assertEqual(r2.stdout.splitlines(), lines)
        # nothing to resolve: no process at all
        os.unlink(count)
        r = enrich("--elf", self.elf, "--addr2line-bin", wrapper,
                   stdin="%s 0\n" % s)
        self.assertEqual((r.returncode, r.stdout), (0, ""))
        self.assertFalse(os.path.exists(count))

    def test_output_file_replaced_whole(self):
        out = os.path.join(self.tmp, "replace.folded")
        with open(out, "w") as f:
            f.write("old content 1\n")
        os.chmod(out, 0o640)
        with open(self.raw, "w") as f:
            f.write("%s 3\n" % self.a("_start"))
        r = enrich("--elf", self.elf, "-i", self.raw, "-o", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, "")
        with open(out) as f:
            self.assertEqual(f.read(), "_start 3\n")
        self.assertEqual(stat.S_IMODE(os.stat(out).st_mode), 0o640)
        # an error leaves the old file alone, and no temporary behind
        with open(self.raw, "w") as f:
            f.write("0x10 x\n")
        r = enrich("--elf", self.elf, "-i", self.raw, "-o", out)
        self.assertEqual(r.returncode, EX_DATAERR)
        with open(out) as f:
            self.assertEqual(f.read(), "_start 3\n")
        self.assertEqual([n for n in os.listdir(self.tmp)
                          if n.startswith(".replace")], [])

    # ------------------------------------------------------------- errors

    def assertError(self, r, status, *words):
        self.assertEqual(r.returncode, status, r.stderr)
        self.assertEqual(r.stdout, "")
        self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
        self.assertTrue(r.stderr.startswith("error: "), r.stderr)
        for w in words:
            self.assertIn(w, r.stderr)

    def test_missing_tool(self):
        r = enrich("--elf", self.elf, "--addr2line-bin", "/nonexistent",
                   stdin="%s 1\n" % self.a("_start"))
        self.assertError(r, EX_NOTOOL, "/nonexistent", "llvm",
                         "binutils-riscv64-unknown-elf")
        r = enrich("--elf", self.elf, "--addr2line-bin", "no-such-addr2line",
                   stdin="%s 1\n" % self.a("_start"))
        self.assertError(r, EX_NOTOOL, "no-such-addr2line")
        # no tool anywhere on PATH
        empty = os.path.join(self.tmp, "emptybin")
        os.makedirs(empty, exist_ok=True)
        env = dict(os.environ, PATH=empty)
        r = enrich("--elf", self.elf, stdin="%s 1\n" % self.a("_start"),
                   env=env)
        self.assertError(r, EX_NOTOOL, "llvm", "binutils-riscv64-unknown-elf")

    def test_bad_lines(self):
        s = self.a("_start")
        cases = [
            ("%s 1\n%s\n" % (s, s), 2, "count"),                  # no count
            ("%s 1\n\n%s;main 4\n" % (s, s), 3, "'main'"),         # a name
            ("%s x\n" % s, 1, "'x'"),                              # count
            ("%s -1\n" % s, 1, "'-1'"),
            ("%s;;%s 1\n" % (s, s), 1, "''"),                     # empty frame
            ("0x 1\n", 1, "'0x'"),
            ("10074 1\n", 1, "'10074'"),                          # no 0x
            ("%s@ 1\n" % s, 1, "@"),                              # no pc
            ("%s@%s@%s 1\n" % (s, s, s), 1, "@"),                 # two
            ("@%s 1\n" % s, 1, "@"),                              # no target
            ("%s;[ecall:X]@%s 1\n" % (s, s), 1, "ecall"),
            (" 5\n", 1, "no frames"),
        ]
        for raw, lineno, word in cases:
            with self.subTest(raw=raw):
                r = enrich("--elf", self.elf, stdin=raw)
                self.assertError(r, EX_DATAERR, "error: line %d: " % lineno,
                                 word)

    def test_missing_files(self):
        missing = os.path.join(self.tmp, "nope.elf")
        r = enrich("--elf", missing, stdin="0x10 1\n")
        self.assertError(r, EX_NOINPUT, missing)
        r = enrich("--elf", self.elf, "-i", missing)
        self.assertError(r, EX_NOINPUT, missing)
        notelf = os.path.join(self.tmp, "guest.c")
        r = enrich("--elf", notelf, stdin="0x10 1\n")
        self.assertError(r, EX_DATAERR, "not an ELF")

    def test_help_explains_every_flag(self):
        r = enrich("--help")
        self.assertEqual(r.returncode, 0)
        for flag in ("--elf", "-i", "-o", "--lines", "--addr2line-bin",
                     "--no-inline"):
            self.assertIn(flag, r.stdout)
        r = enrich()  # --elf is required
        self.assertError(r, 64, "--elf")

    # ------------------------------------------- canned addr2line output

    def fake_tool(self, name, body):
        """An addr2line stand-in: for each address line on stdin it prints
        body(addr) with `{a}` the address."""
        path = os.path.join(self.tmp, name)
        write_exe(path, "#!%s\nimport sys\nBODY = %r\n"
                  "for line in sys.stdin:\n"
                  "    a = int(line, 16)\n"
                  "    sys.stdout.write(BODY[a] if a in BODY else "
                  "'0x%%x\\n??\\n??:0\\n' %% a)\n"
                  % (sys.executable, body))
        return path

    def test_parses_gnu_and_llvm_styles(self):
        # On the ELF without symbols, so the names are the canned ones.
        o, l, z = (self.funcs[n][0] for n in ("outer", "leaf", "Zeta"))
        # GNU: addresses padded, discriminators; a name holding `;`, a
        # function name that looks like the next address, C++ and Rust
        # names.
        gnu = {
            o: "0x%08x\nin;ner\n/src/dir/g.c:12 (discriminator 3)\n"
               "ns::outer<int>(int) const\n/src/g.c:40\n" % o,
            l: "0x%08x\n0x%x\n/src/g.c:7\n" % (l, z),
            z: "0x%08x\nr::zeta::h0123456789abcdef\n??:?\n" % z,
        }
        # llvm-symbolizer's LLVM style: blank line after each block,
        # line:column.
        llvm = {
            o: "0x%x\nin;ner\n/src/dir/g.c:12:5\n"
               "ns::outer<int>(int) const\n/src/g.c:40:1\n\n" % o,
            l: "0x%x\n0x%x\n/src/g.c:7:9\n\n" % (l, z),
            z: "0x%x\nr::zeta::h0123456789abcdef\n??:0:0\n\n" % z,
        }
        raw = "0x%x;0x%x@0x%x 1\n0x%x;0x%x@0x%x 2\n0x%x@0x%x 4\n" % (z, o, o, z, l, l, o, o)
        want_plain = textwrap.dedent("""\
            ns::outer<int>;in:ner 4
            r::zeta;0x%x 2
            r::zeta;ns::outer<int>;in:ner 1
            """ % z)
        want_lines = textwrap.dedent("""\
            ns::outer<int>;in:ner:12 4
            r::zeta;0x%x:7 2
            r::zeta;ns::outer<int>;in:ner:12 1
            """ % z)
        for style, body in (("gnu", gnu), ("llvm", llvm)):
            tool = self.fake_tool("fake-" + style, body)
            with self.subTest(style=style):
                run_fake = lambda *f: self.enrich_text(
                    raw, "--addr2line-bin", tool, *f, elf=self.nosym)
                self.assertEqual(run_fake(), want_plain)
                self.assertEqual(run_fake("--lines"), want_lines)
                self.assertEqual(run_fake("--no-inline"),
                                 "ns::outer<int> 4\nr::zeta;0x%x 2\n"
                                 "r::zeta;ns::outer<int> 1\n" % z)

    def test_broken_tool_output(self):
        o = self.funcs["outer"][0]
        for name, body in (("fake-wrongaddr", {o: "0x%x\nf\ng.c:1\n" % (o + 4)}),
                           ("fake-noloc", {o: "0x%x\nf\n" % o})):
            tool = self.fake_tool(name, body)
            with self.subTest(name=name):
                r = enrich("--elf", self.elf, "--addr2line-bin", tool,
                           stdin="0x%x 1\n" % o)
                self.assertError(r, 70, "addr2line output")
        failing = os.path.join(self.tmp, "fake-fails")
        write_exe(failing, "#!/bin/sh\necho 'boom: bad file' >&2\nexit 1\n")
        r = enrich("--elf", self.elf, "--addr2line-bin", failing,
                   stdin="0x%x 1\n" % o)
        self.assertError(r, 70, "boom: bad file")


@unittest.skipUnless(tool_available(GXX) and tool_available(CXXFILT),
                     "needs riscv64-unknown-elf-g++ and c++filt")
class CxxGuest(unittest.TestCase):
    """C++ frames are named as `c++filt -p` prints the symbol, with every
    tool."""

    def test_cxx_names_match_cxxfilt_p(self):
        with tempfile.TemporaryDirectory(prefix="enrich-cxx-") as tmp:
            src, elf = os.path.join(tmp, "g.cc"), os.path.join(tmp, "g.elf")
            with open(src, "w") as f:
                f.write(GUEST_CXX)
            r = run([GXX] + CFLAGS + ["-fno-exceptions", src, "-o", elf])
            self.assertEqual(r.returncode, 0, r.stderr)
            funcs = nm_functions(elf)
            funcs = {n: v for n, v in funcs.items() if v[1] > 0}
            names = sorted(funcs)
            self.assertTrue(any(n.startswith("_Z") for n in names), names)
            plain = run([CXXFILT, "-p"] + names).stdout.splitlines()
            want = {}
            for n, p in zip(names, plain):
                want[funcs[n][0]] = p.replace(";", ":")
            raw = "".join("0x%x %d\n" % (a, i + 1)
                          for i, a in enumerate(sorted(want)))
            expect = sorted(("%s %d" % (want[a], i + 1)
                             for i, a in enumerate(sorted(want))), key=sort_key)
            for tool in ("llvm-addr2line", A2L):
                with self.subTest(tool=tool):
                    if not tool_available(tool):
                        self.skipTest(f"{tool} is not installed")
                    r = enrich("--elf", elf, "--addr2line-bin", tool,
                               "--no-inline", stdin=raw)
                    self.assertEqual(r.returncode, 0, r.stderr)
                    self.assertEqual(r.stdout.splitlines(), expect)


class NameCleanup(unittest.TestCase):
    """The name rules on their own (the script imported as a module)."""

    @classmethod
    def setUpClass(cls):
        sys.dont_write_bytecode = True  # no __pycache__ in scripts/
        spec = importlib.util.spec_from_file_location("enrich_flamegraph",
                                                      ENRICH)
        cls.mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(cls.mod)

    def test_cxx_and_rust(self):
        cases = {
            "main": "main",
            "a;b;c": "a:b:c",
            "ns::S::get() const": "ns::S::get",
            "int ns::tf<int>(int)": "ns::tf<int>",
            "unsigned long const& std::min<unsigned long>(unsigned long "
            "const&, unsigned long const&)": "std::min<unsigned long>",
            "ns::S::operator()(int) const": "ns::S::operator()",
            "operator()": "operator()",
            "ns::S::operator int() const": "ns::S::operator int",
            "A::operator void (*)(int)() const": "A::operator void (*)(int)",
            "ns::S::operator<(ns::S const&) const": "ns::S::operator<",
            "A::operator new(unsigned long)": "A::operator new",
            "ns::S::f() &&": "ns::S::f",
            "(anonymous namespace)::anon(int)": "(anonymous namespace)::anon",
            "tagged[abi:cxx11]()": "tagged[abi:cxx11]",
            "outerf(int)::{lambda(int)#1}::operator()(int) const":
                "outerf(int)::{lambda(int)#1}::operator()",
            "void (*getfp<int>(int))(int)": "getfp<int>",
            "decltype (g({parm#1})) f<int>(int)": "f<int>",
            "foo(int) [clone .isra.0] [clone .cold]": "foo",
            "ns::S::get() const (.isra.0)": "ns::S::get",  # llvm's clone
            "int ns::tf<int>(int) (.constprop.0.isra.0)": "ns::tf<int>",
            "non-virtual thunk to D::f()": "non-virtual thunk to D::f()",
            "std::function<int (int)>::operator()(int) const":
                "std::function<int (int)>::operator()",
            "r::foo::hca5b613debe4f57e": "r::foo",
            "<u32>::wrapping_mul": "<u32>::wrapping_mul",
        }
        for name, want in cases.items():
            with self.subTest(name=name):
                self.assertEqual(self.mod.clean_name(name), want)


def main():
    missing = [t for t in (GCC, NM, A2L) if not tool_available(t)]
    if missing:
        ctest_status.skip("not installed: " + ", ".join(missing))
    ctest_status.main()


if __name__ == "__main__":
    main()
