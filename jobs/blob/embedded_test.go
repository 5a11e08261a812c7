package blob

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

func TestEmbeddedKeepsObjectsAcrossRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()

	first, err := StartEmbedded(t.Context(), dir, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	store, err := New(t.Context(), first.Config("registry"))
	if err != nil {
		t.Fatal(err)
	}
	if err := store.EnsureBucket(t.Context()); err != nil {
		t.Fatal(err)
	}
	mustPut(t, store, "nests/n1/t1.pdf", []byte("%PDF-1.7 first"))
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}

	second, err := StartEmbedded(t.Context(), dir, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { second.Close() })
	store, err = New(t.Context(), second.Config("registry"))
	if err != nil {
		t.Fatal(err)
	}
	if err := store.EnsureBucket(t.Context()); err != nil {
		t.Fatalf("EnsureBucket on the reopened store: %v", err)
	}
	got, err := store.Get(t.Context(), "nests/n1/t1.pdf")
	if err != nil || string(got) != "%PDF-1.7 first" {
		t.Fatalf("Get after restart = %q, %v", got, err)
	}
	keys, err := store.List(t.Context(), "")
	if err != nil || !slices.Equal(keys, []string{"nests/n1/t1.pdf"}) {
		t.Fatalf("List after restart = %q, %v", keys, err)
	}
}

func TestStartEmbeddedRefusesNonLoopback(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{":0", "0.0.0.0:0", "192.0.2.1:0", "no-port"} {
		if e, err := StartEmbedded(t.Context(), t.TempDir(), addr); err == nil {
			e.Close()
			t.Errorf("StartEmbedded(%q) succeeded", addr)
		}
	}
}

// Objects read while others are written and overwritten come back whole:
// gofakes3's bbolt backend hands out bodies that point into bbolt's memory
// after their transaction (lockedBolt copies them out).
func TestEmbeddedReadsBesideWrites(t *testing.T) {
	t.Parallel()
	emb, err := StartEmbedded(t.Context(), t.TempDir(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { emb.Close() })
	store, err := New(t.Context(), emb.Config("registry"))
	if err != nil {
		t.Fatal(err)
	}
	if err := store.EnsureBucket(t.Context()); err != nil {
		t.Fatal(err)
	}
	// Each writer overwrites its own key with bodies of changing sizes (so
	// that pages are freed and reused); each reader reads a writer's key
	// and checks that the body is one that writer wrote.
	body := func(w, i int) []byte {
		return bytes.Repeat([]byte(fmt.Sprintf("writer %d version %d;", w, i)), 1+(i*37)%300)
	}
	const writers, rounds = 4, 60
	var wg sync.WaitGroup
	for w := range writers {
		key := fmt.Sprintf("nests/n%d/t.pdf", w)
		mustPut(t, store, key, body(w, 0))
		wg.Go(func() {
			for i := 1; i <= rounds; i++ {
				if _, err := store.Put(t.Context(), key, body(w, i), "application/pdf"); err != nil {
					t.Errorf("Put %s: %v", key, err)
					return
				}
			}
		})
		wg.Go(func() {
			for range rounds {
				got, err := store.Get(t.Context(), key)
				if err != nil {
					t.Errorf("Get %s: %v", key, err)
					return
				}
				if !bytes.HasPrefix(got, []byte(fmt.Sprintf("writer %d version ", w))) {
					t.Errorf("Get %s: a body that writer %d never wrote: %.40q…", key, w, got)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestEmbeddedCredentialsPerInstall: each install draws its own
// credentials and keeps them across a restart (0600); the credentials once
// written in the source, or another install's, are refused.
func TestEmbeddedCredentialsPerInstall(t *testing.T) {
	t.Parallel()
	dirA, dirB := t.TempDir(), t.TempDir()
	a, err := StartEmbedded(t.Context(), dirA, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b, err := StartEmbedded(t.Context(), dirB, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	if a.AccessKey == b.AccessKey || a.SecretKey == b.SecretKey || len(a.SecretKey) < 40 {
		t.Fatalf("two installs: %q/%q and %q/%q", a.AccessKey, a.SecretKey, b.AccessKey, b.SecretKey)
	}
	if fi, err := os.Stat(filepath.Join(dirA, CredentialsFile)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("credentials file: %v %v", fi, err)
	}
	store, err := New(t.Context(), a.Config("registry"))
	if err != nil {
		t.Fatal(err)
	}
	if err := store.EnsureBucket(t.Context()); err != nil {
		t.Fatal(err)
	}
	mustPut(t, store, "k", []byte("secret document"))
	for _, c := range []struct{ name, access, secret string }{
		{"the credentials once in the source", "dungji-embedded", "dungji-embedded-secret"},
		{"another install's", b.AccessKey, b.SecretKey},
	} {
		cfg := a.Config("registry")
		cfg.AccessKey, cfg.SecretKey = c.access, c.secret
		other, err := New(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := other.Get(t.Context(), "k"); err == nil {
			t.Errorf("%s read the object: %q", c.name, got)
		}
	}
	access, secret := a.AccessKey, a.SecretKey
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := StartEmbedded(t.Context(), dirA, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { again.Close() })
	if again.AccessKey != access || again.SecretKey != secret {
		t.Fatalf("a restart drew new credentials")
	}
}
