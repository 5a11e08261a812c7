package blob

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// The limits a real S3 applies to signed requests.
const (
	// maxClockSkew is how far a header-signed request's X-Amz-Date may be
	// from the server's clock (S3: RequestTimeTooSkewed).
	maxClockSkew = 15 * time.Minute
	// maxSignedBody bounds a body whose SHA-256 is checked against
	// X-Amz-Content-Sha256 (it is read whole first).
	maxSignedBody = 64 << 20

	sigV4Algorithm = "AWS4-HMAC-SHA256"
	amzDateFormat  = "20060102T150405Z"
)

// sigV4Verifier authenticates every request like S3 does, before next sees
// it: an Authorization header (SigV4) or a presigned query (SigV4, within
// X-Amz-Expires) whose signature equals the one this server computes with
// aws-sdk-go-v2's signer from the same request and the one known secret.
// Anything else — no signature, another key, a changed path, query, header
// or expiry, an expired URL, a body that does not match its signed hash —
// is 403 (400 for a malformed signature), as S3 answers.
type sigV4Verifier struct {
	accessKey, secretKey string
	next                 http.Handler
	now                  func() time.Time
	signer               *v4.Signer
}

func newSigV4Verifier(accessKey, secretKey string, next http.Handler) *sigV4Verifier {
	return &sigV4Verifier{accessKey: accessKey, secretKey: secretKey, next: next, now: time.Now,
		signer: v4.NewSigner(func(o *v4.SignerOptions) {
			// As the S3 client signs: the path is already escaped, and
			// presigned headers were hoisted into the query by the signer
			// that made the URL.
			o.DisableURIPathEscaping = true
			o.DisableHeaderHoisting = true
		})}
}

// s3Error is S3's error body.
type s3Error struct {
	XMLName xml.Name `xml:"Error"`
	Code    string   `xml:"Code"`
	Message string   `xml:"Message"`
}

type authError struct {
	status        int
	code, message string
}

func (e *authError) Error() string { return e.code + ": " + e.message }

func denied(code, format string, args ...any) *authError {
	return &authError{status: http.StatusForbidden, code: code, message: fmt.Sprintf(format, args...)}
}

func (v *sigV4Verifier) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var err error
	if r.URL.Query().Has("X-Amz-Signature") || r.URL.Query().Has("X-Amz-Algorithm") {
		err = v.verifyPresigned(r)
	} else {
		err = v.verifyHeader(r)
	}
	var ae *authError
	if errors.As(err, &ae) {
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(ae.status)
		_ = xml.NewEncoder(w).Encode(s3Error{Code: ae.code, Message: ae.message})
		return
	}
	v.next.ServeHTTP(w, r)
}

// scope is a parsed credential: KEY/DATE/REGION/s3/aws4_request.
type scope struct{ key, date, region string }

func (v *sigV4Verifier) parseCredential(cred string) (scope, error) {
	parts := strings.Split(cred, "/")
	if len(parts) != 5 || parts[3] != "s3" || parts[4] != "aws4_request" {
		return scope{}, &authError{status: http.StatusBadRequest, code: "AuthorizationQueryParametersError", message: "malformed credential"}
	}
	if subtle.ConstantTimeCompare([]byte(parts[0]), []byte(v.accessKey)) != 1 {
		return scope{}, denied("InvalidAccessKeyId", "the access key does not exist")
	}
	return scope{key: parts[0], date: parts[1], region: parts[2]}, nil
}

// canonicalCopy is a request carrying only what r signed: the escaped path
// as sent, the query, and the signed headers.
func canonicalCopy(ctx context.Context, r *http.Request, query url.Values, signed []string) *http.Request {
	path := r.RequestURI
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	u := &url.URL{Scheme: "http", Host: r.Host, Opaque: path, RawQuery: query.Encode()}
	c := &http.Request{Method: r.Method, URL: u, Host: r.Host, Header: http.Header{}}
	c = c.WithContext(ctx)
	for _, h := range signed {
		switch h {
		case "host":
		case "content-length":
			c.ContentLength = r.ContentLength
		default:
			for _, val := range r.Header.Values(h) {
				c.Header.Add(h, val)
			}
		}
	}
	return c
}

func (v *sigV4Verifier) verifyPresigned(r *http.Request) error {
	q := r.URL.Query()
	if q.Get("X-Amz-Algorithm") != sigV4Algorithm {
		return &authError{status: http.StatusBadRequest, code: "AuthorizationQueryParametersError", message: "X-Amz-Algorithm must be " + sigV4Algorithm}
	}
	sc, err := v.parseCredential(q.Get("X-Amz-Credential"))
	if err != nil {
		return err
	}
	at, err := time.Parse(amzDateFormat, q.Get("X-Amz-Date"))
	if err != nil {
		return &authError{status: http.StatusBadRequest, code: "AuthorizationQueryParametersError", message: "X-Amz-Date is malformed"}
	}
	expires, err := strconv.Atoi(q.Get("X-Amz-Expires"))
	if err != nil || expires < 1 || expires > int(maxPresignTTL/time.Second) {
		return &authError{status: http.StatusBadRequest, code: "AuthorizationQueryParametersError", message: "X-Amz-Expires must be 1 to 604800 seconds"}
	}
	now := v.now()
	if at.After(now.Add(maxClockSkew)) {
		return denied("AccessDenied", "request is not valid yet")
	}
	if now.After(at.Add(time.Duration(expires) * time.Second)) {
		return denied("AccessDenied", "Request has expired")
	}
	if at.Format("20060102") != sc.date {
		return denied("SignatureDoesNotMatch", "X-Amz-Date does not match the credential's date")
	}
	got := q.Get("X-Amz-Signature")
	signed := strings.Split(q.Get("X-Amz-SignedHeaders"), ";")
	q.Del("X-Amz-Signature")
	c := canonicalCopy(r.Context(), r, q, signed)
	uri, _, err := v.signer.PresignHTTP(r.Context(), v.credentials(), c, "UNSIGNED-PAYLOAD", "s3", sc.region, at)
	if err != nil {
		return denied("SignatureDoesNotMatch", "cannot compute the signature")
	}
	want := ""
	if pu, err := url.Parse(uri); err == nil {
		want = pu.Query().Get("X-Amz-Signature")
	}
	if want == "" || subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
		return denied("SignatureDoesNotMatch", "the request signature we calculated does not match the signature you provided")
	}
	return nil
}

func (v *sigV4Verifier) verifyHeader(r *http.Request) error {
	auth := r.Header.Get("Authorization")
	if auth == "" {
		return denied("AccessDenied", "anonymous access is not allowed")
	}
	rest, ok := strings.CutPrefix(auth, sigV4Algorithm+" ")
	if !ok {
		return &authError{status: http.StatusBadRequest, code: "InvalidArgument", message: "only " + sigV4Algorithm + " is supported"}
	}
	fields := map[string]string{}
	for _, f := range strings.Split(rest, ",") {
		k, val, _ := strings.Cut(strings.TrimSpace(f), "=")
		fields[k] = val
	}
	sc, err := v.parseCredential(fields["Credential"])
	if err != nil {
		return err
	}
	at, err := time.Parse(amzDateFormat, r.Header.Get("X-Amz-Date"))
	if err != nil {
		return &authError{status: http.StatusBadRequest, code: "AuthorizationHeaderMalformed", message: "X-Amz-Date is missing or malformed"}
	}
	if d := v.now().Sub(at); d > maxClockSkew || d < -maxClockSkew {
		return denied("RequestTimeTooSkewed", "the difference between the request time and the server's time is too large")
	}
	if at.Format("20060102") != sc.date {
		return denied("SignatureDoesNotMatch", "X-Amz-Date does not match the credential's date")
	}
	payload := r.Header.Get("X-Amz-Content-Sha256")
	if payload == "" {
		return &authError{status: http.StatusBadRequest, code: "InvalidRequest", message: "missing X-Amz-Content-Sha256"}
	}
	signed := strings.Split(fields["SignedHeaders"], ";")
	c := canonicalCopy(r.Context(), r, r.URL.Query(), signed)
	if err := v.signer.SignHTTP(r.Context(), v.credentials(), c, payload, "s3", sc.region, at); err != nil {
		return denied("SignatureDoesNotMatch", "cannot compute the signature")
	}
	want := ""
	if _, s, ok := strings.Cut(c.Header.Get("Authorization"), "Signature="); ok {
		want = s
	}
	if want == "" || subtle.ConstantTimeCompare([]byte(fields["Signature"]), []byte(want)) != 1 {
		return denied("SignatureDoesNotMatch", "the request signature we calculated does not match the signature you provided")
	}
	// A signed payload hash must be the body's.
	if len(payload) == 64 {
		if _, err := hex.DecodeString(payload); err == nil {
			body, err := io.ReadAll(io.LimitReader(r.Body, maxSignedBody+1))
			if err != nil {
				return &authError{status: http.StatusBadRequest, code: "IncompleteBody", message: "cannot read the body"}
			}
			if len(body) > maxSignedBody {
				return &authError{status: http.StatusBadRequest, code: "EntityTooLarge", message: "body too large for this server"}
			}
			sum := sha256.Sum256(body)
			if subtle.ConstantTimeCompare([]byte(hex.EncodeToString(sum[:])), []byte(strings.ToLower(payload))) != 1 {
				return &authError{status: http.StatusBadRequest, code: "XAmzContentSHA256Mismatch", message: "the body does not match X-Amz-Content-Sha256"}
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
	}
	return nil
}

func (v *sigV4Verifier) credentials() aws.Credentials {
	return aws.Credentials{AccessKeyID: v.accessKey, SecretAccessKey: v.secretKey}
}
