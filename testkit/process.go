package testkit

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The service as a separate process, measured from outside the way an
// operator would: the built binary, started and stopped by signal, and its
// resident memory and open files read from /proc.

// BuildCommerce builds cmd/commerce into a temporary directory of t (with
// $GO, default go) and returns the binary's path.
func BuildCommerce(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "commerce")
	out, err := exec.Command(cmp.Or(os.Getenv("GO"), "go"), "build", "-o", bin, "commerce/cmd/commerce").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// FreeAddr returns a 127.0.0.1 address nothing listens on right now.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// Process is one running `commerce` subprocess whose output goes to a log
// file.
type Process struct {
	Cmd *exec.Cmd
	// LogPath is the file holding its stdout and stderr.
	LogPath string
	log     *os.File
	done    chan struct{}
	err     error
}

// StartProcess runs bin with args and env, output appended to logPath, and
// waits until base+"/readyz" answers 200 (at most ready). It fails t when
// the process does not start or become ready; the log's end is in the
// failure.
func StartProcess(t testing.TB, bin string, env []string, logPath, base string, ready time.Duration, args ...string) *Process {
	t.Helper()
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		f.Close()
		t.Fatalf("start %s: %v", bin, err)
	}
	p := &Process{Cmd: cmd, LogPath: logPath, log: f, done: make(chan struct{})}
	go func() { p.err = cmd.Wait(); close(p.done) }()
	deadline := time.Now().Add(ready)
	client := &http.Client{Timeout: time.Second}
	for {
		resp, err := client.Get(base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p
			}
		}
		select {
		case <-p.done:
			t.Fatalf("%s exited before it was ready (%v); log:\n%s", bin, p.err, p.LogTail(8000))
		default:
		}
		if time.Now().After(deadline) {
			p.Stop(syscall.SIGKILL, time.Second)
			t.Fatalf("%s was not ready in %s; log:\n%s", bin, ready, p.LogTail(8000))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Pid is the process id.
func (p *Process) Pid() int { return p.Cmd.Process.Pid }

// Exited reports whether the process has ended, and how.
func (p *Process) Exited() (bool, error) {
	select {
	case <-p.done:
		return true, p.err
	default:
		return false, nil
	}
}

// Stop sends sig and waits for the process to end; after grace it is
// killed. It returns the process's exit error (nil for a clean exit).
func (p *Process) Stop(sig syscall.Signal, grace time.Duration) error {
	_ = p.Cmd.Process.Signal(sig)
	select {
	case <-p.done:
	case <-time.After(grace):
		_ = p.Cmd.Process.Kill()
		<-p.done
	}
	_ = p.log.Close()
	return p.err
}

// LogTail returns the last n bytes of the process's log.
func (p *Process) LogTail(n int) string {
	b, _ := os.ReadFile(p.LogPath)
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

// ProcessRSS returns the resident set size of process pid in bytes
// (VmRSS of /proc/pid/status).
func ProcessRSS(pid int) (int64, error) {
	kb, err := procStatusField(pid, "VmRSS")
	return kb * 1024, err
}

// ProcessThreads returns the number of OS threads of process pid.
func ProcessThreads(pid int) (int64, error) { return procStatusField(pid, "Threads") }

// ProcessFDs returns the number of open file descriptors of process pid
// (entries of /proc/pid/fd): files, sockets, pipes, epoll.
func ProcessFDs(pid int) (int, error) {
	entries, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return 0, err
	}
	return len(entries), nil
}

// procStatusField reads the first number of a field of /proc/pid/status
// ("VmRSS:   12345 kB" gives 12345).
func procStatusField(pid int, name string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || k != name {
			continue
		}
		fields := strings.Fields(v)
		if len(fields) == 0 {
			break
		}
		return strconv.ParseInt(fields[0], 10, 64)
	}
	return 0, fmt.Errorf("/proc/%d/status has no %s", pid, name)
}
