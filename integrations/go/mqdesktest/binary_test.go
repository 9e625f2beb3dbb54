package mqdesktest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// startErr is StartBroker's error: the helper that returns it rather than failing the test, as
// Start does with the same message.
func startErr(t *testing.T, opts ...Option) error {
	t.Helper()
	b, err := StartBroker(t.TempDir(), opts...)
	if err == nil {
		_ = b.Stop()
		t.Fatal("StartBroker found a broker to run")
	}
	if !errors.Is(err, ErrBinaryNotFound) {
		t.Fatalf("the error does not wrap ErrBinaryNotFound: %v", err)
	}
	t.Logf("as expected: %v", err)
	return err
}

// requireAll fails the test unless msg contains every part.
func requireAll(t *testing.T, msg string, parts ...string) {
	t.Helper()
	for _, part := range parts {
		if !strings.Contains(msg, part) {
			t.Errorf("the error lacks %q: %s", part, msg)
		}
	}
}

// TestMissingBinary: without an mqdesk-broker to run, the error says which one was looked for
// and how to get one. (Not parallel: it changes the environment.)
func TestMissingBinary(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such-mqdesk-broker")
	notExecutable := filepath.Join(dir, "mqdesk-broker.txt")
	if err := os.WriteFile(notExecutable, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	install := []string{"apt-get install", "MQDESK_BROKER=/path/to/"}

	t.Run("WithBinary", func(t *testing.T) {
		requireAll(t, startErr(t, WithBinary(missing)).Error(), append(install, "WithBinary", missing, "no such file")...)
		requireAll(t, startErr(t, WithBinary(notExecutable)).Error(), "not an executable file")
		requireAll(t, startErr(t, WithBinary(dir)).Error(), "not an executable file")
	})
	t.Run("MQDESK_BROKER", func(t *testing.T) {
		t.Setenv(EnvBinary, missing)
		requireAll(t, startErr(t).Error(), append(install, "MQDESK_BROKER is "+missing)...)
	})
	t.Run("nowhere", func(t *testing.T) {
		t.Setenv(EnvBinary, "")
		t.Setenv("PATH", dir) // holds only the file that is not executable
		saved := debianBinary
		debianBinary = missing
		t.Cleanup(func() { debianBinary = saved })
		requireAll(t, startErr(t).Error(), append(install, "no mqdesk-broker on PATH", missing)...)
	})
}

// TestBrokerConfRefusesWhatItCannotWrite: broker.conf values are literal, one line each.
func TestBrokerConfRefusesWhatItCannotWrite(t *testing.T) {
	for _, opt := range []Option{WithConfig("key", "two\nlines"), WithConfig("key", `C:\`),
		WithConfig("a=b", "c"), WithConfig("", "c")} {
		if conf, err := newSettings([]Option{opt}).brokerConf(); err == nil {
			t.Errorf("written:\n%s", conf)
		}
	}
	conf, err := newSettings([]Option{WithConfig("k", "1"), WithACLUser(`ad"min`, "pw"), WithConfig("k", "2")}).brokerConf()
	if err != nil {
		t.Fatal(err)
	}
	want := "# written by mqdesktest\nk=2\nauthenticationEnabled=true\nauthorizationEnabled=true\n" +
		`initAuthenticationUser={"username":"ad\"min","password":"pw"}` + "\n"
	if conf != want {
		t.Errorf("broker.conf:\n%s\nwant:\n%s", conf, want)
	}
}
