package httpapi

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/ocr"
	"github.com/dungji/dungji/jobs/ocrtask"
	"github.com/dungji/dungji/server/auth"
)

// OCREnginePrefix is where the built-in OCR engine is mounted when OCR_URL
// and OCR_PADDLE_URL are unset.
const OCREnginePrefix = "/internal/ocr-engine"

// OCRCallbackPath receives the engine's results.
const OCRCallbackPath = "/internal/ocr/callback"

// MaxOCRCallbackBody bounds a callback: a result carries every page's text.
const MaxOCRCallbackBody = 8 << 20

// MaxOCRCallbackBodies bounds the callback bodies read at once (each up to
// MaxOCRCallbackBody): one more waits, and after callbackBodyWait is 503
// with Retry-After, which the engine retries.
const MaxOCRCallbackBodies = 4

// callbackBodyWait is how long a keyed callback waits for room.
const callbackBodyWait = 10 * time.Second

// ocrCallback receives an engine's result. It is exempt from user auth and
// checks, in order: the internal key (401, from the headers, before a byte
// of the body is read: 40 unkeyed 8 MiB posts at once held up to 590 MB
// when the key was checked after the body), body size (413), room among
// the bodies being read (waited for, then 503), the Standard Webhooks signature when a
// signing secret is configured (401), JSON (400), a job id (400, before any
// lookup); then the lifecycle applies it in one transaction. Duplicates
// and late results answer 200 and change nothing.
func (a *API) ocrCallback(w http.ResponseWriter, r *http.Request) {
	outcome := "rejected_internal"
	defer func() { a.Callbacks.WithLabelValues(outcome).Inc() }()
	if !auth.KeyMatches(r.Header.Get(ocr.HeaderInternalAPIKey), a.Config.OCRCallbackKey, a.Config.OCRCallbackKeyPrevious) {
		outcome = "rejected_key"
		a.Log.Warn("OCR callback refused: internal key", "remote", r.RemoteAddr)
		w.Header().Set("Connection", "close") // the body is not read
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "missing or wrong " + ocr.HeaderInternalAPIKey})
		return
	}
	if r.ContentLength > MaxOCRCallbackBody {
		outcome = "rejected_size"
		w.Header().Set("Connection", "close")
		writeJSON(w, http.StatusRequestEntityTooLarge, map[string]string{"error": "body too large"})
		return
	}
	a.callbackBodiesOnce.Do(func() { a.callbackBodies = make(chan struct{}, MaxOCRCallbackBodies) })
	// A keyed caller waits its turn (its body waits in the socket, not in
	// memory), up to callbackBodyWait.
	wait := time.NewTimer(callbackBodyWait)
	defer wait.Stop()
	select {
	case a.callbackBodies <- struct{}{}:
		defer func() { <-a.callbackBodies }()
	case <-r.Context().Done():
		outcome = "rejected_busy"
		return
	case <-wait.C:
		outcome = "rejected_busy"
		w.Header().Set("Connection", "close")
		w.Header().Set("Retry-After", "1")
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": "too many callbacks are being received: send it again"})
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxOCRCallbackBody))
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
	webhookID := ""
	if a.Webhook != nil {
		if err := a.Webhook.Verify(body, r.Header); err != nil {
			outcome = "rejected_signature"
			a.Log.Warn("OCR callback refused: signature", "remote", r.RemoteAddr, "err", err)
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "missing, stale or wrong webhook signature"})
			return
		}
		// A signed message already applied is a replay: the signature only
		// proves it was once genuine.
		webhookID = r.Header.Get(standardwebhooks.HeaderWebhookID)
		if a.replays.seen(webhookID) {
			outcome = "rejected_replay"
			a.Log.Warn("OCR callback refused: replayed webhook-id", "remote", r.RemoteAddr)
			writeJSON(w, http.StatusConflict, map[string]string{"error": "this webhook-id was already delivered"})
			return
		}
	}
	if p := textProblem(body); p != "" {
		outcome = "rejected_json"
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "the body is not text: " + p})
		return
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
	applied, err := a.Service.ApplyOCRResult(r.Context(), job)
	if err != nil {
		a.Log.Error("apply OCR result", "engine_job_id", job.JobID, "err", err)
		if je := core.AsError(err); je.Code == core.CodeUnavailable {
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
	a.Log.Info("OCR callback", "engine_job_id", job.JobID, "status", job.Status, "outcome", applied)
	if applied != ocrtask.OCRUnknownJob {
		a.replays.remember(webhookID)
	}
	if applied == ocrtask.OCRUnknownJob {
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
