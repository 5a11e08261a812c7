package blob

import (
	"slices"
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
