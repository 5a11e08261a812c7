package main

import (
	"slices"
	"strings"
	"testing"
)

// TestIntrospectedDirectives: the directives the running server
// advertises are those it honours. @defer, which gqlparser's prelude
// declares, is not among them (the API delivers no incremental results),
// and a document using it is refused with a code rather than answered as
// if it were not there; the custom scalars name their specifications with
// @specifiedBy.
func TestIntrospectedDirectives(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ROLE": "api"})
	alice := a.token(t, "alice", false)
	r := a.gql(t, alice, `{ __schema { directives { name } } }`, nil)
	if len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	var names []string
	for _, d := range dig(r.Data, "__schema", "directives").([]any) {
		names = append(names, dig(d, "name").(string))
	}
	for _, want := range []string{"include", "skip", "deprecated", "specifiedBy", "oneOf"} {
		if !slices.Contains(names, want) {
			t.Errorf("directives %v lack @%s", names, want)
		}
	}
	for _, not := range []string{"defer", "stream"} {
		if slices.Contains(names, not) {
			t.Errorf("directives %v advertise @%s, which the API does not deliver", names, not)
		}
	}

	r = a.gql(t, alice, `{ me { id ... @defer { admin } } }`, nil)
	if len(r.Errors) == 0 || r.code() == "" || r.code() == "INTERNAL" || !strings.Contains(r.Errors[0].Message, "defer") || r.Data["me"] != nil {
		t.Errorf("a query with @defer: %+v %+v; want a validation error with a code, and no data", r.Data, r.Errors)
	}

	for scalar, url := range map[string]string{
		"Time":   "https://datatracker.ietf.org/doc/html/rfc3339",
		"Int64":  "https://ibm.github.io/graphql-specs/custom-scalars/long.html",
		"Upload": "https://github.com/jaydenseric/graphql-multipart-request-spec",
	} {
		r := a.gql(t, alice, `query($n: String!) { __type(name: $n) { specifiedByURL } }`, map[string]any{"n": scalar})
		if got := dig(r.Data, "__type", "specifiedByURL"); got != url {
			t.Errorf("%s's specifiedByURL is %v, want %s (errors %+v)", scalar, got, url, r.Errors)
		}
	}
}
