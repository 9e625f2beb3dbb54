'use strict';
// Run by tls.test.js in a child process: GRPC_DEFAULT_SSL_ROOTS_FILE_PATH (gRPC's own variable, read when grpc-js loads) names the
// broker's certificate, as an application trusts its cluster's CA. A producer and a SimpleConsumer
// with sslEnabled: true send and receive `count` messages; prints one JSON line with what arrived.
//   node tls_client.js <endpoints> <topic> <group> <count>
const { Producer, SimpleConsumer } = require('rocketmq-client-nodejs');

const [ endpoints, topic, consumerGroup, countText ] = process.argv.slice(2);
const count = Number(countText);
const quiet = process.env.TLS_CLIENT_VERBOSE ? console : { info() {}, debug() {}, warn() {}, error() {} };

(async () => {
  const options = { endpoints, sslEnabled: true, requestTimeout: 3000, logger: quiet };
  const producer = new Producer({ ...options, topics: [ topic ] });
  await producer.startup();
  const sent = [];
  for (let i = 0; i < count; i++) {
    const body = `tls ${i}`;
    await producer.send({ topic, tag: 'TagTls', body: Buffer.from(body) });
    sent.push(body);
  }
  const consumer = new SimpleConsumer({ ...options, consumerGroup, awaitDuration: 5000,
    subscriptions: new Map([ [ topic, '*' ] ]) });
  await consumer.startup();
  const received = [];
  const deadline = Date.now() + 30000;
  while (received.length < count && Date.now() < deadline) {
    for (const view of await consumer.receive(16, 15000)) {
      received.push(view.body.toString());
      await consumer.ack(view);
    }
  }
  await consumer.shutdown();
  await producer.shutdown();
  console.log(JSON.stringify({ sent, received }));
  process.exit(0);
})().catch(err => {
  console.log(JSON.stringify({ error: String(err && err.message || err) }));
  process.exit(1);
});
