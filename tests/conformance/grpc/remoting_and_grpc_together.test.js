'use strict';
// One topic, two worlds: a 4.x remoting client (ali-ons) and the 5.x Node SDK (gRPC). Messages
// from either producer reach a remoting consumer group and a gRPC consumer group, each of which
// gets everything, with tags and keys intact.
const assert = require('node:assert/strict');
const path = require('node:path');
const { run, sleep, withTimeout } = require('./harness');

let ons;
try {
  ons = require(path.join(__dirname, '..', 'node_modules', 'ali-ons'));
} catch (err) {
  console.error(`conformance: cannot load ali-ons from ../node_modules (${err.message}); run npm ci in ..`);
  process.exit(2);
}

run('remoting_and_grpc_together', async h => {
  const topic = await h.createTopic('NORMAL', 4);
  const quiet = { info() {}, debug() {}, warn() {}, error: (...a) => h.note(`ali-ons error: ${a.join(' ')}`) };
  const base = label => ({ httpclient: {}, nameSrv: h.broker.namesrv, instanceName: h.name(label), logger: quiet });

  const remotingSeen = new Map();
  const remotingConsumer = new ons.Consumer({ ...base('rc'), consumerGroup: h.name('GRemoting') });
  remotingConsumer.on('error', err => h.note(`ali-ons consumer error: ${err.message}`));
  await withTimeout(remotingConsumer.ready(), 20000, 'ali-ons consumer ready');
  remotingConsumer.subscribe(topic, '*', async msg => {
    remotingSeen.set(msg.body.toString(), { tags: msg.tags, keys: msg.keys });
  });
  const remotingProducer = new ons.Producer({ ...base('rp'), producerGroup: h.name('PG') });
  await withTimeout(remotingProducer.ready(), 20000, 'ali-ons producer ready');
  const grpcProducer = await h.producer({ topics: [ topic ] });

  const bodies = [];
  for (let i = 0; i < 10; i++) {
    const body = `from gRPC ${i}`;
    await grpcProducer.send({ topic, tag: 'G', keys: [ `g${i}` ], body: Buffer.from(body) });
    bodies.push(body);
  }
  for (let i = 0; i < 10; i++) {
    const body = `from remoting ${i}`;
    const msg = new ons.Message(topic, 'R', body);
    msg.keys = [ `r${i}` ];
    const result = await remotingProducer.send(msg);
    assert.equal(result.sendStatus, 'SEND_OK');
    bodies.push(body);
  }

  const grpcConsumer = await h.simpleConsumer(h.name('GGrpc'), new Map([ [ topic, '*' ] ]));
  const got = await h.receiveAll(grpcConsumer, bodies.length, { ms: 40000 });
  const grpcSeen = new Map(got.map(v => [ v.body.toString(), v ]));
  const until = Date.now() + 40000;
  while (remotingSeen.size < bodies.length && Date.now() < until) await sleep(200);

  for (const body of bodies) {
    const fromGrpc = body.startsWith('from gRPC');
    const viaGrpc = grpcSeen.get(body);
    assert.ok(viaGrpc, `the gRPC group got "${body}"`);
    assert.equal(viaGrpc.tag, fromGrpc ? 'G' : 'R');
    assert.deepEqual(viaGrpc.keys, [ `${fromGrpc ? 'g' : 'r'}${body.split(' ').pop()}` ]);
    const viaRemoting = remotingSeen.get(body);
    assert.ok(viaRemoting, `the remoting group got "${body}"`);
    assert.equal(viaRemoting.tags, fromGrpc ? 'G' : 'R');
  }
  assert.equal(got.length, bodies.length, 'the gRPC group got each message once');
  await withTimeout(remotingConsumer.close(), 15000, 'ali-ons consumer close');
  await withTimeout(remotingProducer.close(), 15000, 'ali-ons producer close');
});
