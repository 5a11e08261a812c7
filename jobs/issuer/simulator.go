package issuer

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultFontPath is the Korean font the simulator renders with. Debian and
// Ubuntu install it with the fonts-nanum package.
const DefaultFontPath = "/usr/share/fonts/truetype/nanum/NanumGothic.ttf"

// SimulatorOptions configures a Simulator. The zero value is usable: no
// latency, the default font, a text PDF and no random failures.
type SimulatorOptions struct {
	// Latency is how long each Issue call takes before it answers, like a
	// browser session on the registry site. Cancelling the context ends the
	// wait. The server's configuration uses 2s; tests use 0.
	Latency time.Duration
	// FontPath is a TrueType font with Hangul; DefaultFontPath when empty.
	FontPath string
	// ImageOnly renders every page as an image with no text layer, as a
	// scanned document, so that OCR has real work to do.
	ImageOnly bool
	// Layout is the printed form; the zero Layout is the simulator's own.
	Layout Layout
	// FailureRates injects failures at random: each Issue call fails with a
	// cause with that probability. The rates must sum to at most 1.
	FailureRates map[Cause]float64
	// Rand drives FailureRates. Nil seeds a source at random.
	Rand rand.Source
	// Now is the clock for payments and the printed 열람일시; time.Now when nil.
	Now func() time.Time
}

// Payment is one entry of the simulator's payment ledger.
type Payment struct {
	Key       string // the request's idempotency key
	UniqueNo  string
	PaidAt    time.Time
	Delivered bool // the document was returned to the caller
}

// Simulator is an Issuer that behaves like the registry-office bot: it waits,
// pays once per idempotency key, can fail in each documented way, and
// returns a realistic 등기사항전부증명서 PDF built from Content. It is safe for
// concurrent use.
type Simulator struct {
	opts     SimulatorOptions
	renderer *renderer
	now      func() time.Time

	mu       sync.Mutex
	rng      *rand.Rand
	queued   map[string][]injection // by unique number, consumed first in first out
	unknown  map[string]bool
	payments []*Payment
	byKey    map[string]*Payment
	timeline map[string][]Registration // by unique number (timeline.go)
	rendered map[string]prerendered    // by prerenderKey (Prerender)
}

// prerendered is a document Prerender made, and the registrations it shows.
type prerendered struct {
	regs []Registration
	doc  Document
}

// injection is a failure queued for one Issue call.
type injection struct {
	cause        Cause
	afterPayment bool
}

// NewSimulator loads the font and validates opts.
func NewSimulator(opts SimulatorOptions) (*Simulator, error) {
	if opts.Latency < 0 {
		return nil, fmt.Errorf("issuer: negative latency %s", opts.Latency)
	}
	if err := validateRates(opts.FailureRates); err != nil {
		return nil, err
	}
	if opts.FontPath == "" {
		opts.FontPath = DefaultFontPath
	}
	ttf, err := os.ReadFile(opts.FontPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("issuer: font %s not found; install the Debian package fonts-nanum or set the font path: %w", opts.FontPath, err)
	}
	if err != nil {
		return nil, fmt.Errorf("issuer: read font %s: %w", opts.FontPath, err)
	}
	r, err := newRenderer(ttf)
	if err != nil {
		return nil, fmt.Errorf("issuer: font %s is not a usable TrueType font: %w", opts.FontPath, err)
	}
	src := opts.Rand
	if src == nil {
		src = rand.NewPCG(rand.Uint64(), rand.Uint64())
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	return &Simulator{
		opts:     opts,
		renderer: r,
		now:      now,
		rng:      rand.New(src),
		queued:   map[string][]injection{},
		unknown:  map[string]bool{},
		byKey:    map[string]*Payment{},
		rendered: map[string]prerendered{},
	}, nil
}

// FailNext makes the next n Issue calls for uniqueNo fail with cause, before
// any payment; except CauseNoDocument, which, as with the real bot, happens
// after paying, with the document never delivered. It panics on an unknown
// cause, a programming error.
func (s *Simulator) FailNext(uniqueNo string, cause Cause, n int) {
	if !cause.Valid() {
		panic(fmt.Sprintf("issuer: FailNext with unknown cause %q", cause))
	}
	s.inject(uniqueNo, injection{cause: cause, afterPayment: cause == CauseNoDocument}, n)
}

// FailNextAfterPayment makes the next n Issue calls for uniqueNo fail with
// CauseTransient after the payment was recorded: the document is not
// delivered, and only a retry with the same idempotency key can obtain it
// without paying again.
func (s *Simulator) FailNextAfterPayment(uniqueNo string, n int) {
	s.inject(uniqueNo, injection{cause: CauseTransient, afterPayment: true}, n)
}

func (s *Simulator) inject(uniqueNo string, inj injection, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for range n {
		s.queued[uniqueNo] = append(s.queued[uniqueNo], inj)
	}
}

// Unknown makes uniqueNo a property the registry does not have: Issue fails
// with CausePermanent without paying. Numbers starting with "0000" are
// unknown too.
func (s *Simulator) Unknown(uniqueNo string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.unknown[uniqueNo] = true
}

// Payments returns a copy of the ledger, in payment order.
func (s *Simulator) Payments() []Payment {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Payment, len(s.payments))
	for i, p := range s.payments {
		out[i] = *p
	}
	return out
}

// PaymentCount returns how many payments were made for an idempotency key:
// 0 or 1, unless the simulator is broken.
func (s *Simulator) PaymentCount(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, p := range s.payments {
		if p.Key == key {
			n++
		}
	}
	return n
}

// Render returns the PDF the simulator issues for reg viewed at viewedAt,
// without latency, payment or failures. The same arguments give the same
// bytes.
func (s *Simulator) Render(reg Registry, viewedAt time.Time) (*Document, error) {
	pdf, pages, err := s.renderer.render(reg, viewedAt, s.opts.ImageOnly, s.opts.Layout)
	if err != nil {
		return nil, fmt.Errorf("issuer: render: %w", err)
	}
	return &Document{PDF: pdf, Pages: pages}, nil
}

// Issue simulates one bot run: start a session (Latency), look the property
// up, pay (once per idempotency key), then download the document.
//
// Queued failures (FailNext) are consumed before the property is looked up,
// so they apply to unknown properties too; random failures (FailureRates)
// are drawn only when none is queued. A failure due after the payment
// (NO_DOCUMENT, FailNextAfterPayment) is used up without effect when no
// payment is made: the property is unknown or the payment is a duplicate.
func (s *Simulator) Issue(ctx context.Context, req Request) (*Document, error) {
	if err := req.Validate(); err != nil {
		return nil, newError(CausePermanent, err, "invalid request: %v", err)
	}
	if err := s.wait(ctx); err != nil {
		return nil, newError(CauseTransient, err, "bot session interrupted: %v", err)
	}

	s.mu.Lock()
	inj, injected := s.nextInjection(req.UniqueNo)
	if injected && !inj.afterPayment {
		s.mu.Unlock()
		return nil, injectedError(inj.cause)
	}
	if s.unknown[req.UniqueNo] || strings.HasPrefix(req.UniqueNo, "0000") {
		s.mu.Unlock()
		return nil, newError(CausePermanent, nil, "no such property: %s", FormatUniqueNo(req.UniqueNo))
	}
	payment, err := s.pay(req)
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if injected {
		return nil, injectedError(inj.cause)
	}

	regs := s.registrations(req.UniqueNo, payment.PaidAt)
	doc := s.prerendered(req, regs)
	if doc == nil {
		reg := applyRegistrations(Content(req.NestID, req.UniqueNo, req.Address), regs)
		if doc, err = s.Render(reg, payment.PaidAt); err != nil {
			return nil, err // not classified: a bug in the simulator, not a bot failure
		}
	}
	s.mu.Lock()
	payment.Delivered = true
	s.mu.Unlock()
	return doc, nil
}

// Prerender renders now the document Issue will return for req's property
// (its nest, unique number and address; the idempotency key does not
// matter), so that Issue then delivers it without rendering. Rendering costs
// tens of CPU-milliseconds per document, a cost a real bot puts on its own
// machine, not on ours: a benchmark pre-renders its documents before its
// timed phase to keep that cost out of its figures.
//
// The pre-rendered document's 열람일시 is the time of Prerender, not of the
// payment. A registration that the property's timeline adds in between
// changes the content, and Issue renders anew. Prerender neither pays nor
// fails on purpose; its error is a rendering bug or an invalid request.
func (s *Simulator) Prerender(req Request) error {
	req.IdempotencyKey = cmp.Or(req.IdempotencyKey, "prerender")
	if err := req.Validate(); err != nil {
		return fmt.Errorf("issuer: prerender: %w", err)
	}
	at := s.now().Truncate(time.Second)
	regs := s.registrations(req.UniqueNo, at)
	doc, err := s.Render(applyRegistrations(Content(req.NestID, req.UniqueNo, req.Address), regs), at)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rendered[prerenderKey(req)] = prerendered{regs: regs, doc: *doc}
	return nil
}

func prerenderKey(req Request) string {
	return req.NestID + "\x00" + req.UniqueNo + "\x00" + req.Address
}

// prerendered returns the document Prerender made for req if it shows the
// same registrations, else nil. The content is a function of the key and the
// registrations (Content, applyRegistrations).
func (s *Simulator) prerendered(req Request, regs []Registration) *Document {
	s.mu.Lock()
	p, ok := s.rendered[prerenderKey(req)]
	s.mu.Unlock()
	if !ok || !reflect.DeepEqual(p.regs, regs) {
		return nil
	}
	doc := p.doc
	return &doc
}

func (s *Simulator) wait(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.opts.Latency <= 0 {
		return nil
	}
	t := time.NewTimer(s.opts.Latency)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// nextInjection pops a queued failure, or draws a random one. s.mu is held.
func (s *Simulator) nextInjection(uniqueNo string) (injection, bool) {
	if q := s.queued[uniqueNo]; len(q) > 0 {
		if len(q) == 1 {
			delete(s.queued, uniqueNo)
		} else {
			s.queued[uniqueNo] = q[1:]
		}
		return q[0], true
	}
	if len(s.opts.FailureRates) == 0 {
		return injection{}, false
	}
	x := s.rng.Float64()
	for _, c := range Causes {
		rate := s.opts.FailureRates[c]
		if x < rate {
			return injection{cause: c, afterPayment: c == CauseNoDocument}, true
		}
		x -= rate
	}
	return injection{}, false
}

// pay records the payment for req, or finds the earlier one for its key. A
// different key for a property whose paid document was never delivered is a
// duplicate payment: the real site would charge again, so the bot refuses.
// s.mu is held.
func (s *Simulator) pay(req Request) (*Payment, error) {
	if p, ok := s.byKey[req.IdempotencyKey]; ok {
		if p.UniqueNo != req.UniqueNo {
			return nil, newError(CausePermanent, nil, "idempotency key %q was used for property %s", req.IdempotencyKey, FormatUniqueNo(p.UniqueNo))
		}
		return p, nil
	}
	for _, p := range s.payments {
		if p.UniqueNo == req.UniqueNo && !p.Delivered {
			return nil, newError(CauseDuplicatePayment, nil,
				"property %s was paid for at %s under another request and not delivered",
				FormatUniqueNo(req.UniqueNo), p.PaidAt.Format(time.RFC3339))
		}
	}
	p := &Payment{Key: req.IdempotencyKey, UniqueNo: req.UniqueNo, PaidAt: s.now().Truncate(time.Second)}
	s.payments = append(s.payments, p)
	s.byKey[p.Key] = p
	return p, nil
}

func injectedError(c Cause) *Error {
	msg := map[Cause]string{
		CauseStartFailed:      "simulated: browser session could not start",
		CauseTransient:        "simulated: registry site timed out",
		CausePermanent:        "simulated: no such property",
		CauseDuplicatePayment: "simulated: payment already made for another request",
		CauseNoDocument:       "simulated: bot finished without a PDF",
	}[c]
	return &Error{Cause: c, Message: msg}
}

func validateRates(rates map[Cause]float64) error {
	sum := 0.0
	for c, r := range rates {
		if !c.Valid() {
			return fmt.Errorf("issuer: unknown failure cause %q (want one of %s)", c, causeNames())
		}
		if !(r >= 0 && r <= 1) {
			return fmt.Errorf("issuer: failure rate for %s is %v, want a value in [0,1]", c, r)
		}
		sum += r
	}
	if sum > 1+1e-9 {
		return fmt.Errorf("issuer: failure rates sum to %v, want at most 1", sum)
	}
	return nil
}

func causeNames() string {
	names := make([]string, len(Causes))
	for i, c := range Causes {
		names[i] = strings.ToLower(string(c))
	}
	return strings.Join(names, ", ")
}

// ParseFailureRates parses failure rates from configuration, as
// "start_failed=0.1,transient=0.05": comma-separated cause=rate pairs, causes
// case-insensitive, rates in [0,1] summing to at most 1. An empty string
// gives no rates.
func ParseFailureRates(s string) (map[Cause]float64, error) {
	rates := map[Cause]float64{}
	if strings.TrimSpace(s) == "" {
		return rates, nil
	}
	for _, pair := range strings.Split(s, ",") {
		name, value, ok := strings.Cut(pair, "=")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if !ok || name == "" {
			return nil, fmt.Errorf("issuer: failure rate %q: want cause=rate", strings.TrimSpace(pair))
		}
		c := Cause(strings.ToUpper(name))
		if !c.Valid() {
			return nil, fmt.Errorf("issuer: unknown failure cause %q (want one of %s)", name, causeNames())
		}
		if _, dup := rates[c]; dup {
			return nil, fmt.Errorf("issuer: failure cause %q given twice", name)
		}
		r, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return nil, fmt.Errorf("issuer: failure rate for %s: %q is not a number", name, value)
		}
		rates[c] = r
	}
	if err := validateRates(rates); err != nil {
		return nil, err
	}
	return rates, nil
}

// FormatFailureRates is the inverse of ParseFailureRates, in a stable order.
func FormatFailureRates(rates map[Cause]float64) string {
	var parts []string
	for c, r := range rates {
		parts = append(parts, strings.ToLower(string(c))+"="+strconv.FormatFloat(r, 'g', -1, 64))
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}
