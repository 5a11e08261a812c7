package issuer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// These tests run the HTTP adapter against the simulator served by
// NewHandler over a real loopback connection, and against hand-written
// servers that misbehave like a real bot service might.

func serveSimulator(t *testing.T, opts SimulatorOptions) (*Simulator, Issuer, *httptest.Server) {
	t.Helper()
	sim := newTestSimulator(t, opts)
	srv := httptest.NewServer(NewHandler(sim))
	t.Cleanup(srv.Close)
	return sim, NewHTTPIssuer(srv.URL+"/", srv.Client()), srv
}

func serveFunc(t *testing.T, h http.HandlerFunc) (Issuer, *httptest.Server) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return NewHTTPIssuer(srv.URL, srv.Client()), srv
}

func TestHTTPIssuerDeliversSimulatorDocument(t *testing.T) {
	t.Parallel()
	sim, bot, _ := serveSimulator(t, SimulatorOptions{})
	req := request("task-1", uniqueNoFor(t))

	doc, err := bot.Issue(context.Background(), req)
	if err != nil {
		t.Fatalf("Issue over HTTP: %v", err)
	}
	want, err := sim.Render(Content(req.NestID, req.UniqueNo, req.Address), testTime)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(doc.PDF, want.PDF) || doc.Pages != want.Pages {
		t.Errorf("got %d bytes, %d pages; want %d bytes, %d pages", len(doc.PDF), doc.Pages, len(want.PDF), want.Pages)
	}
	if n := sim.PaymentCount("task-1"); n != 1 {
		t.Errorf("PaymentCount = %d, want 1", n)
	}
}

func TestHTTPIssuerRoundTripsEveryCause(t *testing.T) {
	t.Parallel()

	wantStatus := map[Cause]int{
		CauseStartFailed:      http.StatusServiceUnavailable,
		CauseTransient:        http.StatusBadGateway,
		CausePermanent:        http.StatusNotFound,
		CauseDuplicatePayment: http.StatusConflict,
		CauseNoDocument:       http.StatusBadGateway,
	}
	for _, cause := range Causes {
		t.Run(string(cause), func(t *testing.T) {
			t.Parallel()
			sim, bot, srv := serveSimulator(t, SimulatorOptions{})
			u := uniqueNoFor(t)

			sim.FailNext(u, cause, 1)
			_, err := bot.Issue(context.Background(), request("task-1", u))
			wantCause(t, err, cause)
			if !strings.Contains(err.Error(), "simulated") {
				t.Errorf("error %q lost the bot's message", err)
			}

			sim.FailNext(u, cause, 1)
			resp := post(t, srv.URL+issuancesPath, `{"idempotency_key":"task-1","unique_no":"`+u+`"}`)
			if resp.status != wantStatus[cause] || resp.body.Code != string(cause) {
				t.Errorf("raw response = %d %+v, want %d with code %s", resp.status, resp.body, wantStatus[cause], cause)
			}
		})
	}
}

func TestHTTPIssuerLedgerOverHTTP(t *testing.T) {
	t.Parallel()
	sim, bot, _ := serveSimulator(t, SimulatorOptions{})
	u := uniqueNoFor(t)
	ctx := context.Background()

	sim.FailNextAfterPayment(u, 1)
	_, err := bot.Issue(ctx, request("task-1", u))
	wantCause(t, err, CauseTransient)
	_, err = bot.Issue(ctx, request("task-2", u))
	wantCause(t, err, CauseDuplicatePayment)
	if _, err := bot.Issue(ctx, request("task-1", u)); err != nil {
		t.Fatalf("retry: %v", err)
	}
	if n := sim.PaymentCount("task-1"); n != 1 {
		t.Errorf("PaymentCount = %d, want 1", n)
	}
	_, err = bot.Issue(ctx, request("task-9", "00001111222233"))
	wantCause(t, err, CausePermanent)
}

type rawResponse struct {
	status      int
	contentType string
	body        errorJSON
}

// testClient has a transport of its own: httptest.Server.Close closes
// http.DefaultTransport's idle connections, which breaks a request that a
// parallel test is starting on one of them ("CloseIdleConnections called").
var testClient = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}

func post(t *testing.T, url, body string) rawResponse {
	t.Helper()
	resp, err := testClient.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	out := rawResponse{status: resp.StatusCode, contentType: resp.Header.Get("Content-Type")}
	if strings.HasPrefix(out.contentType, "application/json") {
		if err := json.Unmarshal(raw, &out.body); err != nil {
			t.Fatalf("error body %q: %v", raw, err)
		}
	}
	return out
}

func TestHandlerRejectsBadInput(t *testing.T) {
	t.Parallel()
	sim, _, srv := serveSimulator(t, SimulatorOptions{})

	tests := []struct {
		name string
		body string
		want string
	}{
		{"malformed JSON", `{"idempotency_key":`, "malformed JSON"},
		{"not an object", `["task-1"]`, "malformed JSON"},
		{"trailing data", `{"idempotency_key":"k","unique_no":"11462010012345"} {}`, "data after the object"},
		{"oversized body", `{"idempotency_key":"k","unique_no":"11462010012345","address":"` + strings.Repeat("가", 30_000) + `"}`, "larger than"},
		{"missing key", `{"unique_no":"11462010012345"}`, "idempotency key is required"},
		{"dashed unique no", `{"idempotency_key":"k","unique_no":"1146-2010-012345"}`, "14 digits"},
		{"number unique no", `{"idempotency_key":"k","unique_no":11462010012345}`, "malformed JSON"},
		{"empty body", ``, "malformed JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			resp := post(t, srv.URL+issuancesPath, tt.body)
			if resp.status != http.StatusBadRequest || resp.body.Code != CodeBadRequest || !strings.Contains(resp.body.Message, tt.want) {
				t.Errorf("response = %d %+v, want 400 %s mentioning %q", resp.status, resp.body, CodeBadRequest, tt.want)
			}
		})
	}
	t.Run("wrong method", func(t *testing.T) {
		t.Parallel()
		resp, err := testClient.Get(srv.URL + issuancesPath)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("GET status = %d, want 405", resp.StatusCode)
		}
	})
	t.Run("adapter treats 400 as permanent", func(t *testing.T) {
		t.Parallel()
		bot := NewHTTPIssuer(srv.URL, srv.Client())
		_, err := bot.Issue(context.Background(), request("", "11462010012345"))
		wantCause(t, err, CausePermanent)
	})
	t.Cleanup(func() {
		if p := sim.Payments(); len(p) != 0 {
			t.Errorf("bad requests paid: %+v", p)
		}
	})
}

func TestHandlerStatusForOtherIssuers(t *testing.T) {
	t.Parallel()

	tests := []struct {
		name       string
		issue      IssuerFunc
		wantStatus int
		wantCode   string
		wantCause  Cause
	}{
		{"timed-out step", func(context.Context, Request) (*Document, error) {
			return nil, &Error{Cause: CauseTransient, Message: "search page timed out", Err: context.DeadlineExceeded}
		}, http.StatusGatewayTimeout, "TRANSIENT", CauseTransient},
		{"bare deadline", func(context.Context, Request) (*Document, error) {
			return nil, context.DeadlineExceeded
		}, http.StatusGatewayTimeout, "TRANSIENT", CauseTransient},
		{"unclassified error is hidden", func(context.Context, Request) (*Document, error) {
			return nil, errors.New("secret database password in here")
		}, http.StatusInternalServerError, CodeInternal, CauseTransient},
		{"nil document", func(context.Context, Request) (*Document, error) {
			return nil, nil
		}, http.StatusBadGateway, "NO_DOCUMENT", CauseNoDocument},
		{"empty PDF", func(context.Context, Request) (*Document, error) {
			return &Document{}, nil
		}, http.StatusBadGateway, "NO_DOCUMENT", CauseNoDocument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(NewHandler(tt.issue))
			t.Cleanup(srv.Close)

			resp := post(t, srv.URL+issuancesPath, `{"idempotency_key":"k","unique_no":"11462010012345"}`)
			if resp.status != tt.wantStatus || resp.body.Code != tt.wantCode {
				t.Errorf("response = %d %+v, want %d %s", resp.status, resp.body, tt.wantStatus, tt.wantCode)
			}
			if strings.Contains(resp.body.Message, "secret") {
				t.Errorf("message %q leaks an internal error", resp.body.Message)
			}
			_, err := NewHTTPIssuer(srv.URL, srv.Client()).Issue(context.Background(), request("k", "11462010012345"))
			wantCause(t, err, tt.wantCause)
		})
	}
}

func TestHTTPIssuerClassifiesMisbehavingServers(t *testing.T) {
	t.Parallel()

	pdf := []byte("%PDF-1.7\n% a tiny stand-in\n")
	tests := []struct {
		name      string
		handler   http.HandlerFunc
		wantCause Cause // empty: unclassified
		wantPages int
	}{
		{"500 text", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "Internal Server Error", http.StatusInternalServerError)
		}, CauseTransient, 0},
		{"502 html from a proxy", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			io.WriteString(w, "<html><body>Bad Gateway</body></html>")
		}, CauseTransient, 0},
		{"418 unknown 4xx", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusTeapot)
		}, CausePermanent, 0},
		{"404 wrong path", func(w http.ResponseWriter, r *http.Request) {
			http.NotFound(w, r)
		}, CausePermanent, 0},
		{"429 rate limited", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusTooManyRequests)
		}, CauseTransient, 0},
		{"code wins over status", func(w http.ResponseWriter, r *http.Request) {
			writeError(w, http.StatusInternalServerError, "DUPLICATE_PAYMENT", "already paid")
		}, CauseDuplicatePayment, 0},
		{"unknown code falls back to status", func(w http.ResponseWriter, r *http.Request) {
			writeError(w, http.StatusServiceUnavailable, "MAINTENANCE", "site closed")
		}, CauseTransient, 0},
		{"200 empty", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusOK)
		}, CauseNoDocument, 0},
		{"200 html", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<html>login expired</html>")
		}, CauseNoDocument, 0},
		{"200 pdf without page count", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/pdf")
			w.Write(pdf)
		}, "", 0},
		{"200 pdf with bad page count", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Page-Count", "many")
			w.Write(pdf)
		}, "", 0},
		{"200 pdf with page count", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Page-Count", "3")
			w.Write(pdf)
		}, "", 3},
		{"body cut off", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "100000")
			w.Write(pdf)
			panic(http.ErrAbortHandler)
		}, CauseTransient, 0},
		{"304 is unexpected", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNotModified)
		}, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			bot, _ := serveFunc(t, tt.handler)
			doc, err := bot.Issue(context.Background(), request("k", "11462010012345"))
			switch {
			case tt.name == "304 is unexpected":
				if c, ok := CauseOf(err); err == nil || ok {
					t.Errorf("304: err = %v, cause %q; want an unclassified error", err, c)
				}
			case tt.wantCause == "":
				if err != nil {
					t.Fatalf("Issue: %v", err)
				}
				if !bytes.Equal(doc.PDF, pdf) || doc.Pages != tt.wantPages {
					t.Errorf("document = %q, %d pages; want %d pages", doc.PDF, doc.Pages, tt.wantPages)
				}
			default:
				wantCause(t, err, tt.wantCause)
			}
		})
	}
}

func TestHTTPIssuerLimitsDocumentSize(t *testing.T) {
	t.Parallel()
	bot, _ := serveFunc(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("%PDF-1.7\n" + strings.Repeat("x", 2000)))
	})
	bot.(*HTTPIssuer).maxBody = 1000
	_, err := bot.Issue(context.Background(), request("k", "11462010012345"))
	wantCause(t, err, CauseNoDocument)
	if !strings.Contains(err.Error(), "larger than 1000 bytes") {
		t.Errorf("error %q does not give the limit", err)
	}
}

func TestHTTPIssuerNetworkFailuresAreTransient(t *testing.T) {
	t.Parallel()

	t.Run("closed port", func(t *testing.T) {
		t.Parallel()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		bot := NewHTTPIssuer("http://"+addr, &http.Client{Transport: &http.Transport{}})
		_, err = bot.Issue(context.Background(), request("k", "11462010012345"))
		wantCause(t, err, CauseTransient)
		var opErr *net.OpError
		if !errors.As(err, &opErr) {
			t.Errorf("error %v does not wrap the *net.OpError", err)
		}
	})
	t.Run("context deadline", func(t *testing.T) {
		t.Parallel()
		release := make(chan struct{})
		bot, _ := serveFunc(t, func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-release:
			}
		})
		defer close(release)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := bot.Issue(ctx, request("k", "11462010012345"))
		wantCause(t, err, CauseTransient)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("error %v does not wrap context.DeadlineExceeded", err)
		}
	})
	t.Run("simulator latency cut by the client's context", func(t *testing.T) {
		t.Parallel()
		sim, bot, _ := serveSimulator(t, SimulatorOptions{Latency: time.Hour})
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := bot.Issue(ctx, request("k", uniqueNoFor(t)))
		wantCause(t, err, CauseTransient)
		if len(sim.Payments()) != 0 {
			t.Error("a cancelled call paid")
		}
	})
}
