#!/usr/bin/env python3
"""Turn a raw folded flamegraph (frames are 0x<hex> addresses) into a named one.

`cli execute guest.elf --flamegraph-raw out.raw.folded` writes stacks whose
frames are the call-target addresses, each with the pc it was at where
the guest has DWARF: `0x10074@0x10090;0x100a0@0x100b8 1234` (the pc of the
call that made the next frame, the leaf's the pc that ran;
docs/FORMATS.md#raw-folded-stacks). This script resolves every distinct
address with ONE addr2line process for the whole file (`addr2line -f -i -C
-a -e GUEST.elf`, addresses fed on stdin), names each frame by its target's
function (from the ELF symbol table by the rules of
docs/CONTRACT.md#functions-and-names where its symbol is not mangled, so
that it agrees with `cli --flamegraph`), expands it into the inline chain
at its pc (outermost first, docs/CONTRACT.md "Inline frames"), with
--lines names the leaf `name:LINE`, and writes the folded format of
docs/FORMATS.md#folded-stacks: frames joined by `;`, one space, the decimal
count; identical stacks merged, zero counts dropped, lines sorted bytewise.
The result is `cli --flamegraph`'s file (with --lines / --no-inline,
`cli --lines` / `--no-inline`'s), byte for byte.

Python 3 standard library only.
"""

import argparse
import bisect
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

# Exit statuses (sysexits.h, as `cli` uses them).
EX_OK = 0
EX_NOTOOL = 2  # no addr2line tool found / it cannot be started
EX_USAGE = 64
EX_DATAERR = 65  # bad raw input line, or the ELF is not an ELF file
EX_NOINPUT = 66  # ELF or input file missing / unreadable
EX_SOFTWARE = 70  # addr2line failed or printed something unparseable
EX_CANTCREAT = 73  # the output file cannot be written

INSTALL_HINT = ("install llvm-addr2line (Debian/Ubuntu package `llvm`) or "
                "riscv64-unknown-elf-addr2line (package "
                "`binutils-riscv64-unknown-elf`), or name a tool with "
                "--addr2line-bin")

HEX_FRAME = re.compile(r"(0[xX][0-9a-fA-F]+)(?:@(0[xX][0-9a-fA-F]+))?\Z")
DECIMAL = re.compile(r"[0-9]+\Z")
ADDR_LINE = re.compile(r"0x[0-9a-fA-F]+\Z")
# A zkVM call's leaf frame, which raw output names itself (docs/FORMATS.md#raw-folded-stacks).
CALL_FRAME = re.compile(r"\[ecall:[^;\[\]]+\]\Z")
DISCRIMINATOR = re.compile(r" \(discriminator [0-9]+\)\Z")
RUST_HASH = re.compile(r"::h[0-9a-f]{16}\Z")
# Rust's legacy mangling escapes in a path element, left by llvm's demangler
# (`_$LT$core..ops..Range$LT$T$GT$$u20$as$u20$...`): what rustc-demangle
# makes of them.
RUST_ESCAPE = re.compile(r"\$(SP|BP|RF|LT|GT|LP|RP|C|u[0-9a-f]{2})\$|\.\.")
RUST_ESCAPES = {"SP": "@", "BP": "*", "RF": "&", "LT": "<", "GT": ">", "LP": "(", "RP": ")",
                "C": ","}
# GCC clones: c++filt prints ` [clone .isra.0]`, llvm ` (.isra.0)`.
CLONE_SUFFIX = re.compile(r"(?: \[clone [^\]]*\]| \(\.[^()]*\))+\Z")
CXX_QUALIFIER = re.compile(r"(?:\s+(?:const|volatile|restrict|noexcept)|"
                           r"(?<!operator)(?<!operator&)\s*&&?)\Z")
OPERATOR_WORD = re.compile(r"(?<![A-Za-z0-9_$])operator(?![A-Za-z0-9_$])")
ENDS_WITH_OPERATOR = re.compile(r"(?<![A-Za-z0-9_$])operator\Z")
# Itanium C++ (and Rust legacy) `_Z...`, Rust v0 `_R...`: such symbols are
# named by addr2line -C, plain ones straight from the symbol table.
MANGLED = re.compile(r"_{1,2}Z|_R[0-9A-Z_]")


class Failure(Exception):
    """An error that ends the run: one `error:` line and an exit status."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


# ---------------------------------------------------------------- input

def parse_raw(data):
    """Parse raw folded text into a list of (tuple_of_frames, count).

    Empty lines are skipped. Anything else must be `0xA;0xB;... COUNT`,
    each frame a target `0xT` with its pc `0xT@0xP` or without, a tuple
    (T, P or None), or a zkVM call's leaf `[ecall:NAME]` (kept as the
    string it is)."""
    stacks = []
    for lineno, line in enumerate(data.split("\n"), 1):
        if line.endswith("\r"):
            line = line[:-1]
        if line == "":
            continue
        stack, sep, count = line.rpartition(" ")
        if not sep:
            raise Failure(EX_DATAERR, "line %d: no count (expected "
                          "`0x<hex>;0x<hex>... COUNT`): %r" % (lineno, line))
        if not DECIMAL.match(count):
            raise Failure(EX_DATAERR, "line %d: count %r is not a decimal "
                          "number" % (lineno, count))
        if stack == "":
            raise Failure(EX_DATAERR, "line %d: no frames before the count"
                          % lineno)
        addrs = []
        for frame in stack.split(";"):
            if CALL_FRAME.match(frame):
                addrs.append(frame)  # a zkVM call's leaf, already named
                continue
            m = HEX_FRAME.match(frame)
            if not m:
                raise Failure(EX_DATAERR, "line %d: frame %r is not an "
                              "address `0x<hex>` or `0x<hex>@0x<hex>` (is "
                              "the input already named, not from "
                              "--flamegraph-raw?)" % (lineno, frame))
            target = int(m.group(1), 16)
            pc = int(m.group(2), 16) if m.group(2) else None
            if target >= 1 << 64 or (pc is not None and pc >= 1 << 64):
                raise Failure(EX_DATAERR, "line %d: frame %r does not fit "
                              "in 64 bits" % (lineno, frame))
            addrs.append((target, pc))
        stacks.append((tuple(addrs), int(count)))
    return stacks


# ---------------------------------------------------------------- ELF symbols

class FunctionTable:
    """The functions of the ELF symbol table as docs/CONTRACT.md#functions-and-names defines them:
    every STT_FUNC symbol, and every global or weak STT_NOTYPE symbol in an
    executable section; [value, value+size), a zero-size one ending where
    the next function starts (or its section ends); among symbols sharing
    an address the preferred name. The same rules as symtab/symtab.c,
    so enrich and `cli --flamegraph` agree on which targets are functions.
    `funcs` is None when the ELF has no symbol table: then addr2line is
    trusted alone."""

    def __init__(self, funcs):
        self.funcs = funcs  # [(start, end, name)] by start, or None
        if funcs is not None:
            self.starts = [f[0] for f in funcs]
            self.max_end = []
            m = 0
            for f in funcs:
                m = max(m, f[1])
                self.max_end.append(m)

    def lookup(self, addr):
        """The name of the function holding addr, or None."""
        k = bisect.bisect_right(self.starts, addr) - 1
        while k >= 0 and self.max_end[k] > addr:
            if self.funcs[k][1] > addr:
                return self.funcs[k][2]
            k -= 1
        return None


def load_function_table(data):
    """FunctionTable from the bytes of an ELF file."""
    try:
        return FunctionTable(_read_function_ranges(data))
    except (struct.error, IndexError, ValueError):
        return FunctionTable(None)


def _read_function_ranges(data):
    if data[:4] != b"\x7fELF" or data[4] not in (1, 2) or data[5] not in (1, 2):
        return None
    is64 = data[4] == 2
    end = "<" if data[5] == 1 else ">"
    if is64:
        shoff, = struct.unpack_from(end + "Q", data, 0x28)
        shentsize, shnum, _ = struct.unpack_from(end + "HHH", data, 0x3a)
        shdr = struct.Struct(end + "IIQQQQIIQQ")
        sym = struct.Struct(end + "IBBHQQ")
    else:
        shoff, = struct.unpack_from(end + "I", data, 0x20)
        shentsize, shnum, _ = struct.unpack_from(end + "HHH", data, 0x2e)
        shdr = struct.Struct(end + "IIIIIIIIII")
        sym = struct.Struct(end + "IIIBBH")
    if shoff == 0 or shentsize < shdr.size:
        return None
    if shnum == 0:  # extended numbering: the count is in section 0's size
        shnum = shdr.unpack_from(data, shoff)[5]
    sections = []
    for i in range(shnum):
        f = shdr.unpack_from(data, shoff + i * shentsize)
        # (type, flags, addr, offset, size, link, entsize)
        sections.append((f[1], f[2], f[3], f[4], f[5], f[6], f[9]))
    symtab = None
    for sec in sections:
        if sec[0] == 2 or (sec[0] == 11 and symtab is None):  # SYMTAB/DYNSYM
            symtab = sec
    if symtab is None or symtab[6] < sym.size:
        return None
    strtab = sections[symtab[5]]
    candidates = []
    for i in range(symtab[4] // symtab[6]):
        f = sym.unpack_from(data, symtab[3] + i * symtab[6])
        if is64:
            name, info, _, shndx, value, size = f
        else:
            name, value, size, info, _, shndx = f
        stype, bind = info & 0xF, info >> 4
        if shndx == 0 or shndx >= 0xFF00 or shndx >= len(sections):
            continue
        sec = sections[shndx]
        if not (stype == 2 or (stype == 0 and bind in (1, 2)
                               and sec[1] & 0x4)):  # FUNC / NOTYPE+EXECINSTR
            continue
        if name == 0 or data[strtab[3] + name] == 0:
            continue  # unnamed
        start = strtab[3] + name
        stop = data.index(b"\0", start)
        text = data[start:stop].decode("utf-8", "surrogateescape")
        # Order among aliases (docs/CONTRACT.md#functions-and-names): STT_FUNC before STT_NOTYPE, global
        # before weak before local, sized before zero-size, bytewise name.
        rank = (0 if stype == 2 else 3) + {1: 0, 2: 1}.get(bind, 2)
        candidates.append((value, rank, 0 if size else 1, data[start:stop],
                           size, sec[2] + sec[4], text))
    candidates.sort()
    groups = []  # (start, size, section_end, name) per distinct start
    i = 0
    while i < len(candidates):
        j = i
        while j < len(candidates) and candidates[j][0] == candidates[i][0]:
            j += 1
        first = candidates[i]
        size = first[4] or max(c[4] for c in candidates[i:j])
        groups.append((first[0], size, first[5], first[6]))
        i = j
    funcs = []
    for k, (start, size, section_end, name) in enumerate(groups):
        if size:
            stop = start + size
        else:
            stop = groups[k + 1][0] if k + 1 < len(groups) else section_end
            stop = min(stop, section_end)
            if stop <= start:
                stop = start + 1
        funcs.append((start, stop, name))
    return funcs


# ---------------------------------------------------------------- tool

def versioned_llvm_addr2line():
    """The highest `llvm-addr2line-NN` on PATH, or None."""
    best = None
    pattern = re.compile(r"llvm-addr2line-([0-9]+)\Z")
    for directory in os.environ.get("PATH", os.defpath).split(os.pathsep):
        try:
            names = os.listdir(directory or ".")
        except OSError:
            continue
        for name in names:
            m = pattern.match(name)
            if not m:
                continue
            path = os.path.join(directory or ".", name)
            if not (os.path.isfile(path) and os.access(path, os.X_OK)):
                continue
            version = int(m.group(1))
            if best is None or version > best[0]:
                best = (version, path)
    return best[1] if best else None


def find_tool(requested):
    """The addr2line to run: --addr2line-bin, else the first found of
    llvm-addr2line, llvm-addr2line-NN, riscv64-unknown-elf-addr2line,
    addr2line."""
    if requested is not None:
        if os.path.dirname(requested):
            ok = os.path.isfile(requested) and os.access(requested, os.X_OK)
            found = requested if ok else None
        else:
            found = shutil.which(requested)
        if found is None:
            raise Failure(EX_NOTOOL, "addr2line tool %r not found or not "
                          "executable; %s" % (requested, INSTALL_HINT))
        return found
    found = (shutil.which("llvm-addr2line") or versioned_llvm_addr2line()
             or shutil.which("riscv64-unknown-elf-addr2line")
             or shutil.which("addr2line"))
    if found:
        return found
    raise Failure(EX_NOTOOL, "no addr2line tool found on PATH; " + INSTALL_HINT)


def run_addr2line(tool, elf, addrs):
    """Run ONE addr2line process for all addresses; return its stdout text."""
    cmd = [tool, "-f", "-i", "-C", "-a", "-e", elf]
    stdin = "".join("0x%x\n" % a for a in addrs)
    try:
        proc = subprocess.run(cmd, input=stdin.encode("ascii"),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        raise Failure(EX_NOTOOL, "cannot run %s: %s; %s"
                      % (tool, e.strerror or e, INSTALL_HINT))
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise Failure(EX_SOFTWARE, "%s exited with status %d%s"
                      % (tool, proc.returncode,
                         (": " + err[0]) if err else ""))
    return proc.stdout.decode("utf-8", "surrogateescape")


def parse_location(loc, llvm_style):
    """`file:line`, `file:line (discriminator N)` or (LLVM style)
    `file:line:column` -> (file, line) or None when unknown."""
    loc = DISCRIMINATOR.sub("", loc)
    if llvm_style:
        m = re.match(r"(.*):([0-9]+|\?):([0-9]+|\?)\Z", loc)
    else:
        m = re.match(r"(.*):([0-9]+|\?)\Z", loc)
    if not m:
        return None
    path, line = m.group(1), m.group(2)
    if path in ("", "??") or not line.isdigit() or int(line) == 0:
        return None
    return path, int(line)


def parse_addr2line(text, addrs):
    """Split addr2line output into one block per address.

    With `-a` every block starts with the address echoed on its own line
    (GNU pads it to the address width: 0x000100b8; llvm does not: 0x100b8),
    followed by function/location line pairs, innermost inline first.
    llvm's LLVM output style also ends each block with an empty line and
    adds `:column` to locations; empty lines are therefore ignored and the
    style is recognised by them (GNU style has no empty lines: -f always
    prints a function line, `??` at worst). Blocks are delimited by the
    echoed addresses, sent in a known order: a line starts the next block
    only if it stands at a pair boundary after at least one pair and its
    value is the next address we sent. Any other shape is an error, never
    a silent misattribution.

    Returns {address: [(function, location_or_None), ...]} innermost first.
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = [l[:-1] if l.endswith("\r") else l for l in lines]
    llvm_style = any(l == "" for l in lines)
    lines = [l for l in lines if l != ""]

    def is_addr(line, value):
        return ADDR_LINE.match(line) is not None and int(line, 16) == value

    result = {}
    i = 0
    n = len(lines)
    for k, addr in enumerate(addrs):
        if i >= n or not is_addr(lines[i], addr):
            got = lines[i] if i < n else "end of output"
            raise Failure(EX_SOFTWARE, "unexpected addr2line output: "
                          "expected the address line 0x%x, got %r"
                          % (addr, got))
        i += 1
        nxt = addrs[k + 1] if k + 1 < len(addrs) else None
        chain = []
        # The first pair always belongs to this address (-f prints at least
        # one), so even a function named like the next address is safe.
        while i < n and not (chain and nxt is not None and
                             is_addr(lines[i], nxt)):
            if i + 1 >= n:
                raise Failure(EX_SOFTWARE, "unexpected addr2line output: "
                              "function %r for 0x%x has no location line"
                              % (lines[i], addr))
            chain.append((lines[i], parse_location(lines[i + 1], llvm_style)))
            i += 2
        if not chain:
            raise Failure(EX_SOFTWARE, "unexpected addr2line output: nothing "
                          "printed for 0x%x" % addr)
        result[addr] = chain
    if i != n:
        raise Failure(EX_SOFTWARE, "unexpected addr2line output after the "
                      "last address: %r" % lines[i])
    return result


# ---------------------------------------------------------------- names

def _matching_open(s, close_index):
    """Index of the `(` matching the `)` at close_index, or -1."""
    depth = 0
    for j in range(close_index, -1, -1):
        c = s[j]
        if c == ")":
            depth += 1
        elif c == "(":
            depth -= 1
            if depth == 0:
                return j
    return -1


def _drop_return_type(s):
    """Drop a leading return type: everything up to the last space at
    bracket depth 0 that comes before an `operator` keyword."""
    depth = 0
    last_space = -1
    j = 0
    while j < len(s):
        c = s[j]
        if depth == 0 and c == "o" and OPERATOR_WORD.match(s, j):
            break  # the rest (`operator new`, `operator<`...) is the name
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            if c == ">" and j > 0 and s[j - 1] == "-":
                pass  # `->` inside decltype(...)
            else:
                depth = max(0, depth - 1)
        elif c == " " and depth == 0:
            last_space = j
        j += 1
    return s[last_space + 1:] if last_space >= 0 else s


def simplify_cxx(name):
    """A demangled C++ name as `c++filt -p` prints it: no parameter list,
    no return type, no cv/ref qualifiers, no ` [clone .xxx]` suffixes."""
    if name.startswith(("virtual thunk to ", "non-virtual thunk to ",
                        "covariant return thunk to ")):
        return name  # c++filt -p prints special names in full
    s = CLONE_SUFFIX.sub("", name)
    while True:
        t = CXX_QUALIFIER.sub("", s)
        if t == s:
            break
        s = t
    if not s.endswith(")"):
        return name if "(" not in name else s
    start = _matching_open(s, len(s) - 1)
    if start <= 0:
        return name
    prefix = s[:start]
    if s[start:] == "()" and ENDS_WITH_OPERATOR.search(prefix):
        return name  # a bare `operator()` (DWARF name, no parameter list)
    if prefix.endswith(")") and not OPERATOR_WORD.search(prefix):
        # `void (*getfp<int>(int))(int)`: a function returning a pointer to
        # function; the name is inside the declarator parentheses.
        inner_start = _matching_open(prefix, len(prefix) - 1)
        if inner_start >= 0:
            inner = prefix[inner_start + 1:-1].lstrip("*& ")
            return simplify_cxx(inner) if inner else name
    return _drop_return_type(prefix)


def _rust_unescape_element(element):
    if element.startswith("_$"):
        element = element[1:]

    def one(m):
        if m.group(0) == "..":
            return "::"
        code = m.group(1)
        return RUST_ESCAPES.get(code) or chr(int(code[1:], 16))
    return RUST_ESCAPE.sub(one, element)


def rust_legacy_unescape(name):
    """`a::_$LT$b..C$GT$::f` as rustc-demangle prints it: `a::<b::C>::f`."""
    if "$" not in name and ".." not in name:
        return name
    return "::".join(_rust_unescape_element(e) for e in name.split("::"))


def clean_name(name):
    """A frame name as docs/FORMATS.md#raw-folded-stacks writes it."""
    rust = RUST_HASH.sub("", name)  # Rust legacy: llvm keeps the hash
    if rust != name:
        return rust_legacy_unescape(rust).replace(";", ":")
    if "(" in name or "[" in name:
        name = simplify_cxx(name)
    return name.replace(";", ":")


class Namer:
    """Frame names from addr2line's chains (`chains`: {address: [(function,
    location)], innermost first}) and the ELF's functions, by the rules of
    docs/FORMATS.md#raw-folded-stacks."""

    def __init__(self, chains, functions, lines, no_inline):
        self.chains, self.functions = chains, functions
        self.lines, self.no_inline = lines, no_inline
        self.memo = {}

    def function(self, target):
        """The function frame of a target, or None when no function holds
        it. The ELF symbol the alias rules of
        docs/CONTRACT.md#functions-and-names choose names it, so that frames
        agree with `cli --flamegraph` where addr2line picks another alias
        (picolibc's `vfprintf` for `__d_vfprintf`) or a DWARF name for a
        GCC clone (`f` for `f.isra.0`); a mangled one, and every one
        without a symbol table, is addr2line's outermost name."""
        symbol = None
        if self.functions.funcs is not None:
            symbol = self.functions.lookup(target)
            if symbol is None:
                # No function symbol holds it: `0x<hex>` as in
                # docs/FORMATS.md#folded-stacks, whatever llvm-addr2line's
                # nearest-symbol fallback says (it names data objects, and
                # `_end` for everything past the last symbol).
                return None
            if not MANGLED.match(symbol):
                return symbol.replace(";", ":")
        func = self.chains[target][-1][0]
        return None if func in ("??", "") else clean_name(func)

    def frames(self, frame, leaf):
        """The `;`-joined frames one raw frame (target, pc) becomes: its
        function, then (unless --no-inline) the named inline levels at its
        pc, outermost first; with --lines a leaf's last one `name:LINE`."""
        key = (frame, leaf)
        text = self.memo.get(key)
        if text is not None:
            return text
        target, pc = frame
        name = self.function(target)
        if name is None:
            text = "0x%x" % target
        else:
            out = [name]
            chain = self.chains[pc] if pc is not None else []
            if not self.no_inline:
                out += [clean_name(f) for f, _loc in reversed(chain[:-1])
                        if f not in ("??", "")]
            if leaf and self.lines and chain and chain[0][1] is not None:
                out[-1] += ":%d" % chain[0][1][1]
            text = ";".join(out)
        self.memo[key] = text
        return text


# ---------------------------------------------------------------- output

def render(stacks, namer):
    merged = {}
    for frames, count in stacks:
        if count == 0:
            continue
        last = len(frames) - 1
        key = ";".join(f if isinstance(f, str) else namer.frames(f, i == last)
                       for i, f in enumerate(frames))
        merged[key] = merged.get(key, 0) + count
    encoded = sorted((k.encode("utf-8", "surrogateescape"), c)
                     for k, c in merged.items() if c != 0)
    return b"".join(k + b" " + str(c).encode("ascii") + b"\n"
                    for k, c in encoded)


def write_atomically(path, data):
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix="." +
                                   os.path.basename(path) + ".",
                                   suffix=".tmp")
    except OSError as e:
        raise Failure(EX_CANTCREAT, "cannot write %s: %s"
                      % (path, e.strerror or e))
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        try:
            mode = os.stat(path).st_mode & 0o7777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise Failure(EX_CANTCREAT, "cannot write %s: %s"
                      % (path, e.strerror or e))


# ---------------------------------------------------------------- main

class Parser(argparse.ArgumentParser):
    def error(self, message):
        sys.stderr.write("error: %s (see --help)\n" % message)
        sys.exit(EX_USAGE)


def build_parser():
    p = Parser(
        prog="enrich_flamegraph.py",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=(
            "Turn a raw folded flamegraph from `cli execute --flamegraph-raw`"
            "\n(frames are 0x<hex> call-target addresses, 0x<target>@0x<pc>"
            "\nwith the pc they were at) into a named one. All distinct"
            "\naddresses are resolved by ONE addr2line process"
            "\n(`-f -i -C -a -e ELF`); each frame becomes its target's function"
            "\nand the inline chain at its pc, outermost first. Stacks that"
            "\nbecome identical are merged, zero counts dropped, lines sorted"
            "\nbytewise."
            "\n\nThe ELF symbol table decides, by the rules of docs/CONTRACT.md"
            "\n(as `cli --flamegraph` does), which addresses lie"
            "\nin a function, and names the function where its symbol is not"
            "\nmangled, so the output equals `cli --flamegraph`'s (with the same"
            "\n--lines / --no-inline) for C guests. A target no function"
            "\nsymbol covers, or that addr2line cannot name, stays"
            "\n`0x<hex>`. Without a symbol table addr2line alone decides."),
        epilog=(
            "exit status: 0 ok, 2 no addr2line tool, 64 usage error,\n"
            "65 bad input line or ELF not an ELF, 66 ELF or input missing,\n"
            "70 addr2line failed, 73 output cannot be written.\n"
            "Every error is one line on stderr starting `error:`."))
    p.add_argument("--elf", required=True, metavar="GUEST.elf",
                   help="the guest ELF the raw profile was taken from "
                        "(needs debug info for inline frames and --lines)")
    p.add_argument("-i", "--input", metavar="RAW", default="-",
                   help="raw folded input file (default: stdin; `-` too)")
    p.add_argument("-o", "--output", metavar="OUT", default="-",
                   help="named folded output file, written to a temporary "
                        "name and renamed (default: stdout; `-` too)")
    p.add_argument("--lines", action="store_true",
                   help="name each stack's leaf frame `name:LINE`, LINE the "
                        "source line addr2line gives for the leaf's pc (as "
                        "`cli execute --lines`); nothing is appended where "
                        "the line is unknown or the raw file has no pc")
    p.add_argument("--addr2line-bin", metavar="PATH",
                   help="the addr2line to run (a path, or a name looked up "
                        "on PATH); default: the first found of "
                        "llvm-addr2line, llvm-addr2line-NN (highest NN), "
                        "riscv64-unknown-elf-addr2line, addr2line")
    p.add_argument("--no-inline", action="store_true",
                   help="do not expand inlined frames: keep only the "
                        "outermost (real) function of each address")
    return p


def read_input(path):
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as e:
        raise Failure(EX_NOINPUT, "cannot read %s: %s"
                      % (path, e.strerror or e))
    return data.decode("utf-8", "surrogateescape")


def load_elf(path):
    """Check the ELF and return its FunctionTable."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise Failure(EX_NOINPUT, "cannot read ELF %s: %s"
                      % (path, e.strerror or e))
    if data[:4] != b"\x7fELF":
        raise Failure(EX_DATAERR, "%s is not an ELF file" % path)
    return load_function_table(data)


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        functions = load_elf(args.elf)
        stacks = parse_raw(read_input(args.input))
        tool = find_tool(args.addr2line_bin)
        addrs = sorted({a for s, c in stacks if c != 0 for f in s
                        if not isinstance(f, str) for a in f if a is not None})
        chains = {}
        if addrs:
            chains = parse_addr2line(run_addr2line(tool, args.elf, addrs), addrs)
        data = render(stacks, Namer(chains, functions, args.lines, args.no_inline))
        if args.output == "-":
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            write_atomically(args.output, data)
    except Failure as f:
        sys.stderr.write("error: %s\n" % f.message)
        return f.status
    return EX_OK


if __name__ == "__main__":
    sys.exit(main())
