package localpg_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/dungji/dungji/db/localpg"
)

// TestPrivateCluster creates, starts, reuses and stops a real private cluster,
// the path a machine without a running server takes.
func TestPrivateCluster(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a PostgreSQL cluster")
	}
	parent := t.TempDir()
	// The postgres user must be able to reach the directory when we are root.
	for _, d := range []string{parent, filepath.Dir(parent)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(parent, "postgres")
	ctx := context.Background()
	srv, err := localpg.Ensure(ctx, localpg.Options{Probe: "-", DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Stop() })
	if !srv.Private {
		t.Fatal("want a private cluster")
	}
	conn, err := pgx.Connect(ctx, srv.URL("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	var one int
	if err := conn.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("SELECT 1 = %d, %v", one, err)
	}
	conn.Close(ctx)

	again, err := localpg.Ensure(ctx, localpg.Options{Probe: "-", DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if again.AdminURL != srv.AdminURL || again.Started {
		t.Fatalf("second Ensure started another server: %s vs %s", again.AdminURL, srv.AdminURL)
	}
	if err := again.Stop(); err != nil { // not ours to stop
		t.Fatal(err)
	}
	if _, err := localpg.Ensure(ctx, localpg.Options{Probe: "-", DataDir: dir}); err != nil {
		t.Fatal(err)
	}

	// Restart cuts every session and serves again on the same port.
	conn, err = pgx.Connect(ctx, srv.URL("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	if err := conn.Ping(ctx); err == nil {
		t.Error("a session survived Restart")
	}
	conn.Close(ctx)
	conn, err = pgx.Connect(ctx, srv.URL("postgres"))
	if err != nil {
		t.Fatalf("after Restart: %v", err)
	}
	conn.Close(ctx)
	if err := (&localpg.Server{AdminURL: srv.AdminURL}).Restart(); err == nil {
		t.Error("Restart of a server that is not a private cluster: want an error")
	}

	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := pgx.Connect(ctx, srv.URL("postgres")); err == nil {
		t.Fatal("server still answers after Stop")
	}
}

func TestProbeUnreachableFallsBackOrFails(t *testing.T) {
	t.Parallel()
	_, err := localpg.Ensure(context.Background(), localpg.Options{Probe: "127.0.0.1:1"})
	if err == nil {
		t.Fatal("want an error: nothing answers and no data directory")
	}
}
