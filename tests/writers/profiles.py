#!/usr/bin/env python3
"""Helpers of the writer tests, independent of zkprof's C code: folded text
parsed and summed, self/inclusive tables computed from it, a pprof
(profile.proto) encoder written from the .proto's field numbers, and
`go tool pprof -raw` output parsed back into folded stacks."""
import gzip
import os
import re
import shutil
import subprocess
import tempfile
import unittest

CLI = os.environ.get("CLI", "build/cli/cli")
GUEST_DIR = os.environ.get("GUEST_DIR", "build/guests")
INPUTS = os.environ.get("GUEST_INPUTS", "guests/inputs")


def parse_folded(text):
    """{stack: count}, identical stacks added, as docs/FORMATS.md says."""
    stacks = {}
    for line in text.splitlines():
        if not line:
            continue
        stack, count = line.rsplit(" ", 1)
        stacks[stack] = stacks.get(stack, 0) + int(count)
    return stacks


def read_folded(path):
    with open(path) as f:
        return parse_folded(f.read())


def add_stacks(*dicts):
    out = {}
    for d in dicts:
        for k, v in d.items():
            out[k] = out.get(k, 0) + v
    return {k: v for k, v in out.items() if v}


def self_inclusive(stacks):
    """Per function: (self, inclusive); inclusive counts a stack once per function."""
    self_, incl = {}, {}
    for stack, count in stacks.items():
        frames = stack.split(";")
        self_[frames[-1]] = self_.get(frames[-1], 0) + count
        for f in set(frames):
            incl[f] = incl.get(f, 0) + count
    return ({k: v for k, v in self_.items() if v}, {k: v for k, v in incl.items() if v})


def ranked(table):
    """Rows largest first, ties by name bytewise, as the report orders them."""
    return sorted(table.items(), key=lambda kv: (-kv[1], kv[0].encode()))


# --- profile.proto, encoded by hand (field numbers from third_party/pprof) ---

def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def field_varint(num, v):
    return varint(num << 3) + varint(v)


def field_bytes(num, data):
    return varint(num << 3 | 2) + varint(len(data)) + data


def packed(num, values):
    return field_bytes(num, b"".join(varint(v) for v in values))


def encode_pprof(weights, stacks, lines=None):
    """weights: [(type, unit)]; stacks: {"a;b;c": [v per weight]};
    lines: {function: (file, line)}. Returns the gzipped message."""
    strings = [""]

    def s(text):
        if text not in strings:
            strings.append(text)
        return strings.index(text)

    lines = lines or {}
    funcs = {}
    msg = bytearray()
    for t, u in weights:
        msg += field_bytes(1, field_varint(1, s(t)) + field_varint(2, s(u)))
    for stack, values in stacks.items():
        frames = stack.split(";")
        for f in frames:
            funcs.setdefault(f, len(funcs) + 1)
        locs = [funcs[f] for f in reversed(frames)]
        msg += field_bytes(2, packed(1, locs) + packed(2, values))
    for name, fid in funcs.items():
        file, line = lines.get(name, ("", 0))
        line_msg = field_varint(1, fid) + (field_varint(2, line) if line else b"")
        msg += field_bytes(4, field_varint(1, fid) + field_bytes(4, line_msg))
        fn = field_varint(1, fid) + field_varint(2, s(name)) + field_varint(3, s(name))
        if file:
            fn += field_varint(4, s(file))
        msg += field_bytes(5, fn)
    for text in strings:
        msg += field_bytes(6, text.encode())
    return gzip.compress(bytes(msg))


# --- go tool pprof -raw ---

def go_available():
    return shutil.which("go") is not None


def pprof_raw(path):
    """Runs `go tool pprof -raw`; returns (sample types, {stack: [values]})."""
    env = dict(os.environ, HOME=os.environ.get("HOME", "/tmp"),
               GOCACHE=os.environ.get("GOCACHE", "/tmp/zkprof-gocache"), PPROF_TMPDIR="/tmp")
    r = subprocess.run(["go", "tool", "pprof", "-raw", "-symbolize=none", path],
                       capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise AssertionError(f"go tool pprof -raw {path} failed: {r.stderr}")
    return parse_pprof_raw(r.stdout)


def pprof_top(path, sample_index=None):
    """`go tool pprof -top` of every node: {function: (flat, cum)}."""
    args = ["go", "tool", "pprof", "-top", "-nodecount=1000000", "-nodefraction=0",
            "-symbolize=none"]
    if sample_index:
        args.append(f"-sample_index={sample_index}")
    r = subprocess.run(args + [path], capture_output=True, text=True,
                       env=dict(os.environ, GOCACHE=os.environ.get("GOCACHE",
                                                                   "/tmp/zkprof-gocache")))
    if r.returncode != 0:
        raise AssertionError(f"go tool pprof -top {path} failed: {r.stderr}")
    out = {}
    for line in r.stdout.splitlines():
        parts = line.split(None, 5)
        if len(parts) == 6 and parts[0].isdigit() and parts[1].endswith("%"):
            out[parts[5]] = (int(parts[0]), int(parts[3]))
    return out


def parse_pprof_raw(text):
    lines = text.splitlines()
    i = lines.index("Samples:")
    types = [t.split("/")[0] for t in lines[i + 1].split()]
    samples = []
    i += 2
    while i < len(lines) and lines[i] != "Locations":
        line = lines[i]
        i += 1
        if ":" not in line:
            continue  # label lines
        vals, locs = line.split(":", 1)
        samples.append(([int(v) for v in vals.split()], [int(l) for l in locs.split()]))
    names = {}
    i += 1
    location = re.compile(r"^\s*(\d+): 0x[0-9a-f]+(?: M=\d+)? (.*) s=\d+$")
    while i < len(lines) and not lines[i].startswith("Mappings"):
        m = location.match(lines[i])
        i += 1
        if m:  # "ID: 0xADDR M=N NAME FILE:LINE s=START"; zkprof writes one line per location
            names[int(m.group(1))] = m.group(2).rsplit(" ", 1)[0]
    stacks = {}
    for vals, locs in samples:
        key = ";".join(names[l] for l in reversed(locs))
        old = stacks.get(key, [0] * len(vals))
        stacks[key] = [a + b for a, b in zip(old, vals)]
    return types, stacks


# --- running cli ---

def guest(name):
    return os.path.join(GUEST_DIR, name)


def execute(elf, input_name, *args):
    """`cli execute` of a bundled guest with its input; returns the instruction count."""
    cmd = [CLI, "execute", guest(elf), "--stats"]
    if input_name:
        cmd += ["--input", os.path.join(INPUTS, input_name)]
    r = subprocess.run(cmd + list(args), capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise AssertionError(f"{' '.join(cmd + list(args))}: exit {r.returncode}: {r.stderr}")
    return int(next(l.split()[1] for l in r.stderr.splitlines()
                    if l.startswith("instructions: ")))


def cli(*args, check=True):
    r = subprocess.run([CLI] + list(args), capture_output=True, text=True, timeout=600)
    if check and r.returncode != 0:
        raise AssertionError(f"cli {' '.join(args)}: exit {r.returncode}: {r.stderr}")
    return r


# Guests with an input and, under a zkVM ABI, [ecall:NAME] frames.
GUESTS = [("verifier-rv32.elf", "verifier.in"), ("sha256-rv64.elf", "sha256.in"),
          ("zkvm-sp1-rv32.elf", "zkvm-sp1.in")]


class TempDirTest(unittest.TestCase):
    """A test with a temporary directory, self.path(name) inside it."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)
