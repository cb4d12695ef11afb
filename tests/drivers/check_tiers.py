#!/usr/bin/env python3
"""Fails unless every test of a build tree carries exactly one tier label (tests/README.md).

Usage: check_tiers.py CTEST BUILD_DIR TIER...
"""
import json
import subprocess
import sys


def main():
    ctest, build, tiers = sys.argv[1], sys.argv[2], set(sys.argv[3:])
    listing = subprocess.run([ctest, "--test-dir", build, "--show-only=json-v1"],
                             check=True, capture_output=True, text=True).stdout
    tests = json.loads(listing)["tests"]
    problems = []
    for test in tests:
        labels = [label for prop in test.get("properties", []) if prop["name"] == "LABELS"
                  for label in prop["value"]]
        found = [label for label in labels if label in tiers]
        if len(found) != 1:
            problems.append(f"  {test['name']}: tiers {found}")
    if problems:
        print(f"tests without exactly one tier of {sorted(tiers)}:", *problems, sep="\n")
        return 1
    print(f"{len(tests)} tests, each with one tier")
    return 0


if __name__ == "__main__":
    sys.exit(main())
