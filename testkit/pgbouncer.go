package testkit

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// PgBouncerPoolSize is how many server connections PgBouncer keeps per
// database and user: small, so that transactions really share them.
const PgBouncerPoolSize = 2

// PgBouncer starts Debian's PgBouncer (1.18) in transaction pooling mode in
// front of upstream's PostgreSQL, on a free loopback port, with
// PgBouncerPoolSize server connections per database, and returns upstream
// with its host and port replaced by PgBouncer's: a DATABASE_URL through
// the pooler. It stops when the test ends. PgBouncer refuses to run as
// root: as root it runs as the postgres user. It needs the pgbouncer
// package (scripts/services.sh installs it) and fails the test without it.
func PgBouncer(t testing.TB, upstream string) string {
	t.Helper()
	bin, err := exec.LookPath("pgbouncer")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/pgbouncer"); serr != nil {
			t.Fatal("pgbouncer is not installed: run make test (scripts/services.sh installs it)")
		}
		bin = "/usr/sbin/pgbouncer"
	}
	u, err := url.Parse(upstream)
	if err != nil {
		t.Fatalf("PgBouncer: upstream URL: %v", err)
	}
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = "5432"
	}
	user := u.User.Username()
	if user == "" {
		user = "postgres"
	}
	// A directory the postgres user can read (t.TempDir's parent is private).
	dir, err := os.MkdirTemp("", "commerce-pgbouncer-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	listen := freePort(t)
	ini := fmt.Sprintf(`[databases]
* = host=%s port=%s

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = %d
unix_socket_dir =
auth_type = trust
auth_file = %s
pool_mode = transaction
default_pool_size = %d
max_client_conn = 2000
max_db_connections = %d
server_lifetime = 3600
ignore_startup_parameters = extra_float_digits
logfile = %s
`, host, port, listen, filepath.Join(dir, "userlist.txt"), PgBouncerPoolSize, PgBouncerPoolSize,
		filepath.Join(dir, "pgbouncer.log"))
	for name, content := range map[string]string{
		"pgbouncer.ini": ini,
		"userlist.txt":  fmt.Sprintf("%q \"\"\n", user),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{bin, filepath.Join(dir, "pgbouncer.ini")}
	if os.Getuid() == 0 {
		runuser, err := exec.LookPath("runuser")
		if err != nil {
			runuser = "/usr/sbin/runuser"
		}
		args = append([]string{runuser, "-u", "postgres", "--"}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	// Its own process group: runuser and PgBouncer stop together.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out := &LockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start pgbouncer: %v", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) // immediate shutdown
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	})
	addr := "127.0.0.1:" + strconv.Itoa(listen)
	waitFor(t, "pgbouncer on "+addr, func() error {
		select {
		case <-exited:
			log, _ := os.ReadFile(filepath.Join(dir, "pgbouncer.log"))
			t.Fatalf("pgbouncer exited: %s%s", out.String(), log)
		default:
		}
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			return err
		}
		return c.Close()
	})
	u.Host = addr
	return u.String()
}
