package main

import (
	"context"

	"encoding/json"
	"go.opentelemetry.io/otel/trace"
	"net/http"
	"time"

	"github.com/99designs/gqlgen/graphql/playground"

	"github.com/dungji/dungji/web"
)

// routes is every HTTP path the process serves. A worker-only process serves
// health checks alone.
func (a *App) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", a.readyz)
	mux.Handle("GET /metrics", a.metricsHandler())
	// The OCR callback and the built-in engine serve every role: the engine
	// runs where the workers run, and any instance can take a result.
	mux.HandleFunc("POST "+ocrCallbackPath, a.ocrCallback)
	if a.ocrServer != nil {
		mux.Handle(ocrEnginePrefix+"/", http.StripPrefix(ocrEnginePrefix,
			requireKey(a.cfg.OCRCallbackKey, a.cfg.OCRCallbackKeyPrevious, a.ocrServer.Handler())))
	}
	if !a.role.api() {
		return accessLog(a.log, a.traced(securityHeaders(mux)))
	}
	gql := requestTimeout(a.cfg.RequestTimeout, a.tokens.authenticate(a.endStreamsOnShutdown(newGraphQLHandler(a.service, graphQLOptions{
		Dev: a.cfg.Dev(), AllowedOrigins: a.cfg.AllowedOrigins, Tokens: a.tokens, Logger: a.log, WS: a.wsLimits,
		PingInterval: a.cfg.StreamPing, InitTimeout: a.cfg.WSInitTimeout, Stop: a.streams, Streams: &a.streamWG,
		Tracer: func() trace.TracerProvider { return a.tracer }}))))
	mux.Handle("/graphql", gql)
	a.restRoutes(mux)
	if a.cfg.Dev() {
		mux.Handle("GET /graphiql", graphiQL())
	} else {
		mux.Handle("/graphiql/", http.NotFoundHandler()) // its assets, development only like the page
	}
	if a.riverUI != nil {
		mux.Handle("/riverui/", a.tokens.adminOnly("River UI", a.riverUIUser, a.riverUIPassword, a.riverUI))
	}
	mux.Handle("/", web.Handler())
	return accessLog(a.log, a.traced(securityHeaders(cors(a.cfg.CORSOrigins, mux))))
}

// graphiQL is gqlgen's GraphiQL page with its scripts and style served by
// this binary (web.GraphiQLAssets), not a CDN: the IDE works offline and
// its Content Security Policy names this origin only.
func graphiQL() http.Handler {
	js, css, react, reactDOM := web.GraphiQLAssets()
	return playground.Handler("Dungji GraphQL", "/graphql",
		playground.WithGraphiqlVersion(js.Path, css.Path, js.Integrity, css.Integrity),
		playground.WithGraphiqlReactVersion(react.Path, reactDOM.Path, react.Integrity, reactDOM.Integrity))
}

// endStreamsOnShutdown ends WebSocket and SSE streams when shutdown starts:
// http.Server.Shutdown does not wait for hijacked connections and would
// wait out its whole timeout for SSE, while ordinary requests are let finish.
func (a *App) endStreamsOnShutdown(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isStream(r) {
			h.ServeHTTP(w, r)
			return
		}
		a.streamWG.Add(1)
		defer a.streamWG.Done()
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		stop := context.AfterFunc(a.streams, cancel)
		defer stop()
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}

// readyz answers 200 when the database answers and its migrations are current.
func (a *App) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
	defer cancel()
	if !a.cfg.ReadyzDetails {
		// Details (what is pending, what is down) only when configured.
		w = &statusOnly{ResponseWriter: w}
	}
	if err := a.db.Pool.Ping(ctx); err != nil {
		a.log.Warn("readyz: database unreachable", "err", err)
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "reason": "database unreachable"})
		return
	}
	st, err := a.db.Status(ctx)
	if err != nil {
		a.log.Warn("readyz: migration status", "err", err)
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "reason": "migration status unknown"})
		return
	}
	if !st.Current() {
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"status": "unavailable", "reason": "migrations pending", "pending": st.Pending})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	if w.Header().Get("Cache-Control") == "" {
		w.Header().Set("Cache-Control", "no-store")
	}
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// statusOnly turns a readiness answer into its status alone.
type statusOnly struct{ http.ResponseWriter }

func (s *statusOnly) Write(b []byte) (int, error) {
	var v map[string]any
	if json.Unmarshal(b, &v) == nil {
		out, _ := json.Marshal(map[string]any{"status": v["status"]})
		_, err := s.ResponseWriter.Write(append(out, '\n'))
		return len(b), err
	}
	return s.ResponseWriter.Write(b)
}
