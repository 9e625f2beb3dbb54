package mqdesktest_test

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	rocketmq "github.com/apache/rocketmq-client-go/v2"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"
	"github.com/apache/rocketmq-client-go/v2/rlog"

	"github.com/mqdesk/mqdesk/integrations/go/mqdesktest"
)

// shared is one broker for every test of this package that needs no broker of its own: started
// in TestMain with StartBroker, as a test suite that wants one broker per package does.
var shared *mqdesktest.Broker

func TestMain(m *testing.M) {
	rlog.SetLogLevel("error") // rocketmq-client-go logs every route refresh at info level
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	var err error
	// "": a temporary directory of its own, which Stop removes.
	shared, err = mqdesktest.StartBroker("", mqdesktest.WithTopic("shared:4"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	code := m.Run()
	if err := shared.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := os.Stat(shared.Dir); !os.IsNotExist(err) {
		fmt.Fprintf(os.Stderr, "the shared broker's directory %s outlived Stop (%v)\n", shared.Dir, err)
		return 1
	}
	return code
}

// TestSharedBroker uses the broker of TestMain.
func TestSharedBroker(t *testing.T) {
	p := newProducer(t, shared)
	sendOK(t, p, primitive.NewMessage("shared", []byte("to the shared broker")))
}

var clientSerial atomic.Int64

// instanceName is unique in this process: rocketmq-client-go shares one client, with the first
// one's NameServer, between producers of the same instance name (by default the process id), so
// tests talking to several brokers at once must give each client its own.
func instanceName(prefix string) string {
	return fmt.Sprintf("%s-%d", prefix, clientSerial.Add(1))
}

// startProducer starts a producer on the broker's NameServer.
func startProducer(b *mqdesktest.Broker, opts ...producer.Option) (rocketmq.Producer, error) {
	all := append([]producer.Option{
		producer.WithNsResolver(primitive.NewPassthroughResolver([]string{b.NamesrvAddr})),
		producer.WithGroupName(instanceName("producer")),
		producer.WithInstanceName(instanceName("p")),
		producer.WithSendMsgTimeout(10 * time.Second),
	}, opts...)
	p, err := rocketmq.NewProducer(all...)
	if err != nil {
		return nil, fmt.Errorf("creating a producer: %w", err)
	}
	if err := p.Start(); err != nil {
		return nil, fmt.Errorf("starting a producer: %w", err)
	}
	return p, nil
}

// newProducer is startProducer for a test: the producer is shut down when the test ends,
// before the broker stops (cleanups run last-in first-out).
func newProducer(t testing.TB, b *mqdesktest.Broker, opts ...producer.Option) rocketmq.Producer {
	t.Helper()
	p, err := startProducer(b, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.Shutdown(); err != nil {
			t.Errorf("shutting the producer down: %v", err)
		}
	})
	return p
}

// sendOK sends m and fails the test unless the broker stored it.
func sendOK(t testing.TB, p rocketmq.Producer, m *primitive.Message) *primitive.SendResult {
	t.Helper()
	r, err := p.SendSync(context.Background(), m)
	if err != nil {
		t.Fatalf("sending to %s: %v", m.Topic, err)
	}
	if r.Status != primitive.SendOK {
		t.Fatalf("sending to %s: status %v", m.Topic, r.Status)
	}
	return r
}
