package graph

import (
	goast "go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/dungji/dungji/jobs/analysis"
)

// goConstant is a string constant declared in a package's source.
type goConstant struct {
	name, typ, value string // typ is "" for an untyped constant
}

// goConstants reads the string constants of the package in dir (its
// non-test files), with their declared types: every constant, whether or
// not a list in the code names it, so that a new one is found here.
func goConstants(t *testing.T, dir string) []goConstant {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []goConstant
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			gd, ok := d.(*goast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*goast.ValueSpec)
				typ := ""
				if id, ok := vs.Type.(*goast.Ident); ok {
					typ = id.Name
				}
				for i, name := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*goast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					v, err := strconv.Unquote(lit.Value)
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, goConstant{name: name.Name, typ: typ, value: v})
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no string constants found in %s", dir)
	}
	return out
}

// values are the values of the constants that keep: by type, or by name
// prefix for untyped ones.
func values(cs []goConstant, keep func(goConstant) bool) []string {
	var out []string
	for _, c := range cs {
		if keep(c) {
			out = append(out, c.value)
		}
	}
	return out
}

func ofType(typ string) func(goConstant) bool {
	return func(c goConstant) bool { return c.typ == typ }
}

func untypedNamed(prefix string) func(goConstant) bool {
	return func(c goConstant) bool { return c.typ == "" && strings.HasPrefix(c.name, prefix) }
}

// requestCodes are the core.Code values that only refuse requests (GraphQL
// extensions.code, REST error_code): no task row stores them, so no task
// enum lists them. A new core.Code is either one of these or a task's
// failure code, which the schema must list.
var requestCodes = []string{"UNAUTHENTICATED", "FORBIDDEN", "NOT_FOUND", "BAD_USER_INPUT", "CONFLICT",
	"RATE_LIMITED", "UNAVAILABLE", "INTERNAL", "BAD_REQUEST", "METHOD_NOT_ALLOWED", "DEPTH_LIMIT_EXCEEDED",
	"TIMEOUT", "DATE_IN_PAST", "BUDGET_EXCEEDED", "ANSWER_TOO_LARGE"}

// TestEnumsHoldEveryGoValue: every value the service can store or compute
// for an enum field is one of the enum's values, and the enum has no value
// the service never produced. A value outside its enum would still reach
// clients as its string (the enums are bound to their Go string types and
// written unchecked), but a client typed from the schema would not expect
// it.
func TestEnumsHoldEveryGoValue(t *testing.T) {
	schema := NewExecutableSchema(NewConfig(&Resolver{})).Schema()
	// The service layer's string constants: its base and the capabilities
	// that declare some (Codes are core's and ocrtask's, Sources
	// ocrtask's).
	var jobsConsts []goConstant
	for _, dir := range []string{"../jobs/core", "../jobs/ocrtask"} {
		jobsConsts = append(jobsConsts, goConstants(t, dir)...)
	}
	analysisConsts := goConstants(t, "../jobs/analysis")
	watchConsts := goConstants(t, "../jobs/watch")
	dbConsts := goConstants(t, "../db")

	verdicts := values(analysisConsts, ofType("Verdict"))
	// watch.couldNotVerify gives an alert the read's verdict as its reason
	// when the verdict gave none: never COMPLETE (a COMPLETE read is
	// compared) nor COPY_COMPLETE (readOf compares a copy read in full as
	// COMPLETE).
	verdictReasons := slices.DeleteFunc(slices.Clone(verdicts), func(v string) bool {
		return v == string(analysis.VerdictComplete) || v == string(analysis.VerdictCopyComplete)
	})
	var taskCodes []string
	for _, c := range values(jobsConsts, ofType("Code")) {
		if !slices.Contains(requestCodes, c) {
			taskCodes = append(taskCodes, c)
		}
	}
	var flagKinds []string
	for _, k := range analysis.FlagKinds {
		flagKinds = append(flagKinds, string(k))
	}

	for _, c := range []struct {
		enum string
		want []string
		from string
	}{
		{"TaskErrorCode", taskCodes, "core.Code constants other than requestCodes"},
		{"RegistryEntryKind", values(analysisConsts, ofType("Kind")), "analysis.Kind constants"},
		{"RiskFlagKind", flagKinds, "analysis.FlagKinds"},
		{"RegistrySection", values(analysisConsts, ofType("Section")), "analysis.Section constants"},
		{"RegistryCorrectionField", values(analysisConsts, ofType("CorrectionField")), "analysis.CorrectionField constants"},
		{"RegistryVerdict", verdicts, "analysis.Verdict constants"},
		{"RegistryCheckVerdict", append(slices.Clone(verdicts), "NONE"), "analysis.Verdict constants and NONE (recordComparison)"},
		{"VerdictReasonCode", slices.Concat(values(analysisConsts, untypedNamed("Reason")),
			values(watchConsts, untypedNamed("Reason")), verdictReasons),
			"analysis.Reason* and watch.Reason* constants and the verdicts watch.couldNotVerify gives as reasons"},
		{"AlertKind", values(watchConsts, ofType("AlertKind")), "watch.AlertKind constants"},
		{"AlertSeverity", values(watchConsts, ofType("Severity")), "watch.Severity constants"},
		{"WatchPurpose", values(watchConsts, ofType("Purpose")), "watch.Purpose constants"},
		{"CheckOutcome", values(watchConsts, ofType("Outcome")), "watch.Outcome constants"},
		{"CopyDifferenceKind", values(watchConsts, ofType("DifferenceKind")), "watch.DifferenceKind constants"},
		{"TaskStatus", values(dbConsts, ofType("Status")), "db.Status constants"},
		{"WatchCheckStatus", values(dbConsts, untypedNamed("Check")), "db.Check* constants"},
		{"CopyVerificationStatus", values(dbConsts, untypedNamed("Verification")), "db.Verification* constants"},
		{"WebhookDeliveryStatus", values(dbConsts, untypedNamed("Delivery")), "db.Delivery* constants"},
		{"DocumentSource", values(jobsConsts, untypedNamed("Source")), "ocrtask.Source* constants"},
	} {
		def := schema.Types[c.enum]
		if def == nil || len(c.want) == 0 {
			t.Errorf("%s: no such enum, or no values from %s", c.enum, c.from)
			continue
		}
		var have []string
		for _, v := range def.EnumValues {
			have = append(have, v.Name)
		}
		for _, w := range c.want {
			if !slices.Contains(have, w) {
				t.Errorf("enum %s lacks %s, one of the %s: add it to graph/*.graphqls", c.enum, w, c.from)
			}
		}
		for _, h := range have {
			if !slices.Contains(c.want, h) {
				t.Errorf("enum %s has %s, which none of the %s is", c.enum, h, c.from)
			}
		}
	}

}

// unionConflicts are the fields a union's members share with different
// types that predate TestUnionMembersAgreeOnSharedFields: making them
// agree would change a field's type, so they stay, and a client selecting
// both aliases one.
var unionConflicts = map[string]bool{
	// An issuance has no file before SUCCESS; an OCR task always reads one.
	"TaskUpdate.file": true,
}

// TestUnionMembersAgreeOnSharedFields: the fields a union's members share
// have one type, so that a selection of such a field in fragments on each
// member (nestTasksUpdated { ... on IssuanceTask { errorCode } ... on
// OcrTask { errorCode } }, as the console makes) stays valid: GraphQL
// refuses same-named fields of different types in one selection. Separate
// issuance and OCR code enums broke the console's live updates this way.
func TestUnionMembersAgreeOnSharedFields(t *testing.T) {
	schema := NewExecutableSchema(NewConfig(&Resolver{})).Schema()
	unions := 0
	for _, u := range schema.Types {
		if u.Kind != ast.Union || u.BuiltIn {
			continue
		}
		unions++
		types := map[string]string{}
		for _, member := range u.Types {
			for _, f := range schema.Types[member].Fields {
				if have, ok := types[f.Name]; ok && have != f.Type.String() && !unionConflicts[u.Name+"."+f.Name] {
					t.Errorf("union %s: %s.%s is %s, another member's %s is %s", u.Name, member, f.Name, f.Type, f.Name, have)
				}
				types[f.Name] = f.Type.String()
			}
		}
	}
	if unions == 0 {
		t.Fatal("no union in the schema")
	}
}
