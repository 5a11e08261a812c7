package main

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/dungji/dungji/jobs"
	"github.com/dungji/dungji/jobs/ocr"
)

// ocrEnginePrefix is where the built-in OCR engine is mounted when OCR_URL
// and OCR_PADDLE_URL are unset.
const ocrEnginePrefix = "/internal/ocr-engine"

// ocrCallbackPath receives the engine's results.
const ocrCallbackPath = "/internal/ocr/callback"

// maxOCRCallbackBody bounds a callback: a result carries every page's text.
const maxOCRCallbackBody = 8 << 20

// keyTransport adds the internal key to every request.
type keyTransport struct {
	key  string
	base http.RoundTripper
}

func (t keyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(ocr.HeaderInternalAPIKey, t.key)
	return t.base.RoundTrip(r)
}

// requireKey guards an internal handler with the internal key, comparing in
// constant time against the current key and, during a rotation, the
// previous one.
func requireKey(current, previous string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !keyMatches(r.Header.Get(ocr.HeaderInternalAPIKey), current, previous) {
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "missing or wrong " + ocr.HeaderInternalAPIKey})
			return
		}
		h.ServeHTTP(w, r)
	})
}

func keyMatches(got, current, previous string) bool {
	if got == "" {
		return false
	}
	ok := subtle.ConstantTimeCompare([]byte(got), []byte(current)) == 1
	if previous != "" {
		ok = subtle.ConstantTimeCompare([]byte(got), []byte(previous)) == 1 || ok
	}
	return ok
}

// setupOCR chooses the OCR engine: OCR_URL (any engine speaking the
// contract), OCR_PADDLE_URL (a PaddleOCR serving deployment behind our async
// adapter) or the built-in engine, mounted on this server.
func (a *App) setupOCR() error {
	hc := &http.Client{Timeout: 2 * time.Minute, Transport: a.tracedTransport(keyTransport{key: a.cfg.OCRCallbackKey, base: http.DefaultTransport})}
	switch {
	case a.cfg.OCRURL != "":
		a.ocrEngine = ocr.NewHTTPEngine(a.cfg.OCRURL, hc)
	case a.cfg.OCRPaddleURL != "":
		pe, err := ocr.NewPaddleEngine(ocr.PaddleOptions{BaseURL: a.cfg.OCRPaddleURL, CallbackKey: a.cfg.OCRCallbackKey,
			SigningSecret: a.cfg.OCRSigningSecret})
		if err != nil {
			return fmt.Errorf("OCR_PADDLE_URL: %w", err)
		}
		a.ocrEngine = pe
	default:
		srv, err := ocr.NewServer(ocr.ServerOptions{
			Workers: a.cfg.OCREngineWorkers, SyncPageLimit: a.cfg.OCRSyncPageLimit,
			CallbackKey: a.cfg.OCRCallbackKey, SigningSecret: a.cfg.OCRSigningSecret, Logger: a.log,
		})
		if err != nil {
			return fmt.Errorf("built-in OCR engine: %w", err)
		}
		a.ocrServer = srv
		a.ocrEngine = ocr.NewHTTPEngine(a.base+ocrEnginePrefix, hc)
	}
	if a.cfg.OCRSigningSecret != "" {
		wh, err := standardwebhooks.NewWebhook(a.cfg.OCRSigningSecret)
		if err != nil {
			return fmt.Errorf("OCR_SIGNING_SECRET: %w", err)
		}
		a.ocrWebhook = wh
	}
	return nil
}

// ocrCallback receives an engine's result. It is exempt from user auth and
// checks, in order: body size (413), the internal key and, when a signing
// secret is configured, the Standard Webhooks signature (401), JSON (400), a
// job id (400, before any lookup); then the lifecycle applies it in one
// transaction. Duplicates and late results answer 200 and change nothing.
func (a *App) ocrCallback(w http.ResponseWriter, r *http.Request) {
	outcome := "rejected_internal"
	defer func() { a.callbacks.WithLabelValues(outcome).Inc() }()
	if r.ContentLength > maxOCRCallbackBody {
		outcome = "rejected_size"
		writeJSON(w, http.StatusRequestEntityTooLarge, map[string]string{"error": "body too large"})
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxOCRCallbackBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			outcome = "rejected_size"
			writeJSON(w, http.StatusRequestEntityTooLarge, map[string]string{"error": "body too large"})
			return
		}
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "could not read the body"})
		return
	}
	if !keyMatches(r.Header.Get(ocr.HeaderInternalAPIKey), a.cfg.OCRCallbackKey, a.cfg.OCRCallbackKeyPrevious) {
		outcome = "rejected_key"
		a.log.Warn("OCR callback refused: internal key", "remote", r.RemoteAddr)
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "missing or wrong " + ocr.HeaderInternalAPIKey})
		return
	}
	webhookID := ""
	if a.ocrWebhook != nil {
		if err := a.ocrWebhook.Verify(body, r.Header); err != nil {
			outcome = "rejected_signature"
			a.log.Warn("OCR callback refused: signature", "remote", r.RemoteAddr, "err", err)
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "missing, stale or wrong webhook signature"})
			return
		}
		// A signed message already applied is a replay: the signature only
		// proves it was once genuine.
		webhookID = r.Header.Get(standardwebhooks.HeaderWebhookID)
		if a.replays.seen(webhookID) {
			outcome = "rejected_replay"
			a.log.Warn("OCR callback refused: replayed webhook-id", "remote", r.RemoteAddr)
			writeJSON(w, http.StatusConflict, map[string]string{"error": "this webhook-id was already delivered"})
			return
		}
	}
	var probe struct {
		JobID *string `json:"job_id"`
	}
	var job ocr.Job
	if err := json.Unmarshal(body, &probe); err != nil || json.Unmarshal(body, &job) != nil {
		outcome = "rejected_json"
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "the body is not a JSON job document"})
		return
	}
	if probe.JobID == nil || !ocr.ValidJobID(*probe.JobID) {
		outcome = "rejected_job_id"
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "job_id is required"})
		return
	}
	applied, err := a.service.ApplyOCRResult(r.Context(), job)
	if err != nil {
		a.log.Error("apply OCR result", "engine_job_id", job.JobID, "err", err)
		if je := jobs.AsError(err); je.Code == jobs.CodeUnavailable {
			// The engine retries a callback it could not deliver.
			outcome = "unavailable"
			w.Header().Set("Retry-After", strconv.Itoa(int(je.RetryAfter/time.Second)))
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": je.Message})
			return
		}
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "internal error"})
		return
	}
	outcome = string(applied)
	a.log.Info("OCR callback", "engine_job_id", job.JobID, "status", job.Status, "outcome", applied)
	if applied != jobs.OCRUnknownJob {
		a.replays.remember(webhookID)
	}
	if applied == jobs.OCRUnknownJob {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "no OCR task has this job"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"outcome": string(applied)})
}

// replayGuard remembers the webhook-ids of applied callbacks for the
// signature's tolerance window (after it, the timestamp check refuses the
// message anyway). It is per instance: a replay sent to another instance
// behind a load balancer is still a no-op there, since the first final
// result wins. It measures its window on the wall clock on purpose: the
// window exists to cover the Standard Webhooks library's timestamp
// tolerance, which that library checks against time.Now, not against the
// lifecycle's injected clock.
type replayGuard struct {
	mu     sync.Mutex
	seenAt map[string]time.Time
}

const replayWindow = 5*time.Minute + time.Minute

func (g *replayGuard) seen(id string) bool {
	if id == "" {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	at, ok := g.seenAt[id]
	return ok && time.Since(at) < replayWindow
}

func (g *replayGuard) remember(id string) {
	if id == "" {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.seenAt == nil {
		g.seenAt = map[string]time.Time{}
	}
	now := time.Now()
	g.seenAt[id] = now
	if len(g.seenAt) > 1000 {
		for k, at := range g.seenAt {
			if now.Sub(at) >= replayWindow {
				delete(g.seenAt, k)
			}
		}
	}
}

// devSecretFile returns a development secret kept in DATA_DIR/name,
// creating it with gen on first use.
func devSecretFile(dataDir, name string, gen func() string) (string, error) {
	path := filepath.Join(dataDir, name)
	if b, err := os.ReadFile(path); err == nil && len(strings.TrimSpace(string(b))) > 0 {
		return strings.TrimSpace(string(b)), nil
	}
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return "", err
	}
	v := gen()
	if err := os.WriteFile(path, []byte(v+"\n"), 0o600); err != nil {
		return "", err
	}
	return v, nil
}

// ocrEngineCmd runs the built-in OCR engine alone (`dungji ocr-engine`),
// for deployments that scale it apart from the service.
func ocrEngineCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("ocr-engine", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := loadConfig(getenv)
	if err != nil {
		return err
	}
	log := newLogger(stderr, cfg.LogLevel)
	srv, err := ocr.NewServer(ocr.ServerOptions{Workers: cfg.OCREngineWorkers, SyncPageLimit: cfg.OCRSyncPageLimit,
		CallbackKey: cfg.OCRCallbackKey, SigningSecret: cfg.OCRSigningSecret, Logger: log})
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", cfg.OCREngineAddr)
	if err != nil {
		return fmt.Errorf("listen on OCR_ENGINE_ADDR %s: %w", cfg.OCREngineAddr, err)
	}
	hs := &http.Server{Handler: requireKey(cfg.OCRCallbackKey, cfg.OCRCallbackKeyPrevious, srv.Handler()),
		ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
		defer cancel()
		_ = hs.Shutdown(sctx)
	}()
	log.Info("OCR engine listening", "addr", ln.Addr().String())
	fmt.Fprintf(stdout, "OCR engine on http://%s (requests need %s)\n", ln.Addr(), ocr.HeaderInternalAPIKey)
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
