package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/dungji/dungji/jobs/issuer"
	"github.com/dungji/dungji/server/internal/testkit"
)

const verifyCopyMutation = `mutation($f: ID!) { verifyCopy(fileId: $f) { reused verification { id status } } }`

const verificationQuery = `query($id: ID!) { copyVerification(id: $id) { id status message file { id }
	issuanceTask { id } officialOcrTask { id analysis { verdict source } }
	differences { kind section rank purpose afterCopy serious message copyEntry { rank } registryEntry { rank purpose holders { name } } } } }`

// nestRegistry is what the simulator issues for a nest: its content drawn
// from the nest's id, 고유번호 and address.
func nestRegistry(t *testing.T, a *testApp, nest string) issuer.Registry {
	t.Helper()
	var uniqueNo, address string
	if err := a.db.Pool.QueryRow(context.Background(), `SELECT registry_unique_no, address FROM nests WHERE id = $1`, nest).Scan(&uniqueNo, &address); err != nil {
		t.Fatal(err)
	}
	return issuer.Content(nest, uniqueNo, address)
}

// uploadRead uploads pdf to the nest and waits for its read: the file's id.
func uploadRead(t *testing.T, a *testApp, tok, nest string, pdf []byte) (fileID, ocrTaskID string) {
	t.Helper()
	status, body := restUpload(t, a, tok, nest, pdf)
	if status != http.StatusAccepted {
		t.Fatalf("upload: %d %v", status, body)
	}
	fileID, ocrTaskID = body["file_id"].(string), body["ocr_task_id"].(string)
	testkit.Eventually(t, 3*time.Minute, "the copy's read finishes", func() bool {
		s := dig(a.gql(t, tok, `query($id: ID!) { ocrTask(id: $id) { status } }`, map[string]any{"id": ocrTaskID}).Data, "ocrTask", "status")
		return s == "SUCCESS" || s == "FAILED"
	})
	return fileID, ocrTaskID
}

// TestVerifyCopy: an uploaded copy is checked against the registry's own
// document, issued for the nest through the registry simulator (served
// over the bot's HTTP contract from this test). A faithful copy MATCHES; a
// copy that leaves out a 근저당권 the registry has had for a month DIFFERS,
// the missing entry named (serious, not newer than the copy), and a
// CRITICAL COPY_DIFFERS alert reaches a graphql-transport-ws subscriber.
// A storm of the same request starts one check and buys one document.
func TestVerifyCopy(t *testing.T) {
	t.Parallel()
	sim, err := issuer.NewSimulator(issuer.SimulatorOptions{Latency: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	simSrv := httptest.NewServer(issuer.NewHandler(sim))
	t.Cleanup(simSrv.Close)
	a := startApp(t, map[string]string{"ISSUER_URL": simSrv.URL})
	tok := a.token(t, "alice", false)
	honest, doctored := createOnePageNest(t, a, "alice", "사본 그대로"), createOnePageNest(t, a, "alice", "지운 사본")

	// The doctored nest's registry gained a 근저당권 a month ago; its
	// landlord's copy, printed now, leaves it out.
	regD := nestRegistry(t, a, doctored)
	month := time.Now().AddDate(0, -1, 0)
	sim.Register(regD.UniqueNo, issuer.Registration{At: month,
		Add: issuer.MortgageEntry("주식회사 새벽캐피탈", "임대인", 240_000_000, month.AddDate(0, 0, -1))})
	copyD, err := sim.Render(regD, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	copyH, err := sim.Render(nestRegistry(t, a, honest), time.Now())
	if err != nil {
		t.Fatal(err)
	}

	ws := dialWS(t, a, tok, "graphql-transport-ws").ready()
	ws.subscribe("alerts", `subscription($id: ID) { alertRaised(nestId: $id) { kind severity message nest { id } } }`,
		map[string]any{"id": doctored})
	// Read all along (answering the server's pings), not only once the
	// check is done: a socket left unread for its ping timeout is closed.
	pushed := make(chan map[string]any, 16)
	go func() {
		defer close(pushed)
		for {
			m, err := ws.read()
			if err != nil {
				return
			}
			var p struct {
				Data map[string]any `json:"data"`
			}
			if m.Type == "next" && json.Unmarshal(m.Payload, &p) == nil {
				pushed <- p.Data
			}
		}
	}()
	nextAlert := func() map[string]any {
		select {
		case d, ok := <-pushed:
			if !ok {
				t.Fatal("the alert subscription's socket closed")
			}
			return d
		case <-time.After(time.Minute):
			t.Fatal("no alert within a minute of the check")
		}
		return nil
	}

	var fileD, fileH, taskD string
	var wg sync.WaitGroup
	wg.Go(func() { fileD, taskD = uploadRead(t, a, tok, doctored, copyD.PDF) })
	wg.Go(func() { fileH, _ = uploadRead(t, a, tok, honest, copyH.PDF) })
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}

	// A storm: eight at once by GraphQL, one by REST; one check.
	ids := make([]string, 9)
	fresh := make([]bool, 9)
	for i := range 8 {
		wg.Go(func() {
			r := a.gql(t, tok, verifyCopyMutation, map[string]any{"f": fileD})
			if len(r.Errors) > 0 {
				t.Errorf("verifyCopy %d: %+v", i, r.Errors)
				return
			}
			ids[i], _ = dig(r.Data, "verifyCopy", "verification", "id").(string)
			fresh[i] = dig(r.Data, "verifyCopy", "reused") == false
		})
	}
	wg.Go(func() {
		resp, body := a.restJSON(t, http.MethodPost, "/nests/"+doctored+"/analysis/registry/verify", tok, `{"file_id":"`+fileD+`"}`)
		if resp.StatusCode != http.StatusAccepted && resp.StatusCode != http.StatusOK {
			t.Errorf("REST verify: %d %v", resp.StatusCode, body)
		}
		ids[8], _ = body["verification_id"].(string)
		fresh[8] = resp.StatusCode == http.StatusAccepted && body["reused"] == false
	})
	wg.Wait()
	started := 0
	for i := range ids {
		if ids[i] != ids[0] || ids[i] == "" {
			t.Errorf("the storm's verifications: %v", ids)
			break
		}
		if fresh[i] {
			started++
		}
	}
	if started != 1 {
		t.Errorf("%d of the storm's requests started a check, want 1 (%v)", started, fresh)
	}
	vD := ids[0]
	r := a.gql(t, tok, verifyCopyMutation, map[string]any{"f": fileH})
	vH, _ := dig(r.Data, "verifyCopy", "verification", "id").(string)
	if len(r.Errors) > 0 || dig(r.Data, "verifyCopy", "reused") != false {
		t.Fatalf("verifyCopy of the honest copy: %+v %v", r.Errors, r.Data)
	}

	settled := func(id string) map[string]any {
		var v map[string]any
		testkit.Eventually(t, 3*time.Minute, "verification "+id+" settles", func() bool {
			v, _ = dig(a.gql(t, tok, verificationQuery, map[string]any{"id": id}).Data, "copyVerification").(map[string]any)
			return v != nil && v["status"] != "PENDING"
		})
		return v
	}
	got := settled(vD)
	diffs, _ := got["differences"].([]any)
	if got["status"] != "DIFFERS" || len(diffs) != 1 || dig(got, "officialOcrTask", "analysis", "verdict") != "COMPLETE" ||
		dig(got, "officialOcrTask", "analysis", "source") != "ISSUED" || dig(got, "file", "id") != fileD {
		t.Fatalf("the doctored copy's verification: %v", got)
	}
	d := diffs[0]
	rank := regD.NextRank(true)
	if dig(d, "kind") != "MISSING" || dig(d, "section") != "rights" || dig(d, "rank") != rank || dig(d, "serious") != true ||
		dig(d, "afterCopy") != false || dig(d, "copyEntry") != nil || dig(d, "registryEntry", "purpose") != "근저당권설정" ||
		!strings.Contains(fmt.Sprint(dig(d, "registryEntry", "holders")), "새벽캐피탈") {
		t.Errorf("the difference: %v", d)
	}
	if h := settled(vH); h["status"] != "MATCHES" || len(h["differences"].([]any)) != 0 {
		t.Errorf("the honest copy's verification: %v", h)
	}

	// The alert, live: one, for the doctored nest only.
	// (The copy's own read may have raised a warning before: a page its
	// OCR read less well.)
	alert := nextAlert()
	for i := 0; i < 3 && dig(alert, "alertRaised", "kind") == "COULD_NOT_VERIFY"; i++ {
		t.Logf("before the check's alert: %v", alert)
		alert = nextAlert()
	}
	if dig(alert, "alertRaised", "kind") != "COPY_DIFFERS" || dig(alert, "alertRaised", "severity") != "CRITICAL" ||
		dig(alert, "alertRaised", "nest", "id") != doctored {
		t.Errorf("alert: %v", alert)
	}
	resp, body := a.restJSON(t, http.MethodGet, "/alerts?unacknowledged=true", tok, "")
	alerts, _ := body["alerts"].([]any)
	differs := slices.DeleteFunc(alerts, func(a any) bool { return dig(a, "kind") != "COPY_DIFFERS" })
	if resp.StatusCode != 200 || len(differs) != 1 || dig(differs[0], "nest_id") != doctored || dig(differs[0], "severity") != "CRITICAL" {
		t.Errorf("alice's alerts: %d %v", resp.StatusCode, body)
	}
	// The copy's analysis says what it is and how it was checked.
	an := dig(a.gql(t, tok, `query($id: ID!) { ocrTask(id: $id) { analysis { verdict source file { id } verification { id status } } } }`,
		map[string]any{"id": taskD}).Data, "ocrTask", "analysis")
	if v := dig(an, "verdict"); (v != "COPY_COMPLETE" && v != "PARTIAL") || dig(an, "source") != "UPLOADED" ||
		dig(an, "file", "id") != fileD || dig(an, "verification", "id") != vD || dig(an, "verification", "status") != "DIFFERS" {
		t.Errorf("the copy's analysis: %v", an)
	}
	// The copy's check in the nest's history says what its read says,
	// not COMPLETE (a judgement of the registry, an outside tester saw).
	checks, _ := dig(a.gql(t, tok, `query($n: ID!) { nest(id: $n) { registryChecks { verdict ocrTask { id analysis { verdict } } } } }`,
		map[string]any{"n": doctored}).Data, "nest", "registryChecks").([]any)
	found := false
	for _, c := range checks {
		if dig(c, "ocrTask", "id") == taskD {
			found = true
			if v := dig(c, "verdict"); v == "COMPLETE" || v != dig(c, "ocrTask", "analysis", "verdict") {
				t.Errorf("the copy's check: verdict %v, its read's %v", v, dig(c, "ocrTask", "analysis", "verdict"))
			}
		}
	}
	if !found {
		t.Errorf("no check of the copy's read among %v", checks)
	}
	// One document bought per nest: the storm bought one.
	if n := len(sim.Payments()); n != 2 {
		t.Errorf("%d documents bought for two verifications: %+v", n, sim.Payments())
	}

	// Verified again once settled: a new check, not the old one.
	if r := a.gql(t, tok, verifyCopyMutation, map[string]any{"f": fileH}); len(r.Errors) > 0 ||
		dig(r.Data, "verifyCopy", "reused") != false || dig(r.Data, "verifyCopy", "verification", "id") == vH {
		t.Errorf("verify a settled copy again: %+v %v", r.Errors, r.Data)
	}

	// What may not be verified, or seen.
	official, _ := dig(got, "officialOcrTask", "id").(string)
	var officialFile string
	if err := a.db.Pool.QueryRow(context.Background(), `SELECT file_id FROM ocr_tasks WHERE id = $1`, official).Scan(&officialFile); err != nil {
		t.Fatal(err)
	}
	bob := a.token(t, "bob", false)
	for _, c := range []struct {
		name, tok, file, code string
	}{
		{"not an id", tok, "copy.pdf", "BAD_USER_INPUT"},
		{"no such file", tok, uuid.NewString(), "NOT_FOUND"},
		{"another user's copy", bob, fileD, "FORBIDDEN"},
		{"the registry's own document", tok, officialFile, "BAD_USER_INPUT"},
		{"no token", "", fileD, "UNAUTHENTICATED"},
	} {
		r := a.gql(t, c.tok, verifyCopyMutation, map[string]any{"f": c.file})
		if r.code() != c.code || r.Data != nil && dig(r.Data, "verifyCopy") != nil {
			t.Errorf("verifyCopy, %s: %+v %v, want %s", c.name, r.Errors, r.Data, c.code)
		}
	}
	for _, c := range []struct {
		name, method, path, tok, body string
		status                        int
		code                          string
	}{
		{"no file_id", http.MethodPost, "/nests/" + doctored + "/analysis/registry/verify", tok, `{}`, 400, "BAD_USER_INPUT"},
		{"a body that is not JSON", http.MethodPost, "/nests/" + doctored + "/analysis/registry/verify", tok, `file_id=1`, 400, "BAD_USER_INPUT"},
		{"another nest's copy", http.MethodPost, "/nests/" + honest + "/analysis/registry/verify", tok, `{"file_id":"` + fileD + `"}`, 404, "NOT_FOUND"},
		{"a nest that is not an id", http.MethodPost, "/nests/x/analysis/registry/verify", tok, `{"file_id":"` + fileD + `"}`, 400, "BAD_USER_INPUT"},
		{"bob's request for alice's copy", http.MethodPost, "/nests/" + doctored + "/analysis/registry/verify", bob, `{"file_id":"` + fileD + `"}`, 403, "FORBIDDEN"},
		{"the check, by its nest", http.MethodGet, "/nests/" + doctored + "/analysis/registry/verify/" + vD, tok, "", 200, ""},
		{"the check, under another nest", http.MethodGet, "/nests/" + honest + "/analysis/registry/verify/" + vD, tok, "", 404, "NOT_FOUND"},
		{"the check, by bob", http.MethodGet, "/nests/" + doctored + "/analysis/registry/verify/" + vD, bob, "", 403, "FORBIDDEN"},
		{"no such check", http.MethodGet, "/nests/" + doctored + "/analysis/registry/verify/" + uuid.NewString(), tok, "", 404, "NOT_FOUND"},
		{"a check that is not an id", http.MethodGet, "/nests/" + doctored + "/analysis/registry/verify/1", tok, "", 400, "BAD_USER_INPUT"},
		{"a nest that is not an id", http.MethodGet, "/nests/null/analysis/registry/verify/" + vD, tok, "", 400, "BAD_USER_INPUT"},
	} {
		resp, body := a.restJSON(t, c.method, c.path, c.tok, c.body)
		if resp.StatusCode != c.status || (c.code != "" && body["error_code"] != c.code) {
			t.Errorf("REST, %s: %d %v, want %d %s", c.name, resp.StatusCode, body, c.status, c.code)
		}
		if c.status == 200 && (body["status"] != "DIFFERS" || len(body["differences"].([]any)) != 1) {
			t.Errorf("REST, %s: %v", c.name, body)
		}
	}
}

// TestBrowserConsoleVerifyCopy drives the console's check of an uploaded
// copy in Chromium (web/test/verify.mjs): the landlord's copy leaves out a
// 근저당권 the registry has had for a month; the console calls it a copy,
// verifies it against the registry's document (issued through the registry
// simulator served over the bot's HTTP contract), shows the missing entry
// beside the registry's, and the CRITICAL alert arrives live.
func TestBrowserConsoleVerifyCopy(t *testing.T) {
	t.Parallel()
	root, node := browserTool(t)
	c := newCopyCase(t, "Landlord’s copy")
	copyPath := c.copyWithoutMortgage(t, "landlord-copy.pdf")
	shot := filepath.Join(t.ArtifactDir(), "console-verify.png")
	runConsoleScript(t, root, node, c.a, &c.logs, "web/test/verify.mjs", c.a.base, c.tok, c.nest, copyPath, shot)
}

// TestBrowserConsoleCopyLackingIssued: the registry's own document, issued
// for the nest and read in full, has a 근저당권; the landlord's copy, printed
// later and uploaded in the console, leaves it out. Without any check
// bought, the copy's analysis (the nest's newest read, which leads) carries
// the COPY_DIFFERS banner naming the entry, and the CRITICAL alert is in
// the watch (web/test/copydiffers.mjs). Before, the analysis showed the
// copy's lower totals with no word of it.
func TestBrowserConsoleCopyLackingIssued(t *testing.T) {
	t.Parallel()
	root, node := browserTool(t)
	c := newCopyCase(t, "Issued, then a copy")
	r := c.a.gql(t, c.tok, `mutation($n: ID!) { requestIssuance(nestId: $n) { task { id } } }`, map[string]any{"n": c.nest})
	if len(r.Errors) > 0 {
		t.Fatalf("requestIssuance: %+v", r.Errors)
	}
	testkit.Eventually(t, 3*time.Minute, "the issued document is read in full and compared", func() bool {
		checks, _ := dig(c.a.gql(t, c.tok, `query($n: ID!) { nest(id: $n) { registryChecks { verdict } } }`, map[string]any{"n": c.nest}).Data, "nest", "registryChecks").([]any)
		return len(checks) == 1 && dig(checks[0], "verdict") == "COMPLETE"
	})
	// Printed a second later than the issued document, without the 근저당권.
	time.Sleep(time.Second)
	copyPath := c.copyWithoutMortgage(t, "altered-copy.pdf")
	shot := filepath.Join(t.ArtifactDir(), "console-copy-differs.png")
	runConsoleScript(t, root, node, c.a, &c.logs, "web/test/copydiffers.mjs", c.a.base, c.tok, c.nest, copyPath, shot)

	// Checked against the registry, the copy DIFFERS over the same
	// 근저당권, and no second CRITICAL alert says so again (an outside
	// tester's check raised one).
	differs := func() []any {
		alerts, _ := dig(c.a.gql(t, c.tok, `query($n: ID!) { alerts(nestId: $n) { edges { node { kind severity file { id } previousFile { id } } } } }`,
			map[string]any{"n": c.nest}).Data, "alerts", "edges").([]any)
		return slices.DeleteFunc(alerts, func(a any) bool { return dig(a, "node", "kind") != "COPY_DIFFERS" })
	}
	raised := differs()
	if len(raised) != 1 || dig(raised[0], "node", "severity") != "CRITICAL" {
		t.Fatalf("the copy's alerts: %v", raised)
	}
	file, _ := dig(raised[0], "node", "file", "id").(string)
	r = c.a.gql(t, c.tok, verifyCopyMutation, map[string]any{"f": file})
	id, _ := dig(r.Data, "verifyCopy", "verification", "id").(string)
	if len(r.Errors) > 0 || id == "" {
		t.Fatalf("verifyCopy: %+v %v", r.Errors, r.Data)
	}
	var v map[string]any
	testkit.Eventually(t, 3*time.Minute, "the check settles", func() bool {
		v, _ = dig(c.a.gql(t, c.tok, verificationQuery, map[string]any{"id": id}).Data, "copyVerification").(map[string]any)
		return v != nil && v["status"] != "PENDING"
	})
	if diffs, _ := v["differences"].([]any); v["status"] != "DIFFERS" || len(diffs) != 1 || dig(diffs[0], "registryEntry", "purpose") != "근저당권설정" {
		t.Fatalf("the check: %v", v)
	}
	if again := differs(); len(again) != 1 {
		t.Errorf("after the check, %d COPY_DIFFERS alerts over one entry: %v", len(again), again)
	}
}

// copyCase is a nest of alice's on an app whose registry bot is the
// simulator, served over the bot's HTTP contract: its registry has had a
// 근저당권 for a month (주식회사 새벽캐피탈, 240,000,000).
type copyCase struct {
	sim  *issuer.Simulator
	a    *testApp
	logs serverLog
	tok  string
	nest string
	reg  issuer.Registry // the nest's registry without the 근저당권
}

func newCopyCase(t *testing.T, title string) *copyCase {
	t.Helper()
	sim, err := issuer.NewSimulator(issuer.SimulatorOptions{Latency: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	simSrv := httptest.NewServer(issuer.NewHandler(sim))
	t.Cleanup(simSrv.Close)
	c := &copyCase{sim: sim}
	c.a = startAppLogging(t, map[string]string{"ISSUER_URL": simSrv.URL}, &c.logs)
	c.tok = c.a.token(t, "alice", false)
	c.nest = createOnePageNest(t, c.a, "alice", title)
	c.reg = nestRegistry(t, c.a, c.nest)
	month := time.Now().AddDate(0, -1, 0)
	sim.Register(c.reg.UniqueNo, issuer.Registration{At: month,
		Add: issuer.MortgageEntry("주식회사 새벽캐피탈", "임대인", 240_000_000, month.AddDate(0, 0, -1))})
	return c
}

// copyWithoutMortgage writes a copy of the nest's registry printed now
// that leaves the 근저당권 out, and returns its path.
func (c *copyCase) copyWithoutMortgage(t *testing.T, name string) string {
	t.Helper()
	doc, err := c.sim.Render(c.reg, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, doc.PDF, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBrowserConsoleReasonsInKorean: a copy printed 40 days ago, uploaded,
// is PARTIAL for OLD_COPY; the console says what the reason means in
// English, and in Korean after the language switch, beside the analysis's
// own words (web/test/reasons.mjs). Before, a Korean tenant read every
// reason in English only.
func TestBrowserConsoleReasonsInKorean(t *testing.T) {
	t.Parallel()
	root, node := browserTool(t)
	sim, err := issuer.NewSimulator(issuer.SimulatorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var logs serverLog
	a := startAppLogging(t, map[string]string{"ISSUER_SIM_LATENCY": "0s"}, &logs)
	tok := a.token(t, "alice", false)
	nest := createOnePageNest(t, a, "alice", "Old copy")
	doc, err := sim.Render(nestRegistry(t, a, nest), time.Now().AddDate(0, 0, -40))
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(t.TempDir(), "old-copy.pdf")
	if err := os.WriteFile(copyPath, doc.PDF, 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(t.ArtifactDir(), "console-reasons.png")
	runConsoleScript(t, root, node, a, &logs, "web/test/reasons.mjs", a.base, tok, nest, copyPath, shot)
}

// runConsoleScript runs a console script of web/test against a, logging
// each step it prints; a failure shows its stderr, the tasks and the
// server's warnings.
func runConsoleScript(t *testing.T, root, node string, a *testApp, logs *serverLog, script string, args ...string) {
	t.Helper()
	stdout, stderr, code := runNode(t, root, node, 5*time.Minute, append([]string{script}, args...)...)
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		t.Logf("browser: %s", line)
	}
	if code != 0 {
		t.Fatalf("%s: exit %d\nstderr: %s\ntasks in the database:\n%s\nserver warnings and errors:\n%s",
			script, code, stderr, taskRows(t, a), logs.warnings())
	}
}
