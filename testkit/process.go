package testkit

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The service as a separate process, measured from outside the way an
// operator would: the built binary, started and stopped by signal, and its
// CPU time, resident memory and open files read from /proc.

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat's times (100 on
// every Linux architecture Go supports).
const clockTicks = 100

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

// CLIAccount creates an account with `bin accounts create` (env as the
// service's) for email and returns its API key.
func CLIAccount(t testing.TB, bin string, env []string, email string) string {
	t.Helper()
	cmd := exec.Command(bin, "accounts", "create", "--email", email)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	m := regexp.MustCompile(`(?m)^api_key=(\S+)$`).FindSubmatch(out)
	require.NotNil(t, m, "%s", out)
	return string(m[1])
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
// file (closed when the process ends).
type Process struct {
	Cmd *exec.Cmd
	// LogPath is the file holding its stdout and stderr.
	LogPath string
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
	p := &Process{Cmd: cmd, LogPath: logPath, done: make(chan struct{})}
	go func() { p.err = cmd.Wait(); _ = f.Close(); close(p.done) }()
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

// Done is closed when the process has ended.
func (p *Process) Done() <-chan struct{} { return p.done }

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
// killed. It returns the process's exit error (nil for a clean exit). On a
// process that has ended already it only returns that error.
func (p *Process) Stop(sig syscall.Signal, grace time.Duration) error {
	_ = p.Cmd.Process.Signal(sig)
	select {
	case <-p.done:
	case <-time.After(grace):
		_ = p.Cmd.Process.Kill()
		<-p.done
	}
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

// ProcessPeakRSS returns the peak resident set size of process pid in
// bytes (VmHWM of /proc/pid/status): since it started, or since the last
// ResetPeakRSS.
func ProcessPeakRSS(pid int) (int64, error) {
	kb, err := procStatusField(pid, "VmHWM")
	return kb * 1024, err
}

// ResetPeakRSS sets the peak resident set size of process pid (VmHWM) to
// its resident set size now (writing 5 to /proc/pid/clear_refs).
func ResetPeakRSS(pid int) error {
	return os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0)
}

// ProcessCPU returns the CPU time process pid has used: its user and
// system time (utime+stime of /proc/pid/stat).
func ProcessCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) is in parentheses and may hold spaces:
	// the fields after the last ')' start at field 3 (state).
	i := bytes.LastIndexByte(b, ')')
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("short /proc stat: %q", b)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return time.Duration(utime+stime) * time.Second / clockTicks, nil
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
