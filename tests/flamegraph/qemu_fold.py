#!/usr/bin/env python3
"""Reference guest flamegraph, built from qemu's instruction trace.

An implementation of docs/CONTRACT.md#2-guest-profiles that shares no
code with `cli`: it runs the guest under qemu-user,

    qemu-riscv32|64 -singlestep -d exec,nochain -D LOG guest.elf < INPUT

takes the executed pc sequence from the `Trace` lines of the log, decodes
the jal/jalr instructions from the raw instruction words that
`riscv64-unknown-elf-objdump -d` lists, takes the functions from
`riscv64-unknown-elf-readelf -sW` / `-SW`, replays the stack rules (docs/CONTRACT.md#how-the-stack-moves)
instruction by instruction and prints the folded stacks.

With inline frames (the default when the ELF has .debug_info; --no-inline
turns them off), as docs/CONTRACT.md ("Inline frames") says: every
instruction counts below its frame's function in the chain of inlined
subroutines `llvm-addr2line --inlines` (one process for every pc) names
for its pc, each frame above the leaf in the chain at the pc of the call
that made the frame above it (a tail-called frame: the call of the frame
it replaced), each only where the pc lies in the frame's function. The
names are llvm-addr2line's own (JSON output, no -C: the linkage name, else
the DWARF name), demangled as function frames are ("Names are demangled as
function frames are (C++ without parameters, Rust without its hash, `;`
written `:`)": c++filt -p, and -p -i for Rust, below); unnamed levels are
left out. Nothing of scripts/ is used.

The raw output never expands; where the named one has inline frames (or
--lines) its frames carry pcs as docs/FORMATS.md "Raw folded stacks" says:
the leaf `0x<target>@0x<pc>` with the pc that ran where that pc lies in the
frame's function; a frame below the leaf `0x<target>@0x<call pc>` where
the call that made the frame above it lies in the frame's function and has
a named inline chain; else `0x<target>`. The call pc written is the call's
own; cli may write another call pc with the same chain, so compare raw
files after same_chain_pcs() (with the `call_rep` of fold()'s result).

With --lines (cli --lines, docs/CONTRACT.md "Source lines"), each pc's leaf
frame (the innermost of the above, the function frame when no inline
frame holds the pc) becomes `name:LINE`, LINE the pc's own line as the same
llvm-addr2line process gives it (the first location it prints for the pc),
where it knows one and the pc lies in the frame's function.

Usage:
  qemu_fold.py GUEST.elf [INPUT] [--raw] [--no-inline] [--lines] [-o OUT]
               [--raw-output RAWOUT]

Prints the named folded output on stdout (frames as `0x<hex>` target
addresses with --raw). -o / --raw-output write the named / raw output to
files instead (both from one qemu run). --count prints the number of
instructions qemu retired on stderr as `instructions: N`.
Exit status: 0 ok, 1 error (the guest died of a signal under qemu, a tool
failed, ...), 77 qemu-riscvXX is not installed. QEMU_FOLD_TIMEOUT (seconds,
default 600) bounds the qemu run. Also usable as a module: fold().

The guest's stdout is discarded (or written to --guest-stdout FILE); fd 3
(public output) is opened on /dev/null.
"""

import argparse
import bisect
import json
import os
import re
import shutil
import subprocess
import sys
import threading

SKIP = 77
TIMEOUT = float(os.environ.get("QEMU_FOLD_TIMEOUT", 600))  # seconds per qemu run
LINK = (1, 5)  # x1 (ra) and x5 (t0)
TOOL_PREFIX = os.environ.get("RISCV_TOOL_PREFIX", "riscv64-unknown-elf-")

# Transfer kinds.
CALL, JUMP, RETURN, RETURN_CALL = range(4)


def tool(name):
    path = shutil.which(TOOL_PREFIX + name) or shutil.which(name)
    if not path:
        sys.exit(f"error: neither {TOOL_PREFIX}{name} nor {name} is installed")
    return path


def run_tool(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit(f"error: {' '.join(argv)} failed: {p.stderr.decode(errors='replace')}")
    return p.stdout.decode("utf-8", errors="surrogateescape")


# ---------------------------------------------------------------- ELF facts

def elf_header(elf):
    """(xlen, entry) from readelf -h."""
    out = run_tool([tool("readelf"), "-hW", elf])
    cls = re.search(r"^\s*Class:\s*ELF(32|64)\s*$", out, re.M)
    entry = re.search(r"^\s*Entry point address:\s*0x([0-9a-fA-F]+)\s*$", out, re.M)
    if not cls or not entry:
        sys.exit(f"error: {elf}: cannot read the ELF class / entry point")
    return int(cls.group(1)), int(entry.group(1), 16)


def has_debug_info(elf):
    """Whether the ELF has a .debug_info section (DWARF)."""
    out = run_tool([tool("readelf"), "-SW", elf])
    return re.search(r"\s\.z?debug_info\s", out) is not None


def exec_sections(elf):
    """Indexes of the sections with SHF_EXECINSTR (flag X in readelf -SW)."""
    out = run_tool([tool("readelf"), "-SW", elf])
    result = set()
    for line in out.splitlines():
        m = re.match(r"\s*\[\s*(\d+)\]\s+(.*)$", line)
        if not m or int(m.group(1)) == 0:
            continue
        tok = m.group(2).split()
        # Name Type Addr Off Size ES [Flg] Lk Inf Al: Flg may be empty.
        if len(tok) == 10 and "X" in tok[6]:
            result.add(int(m.group(1)))
    return result


SYM_RE = re.compile(
    r"^\s*\d+:\s+([0-9a-fA-F]+)\s+(0x[0-9a-fA-F]+|\d+)\s+(\S+)\s+(\S+)\s+(\S+)"
    r"(?:\s+\[[^\]]*\])?\s+(\S+)(?: (.*))?$")


def parse_size(s):
    return int(s, 16) if s.startswith("0x") else int(s)


def functions(elf):
    """Sorted list of (start, end, name) following docs/CONTRACT.md#functions-and-names:
    every STT_FUNC symbol and every global or weak STT_NOTYPE symbol in an
    executable section; [value, value+size), a zero-size one ending where
    the next function starts; aliases at one address resolved by
    STT_FUNC > STT_NOTYPE, GLOBAL > WEAK > LOCAL, sized > zero-size, then
    the bytewise smallest name. The chosen symbol also gives the size."""
    xsec = exec_sections(elf)
    out = run_tool([tool("readelf"), "-sW", elf])
    by_addr = {}
    in_symtab = False
    for line in out.splitlines():
        if line.startswith("Symbol table"):
            # .symtab holds everything .dynsym would (static executables).
            in_symtab = "'.symtab'" in line
            continue
        if not in_symtab:
            continue
        m = SYM_RE.match(line)
        if not m:
            continue
        value, size, typ, bind, _vis, ndx, name = m.groups()
        name = name or ""
        if ndx == "UND":
            continue
        if typ == "FUNC":
            pass
        elif typ == "NOTYPE" and bind in ("GLOBAL", "WEAK") and ndx.isdigit() \
                and int(ndx) in xsec:
            pass
        else:
            continue
        key = (0 if typ == "FUNC" else 1,
               {"GLOBAL": 0, "WEAK": 1}.get(bind, 2),
               0 if parse_size(size) else 1,
               name.encode("utf-8", errors="surrogateescape"))
        addr = int(value, 16)
        cand = (key, parse_size(size), name)
        if addr not in by_addr or cand[0] < by_addr[addr][0]:
            by_addr[addr] = cand
    starts = sorted(by_addr)
    funcs = []
    for i, a in enumerate(starts):
        _key, size, name = by_addr[a]
        if size:
            end = a + size
        else:
            # "a zero-size one ends where the next function starts" (none
            # after it: it extends to the end of the address space)
            end = starts[i + 1] if i + 1 < len(starts) else 1 << 64
        funcs.append((a, end, name))
    return funcs


class FuncIndex:
    """address -> index of the function that holds it (or None). Where
    functions overlap (e.g. libgcc's __riscv_save_12 / _10 / _4 entry
    points, sized to a common end), the one with the greatest start."""

    def __init__(self, funcs):
        self.funcs = funcs
        self.starts = [f[0] for f in funcs]
        self.max_end = []  # max end of funcs[0..i]
        m = 0
        for f in funcs:
            m = max(m, f[1])
            self.max_end.append(m)
        self.cache = {}

    def of(self, addr):
        r = self.cache.get(addr, -1)
        if r != -1:
            return r
        r = None
        i = bisect.bisect_right(self.starts, addr) - 1
        while i >= 0 and self.max_end[i] > addr:
            if addr < self.funcs[i][1]:
                r = i
                break
            i -= 1
        self.cache[addr] = r
        return r

    def holds(self, i, addr):
        """Does function i (None: no function) cover addr?"""
        return i is not None and self.funcs[i][0] <= addr < self.funcs[i][1]


def decode_transfers(elf, xlen):
    """{pc: (kind, length)} for every jal/jalr (and compressed c.j, c.jal,
    c.jr, c.jalr) listed by objdump -d, decoded from the raw instruction
    word objdump prints (not from its mnemonic: aliases don't matter)."""
    out = run_tool([tool("objdump"), "-d", "-z", elf])
    table = {}
    line_re = re.compile(r"^\s*([0-9a-f]+):\t([0-9a-f]{4}(?:[0-9a-f]{4})?)\s")
    for line in out.splitlines():
        m = line_re.match(line)
        if not m:
            continue
        pc = int(m.group(1), 16)
        word = int(m.group(2), 16)
        if len(m.group(2)) == 8 and (word & 3) == 3:
            op = word & 0x7f
            rd = (word >> 7) & 31
            rs1 = (word >> 15) & 31
            if op == 0x6f:  # jal
                table[pc] = (CALL if rd in LINK else JUMP, 4)
            elif op == 0x67 and ((word >> 12) & 7) == 0:  # jalr
                table[pc] = (jalr_kind(rd, rs1), 4)
        elif len(m.group(2)) == 4 and (word & 3) != 3:
            q, f3 = word & 3, (word >> 13) & 7
            if q == 1 and f3 == 5:  # c.j
                table[pc] = (JUMP, 2)
            elif q == 1 and f3 == 1 and xlen == 32:  # c.jal (RV32 only)
                table[pc] = (CALL, 2)
            elif q == 2 and f3 == 4 and ((word >> 2) & 31) == 0:
                rs1 = (word >> 7) & 31
                if rs1 != 0:
                    if (word >> 12) & 1:  # c.jalr: jalr x1, 0(rs1)
                        table[pc] = (jalr_kind(1, rs1), 2)
                    else:  # c.jr: jalr x0, 0(rs1)
                        table[pc] = (jalr_kind(0, rs1), 2)
    return table


def jalr_kind(rd, rs1):
    if rd in LINK:
        if rs1 not in LINK or rs1 == rd:
            return CALL
        return RETURN_CALL
    return RETURN if rs1 in LINK else JUMP


# ---------------------------------------------------------------- replay

class Profile:
    """Call-stack trie plus the current stack, moved by docs/CONTRACT.md#how-the-stack-moves."""

    def __init__(self, funcs, entry, inline=False):
        self.fi = FuncIndex(funcs)
        self.inline = inline  # per pc: nodes per call site, counts per (node, pc)
        self.target = []   # node -> frame target address
        self.parent = []   # node -> parent node (-1: root)
        self.site = []     # node -> pc of the call that made it (inline only; None: root)
        self.count = []    # node -> instructions
        self.pc_count = {}  # (node, pc) -> instructions (inline only)
        self.kids = {}     # (parent, target, site) -> node
        root = self.node(-1, entry, None)
        self.stack = [root]      # nodes, root first
        self.ras = [None]        # return address of each frame

    def node(self, parent, target, site):
        k = (parent, target, site if self.inline else None)
        n = self.kids.get(k)
        if n is None:
            n = len(self.target)
            self.kids[k] = n
            self.target.append(target)
            self.parent.append(parent)
            self.site.append(k[2])
            self.count.append(0)
        return n

    def call(self, t, ra, pc):
        self.stack.append(self.node(self.stack[-1], t, pc))
        self.ras.append(ra)

    def jump(self, t):
        top = self.stack[-1]
        fc = self.fi.of(self.target[top])
        if fc is None:
            if self.fi.of(t) is None:
                return  # neither the current frame nor t in a function
        elif self.fi.holds(fc, t):
            return  # t lies inside the function of the current frame
        # tail call (also from a function to code that no symbol covers):
        # the top frame is replaced and keeps its return address (and call site)
        self.stack[-1] = self.node(self.parent[top], t, self.site[top])

    def ret(self, t):
        ras, stack = self.ras, self.stack
        n = len(stack)
        if n > 1 and ras[-1] == t:
            stack.pop()
            ras.pop()
            return
        for i in range(n - 2, 0, -1):
            if ras[i] == t:
                del stack[i:], ras[i:]
                return
        fi = self.fi
        for i in range(n - 2, -1, -1):
            if fi.holds(fi.of(self.target[stack[i]]), t):
                del stack[i + 1:], ras[i + 1:]
                return
        self.jump(t)

    def transfer(self, kind, pc, length, t):
        if kind == CALL:
            self.call(t, pc + length, pc)
        elif kind == JUMP:
            self.jump(t)
        elif kind == RETURN:
            self.ret(t)
        else:  # RETURN, then CALL
            if len(self.stack) > 1:
                self.stack.pop()
                self.ras.pop()
            self.call(t, pc + length, pc)

    # -- output

    def folded(self, frame_name):
        """Folded text: frame_name(target) gives each frame's text."""
        memo = {}
        merged = {}
        for n, c in enumerate(self.count):
            if not c:
                continue
            path = []
            m = n
            while m != -1:
                path.append(self.target[m])
                m = self.parent[m]
            key = ";".join(frame_name(t, memo) for t in reversed(path))
            merged[key] = merged.get(key, 0) + c
        return folded_lines(merged)

    def folded_raw_pcs(self, named_chain):
        """Raw folded text with pcs (docs/FORMATS.md "Raw folded stacks"):
        the leaf `0x<target>@0x<pc>` for each pc that ran in the frame's
        function, a frame below it `0x<target>@0x<call pc>` where the call
        that made the frame above it lies in the frame's function and
        named_chain(call pc) (its inline chain has a named level), else
        `0x<target>` alone."""
        fi = self.fi

        def frame(n, pc):
            t = self.target[n]
            if pc is not None and fi.holds(fi.of(t), pc):
                return f"0x{t:x}@0x{pc:x}"
            return f"0x{t:x}"

        below = {}  # node -> its frames below the leaf, each with its child's call pc

        def frames_below(n):
            if n not in below:
                p = self.parent[n]
                if p == -1:
                    below[n] = ""
                else:
                    s = self.site[n]
                    text = frame(p, s if s is not None and named_chain(s) else None)
                    below[n] = frames_below(p) + text + ";"
            return below[n]

        merged = {}
        for (n, pc), c in self.pc_count.items():
            key = frames_below(n) + frame(n, pc)
            merged[key] = merged.get(key, 0) + c
        return folded_lines(merged)

    def chain_pcs(self):
        """Every pc whose inline chain the inline output needs: each
        counted pc and each call site, where it lies in its frame's
        function."""
        fi = self.fi
        pcs = {pc for (n, pc) in self.pc_count if fi.holds(fi.of(self.target[n]), pc)}
        for n, s in enumerate(self.site):
            p = self.parent[n]
            if s is not None and p != -1 and fi.holds(fi.of(self.target[p]), s):
                pcs.add(s)
        return pcs

    def folded_inline(self, frame_name, chain, line=None):
        """Folded text with inline frames: chain(pc) gives the frame
        names below the function frame at pc, outermost first; line(pc),
        when given, the pc's line or None (the leaf becomes `name:LINE`)."""
        fi = self.fi
        memo = {}
        prefix = {-1: []}  # node -> its frames, the chain at its child's site not included

        def frames_of(n):
            if n not in prefix:
                p = self.parent[n]
                above = list(frames_of(p))
                s = self.site[n]
                if p != -1 and s is not None and fi.holds(fi.of(self.target[p]), s):
                    above += chain(s)
                prefix[n] = above + [frame_name(self.target[n], memo)]
            return prefix[n]

        merged = {}
        for (n, pc), c in self.pc_count.items():
            frames = frames_of(n)
            if fi.holds(fi.of(self.target[n]), pc):
                frames = frames + chain(pc)
                number = line(pc) if line else None
                if number:
                    frames = frames[:-1] + [f"{frames[-1]}:{number}"]
            key = ";".join(frames)
            merged[key] = merged.get(key, 0) + c
        return folded_lines(merged)


def folded_lines(merged):
    """{stack: count} as sorted folded lines (bytes)."""
    lines = [f"{k} {c}\n".encode("utf-8", errors="surrogateescape")
             for k, c in merged.items() if c]
    lines.sort()
    return b"".join(lines)


def find_llvm_addr2line():
    """llvm-addr2line, else the highest llvm-addr2line-NN on PATH, or None."""
    path = shutil.which("llvm-addr2line")
    if path:
        return path
    best = None
    for d in os.environ.get("PATH", os.defpath).split(os.pathsep):
        try:
            entries = os.listdir(d or ".")
        except OSError:
            continue
        for e in entries:
            m = re.fullmatch(r"llvm-addr2line-(\d+)", e)
            full = os.path.join(d or ".", e)
            if m and os.access(full, os.X_OK) and (best is None or int(m.group(1)) > best[0]):
                best = (int(m.group(1)), full)
    return best[1] if best else None


def unnamed(name):
    return name in ("", "??")


def inline_chains(elf, pcs):
    """({pc: [frame names below the function frame, outermost first]},
    {pc: its own line or None}) from ONE llvm-addr2line process:
    `--output-style=JSON --functions --inlines --addresses`, one JSON object
    per pc whose "Symbol" list holds the inline chain innermost first, the
    function itself last. No -C: the names are the linkage names (the DWARF
    name where there is none), demangled by demangle_all() as function frames
    are, `;` written `:`; unnamed levels left out. The line is the first
    entry's ("the first location llvm-addr2line --inlines prints"), None
    where it is 0 or has no file."""
    llvm = find_llvm_addr2line()
    if not llvm:
        raise QemuMissing("llvm-addr2line is not installed (Debian package llvm)")
    pcs = sorted(pcs)
    if not pcs:
        return {}, {}
    argv = [llvm, "--output-style=JSON", "--functions", "--inlines", "--addresses",
            "-e", elf]
    p = subprocess.run(argv, input="".join(f"0x{pc:x}\n" for pc in pcs).encode(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit(f"error: {' '.join(argv)} failed: {p.stderr.decode(errors='replace')}")
    records = [json.loads(l) for l in
               p.stdout.decode("utf-8", errors="surrogateescape").splitlines() if l.strip()]
    if len(records) != len(pcs):
        sys.exit(f"error: llvm-addr2line answered {len(records)} of {len(pcs)} addresses")
    raw_chains, lines = {}, {}
    for pc, rec in zip(pcs, records):
        if int(rec["Address"], 16) != pc or not rec["Symbol"]:
            sys.exit(f"error: llvm-addr2line's answer for 0x{pc:x} is {rec!r}")
        symbols = rec["Symbol"]  # innermost first; the last is the function itself
        raw_chains[pc] = [s["FunctionName"] for s in reversed(symbols[:-1])
                          if not unnamed(s["FunctionName"])]
        first = symbols[0]
        lines[pc] = first["Line"] if first["Line"] and not unnamed(first["FileName"]) \
            else None
    names = demangle_all(sorted({n for c in raw_chains.values() for n in c}))
    return ({pc: [names[n].replace(";", ":") for n in c] for pc, c in raw_chains.items()},
            lines)


def same_chain_pcs(raw, call_rep):
    """Raw folded text (bytes) with the pc of every frame below the leaf
    that call_rep maps replaced by call_rep's (fold()'s `call_rep`: the
    smallest call pc of the run with the same named inline chain); stacks
    that become the same merged, lines sorted as folded_lines writes them.
    docs/FORMATS.md "Raw folded stacks" lets such a frame carry "one pc
    with the inline chain of that call": this makes that choice one. Leaf
    pcs, and pcs call_rep does not know (no call with a named chain that the
    reference saw), stay, so a wrong one still differs."""
    merged = {}
    for line in raw.decode("utf-8", errors="surrogateescape").splitlines():
        if not line:
            continue
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")
        for i, f in enumerate(frames[:-1]):
            target, at, pc = f.partition("@")
            if at and pc.startswith("0x"):
                rep = call_rep.get(int(pc, 16))
                if rep is not None:
                    frames[i] = f"{target}@0x{rep:x}"
        key = ";".join(frames)
        merged[key] = merged.get(key, 0) + int(count)
    return folded_lines(merged)


def demangle_all(names):
    """{name: demangled}: C++ names as `c++filt -p` prints them, Rust
    legacy and v0 names as libiberty prints them without implementation
    details (`c++filt -p -i`: legacy without its ::h<hash>, v0 without
    crate disambiguators). Names that do not look mangled stay."""
    legacy_rust = re.compile(r"^_ZN.*17h[0-9a-f]{16}E$")
    cxx = [n for n in names if n.startswith("_Z") and not legacy_rust.match(n)]
    rust = [n for n in names if n.startswith("_R") or legacy_rust.match(n)]
    result = {n: n for n in names}
    for group, opts in ((cxx, ["-p"]), (rust, ["-p", "-i"])):
        if not group:
            continue
        filt = tool("c++filt")
        for i in range(0, len(group), 200):
            chunk = group[i:i + 200]
            out = run_tool([filt] + opts + ["--"] + chunk).split("\n")
            for n, d in zip(chunk, out):
                result[n] = d
    return result


# ---------------------------------------------------------------- qemu

TRACE_RE = re.compile(rb"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/", re.M)


def replay_qemu(qemu, elf, input_path, prof, transfers, guest_stdout, limit=None):
    """Run elf under qemu, replaying each logged pc into prof on the fly
    (the log goes through a pipe: no disk space needed). Returns (qemu exit
    status, instructions folded, instructions run, qemu stderr)."""
    pub = os.open(os.devnull, os.O_WRONLY)
    log_r, log_w = os.pipe()
    with open(input_path, "rb") as stdin, open(guest_stdout, "wb") as stdout:
        p = subprocess.Popen(
            [qemu, "-singlestep", "-d", "exec,nochain", "-D", f"/dev/fd/{log_w}", elf],
            stdin=stdin, stdout=stdout, stderr=subprocess.PIPE,
            pass_fds=(3, log_w), preexec_fn=lambda: os.dup2(pub, 3))
    os.close(log_w)
    os.close(pub)
    err = []
    t_err = threading.Thread(target=lambda: err.append(p.stderr.read()))
    t_err.start()
    timed_out = threading.Event()
    timer = threading.Timer(TIMEOUT, lambda: (timed_out.set(), p.kill()))
    timer.start()
    try:
        total = replay_log(log_r, prof, transfers, limit)
    finally:
        timer.cancel()
        code = p.wait()
        t_err.join()
    if timed_out.is_set():
        sys.exit(f"error: qemu ran longer than {TIMEOUT:.0f} s (QEMU_FOLD_TIMEOUT)")
    return code, sum(prof.count), total, b"".join(err).decode(errors="replace")


def replay_log(log_r, prof, transfers, limit=None):
    """Replay the pcs of the Trace lines read from fd log_r into prof (only
    the first `limit` ones if given; the rest of the log is drained)."""
    left = -1 if limit is None else limit
    total = 0
    count = prof.count
    stack = prof.stack
    transfer = prof.transfer
    cache = {}
    pc_count = prof.pc_count if prof.inline else None
    pending = None  # (kind, pc, len) of the transfer before this pc
    tail = b""
    with os.fdopen(log_r, "rb", buffering=0) as f:
        while True:
            chunk = f.read(1 << 22)
            if not chunk:
                break
            buf = tail + chunk
            cut = buf.rfind(b"\n") + 1
            tail = buf[cut:]
            pcs = TRACE_RE.findall(buf, 0, cut)
            total += len(pcs)
            if left == 0:
                continue
            if 0 < left <= len(pcs):
                del pcs[left:]
                left = 0
            elif left > 0:
                left -= len(pcs)
            for pch in pcs:
                e = cache.get(pch)
                if e is None:
                    pc = int(pch, 16)
                    e = (pc, transfers.get(pc))
                    cache[pch] = e
                if pending is not None:
                    transfer(pending[0], pending[1], pending[2], e[0])
                    pending = None
                count[stack[-1]] += 1
                if pc_count is not None:
                    k = (stack[-1], e[0])
                    pc_count[k] = pc_count.get(k, 0) + 1
                tr = e[1]
                if tr is not None:
                    pending = (tr[0], e[0], tr[1])
    if tail.startswith(b"Trace"):
        sys.exit("error: qemu's log ends with an incomplete Trace line")
    return total


class QemuMissing(Exception):
    pass


class Result:
    def __init__(self, named, raw, instructions, exit_code, stderr, total, call_rep):
        self.named = named                # folded output, bytes
        self.raw = raw                    # --raw folded output (with pcs: per-pc mode), bytes
        self.call_rep = call_rep          # {call pc: same_chain_pcs's pc for it}
        self.instructions = instructions  # instructions qemu logged
        self.exit_code = exit_code        # qemu's exit status (<0: signal)
        self.stderr = stderr              # qemu's stderr
        self.total = total                # instructions the guest ran in all


def fold(elf, input_path=os.devnull, guest_stdout=os.devnull, max_instructions=None,
         inline=True, lines=False):
    """Run elf under qemu and fold its trace (only its first
    max_instructions instructions if given, as `cli execute --max-cycles`),
    with inline frames when `inline` and the ELF has DWARF, and leaf lines
    (`name:LINE`) when `lines` and the ELF has DWARF.
    Raises QemuMissing when qemu-riscvXX (or llvm-addr2line, for inline
    frames) is not installed."""
    xlen, entry = elf_header(elf)
    qemu = shutil.which(f"qemu-riscv{xlen}")
    if not qemu:
        raise QemuMissing(f"qemu-riscv{xlen} is not installed (Debian package qemu-user)")
    funcs = functions(elf)
    transfers = decode_transfers(elf, xlen)
    prof = Profile(funcs, entry, (inline or lines) and has_debug_info(elf))
    code, n, total, err = replay_qemu(qemu, elf, input_path, prof, transfers, guest_stdout,
                               max_instructions)

    def raw_name(t, memo):
        return f"0x{t:x}"

    used = {prof.fi.of(t) for t in prof.target} - {None}
    names = demangle_all(sorted({funcs[i][2] for i in used}))

    def named(t, memo):
        s = memo.get(t)
        if s is None:
            i = prof.fi.of(t)
            s = f"0x{t:x}" if i is None else names[funcs[i][2]].replace(";", ":")
            memo[t] = s
        return s

    call_rep = {}
    if prof.inline:
        chains, pc_lines = inline_chains(elf, prof.chain_pcs())
        named_text = prof.folded_inline(named, (lambda pc: chains[pc]) if inline else
                                        (lambda pc: []),
                                        pc_lines.get if lines else None)
        # The calls with a named chain, grouped by chain. FORMATS.md says
        # "another call pc of the same function with the same chain", but
        # cli takes any call pc of the run with the same chain, also one
        # of another function (atomics-rv32: __umoddi3's call of
        # __udivsi3 written with __udivdi3's, both inside an inlined
        # __udivmoddi4). The chain is what the pc stands for, so that is
        # what is checked.
        groups = {}
        for pc in {s for s in prof.site if s is not None and chains.get(s)}:
            groups.setdefault(tuple(chains[pc]), []).append(pc)
        for pcs in groups.values():
            for pc in pcs:
                call_rep[pc] = min(pcs)
        raw_text = prof.folded_raw_pcs(lambda pc: bool(chains.get(pc)))
    else:
        named_text = prof.folded(named)
        raw_text = prof.folded(raw_name)
    return Result(named_text, raw_text, n, code, err, total, call_rep)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("elf")
    ap.add_argument("input", nargs="?", default=os.devnull,
                    help="private input (the guest's stdin; default empty)")
    ap.add_argument("--raw", action="store_true",
                    help="frames as 0x<hex> target addresses")
    ap.add_argument("--no-inline", action="store_true",
                    help="function frames only (no inline frames)")
    ap.add_argument("--lines", action="store_true",
                    help="leaf frames `name:LINE` (cli --lines)")
    ap.add_argument("-o", "--output", help="write the named output here")
    ap.add_argument("--raw-output", help="write the raw output here")
    ap.add_argument("--count", action="store_true",
                    help="print 'instructions: N' on stderr")
    ap.add_argument("--guest-stdout", default=os.devnull)
    ap.add_argument("--max-instructions", type=int,
                    help="fold only the first N instructions (cli --max-cycles N)")
    args = ap.parse_args()

    try:
        r = fold(args.elf, args.input, args.guest_stdout, args.max_instructions,
                 not args.no_inline, args.lines)
    except QemuMissing as e:
        print(f"SKIP: {e}", file=sys.stderr)
        return SKIP
    if r.exit_code < 0:
        print(f"error: the guest died under qemu (signal {-r.exit_code}): "
              f"{r.stderr.strip()}", file=sys.stderr)
        return 1
    if args.count:
        print(f"instructions: {r.instructions}", file=sys.stderr)
    if args.output:
        with open(args.output, "wb") as f:
            f.write(r.named)
    if args.raw_output:
        with open(args.raw_output, "wb") as f:
            f.write(r.raw)
    if not args.output and not args.raw_output:
        sys.stdout.buffer.write(r.raw if args.raw else r.named)
    return 0


if __name__ == "__main__":
    sys.exit(main())
