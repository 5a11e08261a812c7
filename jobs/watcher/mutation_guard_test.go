package watcher_test

// Tests written by a mutation pass: each fails on a deliberate breakage of
// a core rule that the rest of the suite let through.

import (
	"context"
	"encoding/binary"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/internal/jobstest"
	"github.com/dungji/dungji/jobs/watcher"
)

// guardAlert inserts a comparison of nest n and one alert of it.
func guardAlert(t *testing.T, d *db.DB, n *db.Nest) *db.Alert {
	t.Helper()
	ctx := context.Background()
	now := time.Now()
	ocrID := core.NewID()
	c := &db.RegistryComparison{ID: core.NewID(), NestID: n.ID, OCRTaskID: &ocrID, Verdict: "COMPLETE", Outcome: "CHANGED", CreatedAt: now}
	if _, err := d.Bun.NewInsert().Model(c).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	a := &db.Alert{ID: core.NewID(), NestID: n.ID, OwnerID: n.OwnerID, ComparisonID: &c.ID, Kind: "NEW_ENTRY", Severity: "CRITICAL",
		ChangeKey: "을구 1", Message: "a new 근저당권설정", CreatedAt: now}
	if _, err := d.Bun.NewInsert().Model(a).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestGuardAlertOfAnotherUser: an alert by id (Alert, and AcknowledgeAlert
// through it — the acknowledgeAlert mutation and POST
// …/alerts/{id}/acknowledge) is NOT_FOUND to another user, FORBIDDEN to
// an admin's acknowledgement (an admin reads it), and either leaves it
// unacknowledged.
func TestGuardAlertOfAnotherUser(t *testing.T) {
	t.Parallel()
	b := setup(t, jobstest.Opts{})
	a := guardAlert(t, b.DB, b.Nest(t, "alice"))
	bob := core.WithActor(context.Background(), core.Actor{UserID: "bob"})
	if got, err := b.Svc.Alert(bob, a.ID); core.ErrorCode(err) != core.CodeNotFound || got != nil {
		t.Errorf("bob reads alice's alert: %+v, %v; want NOT_FOUND", got, err)
	}
	if got, err := b.Svc.AcknowledgeAlert(bob, a.ID); core.ErrorCode(err) != core.CodeNotFound || got != nil {
		t.Errorf("bob acknowledges alice's alert: %+v, %v; want NOT_FOUND", got, err)
	}
	// An admin reads it, but does not acknowledge it for alice.
	admin := core.WithActor(context.Background(), core.Actor{UserID: "root", Admin: true})
	if got, err := b.Svc.Alert(admin, a.ID); err != nil || got == nil {
		t.Errorf("an admin reads alice's alert: %+v, %v", got, err)
	}
	if got, err := b.Svc.AcknowledgeAlert(admin, a.ID); core.ErrorCode(err) != core.CodeForbidden || got != nil {
		t.Errorf("an admin acknowledges alice's alert: %+v, %v; want FORBIDDEN", got, err)
	}
	row := new(db.Alert)
	if err := b.DB.Bun.NewSelect().Model(row).Where("id = ?", a.ID).Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	if row.AcknowledgedAt != nil {
		t.Errorf("alice's alert was acknowledged by another at %v", row.AcknowledgedAt)
	}
	alice := core.WithActor(context.Background(), core.Actor{UserID: "alice"})
	if got, err := b.Svc.AcknowledgeAlert(alice, a.ID); err != nil || got.AcknowledgedAt == nil {
		t.Errorf("alice acknowledges her alert: %+v, %v", got, err)
	}
}

// guardDNS answers every A query with as and every AAAA query with aaaas,
// over UDP on loopback; it returns a resolver that asks it alone.
func guardDNS(t *testing.T, as, aaaas []netip.Addr) *net.Resolver {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pc.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			q := buf[:n]
			if len(q) < 12 {
				continue
			}
			// The question: its name's labels, then type and class.
			i := 12
			for i < len(q) && q[i] != 0 {
				i += int(q[i]) + 1
			}
			if i+5 > len(q) {
				continue
			}
			qtype := binary.BigEndian.Uint16(q[i+1:])
			question := q[12 : i+5]
			answers := as
			if qtype == 28 {
				answers = aaaas
			} else if qtype != 1 {
				answers = nil
			}
			resp := make([]byte, 12, 512)
			copy(resp, q[:2])                            // id
			binary.BigEndian.PutUint16(resp[2:], 0x8180) // response, recursion desired and available, NOERROR
			binary.BigEndian.PutUint16(resp[4:], 1)      // one question
			binary.BigEndian.PutUint16(resp[6:], uint16(len(answers)))
			resp = append(resp, question...)
			for _, a := range answers {
				raw := a.AsSlice()
				rr := []byte{0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, byte(len(raw))} // the question's name, A, IN, TTL 60
				binary.BigEndian.PutUint16(rr[2:], qtype)
				resp = append(append(resp, rr...), raw...)
			}
			_, _ = pc.WriteTo(resp, from)
		}
	}()
	addr := pc.LocalAddr().String()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", addr)
	}}
}

// TestGuardWebhookURLEveryResolvedAddressIsChecked: a webhook URL whose
// host name resolves to a public address and also to a private, loopback
// or link-local one is refused at validation (ValidateWebhookURL checks
// every address the name resolves to, not the first only); a name
// resolving to public addresses alone is accepted. Not parallel: it
// replaces net.DefaultResolver, which ValidateWebhookURL uses, while it
// runs.
func TestGuardWebhookURLEveryResolvedAddressIsChecked(t *testing.T) {
	public, public2 := netip.MustParseAddr("93.184.216.34"), netip.MustParseAddr("93.184.216.35")
	saved := net.DefaultResolver
	t.Cleanup(func() { net.DefaultResolver = saved })
	for _, private := range []string{"10.0.0.1", "192.168.1.1", "172.16.0.1", "169.254.169.254", "127.0.0.1", "100.64.0.1"} {
		p := netip.MustParseAddr(private)
		for _, as := range [][]netip.Addr{{public, p}, {p, public}} {
			net.DefaultResolver = guardDNS(t, as, nil)
			if _, err := watcher.ValidateWebhookURL(context.Background(), "https://hooks.guard.example/alerts", false); core.ErrorCode(err) != core.CodeBadUserInput {
				t.Errorf("a name resolving to %v: %v; want BAD_USER_INPUT", as, err)
			}
		}
	}
	net.DefaultResolver = guardDNS(t, []netip.Addr{public}, []netip.Addr{netip.MustParseAddr("fc00::1")})
	if _, err := watcher.ValidateWebhookURL(context.Background(), "https://hooks.guard.example/alerts", false); core.ErrorCode(err) != core.CodeBadUserInput {
		t.Errorf("a name resolving to %v and fc00::1: %v; want BAD_USER_INPUT", public, err)
	}
	net.DefaultResolver = guardDNS(t, []netip.Addr{public, public2}, nil)
	if u, err := watcher.ValidateWebhookURL(context.Background(), "https://hooks.guard.example/alerts", false); err != nil || u == "" {
		t.Errorf("a name resolving to public addresses only: %q, %v; want it accepted", u, err)
	}
}
