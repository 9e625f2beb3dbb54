package mqdesktest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeBroker writes a shell script standing in for mqdesk-broker (its second argument is the
// store directory), for the failures a real broker does not produce on demand.
func fakeBroker(t *testing.T, body string) Option {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fake-mqdesk-broker")
	if err := os.WriteFile(path, []byte("#!/bin/sh\nstore=$2\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return WithBinary(path)
}

// fakeReady prints the ready line (a stop signal's trap must be set before it, as the real
// broker's handling is); fakeRun then runs until a signal.
const (
	fakeReady = `mkdir -p "$store"
echo "mqdesk-broker ready: namesrv=127.0.0.1:1 broker=127.0.0.1:2 store=$store grpc=127.0.0.1:3"`
	fakeRun = "\nwhile :; do sleep 0.1; done"
)

func wantError(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one saying %q", parts)
	}
	for _, part := range parts {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("the error lacks %q: %v", part, err)
		}
	}
}

func TestFakeBrokers(t *testing.T) {
	t.Run("ready line", func(t *testing.T) {
		b, err := StartBroker(t.TempDir(), fakeBroker(t, "trap 'exit 0' TERM\n"+fakeReady+fakeRun))
		if err != nil {
			t.Fatal(err)
		}
		if b.NamesrvAddr != "127.0.0.1:1" || b.BrokerAddr != "127.0.0.1:2" || b.GrpcEndpoint != "127.0.0.1:3" {
			t.Errorf("addresses %q %q %q", b.NamesrvAddr, b.BrokerAddr, b.GrpcEndpoint)
		}
		if err := b.Stop(); err != nil {
			t.Errorf("Stop: %v", err)
		}
	})
	t.Run("older broker", func(t *testing.T) {
		_, err := StartBroker(t.TempDir(), WithTopic("orders"), fakeBroker(t,
			`echo "The following arguments were not expected: orders --topic" >&2; exit 109`))
		wantError(t, err, "exited", "need an mqdesk-broker whose --help lists --topic")
	})
	t.Run("never ready", func(t *testing.T) {
		_, err := StartBroker(t.TempDir(), WithStartTimeout(300*time.Millisecond),
			fakeBroker(t, `echo "still starting" >&2; exec sleep 30`))
		wantError(t, err, "not ready within 300ms") // whatever the script managed to log by then
	})
	t.Run("unclean exit", func(t *testing.T) {
		b, err := StartBroker(t.TempDir(), fakeBroker(t, "trap 'exit 3' TERM\n"+fakeReady+fakeRun))
		if err != nil {
			t.Fatal(err)
		}
		wantError(t, b.Stop(), "exit status 3")
	})
	t.Run("abort file left", func(t *testing.T) {
		b, err := StartBroker(t.TempDir(), fakeBroker(t,
			"trap 'touch \"$store/abort\"; exit 0' TERM\n"+fakeReady+fakeRun))
		if err != nil {
			t.Fatal(err)
		}
		wantError(t, b.Stop(), "abort file")
	})
	t.Run("crashed", func(t *testing.T) {
		b, err := StartBroker(t.TempDir(), fakeBroker(t, fakeReady+"\nsleep 0.2; echo 'it crashed' >&2; exit 134"))
		if err != nil {
			t.Fatal(err)
		}
		<-b.exited
		wantError(t, b.Stop(), "had exited", "it crashed")
	})
}
