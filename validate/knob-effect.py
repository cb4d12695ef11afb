#!/usr/bin/env python3
"""Per incantation, from a run's run.log `env` lines: the weak rate with the knob on over the rate
with it off, per test (median, tests higher, tests that saw it only with the knob), overall and
split into async-proxy tests and the others.  Usage: python3 validate/knob-effect.py RUN_LOG"""
import re
import statistics
import sys

ENTRY = re.compile(r" ([a-z-]+) (\d+)/([0-9.e+]+) \(off (\d+)/([0-9.e+]+)\);")
ASYNC = re.compile(r"bulk|tma|cp\.async|async|tensor|hopper|W\d")


def rows(path):
    for line in open(path):
        if line.strip().startswith("env "):
            name = line.split(":")[0].split()[1]
            yield name, {k: (int(h), float(n), int(oh), float(on))
                         for k, h, n, oh, on in ENTRY.findall(line)}


def summary(label, tests):
    ratios, only = [], []
    for name, (h, n, oh, on) in tests:
        if n == 0 or on == 0:
            continue
        if oh == 0:
            if h > 0:
                only.append(name)
            continue
        ratios.append((h / n) / (oh / on))
    med = statistics.median(ratios) if ratios else float("nan")
    print(f"  {label:18s} tests {len(ratios) + len(only):3d}  median on/off {med:5.2f}  "
          f"higher {sum(r > 1 for r in ratios) + len(only):3d}  only with it {len(only):2d}")


def main():
    data = list(rows(sys.argv[1]))
    knobs = sorted({k for _, d in data for k in d})
    for k in knobs:
        tests = [(n, d[k]) for n, d in data if k in d]
        print(k)
        summary("all", tests)
        summary("async-proxy tests", [t for t in tests if ASYNC.search(t[0])])
        summary("other tests", [t for t in tests if not ASYNC.search(t[0])])


if __name__ == "__main__":
    main()
