package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/dungji/dungji/db/dbtest"
)

// newUUID is a new row id, as the service makes them (a UUIDv7).
func newUUID() string { return uuid.Must(uuid.NewV7()).String() }

// nodeTables are the tables of the types that implement Node (User aside),
// by GraphQL type.
var nodeTables = map[string]string{
	"Nest": "nests", "IssuanceTask": "issuance_tasks", "OcrTask": "ocr_tasks", "File": "files",
	"CopyVerification": "copy_verifications", "WatchCheck": "watch_checks", "RegistryCheck": "registry_comparisons",
	"Alert": "alerts", "WebhookEndpoint": "webhook_endpoints", "WebhookDelivery": "webhook_deliveries",
}

// TestNode: node(id:) finds an object of every type with an id by that id
// alone, for its owner and for an admin; another user's id is answered
// exactly as an id of nothing (null, no error) after the same statements;
// a malformed id is BAD_USER_INPUT, as everywhere; nodes(ids:) answers in
// the ids' order, is bounded, and reads its ids together.
func TestNode(t *testing.T) {
	t.Parallel()
	counter, url := newWireCounter(t, dbtest.NewURL(t))
	a := startApp(t, map[string]string{"ROLE": "api", "DATABASE_URL": url})
	alice, bob, admin := a.token(t, "alice", false), a.token(t, "bob", false), a.token(t, "root", true)
	ctx := context.Background()
	seedReadGraph(t, a.db.Pool, "alice", 2)
	seedWatchGraph(t, a.db.Pool, "alice")
	if _, err := a.db.Pool.Exec(ctx, `INSERT INTO copy_verifications (id, nest_id, owner_id, file_id, copy_ocr_task_id, issuance_task_id,
			issuance_reused, status, created_at)
		SELECT gen_random_uuid(), t.nest_id, 'alice', t.file_id, o.id, t.id, true, 'MATCHES', now()
		FROM issuance_tasks t JOIN ocr_tasks o ON o.issuance_task_id = t.id LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for typ, table := range nodeTables {
		var id string
		if err := a.db.Pool.QueryRow(ctx, "SELECT id::text FROM "+table+" ORDER BY id LIMIT 1").Scan(&id); err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		ids[typ] = id
	}

	// Every implementation of Node is tried here.
	r := a.gql(t, alice, `{ __type(name: "Node") { possibleTypes { name } } }`, nil)
	var implementations []string
	for _, p := range dig(r.Data, "__type", "possibleTypes").([]any) {
		implementations = append(implementations, dig(p, "name").(string))
	}
	for _, typ := range implementations {
		if _, ok := ids[typ]; !ok && typ != "User" {
			t.Errorf("Node's implementation %s is not tried: add its table to nodeTables", typ)
		}
	}

	const nodeQ = `query($id: ID!) { node(id: $id) { __typename id } }`
	for typ, id := range ids {
		for _, who := range []struct{ name, token string }{{"owner", alice}, {"admin", admin}} {
			r := a.gql(t, who.token, nodeQ, map[string]any{"id": id})
			if len(r.Errors) > 0 || dig(r.Data, "node", "__typename") != typ || dig(r.Data, "node", "id") != id {
				t.Errorf("%s's node(%s) as its %s: %+v %+v", typ, id, who.name, r.Data, r.Errors)
			}
		}
		// Another user's: null, no error, as an unknown id.
		if r := a.gql(t, bob, nodeQ, map[string]any{"id": id}); len(r.Errors) > 0 || r.Data["node"] != nil {
			t.Errorf("%s's node as another user: %+v %+v", typ, r.Data, r.Errors)
		}
	}
	// The typed fields of a node are the type's own.
	r = a.gql(t, alice, `query($id: ID!) { node(id: $id) { ... on Nest { id title issuanceTasks(first: 1) { nodes { status } } } } }`,
		map[string]any{"id": ids["Nest"]})
	if len(r.Errors) > 0 || dig(r.Data, "node", "title") != "bench" || dig(r.Data, "node", "issuanceTasks", "nodes", 0, "status") == nil {
		t.Errorf("a nest through node: %+v %+v", r.Data, r.Errors)
	}
	// The caller's own user.
	r = a.gql(t, alice, `query($id: ID!) { node(id: $id) { __typename ... on User { id admin } } }`, map[string]any{"id": "alice"})
	if len(r.Errors) > 0 || dig(r.Data, "node", "__typename") != "User" || dig(r.Data, "node", "id") != "alice" {
		t.Errorf("the caller's user through node: %+v %+v", r.Data, r.Errors)
	}
	// Unknown ids: null, no error. Malformed ids, and another user's user
	// id (not a UUID, and not the caller's): BAD_USER_INPUT, as
	// nest(id: "not-an-id") answers.
	if r := a.gql(t, alice, nodeQ, map[string]any{"id": newUUID()}); len(r.Errors) > 0 || r.Data["node"] != nil {
		t.Errorf("an unknown id: %+v %+v", r.Data, r.Errors)
	}
	for _, bad := range []string{"not-an-id", "bob", ""} {
		if r := a.gql(t, alice, nodeQ, map[string]any{"id": bad}); r.code() != "BAD_USER_INPUT" || r.Errors[0].Extensions["field"] != "id" {
			t.Errorf("node(id: %q): %+v", bad, r.Errors)
		}
	}
	if r := a.gql(t, alice, `{ nest(id: "not-an-id") { id } }`, nil); r.code() != "BAD_USER_INPUT" {
		t.Errorf("nest(id: malformed), the behaviour node follows: %+v", r.Errors)
	}
	if r := a.gql(t, "", nodeQ, map[string]any{"id": ids["Nest"]}); r.code() != "UNAUTHENTICATED" {
		t.Errorf("node without a token: %+v", r.Errors)
	}

	// nodes: the ids' order, null for the unknown and the foreign.
	r = a.gql(t, bob, `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`, map[string]any{"ids": []string{ids["Alert"], newUUID(), "bob"}})
	if len(r.Errors) > 0 || fmt.Sprint(r.Data["nodes"]) != "[<nil> <nil> map[__typename:User id:bob]]" {
		t.Errorf("nodes as another user: %+v %+v", r.Data, r.Errors)
	}
	var all []string
	for _, typ := range implementations {
		if typ != "User" {
			all = append(all, ids[typ])
		}
	}
	r = a.gql(t, alice, `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`, map[string]any{"ids": all})
	for i, typ := range slices.DeleteFunc(slices.Clone(implementations), func(s string) bool { return s == "User" }) {
		if dig(r.Data, "nodes", i, "__typename") != typ || dig(r.Data, "nodes", i, "id") != all[i] {
			t.Errorf("nodes[%d]: %v, want the %s %s (errors %+v)", i, dig(r.Data, "nodes", i), typ, all[i], r.Errors)
		}
	}
	many := make([]string, 101)
	for i := range many {
		many[i] = newUUID()
	}
	if r := a.gql(t, alice, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, map[string]any{"ids": many}); r.code() != "BAD_USER_INPUT" ||
		!strings.Contains(r.Errors[0].Message, "100") {
		t.Errorf("nodes of 101 ids: %+v", r.Errors)
	}
	if r := a.gql(t, alice, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, map[string]any{"ids": []string{ids["Nest"], "x"}}); r.code() != "BAD_USER_INPUT" ||
		r.Errors[0].Extensions["field"] != "ids" || !strings.Contains(r.Errors[0].Message, "ids[1]") {
		t.Errorf("nodes with a malformed id: %+v", r.Errors)
	}

	// The statements: another user's id runs exactly those of an unknown
	// id (the owner is checked inside the one lookup); the owner's runs
	// one more (the row). Each count is the least of five requests, so
	// that a background statement (the event tail's poll) is not counted.
	statements := func(token, id string) int64 {
		least := int64(-1)
		for range 5 {
			before := counter.counts()
			r := a.gql(t, token, nodeQ, map[string]any{"id": id})
			if len(r.Errors) > 0 {
				t.Fatal(r.Errors)
			}
			if n := counter.counts().sub(before).Statements; least < 0 || n < least {
				least = n
			}
		}
		return least
	}
	foreign, unknown, own := statements(bob, ids["Nest"]), statements(alice, newUUID()), statements(alice, ids["Nest"])
	t.Logf("statements: another user's id %d, an unknown id %d, the caller's own %d", foreign, unknown, own)
	if foreign != unknown || own != unknown+1 {
		t.Errorf("statements: another user's id %d, an unknown id %d, the caller's own %d; want the first two equal, the third one more",
			foreign, unknown, own)
	}
	// 100 nests and one of each other type: one lookup and one read per
	// table, not a statement per id.
	nests := seedNests(t, a.db.Pool, "alice", 100-len(all)+1)
	batch := append(slices.Clone(all), nests...)[:100]
	before := counter.counts()
	r = a.gql(t, alice, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, map[string]any{"ids": batch})
	n := counter.counts().sub(before).Statements
	for i, id := range batch {
		if dig(r.Data, "nodes", i, "id") != id {
			t.Fatalf("nodes of 100: [%d] is %v, want %s (errors %+v)", i, dig(r.Data, "nodes", i), id, r.Errors)
		}
	}
	t.Logf("nodes of 100 ids of %d types: %d statements", len(all), n)
	if n > int64(1+len(all)+2) {
		t.Errorf("nodes of 100 ids of %d types: %d statements; want one lookup and one read per type", len(all), n)
	}
}
