#!/usr/bin/env python3
"""engines_check: every ISA guest under both engines, which must agree.

Runs each ELF of --dir with `cli execute --engine interp` and with the
translation tier translating every block at once (`--translate-after 0`),
and compares their exit statuses, stdout and stderr (--stats included,
but for its timing and engine lines). The guests check their own results
(isa.<name>.*), so this proves the tier runs each instruction, C forms
on any halfword included, as the interpreter does, faults alike. It
fails too when fewer than nine in ten guests ran a translated block: a
tier that stopped translating (a hart with C refused, say) would agree
with the interpreter trivially.
"""
import argparse
import os
import re
import subprocess
import sys

TIMING = re.compile(rb"^(wall-time|mips|engine): .*\n", re.M)
TRANSLATED = re.compile(rb"^engine: translate \([1-9]", re.M)


def run(cli, elf, *args):
    r = subprocess.run([cli, "execute", elf, "--stats", *args],
                       capture_output=True, timeout=60)
    return r.returncode, r.stdout, TIMING.sub(b"", r.stderr), r.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--dir", required=True, help="where the ISA guests (*.elf) are")
    o = ap.parse_args()
    elfs = sorted(f for f in os.listdir(o.dir) if f.endswith(".elf"))
    if not elfs:
        print(f"engines_check: no ELF in {o.dir}", file=sys.stderr)
        return 1
    differ, translated = [], 0
    for name in elfs:
        elf = os.path.join(o.dir, name)
        interp = run(o.cli, elf, "--engine", "interp")
        tier = run(o.cli, elf, "--translate-after", "0")
        if interp[:3] != tier[:3]:
            differ.append(f"{name}: interp exit {interp[0]}, tier exit {tier[0]}\n"
                          f"  interp stderr: {interp[2][-300:]!r}\n"
                          f"  tier stderr:   {tier[2][-300:]!r}")
        translated += bool(TRANSLATED.search(tier[3]))
    for d in differ:
        print(d, file=sys.stderr)
    print(f"engines_check: {len(elfs)} guests, {len(differ)} differ, "
          f"{translated} ran translated blocks")
    if translated * 10 < len(elfs) * 9:
        print("engines_check: fewer than nine in ten guests ran a translated block",
              file=sys.stderr)
        return 1
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
