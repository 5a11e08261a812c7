package watcher

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/riverqueue/river"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"github.com/uptrace/bun"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
)

// MaxWebhookEndpoints bounds a user's endpoints.
const MaxWebhookEndpoints = 10

// newWebhookSecret returns a whsec_ secret of 32 random bytes.
func newWebhookSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return "whsec_" + base64.StdEncoding.EncodeToString(b)
}

// blockedAddr reports whether an address is loopback, private, link-local,
// CGNAT, multicast, unspecified or another special-purpose range, or an IPv6
// address that embeds such an IPv4 one: never a client's public endpoint.
func blockedAddr(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() {
		return true
	}
	for _, p := range nonGlobalPrefixes {
		if p.Contains(a) {
			return true
		}
	}
	// An IPv6 address that embeds an IPv4 one (NAT64, 6to4) reaches that
	// IPv4 address through a translator: judge the embedded address.
	if a.Is6() {
		b := a.As16()
		switch {
		case nat64Prefix.Contains(a):
			return blockedAddr(netip.AddrFrom4([4]byte(b[12:16])))
		case sixToFourPrefix.Contains(a):
			return blockedAddr(netip.AddrFrom4([4]byte(b[2:6])))
		}
	}
	return false
}

var (
	nat64Prefix     = netip.MustParsePrefix("64:ff9b::/96")
	sixToFourPrefix = netip.MustParsePrefix("2002::/16")
	// nonGlobalPrefixes are the special-purpose ranges (IANA registries)
	// that are no public unicast destination, beyond what netip classifies.
	nonGlobalPrefixes = []netip.Prefix{
		netip.MustParsePrefix("0.0.0.0/8"),      // this network
		netip.MustParsePrefix("100.64.0.0/10"),  // CGNAT
		netip.MustParsePrefix("192.0.0.0/24"),   // IETF protocol assignments
		netip.MustParsePrefix("198.18.0.0/15"),  // benchmarking
		netip.MustParsePrefix("240.0.0.0/4"),    // reserved, and the broadcast address
		netip.MustParsePrefix("::/96"),          // IPv4-compatible (deprecated)
		netip.MustParsePrefix("64:ff9b:1::/48"), // local-use NAT64
		netip.MustParsePrefix("100::/64"),       // discard-only
		netip.MustParsePrefix("2001::/32"),      // Teredo
		netip.MustParsePrefix("fec0::/10"),      // site-local (deprecated)
	}
)

// ValidateWebhookURL checks an endpoint URL: absolute http or https, a
// host, no credentials. Unless allowPrivate, a host that is or resolves to
// a loopback, private or link-local address is refused (the delivery's
// dialer checks again, against DNS rebinding).
func ValidateWebhookURL(ctx context.Context, raw string, allowPrivate bool) (string, error) {
	bad := func(format string, args ...any) (string, error) {
		return "", core.InvalidInput("url", format, args...)
	}
	if raw == "" || len(raw) > 2000 {
		return bad("url must be 1 to 2000 characters")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return bad("url is not a URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return bad("url must be http or https, not %q", u.Scheme)
	}
	if u.Host == "" || u.Hostname() == "" {
		return bad("url has no host")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return bad("url's port %q is not a port: 1 to 65535", p)
		}
	}
	if u.User != nil {
		return bad("url must not carry credentials")
	}
	if u.Fragment != "" {
		return bad("url must not have a fragment")
	}
	if _, err := netip.ParseAddr(u.Hostname()); err != nil && !hostName(u.Hostname()) {
		return bad("url's host is not a host name: letters, digits, hyphens and dots (an international name as xn--…)")
	}
	if allowPrivate {
		return u.String(), nil
	}
	host := u.Hostname()
	if a, err := netip.ParseAddr(host); err == nil {
		if blockedAddr(a) {
			return bad("url points to a private or loopback address")
		}
		return u.String(), nil
	}
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return bad("url points to a private or loopback address")
	}
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupNetIP(rctx, "ip", host)
	if err != nil || len(addrs) == 0 {
		return bad("url's host %q does not resolve", host)
	}
	for _, a := range addrs {
		if blockedAddr(a) {
			return bad("url's host resolves to a private or loopback address")
		}
	}
	return u.String(), nil
}

// hostName reports whether h is a DNS host name as a resolver takes it:
// labels of ASCII letters, digits and hyphens, 1 to 63 long, not
// beginning or ending with a hyphen, 253 characters at most. An
// international name is written in punycode (xn--…): a host percent-encoded
// or in another script, with an invisible or a bidirectional character in
// it, is none.
func hostName(h string) bool {
	h = strings.TrimSuffix(h, ".")
	if h == "" || len(h) > 253 {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range []byte(label) {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// webhookClient is the deliveries' HTTP client, built once: no redirects
// followed, and unless private addresses are allowed, a dialer that
// refuses them at connect time (a name that resolved to a public address
// at registration may not now). One transport for every delivery keeps
// its connections to an endpoint between deliveries.
func (s *Watcher) webhookClient() *http.Client {
	s.webhookHTTPOnce.Do(func() {
		cfg := s.WatchCfg()
		tr := cfg.WebhookTransport
		if tr == nil {
			tr = newWebhookTransport(cfg.WebhookAllowPrivate, cfg.WebhookTimeout)
		}
		s.webhookHTTP = &http.Client{Transport: tr, Timeout: cfg.WebhookTimeout,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	})
	return s.webhookHTTP
}

// newWebhookTransport returns the deliveries' transport: unless
// allowPrivate, its dialer refuses a loopback, private or link-local
// address as it connects (refuseBlockedAddr).
func newWebhookTransport(allowPrivate bool, timeout time.Duration) *http.Transport {
	d := &net.Dialer{Timeout: 10 * time.Second}
	if !allowPrivate {
		d.Control = func(_, address string, _ syscall.RawConn) error { return refuseBlockedAddr(address) }
	}
	return &http.Transport{DialContext: d.DialContext, Proxy: nil, MaxIdleConnsPerHost: 2, IdleConnTimeout: 30 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second, ResponseHeaderTimeout: timeout}
}

// refuseBlockedAddr is the dialer's check of the address it is about to
// connect to (host:port, resolved): the guard against DNS rebinding.
func refuseBlockedAddr(address string) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil || blockedAddr(ap.Addr()) {
		return fmt.Errorf("webhook: refusing to connect to %s", address)
	}
	return nil
}

// WebhookEndpointResult is an endpoint with its secret, which is shown
// only when it is created or rotated.
type WebhookEndpointResult struct {
	Endpoint *db.WebhookEndpoint
	Secret   string
}

// RegisterWebhookEndpoint registers an endpoint for the caller's alerts and
// returns its signing secret (whsec_…), shown this once.
func (s *Watcher) RegisterWebhookEndpoint(ctx context.Context, rawURL string) (*WebhookEndpointResult, error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	u, err := ValidateWebhookURL(ctx, rawURL, s.WatchCfg().WebhookAllowPrivate)
	if err != nil {
		return nil, err
	}
	now := s.Clock()
	ep := &db.WebhookEndpoint{ID: core.NewID(), OwnerID: actor.UserID, URL: u, Secret: newWebhookSecret(), CreatedAt: now, UpdatedAt: now}
	err = s.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(hashtext('dungji_webhooks'), hashtext(?))", actor.UserID); err != nil {
			return core.Internal("lock endpoints", err)
		}
		n, err := tx.NewSelect().Model((*db.WebhookEndpoint)(nil)).Where("owner_id = ?", actor.UserID).Count(ctx)
		if err != nil {
			return core.Internal("count endpoints", err)
		}
		if n >= MaxWebhookEndpoints {
			return core.InvalidInput("url", "at most %d endpoints per user", MaxWebhookEndpoints)
		}
		if _, err := tx.NewInsert().Model(ep).Exec(ctx); err != nil {
			if core.IsUniqueViolation(err, "") {
				return &core.Error{Code: core.CodeConflict, Field: "url", Message: "this URL is registered already"}
			}
			return core.Internal("save endpoint", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &WebhookEndpointResult{Endpoint: ep, Secret: ep.Secret}, nil
}

// changeableEndpoint is ownEndpoint for a change (rotate, enable,
// delete): only the endpoint's owner passes; an admin, who may read its
// deliveries, is FORBIDDEN.
func (s *Watcher) changeableEndpoint(ctx context.Context, idb bun.IDB, actor core.Actor, id string, lock bool) (*db.WebhookEndpoint, error) {
	ep, err := s.ownEndpoint(ctx, idb, actor, id, lock)
	if err != nil {
		return nil, err
	}
	if !actor.CanChange(ep.OwnerID) {
		return nil, core.Errorf(core.CodeForbidden, "this webhook endpoint belongs to another user: an admin may read its deliveries, not change it")
	}
	return ep, nil
}

func (s *Watcher) ownEndpoint(ctx context.Context, idb bun.IDB, actor core.Actor, id string, lock bool) (*db.WebhookEndpoint, error) {
	id, err := core.ParseID("id", id)
	if err != nil {
		return nil, err
	}
	ep := new(db.WebhookEndpoint)
	q := idb.NewSelect().Model(ep).Where("id = ?", id)
	if lock {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		if db.ErrNoRows(err) {
			return nil, core.Errorf(core.CodeNotFound, "webhook endpoint not found")
		}
		return nil, core.Internal("load endpoint", err)
	}
	if !actor.CanSee(ep.OwnerID) {
		return nil, core.Errorf(core.CodeNotFound, "webhook endpoint not found")
	}
	return ep, nil
}

// RotateWebhookSecret gives an endpoint a new secret. Messages are signed
// with both the new and the old one until the grace period
// (WEBHOOK_SECRET_GRACE) ends, so a receiver can switch at its own pace.
func (s *Watcher) RotateWebhookSecret(ctx context.Context, id string) (*WebhookEndpointResult, error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	var out *WebhookEndpointResult
	err = s.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		ep, err := s.changeableEndpoint(ctx, tx, actor, id, true)
		if err != nil {
			return err
		}
		now := s.Clock()
		until := now.Add(s.WatchCfg().WebhookSecretGrace)
		old := ep.Secret
		ep.PreviousSecret, ep.PreviousSecretUntil, ep.Secret, ep.UpdatedAt = &old, &until, newWebhookSecret(), now
		if _, err := tx.NewUpdate().Model(ep).Column("secret", "previous_secret", "previous_secret_until", "updated_at").WherePK().Exec(ctx); err != nil {
			return core.Internal("rotate secret", err)
		}
		out = &WebhookEndpointResult{Endpoint: ep, Secret: ep.Secret}
		return nil
	})
	return out, err
}

// EnableWebhookEndpoint re-enables an endpoint disabled after a 410 (or
// disables it, with enabled false). Deliveries that failed meanwhile can be
// replayed.
func (s *Watcher) EnableWebhookEndpoint(ctx context.Context, id string, enabled bool) (*db.WebhookEndpoint, error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	ep, err := s.changeableEndpoint(ctx, s.DB.Bun, actor, id, false)
	if err != nil {
		return nil, err
	}
	now := s.Clock()
	if enabled {
		ep.DisabledAt, ep.DisabledReason = nil, nil
	} else if ep.DisabledAt == nil {
		r := "disabled by its owner"
		ep.DisabledAt, ep.DisabledReason = &now, &r
	}
	ep.UpdatedAt = now
	if _, err := s.DB.Bun.NewUpdate().Model(ep).Column("disabled_at", "disabled_reason", "updated_at").WherePK().Exec(ctx); err != nil {
		return nil, core.Internal("update endpoint", err)
	}
	return ep, nil
}

// DeleteWebhookEndpoint removes an endpoint and its delivery log.
func (s *Watcher) DeleteWebhookEndpoint(ctx context.Context, id string) error {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return err
	}
	ep, err := s.changeableEndpoint(ctx, s.DB.Bun, actor, id, false)
	if err != nil {
		return err
	}
	if _, err := s.DB.Bun.NewDelete().Model(ep).WherePK().Exec(ctx); err != nil {
		return core.Internal("delete endpoint", err)
	}
	return nil
}

// WebhookEndpoints lists the caller's endpoints (secrets not included).
func (s *Watcher) WebhookEndpoints(ctx context.Context) ([]*db.WebhookEndpoint, error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	var out []*db.WebhookEndpoint
	if err := s.DB.Bun.NewSelect().Model(&out).Where("owner_id = ?", actor.UserID).OrderExpr("id").Scan(ctx); err != nil {
		return nil, core.Internal("list endpoints", err)
	}
	return out, nil
}

// insertDelivery records, in tx, an alert's delivery to an endpoint and
// its River job; the same alert is never queued twice to one endpoint.
func (s *Watcher) insertDelivery(ctx context.Context, tx bun.Tx, ep *db.WebhookEndpoint, a *db.Alert, now time.Time) error {
	d := &db.WebhookDelivery{ID: core.NewID(), EndpointID: ep.ID, AlertID: a.ID, OwnerID: ep.OwnerID, Status: db.DeliveryPending,
		CreatedAt: now, UpdatedAt: now}
	res, err := tx.NewInsert().Model(d).On("CONFLICT (endpoint_id, alert_id) DO NOTHING").Exec(ctx)
	if err != nil {
		return core.Internal("save delivery", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil
	}
	return s.queueDelivery(ctx, tx, d)
}

func (s *Watcher) queueDelivery(ctx context.Context, tx bun.Tx, d *db.WebhookDelivery) error {
	job, err := s.River.InsertTx(ctx, tx.Tx, core.WebhookDeliveryArgs{DeliveryID: d.ID}, &river.InsertOpts{
		Queue: core.QueueWatch, MaxAttempts: len(s.WatchCfg().WebhookRetrySchedule) + 1})
	if err != nil {
		return core.Internal("queue delivery", err)
	}
	_, err = tx.NewUpdate().Model((*db.WebhookDelivery)(nil)).Set("job_id = ?", job.Job.ID).Where("id = ?", d.ID).Exec(ctx)
	if err != nil {
		return core.Internal("record delivery job", err)
	}
	d.JobID = &job.Job.ID
	return nil
}

// WebhookDeliveries lists deliveries, newest first: an admin's of every
// endpoint (or of endpointID), a user's of their own endpoints.
func (s *Watcher) WebhookDeliveries(ctx context.Context, endpointID *string, args core.PageArgs) (core.Page[*db.WebhookDelivery], error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return core.Page[*db.WebhookDelivery]{}, err
	}
	var epID string
	if endpointID != nil {
		// The argument's own name in the message, not the endpoint's "id".
		if _, err := core.ParseID("endpointId", *endpointID); err != nil {
			return core.Page[*db.WebhookDelivery]{}, err
		}
		ep, err := s.ownEndpoint(ctx, s.DB.Bun, actor, *endpointID, false)
		if err != nil {
			return core.Page[*db.WebhookDelivery]{}, err
		}
		epID = ep.ID
	}
	return core.ListPage(ctx, s.DB.Bun, args, "list deliveries", func(d *db.WebhookDelivery) string { return d.ID },
		func(q *bun.SelectQuery) *bun.SelectQuery {
			if epID != "" {
				q = q.Where("endpoint_id = ?", epID)
			}
			if !actor.Admin {
				q = q.Where("owner_id = ?", actor.UserID)
			}
			return q
		})
}

// WebhookAttempts lists a delivery's attempts, oldest first.
func (s *Watcher) WebhookAttempts(ctx context.Context, deliveryID string) ([]*db.WebhookAttempt, error) {
	var out []*db.WebhookAttempt
	if err := s.DB.Bun.NewSelect().Model(&out).Where("delivery_id = ?", deliveryID).OrderExpr("id").Scan(ctx); err != nil {
		return nil, core.Internal("list attempts", err)
	}
	return out, nil
}

// ReplayWebhookDelivery sends a delivery again (admins only), with the same
// webhook-id: a receiver that processed it already can tell. Its endpoint
// must be enabled.
func (s *Watcher) ReplayWebhookDelivery(ctx context.Context, id string) (*db.WebhookDelivery, error) {
	actor, err := core.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	if !actor.Admin {
		return nil, core.Errorf(core.CodeForbidden, "only an admin may replay a delivery")
	}
	id, err = core.ParseID("id", id)
	if err != nil {
		return nil, err
	}
	d := new(db.WebhookDelivery)
	err = s.InTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if err := tx.NewSelect().Model(d).Where("id = ?", id).For("UPDATE").Scan(ctx); err != nil {
			if db.ErrNoRows(err) {
				return core.Errorf(core.CodeNotFound, "delivery not found")
			}
			return core.Internal("load delivery", err)
		}
		if d.Status == db.DeliveryPending {
			return core.Errorf(core.CodeConflict, "the delivery is pending already")
		}
		ep := new(db.WebhookEndpoint)
		if err := tx.NewSelect().Model(ep).Where("id = ?", d.EndpointID).Scan(ctx); err != nil {
			return core.Internal("load endpoint", err)
		}
		if ep.DisabledAt != nil {
			return core.Errorf(core.CodeConflict, "the endpoint is disabled; enable it first")
		}
		d.Status, d.UpdatedAt = db.DeliveryPending, s.Clock()
		if _, err := tx.NewUpdate().Model(d).Column("status", "updated_at").WherePK().Exec(ctx); err != nil {
			return core.Internal("replay delivery", err)
		}
		return s.queueDelivery(ctx, tx, d)
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// WebhookMessage is the body of an alert's webhook.
type WebhookMessage struct {
	Type      string         `json:"type"` // "registry.alert"
	Timestamp time.Time      `json:"timestamp"`
	Data      map[string]any `json:"data"`
}

func alertMessage(a *db.Alert) ([]byte, error) {
	return json.Marshal(WebhookMessage{Type: "registry.alert", Timestamp: a.CreatedAt, Data: map[string]any{
		"alert_id": a.ID, "nest_id": a.NestID, "kind": a.Kind, "severity": a.Severity, "message": a.Message,
		"before": json.RawMessage(nullIfEmpty(a.BeforeEntry)), "after": json.RawMessage(nullIfEmpty(a.AfterEntry)),
		"reasons": json.RawMessage(nullIfEmpty(a.Reasons)), "ocr_task_id": a.OCRTaskID, "previous_ocr_task_id": a.PreviousOCRTaskID,
		"file_id": a.FileID, "previous_file_id": a.PreviousFileID, "created_at": a.CreatedAt,
	}})
}

func nullIfEmpty(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("null")
	}
	return b
}

// signatures signs a message with the endpoint's secret and, during a
// rotation's grace period, the previous one too: space-separated v1,…
func signatures(ep *db.WebhookEndpoint, msgID string, ts time.Time, body []byte, now time.Time) (string, error) {
	secrets := []string{ep.Secret}
	if ep.PreviousSecret != nil && ep.PreviousSecretUntil != nil && now.Before(*ep.PreviousSecretUntil) {
		secrets = append(secrets, *ep.PreviousSecret)
	}
	var sigs []string
	for _, sec := range secrets {
		wh, err := standardwebhooks.NewWebhook(sec)
		if err != nil {
			return "", err
		}
		sig, err := wh.Sign(msgID, ts, body)
		if err != nil {
			return "", err
		}
		sigs = append(sigs, sig)
	}
	return strings.Join(sigs, " "), nil
}

// WebhookDeliveryWorker delivers one alert to one endpoint: 2xx is
// delivered; 410 Gone disables the endpoint; anything else is retried on
// the Standard Webhooks schedule and, after the last attempt, the delivery
// is FAILED (an admin can replay it).
type WebhookDeliveryWorker struct {
	river.WorkerDefaults[core.WebhookDeliveryArgs]
	svc *Watcher
}

// NextRetry follows the Standard Webhooks schedule.
func (w *WebhookDeliveryWorker) NextRetry(job *river.Job[core.WebhookDeliveryArgs]) time.Time {
	sched := w.svc.WatchCfg().WebhookRetrySchedule
	i := min(max(job.Attempt-1, 0), len(sched)-1)
	return time.Now().Add(sched[i])
}

// Timeout bounds one attempt a little beyond the HTTP timeout.
func (w *WebhookDeliveryWorker) Timeout(*river.Job[core.WebhookDeliveryArgs]) time.Duration {
	return w.svc.WatchCfg().WebhookTimeout + 10*time.Second
}

// Work implements river.Worker.
func (w *WebhookDeliveryWorker) Work(ctx context.Context, job *river.Job[core.WebhookDeliveryArgs]) error {
	s := w.svc
	d := new(db.WebhookDelivery)
	if err := s.DB.Bun.NewSelect().Model(d).Where("id = ?", job.Args.DeliveryID).Scan(ctx); err != nil {
		if db.ErrNoRows(err) {
			return river.JobCancel(errors.New("delivery is gone"))
		}
		return err
	}
	if d.Status != db.DeliveryPending {
		return nil // delivered already (a replayed job raced the first)
	}
	ep := new(db.WebhookEndpoint)
	if err := s.DB.Bun.NewSelect().Model(ep).Where("id = ?", d.EndpointID).Scan(ctx); err != nil {
		return err
	}
	if ep.DisabledAt != nil {
		return w.finish(ctx, d, db.DeliveryFailed, nil, "the endpoint is disabled", true)
	}
	a := new(db.Alert)
	if err := s.DB.Bun.NewSelect().Model(a).Where("id = ?", d.AlertID).Scan(ctx); err != nil {
		return err
	}
	body, err := alertMessage(a)
	if err != nil {
		return river.JobCancel(err)
	}
	msgID := d.MessageID()
	// The timestamp is the wall clock of this attempt: the receiver
	// compares it with its own (5 min tolerance).
	sent := time.Now()
	sig, err := signatures(ep, msgID, sent, body, s.Clock())
	if err != nil {
		return river.JobCancel(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.URL, bytes.NewReader(body))
	if err != nil {
		return w.finish(ctx, d, db.DeliveryFailed, nil, "bad endpoint URL: "+err.Error(), true)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "dungji-webhooks/1")
	req.Header.Set("webhook-id", msgID)
	req.Header.Set("webhook-timestamp", fmt.Sprint(sent.Unix()))
	req.Header.Set("webhook-signature", sig)
	resp, herr := s.webhookClient().Do(req)
	var code *int
	var errText string
	if herr != nil {
		errText = deliveryError(herr)
	} else {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		c := resp.StatusCode
		code = &c
	}
	attempt := &db.WebhookAttempt{DeliveryID: d.ID, Attempt: job.Attempt, At: s.Clock(), StatusCode: code,
		DurationMS: int(time.Since(sent).Milliseconds())}
	if errText != "" {
		attempt.Error = &errText
	}
	if _, err := s.DB.Bun.NewInsert().Model(attempt).Exec(ctx); err != nil {
		return err
	}
	switch {
	case code != nil && *code >= 200 && *code < 300:
		return w.finish(ctx, d, db.DeliveryDelivered, code, "", false)
	case code != nil && *code == http.StatusGone:
		now := s.Clock()
		reason := "the endpoint answered 410 Gone"
		if _, err := s.DB.Bun.NewUpdate().Model(ep).Set("disabled_at = ?, disabled_reason = ?, updated_at = ?", now, reason, now).
			WherePK().Exec(ctx); err != nil {
			return err
		}
		return w.finish(ctx, d, db.DeliveryFailed, code, reason, true)
	}
	if errText == "" {
		errText = fmt.Sprintf("the endpoint answered %d", *code)
	}
	if job.Attempt >= job.MaxAttempts {
		return w.finish(ctx, d, db.DeliveryFailed, code, errText+" on the last attempt", true)
	}
	if err := w.record(ctx, d, db.DeliveryPending, code, errText); err != nil {
		return err
	}
	return errors.New("webhook: " + errText)
}

func (w *WebhookDeliveryWorker) record(ctx context.Context, d *db.WebhookDelivery, status string, code *int, errText string) error {
	now := w.svc.Clock()
	q := w.svc.DB.Bun.NewUpdate().Model(d).Set("status = ?, attempts = attempts + 1, last_status = ?, updated_at = ?", status, code, now)
	if errText != "" {
		q = q.Set("last_error = ?", errText)
	} else {
		q = q.Set("last_error = NULL")
	}
	if status == db.DeliveryDelivered {
		q = q.Set("delivered_at = ?", now)
	}
	_, err := q.Where("id = ?", d.ID).Exec(ctx)
	return err
}

func (w *WebhookDeliveryWorker) finish(ctx context.Context, d *db.WebhookDelivery, status string, code *int, errText string, cancel bool) error {
	if err := w.record(ctx, d, status, code, errText); err != nil {
		return err
	}
	if cancel {
		return river.JobCancel(errors.New(errText))
	}
	return nil
}

// deliveryError is what a failed attempt's log and the delivery's
// last_error say: the client's error without the address of this
// service's own DNS resolver, which a lookup error names ("lookup host on
// 10.0.0.53:53: no such host") and which is none of the endpoint owner's
// business.
func deliveryError(err error) string {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.Server != "" {
		server := dnsErr.Server
		dnsErr.Server = ""
		defer func() { dnsErr.Server = server }()
	}
	return err.Error()
}
