package httpapi

import (
	"context"
	"fmt"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
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
)

// operationBounds refuses, before validation, a document that expands
// past the bounds above, and after it an operation whose complexity (lists
// priced by page size, as graph.NewConfig says) passes its limit. It
// replaces gqlgen's ComplexityLimit, whose walk expands every spread anew.
type operationBounds struct {
	complexityLimit int
	tokenLimit      int
	es              graphql.ExecutableSchema
	// cached reports whether a query was parsed and validated before (it
	// was within the bounds then).
	cached func(ctx context.Context, query string) bool
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
	graphql.OperationContextMutator
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
	refused, _ := checkShape(doc)
	return refused
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
		case s.introSelfNested:
			return boundError(codeDepthLimit, "the introspection nests a list in itself (fields of a field's type's fields, …)"), visits
		}
	}
	return nil, visits
}

func boundError(code, format string, args ...any) *gqlerror.Error {
	err := gqlerror.Errorf(format, args...)
	err.Extensions = map[string]any{"code": code}
	return err
}

// MutateOperationContext prices the validated operation: gqlgen's
// complexity, with each fragment priced once.
func (b *operationBounds) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	c, _ := complexityOf(ctx, b.es, oc.Operation, oc.Variables)
	if c > b.complexityLimit {
		return boundError(codeComplexityLimit, "operation has complexity %s, which exceeds the limit of %d", figure(c, b.complexityLimit), b.complexityLimit)
	}
	return nil
}

// figure is c, or "more than" what counting stopped at.
func figure(c, limit int) string {
	if c >= saturated {
		return fmt.Sprintf("more than %d", limit)
	}
	return fmt.Sprint(c)
}

// saturated is where complexity sums stop.
const saturated = 1 << 40

// complexityOf is gqlgen's complexity.Calculate (custom complexity where
// the schema has one, 1 plus the children's otherwise, the worst
// implementor for an interface's field; __Schema free), with each
// fragment's price computed once: a fragment's fields are typed by its
// own type condition, so its price is the same wherever it is spread.
// visits is the selections it looked at: each of the document's once at
// most.
func complexityOf(ctx context.Context, es graphql.ExecutableSchema, op *ast.OperationDefinition, vars map[string]any) (price, visits int) {
	schema := es.Schema()
	memo := map[*ast.FragmentDefinition]int{}
	var set func(ast.SelectionSet) int
	fieldPrice := func(def *ast.Definition, kind ast.DefinitionKind, name string, child int, args map[string]any) int {
		if c, ok := es.Complexity(ctx, def.Name, name, child, args); ok && c >= 1 {
			return min(c, saturated)
		}
		if kind == ast.Scalar || kind == ast.Enum {
			return 1
		}
		return min(1+child, saturated)
	}
	set = func(sels ast.SelectionSet) int {
		total := 0
		for _, sel := range sels {
			visits++
			switch s := sel.(type) {
			case *ast.Field:
				if s.Definition == nil || s.ObjectDefinition == nil {
					continue
				}
				typ := schema.Types[s.Definition.Type.Name()]
				if typ == nil || typ.Name == "__Schema" {
					continue
				}
				child := 0
				switch typ.Kind {
				case ast.Object, ast.Interface, ast.Union:
					child = set(s.SelectionSet)
				}
				args := s.ArgumentMap(vars)
				price := 0
				if s.ObjectDefinition.Kind == ast.Interface {
					for _, t := range schema.GetPossibleTypes(s.ObjectDefinition) {
						price = max(price, fieldPrice(t, typ.Kind, s.Name, child, args))
					}
				} else {
					price = fieldPrice(s.ObjectDefinition, typ.Kind, s.Name, child, args)
				}
				total = min(total+price, saturated)
			case *ast.InlineFragment:
				total = min(total+set(s.SelectionSet), saturated)
			case *ast.FragmentSpread:
				if s.Definition == nil {
					continue
				}
				c, ok := memo[s.Definition]
				if !ok {
					memo[s.Definition] = 0 // a cycle (refused by validation) prices nothing
					c = set(s.Definition.SelectionSet)
					memo[s.Definition] = c
				}
				total = min(total+c, saturated)
			}
		}
		return total
	}
	return set(op.SelectionSet), visits
}
