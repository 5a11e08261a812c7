// Package blob stores issued registry PDFs in an S3-compatible object store.
//
// Keys are chosen by the caller and are expected to be deterministic (for example
// derived from the task id), so a retried upload overwrites the same object instead
// of adding another one. For development, StartEmbedded runs an S3-compatible
// server in-process, backed by a file on local disk.
package blob

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

const (
	defaultRegion      = "us-east-1"
	defaultContentType = "application/octet-stream"

	// maxAttempts bounds the SDK's own retries of one call. Callers (River
	// workers) retry whole jobs with their own backoff, so a single call should
	// give up quickly rather than hold a worker for long.
	maxAttempts = 3
	maxBackoff  = 2 * time.Second

	// maxPresignTTL is the longest validity SigV4 allows for a presigned URL.
	maxPresignTTL = 7 * 24 * time.Hour
)

// Config describes where and how to reach the object store.
type Config struct {
	// Endpoint is the base URL of an S3-compatible server, such as
	// "http://127.0.0.1:9000". Empty uses AWS's own endpoint resolution.
	Endpoint string
	// Region defaults to "us-east-1".
	Region string
	// Bucket holds every object of this Store.
	Bucket string
	// PathStyle addresses buckets as http://host/bucket/key instead of
	// http://bucket.host/key; most self-hosted servers need it.
	PathStyle bool
	// AccessKey and SecretKey are static credentials. When both are empty the
	// AWS default credential chain is used (environment, shared config, web
	// identity, instance role).
	AccessKey, SecretKey string
}

// Object describes a stored object as written by Put.
type Object struct {
	Key         string
	Size        int64
	SHA256      string // hex
	ContentType string
}

// Store reads and writes objects in one bucket. It is safe for concurrent use.
type Store struct {
	bucket  string
	region  string
	client  *s3.Client
	presign *s3.PresignClient

	// listPageSize is the MaxKeys of each List request; zero leaves it to the
	// server (1000 on S3). Tests lower it to exercise pagination.
	listPageSize int32
}

// New returns a Store for cfg. It makes no network call except, when no static
// credentials are given, whatever the default credential chain needs to load its
// configuration; use Ping or EnsureBucket to check that the store is reachable.
func New(ctx context.Context, cfg Config) (*Store, error) {
	return newStore(ctx, cfg)
}

// newStore is New with extra client options, which tests use to shorten the
// retry backoff or to put a misbehaving transport in the way.
func newStore(ctx context.Context, cfg Config, extra ...func(*s3.Options)) (*Store, error) {
	if cfg.Bucket == "" {
		return nil, errors.New("blob: config: bucket is required")
	}
	if (cfg.AccessKey == "") != (cfg.SecretKey == "") {
		return nil, errors.New("blob: config: access key and secret key must be set together")
	}
	if cfg.Region == "" {
		cfg.Region = defaultRegion
	}

	loadOpts := []func(*config.LoadOptions) error{config.WithRegion(cfg.Region)}
	if cfg.AccessKey != "" {
		loadOpts = append(loadOpts, config.WithCredentialsProvider(
			credentials.NewStaticCredentialsProvider(cfg.AccessKey, cfg.SecretKey, "")))
	}
	awsCfg, err := config.LoadDefaultConfig(ctx, loadOpts...)
	if err != nil {
		return nil, fmt.Errorf("blob: load aws config: %w", err)
	}

	opts := []func(*s3.Options){func(o *s3.Options) {
		if cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(cfg.Endpoint)
		}
		o.UsePathStyle = cfg.PathStyle
		o.Retryer = retry.NewStandard(func(so *retry.StandardOptions) {
			so.MaxAttempts = maxAttempts
			so.MaxBackoff = maxBackoff
		})
		// Servers that store no checksum (gofakes3) would otherwise log a
		// warning on every Get; where one is stored, it is still verified.
		o.DisableLogOutputChecksumValidationSkipped = true
	}}
	client := s3.NewFromConfig(awsCfg, append(opts, extra...)...)

	return &Store{
		bucket:  cfg.Bucket,
		region:  cfg.Region,
		client:  client,
		presign: s3.NewPresignClient(client),
	}, nil
}

// Bucket returns the name of the bucket the Store writes to.
func (s *Store) Bucket() string { return s.bucket }

// EnsureBucket creates the bucket unless it already exists and is reachable with
// the Store's credentials.
func (s *Store) EnsureBucket(ctx context.Context) error {
	_, err := s.client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: &s.bucket})
	if err == nil {
		return nil
	}
	if httpStatus(err) != http.StatusNotFound {
		return s.bucketError("ensure", err)
	}

	in := &s3.CreateBucketInput{Bucket: &s.bucket}
	if s.region != defaultRegion {
		// us-east-1 is the one region that rejects an explicit constraint.
		in.CreateBucketConfiguration = &types.CreateBucketConfiguration{
			LocationConstraint: types.BucketLocationConstraint(s.region),
		}
	}
	_, err = s.client.CreateBucket(ctx, in)
	switch errorCode(err) {
	case "":
		return nil
	case "BucketAlreadyOwnedByYou":
		return nil
	case "BucketAlreadyExists":
		// Either someone else owns the name, or another process created it
		// since our HeadBucket (some servers, gofakes3 among them, also say
		// this to the owner). Only a bucket we can reach will do.
		if _, headErr := s.client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: &s.bucket}); headErr == nil {
			return nil
		}
	}
	return s.bucketError("ensure", err)
}

// Put stores body at key, replacing any object already there, and returns what
// was stored. It sends both a SHA-256 checksum and Content-MD5, so a body
// corrupted on the way is refused by the server instead of stored.
func (s *Store) Put(ctx context.Context, key string, body []byte, contentType string) (Object, error) {
	if contentType == "" {
		contentType = defaultContentType
	}
	sum := sha256.Sum256(body)
	md5Sum := md5.Sum(body)

	_, err := s.client.PutObject(ctx, &s3.PutObjectInput{
		Bucket:        &s.bucket,
		Key:           &key,
		Body:          bytes.NewReader(body),
		ContentLength: aws.Int64(int64(len(body))),
		ContentType:   &contentType,
		// S3 and most gateways verify the SHA-256 checksum and keep it, so a
		// later Get is verified too; gofakes3 only checks Content-MD5.
		ChecksumSHA256: aws.String(base64.StdEncoding.EncodeToString(sum[:])),
		ContentMD5:     aws.String(base64.StdEncoding.EncodeToString(md5Sum[:])),
	})
	if err != nil {
		return Object{}, s.objectError("put", key, err)
	}
	return Object{
		Key:         key,
		Size:        int64(len(body)),
		SHA256:      hex.EncodeToString(sum[:]),
		ContentType: contentType,
	}, nil
}

// Get returns the content of the object at key. A missing object gives an error
// that matches ErrNotFound.
func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{
		Bucket:       &s.bucket,
		Key:          &key,
		ChecksumMode: types.ChecksumModeEnabled,
	})
	if err != nil {
		return nil, s.objectError("get", key, err)
	}
	defer out.Body.Close()
	// The SDK verifies a stored checksum while the body is read, so a body
	// damaged on the way fails here like a connection broken mid-way.
	body, err := io.ReadAll(out.Body)
	if err != nil {
		return nil, s.objectError("get", key, &bodyReadError{err})
	}
	return body, nil
}

// Delete removes the object at key. Deleting a missing object is not an error, so
// a retried cleanup is harmless.
func (s *Store) Delete(ctx context.Context, key string) error {
	_, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &s.bucket, Key: &key})
	if err != nil && !isNotFound(err) {
		return s.objectError("delete", key, err)
	}
	return nil
}

// List returns every key that starts with prefix, in the server's order (lexical
// on S3), following as many pages as the server needs.
func (s *Store) List(ctx context.Context, prefix string) ([]string, error) {
	in := &s3.ListObjectsV2Input{Bucket: &s.bucket, Prefix: &prefix}
	if s.listPageSize > 0 {
		in.MaxKeys = aws.Int32(s.listPageSize)
	}
	pages := s3.NewListObjectsV2Paginator(s.client, in, func(o *s3.ListObjectsV2PaginatorOptions) {
		// A server that hands back the token it was given would otherwise
		// keep this loop going forever.
		o.StopOnDuplicateToken = true
	})
	var keys []string
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, &opError{op: "list", subject: fmt.Sprintf("prefix %q", prefix), err: err}
		}
		for _, obj := range page.Contents {
			keys = append(keys, aws.ToString(obj.Key))
		}
	}
	return keys, nil
}

// PresignGet returns a URL that fetches the object at key with a plain GET,
// without credentials, until ttl has passed (at most 7 days). The object need not
// exist yet.
func (s *Store) PresignGet(ctx context.Context, key string, ttl time.Duration) (string, error) {
	return s.presignGet(ctx, key, ttl)
}

func (s *Store) presignGet(ctx context.Context, key string, ttl time.Duration, opts ...func(*s3.PresignOptions)) (string, error) {
	if ttl <= 0 || ttl > maxPresignTTL {
		return "", &opError{op: "presign", subject: key, err: fmt.Errorf("ttl %s out of range (0, %s]", ttl, maxPresignTTL)}
	}
	req, err := s.presign.PresignGetObject(ctx, &s3.GetObjectInput{Bucket: &s.bucket, Key: &key},
		append([]func(*s3.PresignOptions){s3.WithPresignExpires(ttl)}, opts...)...)
	if err != nil {
		return "", s.objectError("presign", key, err)
	}
	return req.URL, nil
}

// Ping checks that the bucket is reachable with the Store's credentials, for
// readiness probes.
func (s *Store) Ping(ctx context.Context) error {
	if _, err := s.client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: &s.bucket}); err != nil {
		return s.bucketError("ping", err)
	}
	return nil
}

func (s *Store) bucketError(op string, err error) error {
	return &opError{op: op, subject: "bucket " + s.bucket, err: err}
}

func (s *Store) objectError(op, key string, err error) error {
	return &opError{op: op, subject: key, err: err, notFound: isNotFound(err)}
}
