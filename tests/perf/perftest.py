"""perftest: what the `cli perf fold` tests share.

- `cli(...)` runs the built cli (path from $CLI or argv[1]);
- `prog_elf(...)` writes a small x86-64 ELF executable with functions at
  known addresses (text at vaddr 0x401000, file offset 0x1000, so that
  addresses need perf's PT_LOAD adjustment);
- `KALLSYMS` is a small kallsyms text for kernel frames (--kallsyms);
- `PerfFilesTest` is a test case class with a temporary directory holding
  that kallsyms file, and `write_file` to put test inputs there;
- `perf_script_collapse(...)` is the reference: `perf script` on the same
  file, folded by `cli perf collapse` (None when perf is not installed).
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from dataclasses import dataclass

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "integration"))

from elfgen import (EM_X86_64, STB_GLOBAL, STB_LOCAL, STB_WEAK, STT_FUNC,  # noqa: E402
                    Segment, Symbol, build_elf)

CLI = os.environ.get("CLI")
EXIT_DATAERR, EXIT_NOINPUT = 65, 66
TIMEOUT = 120

TEXT_VADDR, TEXT_OFFSET, TEXT_SIZE = 0x401000, 0x1000, 0x3000
KERNEL = 0xFFFFFFFF81000000
KALLSYMS = "\n".join([
    f"{KERNEL:016x} T _text",
    f"{KERNEL:016x} T _stext",
    f"{KERNEL + 0x100:016x} T entry_SYSCALL_64",
    f"{KERNEL + 0x200:016x} t do_syscall_64",
    f"{KERNEL + 0x300:016x} T ksys_write",
    f"{KERNEL + 0x400:016x} W vfs_write",
    f"{KERNEL + 0x500:016x} T _etext",
]) + "\n"


@dataclass
class Result:
    code: int
    stdout: str
    stderr: str

    @property
    def errors(self):
        return [line for line in self.stderr.splitlines() if line.startswith("error:")]

    @property
    def warnings(self):
        return [line for line in self.stderr.splitlines() if line.startswith("warning:")]

    def describe(self):
        return f"exit {self.code}\nstdout:\n{self.stdout}\nstderr:\n{self.stderr}"


def setup_cli():
    """Takes the cli path from argv[1] when it is one (before unittest sees argv)."""
    global CLI
    if len(sys.argv) > 1 and os.path.isfile(sys.argv[1]) and os.access(sys.argv[1], os.X_OK):
        CLI = sys.argv.pop(1)
    if not CLI:
        sys.exit("usage: CLI=build/cli/cli python3 " + sys.argv[0])


def run(argv, stdin=None, env=None):
    p = subprocess.run(argv, input=stdin, capture_output=True, timeout=TIMEOUT, env=env)
    return Result(p.returncode, p.stdout.decode(errors="replace"),
                  p.stderr.decode(errors="replace"))


def cli(*args, env=None):
    return run([CLI, *map(str, args)], env=env)


def fold(data, *args, kallsyms=None, env=None):
    extra = ["--kallsyms", kallsyms] if kallsyms else []
    return cli("perf", "fold", data, *extra, *args, env=env)


def prog_elf(path, functions):
    """functions: [(name, vaddr, size, bind)]; writes the ELF to path."""
    syms = [Symbol(n, v, s, STT_FUNC, b) for n, v, s, b in functions]
    elf = build_elf([Segment(TEXT_VADDR, bytes(TEXT_SIZE), offset=TEXT_OFFSET)],
                    entry=TEXT_VADDR, xlen=64, machine=EM_X86_64, symbols=syms)
    with open(path, "wb") as f:
        f.write(elf.replace(b".seg0\0", b".text\0"))


def have_perf():
    return shutil.which("perf") is not None


STACKCOLLAPSE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                             "third_party", "FlameGraph", "stackcollapse-perf.pl")
# the flags cli perf collapse shares with stackcollapse-perf.pl
PERL_FLAGS = {"--pid", "--tid", "--addrs", "--kernel", "--jit", "--all"}


def as_the_script_folds(folded):
    """Our folded lines with the script's documented departures applied
    (docs/PERF.md): frames starting with `(` dropped (it drops
    `(anonymous namespace)::f`), the stacks that then match merged."""
    weights = {}
    for line in folded.splitlines():
        stack, weight = line.rsplit(" ", 1)
        stack = ";".join(f for f in stack.split(";") if not f.startswith("("))
        weights[stack] = weights.get(stack, 0) + int(weight)
    return [f"{stack} {weight}" for stack, weight in sorted(weights.items())]


# Stand-ins for what the script would cut or split, restored in its output.
_MASKS = {"(": "\x01", ")": "\x02", "operator->": "operator\x03"}
_OPERATOR = re.compile(r"operator[<>=!+\-*/%^&|~,\[\]]+")
_ANON = "(anonymous namespace)"


def _mask_nested(sym):
    """`sym` with the parentheses inside <>, {}, [] and () groups before its
    argument list masked, and `operator->` too: the script then cuts and
    splits it where docs/PERF.md's rule does (the first `(` outside every
    group; `->` chains but not `operator->`)."""
    out, depth, i = [], 0, 0
    while i < len(sym):
        word_start = i == 0 or not (sym[i - 1].isalnum() or sym[i - 1] == "_")
        m = _OPERATOR.match(sym, i) if word_start else None
        if m:
            out.append(m.group().replace("->", "\x03"))
            i = m.end()
            continue
        c = sym[i]
        if c == "(" and depth == 0:
            if not sym.startswith(_ANON, i):
                out.append(sym[i:])
                break
            out.append(_ANON)
            i += len(_ANON)
            continue
        inside = depth > 0
        if c in "<{[(":
            depth += 1
        elif c in ">}])":
            depth = max(0, depth - 1)
        out.append(_MASKS[c] if inside and c in "()" else c)
        i += 1
    return "".join(out)


_RUST_ESCAPES = {"$SP$": "@", "$BP$": "*", "$RF$": "&", "$LT$": "<", "$GT$": ">", "$LP$": "(",
                 "$RP$": ")", "$C$": ",", "$u7e$": "~", "$u20$": " ", "$u27$": "'", "$u3d$": "=",
                 "$u5b$": "[", "$u5d$": "]", "$u7b$": "{", "$u7d$": "}", "$u3b$": ";",
                 "$u2b$": "+", "$u21$": "!", "$u22$": '"'}


def rust_legacy_tidy(sym):
    """docs/PERF.md's tidy of a legacy Rust name perf left half demangled
    (inferno's): `::h<16 hex>` dropped, `..` made `::`, `$LT$` `<` ...; the
    first unknown escape ends the decoding."""
    m = re.match(r"^(.*?)(\+0x[0-9a-f]+)?$", sym)
    name, offset = m.group(1), m.group(2) or ""
    if not re.search(r"h[0-9a-fA-F]{16}$", name):
        return sym
    rest = name[:-17]
    rest = rest[:-2] if rest.endswith("::") else rest
    rest = rest[1:] if rest.startswith("_$") else rest
    out = []
    while rest:
        if rest.startswith(".."):
            out.append("::")
            rest = rest[2:]
        elif rest[0] != "$":
            out.append(rest[0])
            rest = rest[1:]
        else:
            escape = next((e for e in _RUST_ESCAPES if rest.startswith(e)), None)
            if escape is None:
                out.append(rest)
                break
            out.append(_RUST_ESCAPES[escape])
            rest = rest[len(escape):]
    return "".join(out) + offset


def _mask_frame_line(line):
    """A frame line `ADDR SYM (MODULE)` with its SYM masked (_mask_nested)."""
    m = re.match(rb"^(\s+[0-9a-fA-F]+ )(.*)$", line)
    if not m or not line.endswith(b")"):
        return line
    head, rest = m.group(1), m.group(2).decode(errors="surrogateescape")
    depth = 0
    for i in range(len(rest) - 1, -1, -1):  # the module: the group that ends the line
        depth += {")": 1, "(": -1}.get(rest[i], 0)
        if depth == 0:
            break
    sym, module = rest[:i], rest[i:]
    if not sym.endswith(" "):
        return line  # no " (MODULE)" after a symbol: not a frame line the script reads
    sym = _mask_nested(rust_legacy_tidy(sym.rstrip()))
    return head + (sym + " " + module.lstrip()).encode(errors="surrogateescape")


def as_our_names_for_the_script(text):
    """perf script `text` for stackcollapse-perf.pl with docs/PERF.md's
    name rules that depart from its own applied (legacy Rust names tidied)
    or masked in (templates and lambdas whole, `operator->` not split);
    unmask_script_output restores the masked characters."""
    return b"\n".join(_mask_frame_line(line) for line in text.split(b"\n"))


def unmask_script_output(text):
    for plain, masked in _MASKS.items():
        text = text.replace(masked, plain)
    return text


def check_against_perl(text, flags, folded):
    """The collapse of perf script's `text` is also stackcollapse-perf.pl's
    but for the departures docs/PERF.md lists that real recordings hit
    (anonymous namespaces, thread 0), so cli perf collapse is not its own
    reference.
    Raises a skip without perl, where the flags are the script's."""
    if not set(flags) <= PERL_FLAGS:
        return
    if shutil.which("perl") is None:
        raise unittest.SkipTest("no perl to run stackcollapse-perf.pl")
    ref = subprocess.run(["perl", STACKCOLLAPSE, *flags], input=as_our_names_for_the_script(text),
                         capture_output=True, timeout=TIMEOUT)
    if ref.returncode != 0:
        raise AssertionError(f"stackcollapse-perf.pl failed: {ref.stderr.decode()}")
    mine = as_the_script_folds(folded)
    theirs = re.sub(r"(?m)^([^;\n]*)-\?/0([; ])", r"\1-0/0\2",  # tid 0: the script's "?"
                    unmask_script_output(ref.stdout.decode(errors="replace"))).splitlines()
    if mine != theirs:
        diff = sorted(set(mine) ^ set(theirs))
        raise AssertionError(f"cli perf collapse and stackcollapse-perf.pl differ in {len(diff)} "
                             "lines, e.g.\n" + "\n".join(line[:200] for line in diff[:6]))


def perf_script_collapse(data, *flags, kallsyms=None, script_args=(), perl_check=True,
                         env=None, timeout=TIMEOUT):
    """perf script | cli perf collapse FLAGS, checked against perf script |
    stackcollapse-perf.pl FLAGS (perl_check: False for recordings made to
    hit the departures docs/PERF.md lists); None without perf. `env`: perf
    script's environment (HOME holds a recording's build-id cache)."""
    if not have_perf():
        return None
    argv = ["perf", "script", "-i", data, *script_args]
    if kallsyms:
        argv += ["--kallsyms", kallsyms]
    script = subprocess.run(argv, capture_output=True, timeout=timeout, env=env)
    if script.returncode != 0:
        raise AssertionError(f"perf script failed on {data}: {script.stderr.decode()}")
    result = run([CLI, "perf", "collapse", *flags], stdin=script.stdout)
    if result.code == 0 and perl_check:
        check_against_perl(script.stdout, flags, result.stdout)
    return result


def folded_lines(text):
    return [line for line in text.splitlines() if line]


class PerfFilesTest(unittest.TestCase):
    """A temporary directory per class (cls.dir) with KALLSYMS in cls.kallsyms."""

    @classmethod
    def setUpClass(cls):
        # not "perf-...": perf reads any file named /tmp/perf-* as a JIT symbol map
        cls.tmp = tempfile.TemporaryDirectory(prefix="zkprof-" + cls.__name__.lower() + "-")
        cls.dir = cls.tmp.name
        cls.kallsyms = os.path.join(cls.dir, "kallsyms")
        with open(cls.kallsyms, "w") as f:
            f.write(KALLSYMS)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def write_file(self, name, data):
        """Writes bytes to `name` in the class's directory; returns the path."""
        path = os.path.join(self.dir, name)
        with open(path, "wb") as f:
            f.write(data)
        return path
