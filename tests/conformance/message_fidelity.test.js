'use strict';
// What a producer sends is what a consumer reads: bodies (UTF-8 text, binary with all 256 byte
// values, bodies around ali-ons' 4 KiB compression threshold and 10 KiB ones, compressible and
// not; ali-ons deflates bodies >= 4096 bytes and sets sysFlag bit 0, and inflates on consume only
// if the broker hands that bit back), tags, keys, user properties (ali-ons: msg.properties[name]),
// and the msgId: on consume ali-ons recomputes it from the record's store host and commit-log
// offset, which must equal the msgId the send returned. Also queue, queue offset, timestamps and
// reconsumeTimes of the delivered record.

const assert = require('node:assert');
const { run, ons } = require('./harness');

function pseudoRandom(n, seed) {
  const b = Buffer.alloc(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    b[i] = x & 0xff;
  }
  return b;
}

function textOfLength(n) {
  let s = '';
  for (let i = 0; s.length < n; i++) s += `line ${i}: the quick brown fox jumps over the lazy dog\n`;
  return Buffer.from(s.slice(0, n), 'utf8');
}

const allBytes = Buffer.from(Array.from({ length: 512 }, (_, i) => (i < 256 ? i : 511 - i)));

const CASES = [
  { name: 'utf8-text', tag: 'TagText', keys: [ 'text-key-1', 'text-key-2' ],
    body: Buffer.from('Hello MQDesk: Grüße, 你好, ✓ — "quoted", tabs\tand\nnew lines', 'utf8'),
    props: { orderId: '42', customer: 'Zoë Σ 中文', 'with space': 'a b=c:d;e' } },
  { name: 'binary-256', tag: 'TagBin', keys: [ 'bin-key' ], body: allBytes, props: { kind: 'binary' } },
  { name: 'just-below-4KiB', tag: 'TagEdge', keys: [ 'edge-4095' ], body: pseudoRandom(4095, 7), props: { n: '4095' } },
  { name: 'exactly-4KiB', tag: 'TagEdge', keys: [ 'edge-4096' ], body: pseudoRandom(4096, 11), props: { n: '4096' } },
  { name: '10KiB-text', tag: 'TagBig', keys: [ 'big-text' ], body: textOfLength(10240), props: { kind: 'compressible' } },
  { name: '10KiB-random', tag: 'TagBig', keys: [ 'big-random', 'second key' ], body: pseudoRandom(10240, 12345),
    props: { kind: 'incompressible', literal_null: 'null' } },
];

function firstDifference(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

run('message_fidelity', async h => {
  const topic = await h.topic();
  const group = h.name('CG');
  const producer = await h.makeProducer();

  const sent = [];
  for (const [ seq, c ] of CASES.entries()) {
    const msg = new ons.Message(topic, c.tag, Buffer.from(c.body)); // ali-ons replaces msg.body when it deflates
    msg.keys = c.keys;
    for (const [ k, v ] of Object.entries(c.props)) msg.properties[k] = v;
    msg.properties.seq = String(seq);
    const before = Date.now();
    const r = await h.send(producer, msg, c.name);
    const after = Date.now();
    assert.strictEqual(r.sendStatus, 'SEND_OK', `send ${c.name}: ${JSON.stringify(r)}`);
    sent.push({ c, r, before, after });
  }
  h.note(`sent ${sent.length} messages: ${sent.map(s => `${s.c.name}=${s.r.msgId}`).join(' ')}`);

  const consumer = await h.makeConsumer({ consumerGroup: group, consumeFromWhere: 'CONSUME_FROM_FIRST_OFFSET' });
  const got = h.collect(consumer, topic, '*');
  await h.waitFor(() => got.length >= sent.length, 30000,
    () => `delivery of all ${sent.length} messages (got ${got.length}: ${got.map(d => d.msg.properties.seq).join(',')})`);
  await h.sleep(1000);
  assert.strictEqual(got.length, sent.length, `delivered ${got.length} messages for ${sent.length} sent`);

  const bySeq = new Map(got.map(d => [ d.msg.properties.seq, d.msg ]));
  for (const [ seq, { c, r, before, after } ] of sent.entries()) {
    const m = bySeq.get(String(seq));
    assert.ok(m, `${c.name} (seq ${seq}, msgId ${r.msgId}) was not delivered, or lost its user property seq ` +
      `(delivered seq values: ${[ ...bySeq.keys() ].join(',')})`);
    const what = `${c.name} (seq ${seq}, sent as ${r.msgId} to queue ${r.messageQueue.queueId}@${r.queueOffset})`;
    assert.strictEqual(m.msgId, r.msgId,
      `${what}: msgId computed on consume from the record's STOREHOST + PHYSICALOFFSET (${m.storeHost}, ` +
      `${m.commitLogOffset}) differs from the msgId the send returned`);
    assert.strictEqual(m.topic, topic, `${what}: topic`);
    assert.strictEqual(Number(m.queueId), Number(r.messageQueue.queueId), `${what}: queueId`);
    assert.strictEqual(m.queueOffset, r.queueOffset, `${what}: queueOffset`);
    const body = m.body || Buffer.alloc(0);
    if (!body.equals(c.body)) {
      const looksDeflated = body.length >= 2 && body[0] === 0x78 && c.body.length >= 4096;
      assert.fail(`${what}: body differs: ${body.length} bytes read back for ${c.body.length} sent, first ` +
        `difference at byte ${firstDifference(body, c.body)}` +
        (looksDeflated ? ' (it is still zlib data: the broker must keep sysFlag bit 0 (compressed) on the record)' : ''));
    }
    assert.strictEqual(m.tags, c.tag, `${what}: tags`);
    assert.strictEqual(m.keys, c.keys.join(' '), `${what}: keys (ali-ons joins keys with a space)`);
    for (const [ k, v ] of Object.entries(c.props)) {
      assert.strictEqual(m.properties[k], v, `${what}: user property ${JSON.stringify(k)} (all properties read back: ` +
        `${JSON.stringify(m.properties)})`);
    }
    assert.strictEqual(m.reconsumeTimes, 0, `${what}: reconsumeTimes`);
    assert.ok(m.bornTimestamp >= before - 5 && m.bornTimestamp <= after + 5,
      `${what}: bornTimestamp ${m.bornTimestamp} is not the producer's (send ran ${before}..${after})`);
    assert.ok(m.storeTimestamp >= before - 1000 && m.storeTimestamp <= after + 1000,
      `${what}: storeTimestamp ${m.storeTimestamp} is not when the broker stored it (send ran ${before}..${after})`);
  }
  h.note(`all ${sent.length} messages read back exactly (body, tags, keys, properties, msgId, queue, offset)`);
});
