package db_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/db/dbtest"
)

// TestOpenKeepsPoolSettingsOfTheURL: pgx's pool settings in DATABASE_URL
// are the operator's (they were overwritten with 20 connections kept 5
// minutes idle), and a URL that carries them still opens the event tail's
// own connection (pgx.Connect sent them to the server as settings).
func TestOpenKeepsPoolSettingsOfTheURL(t *testing.T) {
	t.Parallel()
	url := dbtest.NewURL(t)
	if !strings.Contains(url, "pool_max_conns=") {
		t.Fatalf("a test database's URL carries no pool settings: %s", url)
	}
	for _, c := range []struct {
		name string
		url  string
		opts db.Options
		max  int32
		idle time.Duration
	}{
		{"the URL's", url, db.Options{}, 12, 20 * time.Second},
		{"the URL's over the caller's", url, db.Options{MaxConns: 3}, 12, 20 * time.Second},
		{"the defaults", strings.Split(url, "pool_max_conns=")[0] + "x=", db.Options{}, 20, 5 * time.Minute},
		{"the caller's", strings.Split(url, "pool_max_conns=")[0] + "x=", db.Options{MaxConns: 3}, 3, 5 * time.Minute},
	} {
		t.Run(c.name, func(t *testing.T) {
			u := strings.TrimSuffix(strings.TrimSuffix(c.url, "x="), "&")
			u = strings.TrimSuffix(u, "?")
			d, err := db.Open(context.Background(), u, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if got := d.Pool.Config(); got.MaxConns != c.max || got.MaxConnIdleTime != c.idle {
				t.Errorf("pool of %d connections kept %s idle, want %d and %s", got.MaxConns, got.MaxConnIdleTime, c.max, c.idle)
			}
		})
	}
	d, err := db.Open(context.Background(), url, db.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Pool.Config().HealthCheckPeriod; got != 5*time.Second {
		t.Errorf("the pool is checked every %s, want the URL's 5s (idle connections close only when it is)", got)
	}
	d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	tail := &db.EventTail{URL: url, OnEvents: func(context.Context, []db.EventRef) error { return nil }}
	done := make(chan error, 1)
	go func() { done <- tail.Run(ctx) }()
	for deadline := time.Now().Add(30 * time.Second); !tail.Connected(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Error("the event tail never connected with the URL's pool settings")
			break
		}
	}
	cancel()
	<-done
}
