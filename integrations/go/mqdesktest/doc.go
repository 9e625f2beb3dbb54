// Package mqdesktest runs a real RocketMQ broker for Go tests: MQDesk's mqdesk-broker, a
// NameServer, a broker and a RocketMQ 5 gRPC endpoint in one process that starts in
// milliseconds. Each test gets a fresh broker over a store in t.TempDir(), on ports the broker
// picks itself, so tests can run side by side with t.Parallel():
//
//	func TestOrders(t *testing.T) {
//		b := mqdesktest.Start(t, mqdesktest.WithTopic("orders:4"), mqdesktest.WithGroup("billing"))
//		p, _ := rocketmq.NewProducer(
//			producer.WithNsResolver(primitive.NewPassthroughResolver([]string{b.NamesrvAddr})))
//		// ... the broker is stopped (SIGTERM, clean shutdown checked) when the test ends.
//	}
//
// Clients of RocketMQ 4.x and rocketmq-client-go connect to NamesrvAddr; the 5.x SDKs take
// GrpcEndpoint as their endpoints. The package itself imports no RocketMQ client.
//
// To share one broker between the tests of a package, start it in TestMain with StartBroker
// and stop it there (see the StartBroker example).
//
// The mqdesk-broker program is found through WithBinary, else the MQDESK_BROKER environment
// variable, else PATH, else /usr/bin/mqdesk-broker (where MQDesk's Debian package installs it).
package mqdesktest
