#!/usr/bin/env python3
"""Walks the REST calls of every page of Apache RocketMQ Dashboard 2.1.0, the way its React front
end (frontend-new/src/api/remoteApi/remoteApi.js and src/pages/*) makes them, against a running
dashboard back end, and reports each call's HTTP status and the JSON envelope's status / errMsg.

    drive.py BASE_URL [--traffic traffic.json] [--topic T --group G --producer-group P
             --dlq-group D --key K --msg-id ID --client-id C] [--report out.json]
             [--xfail REGEX ...] [--no-writes] [--no-checks]

Every back-end answer is {"status": 0|-1|..., "data": ..., "errMsg": ...} (GlobalRestfulResponseBody
Advice / GlobalExceptionHandler), except the DLQ exports, which stream an .xlsx file (or that
envelope on failure).

Result of a call:
  OK     HTTP 200 and status 0 (and the data looks as the page needs it, see CHECK)
  FAIL   HTTP != 200, no JSON, or status != 0: errMsg is what the page shows
  CHECK  status 0 but the data misses what the traffic put there (e.g. a key query finds nothing);
         --no-checks turns these into OK
  XFAIL  FAIL or CHECK on a call matching an --xfail REGEX (matched against "METHOD /path")
  SKIP   needs a value an earlier call could not give (e.g. no DLQ message to resend)
Exit status: 0 when nothing is FAIL or CHECK, 1 otherwise, 2 usage or the dashboard is unreachable.

Names: --traffic reads the JSON that traffic.java writes (topic, group, producerGroup, dlqGroup,
key, msgIds, clientId, and the lagging group and the transaction's msgId, checked when present);
explicit options override it. Writes happen only on scratch objects
(TOPIC_dash, GROUP_dash, a monitor entry) or are no-ops (ops settings written back with their
current values: isVIPChannel is never changed), except resetOffset/skipAccumulate on TOPIC for
GROUP (to "now", as the Topic page's buttons do) and sendTopicMessage (one more message on TOPIC).
--no-writes leaves all of those out.
Python 3.11, standard library only.
"""

import argparse
import datetime as dt
import json
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

TRACE_TOPIC = "RMQ_SYS_TRACE_TOPIC"
DLQ_PREFIX = "%DLQ%"


class Driver:
    def __init__(self, base, timeout, xfail, checks):
        self.base = base.rstrip("/")
        self.timeout = timeout
        self.xfail = [re.compile(x) for x in xfail]
        self.checks = checks
        self.results = []
        self.page = ""

    # -- one call ---------------------------------------------------------------------------
    def call(self, name, method, path, params=None, body=None, form=None, check=None, binary=False,
             raw=False, empty_ok=None):
        """Makes one call; returns the envelope's data when the call is OK or CHECK, else None.
        binary: an .xlsx download; raw: a bare JSON value (@OriginalControllerReturnValue);
        empty_ok: a note when an empty 200 body is what the back end gives (a null return)."""
        query = urllib.parse.urlencode(params or {}, doseq=True)
        full_path = path + ("?" + query if query else "")
        url = self.base + full_path
        headers = {"Accept": "application/json, text/plain, */*"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        elif form is not None:
            data = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        elif method in ("POST", "DELETE"):
            data = b""
        rec = {"page": self.page, "name": name, "method": method, "path": full_path,
               "request_body": body if body is not None else form, "http": None, "status": None,
               "errMsg": None, "result": None, "ms": None, "note": None, "data": None}
        start = time.monotonic()
        body_bytes = b""
        ctype = ""
        try:
            req = urllib.request.Request(url, data=data, method=method, headers=headers)
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                rec["http"] = resp.status
                ctype = resp.headers.get("Content-Type", "")
                body_bytes = resp.read()
        except urllib.error.HTTPError as e:
            rec["http"] = e.code
            ctype = e.headers.get("Content-Type", "") if e.headers else ""
            body_bytes = e.read() or b""
        except Exception as e:  # connection refused, timeout
            rec["errMsg"] = f"{type(e).__name__}: {e}"
        rec["ms"] = round((time.monotonic() - start) * 1000)

        payload = None
        if rec["http"] is not None:
            try:
                env = json.loads(body_bytes.decode("utf-8", "replace")) if body_bytes else None
            except ValueError:
                env = None
            if binary and body_bytes[:2] == b"PK":
                rec["status"] = 0
                rec["note"] = f"{ctype or 'file'}, {len(body_bytes)} bytes (xlsx)"
            elif binary and rec["http"] == 200 and not body_bytes:
                rec["errMsg"] = (f"empty {ctype or 'body'}: the export failed after the headers were sent "
                                 "(the dashboard log says why)")
            elif empty_ok and rec["http"] == 200 and not body_bytes:
                rec["status"] = 0
                rec["note"] = empty_ok
            elif raw and rec["http"] == 200 and not (isinstance(env, dict) and "status" in env):
                rec["status"] = 0  # e.g. /rocketmq/nsaddr.query: the bare address, not even quoted
                payload = env if env is not None else body_bytes.decode("utf-8", "replace")
                rec["data"] = summarize(payload)
            else:
                if isinstance(env, dict) and "status" in env:
                    rec["status"] = env.get("status")
                    rec["errMsg"] = env.get("errMsg")
                    payload = env.get("data")
                    rec["data"] = summarize(payload)
                elif isinstance(env, dict) and rec["http"] != 200:  # Spring's own error body
                    rec["errMsg"] = f"{env.get('error')}: {env.get('message') or env.get('path')}"
                else:
                    rec["errMsg"] = f"not a JSON envelope ({ctype}): {body_bytes[:200]!r}"

        if rec["http"] == 200 and rec["status"] == 0:
            rec["result"] = "OK"
            if check is not None:
                try:
                    problem = check(payload)
                except Exception as e:  # the data has another shape than the page expects
                    problem = f"unexpected data shape: {type(e).__name__}: {e}"
                if problem:
                    rec["note"] = problem
                    if self.checks:
                        rec["result"] = "CHECK"
        else:
            rec["result"] = "FAIL"
        if rec["result"] in ("FAIL", "CHECK") and any(x.search(f"{method} {path}") for x in self.xfail):
            rec["result"] = "XFAIL"
        self.results.append(rec)
        return payload if rec["result"] in ("OK", "CHECK") or (rec["result"] == "XFAIL" and rec["status"] == 0) else None

    def skip(self, name, method, path, why):
        self.results.append({"page": self.page, "name": name, "method": method, "path": path,
                             "request_body": None, "http": None, "status": None, "errMsg": None,
                             "result": "SKIP", "ms": None, "note": why, "data": None})


def summarize(v, limit=300):
    s = json.dumps(v, ensure_ascii=False, default=str)
    return s if len(s) <= limit else s[:limit] + "..."


def need(cond, msg):
    return None if cond else msg


def page_content(d):
    return ((d or {}).get("page") or {}).get("content") or []


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base_url", help="the dashboard, e.g. http://127.0.0.1:8082")
    ap.add_argument("--traffic", help="JSON written by traffic.java (fills the names below)")
    ap.add_argument("--topic")
    ap.add_argument("--group", help="a consumer group online on TOPIC")
    ap.add_argument("--producer-group", help="a producer group online on TOPIC")
    ap.add_argument("--dlq-group", help="a consumer group whose %%DLQ%% topic holds messages")
    ap.add_argument("--key", help="a message key on TOPIC")
    ap.add_argument("--msg-id", help="a message id (unique key) on TOPIC")
    ap.add_argument("--client-id", help="GROUP's client id, used when consumerConnection gives none")
    ap.add_argument("--cluster", default=None, help="cluster name (default: the first one listed)")
    ap.add_argument("--since-minutes", type=int, default=180, help="time window of the page queries")
    ap.add_argument("--report", help="write the JSON report here")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per call (default 30)")
    ap.add_argument("--xfail", action="append", default=[], help="REGEX on 'METHOD /path': expected failure")
    ap.add_argument("--no-writes", action="store_true", help="only the calls that read")
    ap.add_argument("--no-checks", action="store_true", help="judge by status only")
    ap.add_argument("--quiet", action="store_true", help="no table, only the summary line")
    a = ap.parse_args(argv)

    t = {}
    if a.traffic:
        with open(a.traffic) as f:
            t = json.load(f)
    topic = a.topic or t.get("topic")
    group = a.group or t.get("group")
    producer_group = a.producer_group or t.get("producerGroup")
    dlq_group = a.dlq_group or t.get("dlqGroup")
    key = a.key or t.get("key")
    msg_id = a.msg_id or (t.get("msgIds") or [None])[0]
    client_id_hint = a.client_id or t.get("clientId")
    lag_group = t.get("lagGroup")  # online, lagging (traffic.java); absent when names are given by hand
    tx_msg_id = t.get("txMsgId")    # a committed transaction's message
    missing = [n for n, v in (("topic", topic), ("group", group), ("producer-group", producer_group),
                              ("dlq-group", dlq_group), ("key", key), ("msg-id", msg_id)) if not v]
    if missing:
        ap.error("missing names: " + ", ".join("--" + m for m in missing) + " (or --traffic)")

    d = Driver(a.base_url, a.timeout, a.xfail, not a.no_checks)
    writes = not a.no_writes
    now_ms = int(time.time() * 1000)
    begin_ms = now_ms - a.since_minutes * 60_000
    end_ms = now_ms + 60_000
    today = dt.date.today().strftime("%Y-%m-%d")

    # The dashboard must answer at all.
    try:
        urllib.request.urlopen(d.base + "/login/check.query", timeout=a.timeout).read()
    except urllib.error.HTTPError:
        pass
    except Exception as e:
        print(f"drive.py: {d.base} is not reachable: {e}", file=sys.stderr)
        return 2

    # ---- App start (router / Login page) -----------------------------------------------------
    d.page = "login"
    d.call("login check", "GET", "/login/check.query")

    # ---- OPS page --------------------------------------------------------------------------
    d.page = "ops"
    home = d.call("ops home", "GET", "/ops/homePage.query",
                  check=lambda x: need(x.get("useVIPChannel") in (True, False), "no useVIPChannel"))
    d.call("namesrv addr", "GET", "/rocketmq/nsaddr.query", raw=True,
           check=lambda x: need(x, "empty namesrv address"))
    d.call("rocketmq status", "GET", "/ops/rocketMqStatus.query")
    if writes and home:
        cur_ns = home.get("currentNamesrv") or ""
        d.call("update namesrv (same value)", "POST", "/ops/updateNameSvrAddr.do",
               params={"nameSvrAddrList": cur_ns})
        first_ns = (home.get("namesvrAddrList") or [cur_ns])[0]
        d.call("add namesrv (already listed)", "POST", "/ops/addNameSvrAddr.do",
               params={"newNamesrvAddr": first_ns})
        vip = "true" if home.get("useVIPChannel") else "false"
        d.call(f"update isVIPChannel (unchanged: {vip})", "POST", "/ops/updateIsVIPChannel.do",
               params={"useVIPChannel": vip})
        d.call("update useTLS (unchanged)", "POST", "/ops/updateUseTLS.do",
               params={"useTLS": "true" if home.get("useTLS") else "false"})

    # ---- Cluster page ------------------------------------------------------------------------
    d.page = "cluster"
    cl = d.call("cluster list", "GET", "/cluster/list.query",
                check=lambda x: need(x["clusterInfo"]["brokerAddrTable"] and all(x["brokerServer"].values()),
                                     "no broker or no broker runtime stats"))
    broker_addrs, broker_names, cluster_names = [], [], []
    if cl:
        info = cl.get("clusterInfo") or {}
        cluster_names = list((info.get("clusterAddrTable") or {}).keys())
        for bname, bd in (info.get("brokerAddrTable") or {}).items():
            broker_names.append(bname)
            for _bid, addr in sorted((bd.get("brokerAddrs") or {}).items()):
                broker_addrs.append(addr)
    cluster = a.cluster or (cluster_names[0] if cluster_names else "DefaultCluster")
    if not broker_addrs:
        d.skip("broker config", "GET", "/cluster/brokerConfig.query", "no broker address (cluster list failed)")
    for addr in broker_addrs:
        d.call(f"broker config {addr}", "GET", "/cluster/brokerConfig.query", params={"brokerAddr": addr},
               check=lambda x: need(x and "brokerName" in x, "no brokerName in the config"))

    # ---- Dashboard page ----------------------------------------------------------------------
    d.page = "dashboard"
    d.call("cluster list", "GET", "/cluster/list.query")
    d.call("broker history (today)", "GET", "/dashboard/broker.query", params={"date": today})
    d.call("topic current", "GET", "/dashboard/topicCurrent.query")
    d.call("topic history (today)", "GET", "/dashboard/topic.query", params={"date": today, "topicName": topic},
           empty_ok="empty body: nothing collected for the topic today (the page's response.json() fails)")

    # ---- Topic page --------------------------------------------------------------------------
    d.page = "topic"
    d.call("topic list (with types)", "GET", "/topic/list.queryTopicType",
           check=lambda x: need(topic in x["topicNameList"], f"{topic} not listed"))
    d.call("cluster list (for the add dialog)", "GET", "/cluster/list.query")
    d.call("topic stats", "GET", "/topic/stats.query", params={"topic": topic},
           check=lambda x: need(x["offsetTable"], "empty offsetTable"))
    d.call("topic route", "GET", "/topic/route.query", params={"topic": topic},
           check=lambda x: need(x["brokerDatas"] and x["queueDatas"], "no brokerDatas/queueDatas"))
    d.call("topic consumers", "GET", "/topic/queryConsumerByTopic.query", params={"topic": topic},
           check=lambda x: need(group in x, f"{group} not among the topic's consumers"))
    d.call("topic consumer groups", "GET", "/topic/queryTopicConsumerInfo.query", params={"topic": topic},
           check=lambda x: need(group in (x.get("groupList") or []), f"{group} not in groupList"))
    d.call("topic config", "GET", "/topic/examineTopicConfig.query", params={"topic": topic},
           check=lambda x: need(x, "no topic config"))
    if writes:
        d.call("send message (dialog)", "POST", "/topic/sendTopicMessage.do",
               body={"topic": topic, "key": key, "tag": "TagA",
                     "messageBody": "sent by the dashboard harness", "traceEnabled": False},
               check=lambda x: need(x.get("sendStatus") == "SEND_OK", f"sendStatus {x.get('sendStatus')}"))
        scratch = topic + "_dash"
        d.call("create topic", "POST", "/topic/createOrUpdate.do",
               body={"clusterNameList": [cluster], "brokerNameList": [], "topicName": scratch,
                     "writeQueueNums": 4, "readQueueNums": 4, "perm": 6, "order": False,
                     "messageType": "NORMAL"})
        d.call("topic config (created)", "GET", "/topic/examineTopicConfig.query", params={"topic": scratch},
               check=lambda x: need(x and x[0]["writeQueueNums"] == 4, "not created with 4 queues"))
        d.call("delete topic", "POST", "/topic/deleteTopic.do", params={"topic": scratch})

    # ---- Consumer page -----------------------------------------------------------------------
    d.page = "consumer"
    d.call("proxy home", "GET", "/proxy/homePage.query")
    groups = d.call("group list", "GET", "/consumer/groupList.query",
                    params={"skipSysGroup": "false", "address": "undefined"})
    if groups is None or not any(g.get("group") == group for g in groups):
        # The list is cached from the first call; the page's refresh button rebuilds it.
        d.call("refresh all groups", "GET", "/consumer/group.refresh.all")
        groups = d.call("group list (after refresh)", "GET", "/consumer/groupList.query",
                        params={"skipSysGroup": "false", "address": "undefined"},
                        check=lambda x: need(any(g["group"] == group for g in x), f"{group} not listed"))
    d.call("refresh group", "GET", "/consumer/group.refresh", params={"consumerGroup": group},
           check=lambda x: need(x and x.get("count", 0) > 0, "no online client counted"))
    d.call("group", "GET", "/consumer/group.query", params={"consumerGroup": group})
    if lag_group:
        d.call("refresh lagging group", "GET", "/consumer/group.refresh", params={"consumerGroup": lag_group},
               check=lambda x: need(x and x.get("count", 0) > 0 and x.get("diffTotal", 0) > 0,
                                    f"online clients {(x or {}).get('count')}, lag {(x or {}).get('diffTotal')}"))
    rows = {g.get("group"): g for g in (groups or [])}
    client_ids = {}
    for g in (group, dlq_group):
        addr = ",".join((rows.get(g) or {}).get("address") or broker_addrs)
        if not addr:
            why = "no broker address for the group (group list and cluster list failed)"
            d.skip(f"consumer detail {g}", "GET", "/consumer/queryTopicByConsumer.query", why)
            d.skip(f"consumer client {g}", "GET", "/consumer/consumerConnection.query", why)
            continue
        d.call(f"consumer detail {g}", "GET", "/consumer/queryTopicByConsumer.query",
               params={"consumerGroup": g, "address": addr},
               check=lambda x: need(any(i.get("topic") == topic for i in x), f"{topic} not consumed"))
        conn = d.call(f"consumer client {g}", "GET", "/consumer/consumerConnection.query",
                      params={"consumerGroup": g, "address": addr},
                      check=lambda x: need(x.get("connectionSet"), "no connection"))
        ids = [c.get("clientId") for c in ((conn or {}).get("connectionSet") or []) if c.get("clientId")]
        client_ids[g] = ids[0] if ids else None
    cid = client_ids.get(group)
    running_name = "consumer running info"
    if not cid and client_id_hint:
        cid = client_id_hint
        running_name += " (clientId from --client-id/--traffic)"
    if cid:
        d.call(running_name, "GET", "/consumer/consumerRunningInfo.query",
               params={"consumerGroup": group, "clientId": cid, "jstack": "false"},
               check=lambda x: need(x.get("subscriptionSet") or x.get("mqTable"), "no subscription/mqTable"))
    else:
        d.skip("consumer running info", "GET", "/consumer/consumerRunningInfo.query", "no clientId")
    d.call("consumer config", "GET", "/consumer/examineSubscriptionGroupConfig.query",
           params={"consumerGroup": group}, check=lambda x: need(x, "no subscription group config"))
    if writes:
        sg = group + "_dash"
        d.call("create group", "POST", "/consumer/createOrUpdate.do",
               body={"clusterNameList": [cluster], "brokerNameList": [],
                     "subscriptionGroupConfig": {"groupName": sg, "consumeEnable": True,
                                                 "consumeBroadcastEnable": False,
                                                 "consumeFromMinEnable": True, "retryQueueNums": 1,
                                                 "retryMaxTimes": 16, "brokerId": 0,
                                                 "whichBrokerWhenConsumeSlowly": 1,
                                                 "consumeMessageOrderly": False}})
        d.call("group config (created)", "GET", "/consumer/examineSubscriptionGroupConfig.query",
               params={"consumerGroup": sg}, check=lambda x: need(x, "group not created"))
        names = d.call("group brokers", "GET", "/consumer/fetchBrokerNameList.query",
                       params={"consumerGroup": sg}, check=lambda x: need(x, "no broker holds the group"))
        d.call("delete group", "POST", "/consumer/deleteSubGroup.do",
               body={"groupName": sg, "brokerNameList": list(names or broker_names)})

    # ---- Producer page -----------------------------------------------------------------------
    d.page = "producer"
    d.call("topic list", "GET", "/topic/list.query", params={"skipSysProcess": "true"},
           check=lambda x: need(topic in x["topicList"], f"{topic} not listed"))
    d.call("producer connection", "GET", "/producer/producerConnection.query",
           params={"producerGroup": producer_group, "topic": topic},
           check=lambda x: need(x.get("connectionSet"), "no connection"))

    # ---- Message page ------------------------------------------------------------------------
    d.page = "message"
    d.call("topic list", "GET", "/topic/list.query")
    p1 = d.call("by topic (page 1)", "POST", "/message/queryMessagePageByTopic.query",
                body={"topic": topic, "begin": begin_ms, "end": end_ms, "pageNum": 1, "pageSize": 10,
                      "taskId": ""},
                check=lambda x: need(page_content(x), "no message in the time window"))
    if p1 and p1.get("taskId"):
        d.call("by topic (page 2, same task)", "POST", "/message/queryMessagePageByTopic.query",
               body={"topic": topic, "begin": begin_ms, "end": end_ms, "pageNum": 2, "pageSize": 10,
                     "taskId": p1["taskId"]})
    d.call("by key", "GET", "/message/queryMessageByTopicAndKey.query", params={"topic": topic, "key": key},
           check=lambda x: need(any(m.get("msgId") == msg_id for m in x), f"{msg_id} not found by key {key}"))
    d.call("by id (detail)", "GET", "/message/viewMessage.query", params={"msgId": msg_id, "topic": topic},
           check=lambda x: need((x.get("messageView") or {}).get("msgId") == msg_id, "another or no message"))
    if tx_msg_id:
        d.call("by id (committed transaction)", "GET", "/message/viewMessage.query",
               params={"msgId": tx_msg_id, "topic": topic},
               check=lambda x: need((x.get("messageView") or {}).get("msgId") == tx_msg_id
                                    and ((x.get("messageView") or {}).get("properties") or {}).get("TRAN_MSG") == "true",
                                    "not the transaction's committed message (msgId, TRAN_MSG=true)"))
    d.call("by topic (legacy API)", "GET", "/message/queryMessageByTopic.query",
           params={"topic": topic, "begin": begin_ms, "end": end_ms}, check=lambda x: need(x, "no message"))
    if writes:
        d.call("resend to group (consume directly)", "POST", "/message/consumeMessageDirectly.do",
               params={"msgId": msg_id, "consumerGroup": group, "topic": topic},
               check=lambda x: need(x.get("consumeResult") == "CR_SUCCESS", f"consumeResult {x.get('consumeResult')}"))

    # ---- Message trace page ------------------------------------------------------------------
    d.page = "messageTrace"
    d.call("topic list", "GET", "/topic/list.query")
    d.call("trace: message by id", "GET", "/messageTrace/viewMessage.query",
           params={"msgId": msg_id, "topic": topic}, check=lambda x: need(x, "no message"))
    d.call("trace graph", "GET", "/messageTrace/viewMessageTraceGraph.query",
           params={"msgId": msg_id, "traceTopic": TRACE_TOPIC},
           check=lambda x: need(x.get("producerNode"), "no producer trace"))
    d.call("trace detail", "GET", "/messageTrace/viewMessageTraceDetail.query", params={"msgId": msg_id},
           check=lambda x: need(x, "no trace record"))

    # ---- DLQ message page --------------------------------------------------------------------
    d.page = "dlqMessage"
    d.call("group list", "GET", "/consumer/groupList.query", params={"skipSysGroup": "false", "address": "undefined"})
    dlq = d.call("DLQ by group", "POST", "/dlqMessage/queryDlqMessageByConsumerGroup.query",
                 body={"topic": DLQ_PREFIX + dlq_group, "begin": begin_ms, "end": end_ms, "pageNum": 1,
                       "pageSize": 10, "taskId": ""},
                 check=lambda x: need(page_content(x), "no message in the DLQ"))
    msgs = page_content(dlq)
    if msgs:
        m = msgs[0]
        props = m.get("properties") or {}
        d.call("DLQ message detail", "GET", "/message/viewMessage.query",
               params={"msgId": m["msgId"], "topic": DLQ_PREFIX + dlq_group},
               check=lambda x: need(x.get("messageView"), "no message"))
        if writes:
            req = [{"topicName": props.get("RETRY_TOPIC", topic), "topic": props.get("RETRY_TOPIC", topic),
                    "msgId": props.get("ORIGIN_MESSAGE_ID", m["msgId"]), "consumerGroup": dlq_group}]
            d.call("DLQ resend (batch)", "POST", "/dlqMessage/batchResendDlqMessage.do", body=req,
                   check=lambda x: need(x and x[0].get("consumeResult"), "no consumeResult"))
        d.call("DLQ export", "GET", "/dlqMessage/exportDlqMessage.do",
               params={"msgId": m["msgId"], "consumerGroup": dlq_group}, binary=True)
        d.call("DLQ export (batch)", "POST", "/dlqMessage/batchExportDlqMessage.do",
               body=[{"msgId": m["msgId"], "consumerGroup": dlq_group}], binary=True)
    else:
        for n, meth, p in (("DLQ message detail", "GET", "/message/viewMessage.query"),
                           ("DLQ resend (batch)", "POST", "/dlqMessage/batchResendDlqMessage.do"),
                           ("DLQ export", "GET", "/dlqMessage/exportDlqMessage.do"),
                           ("DLQ export (batch)", "POST", "/dlqMessage/batchExportDlqMessage.do")):
            d.skip(n, meth, p, "no DLQ message listed")

    # ---- Consumer monitor (consumer page's monitor dialog) -----------------------------------
    d.page = "monitor"
    d.call("monitor configs", "GET", "/monitor/consumerMonitorConfig.query")
    if writes:
        mg = group + "_dash"
        d.call("monitor create", "POST", "/monitor/createOrUpdateConsumerMonitor.do",
               params={"consumeGroupName": mg, "minCount": 1, "maxDiffTotal": 100})
        d.call("monitor by group", "GET", "/monitor/consumerMonitorConfigByGroupName.query",
               params={"consumeGroupName": mg}, check=lambda x: need(x, "not stored"))
        d.call("monitor delete", "POST", "/monitor/deleteConsumerMonitor.do", params={"consumeGroupName": mg})

    # ---- ACL page (RocketMQ 5 ACL 2.0: users and policies) -----------------------------------
    d.page = "acl"
    d.call("cluster list", "GET", "/cluster/list.query")
    d.call("users", "GET", "/acl/users.query", params={"clusterName": cluster})
    d.call("acls", "GET", "/acl/acls.query", params={"clusterName": cluster})

    # ---- Topic page: the consumer-offset buttons, last ----------------------------------------
    # The broker pushes RESET_CONSUMER_CLIENT_OFFSET to the online client, and the Java client
    # (MQClientInstance.resetOffset) then sleeps 10 s in a remoting thread: consumerRunningInfo and
    # consumeMessageDirectly right after it would time out on the client's side, whatever broker.
    # The broker answers "THe consumer group <G> not exist" while G has committed no offset on TOPIC.
    if writes:
        d.page = "topic"
        def rollback_ok(x):
            bad = [f"{k}: {v.get('errMsg')}" for k, v in x.items() if not v.get("status")]
            return need(x and not bad, "; ".join(bad) or "no result")
        d.call("reset offset to now", "POST", "/consumer/resetOffset.do",
               body={"resetTime": now_ms, "consumerGroupList": [group], "topic": topic, "force": True},
               check=rollback_ok)
        d.call("skip accumulate", "POST", "/consumer/skipAccumulate.do",
               body={"resetTime": -1, "consumerGroupList": [group], "topic": topic, "force": True},
               check=rollback_ok)

    # ---- Report ------------------------------------------------------------------------------
    counts = {}
    for r in d.results:
        counts[r["result"]] = counts.get(r["result"], 0) + 1
    if not a.quiet:
        print_table(d.results)
    summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
    endpoints = sorted({(r["method"], r["path"].split("?")[0]) for r in d.results})
    print(f"drive.py: {len(d.results)} calls on {len(endpoints)} endpoints: {summary}")
    if a.report:
        with open(a.report, "w") as f:
            json.dump({"base_url": d.base, "time": dt.datetime.now().isoformat(timespec="seconds"),
                       "names": {"topic": topic, "group": group, "producerGroup": producer_group,
                                 "dlqGroup": dlq_group, "key": key, "msgId": msg_id, "cluster": cluster,
                                 "lagGroup": lag_group, "txMsgId": tx_msg_id},
                       "counts": counts,
                       "endpoints": [f"{m} {p}" for m, p in endpoints],
                       "calls": d.results}, f, indent=2, ensure_ascii=False)
    return 1 if counts.get("FAIL") or counts.get("CHECK") else 0


def print_table(results):
    rows = []
    for i, r in enumerate(results, 1):
        msg = r["errMsg"] or r["note"] or ""
        msg = " ".join(str(msg).split())
        if len(msg) > 110:
            msg = msg[:107] + "..."
        path = r["path"].split("?")[0]
        rows.append((str(i), r["page"], r["result"], str(r["http"] or "-"),
                     "-" if r["status"] is None else str(r["status"]), str(r["ms"] or "-"),
                     f"{r['method']} {path}", r["name"], msg))
    head = ("#", "page", "result", "http", "status", "ms", "call", "what", "errMsg / note")
    widths = [max(len(x[i]) for x in rows + [head]) for i in range(len(head) - 1)]
    fmt = "  ".join("{:<%d}" % w for w in widths) + "  {}"
    print(fmt.format(*head))
    for row in rows:
        print(fmt.format(*row))


if __name__ == "__main__":
    sys.exit(main())
