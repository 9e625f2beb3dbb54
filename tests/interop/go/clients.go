package main

import (
	"context"
	"fmt"
	"time"

	rocketmq "github.com/apache/rocketmq-client-go/v2"
	"github.com/apache/rocketmq-client-go/v2/admin"
	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"
)

// CreateTopic creates the topic on the broker (UPDATE_AND_CREATE_TOPIC through the Go client's admin).
func (e *Env) CreateTopic(b *Broker, topic string, queues int) {
	a, err := admin.NewAdmin(admin.WithResolver(primitive.NewPassthroughResolver([]string{b.NamesrvAddr})))
	e.Must(err, "creating the admin client")
	defer a.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	e.Must(a.CreateTopic(ctx, admin.WithTopicCreate(topic), admin.WithBrokerAddrCreate(b.BrokerAddr),
		admin.WithReadQueueNums(queues), admin.WithWriteQueueNums(queues)), "creating topic "+topic)
	logf("created topic %s with %d queues", topic, queues)
}

// NewProducer starts a producer of a new group on the broker's NameServer.
func (e *Env) NewProducer(b *Broker, opts ...producer.Option) rocketmq.Producer {
	all := append([]producer.Option{
		producer.WithNsResolver(primitive.NewPassthroughResolver([]string{b.NamesrvAddr})),
		producer.WithGroupName(e.Unique("pg")),
		producer.WithInstanceName(e.Unique("p")),
		producer.WithSendMsgTimeout(10 * time.Second),
		producer.WithRetry(2),
	}, opts...)
	p, err := rocketmq.NewProducer(all...)
	e.Must(err, "creating a producer")
	e.Must(p.Start(), "starting a producer")
	e.ShutdownLater("producer", p.Shutdown)
	return p
}

// NewPushConsumer starts a clustering push consumer of the topic in the group, consuming from the
// first offset; tags is a tag expression ("*", "TagA || TagB").
func (e *Env) NewPushConsumer(b *Broker, group, topic, tags string,
	handler func(context.Context, ...*primitive.MessageExt) (consumer.ConsumeResult, error),
	opts ...consumer.Option) rocketmq.PushConsumer {
	all := append([]consumer.Option{
		consumer.WithNsResolver(primitive.NewPassthroughResolver([]string{b.NamesrvAddr})),
		consumer.WithGroupName(group),
		// The consumer's default instance name is the process id, so that two consumers of one group
		// in this process would be one client (and the second refused): each gets its own.
		consumer.WithInstance(e.Unique("c")),
		consumer.WithConsumerModel(consumer.Clustering),
		consumer.WithConsumeFromWhere(consumer.ConsumeFromFirstOffset),
	}, opts...)
	c, err := rocketmq.NewPushConsumer(all...)
	e.Must(err, "creating a push consumer")
	e.Must(c.Subscribe(topic, consumer.MessageSelector{Type: consumer.TAG, Expression: tags}, handler),
		"subscribing to "+topic)
	e.Must(c.Start(), "starting a push consumer of "+group)
	e.ShutdownLater("push consumer of "+group, c.Shutdown)
	return c
}

// Eventually polls cond every 100 ms until it holds or the timeout passes; then the scenario fails
// with what and the state that show() describes.
func (e *Env) Eventually(timeout time.Duration, what string, cond func() bool, show func() string) {
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			e.Fatalf("not within %v: %s; now: %s", timeout, what, show())
		}
		time.Sleep(100 * time.Millisecond)
	}
	logf("ok: %s", what)
}

// Check fails the scenario unless ok.
func (e *Env) Check(ok bool, format string, args ...interface{}) {
	if !ok {
		e.Fatalf("check failed: %s", fmt.Sprintf(format, args...))
	}
}
