package blob

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3bolt"
	bolt "go.etcd.io/bbolt"
)

// EmbeddedFile is the name of the database file StartEmbedded keeps in its
// directory.
const EmbeddedFile = "objects.bolt"

// CredentialsFile is the file StartEmbedded keeps the server's credentials
// in, beside EmbeddedFile: drawn at random on the first start of an install
// and kept (0600), so presigned URLs outlive a restart. gofakes3 checks no
// signatures; the server verifies them in front of it (SigV4 headers and
// presigned URLs with their expiry, re-signed with aws-sdk-go-v2's signer),
// so a request without these credentials, or a presigned URL that is
// expired or changed, gets 403 as from a real store. Credentials written in
// the source once let anyone who could reach the port read every object.
const CredentialsFile = "credentials"

// Embedded is an S3-compatible server running in this process on a loopback
// address, for development and tests. Objects are kept in one bbolt database file
// (EmbeddedFile) under the directory given to StartEmbedded, so they survive a
// restart.
type Embedded struct {
	// AccessKey and SecretKey are credentials the server accepts.
	AccessKey, SecretKey string

	url       string
	srv       *http.Server
	db        *bolt.DB
	served    chan struct{}
	closeOnce sync.Once
	closeErr  error
}

// StartEmbedded starts an embedded server listening on addr (such as
// "127.0.0.1:0"), storing objects under dir, which is created if needed. addr
// must be a loopback address. The credentials are the install's own
// (CredentialsFile). ctx
// bounds the start only; the server runs until Close.
//
// Only one process can use dir at a time: a second StartEmbedded on the same dir
// fails after a few seconds instead of waiting.
func StartEmbedded(ctx context.Context, dir, addr string) (*Embedded, error) {
	if err := requireLoopback(addr); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("blob: embedded: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("blob: embedded: %w", err)
	}

	path := filepath.Join(dir, EmbeddedFile)
	// bbolt holds an exclusive lock on the file while open; without a
	// timeout a second server on the same dir would wait forever.
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 3 * time.Second})
	if errors.Is(err, bolt.ErrTimeout) {
		return nil, fmt.Errorf("blob: embedded: %s is in use by another process", path)
	}
	if err != nil {
		return nil, fmt.Errorf("blob: embedded: open %s: %w", path, err)
	}

	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("blob: embedded: %w", err)
	}

	access, secret, err := embeddedCredentials(filepath.Join(dir, CredentialsFile))
	if err != nil {
		ln.Close()
		db.Close()
		return nil, fmt.Errorf("blob: embedded: %w", err)
	}
	faker := gofakes3.New(&lockedBolt{Backend: s3bolt.New(db)})
	e := &Embedded{
		AccessKey: access,
		SecretKey: secret,
		url:       "http://" + ln.Addr().String(),
		srv: &http.Server{
			Handler:           newSigV4Verifier(access, secret, faker.Server()),
			ReadHeaderTimeout: 10 * time.Second,
		},
		db:     db,
		served: make(chan struct{}),
	}
	go func() {
		defer close(e.served)
		// Serve returns ErrServerClosed after Close, and nothing else is
		// expected; a listener failure would show as refused connections.
		_ = e.srv.Serve(ln)
	}()
	return e, nil
}

// URL returns the server's base URL, such as "http://127.0.0.1:41234".
func (e *Embedded) URL() string { return e.url }

// Config returns a Config that reaches bucket on this server.
func (e *Embedded) Config(bucket string) Config {
	return Config{
		Endpoint:  e.url,
		Region:    defaultRegion,
		Bucket:    bucket,
		PathStyle: true,
		AccessKey: e.AccessKey,
		SecretKey: e.SecretKey,
	}
}

// Close stops the server, letting requests in flight finish for a few seconds,
// and closes the database so that another StartEmbedded can open the directory.
// Calling Close more than once returns the first result.
func (e *Embedded) Close() error {
	e.closeOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err := e.srv.Shutdown(ctx)
		if err != nil {
			err = errors.Join(err, e.srv.Close())
		}
		<-e.served
		if dbErr := e.db.Close(); dbErr != nil {
			err = errors.Join(err, dbErr)
		}
		if err != nil {
			e.closeErr = fmt.Errorf("blob: embedded: close: %w", err)
		}
	})
	return e.closeErr
}

func requireLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("blob: embedded: address %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("blob: embedded: address %q is not loopback; the embedded server has no authentication", addr)
}

// embeddedCredentials reads the access key and secret kept at path, or
// draws new ones and keeps them there.
func embeddedCredentials(path string) (access, secret string, err error) {
	b, err := os.ReadFile(path)
	if err == nil {
		a, s, ok := strings.Cut(strings.TrimSpace(string(b)), "\n")
		if !ok || a == "" || s == "" {
			return "", "", fmt.Errorf("%s is not an access key and a secret on two lines: delete it to draw new ones", path)
		}
		return a, strings.TrimSpace(s), nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", "", err
	}
	k := make([]byte, 8+32)
	if _, err := rand.Read(k); err != nil {
		return "", "", err
	}
	access = "DUNGJI" + strings.ToUpper(hex.EncodeToString(k[:8]))
	secret = base64.RawURLEncoding.EncodeToString(k[8:])
	if err := os.WriteFile(path, []byte(access+"\n"+secret+"\n"), 0o600); err != nil {
		return "", "", err
	}
	return access, secret, nil
}
