package mqdesktest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
)

// EnvBinary names the environment variable holding the path of the mqdesk-broker to run.
const EnvBinary = "MQDESK_BROKER"

// ErrBinaryNotFound is wrapped by the error StartBroker returns when there is no mqdesk-broker to
// run. A test suite that should skip rather than fail without one can check it:
//
//	if errors.Is(err, mqdesktest.ErrBinaryNotFound) { ... }
var ErrBinaryNotFound = errors.New("mqdesk-broker not found")

// debianBinary is where MQDesk's Debian package installs the program (a variable for the tests).
var debianBinary = "/usr/bin/mqdesk-broker"

// installHint says how to get the program, for the error messages.
const installHint = "install MQDesk's Debian package (sudo apt-get install ./mqdesk_<version>_<arch>.deb, " +
	"which provides /usr/bin/mqdesk-broker), or build MQDesk (scripts/run.sh, or cmake --build build/release " +
	"--target mqdesk-broker) and set " + EnvBinary + "=/path/to/build/release/app/mqdesk-broker/mqdesk-broker"

// findBinary picks the mqdesk-broker to run: explicit (WithBinary), else $MQDESK_BROKER, else
// mqdesk-broker on PATH, else the Debian package's. A path that was named explicitly but is not
// an executable file is an error of its own rather than a reason to look further.
func findBinary(explicit string) (string, error) {
	if explicit != "" {
		return checkExecutable(explicit, "WithBinary")
	}
	if env := os.Getenv(EnvBinary); env != "" {
		return checkExecutable(env, EnvBinary)
	}
	if path, err := exec.LookPath("mqdesk-broker"); err == nil {
		return path, nil
	}
	if _, err := checkExecutable(debianBinary, ""); err == nil {
		return debianBinary, nil
	}
	return "", fmt.Errorf("mqdesktest: %w: %s is not set, there is no mqdesk-broker on PATH and no %s; %s",
		ErrBinaryNotFound, EnvBinary, debianBinary, installHint)
}

func checkExecutable(path, source string) (string, error) {
	info, err := os.Stat(path)
	reason := ""
	switch {
	case errors.Is(err, fs.ErrNotExist):
		reason = "no such file"
	case err != nil:
		reason = err.Error()
	case info.IsDir() || info.Mode().Perm()&0o111 == 0:
		reason = "not an executable file"
	default:
		return path, nil
	}
	return "", fmt.Errorf("mqdesktest: %w: %s is %s: %s; %s", ErrBinaryNotFound, source, path, reason, installHint)
}
