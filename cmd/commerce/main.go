// Command commerce is the service binary: the HTTP server and job workers,
// migrations, and operator commands.
//
//	commerce serve [--no-worker]   HTTP server (and job workers unless --no-worker)
//	commerce worker                job workers only
//	commerce migrate up|down|status
//	commerce accounts create --email E [--plan P] [--reuse]
//	commerce licenses rotate-key   add a license token signing key, print its kid
//	commerce mcp                   the MCP server over stdio (key in COMMERCE_API_KEY)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"commerce/config"
	"commerce/db"
	"commerce/problem"
	"commerce/server"
	"commerce/telemetry"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// drainTimeout caps how long shutdown waits for requests and jobs.
const drainTimeout = 10 * time.Second

const usage = `usage:
  commerce serve [--no-worker]      start the HTTP server (and job workers)
  commerce worker                   start job workers only
  commerce migrate up|down|status   apply, roll back (last group; --all: everything) or show migrations
  commerce accounts create --email E [--plan free|growth|scale] [--reuse] [--key-file F]
                                    create an account and print a new API key (with
                                    --key-file, the key kept in F while it still works)
  commerce licenses rotate-key      add a license token signing key and print its kid (every
                                    process signs with it within 10 s; the old keys stay
                                    published until their tokens expire)
  commerce mcp                      serve MCP over stdio for the key in COMMERCE_API_KEY
Configuration comes from the environment (see README).`

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "commerce:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("no command given\n%s", usage)
	}
	cfg, err := config.FromEnv()
	if err != nil {
		return err
	}
	log := cfg.Logger()
	slog.SetDefault(log)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	switch args[0] {
	case "serve":
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		noWorker := fs.Bool("no-worker", false, "do not run job workers in this process")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		return serve(ctx, cfg, log, !*noWorker, true)
	case "worker":
		return serve(ctx, cfg, log, true, false)
	case "migrate":
		return migrate(ctx, cfg, args[1:], stdout)
	case "accounts":
		return accounts(ctx, cfg, log, args[1:], stdout)
	case "licenses":
		return licenses(ctx, cfg, log, args[1:], stdout)
	case "mcp":
		return serveMCP(ctx, cfg, log, os.Getenv("COMMERCE_API_KEY"), &mcpsdk.StdioTransport{})
	case "help", "-h", "--help":
		fmt.Fprintln(stdout, usage)
		return nil
	}
	return fmt.Errorf("unknown command %q\n%s", args[0], usage)
}

// serve runs the HTTP server and/or the workers until a signal, then drains
// in-flight requests and jobs for at most drainTimeout.
func serve(ctx context.Context, cfg config.Config, log *slog.Logger, work, listen bool) error {
	// Tracing from the OTEL_* variables (nil: off); its spans still queued
	// are exported when the process stops.
	tracing, err := telemetry.FromEnv(ctx, nil)
	if err != nil {
		return err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), drainTimeout)
		defer cancel()
		if err := tracing.Shutdown(sctx); err != nil {
			log.Warn("tracing: spans not exported at shutdown", "error", err)
		}
	}()
	srv, err := server.New(ctx, cfg, log, server.Options{Work: work, Tracing: tracing})
	if err != nil {
		return err
	}
	if err := srv.Start(ctx); err != nil {
		srv.Close(context.Background())
		return err
	}
	if cfg.PprofAddr != "" {
		startPprof(ctx, cfg.PprofAddr, log)
	}
	if cfg.MetricsAddr != "" {
		if err := startMetrics(ctx, cfg.MetricsAddr, srv.MetricsHandler(), log); err != nil {
			srv.Close(context.Background())
			return err
		}
	}
	var hs *http.Server
	errc := make(chan error, 1)
	if listen {
		ln, err := net.Listen("tcp", cfg.ListenAddr)
		if err != nil {
			srv.Close(context.Background())
			return fmt.Errorf("listen on LISTEN_ADDR %s: %w", cfg.ListenAddr, err)
		}
		hs = &http.Server{
			Handler:           srv.Handler(),
			ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout:       2 * time.Minute,
			WriteTimeout:      2 * time.Minute,
			IdleTimeout:       2 * time.Minute,
			MaxHeaderBytes:    64 << 10,
			ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		}
		log.Info("listening", "addr", ln.Addr().String(), "base_url", cfg.BaseURL, "workers", work, "processor", cfg.Processor,
			"tracing", tracing.On())
		go func() { errc <- hs.Serve(ln) }()
	} else {
		log.Info("worker started")
	}

	select {
	case <-ctx.Done():
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			srv.Close(context.Background())
			return err
		}
	}
	log.Info("shutting down", "drain_timeout", drainTimeout.String())
	dctx, cancel := context.WithTimeout(context.Background(), drainTimeout)
	defer cancel()
	if hs != nil {
		if err := hs.Shutdown(dctx); err != nil {
			log.Warn("requests still in flight at the drain deadline", "error", err)
		}
	}
	srv.Close(dctx)
	log.Info("stopped")
	return nil
}

func migrate(ctx context.Context, cfg config.Config, args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New("migrate needs up, down or status")
	}
	// The migration lock is a session's advisory lock: no pooler in
	// transaction mode in between.
	d, err := db.Open(ctx, cfg.DatabaseDirectURL)
	if err != nil {
		return err
	}
	defer d.Close()
	switch args[0] {
	case "up":
		return d.MigrateUp(ctx, stdout)
	case "down":
		fs := flag.NewFlagSet("migrate down", flag.ContinueOnError)
		all := fs.Bool("all", false, "roll back every migration, River's included")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		return d.MigrateDown(ctx, stdout, *all)
	case "status":
		st, err := d.MigrateStatus(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "river: version %d of %d\n", st.RiverVersion, st.RiverLatest)
		for _, n := range st.Applied {
			fmt.Fprintf(stdout, "applied  %s\n", n)
		}
		for _, n := range st.Pending {
			fmt.Fprintf(stdout, "pending  %s\n", n)
		}
		return nil
	}
	return fmt.Errorf("unknown migrate command %q (want up, down or status)", args[0])
}

func accounts(ctx context.Context, cfg config.Config, log *slog.Logger, args []string, stdout io.Writer) error {
	if len(args) == 0 || args[0] != "create" {
		return errors.New("usage: commerce accounts create --email E [--plan P] [--reuse]")
	}
	fs := flag.NewFlagSet("accounts create", flag.ContinueOnError)
	email := fs.String("email", "", "the account's email address (required)")
	plan := fs.String("plan", "free", "free, growth or scale")
	reuse := fs.Bool("reuse", false, "when the email has an account already, issue a new key for it")
	keyFile := fs.String("key-file", "", "keep the key in this file (mode 0600): a key there that still works for the account is printed again instead of a new one")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *email == "" {
		return errors.New("accounts create: --email is required")
	}
	srv, err := server.New(ctx, cfg, log, server.Options{})
	if err != nil {
		return err
	}
	defer srv.Close(context.Background())
	if *keyFile != "" {
		if id, key, ok := keptKey(ctx, srv, *keyFile, *email); ok {
			fmt.Fprintf(stdout, "account_id=%s\napi_key=%s\n", id, key)
			return nil
		}
	}
	out, err := srv.Resolver.CreateAccount(ctx, *email, *plan, "created by commerce accounts create", *reuse)
	if p := problem.From(err); p != nil {
		return fmt.Errorf("accounts create: --%s: %s", p.Param, p.Detail)
	}
	if err != nil {
		return err
	}
	if *keyFile != "" {
		if err := os.WriteFile(*keyFile, []byte(out.Key.Key+"\n"), 0o600); err != nil {
			return fmt.Errorf("accounts create: --key-file: %w", err)
		}
	}
	fmt.Fprintf(stdout, "account_id=%s\napi_key=%s\n", out.Account.ID, out.Key.Key)
	return nil
}

// licenses runs the operator commands of license keys: rotate-key adds a
// signing key and prints "kid=…".
func licenses(ctx context.Context, cfg config.Config, log *slog.Logger, args []string, stdout io.Writer) error {
	if len(args) != 1 || args[0] != "rotate-key" {
		return errors.New("usage: commerce licenses rotate-key")
	}
	srv, err := server.New(ctx, cfg, log, server.Options{})
	if err != nil {
		return err
	}
	defer srv.Close(context.Background())
	kid, err := srv.Resolver.RotateLicenseSigningKey(ctx)
	if err != nil {
		return fmt.Errorf("licenses rotate-key: %w", err)
	}
	fmt.Fprintf(stdout, "kid=%s\n", kid)
	return nil
}

// keptKey reads the key kept in file and reports whether it still
// authenticates as the live account of email (not revoked, not expired).
func keptKey(ctx context.Context, srv *server.Server, file, email string) (accountID, key string, ok bool) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", "", false
	}
	key = strings.TrimSpace(string(b))
	p, err := srv.Resolver.Authenticate(ctx, key)
	if err != nil {
		return "", "", false
	}
	acc, err := db.AccountByEmail(ctx, srv.DB, email)
	if err != nil || acc.ID != p.AccountID {
		return "", "", false
	}
	return acc.ID, key, true
}

// serveMCP serves the MCP server over t (stdio) for the caller holding key,
// until the client closes the stream or a signal. The key is checked at
// start and again on every call (a revoked key stops working at once).
// Logs go to stderr: stdout carries the protocol.
func serveMCP(ctx context.Context, cfg config.Config, log *slog.Logger, key string, t mcpsdk.Transport) error {
	if key == "" {
		return errors.New("mcp: set COMMERCE_API_KEY to the API key (svc_…) the tools act with")
	}
	srv, err := server.New(ctx, cfg, log, server.Options{})
	if err != nil {
		return err
	}
	defer srv.Close(context.Background())
	caller := srv.KeyCaller(key)
	if _, err := caller(ctx, nil); err != nil {
		if p := problem.From(err); p != nil {
			return fmt.Errorf("mcp: COMMERCE_API_KEY: %s", p.Detail)
		}
		return fmt.Errorf("mcp: COMMERCE_API_KEY: %w", err)
	}
	if err := srv.MCP(caller).Run(ctx, t); err != nil && ctx.Err() == nil {
		return fmt.Errorf("mcp: %w", err)
	}
	return nil
}
