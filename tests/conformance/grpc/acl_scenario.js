'use strict';
// Access control on the 5.x endpoint, run twice: acl.test.js with RocketMQ's plain ACL
// (aclEnable=true; one plain_acl.yml for remoting and gRPC), acl2.test.js with ACL 2.0
// (authenticationEnabled, authorizationEnabled; the same file imported as users and policies at
// start, migrateAuthFromV1Enabled), each refusal in its own words. The Node SDK signs every call (authorization: MQv2-HMAC-SHA1 over x-mq-date-time): a user
// account's producer sends to its topic and its simple consumer receives and acks everything.
// Straight through grpc-js, each kind of refusal gets UNAUTHORIZED with Java's words: no
// credentials, an unknown access key, a wrong secret, a malformed authorization header, a topic
// the account may only subscribe to or not use at all, a group it has no right to (receive, ack,
// change-invisible, heartbeat, assignment). The SDK with a wrong secret cannot start; a send it
// may not make throws UnauthorizedException. Nothing refused is stored.
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const grpc = require('@grpc/grpc-js');
const { run } = require('./harness');
const service = require('rocketmq-client-nodejs/proto/apache/rocketmq/v2/service_pb');
const definition = require('rocketmq-client-nodejs/proto/apache/rocketmq/v2/definition_pb');
const { MessagingServiceClient } = require('rocketmq-client-nodejs/proto/apache/rocketmq/v2/service_grpc_pb');
const Code = definition.Code;

const USER = { accessKey: 'nodeUser', accessSecret: 'nodeUserSecret' };
const ADMIN = { accessKey: 'nodeAdmin', secretKey: 'nodeAdminSecret' };
const PLAIN_ACL = [
  'accounts:',
  `  - accessKey: ${USER.accessKey}`,
  `    secretKey: ${USER.accessSecret}`,
  '    admin: false',
  '    defaultTopicPerm: DENY',
  '    defaultGroupPerm: DENY',
  '    topicPerms:',
  '      - acl_rw=PUB|SUB',
  '      - acl_ro=SUB',
  '    groupPerms:',
  '      - acl_group=SUB',
  `  - accessKey: ${ADMIN.accessKey}`,
  `    secretKey: ${ADMIN.secretKey}`,
  '    admin: true',
  '',
].join('\n');

const resource = name => new definition.Resource().setName(name);

// x-mq-date-time as the SDK writes it: UTC yyyyMMdd'T'HHmmss'Z'.
function dateTime() {
  return new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

function metadata(credentials, { authorization } = {}) {
  const m = new grpc.Metadata();
  const when = dateTime();
  m.set('x-mq-client-id', 'acl@1');
  m.set('x-mq-date-time', when);
  if (authorization !== undefined) {
    m.set('authorization', authorization);
  } else if (credentials) {
    const signature = crypto.createHmac('sha1', credentials.accessSecret).update(when).digest('hex').toUpperCase();
    m.set('authorization', `MQv2-HMAC-SHA1 Credential=${credentials.accessKey}, SignedHeaders=x-mq-date-time, ` +
      `Signature=${signature}`);
  }
  return m;
}

function unary(client, method, request, md) {
  return new Promise((resolve, reject) =>
    client[method](request, md, { deadline: Date.now() + 5000 }, (err, res) => (err ? reject(err) : resolve(res))));
}

// The first status a ReceiveMessage stream answers.
function receiveStatus(client, request, md) {
  return new Promise((resolve, reject) => {
    const stream = client.receiveMessage(request, md, { deadline: Date.now() + 8000 });
    stream.on('data', response => {
      if (response.hasStatus()) {
        resolve(response.getStatus());
        stream.cancel();
      }
    });
    stream.on('error', err => (err.code === grpc.status.CANCELLED ? undefined : reject(err)));
  });
}

function sendRequest(topic, body) {
  const m = new definition.Message();
  m.setTopic(resource(topic));
  m.setBody(Buffer.from(body));
  const sys = new definition.SystemProperties();
  sys.setMessageId(`ACL${crypto.randomBytes(8).toString('hex')}`);
  sys.setMessageType(definition.MessageType.NORMAL);
  m.setSystemProperties(sys);
  return new service.SendMessageRequest().setMessagesList([ m ]);
}

// The ClientException code somewhere in an error's cause chain.
function codeOf(err) {
  for (let e = err; e; e = e.cause) if (typeof e.code === 'number') return e.code;
  return undefined;
}

// What each refusal says under each access control (Java's words for each).
const WORDS = {
  plain: {
    noCredentials: 'No accessKey is configured', unknownKey: 'No acl config for stranger',
    wrongSecret: 'Check signature failed for accessKey=nodeUser', subOnly: 'No default permission for topic:acl_ro',
    deniedTopic: 'No default permission for topic:acl_denied', deniedRoute: 'topic:acl_denied',
    deniedGroup: 'group:acl_other',
  },
  acl2: {
    noCredentials: 'username cannot be null.', unknownKey: 'User:stranger is not found.',
    wrongSecret: 'check signature failed.', subOnly: 'nodeUser has no permission to access Topic:acl_ro',
    deniedTopic: 'has no permission to access Topic:acl_denied', deniedRoute: 'Topic:acl_denied',
    deniedGroup: 'has no permission to access Group:acl_other',
  },
};

exports.runAclScenario = (name, { acl2 }) => {
const words = acl2 ? WORDS.acl2 : WORDS.plain;
run(name, async h => {
  for (const topic of [ 'acl_rw', 'acl_ro' ])
    await h.admin('updateTopic', '-t', topic, '-b', h.broker.addr, '-r', '2', '-w', '2', '-a', '+message.type=NORMAL');

  // The SDK, signed: sends and receives everything.
  const producer = await h.producer({ topics: [ 'acl_rw' ], sessionCredentials: USER });
  const sent = [];
  for (let i = 0; i < 10; i++)
    sent.push((await producer.send({ topic: 'acl_rw', tag: 'a', body: Buffer.from(`acl ${i}`) })).messageId);
  h.note('10 signed sends acknowledged');
  await assert.rejects(producer.send({ topic: 'acl_ro', tag: 'a', body: Buffer.from('not mine to send') }),
    err => codeOf(err) === Code.UNAUTHORIZED || assert.fail(`a send to a SUB-only topic: ${err}`));
  await assert.rejects(h.producer({ topics: [ 'acl_rw' ], sessionCredentials: { ...USER, accessSecret: 'wrong' } }),
    err => codeOf(err) === Code.UNAUTHORIZED || assert.fail(`a wrong secret: ${err}`));
  await assert.rejects(h.producer({ topics: [ 'acl_rw' ] }),
    err => codeOf(err) === Code.UNAUTHORIZED || assert.fail(`no credentials: ${err}`));
  h.note('the SDK: a SUB-only topic, a wrong secret and no credentials are refused UNAUTHORIZED');

  // Each refusal, straight through grpc-js.
  const client = new MessagingServiceClient(h.broker.grpc, grpc.credentials.createInsecure());
  const route = topic => new service.QueryRouteRequest().setTopic(resource(topic));
  const refusals = [
    [ 'no credentials', 'queryRoute', route('acl_rw'), metadata(null), words.noCredentials ],
    [ 'an unknown access key', 'queryRoute', route('acl_rw'), metadata({ accessKey: 'stranger', accessSecret: 'x' }),
      words.unknownKey ],
    [ 'a wrong secret', 'queryRoute', route('acl_rw'), metadata({ ...USER, accessSecret: 'wrong' }),
      words.wrongSecret ],
    [ 'a header without key=value items', 'queryRoute', route('acl_rw'), metadata(null, { authorization: 'garbage' }),
      'authorization header is incorrect' ],
    [ 'a signature that is not hex', 'queryRoute', route('acl_rw'),
      metadata(null, { authorization: 'MQv2-HMAC-SHA1 Credential=nodeUser, SignedHeaders=x-mq-date-time, Signature=XYZ' }),
      'not hexadecimal' ],
    [ 'a send to a SUB-only topic', 'sendMessage', sendRequest('acl_ro', 'x'), metadata(USER),
      words.subOnly ],
    [ 'a send to a denied topic', 'sendMessage', sendRequest('acl_denied', 'x'), metadata(USER),
      words.deniedTopic ],
    [ 'a route of a denied topic', 'queryRoute', route('acl_denied'), metadata(USER), words.deniedRoute ],
    [ 'an ack for a denied group', 'ackMessage', new service.AckMessageRequest().setTopic(resource('acl_rw'))
      .setGroup(resource('acl_other')).setEntriesList([ new service.AckMessageEntry().setMessageId('m')
        .setReceiptHandle('h') ]), metadata(USER), words.deniedGroup ],
    [ 'change-invisible for a denied group', 'changeInvisibleDuration', new service.ChangeInvisibleDurationRequest()
      .setTopic(resource('acl_rw')).setGroup(resource('acl_other')).setReceiptHandle('h').setMessageId('m'),
    metadata(USER), words.deniedGroup ],
    [ 'a heartbeat for a denied group', 'heartbeat', new service.HeartbeatRequest().setGroup(resource('acl_other'))
      .setClientType(definition.ClientType.SIMPLE_CONSUMER), metadata(USER), words.deniedGroup ],
    [ 'an assignment for a denied group', 'queryAssignment', new service.QueryAssignmentRequest()
      .setTopic(resource('acl_rw')).setGroup(resource('acl_other')), metadata(USER), words.deniedGroup ],
  ];
  for (const [ what, method, request, md, words ] of refusals) {
    const status = (await unary(client, method, request, md)).getStatus();
    assert.equal(status.getCode(), Code.UNAUTHORIZED, `${what}: ${status.getCode()} ${status.getMessage()}`);
    assert.ok(status.getMessage().includes(words), `${what}: "${status.getMessage()}" does not say "${words}"`);
  }
  const receive = group => new service.ReceiveMessageRequest().setGroup(resource(group))
    .setMessageQueue(new definition.MessageQueue().setTopic(resource('acl_rw')).setId(-1))
    .setFilterExpression(new definition.FilterExpression().setType(definition.FilterType.TAG).setExpression('*'))
    .setBatchSize(1).setAutoRenew(false);
  const refusedReceive = await receiveStatus(client, receive('acl_other'), metadata(USER));
  assert.equal(refusedReceive.getCode(), Code.UNAUTHORIZED, `a receive for a denied group: ${refusedReceive.getMessage()}`);
  const allowedRoute = (await unary(client, 'queryRoute', route('acl_ro'), metadata(USER))).getStatus();
  assert.equal(allowedRoute.getCode(), Code.OK, `a SUB-only topic's route: ${allowedRoute.getMessage()}`);
  h.note(`${refusals.length + 1} raw refusals answered UNAUTHORIZED with Java's words; a SUB-only topic's route is served`);
  client.close();

  // Everything signed arrives; nothing refused was stored.
  const consumer = await h.simpleConsumer('acl_group', new Map([ [ 'acl_rw', '*' ], [ 'acl_ro', '*' ] ]),
    { sessionCredentials: USER });
  const got = await h.receiveAll(consumer, sent.length);
  assert.deepEqual(got.map(v => v.messageId).sort(), [ ...sent ].sort(), 'every signed send is received once');
  assert.ok(got.every(v => v.topic === 'acl_rw'));
  const extra = await consumer.receive(16, 15000);
  assert.equal(extra.length, 0, `a refused send was stored: ${extra.map(v => v.topic).join(', ')}`);
  h.note('the signed consumer received and acked all 10; nothing refused was stored');
}, { plainAcl: PLAIN_ACL, acl2, adminCredentials: ADMIN });
};
