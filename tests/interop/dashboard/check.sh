#!/usr/bin/env bash
# The Dashboard proof: the RocketMQ Dashboard 2.1.0 with its default settings (VIP channel on)
# against mqdesk-broker and against the Java 5.5 broker, with the same traffic; every call must
# pass against MQDesk, and none may do worse than against Java (compare.py).
#
#   check.sh MQDESK_BROKER CACHE_DIR JAVA_CLASSPATH_FILE
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [[ $# -ne 3 ]]; then
  echo "usage: $0 MQDESK_BROKER CACHE_DIR JAVA_CLASSPATH_FILE" >&2
  exit 2
fi
broker=$1 cache=$2 java_cp=$3
mkdir -p "$cache"
rm -f "$cache"/report-*-vip-default.json
"$here/run.sh" "$broker" "$cache" --quiet
mqdesk_rc=$?
"$here/run.sh" "java:$java_cp" "$cache" --quiet
java_rc=$?
echo "check.sh: drive.py against MQDesk exited $mqdesk_rc, against Java $java_rc" >&2
[[ -f $cache/report-mqdesk-vip-default.json && -f $cache/report-java-vip-default.json ]] || exit 1
python3 "$here/compare.py" "$cache/report-mqdesk-vip-default.json" "$cache/report-java-vip-default.json"
