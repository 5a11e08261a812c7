package main

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dungji/dungji/jobs/analysis"
)

// Values outside their enums: a value stored by a later version of the
// service (or by hand) that this schema does not list yet.
const (
	futureTaskCode = "FUTURE_CODE"
	futureVerdict  = "FUTURE_VERDICT"
	futureReason   = "FUTURE_REASON"
	futureKind     = "future_kind"
)

// enumValues introspects an enum's values on the running server.
func enumValues(t *testing.T, a *testApp, token, name string) []string {
	t.Helper()
	r := a.gql(t, token, `query($n: String!) { __type(name: $n) { kind enumValues { name } } }`, map[string]any{"n": name})
	if len(r.Errors) > 0 || dig(r.Data, "__type", "kind") != "ENUM" {
		t.Fatalf("enum %s: %+v %+v", name, r.Data, r.Errors)
	}
	var out []string
	for _, v := range dig(r.Data, "__type", "enumValues").([]any) {
		out = append(out, dig(v, "name").(string))
	}
	return out
}

// checkConstraintValues reads the values a CHECK (column IN (…)) constraint
// of table allows, from the database itself.
func checkConstraintValues(t *testing.T, pool *pgxpool.Pool, table, column string) []string {
	t.Helper()
	var defs []string
	rows, err := pool.Query(context.Background(),
		"SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'c'", table)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			t.Fatal(err)
		}
		defs = append(defs, d)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for _, d := range defs {
		if !strings.HasPrefix(d, "CHECK (("+column+" = ANY (ARRAY[") {
			continue
		}
		var out []string
		for _, m := range regexp.MustCompile(`'([^']*)'::text`).FindAllStringSubmatch(d, -1) {
			out = append(out, m[1])
		}
		return out
	}
	t.Fatalf("no CHECK constraint lists the values of %s.%s in %q", table, column, defs)
	return nil
}

// sameSet fails unless got and want hold the same strings.
func sameSet(t *testing.T, what string, got, want []string) {
	t.Helper()
	g, w := slices.Clone(got), slices.Clone(want)
	sort.Strings(g)
	sort.Strings(w)
	if !slices.Equal(slices.Compact(g), slices.Compact(w)) {
		t.Errorf("%s: have %v, want %v", what, slices.Compact(g), slices.Compact(w))
	}
}

// stringsAt collects the strings at path in each element of list.
func stringsAt(list any, path ...any) []string {
	var out []string
	items, _ := list.([]any)
	for _, it := range items {
		switch v := dig(it, path...).(type) {
		case string:
			out = append(out, v)
		case []any:
			for _, s := range v {
				if s, ok := s.(string); ok {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// TestEveryStoredValueReadsThroughTheAPI: rows holding every value the
// database allows in a column with a CHECK list (the task error codes,
// DISPATCH_FAILED of the original system's rows included) and every value
// of the enums of unchecked columns and stored JSON (task events' codes,
// comparisons' verdicts, alerts' reasons and entries, an analysis's
// entries, corrections and flags) read through the API as the strings
// stored, and each CHECK list is its enum. A value no enum lists (written
// by a later version, or by hand) reads as its string, with no error: a
// value outside an enum never turns an answer into an error.
func TestEveryStoredValueReadsThroughTheAPI(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ROLE": "api"})
	alice := a.token(t, "alice", false)
	ctx := context.Background()
	pool := a.db.Pool
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := pool.Exec(ctx, sql, args...); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	nest := seedNests(t, pool, "alice", 1)[0]
	fileID := newUUID()
	exec(`INSERT INTO files (id, nest_id, bucket, key, size, sha256, content_type) VALUES ($1::uuid, $2, 'b', $1::text, 1, repeat('a', 64), 'application/pdf')`,
		fileID, nest)

	issuanceCodes := checkConstraintValues(t, pool, "issuance_tasks", "error_code")
	ocrCodes := checkConstraintValues(t, pool, "ocr_tasks", "error_code")
	sameSet(t, "the issuance and OCR tasks' error_code CHECK lists against TaskErrorCode",
		slices.Concat(issuanceCodes, ocrCodes), enumValues(t, a, alice, "TaskErrorCode"))
	sameSet(t, "issuance_tasks.last_error_code's CHECK list against error_code's",
		checkConstraintValues(t, pool, "issuance_tasks", "last_error_code"), issuanceCodes)
	sameSet(t, "ocr_tasks.last_error_code's CHECK list against error_code's",
		checkConstraintValues(t, pool, "ocr_tasks", "last_error_code"), ocrCodes)
	if !slices.Contains(issuanceCodes, "DISPATCH_FAILED") {
		t.Errorf("the issuance codes %v lack the original system's DISPATCH_FAILED", issuanceCodes)
	}

	// A FAILED task of each code; one issuance task's events carry every
	// event code, and one code no enum has.
	var issuanceIDs, ocrIDs []string
	for _, c := range issuanceCodes {
		id := newUUID()
		issuanceIDs = append(issuanceIDs, id)
		exec(`INSERT INTO issuance_tasks (id, nest_id, requested_by, status, error_code, last_error_code, attempt, max_attempts, finished_at)
			VALUES ($1, $2, 'alice', 'FAILED', $3, $3, 1, 5, now())`, id, nest, c)
	}
	for _, c := range ocrCodes {
		id := newUUID()
		ocrIDs = append(ocrIDs, id)
		exec(`INSERT INTO ocr_tasks (id, nest_id, file_id, requested_by, status, error_code, last_error_code, attempt, max_attempts, finished_at)
			VALUES ($1, $2, $3, 'alice', 'FAILED', $4, $4, 1, 5, now())`, id, nest, fileID, c)
	}
	eventCodes := append(enumValues(t, a, alice, "TaskErrorCode"), futureTaskCode)
	for i, c := range eventCodes {
		exec(`INSERT INTO task_events (task_kind, task_id, nest_id, from_status, to_status, error_code, attempt, version)
			VALUES ('ISSUANCE', $1, $2, 'PROCESSING', 'PROCESSING', $3, 1, $4)`, issuanceIDs[0], nest, c, i+1)
	}

	// A comparison of each verdict (and one no enum has), an alert of
	// each entry kind (and one no enum has) whose entry has every
	// correction field, and one alert with every reason code (and one no
	// enum has).
	verdicts := append(enumValues(t, a, alice, "RegistryCheckVerdict"), futureVerdict)
	var comparisons []string
	for i, v := range verdicts {
		id := newUUID()
		comparisons = append(comparisons, id)
		exec(`INSERT INTO registry_comparisons (id, nest_id, verdict, outcome, created_at) VALUES ($1, $2, $3, 'COULD_NOT_VERIFY', now() - $4 * interval '1 minute')`,
			id, nest, v, i)
	}
	kinds := append(enumValues(t, a, alice, "RegistryEntryKind"), futureKind)
	sections := enumValues(t, a, alice, "RegistrySection")
	fields := enumValues(t, a, alice, "RegistryCorrectionField")
	var corrections []map[string]string
	for _, f := range fields {
		corrections = append(corrections, map[string]string{"field": f, "read": "1", "taken": "1"})
	}
	for i, k := range kinds {
		entry, _ := json.Marshal(map[string]any{"section": sections[i%len(sections)], "rank": fmt.Sprint(i + 1), "purpose": "등기",
			"kind": k, "holders": []any{}, "cancelled": false, "corrections": corrections, "text": ""})
		exec(`INSERT INTO alerts (id, nest_id, owner_id, comparison_id, kind, severity, change_key, message, before_entry, created_at)
			VALUES ($1, $2, 'alice', $3, 'NEW_ENTRY', 'CRITICAL', $4, 'm', $5, now())`, newUUID(), nest, comparisons[0], k, entry)
	}
	reasonCodes := append(enumValues(t, a, alice, "VerdictReasonCode"), futureReason)
	var reasons []map[string]any
	for i, c := range reasonCodes {
		reasons = append(reasons, map[string]any{"code": c, "message": "m", "section": sections[i%len(sections)]})
	}
	reasonsJSON, _ := json.Marshal(reasons)
	exec(`INSERT INTO alerts (id, nest_id, owner_id, comparison_id, kind, severity, change_key, message, reasons, created_at)
		VALUES ($1, $2, 'alice', $3, 'COULD_NOT_VERIFY', 'WARNING', 'reasons', 'm', $4, now())`, newUUID(), nest, comparisons[0], reasonsJSON)

	// An OCR result whose stored analysis has a live entry of every kind:
	// its findings flag every flagged kind.
	var rights []analysis.Entry
	for i, k := range kinds {
		rights = append(rights, analysis.Entry{Section: analysis.SectionRights, Rank: fmt.Sprint(i + 1), Purpose: "등기",
			Kind: analysis.Kind(k), Holders: []analysis.Party{}, Received: time.Date(2020, 1, 1+i, 0, 0, 0, 0, time.UTC)})
	}
	result, _ := json.Marshal(map[string]any{"pages": []any{map[string]any{"page": 1, "text": "등기", "confidence": 1}},
		"analysis": map[string]any{"parser_version": analysis.ParserVersion, "analyzed_at": time.Now().UTC(),
			"registry": analysis.Registry{ParserVersion: analysis.ParserVersion, Rights: rights, Ownership: []analysis.Entry{}, Warnings: []string{}}}})
	readID := newUUID()
	exec(`INSERT INTO ocr_tasks (id, nest_id, file_id, requested_by, status, page_count, result, attempt, max_attempts, finished_at)
		VALUES ($1, $2, $3, 'alice', 'SUCCESS', 1, $4, 1, 5, now())`, readID, nest, fileID, result)

	// Three requests, each within the complexity limit.
	read := func(query string, vars map[string]any) map[string]any {
		t.Helper()
		r := a.gql(t, alice, query, vars)
		if len(r.Errors) > 0 {
			t.Fatalf("errors: %+v", r.Errors)
		}
		return r.Data
	}
	// The OCR tasks through nodes, with the fragments on both task types
	// a client of the TaskUpdate union makes: errorCode has one type in
	// both, or the selection would not validate.
	tasksData := read(`query($nest: ID!, $ocr: [ID!]!) {
		nest(id: $nest) { issuanceTasks(first: 20) { nodes { errorCode lastErrorCode events { errorCode } } } registryChecks { verdict } }
		nodes(ids: $ocr) { ... on OcrTask { errorCode lastErrorCode } ... on IssuanceTask { errorCode lastErrorCode } } }`,
		map[string]any{"nest": nest, "ocr": ocrIDs})
	alertsData := read(`query($nest: ID!) { nest(id: $nest) {
		alerts(first: 30) { nodes { before { section kind corrections { field } } reasons { code section } } } } }`, map[string]any{"nest": nest})
	readData := read(`query($read: ID!) { ocrTask(id: $read) { analysis { registry { rights { section kind } } findings { flags { kind } } } } }`,
		map[string]any{"read": readID})
	tasks := dig(tasksData, "nest", "issuanceTasks", "nodes")
	sameSet(t, "issuanceTask.errorCode", stringsAt(tasks, "errorCode"), issuanceCodes)
	sameSet(t, "issuanceTask.lastErrorCode", stringsAt(tasks, "lastErrorCode"), issuanceCodes)
	var events []string
	for _, task := range tasks.([]any) {
		events = append(events, stringsAt(dig(task, "events"), "errorCode")...)
	}
	sameSet(t, "taskEvent.errorCode", events, eventCodes)
	sameSet(t, "ocrTask.errorCode", stringsAt(dig(tasksData, "nodes"), "errorCode"), ocrCodes)
	sameSet(t, "ocrTask.lastErrorCode", stringsAt(dig(tasksData, "nodes"), "lastErrorCode"), ocrCodes)
	sameSet(t, "registryCheck.verdict", stringsAt(dig(tasksData, "nest", "registryChecks"), "verdict"), verdicts)
	alerts := dig(alertsData, "nest", "alerts", "nodes")
	sameSet(t, "alert.before.kind", stringsAt(alerts, "before", "kind"), kinds)
	sameSet(t, "alert.before.section", stringsAt(alerts, "before", "section"), sections)
	var fieldsRead, codesRead, reasonSections []string
	for _, al := range alerts.([]any) {
		fieldsRead = append(fieldsRead, stringsAt(dig(al, "before", "corrections"), "field")...)
		codesRead = append(codesRead, stringsAt(dig(al, "reasons"), "code")...)
		reasonSections = append(reasonSections, stringsAt(dig(al, "reasons"), "section")...)
	}
	sameSet(t, "registryCorrection.field", fieldsRead, fields)
	sameSet(t, "verdictReason.code", codesRead, reasonCodes)
	sameSet(t, "verdictReason.section", reasonSections, sections)
	reg := dig(readData, "ocrTask", "analysis")
	sameSet(t, "registryEntry.kind (an analysis)", stringsAt(dig(reg, "registry", "rights"), "kind"), kinds)
	sameSet(t, "riskFlag.kind", stringsAt(dig(reg, "findings", "flags"), "kind"), enumValues(t, a, alice, "RiskFlagKind"))
}
