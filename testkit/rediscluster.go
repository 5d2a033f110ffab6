package testkit

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Cluster is a local Redis Cluster that RedisCluster started.
type Cluster struct {
	// URL is its REDIS_URL in go-redis's cluster form
	// (redis://first?addr=second&addr=third).
	URL   string
	nodes []*exec.Cmd
}

// Stop kills every node (as a crash would: no shutdown save).
func (c *Cluster) Stop() {
	for _, n := range c.nodes {
		_ = n.Process.Kill()
		_ = n.Wait()
	}
	c.nodes = nil
}

// RedisCluster starts a Redis Cluster of three masters (no replicas) on
// free loopback ports, each node in a directory of its own. The nodes stop
// when the test ends. It needs redis-server and redis-cli
// (scripts/services.sh installs them) and fails the test without them.
func RedisCluster(t testing.TB) *Cluster {
	t.Helper()
	for _, bin := range []string{"redis-server", "redis-cli"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Fatalf("%s is not installed: run make test (scripts/services.sh installs it)", bin)
		}
	}
	dir := t.TempDir()
	c := &Cluster{}
	t.Cleanup(c.Stop)
	addrs := make([]string, 3)
	for i := range addrs {
		port := freePort(t)
		node := filepath.Join(dir, strconv.Itoa(port))
		if err := os.Mkdir(node, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("redis-server", "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--dir", node,
			"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000",
			"--save", "", "--appendonly", "no", "--logfile", filepath.Join(node, "redis.log"))
		if err := cmd.Start(); err != nil {
			t.Fatalf("start redis-server: %v", err)
		}
		c.nodes = append(c.nodes, cmd)
		addrs[i] = "127.0.0.1:" + strconv.Itoa(port)
		waitFor(t, "redis-server on "+addrs[i], func() error { return redisCLI(addrs[i], "ping") })
	}
	args := append([]string{"--cluster", "create"}, addrs...)
	args = append(args, "--cluster-replicas", "0", "--cluster-yes")
	if out, err := exec.Command("redis-cli", args...).CombinedOutput(); err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	for _, a := range addrs {
		waitFor(t, "the cluster's state on "+a, func() error {
			out, err := exec.Command("redis-cli", "-h", "127.0.0.1", "-p", strings.TrimPrefix(a, "127.0.0.1:"), "cluster", "info").Output()
			if err != nil {
				return err
			}
			if !strings.Contains(string(out), "cluster_state:ok") {
				return fmt.Errorf("not ok yet")
			}
			return nil
		})
	}
	c.URL = "redis://" + addrs[0] + "?addr=" + addrs[1] + "&addr=" + addrs[2]
	return c
}

func redisCLI(addr string, args ...string) error {
	host, port, _ := net.SplitHostPort(addr)
	return exec.Command("redis-cli", append([]string{"-h", host, "-p", port}, args...)...).Run()
}

// freePort is a loopback TCP port free a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// waitFor polls check for up to 10 s.
func waitFor(t testing.TB, what string, check func() error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		err := check()
		if err == nil {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s: %v", what, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
