'use strict';
// Conformance harness for the RocketMQ 5 SDKs' protocol: runs one scenario of the Node SDK
// (rocketmq-client-nodejs, from npm; gRPC to the broker's 5.x endpoint) against a freshly started
// mqdesk-broker.
//
//   node <scenario>.test.js <path/to/mqdesk-broker> <path/to/mqdesk-admin>
//
// Each scenario gets its own temp dir and broker (../broker_process.js: ports picked by the broker,
// the gRPC endpoint from its ready line), unique topic and group names, and clients made through
// the harness so that all are shut down at the end. Topics of a 5.x type (FIFO, DELAY,
// TRANSACTION) and FIFO groups are created with mqdesk-admin, as a user would with mqadmin. On
// success the clients are shut down, the broker is stopped with SIGTERM (exit 0, no `abort` file)
// and the temp dir is removed; on failure it prints what differed, what the clients logged and the
// broker's stderr, keeps the temp dir and exits 1.
//
// Environment: MQDESK_CONFORMANCE_VERBOSE=1 prints the clients' log lines live;
// MQDESK_CONFORMANCE_KEEP=1 keeps the temp dir on success.

const { execFile } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const util = require('node:util');
const { Broker, note, sleep, withTimeout, T0 } = require('../broker_process');

let sdk;
let definition;
try {
  sdk = require('rocketmq-client-nodejs');
  definition = require('rocketmq-client-nodejs/proto/apache/rocketmq/v2/definition_pb');
} catch (err) {
  console.error(`conformance: cannot load rocketmq-client-nodejs (${err.message}).\n` +
    `Run \`npm ci --no-audit --no-fund\` in ${__dirname} (scripts/test.sh does this).`);
  process.exit(2);
}

const VERBOSE = process.env.MQDESK_CONFORMANCE_VERBOSE === '1';
const KEEP = process.env.MQDESK_CONFORMANCE_KEEP === '1';
const DEADLINE_MS = Number(process.env.MQDESK_CONFORMANCE_TIMEOUT_MS) || 170000;
const elapsed = t => `+${((t - T0) / 1000).toFixed(3)}s`;

class Harness {
  constructor(scenario, brokerPath, adminPath, options = {}) {
    this.scenario = scenario;
    this.adminPath = adminPath;
    this.root = fs.mkdtempSync(path.join(os.tmpdir(), `mqdesk-conformance-grpc-${scenario}-`));
    // options.plainAcl: a plain_acl.yml to run the broker with (aclEnable=true), in the store's
    // conf/ where the broker looks for it; with options.acl2 the broker runs ACL 2.0 instead and
    // imports the file as users and policies (migrateAuthFromV1Enabled); options.adminCredentials
    // sign mqdesk-admin's requests.
    const aclConf = options.acl2
      ? [ 'authenticationEnabled=true', 'authorizationEnabled=true', 'migrateAuthFromV1Enabled=true' ]
      : [ 'aclEnable=true' ];
    const conf = [ ...(options.brokerConf || []), ...(options.plainAcl ? aclConf : []) ];
    this.broker = new Broker(brokerPath, this.root, conf);
    if (options.plainAcl) {
      fs.mkdirSync(path.join(this.broker.storeDir, 'conf'), { recursive: true });
      fs.writeFileSync(path.join(this.broker.storeDir, 'conf', 'plain_acl.yml'), options.plainAcl);
    }
    this.adminEnv = options.adminCredentials ? { ...process.env,
      ROCKETMQ_ACCESS_KEY: options.adminCredentials.accessKey,
      ROCKETMQ_SECRET_KEY: options.adminCredentials.secretKey } : process.env;
    this.clients = [];
    this.clientLog = [];
    this.nameSeq = 0;
    this.note = note;
    this.sleep = sleep;
    this.sdk = sdk;
    this.TransactionResolution = definition.TransactionResolution;
  }

  name(kind) {
    const short = this.scenario.replace(/[^A-Za-z0-9]/g, '').slice(0, 24);
    return `${kind}_${short}_${process.pid}_${++this.nameSeq}`;
  }

  logger(label) {
    const record = level => (...args) => {
      const text = `${elapsed(Date.now())} ${label} ${level}: ${util.format(...args)}`;
      if (this.clientLog.length < 2000) this.clientLog.push(text);
      if (VERBOSE) console.log(text);
    };
    return { info: record('info'), debug() {}, warn: record('warn'), error: record('error') };
  }

  options(label, extra) {
    return { endpoints: this.broker.grpc, namespace: '', requestTimeout: 3000, logger: this.logger(label), ...extra };
  }

  // mqdesk-admin against this broker's NameServer; resolves with stdout, rejects with its stderr.
  admin(...args) {
    return new Promise((resolve, reject) => {
      execFile(this.adminPath, [ '-n', this.broker.namesrv, ...args ], { timeout: 20000, env: this.adminEnv },
        (err, stdout, stderr) => {
          if (err) reject(new Error(`mqdesk-admin ${args.join(' ')} failed: ${stderr || err.message}`));
          else resolve(stdout);
        });
    });
  }

  // A topic of a 5.x message type (NORMAL, FIFO, DELAY, TRANSACTION), as mqadmin updateTopic -a makes it.
  async createTopic(type = 'NORMAL', queues = 4) {
    const topic = this.name(`T${type}`);
    await this.admin('updateTopic', '-t', topic, '-b', this.broker.addr, '-r', String(queues), '-w', String(queues),
      '-a', `+message.type=${type}`);
    note(`topic ${topic} (${type}, ${queues} queues)`);
    return topic;
  }

  async createGroup({ orderly = false, retryMaxTimes = 16 } = {}) {
    const group = this.name(orderly ? 'GFIFO' : 'G');
    await this.admin('updateSubGroup', '-g', group, '-b', this.broker.addr, '-o', String(orderly),
      '-r', String(retryMaxTimes));
    return group;
  }

  async track(label, client) {
    await withTimeout(client.startup(), 20000, `${label} startup`);
    this.clients.push({ label, client });
    note(`${label} started`);
    return client;
  }

  producer(extra = {}) {
    return this.track('producer', new sdk.Producer(this.options('producer', extra)));
  }

  simpleConsumer(consumerGroup, subscriptions, extra = {}) {
    return this.track(`simple(${consumerGroup})`, new sdk.SimpleConsumer(this.options(`simple(${consumerGroup})`,
      { consumerGroup, subscriptions, awaitDuration: 5000, ...extra })));
  }

  pushConsumer(consumerGroup, subscriptions, consume, extra = {}) {
    const messageListener = { consume: async view => consume(view) };
    return this.track(`push(${consumerGroup})`, new sdk.PushConsumer(this.options(`push(${consumerGroup})`,
      { consumerGroup, subscriptions, messageListener, ...extra })));
  }

  // Receives until `want` messages arrived or `ms` passed; acks each unless `ack` is false.
  async receiveAll(consumer, want, { ms = 30000, invisible = 15000, ack = true, batch = 16 } = {}) {
    const got = [];
    const until = Date.now() + ms;
    while (got.length < want && Date.now() < until) {
      const views = await consumer.receive(batch, invisible);
      for (const view of views) {
        got.push(view);
        if (ack) await consumer.ack(view);
      }
    }
    return got;
  }

  async shutdown(client) {
    const i = this.clients.findIndex(c => c.client === client);
    const [ entry ] = this.clients.splice(i, 1);
    await withTimeout(client.shutdown(), 40000, `${entry.label} shutdown`);
    note(`${entry.label} shut down`);
  }

  async shutdownAll() {
    while (this.clients.length) await this.shutdown(this.clients[this.clients.length - 1].client);
  }
}

let current = null;
let finishing = false;
process.on('exit', () => current && current.broker.kill());

async function fail(err) {
  if (finishing) return;
  finishing = true;
  const h = current;
  const out = [ `\nFAIL conformance_grpc_${h ? h.scenario : '?'}: ${err && err.message ? err.message : err}` ];
  if (err && err.stack) out.push(err.stack.split('\n').filter(l => /^\s+at /.test(l)).slice(0, 5).join('\n'));
  if (h) {
    if (h.broker.unexpectedExit) out.push(`\nNOTE: ${h.broker.unexpectedExit}`);
    out.push(`\n-- the SDK clients' log (last 40 of ${h.clientLog.length}):`);
    out.push(h.clientLog.slice(-40).join('\n') || '(empty)');
    out.push(`\n-- broker stderr (last 40 lines of broker #${h.broker.starts}):`);
    out.push(h.broker.stderrLines(40) || '(empty)');
    out.push(`\n-- kept for inspection: ${h.root}`);
  }
  console.error(out.join('\n'));
  if (h) h.broker.kill();
  process.exit(1);
}

// run(name, async h => { ... }[, { brokerConf: [...], plainAcl, adminCredentials }]): the whole
// life of one scenario.
function run(scenario, body, options = {}) {
  const [ brokerPath, adminPath ] = [ process.argv[2] || process.env.MQDESK_BROKER,
    process.argv[3] || process.env.MQDESK_ADMIN ];
  if (!brokerPath || !adminPath) {
    console.error(`usage: node ${path.basename(process.argv[1])} <path/to/mqdesk-broker> <path/to/mqdesk-admin>`);
    process.exit(2);
  }
  process.on('unhandledRejection', err => fail(new Error(`unhandled rejection: ${err && err.stack || err}`)));
  process.on('uncaughtException', err => {
    // The SDK throws its telemetry stream's UNAVAILABLE from a timer when a scenario kills the
    // broker on purpose (survives_sigkill); that is the kill, not a finding.
    if (current && current.broker.killedOnPurpose && err && err.code === 14) {
      note(`SDK: ${err.message} (the broker was killed on purpose)`);
      return;
    }
    fail(new Error(`uncaught exception: ${err && err.stack || err}`));
  });
  const watchdog = setTimeout(() => fail(new Error(`scenario did not finish within ${DEADLINE_MS / 1000} s`)),
    DEADLINE_MS);
  (async () => {
    const h = new Harness(scenario, path.resolve(brokerPath), path.resolve(adminPath), options);
    current = h;
    note(`conformance_grpc_${scenario}: rocketmq-client-nodejs ` +
      `${require('rocketmq-client-nodejs/package.json').version}, node ${process.version}, dir ${h.root}`);
    await h.broker.start();
    await body(h);
    await h.shutdownAll();
    await h.broker.stop();
    finishing = true;
    clearTimeout(watchdog);
    if (!KEEP) fs.rmSync(h.root, { recursive: true, force: true });
    console.log(`PASS conformance_grpc_${scenario} (${((Date.now() - T0) / 1000).toFixed(1)} s)`);
    process.exit(0);
  })().catch(fail);
}

module.exports = { run, sleep, withTimeout, sdk };
