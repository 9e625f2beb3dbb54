package mqdesktest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"

	"github.com/mqdesk/mqdesk/integrations/go/mqdesktest"
)

// TestBrokersSideBySide starts 8 brokers from parallel subtests: each listens on ports of its
// own and stores what its producer sends.
//
// go test runs GOMAXPROCS parallel subtests at a time (-parallel), possibly fewer than 8, so
// each broker is started with StartBroker and kept running until the whole test ends (stopped in
// its cleanup): all 8 then run at the same time, and no port a stopped broker freed can be
// picked again by another.
func TestBrokersSideBySide(t *testing.T) {
	const brokers = 8
	var mu sync.Mutex
	addrs := map[string]string{} // address -> the broker and listener using it

	t.Run("group", func(t *testing.T) {
		for i := 0; i < brokers; i++ {
			name := string(rune('a' + i))
			dir := t.TempDir() // the group's: it outlives the subtest
			group := t
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				b, err := mqdesktest.StartBroker(dir, mqdesktest.WithTopic("side"))
				if err != nil {
					t.Fatal(err)
				}
				// Cleanup is safe to call from any goroutine; group's cleanups run once all of
				// its subtests have ended, before its TempDirs are removed.
				group.Cleanup(func() {
					if err := b.Stop(); err != nil {
						group.Errorf("broker %s: %v", name, err)
					}
				})
				mu.Lock()
				for listener, addr := range map[string]string{"namesrv": b.NamesrvAddr, "broker": b.BrokerAddr,
					"grpc": b.GrpcEndpoint} {
					if other, taken := addrs[addr]; taken {
						t.Errorf("%s's %s %s is also %s's", name, listener, addr, other)
					}
					addrs[addr] = name + " " + listener
				}
				mu.Unlock()

				r := sendOK(t, newProducer(t, b), primitive.NewMessage("side", []byte("to broker "+name)))
				if r.MessageQueue == nil || r.MessageQueue.Topic != "side" {
					t.Errorf("send result %v", r)
				}
			})
		}
	})
	if len(addrs) != 3*brokers {
		t.Errorf("%d distinct addresses, want %d: %v", len(addrs), 3*brokers, addrs)
	}
}

// TestTopicsWithoutAutoCreate: with autoCreateTopicEnable=false only the topics of WithTopic
// exist: a send to one is stored, a send to any other topic is refused.
func TestTopicsWithoutAutoCreate(t *testing.T) {
	t.Parallel()
	b := mqdesktest.Start(t, mqdesktest.WithConfig("autoCreateTopicEnable", "false"),
		mqdesktest.WithTopics("known:2", "fifo:1:FIFO"))
	p := newProducer(t, b, producer.WithRetry(0))

	for _, topic := range []string{"known", "fifo"} {
		r := sendOK(t, p, primitive.NewMessage(topic, []byte("hello")))
		if topic == "known" && (r.MessageQueue.QueueId < 0 || r.MessageQueue.QueueId >= 2) {
			t.Errorf("sent to queue %d of known, which has 2", r.MessageQueue.QueueId)
		}
	}
	_, err := p.SendSync(context.Background(), primitive.NewMessage("unknown", []byte("hello")))
	if err == nil {
		t.Fatal("a send to a topic that was never created was accepted")
	}
	t.Logf("refused as expected: %v", err)
}

// TestACLUser: with WithACLUser a producer signing as that user may send; an unsigned one may
// not.
func TestACLUser(t *testing.T) {
	t.Parallel()
	b := mqdesktest.Start(t, mqdesktest.WithACLUser("admin", "secret12"), mqdesktest.WithTopic("secured"))

	signed := newProducer(t, b, producer.WithCredentials(primitive.Credentials{AccessKey: "admin", SecretKey: "secret12"}))
	sendOK(t, signed, primitive.NewMessage("secured", []byte("signed")))

	unsigned := newProducer(t, b, producer.WithRetry(0))
	if _, err := unsigned.SendSync(context.Background(), primitive.NewMessage("secured", []byte("unsigned"))); err == nil {
		t.Fatal("an unsigned send was accepted")
	} else {
		t.Logf("refused as expected: %v", err)
	}
}

// TestSyncFlushAndStop: the options reach broker.conf, and Stop stops the broker cleanly (and
// may be called again).
func TestSyncFlushAndStop(t *testing.T) {
	t.Parallel()
	b := mqdesktest.Start(t, mqdesktest.WithSyncFlush(), mqdesktest.WithConfig("maxMessageSize", "65536"),
		mqdesktest.WithTopic("durable"))
	conf, err := os.ReadFile(filepath.Join(b.Dir, "broker.conf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"flushDiskType=SYNC_FLUSH", "maxMessageSize=65536"} {
		if !strings.Contains(string(conf), line+"\n") {
			t.Errorf("broker.conf lacks %s:\n%s", line, conf)
		}
	}
	p, err := startProducer(b)
	if err != nil {
		t.Fatal(err)
	}
	sendOK(t, p, primitive.NewMessage("durable", []byte("flushed before the ack")))
	_ = p.Shutdown()

	if err := b.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if err := b.Stop(); err != nil {
		t.Fatalf("Stop again: %v", err)
	}
	if entries, err := os.ReadDir(filepath.Join(b.StoreDir, "commitlog")); err != nil || len(entries) == 0 {
		t.Errorf("no commit log in %s after the send: %v", b.StoreDir, err)
	}
}

// TestStartFailureShowsTheLog: a broker that refuses its configuration is an error naming the
// reason, from the broker's own log.
func TestStartFailureShowsTheLog(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		opt  mqdesktest.Option
		want string
	}{
		{mqdesktest.WithConfig("listenPort", "not-a-port"), "bad value 'not-a-port' for listenPort"},
		{mqdesktest.WithTopic("orders:0"), "queue count '0'"},
		{mqdesktest.WithTopic("orders:4:NOT_A_TYPE"), "NOT_A_TYPE"},
		{mqdesktest.WithGroup("billing:sometimes"), "billing:sometimes"},
	} {
		_, err := mqdesktest.StartBroker(t.TempDir(), c.opt)
		if err == nil {
			t.Errorf("the broker started, want a refusal with %q", c.want)
			continue
		}
		if !strings.Contains(err.Error(), "exited") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("the error does not say %q: %v", c.want, err)
		}
		t.Logf("as expected: %v", err)
	}
}
