package pgtest

import "syscall"

// setDeathSignal kills the server if the test binary dies without stopping it, so a crashed
// test leaves no server behind.
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
