//go:build unix

package pgtest

import (
	"os"
	"os/exec"
	"os/user"
	"strconv"
	"syscall"
)

// serverUser is the user the cluster runs as when the tests run as root: nobody.
func serverUser() (uid, gid int, err error) {
	u, err := user.Lookup("nobody")
	if err != nil {
		return 0, 0, errNoUser
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(u.Gid)
	if err1 != nil || err2 != nil {
		return 0, 0, errNoUser
	}
	return uid, gid, nil
}

// own gives dir to the server user when running as root; otherwise the cluster runs as the
// tests' own user, who owns it already.
func own(dir string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	uid, gid, err := serverUser()
	if err != nil {
		return err
	}
	return os.Chown(dir, uid, gid)
}

// asServerUser makes cmd run as the server user when running as root.
func asServerUser(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	setDeathSignal(cmd.SysProcAttr)
	if os.Geteuid() != 0 {
		return
	}
	uid, gid, err := serverUser()
	if err != nil {
		return // own already failed with the reason
	}
	cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}
}

func interrupt(p *os.Process) { p.Signal(syscall.SIGINT) }
