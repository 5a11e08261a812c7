package httpapi

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/dungji/dungji/graph"
	jobcore "github.com/dungji/dungji/jobs/core"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"
)

// Work bounded by size, before any walk. A document of a few hundred bytes
// can name 2^n selections: 25 fragments each spreading the next twice made
// gqlgen's complexity walk (and our depth walk) visit 2^25 fields, with no
// token, for minutes. Every walk here visits each fragment once
// (memoised) and counts with saturation, so the work is linear in the
// document; and what a document expands to is bounded before gqlparser's
// validation, whose overlapping-fields rule is quadratic in the fields of
// a selection set.

// The bounds of an operation, after its fragments are expanded.
const (
	// MaxFragments bounds the fragments a document defines.
	MaxFragments = 50
	// MaxSelections bounds the fields an operation selects once every
	// fragment spread is replaced by the fragment (the console's largest
	// query selects about 200).
	MaxSelections = 1000
	// MaxSpreads bounds the fragment spreads, expanded likewise.
	MaxSpreads = 200
	// MaxAliases bounds the aliased fields, expanded likewise: an alias
	// is how one field is asked for many times.
	MaxAliases = 100
	// MaxDepth bounds the nesting of fields.
	MaxDepth = 12
	// MaxIntrospectionDepth bounds the nesting under __schema or __type,
	// which MaxDepth does not count: graphql-js's standard introspection
	// query (GraphiQL's, graphql-codegen's, Rover's) is 13 to 15 levels
	// deep, most of them the ofType chain of a type reference, and
	// GraphiQL showed "Error fetching schema". Only development serves
	// introspection.
	MaxIntrospectionDepth = 20
	// MaxIntrospectionLists bounds the lists nested under __schema or
	// __type (types → fields → args is 3): each multiplies what is
	// answered, and fields { type { fields { type { fields … is the
	// introspection bomb.
	MaxIntrospectionLists = 3
)

// introspectionLists are the list fields of the introspection types, each
// with its bit in shape.listsBelow. One nested in itself (a type's fields
// reached through a field's type) is refused under __schema and __type:
// the standard queries never do it, and it is how an introspection query
// multiplies its answer.
var introspectionLists = map[string]uint8{"types": 1, "directives": 2, "fields": 4, "args": 8,
	"inputFields": 16, "interfaces": 32, "possibleTypes": 64, "enumValues": 128}

// The codes of the refusals, one per bound.
const (
	codeFragmentLimit   = "FRAGMENT_LIMIT_EXCEEDED"
	codeSelectionLimit  = "SELECTION_LIMIT_EXCEEDED"
	codeSpreadLimit     = "SPREAD_LIMIT_EXCEEDED"
	codeAliasLimit      = "ALIAS_LIMIT_EXCEEDED"
	codeDepthLimit      = "DEPTH_LIMIT_EXCEEDED"
	codeComplexityLimit = "COMPLEXITY_LIMIT_EXCEEDED"
	// codeIntrospectionLimit refuses __schema asked for more than once, or
	// more than MaxIntrospectionRoots __schema and __type fields.
	codeIntrospectionLimit = "INTROSPECTION_LIMIT_EXCEEDED"
)

// MaxIntrospectionRoots bounds the __schema and __type fields of an
// operation, once expanded; __schema is answered once at most. Neither is
// priced (the cost counts the API's objects), and 99 aliases of a whole
// __schema answered 5.6 MB to an anonymous caller.
const MaxIntrospectionRoots = 10

// DefaultCostLimit is the most objects an operation's answer may hold: a
// page of 100 nests with 10 issuance tasks each and every field of a task
// (its events, file, OCR task with its pages, as many as an upload may
// have, and events) is about 126,500; 100 nests × 100 tasks with every
// field is 1.26 million and refused.
const DefaultCostLimit = 200_000

// A refusal by a bound is a request error, as a validation error is: under
// application/graphql-response+json it is 400 with no "data" (it was 200
// with "data": null), under application/json 200 (graphQLOverHTTP).
func init() {
	for _, code := range []string{codeFragmentLimit, codeSelectionLimit, codeSpreadLimit, codeAliasLimit, codeDepthLimit, codeComplexityLimit, codeIntrospectionLimit} {
		errcode.RegisterErrorType(code, errcode.KindProtocol)
	}
}

// operationBounds refuses, before validation, a document that expands
// past the bounds above, and after it an operation whose answer could
// hold more objects than its cost limit (costOf). It replaces gqlgen's
// ComplexityLimit, whose walk expands every spread anew and prices a
// list's rows as if each were read alone.
type operationBounds struct {
	costLimit  int
	tokenLimit int
	es         graphql.ExecutableSchema
	// cached reports whether a query was parsed and validated before (it
	// was within the bounds then).
	cached func(ctx context.Context, query string) bool
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
	graphql.OperationContextMutator
	graphql.ResponseInterceptor
} = &operationBounds{}

func (*operationBounds) ExtensionName() string { return "OperationBounds" }

func (b *operationBounds) Validate(es graphql.ExecutableSchema) error {
	b.es = es
	return nil
}

// MutateOperationParameters checks the document's shape before gqlgen
// validates it. A document that does not parse is left to gqlgen, which
// says why.
func (b *operationBounds) MutateOperationParameters(ctx context.Context, p *graphql.RawParams) *gqlerror.Error {
	if p.Query == "" || b.cached != nil && b.cached(ctx, p.Query) {
		return nil
	}
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: p.Query}, b.tokenLimit)
	if err != nil {
		return nil
	}
	if refused, _ := checkShape(doc); refused != nil {
		return refused
	}
	for _, op := range doc.Operations {
		if most, key, _ := mostOfOneKey(doc, op); most > MaxSameKey {
			return boundError(codeSelectionLimit, "%q is selected %d times in one selection set, fragments merged; the limit is %d: ask once, or give each an alias",
				key, most, MaxSameKey)
		}
	}
	return nil
}

// MaxSameKey bounds the fields of one response key (a field's alias, or its
// name) in one selection set once fragments are merged into it. Validation
// compares every two of them (gqlparser's OverlappingFieldsCanBeMerged):
// 499 selections of node(id:) with different ids, 9 KB and anonymous,
// were 124,000 comparisons, 0.18 s of CPU and 30 MB each, sixteen at once
// half a gigabyte. Relay's and Apollo's documents repeat a key once per
// fragment that selects it: tens, not hundreds.
const MaxSameKey = 50

// mergedSet gathers the fields of selection sets merged as GraphQL merges
// them: the selection sets of inline fragments and of fragment spreads
// are merged in, each fragment once, and not one already on path (its own
// expansion: a cycle, which validation refuses).
type mergedSet struct {
	// fragment is a spread's fragment, nil when there is none.
	fragment func(*ast.FragmentSpread) *ast.FragmentDefinition
	// leftOut reports whether directives leave a selection out (nil:
	// none is).
	leftOut func(ast.DirectiveList) bool
	field   func(*ast.Field)
	// visits counts the selections looked at.
	visits int
}

// collect calls m.field for each field of sets, merged, and returns the
// fragments it spread.
func (m *mergedSet) collect(sets []ast.SelectionSet, path map[string]bool) map[string]bool {
	spread := map[string]bool{}
	var walk func(set ast.SelectionSet)
	walk = func(set ast.SelectionSet) {
		for _, sel := range set {
			m.visits++
			switch s := sel.(type) {
			case *ast.Field:
				if m.leftOut == nil || !m.leftOut(s.Directives) {
					m.field(s)
				}
			case *ast.InlineFragment:
				if m.leftOut == nil || !m.leftOut(s.Directives) {
					walk(s.SelectionSet)
				}
			case *ast.FragmentSpread:
				if spread[s.Name] || path[s.Name] || m.leftOut != nil && m.leftOut(s.Directives) {
					continue
				}
				if f := m.fragment(s); f != nil {
					spread[s.Name] = true
					walk(f.SelectionSet)
				}
			}
		}
	}
	for _, set := range sets {
		walk(set)
	}
	return spread
}

// mostOfOneKey is the most fields of one response key in one selection set
// of op, fragments merged as validation merges them, and that key. It runs
// after checkShape, which bounds what the document expands to; a fragment
// spread within itself (a cycle, which validation refuses) is not expanded
// again. visits is the selections it looked at.
func mostOfOneKey(doc *ast.QueryDocument, op *ast.OperationDefinition) (most int, key string, visits int) {
	var merged func(sets []ast.SelectionSet, path map[string]bool)
	merged = func(sets []ast.SelectionSet, path map[string]bool) {
		count := map[string]int{}
		subsets := map[string][]ast.SelectionSet{}
		var order []string
		m := mergedSet{
			fragment: func(s *ast.FragmentSpread) *ast.FragmentDefinition { return doc.Fragments.ForName(s.Name) },
			field: func(f *ast.Field) {
				k := cmp.Or(f.Alias, f.Name)
				if count[k]++; count[k] == 1 {
					order = append(order, k)
				}
				if count[k] > most {
					most, key = count[k], k
				}
				if len(f.SelectionSet) > 0 {
					subsets[k] = append(subsets[k], f.SelectionSet)
				}
			},
		}
		spread := m.collect(sets, path)
		visits += m.visits
		if len(spread) > 0 {
			path = maps.Clone(path)
			if path == nil {
				path = map[string]bool{}
			}
			for name := range spread {
				path[name] = true
			}
		}
		for _, k := range order {
			if len(subsets[k]) > 0 {
				merged(subsets[k], path)
			}
		}
	}
	merged([]ast.SelectionSet{op.SelectionSet}, nil)
	return most, key, visits
}

// shape is what a selection set expands to: counts saturate past their
// bound, so that no sum overflows.
type shape struct {
	selections, spreads, aliases, depth int
	// lists is the deepest nesting of introspectionLists fields (counted
	// everywhere, bounded under __schema and __type only); introDepth and
	// introLists are depth and lists under __schema or __type, which depth
	// leaves out.
	lists, introDepth, introLists int
	// listsBelow has the bit of every introspectionLists field in the
	// set; selfNested is set when one of them is nested in itself, and
	// introSelfNested when that is under __schema or __type.
	listsBelow                  uint8
	selfNested, introSelfNested bool
	// schemas and introRoots count __schema fields, and __schema and
	// __type fields, saturating past their bounds.
	schemas, introRoots int
}

func (s *shape) add(o shape, depth int) {
	s.selections = sat(s.selections, o.selections, MaxSelections)
	s.spreads = sat(s.spreads, o.spreads, MaxSpreads)
	s.aliases = sat(s.aliases, o.aliases, MaxAliases)
	s.depth = max(s.depth, min(depth+o.depth, MaxIntrospectionDepth+1))
	s.lists = max(s.lists, min(o.lists, MaxIntrospectionLists+1))
	s.introDepth = max(s.introDepth, o.introDepth)
	s.introLists = max(s.introLists, o.introLists)
	s.listsBelow |= o.listsBelow
	s.schemas = sat(s.schemas, o.schemas, 1)
	s.introRoots = sat(s.introRoots, o.introRoots, MaxIntrospectionRoots)
	s.selfNested = s.selfNested || o.selfNested
	s.introSelfNested = s.introSelfNested || o.introSelfNested
}

// sat adds a and b, stopping just past limit.
func sat(a, b, limit int) int { return min(a+b, limit+1) }

// checkShape refuses a document past a bound, naming the bound and the
// figure (a figure past the bound is "more than" it: counting stopped).
// visits is the selections it looked at: each of the document's once at
// most.
func checkShape(doc *ast.QueryDocument) (err *gqlerror.Error, visits int) {
	if n := len(doc.Fragments); n > MaxFragments {
		return boundError(codeFragmentLimit, "the document defines %d fragments; the limit is %d", n, MaxFragments), 0
	}
	frags := make(map[string]*ast.FragmentDefinition, len(doc.Fragments))
	for _, f := range doc.Fragments {
		frags[f.Name] = f
	}
	memo := map[string]*shape{}
	var walk func(set ast.SelectionSet) shape
	// fragment expands a fragment once; a fragment met again while it is
	// being expanded (a cycle, which validation refuses) counts nothing.
	fragment := func(name string) shape {
		if s, ok := memo[name]; ok {
			if s == nil {
				return shape{}
			}
			return *s
		}
		f := frags[name]
		if f == nil {
			return shape{} // validation says it is unknown
		}
		memo[name] = nil
		s := walk(f.SelectionSet)
		memo[name] = &s
		return s
	}
	walk = func(set ast.SelectionSet) shape {
		var out shape
		for _, sel := range set {
			visits++
			switch s := sel.(type) {
			case *ast.Field:
				one := shape{selections: 1}
				if s.Alias != "" && s.Alias != s.Name {
					one.aliases = 1
				}
				switch s.Name {
				case "__schema":
					one.schemas, one.introRoots = 1, 1
				case "__type":
					one.introRoots = 1
				}
				out.add(one, 1)
				if len(s.SelectionSet) > 0 {
					sub := walk(s.SelectionSet)
					if bit := introspectionLists[s.Name]; bit != 0 {
						sub.lists++
						sub.selfNested = sub.selfNested || sub.listsBelow&bit != 0
						sub.listsBelow |= bit
					}
					if s.Name == "__schema" || s.Name == "__type" {
						sub.introDepth = max(sub.introDepth, sub.depth+1)
						sub.introLists = max(sub.introLists, sub.lists)
						sub.introSelfNested = sub.introSelfNested || sub.selfNested
						sub.depth, sub.lists, sub.listsBelow, sub.selfNested = 0, 0, 0, false
					}
					out.add(sub, 1)
				}
			case *ast.InlineFragment:
				out.add(walk(s.SelectionSet), 0)
			case *ast.FragmentSpread:
				out.add(shape{spreads: 1}, 0)
				out.add(fragment(s.Name), 0)
			}
		}
		return out
	}
	for _, op := range doc.Operations {
		s := walk(op.SelectionSet)
		switch {
		case s.selections > MaxSelections:
			return boundError(codeSelectionLimit, "the operation selects more than %d fields once its fragments are expanded", MaxSelections), visits
		case s.spreads > MaxSpreads:
			return boundError(codeSpreadLimit, "the operation spreads fragments more than %d times once they are expanded", MaxSpreads), visits
		case s.aliases > MaxAliases:
			return boundError(codeAliasLimit, "the operation has more than %d aliased fields once its fragments are expanded", MaxAliases), visits
		case s.depth > MaxDepth:
			return boundError(codeDepthLimit, "the operation is nested more than %d levels deep", MaxDepth), visits
		case s.introDepth > MaxIntrospectionDepth:
			return boundError(codeDepthLimit, "the introspection is nested more than %d levels deep", MaxIntrospectionDepth), visits
		case s.introLists > MaxIntrospectionLists:
			return boundError(codeDepthLimit, "the introspection nests more than %d lists (types, fields, args, …)", MaxIntrospectionLists), visits
		case s.schemas > 1:
			return boundError(codeIntrospectionLimit, "the operation asks for __schema more than once: once is the whole schema"), visits
		case s.introRoots > MaxIntrospectionRoots:
			return boundError(codeIntrospectionLimit, "the operation has more than %d __schema and __type fields", MaxIntrospectionRoots), visits
		case s.introSelfNested:
			return boundError(codeDepthLimit, "the introspection nests a list in itself (fields of a field's type's fields, …)"), visits
		}
	}
	return nil, visits
}

// MaxRuleErrors bounds the errors one validation rule reports for an
// operation. Without it, 500 selections of one field with different
// arguments (14 KB, anonymous) were answered 123,760 "Fields conflict"
// errors, 30 MB, and a batch of ten such 301 MB and 1.3 GB of memory;
// graphql-js stops at the first few too.
const MaxRuleErrors = 10

// cappedRules are gqlparser's validation rules, each reporting at most
// MaxRuleErrors errors (those past it are never formatted).
func cappedRules() *rules.Rules {
	rs := rules.NewDefaultRules()
	names := make([]string, 0, len(rs.GetInner()))
	for name := range rs.GetInner() {
		names = append(names, name)
	}
	for _, name := range names {
		rs.ReplaceRule(name, capRule(rs.GetInner()[name]))
	}
	return rs
}

// capRule is rule with its errors past MaxRuleErrors dropped; a rule is
// started once per validation, so each validation counts its own.
func capRule(rule core.RuleFunc) core.RuleFunc {
	return func(observers *core.Events, addError core.AddErrFunc) {
		n := 0
		rule(observers, func(options ...core.ErrorOption) {
			if n++; n <= MaxRuleErrors {
				addError(options...)
			}
		})
	}
}

func boundError(code, format string, args ...any) *gqlerror.Error {
	err := gqlerror.Errorf(format, args...)
	err.Extensions = map[string]any{"code": code}
	return err
}

// MutateOperationContext prices the validated operation by what its
// answer can hold (graph/cost.go) and refuses one past the limit, saying
// what it costs and what the limit is; the price goes on every answer
// (InterceptResponse).
func (b *operationBounds) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	c, _ := costOf(b.es.Schema(), oc.Operation, oc.Variables)
	cost := Cost{Requested: c, Limit: b.costLimit}
	if batch := batchCostOf(ctx); batch != nil {
		cost.Batch = int(min(batch.total.Add(int64(c)), saturated))
	}
	if oc.Operation.Operation != ast.Subscription {
		// A subscription is priced when it starts, and refused then with
		// the figure; its events do not repeat it: the operation context
		// lives as long as the subscription, and the map Stats keeps the
		// price in added 1.5 KiB to every idle subscribed connection
		// (BenchmarkSubscription, 13.9 → 15.4 KiB heap).
		oc.Stats.SetExtension(costExtension, cost)
	}
	switch {
	case c > b.costLimit:
		err := boundError(codeComplexityLimit, "the operation can return %s objects, more than the limit of %d: ask for smaller pages or fewer nested lists",
			figure(c, b.costLimit), b.costLimit)
		err.Extensions["cost"] = cost
		return err
	case cost.Batch > b.costLimit:
		err := boundError(codeComplexityLimit, "the batch's operations so far can return %s objects, more than the limit of %d for a whole batch: send fewer at once",
			figure(cost.Batch, b.costLimit), b.costLimit)
		err.Extensions["cost"] = cost
		return err
	}
	return nil
}

// Cost is extensions.cost: the objects the operation's answer can hold,
// and the most an operation (or a batch, all its operations together) may
// ask for; in a batch, Batch is what its operations so far can hold.
type Cost struct {
	Requested int `json:"requested"`
	Limit     int `json:"limit"`
	Batch     int `json:"batch,omitempty"`
}

// costExtension names the price in an operation's Stats.
const costExtension = "cost"

// InterceptResponse puts the operation's price on a query's or a
// mutation's answer.
func (b *operationBounds) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	if resp == nil || !graphql.HasOperationContext(ctx) {
		return resp
	}
	if cost, ok := graphql.GetOperationContext(ctx).Stats.GetExtension(costExtension).(Cost); ok {
		if resp.Extensions == nil {
			resp.Extensions = map[string]any{}
		}
		resp.Extensions[costExtension] = cost
	}
	return resp
}

// figure is c, or "more than" what counting stopped at.
func figure(c, limit int) string {
	if c >= saturated {
		return fmt.Sprintf("more than %d", limit)
	}
	return fmt.Sprint(c)
}

// saturated is where sums stop.
const saturated = 1 << 40

// costOf is the most objects the operation's answer can hold (graph/cost.go
// says how lists are priced). It prices the answer as GraphQL executes it:
// fragments are merged into the selection set they are spread in, the
// fields of one response key are merged into one (a fragment spread ten
// times, or a field that ten fragments select, is answered once), and a
// selection that @skip or @include leaves out costs nothing. An
// interface's or union's fragments on different types are all counted, an
// upper bound; introspection is free (it is bounded by its shape, and
// served only in development). checkShape has bounded what the document
// expands to before this walk, which looks at each selection once for
// each time its fragment is expanded: visits says how many.
func costOf(schema *ast.Schema, op *ast.OperationDefinition, vars map[string]any) (price, visits int) {
	// group is the fields of one response key in one selection set, with
	// their selection sets, merged.
	type group struct {
		field *ast.Field
		sets  []ast.SelectionSet
	}
	var merged func(sets []ast.SelectionSet, page int) int
	merged = func(sets []ast.SelectionSet, page int) int {
		var order []*group
		groups := map[string]*group{}
		m := mergedSet{
			fragment: func(s *ast.FragmentSpread) *ast.FragmentDefinition { return s.Definition },
			leftOut:  func(ds ast.DirectiveList) bool { return leftOut(ds, vars) },
			field: func(f *ast.Field) {
				if f.Definition == nil || f.ObjectDefinition == nil || strings.HasPrefix(f.Name, "__") {
					return
				}
				// Fields of one key on different types (an interface's
				// fragments) are kept apart: an upper bound.
				key := f.ObjectDefinition.Name + "." + f.Name + ":" + f.Alias
				g := groups[key]
				if g == nil {
					g = &group{field: f}
					groups[key] = g
					order = append(order, g)
				}
				if len(f.SelectionSet) > 0 {
					g.sets = append(g.sets, f.SelectionSet)
				}
			},
		}
		m.collect(sets, nil)
		visits += m.visits
		total := 0
		for _, g := range order {
			total = min(total+fieldCost(schema, g.field, g.sets, page, vars, merged), saturated)
		}
		return total
	}
	return merged([]ast.SelectionSet{op.SelectionSet}, 0), visits
}

// fieldCost is what one (merged) field's answer can hold: one object, or a
// list of them, with what its selection sets hold.
func fieldCost(schema *ast.Schema, f *ast.Field, sets []ast.SelectionSet, page int, vars map[string]any,
	merged func([]ast.SelectionSet, int) int) int {
	typ := schema.Types[f.Definition.Type.Name()]
	if typ == nil || (typ.Kind != ast.Object && typ.Kind != ast.Interface && typ.Kind != ast.Union) {
		return 0 // scalars come with their object
	}
	args := f.ArgumentMap(vars)
	inner := 0
	if f.Definition.Arguments.ForName("first") != nil || f.Definition.Arguments.ForName("last") != nil {
		inner = graph.PageSize(intArg(args["first"]), intArg(args["last"]))
	}
	each := min(1+merged(sets, inner), saturated)
	if !isList(f.Definition.Type) {
		return each
	}
	n, ok := graph.ListSizes[f.ObjectDefinition.Name+"."+f.Name]
	if ids, byID := args["ids"].([]any); byID && f.Definition.Arguments.ForName("ids") != nil {
		n, ok = len(ids), true
	}
	if !ok {
		// A connection's edges and nodes hold its page; a list priced
		// nowhere (TestEveryListIsPriced) the largest page.
		n = jobcore.MaxPageSize
		if strings.HasSuffix(f.ObjectDefinition.Name, "Connection") && (f.Name == "edges" || f.Name == "nodes") {
			n = page
		}
	}
	return min(n*each, saturated)
}

// leftOut reports whether @skip(if: true) or @include(if: false) leaves a
// selection out of the answer.
func leftOut(ds ast.DirectiveList, vars map[string]any) bool {
	for _, d := range ds {
		on, _ := d.ArgumentMap(vars)["if"].(bool)
		if d.Name == "skip" && on || d.Name == "include" && !on {
			return true
		}
	}
	return false
}

// isList reports whether a field's type is a list (non-null or not).
func isList(t *ast.Type) bool { return t.Elem != nil }

// intArg is an argument's value as an int, nil when it is absent or null.
func intArg(v any) *int {
	switch n := v.(type) {
	case int:
		return &n
	case int64:
		i := int(n)
		return &i
	case float64:
		i := int(n)
		return &i
	}
	return nil
}
