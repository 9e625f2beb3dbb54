package mqdesktest

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Option configures a broker started by Start or StartBroker.
type Option func(*settings)

// settings is what the options collect.
type settings struct {
	binary       string
	conf         []confEntry // broker.conf, in the order first set
	topics       []string    // --topic NAME[:QUEUES[:TYPE]]
	groups       []string    // --group NAME[:orderly]
	startTimeout time.Duration
	stopTimeout  time.Duration
}

type confEntry struct{ key, value string }

func newSettings(opts []Option) *settings {
	s := &settings{startTimeout: 30 * time.Second, stopTimeout: 20 * time.Second}
	for _, opt := range opts {
		opt(s)
	}
	return s
}

// WithConfig sets a broker.conf key, one of RocketMQ's broker settings (e.g.
// "autoCreateTopicEnable", "false" or "maxMessageSize", "1048576"). Setting a key again replaces
// its value. The broker refuses to start on a key it does not know the value of, or a RocketMQ
// key it does not serve, and Start reports why.
func WithConfig(key, value string) Option {
	return func(s *settings) {
		for i := range s.conf {
			if s.conf[i].key == key {
				s.conf[i].value = value
				return
			}
		}
		s.conf = append(s.conf, confEntry{key, value})
	}
}

// WithTopic creates a topic before the broker reports ready. spec is NAME[:QUEUES[:TYPE]]: e.g.
// "orders" (8 queues), "orders:4", or "orders:4:FIFO" (TYPE is a RocketMQ 5 message type:
// NORMAL, FIFO, DELAY, TRANSACTION, ...). Topics made this way exist even with
// autoCreateTopicEnable=false or ACL on.
func WithTopic(spec string) Option {
	return func(s *settings) { s.topics = append(s.topics, spec) }
}

// WithTopics is WithTopic for each spec.
func WithTopics(specs ...string) Option {
	return func(s *settings) { s.topics = append(s.topics, specs...) }
}

// WithGroup creates subscription groups (consumer groups) before the broker reports ready: each
// spec is NAME, or NAME:orderly for a FIFO group of the 5.x SDKs.
func WithGroup(specs ...string) Option {
	return func(s *settings) { s.groups = append(s.groups, specs...) }
}

// WithSyncFlush makes the broker fsync every message before acknowledging it
// (flushDiskType=SYNC_FLUSH), as a production broker configured for durability does.
func WithSyncFlush() Option {
	return WithConfig("flushDiskType", "SYNC_FLUSH")
}

// WithACLUser turns on RocketMQ's ACL 2.0 (authenticationEnabled and authorizationEnabled) with
// one super user, who may do everything. Clients sign with the user name as the access key and
// the password as the secret key (rocketmq-client-go: primitive.Credentials); unsigned requests
// are refused.
func WithACLUser(user, password string) Option {
	return func(s *settings) {
		userJSON, _ := json.Marshal(struct {
			Username string `json:"username"`
			Password string `json:"password"`
		}{user, password}) // cannot fail for two strings
		WithConfig("authenticationEnabled", "true")(s)
		WithConfig("authorizationEnabled", "true")(s)
		WithConfig("initAuthenticationUser", string(userJSON))(s)
	}
}

// WithBinary runs this mqdesk-broker executable instead of looking one up.
func WithBinary(path string) Option {
	return func(s *settings) { s.binary = path }
}

// WithStartTimeout is how long to wait for the broker's ready line (default 30 s).
func WithStartTimeout(d time.Duration) Option {
	return func(s *settings) { s.startTimeout = d }
}

// brokerConf renders the broker.conf entries as a Java properties file. MQDesk reads values
// literally (no escapes), so a line break, or a trailing backslash (a Java line continuation),
// cannot be written and is an error.
func (s *settings) brokerConf() (string, error) {
	var b strings.Builder
	b.WriteString("# written by mqdesktest\n")
	for _, e := range s.conf {
		if e.key == "" || strings.ContainsAny(e.key, "=: \t\r\n#!\\") {
			return "", fmt.Errorf("mqdesktest: WithConfig: %q is not a broker.conf key", e.key)
		}
		if strings.ContainsAny(e.value, "\r\n") || strings.HasSuffix(e.value, "\\") {
			return "", fmt.Errorf("mqdesktest: WithConfig(%q): the value %q cannot be written to broker.conf "+
				"(line break or trailing backslash)", e.key, e.value)
		}
		fmt.Fprintf(&b, "%s=%s\n", e.key, e.value)
	}
	return b.String(), nil
}
