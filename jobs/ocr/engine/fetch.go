package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/retry"
)

// DefaultMaxDocumentBytes is the largest document an engine fetches or
// accepts.
const DefaultMaxDocumentBytes = 50 << 20

// fetcher downloads the documents jobs name.
type fetcher struct {
	client   *http.Client
	maxBytes int64
	// attempts and backoff: a 5xx or network failure is tried again, up to
	// attempts in all, waiting by backoff in between, before the job fails.
	attempts int
	backoff  retry.Backoff
	timeout  time.Duration // per attempt
}

// fetch returns the document at rawURL. Failures are *ocr.JobError:
// DOCUMENT_UNAVAILABLE when the server refuses (4xx) or stays unreachable,
// UNREADABLE when the body is too large; or ctx.Err().
func (f *fetcher) fetch(ctx context.Context, rawURL string) ([]byte, error) {
	var last error
	for attempt := 1; ; attempt++ {
		body, again, err := f.fetchOnce(ctx, rawURL)
		if err == nil {
			return body, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		last = err
		if !again || attempt >= f.attempts {
			break
		}
		t := time.NewTimer(f.backoff.Delay("", attempt))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
	var je *ocr.JobError
	if errors.As(last, &je) {
		return nil, je
	}
	return nil, jobErrorf(ocr.CodeDocumentUnavailable, "fetch document: %v", last)
}

// fetchOnce makes one attempt; retry says whether another may succeed.
func (f *fetcher) fetchOnce(ctx context.Context, rawURL string) (body []byte, again bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, false, jobErrorf(ocr.CodeDocumentUnavailable, "fetch document: %v", err)
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, true, redactURL(err)
	}
	defer resp.Body.Close()
	switch {
	case retry.TransientStatus(resp.StatusCode):
		return nil, true, fmt.Errorf("document server answered %s", resp.Status)
	case resp.StatusCode != http.StatusOK:
		// A presigned URL that expired or was never valid: 403 from S3.
		return nil, false, jobErrorf(ocr.CodeDocumentUnavailable, "document server answered %s", resp.Status)
	}
	if resp.ContentLength > f.maxBytes {
		return nil, false, jobErrorf(ocr.CodeUnreadable, "the document is larger than %d bytes", f.maxBytes)
	}
	body, err = io.ReadAll(io.LimitReader(resp.Body, f.maxBytes+1))
	if err != nil {
		return nil, true, fmt.Errorf("read document: %w", redactURL(err))
	}
	if int64(len(body)) > f.maxBytes {
		return nil, false, jobErrorf(ocr.CodeUnreadable, "the document is larger than %d bytes", f.maxBytes)
	}
	return body, false, nil
}

// redactURL drops the query of a *url.Error's URL: a presigned URL's
// signature does not belong in job errors and logs.
func redactURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil && u.RawQuery != "" {
			u.RawQuery = "redacted"
			return &url.Error{Op: ue.Op, URL: u.String(), Err: ue.Err}
		}
	}
	return err
}

// checkURL validates a URL a request names: absolute http or https.
func checkURL(field, raw string) error {
	if len(raw) > 8<<10 {
		return jobErrorf(ocr.CodeBadRequest, "%s is longer than 8 KiB", field)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return jobErrorf(ocr.CodeBadRequest, "%s must be an absolute http or https URL", field)
	}
	return nil
}
