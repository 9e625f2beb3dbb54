package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/apache/rocketmq-client-go/v2/admin"
	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"
)

// scenarioAcl: RocketMQ's plain ACL with the Go client's own signing (primitive.Credentials) against
// mqdesk-broker with aclEnable=true. The admin account creates the topic; the user account's producer
// sends and its push consumer receives every message once. Refused with NO_PERMISSION (the Go client
// reports "CODE: 16"): a send to a topic the account may only subscribe to, a send signed with a wrong
// secret key and an unsigned send. Nothing refused is stored.
func scenarioAcl(e *Env) {
	aclScenario(e, func(aclFile string) []string { return []string{"aclEnable=true", "plainAclFile=" + aclFile} })
}

// scenarioAcl2: the same clients and checks against ACL 2.0 (authenticationEnabled and
// authorizationEnabled), its users and policies imported from the same plain_acl.yml at start
// (migrateAuthFromV1Enabled, as Java's AuthMigrator: the admin account a Super user, the
// permissions Custom and Default policies).
func scenarioAcl2(e *Env) {
	aclScenario(e, func(aclFile string) []string {
		return []string{"authenticationEnabled=true", "authorizationEnabled=true", "migrateAuthFromV1Enabled=true",
			"plainAclFile=" + aclFile}
	})
}

func aclScenario(e *Env, brokerConf func(aclFile string) []string) {
	topic := e.Unique("gacl")
	readOnly := e.Unique("gaclro")
	aclFile := filepath.Join(e.root, "plain_acl.yml")
	acl := strings.Join([]string{
		"accounts:",
		"  - accessKey: goInteropUser",
		"    secretKey: goInteropSecret",
		"    admin: false",
		"    defaultTopicPerm: DENY",
		"    defaultGroupPerm: SUB",
		"    topicPerms:",
		"      - " + topic + "=PUB|SUB",
		"      - " + readOnly + "=SUB",
		"  - accessKey: goInteropAdmin",
		"    secretKey: goInteropAdminSecret",
		"    admin: true",
	}, "\n") + "\n"
	e.Must(os.WriteFile(aclFile, []byte(acl), 0o644), "writing "+aclFile)
	b := e.StartBroker(brokerConf(aclFile)...)

	adminCredentials := primitive.Credentials{AccessKey: "goInteropAdmin", SecretKey: "goInteropAdminSecret"}
	a, err := admin.NewAdmin(admin.WithResolver(primitive.NewPassthroughResolver([]string{b.NamesrvAddr})),
		admin.WithCredentials(adminCredentials))
	e.Must(err, "creating the admin client")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	// The Go admin signs broker requests only once RegisterACL ran, which CreateTopic does not
	// call (and it ignores the answer's code): a request that does comes first. Topics must
	// exist before use, as with a Java broker: a route lookup does not create them.
	_, err = a.GetAllSubscriptionGroup(ctx, b.BrokerAddr, 5*time.Second)
	e.Must(err, "a signed admin request")
	for _, t := range []string{topic, readOnly} {
		e.Must(a.CreateTopic(ctx, admin.WithTopicCreate(t), admin.WithBrokerAddrCreate(b.BrokerAddr),
			admin.WithReadQueueNums(4), admin.WithWriteQueueNums(4)), "creating topic "+t)
	}
	cancel()
	a.Close()

	user := primitive.Credentials{AccessKey: "goInteropUser", SecretKey: "goInteropSecret"}
	in := newInbox()
	e.NewPushConsumer(b, e.Unique("gaclcg"), topic, "*", in.handler, consumer.WithCredentials(user))
	p := e.NewProducer(b, producer.WithCredentials(user), producer.WithRetry(0))
	const n = 20
	for i := 0; i < n; i++ {
		m := primitive.NewMessage(topic, []byte(fmt.Sprintf("acl body %d", i)))
		m.WithKeys([]string{fmt.Sprintf("acl-%d", i)})
		r, err := p.SendSync(context.Background(), m)
		e.Must(err, "a signed SendSync")
		e.Check(r.Status == primitive.SendOK, "signed SendSync status %v", r.Status)
	}
	logf("ok: %d signed sends acknowledged", n)

	expectRefused := func(what string, send func() error) {
		err := send()
		e.Check(err != nil, "%s was accepted", what)
		e.Check(strings.Contains(err.Error(), "CODE: 16"), "%s: not refused with NO_PERMISSION: %v", what, err)
		logf("ok: refused as expected: %s (%v)", what, err)
	}
	// A wrong or missing signature is refused already by the NameServer's route lookup (it checks
	// the same accounts; the client then reports no route), and by the broker (AclTest).
	expectRefusedOrNoRoute := func(what string, send func() error) {
		err := send()
		e.Check(err != nil, "%s was accepted", what)
		e.Check(strings.Contains(err.Error(), "CODE: 16") || strings.Contains(err.Error(), "route info not found"),
			"%s: neither refused with NO_PERMISSION nor without a route: %v", what, err)
		logf("ok: refused as expected: %s (%v)", what, err)
	}
	expectRefused("a send to a topic the account may only subscribe to", func() error {
		_, err := p.SendSync(context.Background(), primitive.NewMessage(readOnly, []byte("x")))
		return err
	})
	wrong := e.NewProducer(b, producer.WithCredentials(primitive.Credentials{AccessKey: "goInteropUser",
		SecretKey: "notTheSecret"}), producer.WithRetry(0))
	expectRefusedOrNoRoute("a send signed with a wrong secret key", func() error {
		m := primitive.NewMessage(topic, []byte("wrong"))
		m.WithKeys([]string{"refused-wrong"})
		_, err := wrong.SendSync(context.Background(), m)
		return err
	})
	unsigned := e.NewProducer(b, producer.WithRetry(0))
	expectRefusedOrNoRoute("an unsigned send", func() error {
		m := primitive.NewMessage(topic, []byte("unsigned"))
		m.WithKeys([]string{"refused-unsigned"})
		_, err := unsigned.SendSync(context.Background(), m)
		return err
	})

	e.Eventually(60*time.Second, "the signed consumer receiving every message", func() bool { return in.distinct() >= n },
		in.String)
	time.Sleep(2 * time.Second) // nothing refused may arrive later
	got := in.snapshot()
	e.Check(len(got) == n, "received %d distinct messages, want %d: %s", len(got), n, in.String())
	for k, count := range got {
		e.Check(strings.HasPrefix(k, "acl-") && count == 1, "received %s ×%d", k, count)
	}
}
