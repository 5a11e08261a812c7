package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"

	"github.com/dungji/dungji/graph"
)

// fragmentBomb is a document of n fragments, each spreading the next
// twice: it names 2^(n-1) fields in a few bytes a fragment.
func fragmentBomb(n int, leaf string) string {
	var b strings.Builder
	b.WriteString("query { ...L1 }\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "fragment L%d on Query { ...L%d ...L%d }\n", i, i+1, i+1)
	}
	fmt.Fprintf(&b, "fragment L%d on Query { %s }\n", n, leaf)
	return b.String()
}

// repeat is "query { s s s … }" with s n times.
func repeat(n int, s string) string {
	return "query {" + strings.Repeat(" "+s, n) + " }"
}

// nested is a selection n fields deep: nests → nodes → issuanceTasks → …
func nested(n int) string {
	path := []string{"nests(first: 1)", "nodes", "issuanceTasks(first: 1)", "nodes", "nest"}
	var b strings.Builder
	b.WriteString("query {")
	for i := range n - 1 {
		b.WriteString(" " + path[i%len(path)] + " {")
		if i%len(path) == 4 { // nest → start again at its issuanceTasks
			path = []string{"issuanceTasks(first: 1)", "nodes", "nest"}
		}
	}
	b.WriteString(" id")
	b.WriteString(strings.Repeat(" }", n-1))
	b.WriteString(" }")
	return b.String()
}

// boundsServer is gqlgen with the extensions that bound a document, as
// NewGraphQLHandler adds them, over the real schema; no resolver runs
// for what is refused, and what is accepted asks for __typename only.
func boundsServer(t testing.TB) http.Handler {
	srv := handler.New(graph.NewExecutableSchema(graph.NewConfig(&graph.Resolver{})))
	srv.AddTransport(transport.POST{})
	srv.Use(literalCheck{})
	srv.Use(&operationBounds{costLimit: DefaultCostLimit, tokenLimit: parserTokenLimit})
	srv.SetParserTokenLimit(parserTokenLimit)
	srv.SetValidationRulesFn(cappedRules)
	return srv
}

// TestValidationErrorsAreCapped: a rule reports at most MaxRuleErrors
// errors an operation: 50 selections of node(id:) with different ids
// conflict 1,225 times.
func TestValidationErrorsAreCapped(t *testing.T) {
	t.Parallel()
	body, _ := json.Marshal(map[string]any{"query": "{ " + conflicting(MaxSameKey) + "}"})
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	boundsServer(t).ServeHTTP(rec, req)
	var out struct{ Errors []struct{ Message string } }
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Errors) != MaxRuleErrors || !strings.Contains(out.Errors[0].Message, "conflict") {
		t.Fatalf("%d errors (%d bytes), want %d conflicts", len(out.Errors), rec.Body.Len(), MaxRuleErrors)
	}
}

func postQuery(t testing.TB, h http.Handler, query string) (code, message string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query})
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(rec, req)
	var out struct {
		Errors []struct {
			Message    string         `json:"message"`
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	if len(out.Errors) == 0 {
		return "", ""
	}
	c, _ := out.Errors[0].Extensions["code"].(string)
	return c, out.Errors[0].Message
}

// TestOperationBounds: each bound refuses with its own code and figure,
// before any walk that expands fragments; what is within every bound is
// answered.
func TestOperationBounds(t *testing.T) {
	t.Parallel()
	h := boundsServer(t)
	for _, c := range []struct {
		name, query, code, says string
	}{
		{"a fragment bomb of 7 (64 fields, 126 spreads)", fragmentBomb(7, "__typename"), "", ""},
		{"a fragment bomb of 8 (254 spreads)", fragmentBomb(8, "__typename"), codeSpreadLimit, "more than 200 times"},
		{"a fragment bomb of 11 (1024 fields)", fragmentBomb(11, "__typename"), codeSelectionLimit, "more than 1000 fields"},
		{"a fragment bomb of 25", fragmentBomb(25, "__typename"), codeSelectionLimit, "more than 1000 fields"},
		{"a fragment bomb of 50", fragmentBomb(50, "__typename"), codeSelectionLimit, "more than 1000 fields"},
		{"a fragment bomb of 100", fragmentBomb(100, "__typename"), codeFragmentLimit, "defines 100 fragments; the limit is 50"},
		{"a fragment bomb of 500", fragmentBomb(500, "__typename"), codeFragmentLimit, "defines 500 fragments"},
		{"1001 fields", repeat(1001, "__typename"), codeSelectionLimit, "more than 1000"},
		{"1000 fields", thousandFields(), "", ""},
		// Validation compares every two fields of one key in a set.
		{"50 selections of one field", repeat(50, `node(id: "x") { id }`), "", ""},
		{"51 selections of one field", repeat(51, `node(id: "x") { id }`), codeSelectionLimit, `"node" is selected 51 times in one selection set`},
		{"499 conflicting selections in a fragment", "{ ...A } fragment A on Query { " + conflicting(499) + " }", codeSelectionLimit, `"node" is selected 499 times`},
		{"one field from 60 fragments", sixtyFragments(), codeFragmentLimit, "defines 60 fragments"},
		{"one field from 30 fragments, 2 each, merged", thirtyFragments(), codeSelectionLimit, `"node" is selected 60 times`},
		{"fields of one key in fields merged from fragments", nestedMerge(), codeSelectionLimit, `"nodes" is selected 60 times`},
		{"101 aliases", repeat(101, "a: __typename"), codeAliasLimit, "more than 100 aliased"},
		{"201 spreads", repeat(201, "...F") + " fragment F on Query { __typename }", codeSpreadLimit, "more than 200 times"},
		{"13 levels", nested(13), codeDepthLimit, "more than 12 levels"},
		{"__schema twice", `{ a: __schema { queryType { name } } b: __schema { queryType { name } } }`, codeIntrospectionLimit, "__schema more than once"},
		{"__schema twice through a fragment", `{ ...S ...T } fragment S on Query { __schema { queryType { name } } } fragment T on Query { x: __schema { queryType { name } } }`, codeIntrospectionLimit, "__schema more than once"},
		{"11 __type fields", repeat(11, `t: __type(name: "Nest") { name }`), codeIntrospectionLimit, "more than 10 __schema and __type"},
		{"a page of 100 nests, each with 100 tasks, their events and OCR pages", `{ nests(first: 100) { nodes { issuanceTasks(first: 100) { nodes { id events { to } ocrTask { pages { page } } } } } } }`,
			codeComplexityLimit, "can return 1120201 objects, more than the limit of 200000"},
		{"a fragment cycle", `query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }`, "GRAPHQL_VALIDATION_FAILED", "Cannot spread fragment"},
		{"an unknown fragment", `query { ...Nowhere }`, "GRAPHQL_VALIDATION_FAILED", "Unknown fragment"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, msg := postQuery(t, h, c.query)
			if code != c.code || !strings.Contains(msg, c.says) {
				t.Errorf("%d bytes: %s %q, want %s %q", len(c.query), code, msg, c.code, c.says)
			}
		})
	}
}

// thousandFields is 1000 fields of different keys: 100 aliases of 10.
func thousandFields() string {
	var b strings.Builder
	b.WriteString("{")
	for i := range 100 {
		fmt.Fprintf(&b, " a%d: nests(first: 1) { nodes { id title address registryUniqueNo } pageInfo { hasNextPage hasPreviousPage startCursor } }", i)
	}
	return b.String() + " }"
}

// conflicting is n selections of node(id:), each with another id.
func conflicting(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `node(id: "%d") { id } `, i)
	}
	return b.String()
}

// spreadAll is an operation spreading n fragments F0…Fn-1, each on Query
// with body(i) as its selections.
func spreadAll(n int, body func(i int) string) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		fmt.Fprintf(&b, " ...F%d", i)
	}
	b.WriteString(" }")
	for i := range n {
		fmt.Fprintf(&b, " fragment F%d on Query { %s }", i, body(i))
	}
	return b.String()
}

// sixtyFragments spreads 60 fragments that each select node(id:).
func sixtyFragments() string {
	return spreadAll(60, func(i int) string { return fmt.Sprintf(`node(id: "%d") { id }`, i) })
}

// thirtyFragments spreads 30 fragments that each select node(id:) twice,
// so that the 60 meet only once the fragments are merged.
func thirtyFragments() string {
	return spreadAll(30, func(i int) string { return fmt.Sprintf(`node(id: "%d") { id } node(id: "%d") { id }`, 2*i, 2*i+1) })
}

// nestedMerge selects nests(first: 1) in 30 fragments, each with nodes
// twice: 30 of one key at the top, 60 of another in the merged nests.
func nestedMerge() string {
	return spreadAll(30, func(int) string { return "nests(first: 1) { nodes { id } nodes { title } }" })
}

// nodes is how many selections a document holds as written (each
// fragment's once): the work a walk of it may do.
func nodes(doc *ast.QueryDocument) int {
	var count func(ast.SelectionSet) int
	count = func(set ast.SelectionSet) int {
		n := 0
		for _, sel := range set {
			n++
			switch s := sel.(type) {
			case *ast.Field:
				n += count(s.SelectionSet)
			case *ast.InlineFragment:
				n += count(s.SelectionSet)
			}
		}
		return n
	}
	n := 0
	for _, op := range doc.Operations {
		n += count(op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		n += count(f.SelectionSet)
	}
	return n
}

// expanded counts, by expanding every spread anew as gqlgen's walk did,
// the fields and spreads of an operation, stopping once they pass the
// bounds: the figure checkShape must agree with.
func expanded(doc *ast.QueryDocument, set ast.SelectionSet, fields, spreads *int) {
	for _, sel := range set {
		if *fields > MaxSelections || *spreads > MaxSpreads {
			return
		}
		switch s := sel.(type) {
		case *ast.Field:
			*fields++
			expanded(doc, s.SelectionSet, fields, spreads)
		case *ast.InlineFragment:
			expanded(doc, s.SelectionSet, fields, spreads)
		case *ast.FragmentSpread:
			*spreads++
			if f := doc.Fragments.ForName(s.Name); f != nil {
				expanded(doc, f.SelectionSet, fields, spreads)
			}
		}
	}
}

// randomDocument is a document of random fragments, each spreading
// later ones (so no cycle) several times and selecting a few fields.
func randomDocument(r *rand.Rand) string {
	n := 1 + r.IntN(40)
	var b strings.Builder
	b.WriteString("query { ...F0 }\n")
	for i := range n {
		fmt.Fprintf(&b, "fragment F%d on Query {", i)
		for range r.IntN(4) {
			b.WriteString(" __typename")
		}
		if r.IntN(3) == 0 {
			b.WriteString(" me { id }")
		}
		for range r.IntN(5) {
			if i+1 < n {
				fmt.Fprintf(&b, " ...F%d", i+1+r.IntN(n-i-1))
			}
		}
		b.WriteString(" __typename }\n")
	}
	return b.String()
}

// TestOperationBoundsWorkIsLinear: over random fragment graphs (most of
// which name millions of fields), checkShape looks at each selection of
// the document once at most, and refuses exactly those whose expansion —
// counted the slow way, up to the bounds — passes one.
func TestOperationBoundsWorkIsLinear(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 11))
	refused := 0
	for i := range 2000 {
		q := randomDocument(r)
		doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: q}, parserTokenLimit)
		if err != nil {
			continue
		}
		gerr, visits := checkShape(doc)
		if limit := nodes(doc); visits > limit {
			t.Fatalf("document %d: %d visits for %d selections\n%s", i, visits, limit, q)
		}
		var fields, spreads int
		expanded(doc, doc.Operations[0].SelectionSet, &fields, &spreads)
		over := fields > MaxSelections || spreads > MaxSpreads
		if over != (gerr != nil) {
			t.Fatalf("document %d: %d fields, %d spreads, refused: %v\n%s", i, fields, spreads, gerr, q)
		}
		if gerr != nil {
			refused++
		}
	}
	t.Logf("%d of 2000 refused", refused)
}

// FuzzOperationBounds: any document within the parser's token limit is
// shaped in work linear in it — each of its selections looked at once —
// whatever it expands to; one within the bounds is priced looking at each
// selection once for each spread of its fragment (MaxSpreads bounds them).
func FuzzOperationBounds(f *testing.F) {
	for _, s := range []string{fragmentBomb(25, "__typename"), fragmentBomb(60, "me { id }"), repeat(50, "a: me { id }"), nested(14),
		`{ nests(first: 100) { nodes { issuanceTasks(first: 100) { nodes { id } } } } }`,
		`query { ...A } fragment A on Query { ...B ...B } fragment B on Query { ...A }`} {
		f.Add(s)
	}
	es := graph.NewExecutableSchema(graph.NewConfig(&graph.Resolver{}))
	f.Fuzz(func(t *testing.T, q string) {
		if len(q) > MaxGraphQLBody {
			return
		}
		doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: q}, parserTokenLimit)
		if err != nil {
			return
		}
		limit := nodes(doc)
		gerr, visits := checkShape(doc)
		if visits > limit {
			t.Fatalf("shape: %d visits for %d selections", visits, limit)
		}
		if gerr != nil {
			return
		}
		for _, op := range doc.Operations {
			if _, _, visits := mostOfOneKey(doc, op); visits > (MaxSpreads+1)*limit {
				t.Fatalf("keys: %d visits for %d selections", visits, limit)
			}
		}
		if len(validator.Validate(es.Schema(), doc)) > 0 {
			return
		}
		for _, op := range doc.Operations {
			if _, visits := costOf(es.Schema(), op, nil); visits > (MaxSpreads+1)*limit {
				t.Fatalf("cost: %d visits for %d selections", visits, limit)
			}
		}
	})
}

// TestIntrospectionWithinBounds: the standard introspection queries —
// graphql-js's getIntrospectionQuery() as graphql-codegen and Rover send
// it, and with every option GraphiQL 4 turns on (testdata, printed by
// graphql 16.15) — are answered where introspection is on: GraphiQL said
// "Error fetching schema" (DEPTH_LIMIT_EXCEEDED at 13 levels). Nesting
// under __schema and __type has its own bounds, which refuse the
// introspection bomb.
func TestIntrospectionWithinBounds(t *testing.T) {
	t.Parallel()
	srv := handler.New(graph.NewExecutableSchema(graph.NewConfig(&graph.Resolver{})))
	srv.AddTransport(transport.POST{})
	srv.Use(extension.Introspection{})
	srv.Use(literalCheck{})
	srv.Use(&operationBounds{costLimit: DefaultCostLimit, tokenLimit: parserTokenLimit})
	srv.SetParserTokenLimit(parserTokenLimit)
	for _, file := range []string{"introspection-graphql-js.graphql", "introspection-graphiql.graphql"} {
		q, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := json.Marshal(map[string]any{"query": string(q)})
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		srv.ServeHTTP(rec, req)
		var out struct {
			Data struct {
				Schema struct {
					QueryType struct{ Name string }
					Types     []struct{ Name string }
				} `json:"__schema"`
			}
			Errors []any
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || len(out.Errors) > 0 || out.Data.Schema.QueryType.Name != "Query" || len(out.Data.Schema.Types) < 20 {
			t.Errorf("%s: %d %.300s", file, rec.Code, rec.Body)
		}
	}
	ofType := func(n int) string {
		return "{ __type(name: \"Nest\") { name" + strings.Repeat(" ofType {", n) + " name" + strings.Repeat(" }", n) + " } }"
	}
	for _, c := range []struct{ name, query, code, says string }{
		{"fields of fields of fields of types", `{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }`,
			codeDepthLimit, "more than 3 lists"},
		{"fields of fields of a type", `{ __type(name: "Nest") { fields { type { fields { name } } } } }`,
			codeDepthLimit, "nests a list in itself"},
		{"possible types of possible types", `{ __type(name: "Nest") { possibleTypes { possibleTypes { name } } } }`,
			codeDepthLimit, "nests a list in itself"},
		{"ofType 18 deep", ofType(18), "", ""},
		{"ofType 20 deep", ofType(20), codeDepthLimit, "introspection is nested more than 20 levels"},
		{"the list bomb through fragments", `{ __schema { types { ...F } } } fragment F on __Type { fields { type { ...G } } } fragment G on __Type { fields { type { name } } }`,
			codeDepthLimit, "nests a list in itself"},
		{"ordinary fields stay at 12", "{ __schema { queryType { name } } " + strings.TrimPrefix(nested(13), "query {"), codeDepthLimit, "more than 12 levels"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, msg := postQuery(t, srv, c.query)
			if code != c.code || !strings.Contains(msg, c.says) {
				t.Errorf("%s %q, want %s %q", code, msg, c.code, c.says)
			}
		})
	}
}

// everyTaskField is a page of 100 nests with 10 issuance tasks each and
// every field of a task: what the cost limit must admit.
const everyTaskField = `{ nests(first: 100) { pageInfo { hasNextPage endCursor } edges { cursor node { id } }
  nodes { id title address registryUniqueNo createdAt
    issuanceTasks(first: 10) { pageInfo { hasNextPage endCursor } nodes {
      id status errorCode errorMessage attempt maxAttempts lastErrorCode lastAttemptAt nextRetryAt createdAt startedAt finishedAt updatedAt version
      nest { id title } file { id size sha256 contentType url }
      ocrTask { id status errorCode errorMessage attempt maxAttempts lastErrorCode lastAttemptAt nextRetryAt pageCount
        createdAt startedAt finishedAt updatedAt version text pages { page text confidence } file { id size } issuanceTask { id }
        events { from to errorCode attempt version at } }
      events { from to errorCode attempt version at } } } } } }`

// TestCostPricesWhatAnAnswerCanHold: an operation costs the objects its
// answer can hold, lists multiplying by their page (graph/cost.go); the
// figures are worked out by hand beside each query.
func TestCostPricesWhatAnAnswerCanHold(t *testing.T) {
	t.Parallel()
	es := graph.NewExecutableSchema(graph.NewConfig(&graph.Resolver{}))
	aliases := make([]string, 100)
	for i := range aliases {
		aliases[i] = fmt.Sprintf("a%d: nests(first: 100) { nodes { issuanceTasks(first: 100) { nodes { id } } } }", i)
	}
	for _, c := range []struct {
		name, query string
		vars        map[string]any
		want        int
	}{
		{"scalars come with their object", `{ me { id admin } }`, nil, 1},
		{"the default page is 20", `{ nests { nodes { id } } }`, nil, 1 + 20},
		{"a page from a variable", `query($n: Int) { nests(first: $n) { nodes { id } } }`, map[string]any{"n": 100}, 1 + 100},
		{"edges and nodes both hold the page", `{ nests(first: 5) { edges { cursor node { id } } nodes { id } pageInfo { hasNextPage } } }`, nil, 1 + 5*2 + 5 + 1},
		// The example, refused at complexity 1681 before:
		// 1 + 10 × (1 + 1 + 5 × (1 + nest + file + ocrTask + 10 events)).
		{"10 nests × 5 tasks with their links", `{ nests(first: 10) { nodes { issuanceTasks(first: 5) { nodes { id status nest { id } file { size } ocrTask { id status } events { to } } } } } }`, nil, 721},
		// 2 + 100 edges × 2 + 100 × (1 + 2 + 10 × (1 + 1 + 1 + 113 + 10)):
		// an OCR task's pages priced as an upload's most, 100.
		{"100 nests × 10 tasks with every field", everyTaskField, nil, 126502},
		{"nodes holds the ids given", `{ nodes(ids: ["a", "b", "c"]) { id ... on Nest { issuanceTasks(first: 2) { nodes { id } } } } }`, nil, 3 * (1 + 1 + 2)},
		{"a fragment on a connection holds each page it is spread under",
			`{ a: nests(first: 50) { ...C } b: nests(first: 100) { ...C } } fragment C on NestConnection { nodes { id } edges { node { id } } }`,
			nil, (1 + 50 + 50*2) + (1 + 100 + 100*2)},
		// Answered as GraphQL executes it: a fragment spread 50 times,
		// and one field three fragments select, are each answered once.
		// 1 + 10 × (1 + 1 + 10).
		{"a fragment spread 50 times is answered once", "{ nests(first: 10) { nodes { " + strings.Repeat("...T ", 50) + "} } } fragment T on Nest { issuanceTasks(first: 10) { nodes { id } } }", nil, 121},
		// 1 + 10 × (1 + 1 + 10 × (1 + nest)).
		{"one field selected by three fragments is merged", `{ nests(first: 10) { nodes { issuanceTasks(first: 10) { nodes { id } } ...A ...B } } }
			fragment A on Nest { issuanceTasks(first: 10) { nodes { status } } }
			fragment B on Nest { issuanceTasks(first: 10) { nodes { nest { id } } } }`, nil, 221},
		{"aliases are answered apart", `{ nests(first: 10) { nodes { a: issuanceTasks(first: 10) { nodes { id } } b: issuanceTasks(first: 10) { nodes { id } } } } }`, nil, 1 + 10*(1+2*(1+10))},
		{"@include(if: false) costs nothing", `query($x: Boolean!) { me { id } nests(first: 100) @include(if: $x) { nodes { id } } }`, map[string]any{"x": false}, 1},
		{"@include(if: true) costs its answer", `query($x: Boolean!) { me { id } nests(first: 100) @include(if: $x) { nodes { id } } }`, map[string]any{"x": true}, 1 + 1 + 100},
		{"@skip(if: true) on a fragment costs nothing", `{ me { id } ...N @skip(if: true) } fragment N on Query { nests(first: 100) { nodes { id } } }`, nil, 1},
		{"introspection is free", `{ __schema { types { name fields { name } } } }`, nil, 0},
		// 1 + 100 × (2 + 100 × (1 + 1 + 1 + 100)).
		{"lists nested 100 × 100 × 100", `{ nests(first: 100) { nodes { issuanceTasks(first: 100) { nodes { nest { issuanceTasks(first: 100) { nodes { id } } } } } } } }`, nil, 1030201},
		{"100 aliases of 100 × 100", "{ " + strings.Join(aliases, " ") + " }", nil, 100 * (1 + 100*(1+1+100))},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc, err := parser.ParseQuery(&ast.Source{Input: c.query})
			if err != nil {
				t.Fatal(err)
			}
			if errs := validator.Validate(es.Schema(), doc); len(errs) > 0 {
				t.Fatal(errs)
			}
			got, _ := costOf(es.Schema(), doc.Operations[0], c.vars)
			if got != c.want {
				t.Errorf("costs %d, want %d", got, c.want)
			}
			if admitted, want := got <= DefaultCostLimit, c.want <= DefaultCostLimit; admitted != want {
				t.Errorf("admitted %v at the limit of %d", admitted, DefaultCostLimit)
			}
		})
	}
}

// TestEveryListIsPriced: every list of objects in the schema is a
// connection's page or has its size in graph.ListSizes, and every entry
// of ListSizes names a list: a list added without a price would be priced
// as the largest page, silently.
func TestEveryListIsPriced(t *testing.T) {
	schema := graph.NewExecutableSchema(graph.NewConfig(&graph.Resolver{})).Schema()
	seen := map[string]bool{}
	for _, typ := range schema.Types {
		if strings.HasPrefix(typ.Name, "__") || (typ.Kind != ast.Object && typ.Kind != ast.Interface) {
			continue
		}
		for _, f := range typ.Fields {
			elem := schema.Types[f.Type.Name()]
			if !isList(f.Type) || elem == nil || elem.Kind == ast.Scalar || elem.Kind == ast.Enum || strings.HasPrefix(f.Name, "__") {
				continue
			}
			key := typ.Name + "." + f.Name
			if strings.HasSuffix(typ.Name, "Connection") && (f.Name == "edges" || f.Name == "nodes") {
				continue
			}
			if f.Arguments.ForName("ids") != nil {
				continue // priced by the ids given
			}
			if _, ok := graph.ListSizes[key]; !ok {
				t.Errorf("%s is a list of %s with no size in graph.ListSizes", key, elem.Name)
			}
			seen[key] = true
		}
	}
	for key := range graph.ListSizes {
		if !seen[key] {
			t.Errorf("graph.ListSizes prices %s, which is not a list of objects in the schema", key)
		}
	}
}
