package main

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"
)

// inbox records what a consumer received, by the message's first key.
type inbox struct {
	mu     sync.Mutex
	count  map[string]int
	first  map[string]*primitive.MessageExt
	at     map[string]time.Time
	errors []string
}

func newInbox() *inbox {
	return &inbox{count: map[string]int{}, first: map[string]*primitive.MessageExt{}, at: map[string]time.Time{}}
}

func firstKey(m *primitive.MessageExt) string {
	k, _, _ := strings.Cut(m.GetKeys(), primitive.PropertyKeySeparator)
	return k
}

// handler is a concurrently-consuming listener that records every message.
func (in *inbox) handler(_ context.Context, msgs ...*primitive.MessageExt) (consumer.ConsumeResult, error) {
	now := time.Now()
	in.mu.Lock()
	defer in.mu.Unlock()
	for _, m := range msgs {
		k := firstKey(m)
		in.count[k]++
		if _, ok := in.first[k]; !ok {
			in.first[k] = m
			in.at[k] = now
		}
	}
	return consumer.ConsumeSuccess, nil
}

// distinct is the number of different keys received.
func (in *inbox) distinct() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return len(in.count)
}

func (in *inbox) String() string {
	in.mu.Lock()
	defer in.mu.Unlock()
	keys := make([]string, 0, len(in.count))
	for k, n := range in.count {
		keys = append(keys, fmt.Sprintf("%s×%d", k, n))
	}
	sort.Strings(keys)
	return fmt.Sprintf("%d distinct: %s", len(keys), strings.Join(keys, " "))
}

func (in *inbox) snapshot() map[string]int {
	in.mu.Lock()
	defer in.mu.Unlock()
	out := make(map[string]int, len(in.count))
	for k, n := range in.count {
		out[k] = n
	}
	return out
}

// scenarioProducer: SendSync, SendAsync, SendOneWay and a batch, each message with two keys, a tag and
// a user property; a push consumer then reads every message exactly once, as sent.
func scenarioProducer(e *Env) {
	b := e.StartBroker()
	topic := e.Unique("gprod")
	e.CreateTopic(b, topic, 4)
	p := e.NewProducer(b)
	ctx := context.Background()

	sent := map[string]*primitive.Message{}
	msgIDs := map[string]string{}
	newMessage := func(mode string, i int) *primitive.Message {
		key := fmt.Sprintf("%s-%d", mode, i)
		m := primitive.NewMessage(topic, []byte("body of "+key))
		m.WithTag("Tag" + mode)
		m.WithKeys([]string{key, "k" + mode})
		m.WithProperty("mode", mode)
		sent[key] = m
		return m
	}
	const n = 10

	queues := map[int]bool{}
	for i := 0; i < n; i++ {
		m := newMessage("sync", i)
		r, err := p.SendSync(ctx, m)
		e.Must(err, "SendSync")
		e.Check(r.Status == primitive.SendOK, "SendSync status %v", r.Status)
		e.Check(r.MsgID != "" && r.OffsetMsgID != "", "SendSync result without message ids: %v", r)
		e.Check(r.MessageQueue != nil && r.MessageQueue.Topic == topic, "SendSync result queue %v", r.MessageQueue)
		queues[r.MessageQueue.QueueId] = true
		msgIDs[fmt.Sprintf("sync-%d", i)] = r.MsgID
	}
	e.Check(len(queues) >= 2, "SendSync used only queues %v of 4", queues)
	logf("ok: %d SendSync over queues %v", n, queues)

	var asyncDone sync.WaitGroup
	var asyncMu sync.Mutex
	var asyncErrs []string
	for i := 0; i < n; i++ {
		m := newMessage("async", i)
		asyncDone.Add(1)
		err := p.SendAsync(ctx, func(_ context.Context, r *primitive.SendResult, err error) {
			defer asyncDone.Done()
			asyncMu.Lock()
			defer asyncMu.Unlock()
			if err != nil {
				asyncErrs = append(asyncErrs, err.Error())
			} else if r.Status != primitive.SendOK || r.MsgID == "" {
				asyncErrs = append(asyncErrs, fmt.Sprintf("result %v", r))
			}
		}, m)
		if err != nil {
			asyncDone.Done()
			e.Must(err, "SendAsync")
		}
	}
	waited := make(chan struct{})
	go func() { asyncDone.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(20 * time.Second):
		e.Fatalf("SendAsync callbacks not all called within 20 s")
	}
	e.Check(len(asyncErrs) == 0, "SendAsync callbacks reported %v", asyncErrs)
	logf("ok: %d SendAsync callbacks with SEND_OK", n)

	for i := 0; i < n; i++ {
		e.Must(p.SendOneWay(ctx, newMessage("oneway", i)), "SendOneWay")
	}
	logf("ok: %d SendOneWay", n)

	batch := make([]*primitive.Message, 0, n)
	for i := 0; i < n; i++ {
		batch = append(batch, newMessage("batch", i))
	}
	r, err := p.SendSync(ctx, batch...)
	e.Must(err, "SendSync of a batch")
	e.Check(r.Status == primitive.SendOK, "batch status %v", r.Status)
	// The broker answers a batch with the offset message ids of all its messages, comma-separated.
	e.Check(len(strings.Split(r.OffsetMsgID, ",")) == n, "batch result offset msgIds %q: not %d ids", r.OffsetMsgID, n)
	logf("ok: a batch of %d with SEND_OK", n)

	in := newInbox()
	e.NewPushConsumer(b, e.Unique("gprodc"), topic, "*", in.handler)
	e.Eventually(30*time.Second, fmt.Sprintf("all %d messages consumed", len(sent)),
		func() bool { return in.distinct() == len(sent) }, in.String)
	time.Sleep(2 * time.Second) // late duplicates would show now
	got := in.snapshot()
	e.Check(len(got) == len(sent), "consumed %s", in.String())
	for key, m := range sent {
		e.Check(got[key] == 1, "%s consumed %d times", key, got[key])
		x := in.first[key]
		e.Check(x.Topic == topic, "%s: topic %q", key, x.Topic)
		e.Check(string(x.Body) == string(m.Body), "%s: body %q, sent %q", key, x.Body, m.Body)
		e.Check(x.GetTags() == m.GetTags(), "%s: tag %q, sent %q", key, x.GetTags(), m.GetTags())
		e.Check(x.GetKeys() == m.GetKeys(), "%s: keys %q, sent %q", key, x.GetKeys(), m.GetKeys())
		e.Check(x.GetProperty("mode") == m.GetProperty("mode"), "%s: property mode %q", key, x.GetProperty("mode"))
		e.Check(x.MsgId != "" && x.BornTimestamp > 0 && x.StoreTimestamp > 0 && x.QueueOffset >= 0,
			"%s: message ext %v", key, x)
		if id, ok := msgIDs[key]; ok {
			e.Check(x.MsgId == id, "%s: consumed msgId %s, SendSync returned %s", key, x.MsgId, id)
		}
	}
	logf("ok: every message consumed once with its body, tag, keys and property")
}

// scenarioPushConsumer: two clustering consumers of one group share the topic's queues and receive
// every message exactly once between them; a consumer of another group with the tag expression
// "TagA || TagC || 标签" receives exactly the messages with those tags (a non-ASCII tag too: the Go
// client's code for it is a hash of its UTF-8 bytes, the consume queue holds Java's UTF-16 hash).
func scenarioPushConsumer(e *Env) {
	b := e.StartBroker()
	topic := e.Unique("gpush")
	e.CreateTopic(b, topic, 4)
	group := e.Unique("gcg")
	in1, in2, tagged := newInbox(), newInbox(), newInbox()
	c1 := e.NewPushConsumer(b, group, topic, "*", in1.handler)
	c2 := e.NewPushConsumer(b, group, topic, "*", in2.handler)
	e.NewPushConsumer(b, e.Unique("gtag"), topic, "TagA || TagC || 标签", tagged.handler)
	p := e.NewProducer(b, producer.WithQueueSelector(producer.NewManualQueueSelector()))
	send := func(key, tag string, queue int) {
		m := primitive.NewMessage(topic, []byte(key)).WithTag(tag).WithKeys([]string{key})
		m.Queue = &primitive.MessageQueue{Topic: topic, BrokerName: brokerName, QueueId: queue}
		r, err := p.SendSync(context.Background(), m)
		e.Must(err, "SendSync")
		e.Check(r.Status == primitive.SendOK, "SendSync status %v", r.Status)
		e.Check(r.MessageQueue.QueueId == queue, "%s sent to queue %d, not %d", key, r.MessageQueue.QueueId, queue)
	}
	// The second consumer's heartbeat makes the broker notify the first (NOTIFY_CONSUMER_IDS_CHANGED),
	// which rebalances at once. A queue that changes hands with messages in flight may deliver them
	// twice (a legitimate redelivery), so the messages that count are sent once a round of probes,
	// one per queue, shows the queues split between the two consumers.
	e.Eventually(40*time.Second, "the group's 4 queues split 2 + 2 between its consumers", func() bool {
		round := strconv.FormatInt(time.Now().UnixNano(), 36)
		for q := 0; q < 4; q++ {
			send(fmt.Sprintf("probe-%s-%d", round, q), "probe", q)
		}
		owner := map[int]int{} // queue → consumer; -1 when both got it
		deadline := time.Now().Add(5 * time.Second)
		for len(owner) < 4 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
			for c, in := range []*inbox{in1, in2} {
				for q := 0; q < 4; q++ {
					if in.snapshot()[fmt.Sprintf("probe-%s-%d", round, q)] > 0 {
						if o, ok := owner[q]; ok && o != c {
							owner[q] = -1
						} else {
							owner[q] = c
						}
					}
				}
			}
		}
		perConsumer := map[int]int{}
		for _, c := range owner {
			perConsumer[c]++
		}
		logf("probe round %s: queue → consumer %v", round, owner)
		return len(owner) == 4 && perConsumer[0] == 2 && perConsumer[1] == 2
	}, func() string { return "consumer 1: " + in1.String() + "; consumer 2: " + in2.String() })

	tags := []string{"TagA", "TagB", "TagC", "标签"}
	const n = 60
	wantTagged := map[string]bool{}
	for i := 0; i < n; i++ {
		key := "m-" + strconv.Itoa(i)
		tag := tags[i%len(tags)]
		send(key, tag, i%4)
		if tag != "TagB" {
			wantTagged[key] = true
		}
	}
	total := func() int { return len(withoutProbes(merge(in1.snapshot(), in2.snapshot()))) }
	e.Eventually(30*time.Second, fmt.Sprintf("the group's two consumers received all %d messages", n),
		func() bool { return total() == n },
		func() string { return "consumer 1: " + in1.String() + "; consumer 2: " + in2.String() })
	e.Eventually(30*time.Second, fmt.Sprintf("the tag consumer received its %d messages", len(wantTagged)),
		func() bool { return tagged.distinct() >= len(wantTagged) }, tagged.String)
	time.Sleep(2 * time.Second) // late duplicates would show now

	got1, got2 := withoutProbes(in1.snapshot()), withoutProbes(in2.snapshot())
	e.Check(len(got1) > 0 && len(got2) > 0, "one consumer of the group got nothing: %d and %d messages", len(got1), len(got2))
	for key, count := range merge(got1, got2) {
		e.Check(count == 1, "%s received %d times by the group (consumer 1: %d, consumer 2: %d)", key, count, got1[key], got2[key])
	}
	logf("ok: each of the %d messages received once by the group (%d by consumer 1, %d by consumer 2)", n, len(got1), len(got2))
	got := tagged.snapshot()
	e.Check(len(got) == len(wantTagged), "tag consumer: %s", tagged.String())
	for key, count := range got {
		e.Check(wantTagged[key] && count == 1, "tag consumer received %s %d times", key, count)
		tag := tagged.first[key].GetTags()
		e.Check(tag == "TagA" || tag == "TagC" || tag == "标签", "tag consumer received %s with tag %s", key, tag)
	}
	logf("ok: the tag consumer received exactly the %d TagA/TagC/标签 messages", len(got))

	// Shutdown commits the group's offsets (UPDATE_CONSUMER_OFFSET): a new consumer of the group
	// receives only what is sent after.
	e.Must(c1.Shutdown(), "shutting down consumer 1")
	e.Must(c2.Shutdown(), "shutting down consumer 2")
	in3 := newInbox()
	e.NewPushConsumer(b, group, topic, "*", in3.handler)
	const after = 8
	for i := 0; i < after; i++ {
		send("after-"+strconv.Itoa(i), "TagB", i%4)
	}
	e.Eventually(30*time.Second, fmt.Sprintf("a new consumer of the group received the %d messages sent after", after),
		func() bool { return in3.distinct() >= after }, in3.String)
	time.Sleep(2 * time.Second)
	for key, count := range in3.snapshot() {
		e.Check(strings.HasPrefix(key, "after-") && count == 1,
			"the new consumer received %s %d times: the group's committed offsets were not used", key, count)
	}
	logf("ok: the new consumer resumed from the offsets the others committed")
}

func withoutProbes(counts map[string]int) map[string]int {
	for k := range counts {
		if strings.HasPrefix(k, "probe-") {
			delete(counts, k)
		}
	}
	return counts
}

func merge(a, b map[string]int) map[string]int {
	out := make(map[string]int, len(a)+len(b))
	for k, n := range a {
		out[k] += n
	}
	for k, n := range b {
		out[k] += n
	}
	return out
}

// scenarioOrderly: a producer with a hash queue selector sends each key's messages to one queue; an
// orderly push consumer (WithConsumerOrder) receives every key's messages in the order sent, never
// two messages of one queue at the same time.
func scenarioOrderly(e *Env) {
	b := e.StartBroker()
	topic := e.Unique("gorder")
	e.CreateTopic(b, topic, 4)

	type record struct {
		seq   int
		queue int
	}
	var mu sync.Mutex
	got := map[string][]record{}
	var busy [4]int32
	var overlaps int32
	var count int32
	e.NewPushConsumer(b, e.Unique("gocg"), topic, "*",
		func(ctx context.Context, msgs ...*primitive.MessageExt) (consumer.ConsumeResult, error) {
			if _, ok := primitive.GetOrderlyCtx(ctx); !ok {
				atomic.AddInt32(&overlaps, 1000) // not called as an orderly listener
			}
			for _, m := range msgs {
				q := m.Queue.QueueId
				if atomic.AddInt32(&busy[q], 1) != 1 {
					atomic.AddInt32(&overlaps, 1)
				}
				seq, _ := strconv.Atoi(string(m.Body))
				mu.Lock()
				got[m.GetShardingKey()] = append(got[m.GetShardingKey()], record{seq, q})
				mu.Unlock()
				time.Sleep(2 * time.Millisecond) // widen the window for a concurrent call on this queue
				atomic.AddInt32(&busy[q], -1)
				atomic.AddInt32(&count, 1)
			}
			return consumer.ConsumeSuccess, nil
		}, consumer.WithConsumerOrder(true))

	p := e.NewProducer(b, producer.WithQueueSelector(producer.NewHashQueueSelector()))
	const keys, perKey = 8, 25
	sentQueue := map[string]int{}
	for seq := 0; seq < perKey; seq++ {
		for k := 0; k < keys; k++ {
			key := "order-" + strconv.Itoa(k)
			m := primitive.NewMessage(topic, []byte(strconv.Itoa(seq))).WithShardingKey(key).WithTag("o")
			r, err := p.SendSync(context.Background(), m)
			e.Must(err, "SendSync with a sharding key")
			e.Check(r.Status == primitive.SendOK, "SendSync status %v", r.Status)
			if q, ok := sentQueue[key]; ok {
				e.Check(q == r.MessageQueue.QueueId, "%s sent to queues %d and %d", key, q, r.MessageQueue.QueueId)
			}
			sentQueue[key] = r.MessageQueue.QueueId
		}
	}
	logf("ok: %d keys × %d messages sent, each key to one queue: %v", keys, perKey, sentQueue)
	e.Eventually(40*time.Second, fmt.Sprintf("all %d messages consumed", keys*perKey),
		func() bool { return atomic.LoadInt32(&count) >= keys*perKey },
		func() string { return strconv.Itoa(int(atomic.LoadInt32(&count))) + " consumed" })
	time.Sleep(2 * time.Second)
	mu.Lock()
	defer mu.Unlock()
	e.Check(atomic.LoadInt32(&overlaps) == 0, "orderly listener: %d overlapping or non-orderly calls", overlaps)
	e.Check(len(got) == keys, "received keys %d, sent %d", len(got), keys)
	for key, recs := range got {
		e.Check(len(recs) == perKey, "%s: received %d messages, sent %d", key, len(recs), perKey)
		for i, r := range recs {
			e.Check(r.seq == i, "%s: message %d received as number %d: order broken (%v)", key, r.seq, i, recs)
			e.Check(r.queue == sentQueue[key], "%s: received from queue %d, sent to %d", key, r.queue, sentQueue[key])
		}
	}
	logf("ok: every key's %d messages received once, in order", perKey)
}

// txListener resolves by the message's keys: "commit-*" commits, "rollback-*" rolls back, anything
// else is unknown at first; the broker's check-back then commits "late-commit-*" and rolls back the rest.
type txListener struct {
	mu     sync.Mutex
	checks map[string]int
}

func (l *txListener) ExecuteLocalTransaction(m *primitive.Message) primitive.LocalTransactionState {
	switch keys := m.GetKeys(); {
	case strings.HasPrefix(keys, "commit"):
		return primitive.CommitMessageState
	case strings.HasPrefix(keys, "rollback"):
		return primitive.RollbackMessageState
	default:
		return primitive.UnkonwnState
	}
}

func (l *txListener) CheckLocalTransaction(m *primitive.MessageExt) primitive.LocalTransactionState {
	l.mu.Lock()
	l.checks[m.GetKeys()]++
	l.mu.Unlock()
	if strings.HasPrefix(m.GetKeys(), "late-commit") {
		return primitive.CommitMessageState
	}
	return primitive.RollbackMessageState
}

func (l *txListener) checked() map[string]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[string]int{}
	for k, n := range l.checks {
		out[k] = n
	}
	return out
}

// scenarioTransactions: half messages committed, rolled back and left unknown by the local
// transaction; the broker's check-back (CHECK_TRANSACTION_STATE) resolves the unknown ones; the
// consumer sees the committed ones only.
func scenarioTransactions(e *Env) {
	b := e.StartBroker("transactionTimeOut=1000", "transactionCheckInterval=1000")
	topic := e.Unique("gtx")
	e.CreateTopic(b, topic, 2)
	in := newInbox()
	e.NewPushConsumer(b, e.Unique("gtxc"), topic, "*", in.handler)

	listener := &txListener{checks: map[string]int{}}
	tp, err := newTransactionProducer(e, b, listener)
	e.Must(err, "creating the transaction producer")
	want := map[string]bool{}
	for _, kind := range []string{"commit", "rollback", "late-commit", "late-rollback"} {
		for i := 0; i < 3; i++ {
			key := kind + "-" + strconv.Itoa(i)
			m := primitive.NewMessage(topic, []byte(kind)).WithTag("tx").WithKeys([]string{key})
			r, err := tp.SendMessageInTransaction(context.Background(), m)
			e.Must(err, "SendMessageInTransaction "+key)
			e.Check(r.Status == primitive.SendOK, "%s: half message status %v", key, r.Status)
			if strings.HasPrefix(key, "commit") || strings.HasPrefix(key, "late-commit") {
				want[key] = true
			}
		}
	}
	logf("ok: 12 half messages sent (3 committed, 3 rolled back, 6 unknown)")
	e.Eventually(40*time.Second, "the 3 committed and 3 check-committed messages delivered",
		func() bool { return in.distinct() >= len(want) }, in.String)
	e.Eventually(20*time.Second, "the late-rollback messages checked back",
		func() bool {
			n := 0
			for k := range listener.checked() {
				if strings.HasPrefix(k, "late-rollback") {
					n++
				}
			}
			return n == 3
		}, func() string { return fmt.Sprint(listener.checked()) })
	time.Sleep(3 * time.Second) // a rolled-back message delivered late would show now
	got := in.snapshot()
	e.Check(len(got) == len(want), "delivered %s; want %d", in.String(), len(want))
	for key, n := range got {
		e.Check(want[key], "%s was delivered", key)
		e.Check(n == 1, "%s delivered %d times", key, n)
		x := in.first[key]
		e.Check(x.Topic == topic && x.GetTags() == "tx", "%s delivered with topic %s and tag %s", key, x.Topic, x.GetTags())
	}
	for key := range listener.checked() {
		e.Check(strings.HasPrefix(key, "late-"), "%s was checked back though the producer resolved it", key)
	}
	logf("ok: only the committed messages delivered; checks %v", listener.checked())
}

// scenarioDelay: messages with WithDelayTimeLevel (levels 1s 2s 3s here) are delivered, with their
// topic and tag, not before their delay.
func scenarioDelay(e *Env) {
	b := e.StartBroker("messageDelayLevel=1s 2s 3s")
	topic := e.Unique("gdelay")
	e.CreateTopic(b, topic, 2)
	in := newInbox()
	e.NewPushConsumer(b, e.Unique("gdc"), topic, "*", in.handler)
	p := e.NewProducer(b)
	sentAt := map[string]time.Time{}
	levelOf := map[string]int{}
	for level := 1; level <= 3; level++ {
		for i := 0; i < 3; i++ {
			key := fmt.Sprintf("level%d-%d", level, i)
			m := primitive.NewMessage(topic, []byte("delayed")).WithTag("d").WithKeys([]string{key}).WithDelayTimeLevel(level)
			sentAt[key] = time.Now()
			levelOf[key] = level
			r, err := p.SendSync(context.Background(), m)
			e.Must(err, "SendSync with a delay level")
			e.Check(r.Status == primitive.SendOK, "%s: status %v", key, r.Status)
		}
	}
	e.Eventually(30*time.Second, "all 9 delayed messages delivered",
		func() bool { return in.distinct() == len(sentAt) }, in.String)
	in.mu.Lock()
	defer in.mu.Unlock()
	for key, at := range in.at {
		waited := at.Sub(sentAt[key])
		delay := time.Duration(levelOf[key]) * time.Second
		e.Check(waited >= delay-100*time.Millisecond, "%s (level %d) delivered after %v, before its delay", key, levelOf[key], waited)
		e.Check(waited < delay+10*time.Second, "%s (level %d) delivered only after %v", key, levelOf[key], waited)
		x := in.first[key]
		e.Check(x.Topic == topic, "%s delivered with topic %s", key, x.Topic)
		e.Check(x.GetTags() == "d", "%s delivered with tag %s", key, x.GetTags())
		e.Check(in.count[key] == 1, "%s delivered %d times", key, in.count[key])
		logf("%s (level %d) delivered after %v", key, levelOf[key], waited.Round(time.Millisecond))
	}
}

// scenarioDelayTimestamp: RocketMQ 5 timer messages from the Go client. Message.WithDelayTimestamp
// (property TIMER_DELIVER_MS) is delivered on its topic not before the asked time, in time order,
// once each; timerPrecisionMs=100 keeps the wait short.
func scenarioDelayTimestamp(e *Env) {
	b := e.StartBroker("timerPrecisionMs=100")
	topic := e.Unique("gtimer")
	e.CreateTopic(b, topic, 2)
	in := newInbox()
	e.NewPushConsumer(b, e.Unique("gtc"), topic, "*", in.handler)
	p := e.NewProducer(b)
	dueAt := map[string]time.Time{}
	waits := []time.Duration{3 * time.Second, 1500 * time.Millisecond, 4500 * time.Millisecond}
	for i, wait := range waits {
		key := fmt.Sprintf("timer-%d", i)
		at := time.Now().Add(wait)
		m := primitive.NewMessage(topic, []byte("timed")).WithTag("t").WithKeys([]string{key}).WithDelayTimestamp(at)
		dueAt[key] = at
		r, err := p.SendSync(context.Background(), m)
		e.Must(err, "SendSync with a delay timestamp")
		e.Check(r.Status == primitive.SendOK, "%s: status %v", key, r.Status)
	}
	e.Eventually(40*time.Second, "all 3 timer messages delivered",
		func() bool { return in.distinct() == len(dueAt) }, in.String)
	in.mu.Lock()
	defer in.mu.Unlock()
	for key, at := range in.at {
		e.Check(!at.Before(dueAt[key].Truncate(time.Millisecond)), "%s delivered %v before its time", key, dueAt[key].Sub(at))
		x := in.first[key]
		e.Check(x.Topic == topic, "%s delivered with topic %s", key, x.Topic)
		e.Check(x.GetTags() == "t", "%s delivered with tag %s", key, x.GetTags())
		e.Check(in.count[key] == 1, "%s delivered %d times", key, in.count[key])
		logf("%s delivered %v after its time", key, at.Sub(dueAt[key]).Round(time.Millisecond))
	}
	e.Check(in.at["timer-1"].Before(in.at["timer-0"]) && in.at["timer-0"].Before(in.at["timer-2"]),
		"timer messages 1.5 s apart delivered out of their time order: %v", in.at)
}
