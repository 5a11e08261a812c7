package blob

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// testServer is one S3 implementation the store suite runs against.
type testServer struct {
	name                 string
	endpoint             string
	accessKey, secretKey string
	// verifiesSignatures is true for every server now that the embedded
	// one (gofakes3 behind a SigV4 verifier) checks signatures and expiry.
	verifiesSignatures bool
	buckets            atomic.Int64
}

func (srv *testServer) config(bucket string) Config {
	return Config{
		Endpoint:  srv.endpoint,
		Bucket:    bucket,
		PathStyle: true,
		AccessKey: srv.accessKey,
		SecretKey: srv.secretKey,
	}
}

// newBucketName returns a bucket name no other test on srv uses, readable in
// server logs.
func (srv *testServer) newBucketName(t *testing.T) string {
	n := srv.buckets.Add(1)
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, strings.ToLower(t.Name()[strings.LastIndex(t.Name(), "/")+1:]))
	return strings.Trim(fmt.Sprintf("t%d-%.40s", n, name), "-")
}

func startGofakes3(t *testing.T) *testServer {
	t.Helper()
	emb, err := StartEmbedded(t.Context(), t.TempDir(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := emb.Close(); err != nil {
			t.Error(err)
		}
	})
	return &testServer{
		name:      "gofakes3",
		endpoint:  emb.URL(),
		accessKey: emb.AccessKey,
		secretKey: emb.SecretKey,

		verifiesSignatures: true,
	}
}

// quickRetry keeps the production retry policy (attempt count, which errors)
// but shortens its backoff so failing cases finish fast.
func quickRetry(o *s3.Options) {
	o.Retryer = retry.AddWithMaxBackoffDelay(o.Retryer, time.Millisecond)
}

type testBundle struct {
	srv   *testServer
	store *Store
}

// setup returns a Store on a fresh, existing bucket of srv.
func setup(t *testing.T, srv *testServer, opts ...func(*s3.Options)) *testBundle {
	t.Helper()
	store, err := newStore(t.Context(), srv.config(srv.newBucketName(t)), append([]func(*s3.Options){quickRetry}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.EnsureBucket(t.Context()); err != nil {
		t.Fatal(err)
	}
	return &testBundle{srv: srv, store: store}
}

func randomBytes(t *testing.T, n int) []byte {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}

func mustPut(t *testing.T, store *Store, key string, body []byte) Object {
	t.Helper()
	obj, err := store.Put(t.Context(), key, body, "application/pdf")
	if err != nil {
		t.Fatal(err)
	}
	return obj
}

// storeCases is the suite every backend must pass.
var storeCases = []struct {
	name string
	run  func(t *testing.T, srv *testServer)
}{
	{"EnsureBucketTwice", func(t *testing.T, srv *testServer) {
		b := setup(t, srv)
		if err := b.store.EnsureBucket(t.Context()); err != nil {
			t.Fatalf("second EnsureBucket: %v", err)
		}
		if err := b.store.Ping(t.Context()); err != nil {
			t.Fatalf("Ping: %v", err)
		}
	}},
	{"PutGetRoundTrip", func(t *testing.T, srv *testServer) {
		b := setup(t, srv)
		body := append([]byte("%PDF-1.7\n"), randomBytes(t, 200<<10)...)
		want := sha256.Sum256(body)

		obj := mustPut(t, b.store, "nests/n1/registry/t1.pdf", body)
		if obj.Key != "nests/n1/registry/t1.pdf" || obj.Size != int64(len(body)) ||
			obj.SHA256 != hex.EncodeToString(want[:]) || obj.ContentType != "application/pdf" {
			t.Fatalf("Put returned %+v; want size %d sha256 %x", obj, len(body), want)
		}
		got, err := b.store.Get(t.Context(), obj.Key)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, body) {
			t.Fatalf("Get returned %d bytes that differ from the %d put", len(got), len(body))
		}
		head, err := b.store.client.HeadObject(t.Context(), &s3.HeadObjectInput{Bucket: aws.String(b.store.Bucket()), Key: &obj.Key})
		if err != nil {
			t.Fatal(err)
		}
		if ct := aws.ToString(head.ContentType); ct != "application/pdf" {
			t.Fatalf("stored content type %q, want application/pdf", ct)
		}
	}},
	{"PutEmptyBodyDefaultContentType", func(t *testing.T, srv *testServer) {
		b := setup(t, srv)
		obj, err := b.store.Put(t.Context(), "empty", nil, "")
		if err != nil {
			t.Fatal(err)
		}
		if obj.Size != 0 || obj.ContentType != defaultContentType ||
			obj.SHA256 != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
			t.Fatalf("Put returned %+v", obj)
		}
		got, err := b.store.Get(t.Context(), "empty")
		if err != nil || len(got) != 0 {
			t.Fatalf("Get = %q, %v; want empty", got, err)
		}
	}},
	{"OverwriteLeavesOneObject", func(t *testing.T, srv *testServer) {
		b := setup(t, srv)
		key := "nests/n1/registry/t1.pdf"
		mustPut(t, b.store, key, []byte("first attempt"))
		mustPut(t, b.store, key, []byte("retry"))

		keys, err := b.store.List(t.Context(), "nests/n1/")
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(keys, []string{key}) {
			t.Fatalf("List = %q, want only %q", keys, key)
		}
		got, err := b.store.Get(t.Context(), key)
		if err != nil || string(got) != "retry" {
			t.Fatalf("Get = %q, %v; want the second body", got, err)
		}
	}},
	{"ListPaginatesAndFiltersByPrefix", func(t *testing.T, srv *testServer) {
		b := setup(t, srv)
		b.store.listPageSize = 10 // 25 matching keys take three pages

		var want []string
		for i := range 25 {
			key := fmt.Sprintf("nests/a/%03d.pdf", i)
			want = append(want, key)
			mustPut(t, b.store, key, []byte{byte(i)})
		}
		for _, key := range []string{"nests/b/000.pdf", "nests/ab.pdf", "other.pdf"} {
			mustPut(t, b.store, key, []byte("x"))
		}

		got, err := b.store.List(t.Context(), "nests/a/")
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("List(nests/a/) = %q\nwant %q", got, want)
		}
		all, err := b.store.List(t.Context(), "")
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != 28 {
			t.Fatalf("List(\"\") returned %d keys, want 28: %q", len(all), all)
		}
		none, err := b.store.List(t.Context(), "nothing/")
		if err != nil || len(none) != 0 {
			t.Fatalf("List(nothing/) = %q, %v; want no keys", none, err)
		}
	}},
	{"DeleteExistingAndMissing", func(t *testing.T, srv *testServer) {
		b := setup(t, srv)
		mustPut(t, b.store, "nests/n1/t1.pdf", []byte("pdf"))
		mustPut(t, b.store, "nests/n1/t2.pdf", []byte("pdf"))

		for range 2 { // the second delete finds nothing and must still succeed
			if err := b.store.Delete(t.Context(), "nests/n1/t1.pdf"); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.store.Delete(t.Context(), "never/existed.pdf"); err != nil {
			t.Fatalf("Delete of a never-written key: %v", err)
		}
		if _, err := b.store.Get(t.Context(), "nests/n1/t1.pdf"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Get after Delete: %v, want ErrNotFound", err)
		}
		keys, err := b.store.List(t.Context(), "nests/")
		if err != nil || !slices.Equal(keys, []string{"nests/n1/t2.pdf"}) {
			t.Fatalf("List = %q, %v; want only the other object", keys, err)
		}
	}},
	{"GetMissingIsNotFound", func(t *testing.T, srv *testServer) {
		b := setup(t, srv)
		_, err := b.store.Get(t.Context(), "nests/missing.pdf")
		if !errors.Is(err, ErrNotFound) {
			t.Fatalf("Get missing: %v, want ErrNotFound", err)
		}
		if Transient(err) {
			t.Errorf("Transient(%v) = true, want false", err)
		}
		if !strings.HasPrefix(err.Error(), "blob: get nests/missing.pdf: ") {
			t.Errorf("error %q lacks the package and operation prefix", err)
		}
	}},
	{"PresignGetServesTheObject", func(t *testing.T, srv *testServer) {
		b := setup(t, srv)
		body := randomBytes(t, 4096)
		mustPut(t, b.store, "nests/n1/shared file.pdf", body) // a space needs escaping

		url, err := b.store.PresignGet(t.Context(), "nests/n1/shared file.pdf", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		status, got := httpGet(t, url)
		if status != http.StatusOK || !bytes.Equal(got, body) {
			t.Fatalf("GET presigned URL: %d, %d bytes; want 200 and the %d bytes put", status, len(got), len(body))
		}
	}},
	{"PresignGetExpiredIsRefused", func(t *testing.T, srv *testServer) {
		if !srv.verifiesSignatures {
			t.Skip("gofakes3 checks neither signatures nor expiry of presigned URLs")
		}
		b := setup(t, srv)
		mustPut(t, b.store, "nests/n1/t1.pdf", []byte("pdf"))

		// Signed an hour ago with a one-second lifetime: expired without
		// waiting.
		url, err := b.store.presignGet(t.Context(), "nests/n1/t1.pdf", time.Second, signedAt(time.Now().Add(-time.Hour)))
		if err != nil {
			t.Fatal(err)
		}
		if status, body := httpGet(t, url); status != http.StatusForbidden {
			t.Fatalf("GET expired URL: %d %s; want 403", status, body)
		}
	}},
	{"MissingBucketIsPermanent", func(t *testing.T, srv *testServer) {
		store, err := newStore(t.Context(), srv.config(srv.newBucketName(t)), quickRetry)
		if err != nil {
			t.Fatal(err)
		}
		_, putErr := store.Put(t.Context(), "k", []byte("x"), "")
		_, getErr := store.Get(t.Context(), "k")
		for _, err := range []error{putErr, getErr, store.Ping(t.Context())} {
			if err == nil || Transient(err) || errors.Is(err, ErrNotFound) {
				t.Errorf("on a missing bucket got %v (transient %v); want a permanent error, not ErrNotFound", err, Transient(err))
			}
		}
		if code := errorCode(putErr); code != "NoSuchBucket" {
			t.Errorf("Put error code %q, want NoSuchBucket", code)
		}
	}},
	{"WrongSecretIsPermanent", func(t *testing.T, srv *testServer) {
		if !srv.verifiesSignatures {
			t.Skip("gofakes3 accepts any credentials")
		}
		b := setup(t, srv)
		cfg := srv.config(b.store.Bucket())
		cfg.SecretKey = "wrong-" + cfg.SecretKey
		store, err := newStore(t.Context(), cfg, quickRetry)
		if err != nil {
			t.Fatal(err)
		}
		_, putErr := store.Put(t.Context(), "k", []byte("x"), "")
		for _, err := range []error{putErr, store.Ping(t.Context())} {
			if err == nil || Transient(err) || httpStatus(err) != http.StatusForbidden {
				t.Errorf("with a wrong secret got %v (transient %v); want a permanent 403", err, Transient(err))
			}
		}
	}},
	{"CorruptedUploadIsRefused", func(t *testing.T, srv *testServer) {
		b := setup(t, srv)
		broken, err := newStore(t.Context(), srv.config(b.store.Bucket()), quickRetry, func(o *s3.Options) {
			o.HTTPClient = &http.Client{Transport: corruptingTransport{}}
		})
		if err != nil {
			t.Fatal(err)
		}
		_, err = broken.Put(t.Context(), "nests/n1/t1.pdf", randomBytes(t, 1024), "application/pdf")
		if err == nil {
			t.Fatal("Put with a body damaged in transit succeeded")
		}
		if !Transient(err) {
			t.Errorf("Transient(%v) = false; a damaged upload is worth retrying", err)
		}
		if _, err := b.store.Get(t.Context(), "nests/n1/t1.pdf"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("after the refused upload Get = %v, want ErrNotFound", err)
		}
	}},
	{"CorruptedDownloadIsDetected", func(t *testing.T, srv *testServer) {
		b := setup(t, srv)
		mustPut(t, b.store, "nests/n1/t1.pdf", randomBytes(t, 1024))
		broken, err := newStore(t.Context(), srv.config(b.store.Bucket()), quickRetry, func(o *s3.Options) {
			o.HTTPClient = &http.Client{Transport: corruptingTransport{}}
		})
		if err != nil {
			t.Fatal(err)
		}
		// Both servers return the SHA-256 checksum Put sent, which the SDK
		// checks against the body it reads.
		_, err = broken.Get(t.Context(), "nests/n1/t1.pdf")
		if err == nil {
			t.Fatal("Get of a body damaged in transit succeeded")
		}
		if !Transient(err) || errors.Is(err, ErrNotFound) {
			t.Fatalf("Get of a damaged body: %v (transient %v); want transient, not ErrNotFound", err, Transient(err))
		}
	}},
	{"CanceledContext", func(t *testing.T, srv *testServer) {
		b := setup(t, srv)
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		_, err := b.store.Put(ctx, "k", []byte("x"), "")
		if !errors.Is(err, context.Canceled) || Transient(err) {
			t.Fatalf("Put with a canceled context: %v (transient %v)", err, Transient(err))
		}
		if _, err := b.store.Get(t.Context(), "k"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Get after the canceled Put: %v, want ErrNotFound", err)
		}
	}},
}

// TestStore runs the same suite against the embedded gofakes3 server and a real
// S3 gateway (versitygw).
func TestStore(t *testing.T) {
	t.Parallel()
	backends := []struct {
		name  string
		start func(t *testing.T) *testServer
	}{
		{"gofakes3", startGofakes3},
		{"versitygw", startVersitygw},
	}
	for _, backend := range backends {
		t.Run(backend.name, func(t *testing.T) {
			t.Parallel()
			srv := backend.start(t)
			for _, tc := range storeCases {
				t.Run(tc.name, func(t *testing.T) {
					t.Parallel()
					tc.run(t, srv)
				})
			}
		})
	}
}

func TestNewRejectsIncompleteConfig(t *testing.T) {
	t.Parallel()
	for _, cfg := range []Config{
		{},
		{Bucket: "b", AccessKey: "only-the-access-key"},
		{Bucket: "b", SecretKey: "only-the-secret"},
	} {
		if _, err := New(t.Context(), cfg); err == nil {
			t.Errorf("New(%+v) succeeded", cfg)
		}
	}
}

func TestPresignGetRejectsBadTTL(t *testing.T) {
	t.Parallel()
	store, err := New(t.Context(), Config{Endpoint: "http://127.0.0.1:1", Bucket: "b", PathStyle: true, AccessKey: "a", SecretKey: "s"})
	if err != nil {
		t.Fatal(err)
	}
	for _, ttl := range []time.Duration{0, -time.Second, 8 * 24 * time.Hour} {
		if _, err := store.PresignGet(t.Context(), "k", ttl); err == nil {
			t.Errorf("PresignGet with ttl %s succeeded", ttl)
		}
	}
}

// testClient has a transport of its own: httptest.Server.Close closes
// http.DefaultTransport's idle connections, which breaks a request that a
// parallel test is starting on one of them ("CloseIdleConnections called").
var testClient = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}

func httpGet(t *testing.T, url string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := testClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, body
}

// signedAt makes a presigned URL look as if it had been signed at the given time.
func signedAt(at time.Time) func(*s3.PresignOptions) {
	return func(o *s3.PresignOptions) {
		o.Presigner = clockedPresigner{
			signer: v4.NewSigner(func(so *v4.SignerOptions) { so.DisableURIPathEscaping = true }),
			at:     at,
		}
	}
}

type clockedPresigner struct {
	signer *v4.Signer
	at     time.Time
}

func (p clockedPresigner) PresignHTTP(ctx context.Context, creds aws.Credentials, r *http.Request, payloadHash, service, region string, _ time.Time, optFns ...func(*v4.SignerOptions)) (string, http.Header, error) {
	return p.signer.PresignHTTP(ctx, creds, r, payloadHash, service, region, p.at, optFns...)
}

// corruptingTransport flips one byte of every PUT body after the SDK has
// checksummed and signed it, and one byte of every GET response body, like a
// faulty network path.
type corruptingTransport struct{}

func (corruptingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodGet {
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			return resp, err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		if len(body) > 0 {
			body[len(body)/2] ^= 0xff
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		return resp, nil
	}
	if req.Method != http.MethodPut || req.Body == nil || req.ContentLength == 0 {
		return http.DefaultTransport.RoundTrip(req)
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	body[len(body)/2] ^= 0xff
	damaged := req.Clone(req.Context())
	damaged.Body = io.NopCloser(bytes.NewReader(body))
	damaged.GetBody = nil
	return http.DefaultTransport.RoundTrip(damaged)
}
