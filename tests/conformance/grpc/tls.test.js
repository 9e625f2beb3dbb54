'use strict';
// The Node 5.x SDK with sslEnabled: true against the endpoint's default TLS (permissive, the
// self-signed certificate the broker made in <store>/config/tls): trusting that certificate
// (GRPC_DEFAULT_SSL_ROOTS_FILE_PATH, in a child process) it sends and receives; without it, grpc-js refuses the
// certificate (the SDK verifies, unlike Java's); a plaintext client on the same port is served.
const assert = require('node:assert/strict');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { run, withTimeout } = require('./harness');

function child(env, ...args) {
  return new Promise(resolve => {
    execFile(process.execPath, [ path.join(__dirname, 'tls_client.js'), ...args ],
      { env: { ...process.env, ...env }, timeout: 90000 }, (err, stdout, stderr) => {
        const line = stdout.trim().split('\n').pop() || '{}';
        let result;
        try { result = JSON.parse(line); } catch { result = { error: `no result: ${stdout} ${stderr}` }; }
        resolve(result);
      });
  });
}

run('tls', async h => {
  const topic = await h.createTopic('NORMAL', 2);
  const pem = path.join(h.broker.storeDir, 'config', 'tls', 'mqdesk-selfsigned.pem');

  const trusted = await child({ GRPC_DEFAULT_SSL_ROOTS_FILE_PATH: pem }, h.broker.grpc, topic, h.name('GTls'), '5');
  assert.ok(!trusted.error, `the TLS client trusting the broker's certificate: ${trusted.error}`);
  assert.deepEqual([ ...trusted.received ].sort(), [ ...trusted.sent ].sort(), 'sent and received over TLS');
  h.note(`over TLS: ${trusted.received.length} messages sent and received`);

  const untrusted = await child({}, h.broker.grpc, topic, h.name('GTlsNo'), '1');
  assert.ok(untrusted.error, 'a client that does not trust the self-signed certificate is refused by grpc-js');
  h.note(`without the certificate trusted: ${untrusted.error.split('\n')[0]}`);

  // Plaintext on the same port (permissive).
  const producer = await h.producer({ topics: [ topic ] });
  await withTimeout(producer.send({ topic, tag: 'TagPlain', body: Buffer.from('plain') }), 10000, 'plaintext send');
  const consumer = await h.simpleConsumer(h.name('GPlain'), new Map([ [ topic, 'TagPlain' ] ]));
  const got = await h.receiveAll(consumer, 1);
  assert.equal(got.length, 1, 'the plaintext client is served beside the TLS ones');
});
