#!/usr/bin/env python3
"""Validates ptxmc's CI reports with real parsers.

  validate_reports.py sarif SCHEMA FILE   FILE against the SARIF 2.1.0 JSON schema (jsonschema)
  validate_reports.py junit FILE          FILE parsed as XML and checked against the JUnit shape
                                          CI tools read (testsuites > testsuite > testcase)

A missing validator is a failure, not a skip: scripts/install-deps.sh installs python3-jsonschema.
"""
import json
import sys
import xml.etree.ElementTree as ET


def fail(message):
    print("validate_reports: " + message, file=sys.stderr)
    sys.exit(1)


def sarif(schema_file, log_file):
    try:
        import jsonschema
    except ImportError:
        fail("no jsonschema module: install python3-jsonschema (scripts/install-deps.sh)")
    with open(schema_file, encoding="utf-8") as f:
        schema = json.load(f)
    with open(log_file, encoding="utf-8") as f:
        log = json.load(f)
    jsonschema.Draft4Validator.check_schema(schema)
    errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(log), key=lambda e: list(e.path))
    for e in errors:
        print("%s: %s at %s" % (log_file, e.message, "/".join(map(str, e.path))), file=sys.stderr)
    if errors:
        fail("%d schema violations" % len(errors))
    # What the schema leaves open but ptxmc promises: every result names a rule of the run.
    for run in log["runs"]:
        ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
        for r in run["results"]:
            if r["ruleId"] not in ids or ids[r["ruleIndex"]] != r["ruleId"]:
                fail("result of rule %s does not point at its rule" % r["ruleId"])
    print("ok: %s is SARIF 2.1.0 (%d results)" % (log_file, sum(len(r["results"]) for r in log["runs"])))


def junit(log_file):
    root = ET.parse(log_file).getroot()
    if root.tag != "testsuites":
        fail("root element is <%s>, not <testsuites>" % root.tag)
    cases = 0
    for suite in root:
        if suite.tag != "testsuite":
            fail("<testsuites> holds <%s>" % suite.tag)
        for attr in ("name", "tests", "failures", "errors"):
            if attr not in suite.attrib:
                fail("<testsuite> without %s" % attr)
        counted = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        for case in suite:
            if case.tag != "testcase":
                fail("<testsuite> holds <%s>" % case.tag)
            if not case.get("classname") or not case.get("name"):
                fail("<testcase> without classname or name")
            if "time" in case.attrib:
                float(case.get("time"))
            counted["tests"] += 1
            outcomes = [c for c in case if c.tag in ("failure", "error", "skipped")]
            if len(outcomes) > 1:
                fail("<testcase %s> has %d outcomes" % (case.get("name"), len(outcomes)))
            for child in case:
                if child.tag not in ("failure", "error", "skipped", "system-out", "system-err"):
                    fail("<testcase> holds <%s>" % child.tag)
                if child.tag in ("failure", "error") and not child.get("message"):
                    fail("<%s> without a message" % child.tag)
            for o in outcomes:
                counted[{"failure": "failures", "error": "errors", "skipped": "skipped"}[o.tag]] += 1
        for attr, n in counted.items():
            if int(suite.get(attr, "0")) != n:
                fail("<testsuite %s=%s> but %d counted" % (attr, suite.get(attr), n))
        cases += counted["tests"]
    if int(root.get("tests", cases)) != cases:
        fail("<testsuites tests=%s> but %d test cases" % (root.get("tests"), cases))
    print("ok: %s is JUnit XML (%d test cases)" % (log_file, cases))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "sarif":
        sarif(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "junit":
        junit(sys.argv[2])
    else:
        fail("usage: validate_reports.py sarif SCHEMA FILE | junit FILE")
