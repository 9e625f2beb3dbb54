'use strict';
// Conformance harness: runs one scenario of a real third-party RocketMQ client (ali-ons, from npm)
// against a freshly started mqdesk-broker.
//
//   node <scenario>.test.js <path/to/mqdesk-broker>      (or MQDESK_BROKER=<path> node <scenario>.test.js)
//
// Each scenario gets its own temp dir (store/ + broker.conf + broker-N.{stdout,stderr}.log), its own
// broker process (namesrv + broker on 127.0.0.1, ports picked by the broker), unique topic and
// group names, and one MQClient (TCP connection set) per Producer/Consumer. On success every client
// is closed, the broker is stopped with SIGTERM (it must exit 0 and leave no `abort` file) and the
// temp dir is removed; the process exits 0. On failure it prints what differed, the client-side
// wire log (every request ali-ons sent and what the broker answered), the errors the clients
// emitted and the broker's stderr, keeps the temp dir, kills the broker and exits 1.
//
// Environment: MQDESK_CONFORMANCE_VERBOSE=1 prints the wire log live; MQDESK_CONFORMANCE_KEEP=1
// keeps the temp dir on success; MQDESK_CONFORMANCE_TIMEOUT_MS overrides the scenario deadline.
// Plain node (>= 18) + node:assert; no test framework.

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const util = require('node:util');
const { Broker, note, sleep, withTimeout, elapsed, T0 } = require('./broker_process');

let ons;
let RemotingClient;
try {
  ons = require('ali-ons');
  RemotingClient = require('ali-ons/lib/remoting_client');
} catch (err) {
  console.error(`conformance: cannot load ali-ons (${err.message}).\n` +
    `Run \`npm ci --no-audit --no-fund\` in ${__dirname} (scripts/test.sh does this).`);
  process.exit(2);
}
const RequestCode = require('ali-ons/lib/protocol/request_code');
const ResponseCode = require('ali-ons/lib/protocol/response_code');

const VERBOSE = process.env.MQDESK_CONFORMANCE_VERBOSE === '1';
const KEEP = process.env.MQDESK_CONFORMANCE_KEEP === '1';
const DEADLINE_MS = Number(process.env.MQDESK_CONFORMANCE_TIMEOUT_MS) || 160000;
const CLIENT_START_TIMEOUT_MS = 20000;
const CLIENT_CLOSE_TIMEOUT_MS = 15000;
const MAGIC_V1 = 0xDAA320A7; // MessageDecoder v1 (4.x); ali-ons cannot read anything else

const invert = o => Object.fromEntries(Object.entries(o).map(([k, v]) => [v, k]));
const REQUEST_NAMES = { ...invert(RequestCode), [RequestCode.GET_ROUTEINTO_BY_TOPIC]: 'GET_ROUTEINFO_BY_TOPIC' };
const RESPONSE_NAMES = invert(ResponseCode);
const reqName = c => `${REQUEST_NAMES[c] || 'CODE'}(${c})`;
const resName = c => `${RESPONSE_NAMES[c] || 'CODE'}(${c})`;

// ---------------------------------------------------------------------------------------------
// Wire log: every request ali-ons sends (invoke and invokeOneway on any MQClient) and the reply.
// Pulled record batches are also decoded here, independently of ali-ons (whose decoder silently
// drops the rest of a batch on a malformed record), and problems are recorded as anomalies.

const wire = { entries: [], anomalies: [] };
let entrySeq = 0;

function clientLabel(remoting) {
  try {
    return remoting.clientId || '?';
  } catch (_) {
    return '?';
  }
}

function anomaly(entry, text) {
  const line = `#${entry.id} ${reqName(entry.code)} ${JSON.stringify(entry.header)}: ${text}`;
  wire.anomalies.push(line);
  if (VERBOSE) console.log(`ANOMALY ${line}`);
}

function formatEntry(e) {
  const head = `#${e.id} ${elapsed(e.t0)} ${e.client} -> ${e.addr} ${reqName(e.code)} ` +
    `${JSON.stringify(e.header)}${e.bodyLen ? ` body=${e.bodyLen}B` : ''}`;
  if (e.oneway) return `${head} (oneway, no reply awaited)`;
  if (e.err) return `${head}\n      => ERROR after ${e.t1 - e.t0} ms: ${e.err}`;
  if (!e.res) return `${head}\n      => (no reply yet, pending ${Date.now() - e.t0} ms)`;
  const r = e.res;
  let s = `${head}\n      => ${resName(r.code)} after ${e.t1 - e.t0} ms` +
    `${r.remark ? ` remark=${JSON.stringify(r.remark)}` : ''} ${JSON.stringify(r.ext || {})}` +
    `${r.bodyLen ? ` body=${r.bodyLen}B` : ''}`;
  if (e.records) {
    s += `\n      records: ${e.records.map(m => `[q${m.queueId}@${m.queueOffset} tags=${m.tags} ` +
      `body=${m.bodyLen}B sysFlag=${m.sysFlag}]`).join(' ')}`;
  }
  if (e.bodyText) s += `\n      body: ${e.bodyText}`;
  return s;
}

// Decodes a PULL_MESSAGE body: concatenated v1 records (docs/spec/store-format.md, Appendix B
// of remoting.md). Returns { records, error }.
function decodeRecords(buf) {
  const records = [];
  let pos = 0;
  while (pos < buf.length) {
    const at = pos;
    try {
      if (buf.length - pos < 4) throw new Error(`${buf.length - pos} trailing bytes`);
      const totalSize = buf.readInt32BE(pos);
      const magic = buf.readUInt32BE(pos + 4);
      if (magic !== MAGIC_V1) throw new Error(`magic 0x${magic.toString(16)} (expected v1 0xdaa320a7)`);
      const queueId = buf.readInt32BE(pos + 12);
      const queueOffset = Number(buf.readBigInt64BE(pos + 20));
      const commitLogOffset = Number(buf.readBigInt64BE(pos + 28));
      const sysFlag = buf.readInt32BE(pos + 36);
      if (sysFlag & 0x30) throw new Error(`sysFlag ${sysFlag} marks an IPv6 host (ali-ons reads IPv4 only)`);
      let p = pos + 40 + 8 + 8 + 8; // bornTimestamp, bornHost, storeTimestamp
      const storeHost = `${buf[p]}.${buf[p + 1]}.${buf[p + 2]}.${buf[p + 3]}:${buf.readInt32BE(p + 4)}`;
      p += 8 + 4 + 8; // storeHost, reconsumeTimes, preparedTransactionOffset
      const bodyLen = buf.readInt32BE(p);
      p += 4 + bodyLen;
      const topicLen = buf.readUInt8(p);
      const topic = buf.toString('utf8', p + 1, p + 1 + topicLen);
      p += 1 + topicLen;
      const propLen = buf.readInt16BE(p);
      const props = {};
      for (const item of buf.toString('utf8', p + 2, p + 2 + propLen).split('\u0002')) {
        const i = item.indexOf('\u0001');
        if (i > 0) props[item.slice(0, i)] = item.slice(i + 1);
      }
      p += 2 + propLen;
      if (p - pos !== totalSize) {
        throw new Error(`TOTALSIZE says ${totalSize} bytes but its fields take ${p - pos}`);
      }
      if (p > buf.length) throw new Error(`record runs past the end of the body (${buf.length} bytes)`);
      records.push({ queueId, queueOffset, commitLogOffset, sysFlag, storeHost, bodyLen, topic,
        tags: props.TAGS, keys: props.KEYS });
      pos = p;
    } catch (err) {
      return { records, error: `record #${records.length} at body offset ${at}: ${err.message}` };
    }
  }
  return { records, error: null };
}

function inspectReply(e, res) {
  const ext = res.extFields || {};
  if (e.code === RequestCode.PULL_MESSAGE) {
    for (const f of [ 'nextBeginOffset', 'minOffset', 'maxOffset' ]) {
      if (ext[f] === undefined) anomaly(e, `reply ${resName(res.code)} lacks header field ${f}`);
    }
    if (res.code === ResponseCode.SUCCESS) {
      const { records, error } = decodeRecords(res.body || Buffer.alloc(0));
      e.records = records;
      if (error) anomaly(e, `malformed pulled record: ${error}`);
      if (!records.length) anomaly(e, 'SUCCESS (FOUND) with no records in the body');
      for (const r of records) {
        if (r.topic !== e.header.topic) anomaly(e, `record topic ${r.topic} != requested ${e.header.topic}`);
        if (r.queueId !== Number(e.header.queueId)) anomaly(e, `record queueId ${r.queueId} != requested`);
        if (r.queueOffset < Number(e.header.queueOffset)) anomaly(e, `record queueOffset ${r.queueOffset} < requested`);
      }
      const last = records[records.length - 1];
      if (last && Number(ext.nextBeginOffset) <= last.queueOffset) {
        anomaly(e, `nextBeginOffset ${ext.nextBeginOffset} <= last record's queueOffset ${last.queueOffset}`);
      }
    }
  } else if (e.code === RequestCode.SEND_MESSAGE_V2 && res.code === ResponseCode.SUCCESS) {
    for (const f of [ 'msgId', 'queueId', 'queueOffset' ]) {
      if (ext[f] === undefined) anomaly(e, `SUCCESS reply lacks header field ${f}`);
    }
  } else if (e.code === RequestCode.GET_CONSUMER_LIST_BY_GROUP && res.body) {
    e.bodyText = res.body.toString('utf8').slice(0, 400);
  }
}

const origInvoke = RemotingClient.prototype.invoke;
RemotingClient.prototype.invoke = async function tappedInvoke(addr, command, timeout) {
  const e = { id: ++entrySeq, t0: Date.now(), t1: 0, client: clientLabel(this), addr: addr || 'namesrv',
    code: command.code, header: Object.assign({}, command.customHeader),
    bodyLen: command.body ? command.body.length : 0, res: null, err: null };
  wire.entries.push(e);
  if (VERBOSE) console.log(`WIRE ${formatEntry(e).split('\n')[0]}`);
  try {
    const res = await origInvoke.call(this, addr, command, timeout);
    e.t1 = Date.now();
    e.res = { code: res.code, remark: res.remark, ext: res.extFields,
      bodyLen: res.body ? res.body.length : 0 };
    inspectReply(e, res);
    if (VERBOSE) console.log(`WIRE ${formatEntry(e)}`);
    return res;
  } catch (err) {
    e.t1 = Date.now();
    e.err = `${err.name}: ${err.message}`;
    if (VERBOSE) console.log(`WIRE ${formatEntry(e)}`);
    throw err;
  }
};

const origInvokeOneway = RemotingClient.prototype.invokeOneway;
RemotingClient.prototype.invokeOneway = async function tappedInvokeOneway(addr, command) {
  const e = { id: ++entrySeq, t0: Date.now(), t1: Date.now(), client: clientLabel(this), addr: addr || 'namesrv',
    code: command.code, header: Object.assign({}, command.customHeader), bodyLen: 0, oneway: true };
  wire.entries.push(e);
  if (VERBOSE) console.log(`WIRE ${formatEntry(e)}`);
  return origInvokeOneway.call(this, addr, command);
};

// ---------------------------------------------------------------------------------------------
// The broker process.

// ---------------------------------------------------------------------------------------------
// Scenario context.

class Harness {
  constructor(scenario, brokerPath, options = {}) {
    this.scenario = scenario;
    this.root = fs.mkdtempSync(path.join(os.tmpdir(), `mqdesk-conformance-${scenario}-`));
    this.broker = new Broker(brokerPath, this.root, options.brokerConf || []);
    this.clients = [];
    this.clientErrors = [];
    this.nameSeq = 0;
    this.wire = wire;
    this.note = note;
    this.sleep = sleep;
  }

  // A unique topic / group / instance name: [A-Za-z0-9_-] only, well under 127 characters.
  name(kind) {
    const short = this.scenario.replace(/[^A-Za-z0-9]/g, '').slice(0, 24);
    return `${kind}_${short}_${process.pid}_${Date.now().toString(36)}_${++this.nameSeq}`;
  }

  // A new topic with `queues` queues, created on the broker as an operator would before use: as
  // with a Java broker, a route lookup does not create one and ali-ons has no TBW102 fallback
  // (its route lookup throws on TOPIC_NOT_EXIST). Sent through ali-ons' own createTopic.
  async topic(queues = 4) {
    const topic = this.name('T');
    if (!this.topicAdmin) this.topicAdmin = await this.makeProducer({ label: 'topic-admin' });
    await this.topicAdmin._mqClient.createTopic(this.broker.addr, 'TBW102', {
      topicName: topic, readQueueNums: queues, writeQueueNums: queues, perm: 6,
      topicFilterType: 'SINGLE_TAG', topicSysFlag: 0, order: false,
    }, 5000);
    return topic;
  }

  logger(label) {
    const record = level => (...args) => {
      const text = `${label} ${level}: ${util.format(...args)}`;
      this.clientErrors.push(`${elapsed(Date.now())} ${text}`);
      if (VERBOSE) console.log(text);
    };
    return { info() {}, debug() {}, warn: record('warn'), error: record('error') };
  }

  baseOptions(label) {
    return { httpclient: {}, nameSrv: this.broker.namesrv, instanceName: this.name('inst'), logger: this.logger(label) };
  }

  async track(label, client) {
    client.on('error', err => {
      this.clientErrors.push(`${elapsed(Date.now())} ${label} error event: ${err.name}: ${err.message}`);
      if (VERBOSE) console.log(`${label} error event: ${err.message}`);
    });
    const entry = { label, client, closed: false };
    this.clients.push(entry);
    await withTimeout(client.ready(), CLIENT_START_TIMEOUT_MS, `${label} start (ready())`);
    return client;
  }

  // Producer with its own MQClient; options are passed through to ali-ons.
  async makeProducer(opts = {}) {
    const label = opts.label || `producer#${this.clients.length + 1}`;
    const { label: _l, ...rest } = opts;
    const p = new ons.Producer({ ...this.baseOptions(label), producerGroup: this.name('PG'), ...rest });
    return this.track(label, p);
  }

  // Consumer with its own MQClient; consumerGroup is required (ali-ons asserts it).
  async makeConsumer(opts = {}) {
    const label = opts.label || `consumer#${this.clients.length + 1}`;
    const { label: _l, ...rest } = opts;
    const c = new ons.Consumer({ ...this.baseOptions(label), ...rest });
    return this.track(label, c);
  }

  async close(client) {
    const entry = this.clients.find(e => e.client === client);
    if (!entry || entry.closed) return;
    entry.closed = true;
    await withTimeout(client.close(), CLIENT_CLOSE_TIMEOUT_MS, `${entry.label}.close()`);
    note(`${entry.label} closed`);
  }

  async closeAll() {
    for (const entry of this.clients.slice().reverse()) await this.close(entry.client);
  }

  // Polls predicate (sync or async) every 50 ms. `what` may be a function, called on timeout, to
  // describe what was expected and what was seen. Fails early if the broker died or a wire
  // anomaly was recorded (waiting longer would only hide the cause).
  async waitFor(predicate, timeoutMs, what) {
    const deadline = Date.now() + timeoutMs;
    const anomaliesBefore = wire.anomalies.length;
    const describe = () => (typeof what === 'function' ? what() : what);
    for (;;) {
      if (await predicate()) return;
      if (this.broker.unexpectedExit) {
        throw new Error(`${this.broker.unexpectedExit} while waiting for: ${describe()}`);
      }
      if (wire.anomalies.length > anomaliesBefore) {
        throw new Error(`protocol anomaly while waiting for: ${describe()}\n  ${wire.anomalies.slice(anomaliesBefore).join('\n  ')}`);
      }
      if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${describe()}`);
      await sleep(50);
    }
  }

  // Queue ids the consumer currently owns (pulls) for topic, sorted.
  ownedQueues(consumer, topic) {
    const ids = [];
    for (const { messageQueue } of consumer.processQueueTable.values()) {
      if (messageQueue.topic === topic) ids.push(Number(messageQueue.queueId));
    }
    return ids.sort((a, b) => a - b);
  }

  // The broker's committed offset of group on topic/queueId (QUERY_CONSUMER_OFFSET, sent through
  // client's own connection); -1 when the broker answers QUERY_NOT_FOUND.
  async queryCommittedOffset(client, topic, group, queueId) {
    try {
      return await client._mqClient.queryConsumerOffset(this.broker.addr,
        { topic, consumerGroup: group, queueId }, 5000);
    } catch (err) {
      if (err.name === 'MQClientException' && err.code === ResponseCode.QUERY_NOT_FOUND) return -1;
      throw err;
    }
  }

  // producer.send(msg) with a failure message that names what was sent and what ali-ons reported.
  async send(producer, msg, what) {
    try {
      return await producer.send(msg);
    } catch (err) {
      throw new Error(`send of ${what} to topic ${msg.topic} rejected: ${err.name}` +
        `${err.code !== undefined ? ` code ${err.code}` : ''}: ${err.message}`);
    }
  }

  // Subscribes and returns the array every delivered message is appended to, as
  // { at: Date.now() on delivery, label, msg }.
  collect(consumer, topic, expression, label = 'consumer') {
    const got = [];
    consumer.subscribe(topic, expression, async msg => {
      got.push({ at: Date.now(), label, msg });
    });
    return got;
  }

  wireTail(n = 60) {
    return wire.entries.slice(-n).map(formatEntry).join('\n');
  }
}

// Fails with `what: a, b, c` when list is not empty.
function expectNone(list, what) {
  if (list.length) throw new Error(`${what}: ${list.join(', ')}`);
}

// ---------------------------------------------------------------------------------------------
// Runner.

let current = null;
let finishing = false;

function killBroker() {
  if (current) current.broker.kill();
}
process.on('exit', killBroker);
for (const sig of [ 'SIGINT', 'SIGTERM', 'SIGHUP' ]) {
  process.on(sig, () => {
    killBroker();
    console.error(`conformance: interrupted by ${sig}`);
    process.exit(130);
  });
}

async function fail(err) {
  if (finishing) return;
  finishing = true;
  const h = current;
  const name = h ? h.scenario : '?';
  const out = [];
  out.push(`\nFAIL conformance_${name}: ${err && err.message ? err.message : err}`);
  if (err && err.stack) out.push(err.stack.split('\n').filter(l => /^\s+at /.test(l)).slice(0, 4).join('\n'));
  if (h && h.broker.unexpectedExit) out.push(`\nNOTE: ${h.broker.unexpectedExit} (see its stderr below)`);
  if (wire.anomalies.length) out.push(`\n-- protocol anomalies seen on the wire:\n  ${wire.anomalies.join('\n  ')}`);
  if (h) {
    out.push('\n-- client-side wire log (last 60 requests; what ali-ons sent => what the broker answered):');
    out.push(h.wireTail(60) || '(no requests)');
    if (h.clientErrors.length) {
      out.push(`\n-- errors/warnings emitted by the ali-ons clients (last 25 of ${h.clientErrors.length}):`);
      out.push(h.clientErrors.slice(-25).join('\n'));
    }
    out.push(`\n-- broker stderr (last 40 lines of broker #${h.broker.starts}):`);
    out.push(h.broker.stderrLines(40) || '(empty)');
    out.push(`\n-- kept for inspection: ${h.root} (broker.conf, store/, broker-N.{stdout,stderr}.log)`);
  }
  console.error(out.join('\n'));
  killBroker();
  process.exit(1);
}

// run(name, async h => { ... }[, { brokerConf: [ 'key=value', ... ] }]): the whole life of one
// scenario; never returns. brokerConf lines are appended to the scenario's broker.conf.
function run(scenario, body, options = {}) {
  const brokerPath = process.argv[2] || process.env.MQDESK_BROKER;
  if (!brokerPath) {
    console.error(`usage: node ${path.basename(process.argv[1])} <path/to/mqdesk-broker>  (or set MQDESK_BROKER)`);
    process.exit(2);
  }
  try {
    fs.accessSync(brokerPath, fs.constants.X_OK);
  } catch (err) {
    console.error(`conformance: broker binary ${brokerPath} is not executable: ${err.message}`);
    process.exit(2);
  }
  process.on('unhandledRejection', err => fail(new Error(`unhandled rejection: ${err && err.stack || err}`)));
  process.on('uncaughtException', err => fail(new Error(`uncaught exception: ${err && err.stack || err}`)));
  const watchdog = setTimeout(() => fail(new Error(`scenario did not finish within ${DEADLINE_MS / 1000} s`)),
    DEADLINE_MS);

  (async () => {
    const h = new Harness(scenario, path.resolve(brokerPath), options);
    current = h;
    note(`conformance_${scenario}: ali-ons ${require('ali-ons/package.json').version}, node ${process.version}, dir ${h.root}`);
    await h.broker.start();
    // ali-ons creates a hidden CLIENT_INNER_PRODUCER (send-back fallback) from the options of the
    // first client; created here explicitly so that it gets its own MQClient and every test client
    // really disconnects on close().
    await ons.Producer.getDefaultProducer({ ...h.baseOptions('inner-producer'), instanceName: `inner_${process.pid}` });
    await body(h);
    if (wire.anomalies.length) throw new Error(`protocol anomalies were seen on the wire (${wire.anomalies.length})`);
    await h.closeAll();
    await h.broker.stop();
    finishing = true;
    clearTimeout(watchdog);
    if (!KEEP) fs.rmSync(h.root, { recursive: true, force: true });
    console.log(`PASS conformance_${scenario} (${((Date.now() - T0) / 1000).toFixed(1)} s)`);
    // ali-ons keeps sleeping timer loops after close(); exit explicitly.
    process.exit(0);
  })().catch(fail);
}

module.exports = { run, sleep, withTimeout, expectNone, decodeRecords, ons, RequestCode, ResponseCode };
