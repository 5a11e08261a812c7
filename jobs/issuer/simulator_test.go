package issuer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// testTime is the fixed clock of test simulators: payments and the printed
// 열람일시 use it, so documents are byte-identical.
var testTime = time.Date(2025, time.July, 1, 10, 30, 15, 0, kst)

// newTestSimulator returns a simulator with a fixed clock and seed.
func newTestSimulator(t *testing.T, opts SimulatorOptions) *Simulator {
	t.Helper()
	if opts.Now == nil {
		opts.Now = func() time.Time { return testTime }
	}
	if opts.Rand == nil {
		opts.Rand = rand.NewPCG(1, 2)
	}
	sim, err := NewSimulator(opts)
	if err != nil {
		t.Fatalf("NewSimulator: %v", err)
	}
	return sim
}

// uniqueNoFor returns a distinct, valid unique number per test name, so that
// parallel tests do not share ledger state for a property.
func uniqueNoFor(t *testing.T) string {
	var h uint64 = 1469598103934665603
	for _, c := range []byte(t.Name()) {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return fmt.Sprintf("1%013d", h%1e13)
}

func request(key, uniqueNo string) Request {
	return Request{IdempotencyKey: key, NestID: "nest-" + uniqueNo, UniqueNo: uniqueNo, Address: testAddress}
}

func wantCause(t *testing.T, err error, want Cause) {
	t.Helper()
	got, ok := CauseOf(err)
	if !ok || got != want {
		t.Fatalf("error %v has cause %q (classified %v), want %q", err, got, ok, want)
	}
}

func TestSimulatorIssuesDocument(t *testing.T) {
	t.Parallel()
	sim := newTestSimulator(t, SimulatorOptions{})
	u := uniqueNoFor(t)

	req := request("task-1", u)
	doc, err := sim.Issue(context.Background(), req)
	if err != nil {
		t.Fatalf("Issue: %v", err)
	}
	if !bytes.HasPrefix(doc.PDF, []byte("%PDF-")) {
		t.Fatalf("document starts with %q", doc.PDF[:min(8, len(doc.PDF))])
	}
	reg := Content(req.NestID, req.UniqueNo, req.Address)
	if doc.Pages != reg.Pages {
		t.Errorf("Pages = %d, Content says %d", doc.Pages, reg.Pages)
	}
	want, err := sim.Render(reg, testTime)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(doc.PDF, want.PDF) {
		t.Error("Issue's PDF differs from Render of Content at the payment time")
	}
	payments := sim.Payments()
	if len(payments) != 1 || payments[0] != (Payment{Key: "task-1", UniqueNo: u, PaidAt: testTime, Delivered: true}) {
		t.Errorf("Payments() = %+v", payments)
	}
}

func TestSimulatorFailNext(t *testing.T) {
	t.Parallel()

	tests := []struct {
		cause Cause
		paid  bool // the failure happens after the payment
	}{
		{CauseStartFailed, false},
		{CauseTransient, false},
		{CausePermanent, false},
		{CauseDuplicatePayment, false},
		{CauseNoDocument, true},
	}
	for _, tt := range tests {
		t.Run(string(tt.cause), func(t *testing.T) {
			t.Parallel()
			sim := newTestSimulator(t, SimulatorOptions{})
			u := uniqueNoFor(t)
			sim.FailNext(u, tt.cause, 2)

			for range 2 {
				_, err := sim.Issue(context.Background(), request("task-1", u))
				wantCause(t, err, tt.cause)
			}
			wantPayments := 0
			if tt.paid {
				wantPayments = 1
			}
			if n := sim.PaymentCount("task-1"); n != wantPayments {
				t.Fatalf("PaymentCount after two %s failures = %d, want %d", tt.cause, n, wantPayments)
			}
			// The queue is used up: the retry succeeds and pays at most once.
			if _, err := sim.Issue(context.Background(), request("task-1", u)); err != nil {
				t.Fatalf("third Issue: %v", err)
			}
			if n := sim.PaymentCount("task-1"); n != 1 {
				t.Errorf("PaymentCount after success = %d, want 1", n)
			}
		})
	}
}

func TestSimulatorFailNextPanicsOnUnknownCause(t *testing.T) {
	t.Parallel()
	sim := newTestSimulator(t, SimulatorOptions{})
	defer func() {
		if recover() == nil {
			t.Error("FailNext with an unknown cause did not panic")
		}
	}()
	sim.FailNext(uniqueNoFor(t), "FLAKY", 1)
}

// TestSimulatorRetryAfterPaymentPaysOnce is the scenario the idempotency key
// exists for: the bot paid, then failed before delivering.
func TestSimulatorRetryAfterPaymentPaysOnce(t *testing.T) {
	t.Parallel()
	sim := newTestSimulator(t, SimulatorOptions{})
	u := uniqueNoFor(t)
	sim.FailNextAfterPayment(u, 2)

	for i := range 2 {
		_, err := sim.Issue(context.Background(), request("task-1", u))
		wantCause(t, err, CauseTransient)
		if p := sim.Payments(); len(p) != 1 || p[0].Delivered {
			t.Fatalf("after failure %d: Payments() = %+v, want one undelivered payment", i+1, p)
		}
	}
	doc, err := sim.Issue(context.Background(), request("task-1", u))
	if err != nil {
		t.Fatalf("retry: %v", err)
	}
	if len(doc.PDF) == 0 {
		t.Fatal("retry returned no PDF")
	}
	if n := sim.PaymentCount("task-1"); n != 1 {
		t.Errorf("PaymentCount = %d after three attempts, want 1", n)
	}
	if p := sim.Payments(); len(p) != 1 || !p[0].Delivered {
		t.Errorf("Payments() = %+v, want one delivered payment", p)
	}
}

func TestSimulatorDuplicatePayment(t *testing.T) {
	t.Parallel()
	sim := newTestSimulator(t, SimulatorOptions{})
	u := uniqueNoFor(t)
	ctx := context.Background()

	sim.FailNextAfterPayment(u, 1)
	_, err := sim.Issue(ctx, request("task-1", u))
	wantCause(t, err, CauseTransient)

	// Another task for the same property must not pay while task-1's
	// payment is undelivered.
	_, err = sim.Issue(ctx, request("task-2", u))
	wantCause(t, err, CauseDuplicatePayment)
	if n := sim.PaymentCount("task-2"); n != 0 {
		t.Fatalf("PaymentCount(task-2) = %d, want 0", n)
	}

	// task-1's retry gets its document; afterwards a new task may pay again.
	if _, err := sim.Issue(ctx, request("task-1", u)); err != nil {
		t.Fatalf("task-1 retry: %v", err)
	}
	if _, err := sim.Issue(ctx, request("task-3", u)); err != nil {
		t.Fatalf("task-3 after delivery: %v", err)
	}
	if got := len(sim.Payments()); got != 2 {
		t.Errorf("%d payments, want 2 (task-1, task-3)", got)
	}
}

func TestSimulatorUnknownPropertyDoesNotPay(t *testing.T) {
	t.Parallel()

	tests := []struct {
		name     string
		uniqueNo string
		mark     bool
	}{
		{"marked unknown", "11462010099999", true},
		{"0000 prefix", "00001111222233", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sim := newTestSimulator(t, SimulatorOptions{})
			if tt.mark {
				sim.Unknown(tt.uniqueNo)
			}
			_, err := sim.Issue(context.Background(), request("task-1", tt.uniqueNo))
			wantCause(t, err, CausePermanent)
			if !strings.Contains(err.Error(), "no such property") {
				t.Errorf("error %q does not say no such property", err)
			}
			if p := sim.Payments(); len(p) != 0 {
				t.Errorf("Payments() = %+v, want none", p)
			}
		})
	}
}

func TestSimulatorRejectsBadRequests(t *testing.T) {
	t.Parallel()
	sim := newTestSimulator(t, SimulatorOptions{})
	u := uniqueNoFor(t)
	ctx := context.Background()

	_, err := sim.Issue(ctx, request("", u))
	wantCause(t, err, CausePermanent)
	_, err = sim.Issue(ctx, request("task-1", "1146-2010-012345"))
	wantCause(t, err, CausePermanent)

	if _, err := sim.Issue(ctx, request("task-1", u)); err != nil {
		t.Fatal(err)
	}
	_, err = sim.Issue(ctx, request("task-1", "21462010012345"))
	wantCause(t, err, CausePermanent)
	if len(sim.Payments()) != 1 {
		t.Errorf("Payments() = %+v, want only the first", sim.Payments())
	}
}

func TestSimulatorLatencyHonoursContext(t *testing.T) {
	t.Parallel()

	t.Run("deadline during latency", func(t *testing.T) {
		t.Parallel()
		sim := newTestSimulator(t, SimulatorOptions{Latency: time.Hour})
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		_, err := sim.Issue(ctx, request("task-1", uniqueNoFor(t)))
		wantCause(t, err, CauseTransient)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("error %v does not wrap context.DeadlineExceeded", err)
		}
		if len(sim.Payments()) != 0 {
			t.Error("an interrupted session paid")
		}
	})
	t.Run("cancel during latency", func(t *testing.T) {
		t.Parallel()
		sim := newTestSimulator(t, SimulatorOptions{Latency: time.Hour})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := sim.Issue(ctx, request("task-1", uniqueNoFor(t)))
			done <- err
		}()
		cancel()
		select {
		case err := <-done:
			wantCause(t, err, CauseTransient)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("error %v does not wrap context.Canceled", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Issue did not return after cancel")
		}
	})
	t.Run("latency is waited", func(t *testing.T) {
		t.Parallel()
		sim := newTestSimulator(t, SimulatorOptions{Latency: 30 * time.Millisecond})
		start := time.Now()
		if _, err := sim.Issue(context.Background(), request("task-1", uniqueNoFor(t))); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d < 30*time.Millisecond {
			t.Errorf("Issue took %s, want at least the 30ms latency", d)
		}
	})
}

func TestSimulatorConcurrentRetriesPayOnce(t *testing.T) {
	t.Parallel()
	sim := newTestSimulator(t, SimulatorOptions{})
	u := uniqueNoFor(t)

	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for range 6 {
		wg.Go(func() {
			_, err := sim.Issue(context.Background(), request("task-1", u))
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if n := sim.PaymentCount("task-1"); n != 1 {
		t.Errorf("PaymentCount = %d after concurrent calls with one key, want 1", n)
	}
}

func TestSimulatorFailureRates(t *testing.T) {
	t.Parallel()

	t.Run("certain failure", func(t *testing.T) {
		t.Parallel()
		sim := newTestSimulator(t, SimulatorOptions{FailureRates: map[Cause]float64{CauseStartFailed: 1}})
		for range 5 {
			_, err := sim.Issue(context.Background(), request("task-1", uniqueNoFor(t)))
			wantCause(t, err, CauseStartFailed)
		}
	})
	t.Run("seeded mix is repeatable", func(t *testing.T) {
		t.Parallel()
		rates := map[Cause]float64{CauseStartFailed: 0.25, CauseTransient: 0.35}
		run := func() []string {
			sim := newTestSimulator(t, SimulatorOptions{FailureRates: rates, Rand: rand.NewPCG(7, 8)})
			var outcomes []string
			for i := range 16 {
				// Distinct properties: an injected failure must not block the next call.
				u := fmt.Sprintf("1%013d", i)
				_, err := sim.Issue(context.Background(), request(fmt.Sprint("task-", i), u))
				c, _ := CauseOf(err)
				outcomes = append(outcomes, string(c))
			}
			return outcomes
		}
		a, b := run(), run()
		if strings.Join(a, ",") != strings.Join(b, ",") {
			t.Fatalf("same seed, different outcomes:\n%v\n%v", a, b)
		}
		count := map[string]int{}
		for _, o := range a {
			count[o]++
		}
		if count[""] == 0 || count["START_FAILED"] == 0 || count["TRANSIENT"] == 0 || count[""] == len(a) {
			t.Errorf("outcomes %v do not mix successes and both causes", count)
		}
	})
}

func TestParseFailureRates(t *testing.T) {
	t.Parallel()

	tests := []struct {
		in      string
		want    map[Cause]float64
		wantErr string
	}{
		{"", map[Cause]float64{}, ""},
		{"start_failed=0.1,transient=0.05", map[Cause]float64{CauseStartFailed: 0.1, CauseTransient: 0.05}, ""},
		{" NO_DOCUMENT = 1 ", map[Cause]float64{CauseNoDocument: 1}, ""},
		{"duplicate_payment=0,permanent=0.5", map[Cause]float64{CauseDuplicatePayment: 0, CausePermanent: 0.5}, ""},
		{"flaky=0.1", nil, `unknown failure cause "flaky"`},
		{"transient=1.5", nil, "want a value in [0,1]"},
		{"transient=-0.1", nil, "want a value in [0,1]"},
		{"transient=NaN", nil, "want a value in [0,1]"},
		{"transient=often", nil, "is not a number"},
		{"transient", nil, "want cause=rate"},
		{"transient=0.1,,", nil, "want cause=rate"},
		{"transient=0.1,TRANSIENT=0.2", nil, "given twice"},
		{"transient=0.6,start_failed=0.6", nil, "sum to"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := ParseFailureRates(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParseFailureRates(%q) error = %v, want %q", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseFailureRates(%q): %v", tt.in, err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("ParseFailureRates(%q) = %v, want %v", tt.in, got, tt.want)
			}
			if back, err := ParseFailureRates(FormatFailureRates(got)); err != nil || fmt.Sprint(back) != fmt.Sprint(got) {
				t.Errorf("round trip through %q = %v, %v", FormatFailureRates(got), back, err)
			}
		})
	}
}

func TestNewSimulatorRejectsBadOptions(t *testing.T) {
	t.Parallel()

	notAFont := filepath.Join(t.TempDir(), "font.ttf")
	if err := os.WriteFile(notAFont, []byte("not a font"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		opts SimulatorOptions
		want []string
	}{
		{"missing font", SimulatorOptions{FontPath: "/nonexistent/NanumGothic.ttf"}, []string{"/nonexistent/NanumGothic.ttf", "fonts-nanum"}},
		{"not a font", SimulatorOptions{FontPath: notAFont}, []string{notAFont, "TrueType"}},
		{"unknown cause", SimulatorOptions{FailureRates: map[Cause]float64{"FLAKY": 0.1}}, []string{"FLAKY"}},
		{"rate above 1", SimulatorOptions{FailureRates: map[Cause]float64{CauseTransient: 2}}, []string{"[0,1]"}},
		{"negative latency", SimulatorOptions{Latency: -time.Second}, []string{"negative latency"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := NewSimulator(tt.opts)
			if err == nil {
				t.Fatal("NewSimulator succeeded")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

// TestPrerender: Issue delivers the document Prerender made, printed at the
// time of Prerender, unless a registration changed the content since; an
// invalid request is refused and changes nothing.
func TestPrerender(t *testing.T) {
	later := testTime.Add(time.Hour)
	for _, tc := range []struct {
		name     string
		register bool // a registration between Prerender and Issue
		wantAt   time.Time
	}{
		{"unchanged property: the pre-rendered document", false, testTime},
		{"registration in between: rendered anew", true, later},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now := testTime
			sim := newTestSimulator(t, SimulatorOptions{Now: func() time.Time { return now }})
			req := Request{IdempotencyKey: "k1", NestID: "nest-1", UniqueNo: uniqueNoFor(t), Address: "서울특별시 마포구 망원로 1"}
			if err := sim.Prerender(Request{NestID: req.NestID, UniqueNo: req.UniqueNo, Address: req.Address}); err != nil {
				t.Fatalf("Prerender: %v", err)
			}
			now = later
			if tc.register {
				sim.Register(req.UniqueNo, Registration{At: testTime.Add(time.Minute), Add: AttachmentEntry("주식회사 테스트", 10_000_000, testTime)})
			}
			got, err := sim.Issue(context.Background(), req)
			if err != nil {
				t.Fatalf("Issue: %v", err)
			}
			reg := applyRegistrations(Content(req.NestID, req.UniqueNo, req.Address), sim.registrations(req.UniqueNo, now))
			want, err := sim.Render(reg, tc.wantAt)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.PDF, want.PDF) || got.Pages != want.Pages {
				t.Errorf("Issue returned %d bytes, %d pages; want the document printed at %s (%d bytes, %d pages)",
					len(got.PDF), got.Pages, tc.wantAt, len(want.PDF), want.Pages)
			}
			if n := sim.PaymentCount(req.IdempotencyKey); n != 1 {
				t.Errorf("%d payments, want 1", n)
			}
		})
	}

	sim := newTestSimulator(t, SimulatorOptions{})
	for _, req := range []Request{
		{UniqueNo: "12345"},
		{UniqueNo: "1101-2345-678901"},
		{UniqueNo: strings.Repeat("1", 14), Address: strings.Repeat("가", 600)},
	} {
		if err := sim.Prerender(req); err == nil {
			t.Errorf("Prerender(%+v) accepted an invalid request", req)
		}
	}
	if len(sim.rendered) != 0 || len(sim.Payments()) != 0 {
		t.Errorf("refused Prerender calls left %d documents, %d payments", len(sim.rendered), len(sim.Payments()))
	}
}
