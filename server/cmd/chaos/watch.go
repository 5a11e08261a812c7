package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/jobs/watch"
	"github.com/dungji/dungji/server/internal/cluster"
)

// The registry watch under the same faults. A share of the nests gets a
// watch (one check, on tomorrow's date: a date cannot be waited for on the
// wall clock), and once a nest's first read is compared, the run does what
// the date would do: it makes the check's River job due now with River's
// own JobRetry (what an operator's "retry" in River UI does), so the check
// runs through the worker's real code path. Half of the watched nests get a
// 가압류 registered in the simulator between the two reads: those must
// alert, the others must not. Every user has a webhook endpoint on the
// receiver below, which refuses connections and then answers 503 for a
// while; every alert must reach it, once per webhook-id.
const (
	watchedFrom  = 1.0 / 3 // watched nests: load positions from n/3 …
	watchedCount = 60      // … this many of them (requested from ~40 s on)
	hookDownAt   = 30 * time.Second
	hookRefused  = 40 * time.Second // connection refused
	hook503      = 30 * time.Second // then 503
	// hookSchedule is WEBHOOK_RETRY_SCHEDULE for the run: 2 min of retries
	// in all, longer than the receiver's outage.
	hookSchedule = "1s,2s,4s,8s,15s,30s,30s,30s"
)

// receiver is a client backend's webhook endpoint: it verifies the
// Standard Webhooks signature of each message with its user's secret and
// counts the messages by webhook-id.
type receiver struct {
	addr string

	mu      sync.Mutex
	srv     *http.Server
	secrets map[string]*standardwebhooks.Webhook // by path
	ids     map[string]int                       // verified messages by webhook-id
	alertOf map[string]string                    // webhook-id → data.alert_id
	badSig  int
	bad     []string

	unavailable         atomic.Bool
	refusedWindow, down time.Duration
	answered503         atomic.Int64
}

func newReceiver() (*receiver, error) {
	addr, err := cluster.FreeAddr()
	if err != nil {
		return nil, err
	}
	h := &receiver{addr: addr, secrets: map[string]*standardwebhooks.Webhook{}, ids: map[string]int{}, alertOf: map[string]string{}}
	return h, h.up()
}

func (h *receiver) up() error {
	ln, err := net.Listen("tcp", h.addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	h.mu.Lock()
	h.srv = srv
	h.mu.Unlock()
	go func() { _ = srv.Serve(ln) }()
	return nil
}

// down closes the listener and every connection: connection refused.
func (h *receiver) downNow() {
	h.mu.Lock()
	srv := h.srv
	h.srv = nil
	h.mu.Unlock()
	if srv != nil {
		_ = srv.Close()
	}
}

func (h *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if h.unavailable.Load() {
		h.answered503.Add(1)
		http.Error(w, "receiver unavailable", http.StatusServiceUnavailable)
		return
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, 1<<20))
	if err != nil {
		http.Error(w, "read", http.StatusBadRequest)
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	wh := h.secrets[req.URL.Path]
	if wh == nil {
		h.bad = append(h.bad, "no endpoint at "+req.URL.Path)
		http.Error(w, "no such endpoint", http.StatusNotFound)
		return
	}
	if err := wh.Verify(body, req.Header); err != nil {
		h.badSig++
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	var msg struct {
		Type string `json:"type"`
		Data struct {
			AlertID string `json:"alert_id"`
		} `json:"data"`
	}
	id := req.Header.Get("webhook-id")
	if err := json.Unmarshal(body, &msg); err != nil || msg.Type != "registry.alert" || msg.Data.AlertID == "" {
		h.bad = append(h.bad, fmt.Sprintf("%s: not an alert message: %.120s", id, body))
	}
	if prev, ok := h.alertOf[id]; ok && prev != msg.Data.AlertID {
		h.bad = append(h.bad, fmt.Sprintf("%s: alert %s, then %s", id, prev, msg.Data.AlertID))
	}
	h.ids[id]++
	h.alertOf[id] = msg.Data.AlertID
	w.WriteHeader(http.StatusNoContent)
}

// registerEndpoints gives every user an endpoint on the receiver.
func (r *run) registerEndpoints(ctx context.Context, tokens []string) error {
	for i, tok := range tokens {
		path := fmt.Sprintf("/hooks/user-%02d", i)
		var out struct {
			RegisterWebhookEndpoint struct{ Secret string } `json:"registerWebhookEndpoint"`
		}
		if err := r.api.do(ctx, tok, `mutation($url: String!) { registerWebhookEndpoint(url: $url) { secret } }`,
			map[string]any{"url": "http://" + r.hook.addr + path}, &out); err != nil {
			return fmt.Errorf("registerWebhookEndpoint: %w", err)
		}
		wh, err := standardwebhooks.NewWebhook(out.RegisterWebhookEndpoint.Secret)
		if err != nil {
			return err
		}
		r.hook.mu.Lock()
		r.hook.secrets[path] = wh
		r.hook.mu.Unlock()
	}
	return nil
}

// watched is a nest with a watch.
type watched struct {
	nest      int   // index in r.nests
	changed   bool  // a 가압류 is registered between its two reads
	job       int64 // the check's River job
	triggered bool
	err       string
}

// setWatches sets a watch on the chosen nests: one check, on tomorrow's
// date (Seoul).
func (r *run) setWatches(ctx context.Context, order []int) error {
	tomorrow := time.Now().In(watch.Seoul).AddDate(0, 0, 1).Format("2006-01-02")
	from := int(float64(r.n) * watchedFrom)
	for k := from; k < len(order) && len(r.watches) < watchedCount; k++ {
		i := order[k]
		if r.nests[i].unknown {
			continue
		}
		r.watches = append(r.watches, &watched{nest: i, changed: len(r.watches)%2 == 0})
	}
	errs := parallel(4, len(r.watches), func(k int) error {
		w := r.watches[k]
		n := r.nests[w.nest]
		var out struct {
			SetWatch struct {
				Checks []struct{ ID string } `json:"checks"`
			} `json:"setWatch"`
		}
		if err := r.api.do(ctx, n.user, `mutation($nest: ID!, $in: WatchInput!) { setWatch(nestId: $nest, input: $in) { checks { id } } }`,
			map[string]any{"nest": n.id, "in": map[string]any{"contractDate": tomorrow}}, &out); err != nil {
			return err
		}
		if len(out.SetWatch.Checks) != 1 {
			return fmt.Errorf("setWatch scheduled %d checks, want 1", len(out.SetWatch.Checks))
		}
		return r.pool.QueryRow(ctx, `SELECT job_id FROM watch_checks WHERE id = $1`, out.SetWatch.Checks[0].ID).Scan(&w.job)
	})
	if len(errs) > 0 {
		return fmt.Errorf("setWatch: %v", errs[0])
	}
	return nil
}

// driveWatches runs each watched nest's check once its first read is
// compared, after registering the 가압류 for the changed ones.
func (r *run) driveWatches(ctx context.Context) {
	rc, err := river.NewClient(riverpgxv5.New(r.pool), &river.Config{})
	if err != nil {
		r.log.Error("river client", "err", err)
		return
	}
	deadline, _ := ctx.Deadline()
	deadline = deadline.Add(-2 * time.Minute) // the check's issuance, read and alert need time too
	var wg sync.WaitGroup
	for _, w := range r.watches {
		wg.Go(func() {
			n := r.nests[w.nest]
			for {
				var compared int
				err := r.pool.QueryRow(ctx, `SELECT count(*) FROM registry_comparisons WHERE nest_id = $1`, n.id).Scan(&compared)
				if err == nil && compared > 0 {
					break
				}
				if time.Now().After(deadline) || ctx.Err() != nil {
					w.err = "the first read was not compared in time"
					return
				}
				time.Sleep(time.Second)
			}
			if w.changed {
				r.sim.Register(n.uniqueNo, issuer.Registration{At: time.Now(),
					Add: issuer.AttachmentEntry("주식회사 카오스캐피탈", 35_000_000, time.Now())})
			}
			for {
				_, err := rc.JobRetry(ctx, w.job)
				if err == nil {
					w.triggered = true
					return
				}
				if time.Now().After(deadline) || ctx.Err() != nil {
					w.err = "JobRetry: " + err.Error()
					return
				}
				time.Sleep(time.Second) // the cluster restarting
			}
		})
	}
	wg.Wait()
}

// hookOutage takes the receiver down: connection refused, then 503.
func (r *run) hookOutage(ctx context.Context, t0 time.Time) {
	at := func(d time.Duration) bool {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(time.Until(t0.Add(d))):
			return true
		}
	}
	if !at(hookDownAt) {
		return
	}
	r.log.Info("webhook receiver refuses connections", "for", hookRefused)
	began := time.Now()
	r.hook.downNow()
	at(hookDownAt + hookRefused)
	r.hook.unavailable.Store(true)
	if err := r.hook.up(); err != nil {
		r.log.Error("webhook receiver up", "err", err)
	}
	r.hook.refusedWindow = time.Since(began)
	r.log.Info("webhook receiver answers 503", "for", hook503)
	at(hookDownAt + hookRefused + hook503)
	r.hook.unavailable.Store(false)
	r.hook.down = time.Since(began)
	r.log.Info("webhook receiver back")
}

// watchRows checks the watch's promises: every watched nest's check ran;
// the changed nests alerted (once), the others did not; every alert reached
// the receiver under exactly one webhook-id.
func (r *run) watchRows(ctx context.Context, add func(what, figure, want string, ok bool)) ([]string, error) {
	var notes []string
	type outcome struct {
		status, cmp string
		newEntry    int
		other       int
		cnv         int
	}
	var ran, notRan, changedAlerted, changedCNV, changedWrong, sameQuiet, sameCNV, sameWrong int
	for _, w := range r.watches {
		n := r.nests[w.nest]
		var o outcome
		err := r.pool.QueryRow(ctx, `
			SELECT c.status, coalesce(cmp.outcome, ''),
				(SELECT count(*) FROM alerts a WHERE a.comparison_id = cmp.id AND a.kind = 'NEW_ENTRY'),
				(SELECT count(*) FROM alerts a WHERE a.comparison_id = cmp.id AND a.kind NOT IN ('NEW_ENTRY', 'COULD_NOT_VERIFY')),
				(SELECT count(*) FROM alerts a WHERE a.nest_id = c.nest_id AND a.kind = 'COULD_NOT_VERIFY')
			FROM watch_checks c
			LEFT JOIN ocr_tasks o ON o.issuance_task_id = c.issuance_task_id
			LEFT JOIN registry_comparisons cmp ON cmp.ocr_task_id = o.id
			WHERE c.nest_id = $1 AND c.status <> 'CANCELLED'`, n.id).Scan(&o.status, &o.cmp, &o.newEntry, &o.other, &o.cnv)
		if err != nil {
			return nil, fmt.Errorf("watch check of nest %s: %w", n.id, err)
		}
		if w.triggered && o.status == "REQUESTED" && o.cmp != "" {
			ran++
		} else {
			notRan++
			if len(notes) < 5 {
				notes = append(notes, fmt.Sprintf("watch of nest %s: check %s, comparison %q %s", n.id, o.status, o.cmp, w.err))
			}
		}
		switch {
		case w.changed && o.cmp == "CHANGED" && o.newEntry == 1 && o.other == 0:
			changedAlerted++
		case w.changed && o.cnv > 0 && o.newEntry == 0 && o.cmp != "UNCHANGED":
			changedCNV++
		case w.changed:
			changedWrong++
			if len(notes) < 8 {
				notes = append(notes, fmt.Sprintf("changed nest %s: comparison %q, %d NEW_ENTRY, %d other", n.id, o.cmp, o.newEntry, o.other))
			}
		case o.cmp == "UNCHANGED" && o.newEntry+o.other == 0:
			sameQuiet++
		case o.cnv > 0 && o.newEntry+o.other == 0:
			sameCNV++
		default:
			sameWrong++
			if len(notes) < 8 {
				notes = append(notes, fmt.Sprintf("unchanged nest %s: comparison %q, %d NEW_ENTRY, %d other", n.id, o.cmp, o.newEntry, o.other))
			}
		}
	}
	nChanged := (len(r.watches) + 1) / 2
	add("watch checks run (River job made due at once; date tomorrow)", fmt.Sprintf("%d of %d ran and were compared", ran, len(r.watches)),
		fmt.Sprintf("%d of %d", len(r.watches), len(r.watches)), notRan == 0 && len(r.watches) > 0)
	add("watched nests with a 가압류 registered between the reads",
		fmt.Sprintf("%d: %d one NEW_ENTRY alert, %d could not verify (a read not COMPLETE), %d wrong", nChanged, changedAlerted, changedCNV, changedWrong),
		"one NEW_ENTRY alert each (or could not verify), none wrong", changedWrong == 0 && changedAlerted > 0)
	add("watched nests with no change",
		fmt.Sprintf("%d: %d UNCHANGED without alert, %d could not verify, %d alerted a change", len(r.watches)-nChanged, sameQuiet, sameCNV, sameWrong),
		"no change alert", sameWrong == 0)

	// Webhooks: every alert delivered, once per webhook-id.
	type delivery struct{ id, alert, status string }
	rows, err := r.pool.Query(ctx, `SELECT a.id::text, coalesce(d.id::text, ''), coalesce(d.status, '')
		FROM alerts a LEFT JOIN webhook_deliveries d ON d.alert_id = a.id`)
	if err != nil {
		return nil, err
	}
	alerts := map[string]bool{}
	deliveriesOf := map[string]int{}
	byMsg := map[string]string{} // webhook-id → alert
	var notDelivered int
	for rows.Next() {
		var a, d, status string
		if err := rows.Scan(&a, &d, &status); err != nil {
			rows.Close()
			return nil, err
		}
		alerts[a] = true
		if d != "" {
			deliveriesOf[a]++
			byMsg["msg_"+d] = a
		}
		if status != "DELIVERED" {
			notDelivered++
		}
	}
	rows.Close()
	var kinds []string
	krows, err := r.pool.Query(ctx, `SELECT kind, count(*) FROM alerts GROUP BY kind ORDER BY kind`)
	if err != nil {
		return nil, err
	}
	for krows.Next() {
		var k string
		var c int
		if err := krows.Scan(&k, &c); err != nil {
			krows.Close()
			return nil, err
		}
		kinds = append(kinds, fmt.Sprintf("%s %d", k, c))
	}
	krows.Close()
	h := r.hook
	h.mu.Lock()
	received := map[string]int{} // alert → distinct webhook-ids received
	var resent, unknownIDs, mismatched int
	for id, c := range h.ids {
		a, ok := byMsg[id]
		if !ok {
			unknownIDs++
			continue
		}
		if h.alertOf[id] != a {
			mismatched++
		}
		received[a]++
		resent += c - 1
	}
	badSig, bad := h.badSig, append([]string(nil), h.bad...)
	distinct := len(h.ids)
	h.mu.Unlock()
	var lost, duplicated, multiDelivery int
	for a := range alerts {
		switch {
		case received[a] == 0:
			lost++
		case received[a] > 1:
			duplicated++
		}
		if deliveriesOf[a] != 1 {
			multiDelivery++
		}
	}
	notes = append(notes, bad[:min(3, len(bad))]...)
	add("alerts", fmt.Sprintf("%d (%s)", len(alerts), joinOr(kinds, "none")), "≥ the changed nests' NEW_ENTRY", len(alerts) >= changedAlerted)
	add("webhook: alerts vs distinct webhook-ids received (signature verified)",
		fmt.Sprintf("%d alerts, %d ids: %d lost, %d alerts under 2+ ids, %d ids of no delivery, %d with another alert's body; %d deliveries not DELIVERED, %d alerts without exactly one delivery",
			len(alerts), distinct, lost, duplicated, unknownIDs, mismatched, notDelivered, multiDelivery),
		"equal: none lost, none duplicated", lost == 0 && duplicated == 0 && unknownIDs == 0 && mismatched == 0 && notDelivered == 0 &&
			multiDelivery == 0 && distinct == len(alerts) && len(bad) == 0)
	add("webhook: messages with a bad signature", fmt.Sprint(badSig), "0", badSig == 0)
	r.hookResent = resent
	return notes, nil
}

func joinOr(parts []string, none string) string {
	if len(parts) == 0 {
		return none
	}
	out := parts[0]
	for _, p := range parts[1:] {
		out += ", " + p
	}
	return out
}
