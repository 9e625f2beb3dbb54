package mqdesktest

import "syscall"

// sysProcAttr makes the kernel kill the broker should the test process die without stopping it
// (a panic, go test's -timeout): no broker outlives its test binary.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
