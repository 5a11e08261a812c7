package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"go.opentelemetry.io/otel/trace"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs"
	"github.com/dungji/dungji/server/auth"
	"github.com/dungji/dungji/server/config"
)

// API is the HTTP surface of one process: every field is a part the binary
// built; Handler mounts them. The zero value of an optional field leaves its
// path unmounted.
type API struct {
	Config  config.Config
	Service *jobs.Service
	DB      *db.DB // /readyz pings it and reads its migration status
	Tokens  *auth.Tokens
	Log     *slog.Logger
	// ServesAPI is false in a worker-only process: health checks, /metrics
	// and the OCR paths alone.
	ServesAPI bool
	WS        *WSLimits
	Metrics   http.Handler                    // /metrics, already guarded
	Traced    func(http.Handler) http.Handler // wraps the whole surface in server spans
	Tracer    func() trace.TracerProvider     // GraphQL operation spans
	// OCREngine is the built-in OCR engine's handler, mounted under
	// OCREnginePrefix behind the internal key; nil: not mounted here.
	OCREngine http.Handler
	// Callbacks counts OCR callbacks by outcome.
	Callbacks *prometheus.CounterVec
	// Webhook verifies the Standard Webhooks signature of OCR callbacks;
	// nil: unsigned callbacks (the internal key alone).
	Webhook *standardwebhooks.Webhook
	// RiverUI is mounted under /riverui/ for an admin token or these
	// basic-auth credentials; nil: unmounted.
	RiverUI                      http.Handler
	RiverUIUser, RiverUIPassword string
	// Streams is cancelled when shutdown starts, ending every stream;
	// StreamWG counts the stream handlers still running.
	Streams  context.Context
	StreamWG *sync.WaitGroup

	// InternalSeparate is set when the OCR callback and the built-in
	// engine listen on INTERNAL_ADDR (InternalHandler): the public
	// listener does not serve them.
	InternalSeparate bool

	replays replayGuard
	uploads UploadSlots // uploads in flight, GraphQL's and REST's
	// callbackBodies bounds the callback bodies being read at once.
	callbackBodies     chan struct{}
	callbackBodiesOnce sync.Once
}
