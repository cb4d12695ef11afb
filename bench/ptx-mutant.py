#!/usr/bin/env python3
"""Writes a PTX mutant of a library kernel for bench/library-kernels.sh: one synchronization
instruction of one entry taken away or made wrong, the rest of the module as compiled.

Usage: bench/ptx-mutant.py KIND N ENTRY IN.ptx OUT.ptx
  KIND  drop-wait    the Nth mbarrier.try_wait(.parity) of ENTRY succeeds at once (its predicate
                     set true: the full wait is gone, the loop around it runs once)
        flip-parity  the Nth try_wait.parity waits on the other parity (the phase before); a
                     probe just before it on the same barrier and parity register is flipped
                     with it
        drop:OPCODE  the Nth instruction of ENTRY whose opcode starts with OPCODE is removed
                     (drop:fence.proxy.async, drop:wgmma.fence, drop:tcgen05.fence)
  N     1-based, in the order of the PTX text
Exits 2 when ENTRY or its Nth such instruction is not there, so a changed library says so.
"""
import re
import sys

# indent, opcode, predicate, barrier, parity (or state), the rest (a suspend-time hint)
TRY_WAIT = re.compile(
    r"^(\s*)(mbarrier\.try_wait(?:\.parity)?[\w:.]*)\s+(\S+),"
    r"\s*\[([^\]]+)\],\s*([^,;]+)(.*);")


def entry_lines(lines, entry):
    """The [first, last) line range of ENTRY's body."""
    head = re.compile(r"^(\.visible\s+)?\.entry\s+" + re.escape(entry) + r"\b")
    start = next((i for i, l in enumerate(lines) if head.match(l)), None)
    if start is None:
        sys.exit(f"ptx-mutant: no .entry {entry}")
    depth, opened = 0, False
    for i in range(start, len(lines)):
        depth += lines[i].count("{") - lines[i].count("}")
        opened = opened or "{" in lines[i]
        if opened and depth == 0:
            return start, i + 1
    return start, len(lines)


def nth(lines, lo, hi, n, match):
    seen = 0
    for i in range(lo, hi):
        if match(lines[i]):
            seen += 1
            if seen == n:
                return i
    print(f"ptx-mutant: only {seen} matching instructions", file=sys.stderr)
    sys.exit(2)


def probe_before(lines, lo, i, bar, parity):
    """The line of the probe the wait at i follows (CUTLASS's consumer_try_wait, then
    consumer_wait(token)): the try_wait before it in the text on the same barrier and parity
    register, with no other try_wait between; i itself when there is none. Flipping the pair
    keeps the probe's token about the wait's phase, as a wrong phase variable would."""
    for j in range(i - 1, lo - 1, -1):
        m = TRY_WAIT.match(lines[j])
        if m is None:
            continue
        same = m.group(4).strip() == bar.strip() and m.group(5).strip() == parity.strip()
        return j if same else i
    return i


def main():
    if len(sys.argv) != 6:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    kind, n, entry, src, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
    lines = open(src).read().split("\n")
    lo, hi = entry_lines(lines, entry)
    if kind in ("drop-wait", "flip-parity"):
        i = nth(lines, lo, hi, n, lambda l: TRY_WAIT.match(l) is not None)
        indent, opcode, pred, bar, parity, rest = TRY_WAIT.match(lines[i]).groups()
        if kind == "drop-wait":
            lines[i] = f"{indent}setp.eq.u32 {pred}, 0, 0; // mutant: the wait is gone"
        else:
            if ".parity" not in opcode:
                sys.exit("ptx-mutant: that wait takes a state, not a parity")
            if re.fullmatch(r"\s*\d+\s*", parity):  # an immediate: the other one in its place
                flipped = f"{opcode} {pred}, [{bar}], {1 - int(parity) % 2}{rest};"
                lines[i] = f"{indent}{flipped} // mutant: the other parity"
            else:  # a register: the wait (and its probe) read its flip, the register stays
                first = probe_before(lines, lo, i, bar, parity)
                for j in {first, i}:
                    g = TRY_WAIT.match(lines[j]).groups()
                    lines[j] = f"{g[0]}{g[1]} {g[2]}, [{g[3]}], %mutant_parity{g[5]};"
                lines[first] = (f"{indent}xor.b32 %mutant_parity, {parity}, 1; "
                                f"// mutant: the other parity\n{lines[first]}")
                # declared in the entry's own block: the two may sit in different asm blocks
                body = next(j for j in range(lo, hi) if "{" in lines[j])
                lines[body] += "\n\t.reg .b32 %mutant_parity;"
    elif kind.startswith("drop:"):
        opcode = kind[len("drop:"):]
        pattern = re.compile(r"^\s*(@!?%?\w+\s+)?" + re.escape(opcode))
        i = nth(lines, lo, hi, n, lambda l: pattern.match(l) is not None)
        lines[i] = "// mutant: removed: " + lines[i].strip()
    else:
        sys.exit(f"ptx-mutant: unknown KIND {kind}")
    open(dst, "w").write("\n".join(lines))


if __name__ == "__main__":
    main()
