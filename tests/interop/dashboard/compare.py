#!/usr/bin/env python3
"""Compares two drive.py reports: the Dashboard against mqdesk-broker and against the Java broker.

    compare.py MQDESK_REPORT JAVA_REPORT

Prints one line per call (page, what, MQDesk's result, Java's, and MQDesk's errMsg where they
differ). Exit status 1 when a call MQDesk answered failed (FAIL or CHECK) or when it did worse
than Java on any call; 0 otherwise. Calls Java fails that MQDesk passes are listed, not failed.
"""
import json
import re
import sys


def load(path):
    """The report's calls by (page, name), the run's own names (topic, groups, ids, addresses)
    replaced by placeholders so that the two runs' calls meet."""
    with open(path) as f:
        report = json.load(f)
    names = sorted(((v, k) for k, v in report.get("names", {}).items() if v), key=lambda x: -len(x[0]))

    def generic(name):
        for value, key in names:
            name = name.replace(str(value), "{" + key + "}")
        return re.sub(r"\d+\.\d+\.\d+\.\d+:\d+", "{address}", name)

    return {(c["page"], generic(c["name"])): c for c in report["calls"]}, report.get("counts", {})


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    mqdesk, mqdesk_counts = load(argv[1])
    java, java_counts = load(argv[2])
    bad = []
    print(f"{'page':<10} {'call':<44} {'MQDesk':<6} {'Java':<6} note")
    for key in sorted(set(mqdesk) | set(java)):
        ours = mqdesk.get(key, {}).get("result", "-")
        theirs = java.get(key, {}).get("result", "-")
        note = ""
        worse = ours in ("FAIL", "CHECK") or (theirs == "OK" and ours != "OK")
        if worse:
            bad.append(key)
            note = " ".join(str(mqdesk.get(key, {}).get("errMsg") or mqdesk.get(key, {}).get("note") or "").split())[:100]
        elif ours != theirs:
            note = "Java: " + " ".join(str(java.get(key, {}).get("errMsg") or "").split())[:90]
        print(f"{key[0]:<10} {key[1][:44]:<44} {ours:<6} {theirs:<6} {note}")
    print(f"compare.py: MQDesk {mqdesk_counts}, Java {java_counts}; {len(bad)} call(s) where MQDesk did worse or failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
