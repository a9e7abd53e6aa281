#!/usr/bin/env python3
"""symtab/inline_chain.c against llvm-addr2line, on every instruction
address of the text of some -O2 -g guests (docs/ARCHITECTURE.md, "Inline
frames"): for each address, the frames outermost first, with and without
source lines, must equal byte for byte what ONE `llvm-addr2line --inlines
--functions --demangle --addresses` process says, turned into frames by the
rule of scripts/enrich_flamegraph.py (docs/FORMATS.md, "Raw folded
stacks"): the function frame is named from the ELF symbol table where its
symbol is not mangled (so GCC clones keep their `.constprop.0` and aliases
the name cli gives them), an address no function symbol holds is `0x<hex>`
alone, unnamed inline levels are left out, `;` becomes `:`; a frame's line
is llvm's location for it, the full path, without column or discriminator,
left out where the line is 0 or unknown.

Env: QUERY (tests/inline/inline_query), GUEST_DIR, ENRICH (the script, whose
parsing and naming helpers are the reference), GUESTS (space-separated
guest ELF names; default: every .elf in GUEST_DIR, which must include
the inline guests). Exits 77 when llvm-addr2line is not installed (1 under
CI=true).
"""
import bisect
import importlib.util
import os
import shutil
import struct
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

QUERY = os.environ.get("QUERY", "build/tests/inline/inline_query")
GUEST_DIR = os.environ.get("GUEST_DIR", "build/guests")
ENRICH = os.environ.get("ENRICH", "scripts/enrich_flamegraph.py")
GUESTS = os.environ.get("GUESTS", "").split()
SHF_EXECINSTR = 0x4


def load_enrich():
    spec = importlib.util.spec_from_file_location("enrich_flamegraph", ENRICH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


enrich = load_enrich()


def text_addresses(data):
    """Every 4-byte slot of the ELF's executable sections (no RVC)."""
    assert data[:4] == b"\x7fELF" and data[5] == 1, "a little-endian ELF"
    is64 = data[4] == 2
    if is64:
        shoff, = struct.unpack_from("<Q", data, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", data, 0x3a)
        shdr = struct.Struct("<IIQQQQIIQQ")
    else:
        shoff, = struct.unpack_from("<I", data, 0x20)
        shentsize, shnum = struct.unpack_from("<HH", data, 0x2e)
        shdr = struct.Struct("<IIIIIIIIII")
    addrs = []
    for i in range(shnum):
        _, sh_type, flags, addr, _, size = shdr.unpack_from(data, shoff + i * shentsize)[:6]
        if sh_type == 1 and flags & SHF_EXECINSTR:  # SHT_PROGBITS
            addrs.extend(range(addr, addr + size - 3, 4))
    return sorted(set(addrs))


def reference_frames(addr, chain, symbol, lines):
    """The frames llvm-addr2line's chain (innermost first) gives, outermost first."""
    if symbol is None:  # no function symbol holds it
        chain = [("??", chain[-1][1])]
    elif enrich.MANGLED.match(symbol):
        symbol = None  # named by llvm -C, cut as c++filt -p
    out = []
    for depth, (func, loc) in enumerate(reversed(chain)):
        if depth == 0 and symbol is not None:
            text = symbol.replace(";", ":")
        elif func in ("??", ""):
            if out:
                continue
            text = "0x%x" % addr
        else:
            text = enrich.clean_name(func)
        if lines and loc is not None:
            text += " (%s:%d)" % loc
        out.append(text)
    return "0x%x %s" % (addr, ";".join(out))


def llvm_chains(elf, addrs):
    tool = shutil.which("llvm-addr2line") or enrich.versioned_llvm_addr2line()
    stdin = "".join("0x%x\n" % a for a in addrs)
    run = subprocess.run([tool, "--inlines", "--functions", "--demangle", "--addresses",
                          "-e", elf], input=stdin, capture_output=True, text=True, check=True)
    return enrich.parse_addr2line(run.stdout, addrs)


def ours(elf, addrs, lines):
    cmd = [QUERY] + (["--lines"] if lines else []) + [elf]
    run = subprocess.run(cmd, input="".join("0x%x\n" % a for a in addrs),
                         capture_output=True, text=True)
    return run


class InlineChainsEqualLlvm(unittest.TestCase):
    def compare(self, elf):
        with open(elf, "rb") as f:
            data = f.read()
        addrs = text_addresses(data)
        self.assertGreater(len(addrs), 100)
        functions = enrich.load_function_table(data)
        chains = llvm_chains(elf, addrs)
        inlined = sum(1 for a in addrs if len(chains[a]) > 1)
        for lines in (False, True):
            want = [reference_frames(a, chains[a], functions.lookup(a), lines) for a in addrs]
            run = ours(elf, addrs, lines)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertEqual(run.stderr, "", "no DWARF warning on a good ELF")
            got = run.stdout.splitlines()
            self.assertEqual(len(got), len(want))
            bad = [(w, g) for w, g in zip(want, got) if w != g]
            self.assertEqual(bad[:5], [], "%d of %d addresses differ (lines=%s)"
                             % (len(bad), len(addrs), lines))
        print("%s: %d addresses equal llvm-addr2line (%d inside inlined code)"
              % (os.path.basename(elf), len(addrs), inlined), file=sys.stderr)
        self.compare_named(elf, functions, addrs, chains)
        return inlined

    def compare_named(self, elf, functions, addrs, chains):
        """inline_chains_any_named over each function symbol's range: whether
        llvm-addr2line names an inline level at some address of it, taken
        every 2 bytes as the tracer asks (C code starts at any halfword: the
        halfwords between the 4-byte slots are asked of llvm too)."""
        ranges = [(f[0], f[1]) for f in functions.funcs or [] if f[1] > f[0]]
        chains = dict(chains)
        chains.update(llvm_chains(elf, sorted({a + 2 for a in addrs} - set(addrs))))
        named = sorted(a for a, chain in chains.items()
                       if any(func not in ("??", "") for func, _ in chain[:-1]))
        want = ["0x%x 0x%x %d" % (lo, hi, bisect.bisect_left(named, lo) < bisect.bisect_left(named, hi))
                for lo, hi in ranges]
        run = subprocess.run([QUERY, "--named", elf],
                             input="".join("%x %x\n" % r for r in ranges),
                             capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stderr)
        got = run.stdout.splitlines()
        bad = [(w, g) for w, g in zip(want, got) if w != g]
        self.assertEqual((len(got), bad[:5]), (len(want), []), "functions whose answer differs")
        print("%s: %d functions, %d with named inline levels, as llvm-addr2line says"
              % (os.path.basename(elf), len(want), sum(w.endswith(" 1") for w in want)),
              file=sys.stderr)

    def test_guests(self):
        names = GUESTS or sorted(f for f in os.listdir(GUEST_DIR) if f.endswith(".elf"))
        self.assertTrue({"inline-rv32.elf", "inline-rv64.elf"} <= set(names), names)
        for name in names:
            with self.subTest(guest=name):
                inlined = self.compare(os.path.join(GUEST_DIR, name))
                if name.startswith("inline-"):
                    self.assertGreater(inlined, 20, "the inline guest has inlined code")


if __name__ == "__main__":
    if not (shutil.which("llvm-addr2line") or enrich.versioned_llvm_addr2line()):
        ctest_status.skip("llvm-addr2line not installed (Debian package llvm)")
    ctest_status.main()
