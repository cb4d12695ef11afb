#!/usr/bin/env python3
"""Writes CUTLASS's PipelineTmaUmmaAsync ring (TMA producer, MMA thread, epilogue) as a litmus
test with S shared-memory stages and K k-iterations, for the scale benchmark.

Usage: umma.py S K  (prints the test; with S=2, K=3 it is litmus/kernels/tma-umma/umma-2x3).
K is at most 32: d = 2^K - 1 must fit 32 bits. Past K=24 the stages start at 0 (below, the
powers of two above the g_k), so that they too fit."""
import sys

SECTIONS = [
    "9.7.10.28.4.1 #data-movement-and-conversion-instructions-cp-async-bulk",
    "9.7.15.16.19 #parallel-synchronization-and-communication-instructions-mbarrier-test-wait-try-wait",
    "9.7.15.16.8 #parallel-synchronization-and-communication-instructions-mbarrier-phase-completion",
    "9.7.18.6.3 #tcgen05-memory-consistency-model-inter-thread-sync",
    "9.7.18.6.2 #tcgen05-memory-consistency-model-pipelined-instructions",
    "9.7.18.12.1 #tcgen-async-sync-operations-commit",
    "8.9.1.1 #program-order-async-operations",
    "9.7.18.6.4.4 #tcgen05-memory-consistency-model-canonical-sync-patterns-non-pipelined-diff-thread",
]
WAIT = "mbarrier.try_wait.parity.shared::cta.b64 _, [{}], {}"
COMMIT = "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [{}]"


def phases(name, first, uses):
    return name + ": " + ",".join(str((first + u) % 2) for u in range(uses))


def program(stages, iters):
    producer, mma = [], []
    for k in range(iters):
        s, use = k % stages, k // stages
        producer += [WAIT.format(f"empty{s}", (1 + use) % 2),
                     f"mbarrier.arrive.expect_tx.shared::cta.b64 _, [full{s}], 16",
                     f"cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [a{s}], [g{k}], 16, [full{s}]"]
        mma += [WAIT.format(f"full{s}", use % 2), "tcgen05.fence::after_thread_sync",
                f"tcgen05.mma.cta_group::1.kind::f16 [d], [a{s}], [b], I0, {0 if k == 0 else 1}",
                COMMIT.format(f"empty{s}")]
    mma.append(COMMIT.format("accfull"))
    epilogue = [WAIT.format("accfull", 0), "tcgen05.fence::after_thread_sync",
                "tcgen05.ld.sync.aligned.32x32b.x1.b32 {r0}, [d]", "tcgen05.wait::ld.sync.aligned"]
    return [producer, mma, epilogue]


def table(columns):
    rows = max(len(c) for c in columns) + 1
    cells = [["P%d@cta 0,gpu 0" % i] + c + [""] * (rows - 1 - len(c)) for i, c in enumerate(columns)]
    widths = [max(len(x) for x in c) for c in cells]
    out = []
    for r in range(rows):
        parts = [" " + cells[i][r].ljust(widths[i]) + " " for i in range(len(cells))]
        out.append("|".join(parts) + ";")
    return out


def litmus(stages, iters):
    uses = [len(range(s, iters, stages)) for s in range(stages)]
    total = 2 ** iters - 1
    signed_total = total - 2 ** 32 if total >= 2 ** 31 else total  # registers print signed
    start = [2 ** (iters + s) if iters <= 24 else 0 for s in range(stages)]
    lines = [f"PTX umma-{stages}x{iters}",
             '"' + "; ".join("PTX ISA " + s for s in SECTIONS) + '"',
             f'"CUTLASS PipelineTmaUmmaAsync mainloop + accumulator hand-off, S={stages} stage(s), '
             f'K={iters} k-tiles (k uses stage k mod S), unrolled."',
             '"P0 TMA producer, per k: try_wait.parity empty[s] ('
             + "; ".join(phases(f"empty{s}", 1, uses[s]) for s in range(stages))
             + '; producer starts at phase 1); arrive.expect_tx full[s] 16; cp.async.bulk g_k -> a_s, '
             'complete_tx on full[s]."',
             '"P1 MMA, per k: try_wait.parity full[s] ('
             + "; ".join(phases(f"full{s}", 0, uses[s]) for s in range(stages))
             + '); tcgen05.fence::after_thread_sync; mma d (+)= a_s*b (enable-input-d 0 at k=0); '
             'commit -> empty[s]; after the last k: commit -> accfull."',
             f'"P2 epilogue: try_wait accfull; after_thread_sync; tcgen05.ld d; wait::ld. g_k = 2^k, '
             f'b = 1: d must be {"+".join(str(2 ** k) for k in range(iters))} = {total} '
             + ('(a_s start at other powers of two)."' if iters <= 24 else '(a_s start at 0)."'),
             '"Expected Never: full[s] = expect_tx + complete_tx (release, cluster) seen by an acquire '
             'wait, after_thread_sync orders each mma after its wait;"',
             '"the mmas are pipelined (same accumulator, shape, kind); each commit arrives after all '
             'prior mmas completed, so a refill (ordered after the empty wait) cannot overwrite a_s '
             'before the mma that reads it finished;"',
             '"the accfull commit tracks all mmas, and wait + after_thread_sync orders the tcgen05.ld '
             'after them."',
             "{",
             "  " + " ".join(f"g{k} = {2 ** k};" for k in range(iters)),
             "  " + " ".join(f"a{s} @ shared 0 = {start[s]};" for s in range(stages)),
             "  b @ shared 0 = 1;",
             "  d @ tmem 0 = 0;",
             "  " + " ".join(f"full{s} @ mbarrier 0, count 1;" for s in range(stages)),
             "  " + " ".join(f"empty{s} @ mbarrier 0, count 1;" for s in range(stages)),
             "  accfull @ mbarrier 0, count 1;",
             "  P2:r0 = 0;",
             "}"]
    lines += table(program(stages, iters))
    lines.append(f"exists (P2:r0 != {signed_total})")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 3 or not all(a.isdigit() and int(a) > 0 for a in sys.argv[1:]):
        sys.exit("usage: umma.py STAGES ITERATIONS (positive whole numbers)")
    s, k = int(sys.argv[1]), int(sys.argv[2])
    if k > 32:
        sys.exit("umma.py: at most 32 iterations (d = 2^K - 1 must fit 32 bits)")
    sys.stdout.write(litmus(s, k))
