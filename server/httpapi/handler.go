package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql/playground"

	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/server/auth"
	"github.com/dungji/dungji/web"
)

// Handler is every HTTP path the process serves. A worker-only process serves
// health checks alone.
func (a *API) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", a.readyz)
	mux.Handle("GET /metrics", a.Metrics)
	// The OCR callback and the built-in engine serve every role: the engine
	// runs where the workers run, and any instance can take a result. With
	// INTERNAL_ADDR they listen there (InternalHandler), not here.
	if a.InternalSeparate {
		mux.Handle("/internal/", http.NotFoundHandler())
	} else {
		a.internalRoutes(mux)
	}
	if !a.ServesAPI {
		return accessLog(a.Log, a.Traced(securityHeaders(mux)))
	}
	gql := a.Tokens.Authenticate(a.endStreamsOnShutdown(NewGraphQLHandler(a.Service, GraphQLOptions{
		Dev: a.Config.Dev(), Origins: a.Config.BrowserOrigins, Tokens: a.Tokens, Logger: a.Log, WS: a.WS,
		PingInterval: a.Config.StreamPing, InitTimeout: a.Config.WSInitTimeout, Stop: a.Streams, Streams: a.StreamWG,
		Tracer: a.Tracer, RequestTimeout: a.Config.RequestTimeout, Uploads: &a.uploads})))
	mux.Handle("/graphql", graphQLMethods(gql))
	a.restRoutes(mux)
	if a.Config.Dev() {
		mux.Handle("GET /graphiql", graphiQL())
	} else {
		// The page and its assets are development only: 404 for both (a
		// bare /graphiql was redirected to /graphiql/ first).
		mux.Handle("/graphiql", http.NotFoundHandler())
		mux.Handle("/graphiql/", http.NotFoundHandler())
	}
	if a.RiverUI != nil {
		mux.Handle("/riverui/", newOperatorGuard(a.Tokens, a.RiverUIUser, a.RiverUIPassword, a.DB, a.RiverUI)) // operator.go
	}
	// The console's files, GET and HEAD only. Every path another pattern
	// takes for some methods (GET /healthz) falls here for the others, so
	// this answers them 405 with Allow. ("GET /" would conflict with the
	// method-less prefixes above.)
	mux.Handle("/", methods(map[string]http.HandlerFunc{http.MethodGet: web.Handler().ServeHTTP}))
	return accessLog(a.Log, a.Traced(securityHeaders(cors(a.Config.BrowserOrigins, mux))))
}

// internalRoutes mounts the OCR callback and the built-in engine.
func (a *API) internalRoutes(mux *http.ServeMux) {
	// Not "POST path": GET on it would fall through to the console's
	// files (404) instead of 405.
	mux.Handle(OCRCallbackPath, methods(map[string]http.HandlerFunc{http.MethodPost: a.ocrCallback}))
	if a.OCREngine != nil {
		mux.Handle(OCREnginePrefix+"/", http.StripPrefix(OCREnginePrefix,
			auth.RequireKey(a.Config.OCRCallbackKey, a.Config.OCRCallbackKeyPrevious, a.OCREngine)))
	}
}

// InternalHandler is what INTERNAL_ADDR serves: the OCR callback, the
// built-in engine and a health check, nothing a user calls.
func (a *API) InternalHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	a.internalRoutes(mux)
	return accessLog(a.Log, a.Traced(securityHeaders(mux)))
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
func (a *API) endStreamsOnShutdown(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isStream(r) {
			h.ServeHTTP(w, r)
			return
		}
		a.StreamWG.Add(1)
		defer a.StreamWG.Done()
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		stop := context.AfterFunc(a.Streams, cancel)
		defer stop()
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}

// readyz answers 200 when the database answers and its migrations are current.
func (a *API) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
	defer cancel()
	if !a.Config.ReadyzDetails {
		// Details (what is pending, what is down) only when configured.
		w = &statusOnly{ResponseWriter: w}
	}
	if err := a.DB.Pool.Ping(ctx); err != nil {
		a.Log.Warn("readyz: database unreachable", "err", err)
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "reason": "database unreachable"})
		return
	}
	st, err := a.DB.Status(ctx)
	if err != nil {
		a.Log.Warn("readyz: migration status", "err", err)
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

// graphQLMethods answers 405 with Allow for a method no GraphQL transport
// takes, in the GraphQL error shape: GET and POST, PUT and DELETE for
// graphql-sse's single-connection mode (reserve and stop a stream), and
// OPTIONS for a CORS preflight. A WebSocket upgrade is a GET.
func graphQLMethods(next http.Handler) http.Handler {
	const graphQLAllow = corsMethods // the methods a preflight allows
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet:
			// A query over GET: its parameters are read as a body is. What
			// url.Values cannot parse it drops (a ";", a bad escape), and
			// gqlgen answered in text/plain with Go's words; of a parameter
			// given twice it ran the first, where a proxy may read another.
			q, err := url.ParseQuery(r.URL.RawQuery)
			if err != nil {
				writeGraphQLError(w, http.StatusBadRequest, "the query string cannot be read ("+queryFault(err)+"): separate parameters with & and escape % as %25", core.CodeBadRequest)
				return
			}
			for _, name := range []string{"query", "variables", "operationName", "extensions"} {
				if len(q[name]) > 1 {
					writeGraphQLError(w, http.StatusBadRequest, name+" is given "+strconv.Itoa(len(q[name]))+" times: give it once", core.CodeBadRequest)
					return
				}
			}
			// Its parameters are text as a body is.
			for _, vs := range q {
				for _, v := range vs {
					if !utf8.ValidString(v) || loneSurrogateEscape([]byte(v)) >= 0 {
						writeGraphQLError(w, http.StatusBadRequest, "a query parameter is not text: invalid UTF-8, or an escape of half a surrogate pair", core.CodeBadRequest)
						return
					}
				}
			}
		case http.MethodOptions:
			// A CORS preflight from a listed origin is answered before
			// this (cors); any other OPTIONS is told what a 405 says.
			w.Header().Set("Allow", graphQLAllow)
			w.WriteHeader(http.StatusNoContent)
			return
		case http.MethodPost, http.MethodPut, http.MethodDelete:
		default:
			w.Header().Set("Allow", graphQLAllow)
			writeJSON(w, http.StatusMethodNotAllowed, map[string]any{"errors": []map[string]any{{
				"message":    r.Method + " is not allowed on /graphql: queries are GET or POST, mutations POST, graphql-sse streams PUT and DELETE",
				"extensions": map[string]any{"code": "METHOD_NOT_ALLOWED"}}}})
			return
		}
		// An answer is one user's: no cache keeps it (a GET query's
		// answer was cacheable, with no Vary: Authorization).
		w.Header().Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}
