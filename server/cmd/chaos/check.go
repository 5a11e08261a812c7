package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/dungji/dungji/jobs/blob"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/server/internal/cluster"
)

// row is one line of the table: a figure, what it must be, and whether it is.
type row struct {
	what, figure, want string
	ok                 bool
}

// dbTask is a task as the database has it at the end.
type dbTask struct {
	kind, id, nest, status, code string
	version                      int64
}

func (r *run) tasks(ctx context.Context) ([]dbTask, error) {
	rows, err := r.pool.Query(ctx, `
		SELECT 'IssuanceTask', id::text, nest_id::text, status, coalesce(error_code, ''), version FROM issuance_tasks
		UNION ALL
		SELECT 'OcrTask', id::text, nest_id::text, status, coalesce(error_code, ''), version FROM ocr_tasks`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []dbTask
	for rows.Next() {
		var t dbTask
		if err := rows.Scan(&t.kind, &t.id, &t.nest, &t.status, &t.code, &t.version); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// taskHistory explains an issuance with the wrong outcome: its row's
// error, each transition with its attempt, and its River job's state,
// attempts and errors, so that a failed run can be read without its
// database (the private cluster is removed at the end).
func (r *run) taskHistory(ctx context.Context, t dbTask) string {
	var b strings.Builder
	fmt.Fprintf(&b, "issuance %s of nest %s: %s %s", t.id, t.nest, t.status, t.code)
	var msg, job string
	if err := r.pool.QueryRow(ctx, `SELECT coalesce(t.error_message, ''), coalesce(
			(SELECT format('job %s %s attempt %s/%s errors %s', j.id, j.state, j.attempt, j.max_attempts, j.errors::text)
			 FROM river_job j WHERE j.id = t.job_id), 'no job')
		FROM issuance_tasks t WHERE t.id = $1`, t.id).Scan(&msg, &job); err != nil {
		return b.String() + fmt.Sprintf(" (history unreadable: %v)", err)
	}
	fmt.Fprintf(&b, " %q; %s; transitions:", msg, job)
	rows, err := r.pool.Query(ctx, `SELECT coalesce(from_status, '-'), to_status, coalesce(error_code, ''), attempt, version, at
		FROM task_events WHERE task_id = $1 ORDER BY version`, t.id)
	if err != nil {
		return b.String() + fmt.Sprintf(" (unreadable: %v)", err)
	}
	defer rows.Close()
	for rows.Next() {
		var from, to, code string
		var attempt int
		var version int64
		var at time.Time
		if err := rows.Scan(&from, &to, &code, &attempt, &version, &at); err != nil {
			return b.String() + fmt.Sprintf(" (unreadable: %v)", err)
		}
		fmt.Fprintf(&b, " v%d %s→%s %s attempt %d at %s;", version, from, to, code, attempt, at.UTC().Format("15:04:05.000"))
	}
	return b.String()
}

// missedFinals counts the subscribers whose last word on some task of their
// nest is not the task's final state in the database.
func (r *run) missedFinals(ctx context.Context) (int, error) {
	missed, _, err := r.subscriberGaps(ctx)
	return missed, err
}

func (r *run) subscriberGaps(ctx context.Context) (int, []string, error) {
	all, err := r.tasks(ctx)
	if err != nil {
		return 0, nil, err
	}
	byNest := map[string][]dbTask{}
	for _, t := range all {
		byNest[t.nest] = append(byNest[t.nest], t)
	}
	var missed int
	var examples []string
	for _, s := range r.subs {
		seen, _, _, last := s.view()
		bad := false
		for _, t := range byNest[s.nest] {
			got, ok := seen[t.id]
			if ok && got.Status == t.status && got.Version == t.version && got.Kind == t.kind {
				continue
			}
			bad = true
			if len(examples) < 5 {
				examples = append(examples, fmt.Sprintf("nest %s: %s %s is %s v%d, the subscriber last heard %+v (last error: %s)",
					s.nest, t.kind, t.id, t.status, t.version, got, last))
			}
		}
		if bad {
			missed++
		}
	}
	return missed, examples, nil
}

// report runs every check and prints the tables; r.passed is set when all
// figures are right.
func (r *run) report(ctx context.Context, drained bool, elapsed time.Duration) error {
	// The checks get their own minute even when the run used up its bound.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	var rows []row
	add := func(what, figure, want string, ok bool) { rows = append(rows, row{what, figure, want, ok}) }
	var notes []string

	all, err := r.tasks(ctx)
	if err != nil {
		return err
	}
	unknown := map[string]bool{}
	for _, n := range r.nests {
		unknown[n.id] = n.unknown
	}
	var nUnknown int
	for _, n := range r.nests {
		if n.unknown {
			nUnknown++
		}
	}

	// Requests and outcomes.
	count := map[string]map[string]int{"IssuanceTask": {}, "OcrTask": {}}
	failed := map[string]map[string]int{"IssuanceTask": {}, "OcrTask": {}}
	perNest := map[string]int{}
	var wrongOutcome int
	issued := map[string]dbTask{}
	for _, t := range all {
		count[t.kind][t.status]++
		if t.status == "FAILED" {
			failed[t.kind][t.code]++
		}
		if t.kind != "IssuanceTask" {
			continue
		}
		perNest[t.nest]++
		issued[t.id] = t
		switch {
		case unknown[t.nest] && !(t.status == "FAILED" && t.code == string(core.CodeAutomationFailed)):
			wrongOutcome++
		case !unknown[t.nest] && t.status != "SUCCESS":
			wrongOutcome++
		}
	}
	// A watch check's issuance is a nest's second task.
	var byChecks int
	if err := r.pool.QueryRow(ctx, `SELECT count(*) FROM watch_checks c JOIN issuance_tasks t ON t.id = c.issuance_task_id
		WHERE EXISTS (SELECT 1 FROM issuance_tasks o WHERE o.nest_id = t.nest_id AND o.created_at < t.created_at)`).Scan(&byChecks); err != nil {
		return err
	}
	nIssuance := count["IssuanceTask"]["SUCCESS"] + count["IssuanceTask"]["FAILED"] + count["IssuanceTask"]["PENDING"] + count["IssuanceTask"]["PROCESSING"]
	add("issuances requested (one per nest, one more per watch check)", fmt.Sprintf("%d tasks on %d nests (%d by watch checks); %d requests, %d sent again by the client, %d given up",
		nIssuance, len(perNest), byChecks, r.faults.requestsSent, r.api.retries.Load(), len(r.loadErr)),
		fmt.Sprintf("%d + %d on %d, none given up", r.n, len(r.watches), r.n),
		nIssuance == r.n+byChecks && byChecks == len(r.watches) && len(perNest) == r.n && len(r.loadErr) == 0)
	add("issuance SUCCESS", fmt.Sprint(count["IssuanceTask"]["SUCCESS"]), fmt.Sprintf("%d (every known property, + watch checks)", r.n-nUnknown+byChecks),
		count["IssuanceTask"]["SUCCESS"] == r.n-nUnknown+byChecks)
	for _, t := range issued {
		if unknown[t.nest] == (t.status == "FAILED" && t.code == string(core.CodeAutomationFailed)) || !unknown[t.nest] && t.status == "SUCCESS" {
			continue
		}
		notes = append(notes, r.taskHistory(ctx, t))
	}
	add("issuance FAILED by code", codes(failed["IssuanceTask"]),
		fmt.Sprintf("%s %d only (the properties the registry does not have)", core.CodeAutomationFailed, nUnknown),
		wrongOutcome == 0 && count["IssuanceTask"]["FAILED"] == nUnknown)
	var ocrMissing int
	ocrOf := map[string]bool{}
	rowsOCR, err := r.pool.Query(ctx, `SELECT issuance_task_id::text FROM ocr_tasks WHERE status = 'SUCCESS' AND issuance_task_id IS NOT NULL`)
	if err != nil {
		return err
	}
	for rowsOCR.Next() {
		var id string
		if err := rowsOCR.Scan(&id); err != nil {
			return err
		}
		ocrOf[id] = true
	}
	rowsOCR.Close()
	for id, t := range issued {
		if t.status == "SUCCESS" && !ocrOf[id] {
			ocrMissing++
		}
	}
	add("OCR SUCCESS", fmt.Sprintf("%d (%d issued PDFs without one)", count["OcrTask"]["SUCCESS"], ocrMissing),
		"one per issued PDF", ocrMissing == 0 && count["OcrTask"]["SUCCESS"] == count["IssuanceTask"]["SUCCESS"])
	add("OCR FAILED by code", codes(failed["OcrTask"]), "none", count["OcrTask"]["FAILED"] == 0)
	stuck := count["IssuanceTask"]["PENDING"] + count["IssuanceTask"]["PROCESSING"] + count["OcrTask"]["PENDING"] + count["OcrTask"]["PROCESSING"]
	add("stuck in PENDING/PROCESSING after the drain", fmt.Sprintf("%d (issuance %d/%d, OCR %d/%d; drain %v)", stuck,
		count["IssuanceTask"]["PENDING"], count["IssuanceTask"]["PROCESSING"], count["OcrTask"]["PENDING"], count["OcrTask"]["PROCESSING"],
		r.faults.drain.Round(time.Second)), "0", stuck == 0 && drained)

	// Payments.
	payments := r.sim.Payments()
	paid := map[string]int{}
	paidProperty := map[string]int{}
	var orphanPayments int
	for _, p := range payments {
		paid[p.Key]++
		paidProperty[p.UniqueNo]++
		if _, ok := issued[p.Key]; !ok {
			orphanPayments++
		}
	}
	tasksOfProperty := map[string]int{}
	noOf := map[string]string{}
	for _, n := range r.nests {
		noOf[n.id] = n.uniqueNo
	}
	var unpaidSuccess int
	for id, t := range issued {
		tasksOfProperty[noOf[t.nest]]++
		if t.status == "SUCCESS" && paid[id] != 1 {
			unpaidSuccess++
		}
	}
	var double int
	for no, k := range paidProperty {
		double += max(0, k-tasksOfProperty[no])
	}
	for _, k := range paid {
		double += k - 1
	}
	add("payments in the ledger vs tasks", fmt.Sprintf("%d payments for %d tasks: %d double, %d for no task, %d SUCCESS without exactly one",
		len(payments), nIssuance, double, orphanPayments, unpaidSuccess),
		fmt.Sprintf("one per SUCCESS (%d), none double", count["IssuanceTask"]["SUCCESS"]),
		double == 0 && orphanPayments == 0 && unpaidSuccess == 0 && len(payments) >= count["IssuanceTask"]["SUCCESS"])

	// S3 objects vs files rows.
	store, err := blob.New(ctx, blob.Config{Endpoint: "http://" + r.s3.Addr, Bucket: r.s3Bucket, AccessKey: r.s3Access,
		SecretKey: r.s3Secret, PathStyle: true})
	if err != nil {
		return err
	}
	objects, err := store.List(ctx, "")
	if err != nil {
		return fmt.Errorf("list the bucket: %w", err)
	}
	keys := map[string]bool{}
	krows, err := r.pool.Query(ctx, `SELECT key FROM files`)
	if err != nil {
		return err
	}
	for krows.Next() {
		var k string
		if err := krows.Scan(&k); err != nil {
			return err
		}
		keys[k] = true
	}
	krows.Close()
	var orphans, missing int
	inBucket := map[string]bool{}
	for _, k := range objects {
		inBucket[k] = true
		if !keys[k] {
			orphans++
			if orphans <= 3 {
				notes = append(notes, "orphan object: "+k)
			}
		}
	}
	for k := range keys {
		if !inBucket[k] {
			missing++
		}
	}
	add("S3 objects vs files rows", fmt.Sprintf("%d objects, %d rows: %d orphans, %d rows without their object", len(objects), len(keys), orphans, missing),
		"equal, no orphan", orphans == 0 && missing == 0 && len(objects) == len(keys))

	// Subscribers.
	missed, examples, err := r.subscriberGaps(ctx)
	if err != nil {
		return err
	}
	notes = append(notes, examples...)
	var connects, regressed int
	for _, s := range r.subs {
		_, c, g, _ := s.view()
		connects += c
		regressed += g
	}
	add("live subscribers that missed a final state", fmt.Sprintf("%d of %d (%d reconnects, %d older versions after newer)", missed, len(r.subs),
		connects-len(r.subs), regressed), "0 (≥ 200 subscribers)", missed == 0 && regressed == 0 && len(r.subs) >= 200)

	// task_events.
	var dupVersions, dupFinals, gaps int
	if err := r.pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM (SELECT 1 FROM task_events GROUP BY task_kind, task_id, version HAVING count(*) > 1) d),
		(SELECT count(*) FROM (SELECT 1 FROM task_events WHERE to_status IN ('SUCCESS', 'FAILED') GROUP BY task_kind, task_id HAVING count(*) > 1) d),
		(SELECT count(*) FROM (
			SELECT t.id FROM issuance_tasks t LEFT JOIN task_events e ON e.task_kind = 'ISSUANCE' AND e.task_id = t.id
			GROUP BY t.id, t.version HAVING count(e.id) <> t.version OR coalesce(max(e.version), 0) <> t.version
			UNION ALL
			SELECT t.id FROM ocr_tasks t LEFT JOIN task_events e ON e.task_kind = 'OCR' AND e.task_id = t.id
			GROUP BY t.id, t.version HAVING count(e.id) <> t.version OR coalesce(max(e.version), 0) <> t.version) g)`).
		Scan(&dupVersions, &dupFinals, &gaps); err != nil {
		return err
	}
	add("duplicate transitions in task_events", fmt.Sprintf("%d (versions recorded twice %d, final states recorded twice %d; histories with a gap %d)",
		dupVersions+dupFinals, dupVersions, dupFinals, gaps), "0", dupVersions+dupFinals+gaps == 0)

	// The registry watch and its webhooks.
	watchNotes, err := r.watchRows(ctx, add)
	if err != nil {
		return err
	}
	notes = append(notes, watchNotes...)

	// The processes themselves.
	var died []string
	for _, p := range append([]*cluster.Proc{r.apiProc, r.engine, r.s3}, r.workers...) {
		if !p.Running() {
			died = append(died, p.Name)
		}
	}
	add("processes that died on their own", fmt.Sprintf("%d %v", len(died), died), "0", len(died) == 0)
	add("faults injected as planned", r.faultErrors(), "every one", r.faultErrors() == "all")
	add("wall time", fmt.Sprintf("%v from the first request, %v in all", elapsed.Round(time.Second), time.Since(r.start).Round(time.Second)),
		fmt.Sprintf("< %v", r.limit), drained && time.Since(r.start) < r.limit)

	effects, err := r.effects(ctx)
	if err != nil {
		return err
	}
	r.passed = true
	for _, x := range rows {
		r.passed = r.passed && x.ok
	}
	r.print(rows, effects, notes)
	return nil
}

// effects shows that the faults bit: the retries they caused, by cause, and
// the jobs River took back from killed workers.
func (r *run) effects(ctx context.Context) ([][2]string, error) {
	var out [][2]string
	rows, err := r.pool.Query(ctx, `SELECT task_kind, coalesce(error_code, '(none: re-entered)'), count(*) FROM task_events
		WHERE from_status = 'PROCESSING' AND to_status = 'PROCESSING' GROUP BY 1, 2 ORDER BY 1, 2`)
	if err != nil {
		return nil, err
	}
	retries := map[string][]string{}
	for rows.Next() {
		var kind, code string
		var n int
		if err := rows.Scan(&kind, &code, &n); err != nil {
			return nil, err
		}
		retries[kind] = append(retries[kind], fmt.Sprintf("%s %d", code, n))
	}
	rows.Close()
	for _, kind := range []string{"ISSUANCE", "OCR"} {
		v := strings.Join(retries[kind], ", ")
		if v == "" {
			v = "none"
		}
		out = append(out, [2]string{kind + " retries (PROCESSING → PROCESSING), by the failed attempt's code", v})
	}
	rows, err = r.pool.Query(ctx, `SELECT kind,
			count(*) FILTER (WHERE coalesce(errors::text, '') LIKE '%rescued by JobRescuer%'),
			count(*) FILTER (WHERE attempt > 1), count(*),
			coalesce(string_agg(DISTINCT state::text, '/'), '')
		FROM river_job GROUP BY kind ORDER BY kind`)
	if err != nil {
		return nil, err
	}
	var jobsLine []string
	for rows.Next() {
		var kind, states string
		var rescued, retried, n int
		if err := rows.Scan(&kind, &rescued, &retried, &n, &states); err != nil {
			return nil, err
		}
		jobsLine = append(jobsLine, fmt.Sprintf("%s: %d jobs (%s), %d run more than once, %d taken back from a killed worker", kind, n, states, retried, rescued))
	}
	rows.Close()
	out = append(out, [2]string{"River jobs", strings.Join(jobsLine, "; ")})
	var attempts, failedAttempts int
	if err := r.pool.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE status_code IS NULL OR status_code >= 300) FROM webhook_attempts`).
		Scan(&attempts, &failedAttempts); err != nil {
		return nil, err
	}
	out = append(out, [2]string{"webhook attempts", fmt.Sprintf("%d, of which %d failed (refused, 503) and were retried; %d messages received again under the same webhook-id",
		attempts, failedAttempts, r.hookResent)})
	r.cbproxy.mu.Lock()
	lost := append([]string(nil), r.cbproxy.lostJobs...)
	r.cbproxy.mu.Unlock()
	var recovered int
	if err := r.pool.QueryRow(ctx, `SELECT count(*) FROM ocr_tasks WHERE engine_job_id = ANY($1) AND status = 'SUCCESS'`, lost).Scan(&recovered); err != nil {
		return nil, err
	}
	out = append(out, [2]string{"OCR tasks whose callback was dropped", fmt.Sprintf("%d, of which %d ended SUCCESS anyway (the deadline check asked the engine)", len(lost), recovered)})
	return out, nil
}

func (r *run) faultErrors() string {
	f := &r.faults
	f.mu.Lock()
	defer f.mu.Unlock()
	var errs []string
	if f.kills == 0 {
		errs = append(errs, "no worker was killed")
	}
	if f.pgErr != nil || f.pgRestart == 0 {
		errs = append(errs, fmt.Sprintf("pg_ctl restart: %v", f.pgErr))
	}
	// The windows are timed from the schedule: a few milliseconds short
	// of it is the timer, not a shorter fault.
	if f.s3Err != nil || f.s3Down < s3Outage-time.Second/2 {
		errs = append(errs, fmt.Sprintf("S3 outage %v: %v", f.s3Down, f.s3Err))
	}
	if f.engineDown < engineOutage-time.Second/2 {
		errs = append(errs, fmt.Sprintf("engine 503 for %v only", f.engineDown))
	}
	for _, c := range []struct {
		name      string
		got, want time.Duration
	}{{"the bot's cable", f.botDown, botCut}, {"worker-1's cable to PostgreSQL", f.workerCutFor, workerCut}, {"the API's cable to PostgreSQL", f.apiCutFor, apiCut}} {
		if c.got < c.want-time.Second/2 {
			errs = append(errs, fmt.Sprintf("%s cut for %v only", c.name, c.got))
		}
	}
	if len(errs) == 0 {
		return "all"
	}
	return strings.Join(errs, "; ")
}

func (r *run) print(rows []row, effects [][2]string, notes []string) {
	f := &r.faults
	f.mu.Lock()
	defer f.mu.Unlock()
	var restarts []time.Duration
	restarts = append(restarts, f.restartTimes...)
	slices.Sort(restarts)
	median := time.Duration(0)
	if len(restarts) > 0 {
		median = restarts[len(restarts)/2]
	}
	cb := r.cbproxy
	cb.mu.Lock()
	received, dropped, dupped, copies, delayed := cb.received, cb.dropped, cb.dupped, cb.copies, cb.delayed
	cb.mu.Unlock()

	fmt.Printf("\n## make chaos — %s, seed %d, %d cores\n\n", time.Now().UTC().Format("2006-01-02 15:04 MST"), r.seed, numCPU())
	fmt.Println("Faults injected (from the first request; requests spread over the first", loadWindow.String()+"):")
	fmt.Println()
	fmt.Println("| fault | what happened |")
	fmt.Println("|---|---|")
	fmt.Printf("| kill -9 of a worker, %v–%v, every %v | %d kills, each restarted (ready again in %v median) |\n",
		killFrom, killUntil, killEvery, f.kills, median.Round(10*time.Millisecond))
	fmt.Printf("| pg_ctl restart (fast) of the run's cluster at %v | took %v |\n", pgRestartAt, f.pgRestart.Round(10*time.Millisecond))
	fmt.Printf("| S3 server (versitygw) killed at %v | unavailable %v, then restarted |\n", s3DownAt, f.s3Down.Round(100*time.Millisecond))
	fmt.Printf("| OCR engine answers 503 from %v | %v, %d requests refused |\n", engineDownAt, f.engineDown.Round(100*time.Millisecond), r.eproxy.refused.Load())
	fmt.Printf("| the workers' cable to the bot cut at %v (connections hang, none refused) | %v; %d writes held until it healed |\n",
		botCutAt, f.botDown.Round(100*time.Millisecond), r.botPart.held.Load())
	fmt.Printf("| worker-1's cable to PostgreSQL cut at %v, past the rescue time (%v) | %v; %d writes held; worker-2 takes its jobs back; what it writes on return is held to the rows below (one payment, one final state each) |\n",
		workerCutAt, jobRescueAft, f.workerCutFor.Round(100*time.Millisecond), r.pgWorker1.held.Load())
	fmt.Printf("| the API's cable to PostgreSQL cut at %v, subscribers connected | %v; %d writes held |\n",
		apiCutAt, f.apiCutFor.Round(100*time.Millisecond), r.pgAPI.held.Load())
	fmt.Printf("| OCR callbacks, all along | %d received from the engine: %d dropped, %d sent 2–5 times (%d extra copies, delayed up to 5 s), %d held back; the API answered %s |\n",
		received, dropped, dupped, copies, delayed, cb.summary())
	fmt.Printf("| webhook receiver down from %v | connection refused %v, then 503 for the rest of %v (%d requests answered 503); retries every %s |\n",
		hookDownAt, r.hook.refusedWindow.Round(100*time.Millisecond), r.hook.down.Round(100*time.Millisecond), r.hook.answered503.Load(), hookSchedule)
	fmt.Printf("| registry watch | %d nests watched (a check on tomorrow's date, made due once the first read is compared); half get a 가압류 registered in between |\n",
		len(r.watches))
	fmt.Printf("| registry simulator | 1 s a run; %.0f %% TRANSIENT, %.0f %% START_FAILED at random; %.0f %% of properties unknown, %.0f %% fail once after paying |\n",
		5.0, 3.0, unknownShare*100, afterPaymentShare*100)
	fmt.Println()
	fmt.Println("What they did:")
	fmt.Println()
	fmt.Println("| | |")
	fmt.Println("|---|---|")
	for _, e := range effects {
		fmt.Printf("| %s | %s |\n", e[0], e[1])
	}
	fmt.Println()
	fmt.Println("| check | figure | must be | |")
	fmt.Println("|---|---|---|---|")
	for _, x := range rows {
		mark := "✔"
		if !x.ok {
			mark = "✘"
		}
		fmt.Printf("| %s | %s | %s | %s |\n", x.what, x.figure, x.want, mark)
	}
	fmt.Println()
	for _, n := range notes {
		fmt.Println("- " + n)
	}
	for _, e := range r.loadErr[:min(3, len(r.loadErr))] {
		fmt.Println("- request given up: " + e)
	}
	fmt.Printf("Logs: %s (error lines: %s)\n", filepath.Join(r.dir, "logs"), r.errorLines())
	if r.passed {
		fmt.Println("\nchaos: PASS")
	} else {
		fmt.Println("\nchaos: FAIL")
	}
}

// errorLines counts the ERROR-level lines each process logged.
func (r *run) errorLines() string {
	files, _ := filepath.Glob(filepath.Join(r.dir, "logs", "*.log"))
	sort.Strings(files)
	var parts []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		n := strings.Count(string(b), `"level":"ERROR"`)
		parts = append(parts, fmt.Sprintf("%s %d", strings.TrimSuffix(filepath.Base(f), ".log"), n))
	}
	return strings.Join(parts, ", ")
}

func codes(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

func numCPU() int { return runtime.NumCPU() }
