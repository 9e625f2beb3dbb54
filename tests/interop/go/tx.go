package main

import (
	"time"

	rocketmq "github.com/apache/rocketmq-client-go/v2"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"
)

// newTransactionProducer starts a transaction producer of a new group with the listener.
func newTransactionProducer(e *Env, b *Broker, listener primitive.TransactionListener) (rocketmq.TransactionProducer, error) {
	tp, err := rocketmq.NewTransactionProducer(listener,
		producer.WithNsResolver(primitive.NewPassthroughResolver([]string{b.NamesrvAddr})),
		producer.WithGroupName(e.Unique("gtxp")),
		producer.WithInstanceName(e.Unique("txp")),
		producer.WithSendMsgTimeout(10*time.Second),
		producer.WithRetry(2))
	if err != nil {
		return nil, err
	}
	if err := tp.Start(); err != nil {
		return nil, err
	}
	e.ShutdownLater("transaction producer", tp.Shutdown)
	return tp, nil
}
