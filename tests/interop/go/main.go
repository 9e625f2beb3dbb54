// Command mqdesk-interop-go runs one scenario of the Apache RocketMQ Go client
// (github.com/apache/rocketmq-client-go/v2) against mqdesk-broker:
//
//	mqdesk-interop-go <Scenario> <path/to/mqdesk-broker>
//
// The scenario gets a fresh temp folder and starts its own broker there. On success the clients are
// shut down, the broker is stopped with SIGTERM (it must exit cleanly), the folder is removed and the
// exit status is 0. On failure (a check, an error, or the deadline) it prints what differed and the
// broker's log tail, kills the broker (SIGKILL), keeps the folder and exits 1.
//
// Environment: MQDESK_INTEROP_TIMEOUT_S (default 100), MQDESK_INTEROP_KEEP=1 keeps the folder,
// MQDESK_INTEROP_CLIENT_LOG sets the Go client's log level (default warn).
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/rocketmq-client-go/v2/rlog"
)

var scenarios = map[string]func(*Env){
	"Producer":       scenarioProducer,
	"PushConsumer":   scenarioPushConsumer,
	"Orderly":        scenarioOrderly,
	"Transactions":   scenarioTransactions,
	"Delay":          scenarioDelay,
	"DelayTimestamp": scenarioDelayTimestamp,
	"Acl":            scenarioAcl,
	"Acl2":           scenarioAcl2,
}

var started = time.Now()

func logf(format string, args ...interface{}) {
	fmt.Printf("[%6.2fs] %s\n", time.Since(started).Seconds(), fmt.Sprintf(format, args...))
}

// Env is what a scenario gets: its temp folder, the broker binary, unique names, and the clients to
// shut down when it ends.
type Env struct {
	name         string
	brokerBinary string
	root         string
	runID        string

	mu       sync.Mutex
	seq      int
	brokers  []*Broker
	shutdown []namedShutdown
	failed   bool
}

type namedShutdown struct {
	what string
	fn   func() error
}

// failure is what Fatalf panics with; main recovers it.
type failure struct{ msg string }

// Fatalf ends the scenario as failed.
func (e *Env) Fatalf(format string, args ...interface{}) {
	panic(failure{fmt.Sprintf(format, args...)})
}

// Must fails the scenario on a non-nil error.
func (e *Env) Must(err error, what string) {
	if err != nil {
		e.Fatalf("%s: %v", what, err)
	}
}

// Unique is a topic or group name no other run uses: prefix + run id + sequence.
func (e *Env) Unique(prefix string) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.seq++
	return fmt.Sprintf("%s_%s_%d", prefix, e.runID, e.seq)
}

// StartBroker starts an mqdesk-broker with its own NameServer; confLines are extra broker.conf lines.
func (e *Env) StartBroker(confLines ...string) *Broker {
	e.mu.Lock()
	n := len(e.brokers) + 1
	e.mu.Unlock()
	b, err := StartBroker(e.brokerBinary, filepath.Join(e.root, "mqdesk-"+strconv.Itoa(n)), confLines...)
	e.Must(err, "starting mqdesk-broker")
	e.mu.Lock()
	e.brokers = append(e.brokers, b)
	e.mu.Unlock()
	return b
}

// ShutdownLater registers a client's Shutdown, run (newest first) when the scenario ends.
func (e *Env) ShutdownLater(what string, fn func() error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.shutdown = append(e.shutdown, namedShutdown{what, fn})
}

// closeClients shuts the clients down, newest first, each within 10 s.
func (e *Env) closeClients() error {
	e.mu.Lock()
	list := e.shutdown
	e.shutdown = nil
	e.mu.Unlock()
	var errs []string
	for i := len(list) - 1; i >= 0; i-- {
		done := make(chan error, 1)
		go func(fn func() error) { done <- fn() }(list[i].fn)
		select {
		case err := <-done:
			if err != nil {
				errs = append(errs, fmt.Sprintf("shutting down %s: %v", list[i].what, err))
			}
		case <-time.After(10 * time.Second):
			errs = append(errs, fmt.Sprintf("shutting down %s took over 10 s", list[i].what))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

// fail prints the failure and the brokers' log tails, kills the brokers and exits 1. Only the first
// caller (the scenario or the watchdog) gets through.
func (e *Env) fail(msg string) {
	e.mu.Lock()
	if e.failed {
		e.mu.Unlock()
		select {} // the other caller exits the process
	}
	e.failed = true
	brokers := append([]*Broker(nil), e.brokers...)
	e.mu.Unlock()
	fmt.Fprintf(os.Stderr, "\nscenario %s FAILED: %s\n", e.name, msg)
	for i, b := range brokers {
		fmt.Fprintf(os.Stderr, "\n-- mqdesk-broker #%d stderr (last lines):\n%s\n", i+1, b.StderrTail())
	}
	fmt.Fprintf(os.Stderr, "\n-- kept for inspection: %s\n", e.root)
	for _, b := range brokers {
		b.Kill()
	}
	os.Exit(1)
}

func main() {
	if len(os.Args) != 3 || scenarios[os.Args[1]] == nil {
		names := make([]string, 0, len(scenarios))
		for n := range scenarios {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Fprintf(os.Stderr, "usage: %s <%s> <path/to/mqdesk-broker>\n", filepath.Base(os.Args[0]), strings.Join(names, "|"))
		os.Exit(2)
	}
	level := os.Getenv("MQDESK_INTEROP_CLIENT_LOG")
	if level == "" {
		level = "warn"
	}
	rlog.SetLogLevel(level)

	binary, err := filepath.Abs(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	root, err := os.MkdirTemp("", "mqdesk-interop-go-"+os.Args[1]+"-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	env := &Env{
		name:         os.Args[1],
		brokerBinary: binary,
		root:         root,
		runID:        strconv.FormatInt(time.Now().UnixNano()%1_000_000_000_000, 36),
	}
	timeout := 100 * time.Second
	if s := os.Getenv("MQDESK_INTEROP_TIMEOUT_S"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			fmt.Fprintf(os.Stderr, "MQDESK_INTEROP_TIMEOUT_S=%q is not a positive number\n", s)
			os.Exit(2)
		}
		timeout = time.Duration(n) * time.Second
	}
	time.AfterFunc(timeout, func() {
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		fmt.Fprintf(os.Stderr, "goroutines at the deadline:\n%s\n", buf[:n])
		env.fail(fmt.Sprintf("scenario did not finish within %v", timeout))
	})

	logf("scenario %s in %s", env.name, root)
	func() {
		defer func() {
			if r := recover(); r != nil {
				if f, ok := r.(failure); ok {
					env.fail(f.msg)
				}
				env.fail(fmt.Sprintf("panic: %v", r))
			}
		}()
		scenarios[env.name](env)
		if err := env.closeClients(); err != nil {
			env.Fatalf("%v", err)
		}
		for _, b := range env.brokers {
			env.Must(b.Stop(), "stopping mqdesk-broker")
		}
	}()
	if os.Getenv("MQDESK_INTEROP_KEEP") != "1" {
		_ = os.RemoveAll(root)
	}
	logf("scenario %s passed", env.name)
	os.Exit(0)
}
