#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora into tests/fuzz/corpus/<target>/ (committed; rerun
after changing a seed). Seeds are cut from the Java-written fixtures (shared/fixtures/java-written)
or built by hand after the formats in docs/spec; a fuzz target's first byte, where it picks a
mode, is prepended here."""
import json, os, struct, sys, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, '../../../shared/fixtures/java-written')
OUT = os.path.join(HERE, 'corpus')


def put(target, name, data):
    os.makedirs(os.path.join(OUT, target), exist_ok=True)
    with open(os.path.join(OUT, target, name), 'wb') as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def read(path):
    with open(os.path.join(FIXTURES, path), 'rb') as f:
        return f.read()


def records(log):
    """(offset, bytes) of each message record up to the blank record."""
    at = 0
    while at + 8 <= len(log):
        size, magic = struct.unpack_from('>iI', log, at)
        if magic not in (0xDAA320A7, 0xDAA320AB) or size <= 0:
            return
        yield at, log[at:at + size]
        at += size


def properties_of(record):
    # V1 layout (store-format §3): bodyLen after 84 bytes of fixed fields with IPv4 hosts.
    body_len = struct.unpack_from('>i', record, 84)[0]
    at = 88 + body_len
    topic_len = record[at]
    at += 1 + topic_len
    props_len = struct.unpack_from('>h', record, at)[0]
    return record[at + 2:at + 2 + props_len], record[88:88 + body_len]


def java_hash(text):
    h = 0
    for c in text.encode():
        h = (31 * h + c) & 0xFFFFFFFF
    h = h - (1 << 32) if h >= 1 << 31 else h
    return 0 if h == -(1 << 31) else abs(h)


def json_header(code, ext, opaque=1, remark=None):
    header = {'code': code, 'extFields': ext, 'flag': 0, 'language': 'JAVA', 'opaque': opaque,
              'serializeTypeCurrentRPC': 'JSON', 'version': 317}
    if remark is not None:
        header['remark'] = remark
    return json.dumps(header, separators=(',', ':')).encode()


def binary_header(code, ext, opaque=1, remark=b''):
    out = struct.pack('>hbhii', code, 0, 317, opaque, 0) + struct.pack('>i', len(remark)) + remark
    fields = b''.join(struct.pack('>h', len(k)) + k.encode() + struct.pack('>i', len(v)) + v.encode()
                      for k, v in ext.items())
    return out + struct.pack('>i', len(fields)) + fields


def frame(header, body=b'', serialize=0):
    return struct.pack('>ii', 4 + len(header) + len(body), (serialize << 24) | len(header)) + header + body


send_ext = {'producerGroup': 'PG', 'topic': 'TopicTest', 'defaultTopic': 'TBW102', 'defaultTopicQueueNums': '4',
            'queueId': '0', 'sysFlag': '0', 'bornTimestamp': '1638316800000', 'flag': '0',
            'properties': 'KEYS\x01k1\x02TAGS\x01TagA\x02WAIT\x01true\x02', 'reconsumeTimes': '0',
            'unitMode': 'false', 'batch': 'false'}
pull_ext = {'consumerGroup': 'CG', 'topic': 'TopicTest', 'queueId': '0', 'queueOffset': '0', 'maxMsgNums': '32',
            'sysFlag': '2', 'commitOffset': '0', 'suspendTimeoutMillis': '15000', 'subVersion': '0'}

# Remoting frames and headers.
put('fuzz_json_header', 'send', json_header(10, send_ext))
put('fuzz_json_header', 'pull', json_header(11, pull_ext, remark='r'))
put('fuzz_json_header', 'fastjson', b"{code:34,'language':'CPP',opaque:'7',extFields:{a:1,b:true,c:null},}")
put('fuzz_rocketmq_header', 'send', binary_header(10, send_ext))
put('fuzz_rocketmq_header', 'pull', binary_header(11, pull_ext, remark=b'remark'))
put('fuzz_frame_decoder', 'send_json', frame(json_header(10, send_ext), b'hello body'))
put('fuzz_frame_decoder', 'send_binary', frame(binary_header(10, send_ext), b'hello body', 1))
put('fuzz_frame_decoder', 'two_frames', frame(json_header(34, {}), b'{}') + frame(binary_header(11, pull_ext), b'', 1))

# Records, properties and consume-queue entries from the Java-written commit logs.
for fixture in ('fork-2021', 'study-2019'):
    log = read(fixture + '/commitlog/00000000000000000000')
    recs = list(records(log))
    for i, (offset, record) in enumerate(recs[:6]):
        put('fuzz_record_codec', f'{fixture}-{i}', record)
        props, body = properties_of(record)
        put('fuzz_message_properties', f'{fixture}-{i}', props)
    put('fuzz_record_codec', f'{fixture}-blank', log[recs[-1][0] + len(recs[-1][1]):][:16])
    if fixture == 'fork-2021':
        # 0: as given; 1|4: padded to entries, that size configured; 2: two files.
        entries = b''.join(struct.pack('>qiq', offset, len(record), java_hash('TagA')) for offset, record in recs)
        put('fuzz_consume_queue', 'all', b'\x00' + entries)
        put('fuzz_consume_queue', 'two-files', b'\x07' + entries[:200])
        put('fuzz_consume_queue', 'hole', b'\x01' + entries[:40] + bytes(20) + entries[60:100])
        # 8: a BatchCQ file, 46-byte units (the records taken as batches of 1, 2, 3, ...).
        units, base = [], 0
        for i, (offset, record) in enumerate(recs):
            units.append(struct.pack('>qiqqqhii', offset, len(record), java_hash('TagA'), 0, base, i % 4 + 1, -1, 0))
            base += i % 4 + 1
        put('fuzz_consume_queue', 'batch', b'\x09' + b''.join(units))
        # An index file (store-format §6) of 8 slots and 16 entries holding three entries.
        slots, n = 8, 16
        entry_list = []
        slot_table = [0] * slots
        for i, (offset, record) in enumerate(recs[:3], start=1):
            h = java_hash('abc#key%d' % i)
            entry_list.append(struct.pack('>iqii', h, offset, i, slot_table[h % slots]))
            slot_table[h % slots] = i
        header = struct.pack('>qqqqii', 1635768000000, 1635768003000, recs[0][0], recs[2][0], 3, 4)
        index = header + b''.join(struct.pack('>i', s) for s in slot_table) + bytes(20) + b''.join(entry_list)
        index += bytes(40 + slots * 4 + n * 20 - len(index))
        put('fuzz_index_file', 'three-entries', b'\x03' + index)
        put('fuzz_index_file', 'inferred', b'\x01' + index)
        # A SEND_BATCH_MESSAGE body (MessageDecoder.encodeMessages) of three messages.
        batch = b''
        for i, (offset, record) in enumerate(recs[:3]):
            props, body = properties_of(record)
            size = 4 + 4 + 4 + 4 + 4 + len(body) + 2 + len(props)
            batch += struct.pack('>iiiii', size, 0, zlib.crc32(body) & 0x7FFFFFFF, 0, len(body)) + body
            batch += struct.pack('>h', len(props)) + props

        put('fuzz_message_batch', 'three', batch)

# Small files of a store.
for fixture in ('study-2019', 'study-b'):
    put('fuzz_checkpoint', fixture + '-checkpoint', b'\x00' + read(fixture + '/checkpoint'))
    for name in ('topics.json', 'consumerOffset.json', 'subscriptionGroup.json', 'delayOffset.json'):
        text = read(fixture + '/config/' + name)
        put('fuzz_json_parser', f'{fixture}-{name}', text)
put('fuzz_checkpoint', 'topics', b'\x02' + read('study-2019/config/topics.json'))
put('fuzz_checkpoint', 'properties', b'\x04' + b'brokerName=broker-a\nflushDiskType=SYNC_FLUSH\n')
put('fuzz_json_parser', 'dialect', "{0:250,-1:1,name:'x',a:[1L,1.5D,'\\x41\\v'],}")

# Protocol bodies; byte 0 picks the decoder (fuzz_protocol_bodies.cpp).
heartbeat = {'clientID': '127.0.0.1@1', 'consumerDataSet': [{'groupName': 'CG', 'consumeType': 'CONSUME_PASSIVELY',
             'messageModel': 'CLUSTERING', 'consumeFromWhere': 'CONSUME_FROM_LAST_OFFSET', 'unitMode': False,
             'subscriptionDataSet': [{'topic': 'TopicTest', 'subString': 'TagA || TagB', 'tagsSet': ['TagA', 'TagB'],
                                      'codeSet': [1, 2], 'subVersion': 1, 'classFilterMode': False}]}],
             'producerDataSet': [{'groupName': 'PG'}]}
lock = {'consumerGroup': 'CG', 'clientId': '127.0.0.1@1', 'onlyThisBroker': False,
        'mqSet': [{'topic': 'TopicTest', 'brokerName': 'broker-a', 'queueId': 0}]}
route = {'orderTopicConf': None, 'queueDatas': [{'brokerName': 'broker-a', 'readQueueNums': 4, 'writeQueueNums': 4,
         'perm': 6, 'topicSysFlag': 0}], 'brokerDatas': [{'cluster': 'DefaultCluster', 'brokerName': 'broker-a',
         'brokerAddrs': {'0': '127.0.0.1:10911'}}], 'filterServerTable': {}}
cluster = {'brokerAddrTable': {'broker-a': {'cluster': 'DefaultCluster', 'brokerName': 'broker-a',
           'brokerAddrs': {'0': '127.0.0.1:10911'}}}, 'clusterAddrTable': {'DefaultCluster': ['broker-a']}}
register = {'topicConfigSerializeWrapper': {'topicConfigTable': {'TopicTest': {'topicName': 'TopicTest',
            'readQueueNums': 4, 'writeQueueNums': 4, 'perm': 6, 'topicFilterType': 'SINGLE_TAG', 'topicSysFlag': 0,
            'order': False}}, 'dataVersion': {'timestamp': 1638316800000, 'counter': 1}}, 'filterServerList': []}
for i, body in enumerate((heartbeat, lock, route, cluster, register)):
    put('fuzz_protocol_bodies', str(i), bytes([i]) + json.dumps(body).encode())
parts = [json.dumps({'timestamp': 1638316800000, 'counter': 1}).encode(), struct.pack('>i', 1),
         b'TopicTest 4 4 6 0', b'[]']
compressed = zlib.compress(b''.join(p if i == 1 else struct.pack('>i', len(p)) + p for i, p in enumerate(parts)))
put('fuzz_protocol_bodies', '5', b'\x05' + compressed)

# SQL92 filter expressions, then NUL and the properties they are evaluated on (fuzz_sql_filter.cpp).
sql_seeds = [
    "a BETWEEN 0 AND 3 AND b = 'x'",
    "(b IN ('y', 'z') AND a > 5) OR c IS NOT NULL",
    "TAGS = 'TagB' AND c IS NULL AND NOT (a BETWEEN 2 AND 6)",
    "a NOT CONTAINS 'it''s' OR b STARTSWITH 'p' AND c NOT ENDSWITH 'q'",
    "a >= 1.5E2 OR -a < -3L OR a <> TRUE /* c */ -- d\n",
    "a = 1 = TRUE AND a IS NULL IS NULL",
]
for i, sql in enumerate(sql_seeds):
    put('fuzz_sql_filter', str(i), sql.encode() + b'\x00a\x011\x02b\x01x\x02TAGS\x01TagB\x02')

# Access control (fuzz_acl.cpp): byte 0 picks AUTH_* bodies (0), a resource and a source IP (1),
# or a request (2: then the table row's index, "key=value" lines, NUL, the body).
user = {'username': 'alice', 'password': 'alice-secret', 'userType': 'Normal', 'userStatus': 'enable'}
acl = {'subject': 'User:alice', 'policies': [
    {'policyType': 'Custom', 'entries': [
        {'resource': 'Topic:orders*', 'actions': ['Pub', 'Sub'], 'sourceIps': ['10.0.0.0/8'], 'decision': 'Allow'},
        {'resource': 'Group:billing', 'actions': 'Sub', 'decision': 'Deny'}]},
    {'policyType': 'Default', 'entries': [{'resource': '*', 'actions': ['Get'], 'decision': 'Allow'}]}]}
put('fuzz_acl', 'user', b'\x00' + json.dumps(user).encode())
put('fuzz_acl', 'acl', b'\x00' + json.dumps(acl).encode())
put('fuzz_acl', 'acls', b'\x00' + json.dumps([acl, acl]).encode())
put('fuzz_acl', 'resource', b'\x01Topic:orders*\n10.0.0.0/8 10.1.2.3')
put('fuzz_acl', 'resource-v6', b'\x01Cluster:DefaultCluster\nfe80::/10 fe80::1')
# Requests by their code: SEND_MESSAGE_V2, PULL_MESSAGE, HEART_BEAT, BATCH_ACK_MESSAGE.
code = lambda c: b'\x02' + struct.pack('>i', c)
put('fuzz_acl', 'send', code(310) + b'a=PG\nb=orders\nc=TBW102\x00')
put('fuzz_acl', 'pull', code(11) + b'consumerGroup=CG\ntopic=%RETRY%CG\x00')
put('fuzz_acl', 'heartbeat', code(34) + b'\x00{"clientID":"c","consumerDataSet":[{"groupName":"g","subscriptionDataSet":[{"topic":"t"}]}],"producerDataSet":[]}')
put('fuzz_acl', 'batch-ack', code(200151) + b'\x00{"acks":[{"c":"g","t":"t","q":0,"so":0,"rq":0}]}')

# The gRPC guard's HTTP/2 inspector (fuzz_http2_inspector.cpp): byte 0 bit 0 prepends the
# preface; then chunks of [length | 0x40 second connection | 0x80 from grpc++][ms][bytes].
def h2frame(kind, flags, stream, payload=b''):
    return struct.pack('>I', len(payload))[1:] + bytes([kind, flags]) + struct.pack('>I', stream) + payload

def h2chunks(data, control=0, step=0):
    out = b''
    for i in range(0, len(data), 63):
        part = data[i:i + 63]
        out += bytes([control | len(part), step]) + part
    return out

h2headers = b'\x83\x86\x04\x05/a/b1\x01\x09localhost'
put('fuzz_http2_inspector', 'call', b'\x01' + h2chunks(h2frame(4, 0, 0) + h2frame(1, 4, 1, h2headers) + h2frame(0, 1, 1, b'\x00' * 5))
    + h2chunks(h2frame(1, 5, 1, b'\x88'), 0x80))
put('fuzz_http2_inspector', 'rapid-reset', b'\x01' + h2chunks(b''.join(
    h2frame(1, 4, s, h2headers) + h2frame(3, 0, s, b'\x00\x00\x00\x08') for s in range(1, 40, 2)), 0, 1))
put('fuzz_http2_inspector', 'continuation', b'\x01' + h2chunks(h2frame(1, 0, 1, h2headers)
    + b''.join(h2frame(9, 0, 1, b'\x00' * 600) for _ in range(8))))
put('fuzz_http2_inspector', 'two-connections', b'\x01' + h2chunks(b''.join(h2frame(1, 4, s, h2headers) for s in range(1, 30, 2)))
    + h2chunks(b''.join(h2frame(1, 4, s, h2headers) for s in range(1, 30, 2)), 0x40, 50))
