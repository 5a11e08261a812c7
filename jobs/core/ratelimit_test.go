package core

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db/dbtest"
)

// TestRateLimitBucketRefillsAndRollsBack: the bucket allows its burst, then
// refuses with a retry time; a transaction that rolls back gives its token
// back.
func TestRateLimitBucketRefillsAndRollsBack(t *testing.T) {
	t.Parallel()
	d := dbtest.New(t)
	s, err := NewCore(CoreOptions{DB: d, Config: Config{RateLimit: RateLimit{Every: time.Hour, Burst: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	take := func(user string) error {
		return d.InTx(ctx, func(ctx context.Context, tx bun.Tx) error { return s.RateLimited(ctx, tx, Actor{UserID: user}) })
	}
	// A rolled-back transaction costs nothing.
	for range 3 {
		errRollback := fmt.Errorf("roll back")
		if err := d.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
			if err := s.RateLimited(ctx, tx, Actor{UserID: "alice"}); err != nil {
				return err
			}
			return errRollback
		}); err != errRollback {
			t.Fatalf("rolled back: %v", err)
		}
	}
	for i, want := range []Code{"", "", CodeRateLimited, CodeRateLimited} {
		err := take("alice")
		if got := Code(""); err != nil {
			got = ErrorCode(err)
			if je := AsError(err); je.RetryAfter < 59*time.Minute {
				t.Fatalf("take %d: retry after %v, want about an hour", i, je.RetryAfter)
			}
			if got != want {
				t.Fatalf("take %d: %v, want %s", i, err, want)
			}
		} else if want != "" {
			t.Fatalf("take %d allowed, want %s", i, want)
		}
	}
	if err := take("bob"); err != nil {
		t.Fatalf("bob has his own bucket: %v", err)
	}
}

// BenchmarkRateLimitBucket measures what the PostgreSQL bucket adds to a
// transaction that creates a task: a transaction inserting a row (as
// requestIssuance's does, so both pay the commit's flush) against the same
// transaction also taking a token from one of 64 users' buckets.
func BenchmarkRateLimitBucket(b *testing.B) {
	d := dbtest.New(b)
	s, err := NewCore(CoreOptions{DB: d, Config: Config{RateLimit: RateLimit{Every: time.Nanosecond, Burst: 1 << 30}}})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, err := d.Bun.ExecContext(ctx, "CREATE TABLE bench_writes (id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())"); err != nil {
		b.Fatal(err)
	}
	write := func(ctx context.Context, tx bun.Tx) error {
		_, err := tx.ExecContext(ctx, "INSERT INTO bench_writes DEFAULT VALUES")
		return err
	}
	b.Run("baseline=tx-insert", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := d.InTx(ctx, write); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("tx-insert+bucket", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := d.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
				if err := write(ctx, tx); err != nil {
					return err
				}
				return s.RateLimited(ctx, tx, Actor{UserID: fmt.Sprint("user-", i%64)})
			}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
