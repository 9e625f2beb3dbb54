package mqdesktest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// readyLine is what mqdesk-broker prints on stdout once its listeners accept connections (and
// the topics and groups of --topic/--group exist).
var readyLine = regexp.MustCompile(`^mqdesk-broker ready: namesrv=(\S+) broker=(\S+) store=(.+?)(?: grpc=(\S+))?$`)

// Broker is one running mqdesk-broker process, listening on 127.0.0.1.
type Broker struct {
	// NamesrvAddr is the NameServer's "127.0.0.1:PORT", what RocketMQ 4.x clients and
	// rocketmq-client-go are given (Java: setNamesrvAddr; Go: primitive.NewPassthroughResolver).
	NamesrvAddr string
	// BrokerAddr is the broker's own "127.0.0.1:PORT" (admin calls that name a broker).
	BrokerAddr string
	// GrpcEndpoint is the RocketMQ 5 gRPC endpoint's "127.0.0.1:PORT", the 5.x SDKs' endpoints
	// (TLS and plaintext on one port).
	GrpcEndpoint string
	// StoreDir is the broker's store directory (storePathRootDir).
	StoreDir string
	// Dir holds broker.conf, the store and broker.log, the broker's log (stderr and stdout).
	Dir string

	cmd         *exec.Cmd
	exited      chan struct{} // closed once the process has been reaped
	exitErr     error         // the process's exit status, once exited is closed
	stopTimeout time.Duration
	removeDir   bool // StartBroker made Dir itself: Stop removes it

	stopOnce sync.Once
	stopErr  error
}

// Start starts a fresh mqdesk-broker for the test: its store in t.TempDir(), its ports picked by
// the broker itself, the options' topics and groups created. It returns once the broker is ready
// and fails the test (t.Fatal) when it cannot start, showing the broker's log. When the test
// ends the broker is stopped with SIGTERM; an unclean stop fails the test.
func Start(t testing.TB, opts ...Option) *Broker {
	t.Helper()
	b, err := StartBroker(t.TempDir(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("mqdesk-broker ready: namesrv=%s broker=%s grpc=%s (log %s)", b.NamesrvAddr, b.BrokerAddr,
		b.GrpcEndpoint, b.LogFile())
	// Cleanups run last-in first-out: this one before the removal of t.TempDir().
	t.Cleanup(func() {
		if err := b.Stop(); err != nil {
			t.Error(err)
		}
	})
	return b
}

// StartBroker starts mqdesk-broker without a testing.TB, for a broker shared by the tests of a
// package (started in TestMain) or used outside tests. It writes broker.conf, the store and
// broker.log in dir, or when dir is "" in a new temporary directory that Stop removes. The
// caller must call Stop.
func StartBroker(dir string, opts ...Option) (b *Broker, err error) {
	s := newSettings(opts)
	binary, err := findBinary(s.binary)
	if err != nil {
		return nil, err
	}
	conf, err := s.brokerConf()
	if err != nil {
		return nil, err
	}
	removeDir := false
	if dir == "" {
		if dir, err = os.MkdirTemp("", "mqdesktest-"); err != nil {
			return nil, fmt.Errorf("mqdesktest: %w", err)
		}
		removeDir = true
		defer func() {
			if err != nil {
				os.RemoveAll(dir)
			}
		}()
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, fmt.Errorf("mqdesktest: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("mqdesktest: %w", err)
	}
	confFile := filepath.Join(dir, "broker.conf")
	if err := os.WriteFile(confFile, []byte(conf), 0o644); err != nil {
		return nil, fmt.Errorf("mqdesktest: %w", err)
	}
	b = &Broker{
		StoreDir:    filepath.Join(dir, "store"),
		Dir:         dir,
		exited:      make(chan struct{}),
		stopTimeout: s.stopTimeout,
		removeDir:   removeDir,
	}
	logFile, err := os.OpenFile(b.LogFile(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("mqdesktest: %w", err)
	}

	args := []string{"--store", b.StoreDir, "--namesrv-port", "0", "--broker-port", "0", "--grpc-port", "0",
		"-c", confFile}
	for _, topic := range s.topics {
		args = append(args, "--topic", topic)
	}
	for _, group := range s.groups {
		args = append(args, "--group", group)
	}
	b.cmd = exec.Command(binary, args...)
	b.cmd.Stderr = logFile // the broker's log, written by the process directly
	b.cmd.SysProcAttr = sysProcAttr()
	stdout, err := b.cmd.StdoutPipe()
	if err != nil {
		logFile.Close()
		return nil, fmt.Errorf("mqdesktest: %w", err)
	}
	if err := b.cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("mqdesktest: starting %s: %w", binary, err)
	}

	// Read stdout for the ready line and copy all of it to the log (the pipe must be drained for
	// as long as the broker runs); reap the process once stdout is closed.
	ready := make(chan []string, 1)
	go func() {
		scanner := bufio.NewScanner(stdout)
		for scanner.Scan() {
			line := scanner.Text()
			fmt.Fprintln(logFile, line)
			if m := readyLine.FindStringSubmatch(line); m != nil {
				select {
				case ready <- m:
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, stdout) // a line too long for the scanner: keep draining
		b.exitErr = b.cmd.Wait()
		logFile.Close()
		close(b.exited)
	}()

	timer := time.NewTimer(s.startTimeout)
	defer timer.Stop()
	select {
	case m := <-ready:
		b.NamesrvAddr, b.BrokerAddr, b.GrpcEndpoint = m[1], m[2], m[4]
		return b, nil
	case <-b.exited:
		hint := ""
		if tail := b.LogTail(5); len(s.topics)+len(s.groups) > 0 && strings.Contains(tail, "not expected") &&
			(strings.Contains(tail, "--topic") || strings.Contains(tail, "--group")) {
			// An mqdesk-broker from before --topic and --group.
			hint = " (WithTopic and WithGroup need an mqdesk-broker whose --help lists --topic and --group)"
		}
		return nil, fmt.Errorf("mqdesktest: %s %s exited (%v) before it was ready%s; its log (%s) ends:\n%s",
			binary, strings.Join(args, " "), b.exitErr, hint, b.LogFile(), b.LogTail(40))
	case <-timer.C:
		b.kill()
		return nil, fmt.Errorf("mqdesktest: %s was not ready within %v; its log (%s) ends:\n%s",
			binary, s.startTimeout, b.LogFile(), b.LogTail(40))
	}
}

// LogFile is the path of the broker's log: what it wrote to stderr and stdout.
func (b *Broker) LogFile() string { return filepath.Join(b.Dir, "broker.log") }

// LogTail returns the last n lines of the broker's log.
func (b *Broker) LogTail(n int) string {
	data, err := os.ReadFile(b.LogFile())
	if err != nil {
		return fmt.Sprintf("(cannot read the broker's log: %v)", err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Stop stops the broker with SIGTERM and waits for it to exit, killing it after 20 s. It
// returns an error unless the stop was clean: exit status 0 and no "abort" file left in the
// store (the marker RocketMQ's store recovers from after a crash). Stop may be called more than
// once; later calls return the first call's result.
func (b *Broker) Stop() error {
	b.stopOnce.Do(func() {
		b.stopErr = b.stop()
		if b.removeDir {
			if err := os.RemoveAll(b.Dir); err != nil && b.stopErr == nil {
				b.stopErr = fmt.Errorf("mqdesktest: %w", err)
			}
		}
	})
	return b.stopErr
}

func (b *Broker) stop() error {
	select {
	case <-b.exited:
		return fmt.Errorf("mqdesktest: mqdesk-broker had exited (%v) before it was stopped; its log ends:\n%s",
			b.exitErr, b.LogTail(40))
	default:
	}
	if err := b.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return fmt.Errorf("mqdesktest: SIGTERM to mqdesk-broker: %w", err)
	}
	timer := time.NewTimer(b.stopTimeout)
	defer timer.Stop()
	select {
	case <-b.exited:
	case <-timer.C:
		b.kill()
		return fmt.Errorf("mqdesktest: mqdesk-broker did not stop within %v of SIGTERM and was killed; its log ends:\n%s",
			b.stopTimeout, b.LogTail(40))
	}
	if b.exitErr != nil {
		return fmt.Errorf("mqdesktest: mqdesk-broker stopped with %v after SIGTERM; its log ends:\n%s",
			b.exitErr, b.LogTail(40))
	}
	if _, err := os.Stat(filepath.Join(b.StoreDir, "abort")); err == nil {
		return errors.New("mqdesktest: mqdesk-broker left the store's abort file after SIGTERM: not a clean stop")
	}
	return nil
}

// kill sends SIGKILL and waits (briefly) for the process to be reaped.
func (b *Broker) kill() {
	_ = b.cmd.Process.Kill()
	select {
	case <-b.exited:
	case <-time.After(5 * time.Second):
	}
}
