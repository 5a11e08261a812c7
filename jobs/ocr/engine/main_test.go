package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocr/internal/ocrtest"
	"github.com/dungji/dungji/jobs/ocr/pageimage"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// The documents the tests read, rendered by the registry simulator.
const (
	testUniqueNo = ocrtest.UniqueNo
	testAddress  = ocrtest.Address
	nestOnePage  = ocrtest.NestOnePage
	nestLong     = "nest-2" // 4 pages, a long history
	testSecret   = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	testKey      = "internal-key-for-tests"
	waitFor      = 60 * time.Second // the deadline of every wait on an event
)

// testDocument is a simulated registry document and its content.
type testDocument struct {
	reg issuer.Registry
	pdf []byte
}

// document renders the registry of nestID (ocrtest.Render: cached).
func document(t testing.TB, nestID string, imageOnly bool) testDocument {
	t.Helper()
	d := ocrtest.Render(t, nestID, imageOnly)
	return testDocument{reg: d.Reg, pdf: d.PDF}
}

// testLogger writes to the test's output.
func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// docServer serves documents: /doc/{name} from docs, /missing is 404,
// /slow answers only when release is closed (or the request is cancelled)
// and signals each request it receives on slowCalled.
type docServer struct {
	*httptest.Server
	slowCalled chan struct{}
	release    chan struct{}
}

func newDocServer(t *testing.T, docs map[string][]byte) *docServer {
	t.Helper()
	d := &docServer{slowCalled: make(chan struct{}, 16), release: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /doc/{name}", func(w http.ResponseWriter, r *http.Request) {
		b, ok := docs[r.PathValue("name")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/pdf")
		w.Write(b)
	})
	mux.HandleFunc("GET /slow", func(w http.ResponseWriter, r *http.Request) {
		d.slowCalled <- struct{}{}
		select {
		case <-d.release:
		case <-r.Context().Done():
		}
		http.Error(w, "gone", http.StatusNotFound)
	})
	d.Server = httptest.NewServer(mux)
	var once sync.Once
	t.Cleanup(func() {
		once.Do(func() { close(d.release) })
		d.Close()
	})
	return d
}

// callback is one request a callbackReceiver received.
type callback struct {
	header http.Header
	body   []byte
	job    ocr.Job
}

// callbackReceiver plays our service's callback endpoint; status decides the
// answer to the nth request (from 1), 200 when nil.
type callbackReceiver struct {
	*httptest.Server
	received chan callback
	mu       sync.Mutex
	n        int
}

func newCallbackReceiver(t *testing.T, status func(n int) int) *callbackReceiver {
	t.Helper()
	c := &callbackReceiver{received: make(chan callback, 64)}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		cb := callback{header: r.Header.Clone(), body: body}
		if err := json.Unmarshal(body, &cb.job); err != nil {
			t.Errorf("callback body is not a job: %v: %s", err, body)
		}
		c.mu.Lock()
		c.n++
		n := c.n
		c.mu.Unlock()
		c.received <- cb
		code := http.StatusOK
		if status != nil {
			code = status(n)
		}
		w.WriteHeader(code)
	}))
	t.Cleanup(c.Close)
	return c
}

func (c *callbackReceiver) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// next waits for the next callback.
func (c *callbackReceiver) next(t *testing.T) callback {
	t.Helper()
	select {
	case cb := <-c.received:
		return cb
	case <-time.After(waitFor):
		t.Fatalf("no callback within %s", waitFor)
		return callback{}
	}
}

// deliveryOutcome is a callback delivery's end, as the sender reports it.
type deliveryOutcome struct {
	jobID    string
	attempts int
	err      error
}

// watchDeliveries reports every callback delivery's end on the returned
// channel. Call it before the first Submit.
func watchDeliveries(c *callbackSender) <-chan deliveryOutcome {
	ch := make(chan deliveryOutcome, 64)
	c.done = func(jobID string, attempts int, err error) { ch <- deliveryOutcome{jobID, attempts, err} }
	return ch
}

func nextOutcome(t *testing.T, ch <-chan deliveryOutcome) deliveryOutcome {
	t.Helper()
	select {
	case o := <-ch:
		return o
	case <-time.After(waitFor):
		t.Fatalf("no callback delivery ended within %s", waitFor)
		return deliveryOutcome{}
	}
}

// testBundle is a built-in engine served over HTTP.
type testBundle struct {
	server     *Server
	http       *httptest.Server
	deliveries <-chan deliveryOutcome
}

func setup(t *testing.T, opts ServerOptions) *testBundle {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = testLogger(t)
	}
	if opts.CallbackBackoff == 0 {
		opts.CallbackBackoff = 10 * time.Millisecond
	}
	s, err := NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	b := &testBundle{server: s, deliveries: watchDeliveries(s.jobs.callbacks)}
	b.http = httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		b.http.Close()
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return b
}

// postJSON posts v and decodes the answer into out, returning the status.
func postJSON(t *testing.T, url string, v, out any) int {
	t.Helper()
	body, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return do(t, http.MethodPost, url, "application/json", body, out)
}

// testClient has a transport of its own: httptest.Server.Close closes
// http.DefaultTransport's idle connections, which breaks a request that a
// parallel test is starting on one of them ("CloseIdleConnections called").
var testClient = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}

func do(t *testing.T, method, url, contentType string, body []byte, out any) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := testClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("%s %s: Content-Type %q, want JSON: %s", method, url, ct, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, url, err, data)
		}
	}
	return resp.StatusCode
}

func decodeInto(t *testing.T, data []byte, out any) {
	t.Helper()
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
}

// cleanPage is the first page of a simulated registry as a 200 dpi image
// (ocrtest.CleanPage), the page pageimage's tests prepare.
func cleanPage(t *testing.T) *image.Gray { return ocrtest.CleanPage(t) }

// tesseractReading reads img with r's Tesseract as a page is first read
// (kor+eng, tesseractPSM), its files beside root, and returns its txt and
// TSV.
func tesseractReading(t *testing.T, r *reader, img *image.Gray, root string) (txt, tsv []byte) {
	t.Helper()
	if err := pageimage.WritePGM(root+".pgm", img); err != nil {
		t.Fatal(err)
	}
	if _, err := run(context.Background(), r.env, 1<<20, tesseractMemory, r.tools.tesseract, root+".pgm", root, "-l", "kor+eng", "--psm", tesseractPSM, "txt", "tsv"); err != nil {
		t.Fatal(err)
	}
	txt, err := os.ReadFile(root + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	tsv, err = os.ReadFile(root + ".tsv")
	if err != nil {
		t.Fatal(err)
	}
	return txt, tsv
}

// paperPage is ocrtest.PaperPage.
var paperPage = ocrtest.PaperPage
