'use strict';
// One mqdesk-broker process for a conformance scenario, shared by the ali-ons harness
// (harness.js) and the RocketMQ 5 gRPC one (grpc/harness.js): its own store and broker.conf in the
// scenario's directory, ports picked by the broker (namesrv, broker and gRPC endpoint from its
// ready line), a clean SIGTERM stop checked (exit 0, no `abort` file), SIGKILL on demand.

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const READY_TIMEOUT_MS = 20000;
const STOP_TIMEOUT_MS = 15000;
const READY_RE = /^mqdesk-broker ready: namesrv=(\S+):(\d+) broker=(\S+):(\d+) store=(.+?)(?: grpc=(\S+):(\d+))?$/;
const T0 = Date.now();
const elapsed = t => `+${((t - T0) / 1000).toFixed(3)}s`;

function sleep(ms) {
  return new Promise(resolve => setTimeout(resolve, ms));
}

async function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const notes = [];
function note(text) {
  const line = `${elapsed(Date.now())} ${text}`;
  notes.push(line);
  console.log(line);
}

class Broker {
  // extraConf: more broker.conf lines (`key=value`) a scenario needs, e.g. a short messageDelayLevel.
  constructor(binary, root, extraConf = []) {
    this.binary = binary;
    this.root = root;
    this.storeDir = path.join(root, 'store');
    this.confPath = path.join(root, 'broker.conf');
    this.child = null;
    this.starts = 0;
    this.stderrTail = '';
    this.stdoutText = '';
    this.exit = null; // { code, signal } once the current child exited
    this.expectingExit = false;
    this.unexpectedExit = null;
    this.namesrv = null;
    this.addr = null;
    this.grpc = null; // the RocketMQ 5 gRPC endpoint, host:port
    fs.mkdirSync(this.storeDir, { recursive: true });
    fs.writeFileSync(this.confPath, [
      '# Written by tests/conformance/broker_process.js',
      'autoCreateTopicEnable=true',
      'defaultTopicQueueNums=4',
      ...extraConf,
      '',
    ].join('\n'));
  }

  get running() {
    return !!this.child && !this.exit;
  }

  stderrLines(n = 40) {
    const lines = this.stderrTail.split('\n');
    return lines.slice(-n).join('\n');
  }

  async start() {
    const n = ++this.starts;
    const args = [ '--store', this.storeDir, '--namesrv-port', '0', '--broker-port', '0', '--grpc-port', '0',
      '-c', this.confPath ];
    const cmd = `${this.binary} ${args.join(' ')}`;
    note(`starting broker (#${n}): ${cmd}`);
    const outLog = fs.createWriteStream(path.join(this.root, `broker-${n}.stdout.log`));
    const errLog = fs.createWriteStream(path.join(this.root, `broker-${n}.stderr.log`));
    this.exit = null;
    this.expectingExit = false;
    this.stderrTail = '';
    this.stdoutText = '';
    const child = spawn(this.binary, args, { stdio: [ 'ignore', 'pipe', 'pipe' ] });
    this.child = child;
    let onLine = null;
    let pending = '';
    child.stdout.on('data', chunk => {
      outLog.write(chunk);
      if (this.stdoutText.length < 8192) this.stdoutText += chunk.toString('utf8');
      pending += chunk.toString('utf8');
      let i;
      while ((i = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, i).replace(/\r$/, '');
        pending = pending.slice(i + 1);
        if (onLine) onLine(line);
      }
    });
    child.stderr.on('data', chunk => {
      errLog.write(chunk);
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-16384);
    });
    this.exited = new Promise(resolve => {
      child.on('exit', (code, signal) => {
        this.exit = { code, signal };
        if (!this.expectingExit) {
          this.unexpectedExit = `broker #${n} exited unexpectedly (code ${code}, signal ${signal})`;
          note(this.unexpectedExit);
        }
        resolve(this.exit);
      });
    });
    child.on('close', () => {
      outLog.end();
      errLog.end();
    });

    let timer;
    try {
      const line = await new Promise((resolve, reject) => {
        onLine = l => {
          if (l.startsWith('mqdesk-broker ready:')) resolve(l);
        };
        child.on('error', err => reject(new Error(`cannot run the broker (${cmd}): ${err.message}`)));
        this.exited.then(({ code, signal }) => reject(new Error(
          `broker exited (code ${code}, signal ${signal}) before printing its ready line\n` +
          `command: ${cmd}\nstdout:\n${this.stdoutText}\nstderr (last lines):\n${this.stderrLines()}`)));
        timer = setTimeout(() => reject(new Error(
          `broker printed no ready line within ${READY_TIMEOUT_MS / 1000} s ` +
          '(expected `mqdesk-broker ready: namesrv=HOST:PORT broker=HOST:PORT store=PATH grpc=HOST:PORT`; stdout is a ' +
          'pipe here, so the broker must flush after printing it)\n' +
          `command: ${cmd}\nstdout:\n${this.stdoutText}\nstderr (last lines):\n${this.stderrLines()}`)),
        READY_TIMEOUT_MS);
      });
      const m = READY_RE.exec(line);
      if (!m) throw new Error(`malformed ready line: ${JSON.stringify(line)}`);
      const [ , nsHost, nsPort, brHost, brPort, store, grpcHost, grpcPort ] = m;
      if (Number(nsPort) === 0 || Number(brPort) === 0) throw new Error(`ready line reports port 0: ${line}`);
      if (!grpcHost || Number(grpcPort) === 0) throw new Error(`ready line names no gRPC endpoint: ${line}`);
      if (fs.realpathSync(store) !== fs.realpathSync(this.storeDir)) {
        throw new Error(`ready line names store ${store}, but the broker was started with --store ${this.storeDir}`);
      }
      this.namesrv = `${nsHost}:${nsPort}`;
      this.addr = `${brHost}:${brPort}`;
      this.grpc = `${grpcHost}:${grpcPort}`;
      note(`broker #${n} ready: namesrv=${this.namesrv} broker=${this.addr} grpc=${this.grpc} (pid ${child.pid})`);
    } catch (err) {
      this.kill();
      throw err;
    } finally {
      clearTimeout(timer);
      onLine = null;
    }
  }

  // SIGTERM, then require exit code 0 and no `abort` file (the mark of an unclean shutdown).
  async stop() {
    if (!this.child) throw new Error('stop(): the broker was never started');
    if (this.exit) {
      throw new Error(`stop(): the broker had already exited (code ${this.exit.code}, signal ${this.exit.signal})\n` +
        `stderr (last lines):\n${this.stderrLines()}`);
    }
    this.expectingExit = true;
    const t = Date.now();
    this.child.kill('SIGTERM');
    const r = await Promise.race([ this.exited, sleep(STOP_TIMEOUT_MS).then(() => null) ]);
    if (!r) {
      this.kill();
      throw new Error(`broker did not exit within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM\n` +
        `stderr (last lines):\n${this.stderrLines()}`);
    }
    if (r.code !== 0 || r.signal) {
      throw new Error(`broker exited with code ${r.code}, signal ${r.signal} after SIGTERM (expected a clean exit 0)\n` +
        `stderr (last lines):\n${this.stderrLines()}`);
    }
    const abortFile = path.join(this.storeDir, 'abort');
    if (fs.existsSync(abortFile)) {
      throw new Error(`after a clean SIGTERM shutdown (exit 0) the store still holds ${abortFile}: the next start ` +
        'would run abnormal recovery');
    }
    note(`broker #${this.starts} stopped cleanly in ${Date.now() - t} ms`);
  }

  // Same store dir and broker.conf; the ports may change (clients must be re-created).
  async restart() {
    await this.stop();
    await this.start();
  }

  kill() {
    if (this.child && !this.exit) {
      this.expectingExit = true;
      try {
        this.child.kill('SIGKILL');
      } catch (_) { /* already gone */ }
    }
  }
}

module.exports = { Broker, note, notes, sleep, withTimeout, elapsed, T0 };
