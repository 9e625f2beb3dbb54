#!/usr/bin/env bash
# End to end: RocketMQ Dashboard 2.1.0 (back end) against mqdesk-broker.
#
#   run.sh MQDESK_BROKER CACHE_DIR [--vip true|false] [drive.py options...]
#   run.sh java:CLASSPATH_FILE CACHE_DIR [...]   the same against a Java NameServer and broker
#                                                (the classpath of tests/interop/java/javabroker)
#
# 1. build.sh CACHE_DIR (the dashboard jar, cached);
# 2. mqdesk-broker in a temp store on free ports (embedded NameServer);
# 3. the topic (mqdesk-admin updateTopic when it is beside the broker), then traffic.java: 5
#    messages with a key, an online consumer group, a group whose messages land in the DLQ, an
#    online producer group, message trace on;
# 4. the dashboard: java -Xmx512m -jar ... with only server.port, rocketmq.config.namesrvAddrs and
#    rocketmq.config.dataPath set (plus rocketmq.config.isVIPChannel when --vip is given; its
#    default is true);
# 5. drive.py on it; the report goes to CACHE_DIR/report-vip-<true|false|default>.json.
# Everything it started is stopped, and its temp dir removed (KEEP=1 keeps it), on exit.
# Exit status: drive.py's (0 when every call passed), or 2 when the set-up failed.
set -euo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: $0 MQDESK_BROKER CACHE_DIR [--vip true|false] [drive.py options...]" >&2
  exit 2
fi
java_cp=""
if [[ $1 == java:* ]]; then
  java_cp=$(cat "${1#java:}")
  broker=""
  label=java
else
  broker=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
  label=mqdesk
fi
cache=$2
shift 2
vip=""
if [[ ${1:-} == --vip ]]; then
  vip=$2
  shift 2
fi
here=$(cd "$(dirname "$0")" && pwd)

jar=$("$here/build.sh" "$cache")
cache=$(cd "$cache" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/mqdesk-dashboard.XXXXXX")
pids=()
cleanup() {
  local i p
  # The dashboard and the clients first, the broker last; SIGKILL what is still there after 10 s.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    p=${pids[i]}
    kill "$p" 2>/dev/null || continue
    for _ in $(seq 1 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
  if [[ ${KEEP:-0} == 1 ]]; then echo "run.sh: kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

# Free ports; the broker's also with its port − 2 (the fast channel) and + 1 (Java's HA port) free.
# Drawn from 20000-32000, below Linux's ephemeral range (32768-60999): an outgoing connection or a
# parallel test's bind(0) cannot take one between this check and the servers' binds.
read -r ns_port broker_port grpc_port web_port < <(python3 -c '
import random, socket
def free(port):
    with socket.socket() as s:
        try:
            s.bind(("0.0.0.0", port))
            return True
        except OSError:
            return False
picked = set()
def pick(below=0, above=0):
    while True:
        p = random.randrange(20000, 32000)
        span = range(p - below, p + above + 1)
        if not picked.intersection(span) and all(free(q) for q in span):
            picked.update(span)
            return p
ns, broker, grpc, web = pick(), pick(2, 1), pick(), pick()
print(ns, broker, grpc, web)')
namesrv=127.0.0.1:$ns_port

if [[ -z $java_cp ]]; then
  "$broker" --store "$work/store" --namesrv-port "$ns_port" --broker-port "$broker_port" \
    --grpc-port "$grpc_port" >"$work/broker.log" 2>&1 &
  pids+=($!)
  ready='mqdesk-broker ready'
else
  # Java 5.5: a NameServer and an ASYNC_MASTER broker, small files, as tests/interop/java_cluster.h.
  printf 'listenPort=%s\n' "$ns_port" >"$work/namesrv.conf"
  cat >"$work/broker.conf" <<CONF
brokerClusterName=DefaultCluster
brokerName=broker-a
brokerId=0
namesrvAddr=$namesrv
brokerIP1=127.0.0.1
listenPort=$broker_port
storePathRootDir=$work/store
storePathCommitLog=$work/store/commitlog
autoCreateTopicEnable=true
traceTopicEnable=true
flushDiskType=ASYNC_FLUSH
mappedFileSizeCommitLog=67108864
timerWheelEnable=false
CONF
  jvm=(java -Duser.home="$work" -Drocketmq.home.dir="$work" -XX:+UseSerialGC -cp "$java_cp")
  # mqadmin of the dashboard's own tools (5.3.3), beside its jar
  mqadmin=(java -Duser.home="$work" -Drocketmq.home.dir="$work" -Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1
           -cp "$cache/lib/*" org.apache.rocketmq.tools.command.MQAdminStartup)
  ROCKETMQ_HOME=$work "${jvm[@]}" -Xmx256m org.apache.rocketmq.namesrv.NamesrvStartup -c "$work/namesrv.conf" \
    >"$work/namesrv.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 300); do grep -q 'boot success' "$work/namesrv.log" && break; sleep 0.2; done
  ROCKETMQ_HOME=$work "${jvm[@]}" -Xmx768m org.apache.rocketmq.broker.BrokerStartup -c "$work/broker.conf" \
    >"$work/broker.log" 2>&1 &
  pids+=($!)
  ready='boot success'
fi
for _ in $(seq 1 600); do
  grep -q "$ready" "$work/broker.log" && break
  sleep 0.1
done
if ! grep -q "$ready" "$work/broker.log"; then
  echo "run.sh: the $label broker did not start:" >&2
  cat "$work/broker.log" >&2
  exit 2
fi
if [[ -n $java_cp ]]; then
  # "boot success" comes before the broker's registration: wait until the route of TBW102 is there.
  for _ in $(seq 1 100); do
    "${mqadmin[@]}" topicRoute -n "$namesrv" -t TBW102 >/dev/null 2>&1 && break
    sleep 0.5
  done
fi
echo "run.sh: $label broker, namesrv=$namesrv broker=127.0.0.1:$broker_port (fast channel $((broker_port - 2)))" >&2

suffix=$$
topic=DashTopic$suffix
if [[ -n $java_cp ]]; then
  "${mqadmin[@]}" updateTopic -n "$namesrv" -t "$topic" -c DefaultCluster -r 4 -w 4 >/dev/null
else
  admin=""
  for a in "$(dirname "$broker")/mqdesk-admin" "$(dirname "$broker")/../mqdesk-admin/mqdesk-admin"; do
    if [[ -x $a ]]; then admin=$a; break; fi
  done
  if [[ -n $admin ]]; then
    "$admin" -n "$namesrv" updateTopic -t "$topic" -c DefaultCluster -r 4 -w 4 >/dev/null
  fi
fi

java -Xmx256m -XX:+UseSerialGC -cp "$cache/lib/*" "$here/traffic.java" "$namesrv" "$topic" \
  "DashGroup$suffix" "DashProducerGroup$suffix" "DashDlqGroup$suffix" "dashkey$suffix" 5 \
  "$work/traffic.json" 3600 >"$work/traffic.log" 2>&1 &
pids+=($!)
traffic_pid=$!

vip_args=()
if [[ -n $vip ]]; then vip_args=("--rocketmq.config.isVIPChannel=$vip"); fi
start=$(date +%s.%N)
# --add-opens: the DLQ export's easyexcel 2.2.10 (cglib) needs it on Java 17, else it answers an
# empty .xls body; nothing else changes.
java -Xmx512m --add-opens java.base/java.lang=ALL-UNNAMED -jar "$jar" \
  --server.port="$web_port" --rocketmq.config.namesrvAddrs="$namesrv" \
  --rocketmq.config.dataPath="$work/dashboard-data" "${vip_args[@]}" >"$work/dashboard.log" 2>&1 &
pids+=($!)
dash_pid=$!
url=http://127.0.0.1:$web_port
up=0
for _ in $(seq 1 480); do
  if python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' \
    "$url/ops/homePage.query" 2>/dev/null; then up=1; break; fi
  kill -0 "$dash_pid" 2>/dev/null || break
  sleep 0.25
done
if [[ $up != 1 ]]; then
  echo "run.sh: the dashboard did not come up; the end of its log:" >&2
  tail -n 40 "$work/dashboard.log" >&2
  exit 2
fi
echo "run.sh: dashboard $url answering after $(python3 -c "import time; print(round(time.time() - $start, 1))") s" >&2

for _ in $(seq 1 90); do
  [[ -f $work/traffic.json ]] && break
  kill -0 "$traffic_pid" 2>/dev/null || break
  sleep 1
done
if [[ ! -f $work/traffic.json ]]; then
  echo "run.sh: traffic.java wrote no traffic.json:" >&2
  cat "$work/traffic.log" >&2
  exit 2
fi
tail -n 1 "$work/traffic.log" >&2

report=$cache/report-$label-vip-${vip:-default}.json
rc=0
python3 "$here/drive.py" "$url" --traffic "$work/traffic.json" --report "$report" "$@" || rc=$?
echo "run.sh: report $report; dashboard RSS $(ps -o rss= -p "$dash_pid" | awk '{printf "%d MiB", $1/1024}')" >&2
if [[ $rc != 0 ]]; then
  cp "$work/dashboard.log" "$cache/dashboard-$label-vip-${vip:-default}.log"
  echo "run.sh: dashboard log (stack traces of the failures) copied to $cache/dashboard-$label-vip-${vip:-default}.log" >&2
fi
exit "$rc"
