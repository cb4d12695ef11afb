#!/usr/bin/env python3
"""Litmus families for the bench, at any size: SBn (store buffering on a ring of n threads,
each in its own CTA, fence.sc.gpu between store and load: all loads 0 is forbidden), IRIWn (n
writers of their own locations, two readers reading all of them in opposite orders with
fence.sc.gpu between reads: the readers disagreeing on the order of the first and last writes
is forbidden) and LOOPn (one thread stores 0..n-1 to x in a counted loop, another reads x once:
every value is possible, n states: the first store writes the initial 0 again).
Usage: families.py sb|iriw|loop N > test.litmus"""
import sys


def table(columns):
    """Litmus code rows from per-thread instruction lists (threads as columns)."""
    rows = max(len(c) for c in columns)
    widths = [max(len(s) for s in c) for c in columns]
    out = []
    for r in range(rows):
        cells = [(c[r] if r < len(c) else "").ljust(w) for c, w in zip(columns, widths)]
        out.append(" " + " | ".join(cells) + " ;")
    return out


def sb(n):
    loc = [f"x{i}" for i in range(n)]
    cols = [[f"P{i}@cta {i},gpu 0", f"st.relaxed.gpu {loc[i]}, 1", "fence.sc.gpu",
             f"ld.relaxed.gpu r0, {loc[(i + 1) % n]}"] for i in range(n)]
    cond = " /\\ ".join(f"P{i}:r0 == 0" for i in range(n))
    return [f"PTX SB{n}", f'"SB on a ring of {n} threads with fence.sc.gpu: all loads 0 is forbidden"',
            "{", "  " + " ".join(f"{x} = 0;" for x in loc), "}"] + table(cols) + [f"exists ({cond})"]


def iriw(n):
    loc = [f"x{i}" for i in range(n)]
    cols = [[f"P{i}@cta {i},gpu 0", f"st.relaxed.gpu {loc[i]}, 1"] for i in range(n)]
    for k, order in enumerate([loc, loc[::-1]]):
        reader = [f"P{n + k}@cta {n + k},gpu 0"]
        for j, x in enumerate(order):
            if j: reader.append("fence.sc.gpu")
            reader.append(f"ld.relaxed.gpu r{j}, {x}")
        cols.append(reader)
    last = n - 1
    cond = f"P{n}:r0 == 1 /\\ P{n}:r{last} == 0 /\\ P{n + 1}:r0 == 1 /\\ P{n + 1}:r{last} == 0"
    return [f"PTX IRIW{n}", f'"IRIW with {n} writers and fence.sc.gpu between the readers\' loads: '
            'disagreeing on the order of the first and last writes is forbidden"',
            "{", "  " + " ".join(f"{x} = 0;" for x in loc), "}"] + table(cols) + [f"exists ({cond})"]


def loop(n):
    writer = ["P0@cta 0,gpu 0", "mov.b32 i, 0", "LC00:", "st.relaxed.gpu [x], i",
              "add.s32 i, i, 1", f"setp.lt.s32 p, i, {n}", "@p bra LC00"]
    reader = ["P1@cta 1,gpu 0", "ld.relaxed.gpu r0, [x]"]
    return [f"PTX LOOP{n}", f'"One thread stores 0..{n - 1} to x in a counted loop, another reads x: '
            f'{n} states"', "{", "  x = 0;", "}"] + table([writer, reader]) + \
        ["exists (P1:r0 == 1)"]


if __name__ == "__main__":
    kind, size = sys.argv[1], int(sys.argv[2])
    print("\n".join({"sb": sb, "iriw": iriw, "loop": loop}[kind](size)))
