package mqdesktest_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	rocketmq "github.com/apache/rocketmq-client-go/v2"
	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"

	"github.com/mqdesk/mqdesk/integrations/go/mqdesktest"
)

// The application under test: an order service that publishes each order to the "orders"
// topic, and a billing service that consumes them in the "billing" group. Both only need the
// NameServer's address, as against any RocketMQ cluster.

type orderService struct{ producer rocketmq.Producer }

func (s *orderService) PlaceOrder(ctx context.Context, id string, amount int) error {
	m := primitive.NewMessage("orders", []byte(fmt.Sprintf(`{"id":%q,"amount":%d}`, id, amount)))
	m.WithKeys([]string{id})
	m.WithTag("created")
	_, err := s.producer.SendSync(ctx, m)
	return err
}

type billingService struct {
	mu     sync.Mutex
	billed map[string]int // order id -> times billed
}

func (s *billingService) onOrders(_ context.Context, msgs ...*primitive.MessageExt) (consumer.ConsumeResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range msgs {
		s.billed[m.GetKeys()]++
	}
	return consumer.ConsumeSuccess, nil
}

func (s *billingService) billedOrders() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := make([]string, 0, len(s.billed))
	for id := range s.billed {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// TestOrdersAreBilled runs both services against a broker of its own.
func TestOrdersAreBilled(t *testing.T) {
	t.Parallel()
	// A fresh broker with the topic (4 queues) and the consumer group in place; it stops when
	// the test ends.
	b := mqdesktest.Start(t, mqdesktest.WithTopic("orders:4"), mqdesktest.WithGroup("billing"))
	resolver := primitive.NewPassthroughResolver([]string{b.NamesrvAddr})

	billing := &billingService{billed: map[string]int{}}
	c, err := rocketmq.NewPushConsumer(
		consumer.WithNsResolver(resolver),
		consumer.WithGroupName("billing"),
		consumer.WithConsumeFromWhere(consumer.ConsumeFromFirstOffset))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Subscribe("orders", consumer.MessageSelector{Type: consumer.TAG, Expression: "created"},
		billing.onOrders); err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Shutdown() })

	p, err := rocketmq.NewProducer(
		producer.WithNsResolver(resolver),
		producer.WithGroupName("order-service"),
		producer.WithInstanceName(instanceName("orders")), // see instanceName: tests run in parallel
	)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Shutdown() })
	orders := &orderService{producer: p}

	const n = 20
	var want []string
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("order-%02d", i)
		want = append(want, id)
		if err := orders.PlaceOrder(context.Background(), id, 100+i); err != nil {
			t.Fatalf("placing %s: %v", id, err)
		}
	}

	// Wait until every order is billed (a generous deadline: never a timing assertion).
	deadline := time.Now().Add(60 * time.Second)
	for len(billing.billedOrders()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("billed %v, want all of %v", billing.billedOrders(), want)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := billing.billedOrders(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("billed %v, want %v", got, want)
	}
}
