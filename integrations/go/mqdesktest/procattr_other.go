//go:build !linux

package mqdesktest

import "syscall"

// sysProcAttr: only Linux can tie the broker's life to the test process's.
func sysProcAttr() *syscall.SysProcAttr { return nil }
