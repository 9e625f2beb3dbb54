'use strict';
// What a careless or hostile gRPC client sends, straight through grpc-js (no SDK checks in the
// way): names with '/', '..', NUL or 300 characters, a missing client id, an oversize or empty
// body, reserved and repeated property keys, garbage and forged receipt handles, a wrong topic on
// ack. Each gets a business status naming the problem (never a crash, never a file outside the
// store), and the messages acknowledged before and between them are all delivered after a restart.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const { run } = require('./harness');
const service = require('rocketmq-client-nodejs/proto/apache/rocketmq/v2/service_pb');
const definition = require('rocketmq-client-nodejs/proto/apache/rocketmq/v2/definition_pb');
const { MessagingServiceClient } = require('rocketmq-client-nodejs/proto/apache/rocketmq/v2/service_grpc_pb');
const Code = definition.Code;

function call(client, method, request, clientId = 'hostile@1') {
  const metadata = new grpc.Metadata();
  if (clientId) metadata.set('x-mq-client-id', clientId);
  return new Promise((resolve, reject) =>
    client[method](request, metadata, { deadline: Date.now() + 5000 }, (err, res) => (err ? reject(err) : resolve(res))));
}

function message(topic, body, { id = `ID${Math.random().toString(16).slice(2)}`, props = [] } = {}) {
  const m = new definition.Message();
  m.setTopic(new definition.Resource().setName(topic));
  m.setBody(body);
  const sys = new definition.SystemProperties();
  sys.setMessageId(id);
  sys.setTag('t');
  sys.setMessageType(definition.MessageType.NORMAL);
  m.setSystemProperties(sys);
  for (const [ k, v ] of props) m.getUserPropertiesMap().set(k, v);
  return m;
}

async function send(client, msg, clientId) {
  const response = await call(client, 'sendMessage', new service.SendMessageRequest().setMessagesList([ msg ]), clientId);
  return response.getStatus().getCode();
}

run('hostile_requests', async h => {
  const topic = await h.createTopic('NORMAL', 2);
  const client = new MessagingServiceClient(h.broker.grpc, grpc.credentials.createInsecure(),
    { 'grpc.max_send_message_length': 8 * 1024 * 1024 });
  const acknowledged = [];
  const good = async label => {
    const msg = message(topic, Buffer.from(label));
    assert.equal(await send(client, msg), Code.OK, `a good send (${label})`);
    acknowledged.push(label);
  };
  await good('before');

  for (const bad of [ '../escape', 'a/b', 'a\u0000b', 'x'.repeat(300), '', '%RETRY%..' ]) {
    const route = await call(client, 'queryRoute', new service.QueryRouteRequest()
      .setTopic(new definition.Resource().setName(bad)));
    assert.equal(route.getStatus().getCode(), Code.ILLEGAL_TOPIC, `route of ${JSON.stringify(bad)}`);
    assert.equal(await send(client, message(bad, Buffer.from('x'))), Code.ILLEGAL_TOPIC, `send to ${JSON.stringify(bad)}`);
    const ack = await call(client, 'ackMessage', new service.AckMessageRequest()
      .setTopic(new definition.Resource().setName(topic)).setGroup(new definition.Resource().setName(bad))
      .setEntriesList([ new service.AckMessageEntry().setMessageId('m').setReceiptHandle('0 1 2 3 0 b 0 0') ]));
    assert.equal(ack.getStatus().getCode(), Code.ILLEGAL_CONSUMER_GROUP, `ack for group ${JSON.stringify(bad)}`);
  }
  assert.equal(await send(client, message(topic, Buffer.from('x')), ''), Code.CLIENT_ID_REQUIRED);
  assert.equal(await send(client, message(topic, Buffer.alloc(0))), Code.MESSAGE_BODY_EMPTY);
  assert.equal(await send(client, message(topic, Buffer.alloc(4 * 1024 * 1024 + 1, 1))), Code.MESSAGE_BODY_TOO_LARGE);
  assert.equal(await send(client, message(topic, Buffer.from('x'), { id: '' })), Code.ILLEGAL_MESSAGE_ID);
  assert.equal(await send(client, message(topic, Buffer.from('x'), { props: [ [ 'UNIQ_KEY', 'forged' ] ] })),
    Code.ILLEGAL_MESSAGE_PROPERTY_KEY, 'a reserved property key');
  assert.equal(await send(client, message(topic, Buffer.from('x'), { props: [ [ 'k', 'a\u0000b' ] ] })),
    Code.ILLEGAL_MESSAGE_PROPERTY_KEY, 'a NUL in a property value');
  const many = Array.from({ length: 129 }, (_, i) => [ `k${i}`, 'v' ]);
  assert.equal(await send(client, message(topic, Buffer.from('x'), { props: many })), Code.MESSAGE_PROPERTIES_TOO_LARGE);
  assert.equal(await send(client, message(topic, Buffer.from('x'), { props: [ [ 'big', 'v'.repeat(17 * 1024) ] ] })),
    Code.MESSAGE_PROPERTIES_TOO_LARGE);
  await good('between');

  const group = h.name('G');
  for (const handle of [ 'garbage', '', '1 2 3', `0 ${Date.now()} 60000 0 0 broker-a 0 999999999 5`,
    `0 ${Date.now()} 60000 0 9 ../../x 0 0 0`, 'x '.repeat(5000) ]) {
    const ack = await call(client, 'ackMessage', new service.AckMessageRequest()
      .setTopic(new definition.Resource().setName(topic)).setGroup(new definition.Resource().setName(group))
      .setEntriesList([ new service.AckMessageEntry().setMessageId('m').setReceiptHandle(handle) ]));
    assert.notEqual(ack.getStatus().getCode(), Code.OK, `ack with handle ${JSON.stringify(handle.slice(0, 40))}`);
    const change = await call(client, 'changeInvisibleDuration', new service.ChangeInvisibleDurationRequest()
      .setTopic(new definition.Resource().setName(topic)).setGroup(new definition.Resource().setName(group))
      .setReceiptHandle(handle).setInvisibleDuration(new (require('google-protobuf/google/protobuf/duration_pb').Duration)()
        .setSeconds(1)));
    assert.notEqual(change.getStatus().getCode(), Code.OK, `change-invisible with ${JSON.stringify(handle.slice(0, 40))}`);
  }
  const end = await call(client, 'endTransaction', new service.EndTransactionRequest()
    .setTopic(new definition.Resource().setName(topic)).setTransactionId('not-a-transaction').setMessageId('m')
    .setResolution(definition.TransactionResolution.COMMIT));
  assert.equal(end.getStatus().getCode(), Code.INVALID_TRANSACTION_ID);
  await good('after');
  client.close();

  // Nothing outside the store: the scenario directory holds only what the harness put there.
  const entries = fs.readdirSync(h.root).filter(e => !/^(store|broker\.conf|broker-\d+\.(stdout|stderr)\.log)$/.test(e));
  assert.deepEqual(entries, [], `files beside the store: ${entries}`);
  assert.ok(!fs.existsSync(path.join(h.root, 'escape')) && !fs.existsSync(path.join(path.dirname(h.root), 'escape')));

  await h.broker.restart();
  const consumer = await h.simpleConsumer(h.name('G'), new Map([ [ topic, '*' ] ]));
  const got = await h.receiveAll(consumer, acknowledged.length, { ms: 30000 });
  assert.deepEqual(got.map(v => v.body.toString()).sort(), [ ...acknowledged ].sort(),
    'every acknowledged message is delivered after the restart, nothing else');
});
