#!/usr/bin/env python3
"""Count individual Check tests in meson test logs and print "N passed, N failed".

Each meson test is one Check suite; its stdout ends with "NN%: Checks: C, Failures: F,
Errors: E".  A suite that crashed or printed no such line counts as one failure, so a broken
run can never look green.  An expected failure (meson's EXPECTEDFAIL; none ship today: the
known gaps are checked by seed_table) counts its checks as passed, as meson does, unless it
failed by a timeout or an error (a crash), which are failures of the run, not the gap the
suite asserts.  A line without Checks (tools/fuzz writes one per fuzz target with FUZZ_LOG)
counts as one test, passed when its result is OK.
"""
import json
import re
import sys

SUMMARY = re.compile(r"Checks: (\d+), Failures: (\d+), Errors: (\d+)")


xfail = [0]


def count(path):
    passed = failed = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            try:
                t = json.loads(line)
            except ValueError:
                # A torn log line (e.g. two runs writing one build directory) proves
                # nothing passed: count it against the run.
                print(f"{path}: unreadable log line", file=sys.stderr)
                failed += 1
                continue
            out = t.get("stdout", "") or ""
            m = SUMMARY.findall(out)
            if t.get("result") == "EXPECTEDFAIL":
                checks, fails, errors = (int(x) for x in m[-1]) if m else (0, 0, 1)
                if errors or "timeout" in out.lower() or not fails:
                    print(f"{path}: {t.get('name')}: expected to fail by its assertions,"
                          " but it timed out, crashed or failed otherwise", file=sys.stderr)
                    failed += 1
                else:
                    xfail[0] += fails
                    passed += checks
            elif m:
                checks, fails, errors = (int(x) for x in m[-1])
                passed += checks - fails - errors
                failed += fails + errors
                if t.get("result") != "OK" and fails + errors == 0:
                    failed += 1
            elif t.get("result") in ("OK", "EXPECTEDFAIL"):
                passed += 1
            else:
                failed += 1
    return passed, failed


def main():
    passed = failed = 0
    for path in sys.argv[1:]:
        p, f = count(path)
        passed += p
        failed += f
    if xfail[0]:
        print(f"({xfail[0]} of the passed are expected failures: the known gaps)")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
