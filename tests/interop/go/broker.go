package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"
)

// readyLine is what mqdesk-broker prints on stdout once both listeners accept connections.
var readyLine = regexp.MustCompile(`^mqdesk-broker ready: namesrv=(\S+) broker=(\S+) store=(.+?)(?: grpc=(\S+))?$`)

const (
	// brokerName is the broker's name in broker.conf, as queues and routes name it.
	brokerName         = "mqdesk-interop-go"
	brokerReadyTimeout = 30 * time.Second
	brokerStopTimeout  = 20 * time.Second
)

// Broker is one mqdesk-broker process (NameServer + broker) on 127.0.0.1 with ports it picks itself
// (--namesrv-port 0 --broker-port 0), over a store folder inside the scenario's temp dir. Its stdout
// and stderr go to broker.stdout.log and broker.stderr.log beside the store.
type Broker struct {
	root        string
	cmd         *exec.Cmd
	exited      chan struct{} // closed once the process has been reaped
	exitErr     error
	NamesrvAddr string
	BrokerAddr  string
}

// StartBroker writes broker.conf (the cluster and broker names plus confLines) and starts the binary,
// waiting for its ready line.
func StartBroker(binary, root string, confLines ...string) (*Broker, error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	conf := append([]string{"brokerClusterName=DefaultCluster", "brokerName=" + brokerName}, confLines...)
	confFile := filepath.Join(root, "broker.conf")
	if err := os.WriteFile(confFile, []byte(strings.Join(conf, "\n")+"\n"), 0o644); err != nil {
		return nil, err
	}
	stderr, err := os.Create(filepath.Join(root, "broker.stderr.log"))
	if err != nil {
		return nil, err
	}
	defer stderr.Close()
	stdoutLog, err := os.Create(filepath.Join(root, "broker.stdout.log"))
	if err != nil {
		return nil, err
	}
	b := &Broker{root: root, exited: make(chan struct{})}
	b.cmd = exec.Command(binary, "--store", b.StoreDir(), "--namesrv-port", "0", "--broker-port", "0",
		"-c", confFile)
	b.cmd.Stderr = stderr
	// Should this process die without stopping the broker (a crash, CTest's timeout), the kernel
	// kills the broker too.
	b.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stdout, err := b.cmd.StdoutPipe()
	if err != nil {
		stdoutLog.Close()
		return nil, err
	}
	if err := b.cmd.Start(); err != nil {
		stdoutLog.Close()
		return nil, err
	}
	ready := make(chan []string, 1)
	var readerDone sync.WaitGroup
	readerDone.Add(1)
	go func() {
		defer readerDone.Done()
		defer stdoutLog.Close()
		scanner := bufio.NewScanner(stdout)
		sent := false
		for scanner.Scan() {
			line := scanner.Text()
			fmt.Fprintln(stdoutLog, line)
			if m := readyLine.FindStringSubmatch(line); m != nil && !sent {
				ready <- m
				sent = true
			}
		}
	}()
	go func() {
		// Wait only after stdout is drained (os/exec's rule for StdoutPipe).
		readerDone.Wait()
		b.exitErr = b.cmd.Wait()
		close(b.exited)
	}()
	select {
	case m := <-ready:
		b.NamesrvAddr, b.BrokerAddr = m[1], m[2]
		logf("mqdesk-broker ready: namesrv=%s broker=%s (pid %d)", b.NamesrvAddr, b.BrokerAddr, b.cmd.Process.Pid)
		return b, nil
	case <-b.exited:
		return nil, fmt.Errorf("mqdesk-broker exited (%v) before its ready line; stderr:\n%s", b.exitErr, b.StderrTail())
	case <-time.After(brokerReadyTimeout):
		b.Kill()
		return nil, fmt.Errorf("mqdesk-broker printed no ready line within %v; stderr:\n%s", brokerReadyTimeout, b.StderrTail())
	}
}

// StoreDir is the broker's store folder.
func (b *Broker) StoreDir() string { return filepath.Join(b.root, "store") }

// Stop sends SIGTERM and requires a clean exit within brokerStopTimeout: status 0 and no `abort`
// file left in the store. Past the timeout the broker is killed and Stop fails.
func (b *Broker) Stop() error {
	if err := b.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return fmt.Errorf("SIGTERM to mqdesk-broker: %w", err)
	}
	select {
	case <-b.exited:
	case <-time.After(brokerStopTimeout):
		b.Kill()
		return fmt.Errorf("mqdesk-broker did not stop within %v of SIGTERM; stderr:\n%s", brokerStopTimeout, b.StderrTail())
	}
	if b.exitErr != nil {
		return fmt.Errorf("mqdesk-broker exit after SIGTERM: %v; stderr:\n%s", b.exitErr, b.StderrTail())
	}
	if _, err := os.Stat(filepath.Join(b.StoreDir(), "abort")); err == nil {
		return fmt.Errorf("mqdesk-broker left %s after a clean stop", filepath.Join(b.StoreDir(), "abort"))
	}
	logf("mqdesk-broker stopped cleanly")
	return nil
}

// Kill sends SIGKILL (if the process still runs) and waits for it to be reaped.
func (b *Broker) Kill() {
	select {
	case <-b.exited:
		return
	default:
	}
	_ = b.cmd.Process.Kill()
	select {
	case <-b.exited:
	case <-time.After(5 * time.Second):
	}
}

// StderrTail is the last 60 lines the broker wrote to stderr (its log).
func (b *Broker) StderrTail() string {
	data, err := os.ReadFile(filepath.Join(b.root, "broker.stderr.log"))
	if err != nil {
		return fmt.Sprintf("(cannot read the broker's stderr log: %v)", err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > 60 {
		lines = lines[len(lines)-60:]
	}
	return strings.Join(lines, "\n")
}
