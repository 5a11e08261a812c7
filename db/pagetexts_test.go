package db_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/db/dbtest"
)

// pageTextsCases are arrays as PostgreSQL writes them and the JSON it
// never writes, each decoded by PageTexts as json.Unmarshal decodes it.
var pageTextsCases = []string{
	`[]`, ` [ ] `, `["갑구 1\n", "을구 2"]`, `["표제부  \n\n\f", " \t", "끝\r\n"]`,
	`["a\"b\\c\/d\b\f\n\r\t"]`, `["\u0001\u001f\u00e9\u4e2d\u0000"]`, `["\uD834\uDD1E"]`, `["\ud800"]`, `["\uDC00x"]`,
	`["\'"]`, `["\x"]`, `["\u12"]`, `["\u12g4"]`, "[\"tab\tinside\"]", "[\"\xff\xfe\"]", "[\"ok\xe2\x82\"]",
	`["a",]`, `["a" "b"]`, `["a"] x`, `[null]`, `["a", null]`, `[1]`, `{"a":"b"}`, `null`, ``, `[`, `["`, `["a\`,
	`["", "", ""]`, "[\"\u2028\u2029\"]", `["` + "\U0001F600" + `"]`,
}

// TestPageTextsDecodesAsJSON: PageTexts decodes what json.Unmarshal
// decodes into a []string, and fails where it fails; NULL is nil, an
// empty array empty and not nil.
func TestPageTextsDecodesAsJSON(t *testing.T) {
	for _, in := range pageTextsCases {
		checkPageTexts(t, in)
	}
	var p db.PageTexts = []string{"x"}
	if err := p.Scan(nil); err != nil || p != nil {
		t.Errorf("NULL: %q, %v", p, err)
	}
	if err := p.Scan("[]"); err != nil || p == nil || len(p) != 0 {
		t.Errorf("[]: %#v, %v", p, err)
	}
}

func checkPageTexts(t *testing.T, in string) {
	t.Helper()
	var want []string
	wantErr := json.Unmarshal([]byte(in), &want)
	for _, src := range []any{in, []byte(in)} {
		var got db.PageTexts
		err := got.Scan(src)
		if (err != nil) != (wantErr != nil) || (err == nil && !reflect.DeepEqual([]string(got), want)) {
			t.Errorf("%q (%T): got %#v, %v; want %#v, %v", in, src, got, err, want, wantErr)
		}
	}
}

// FuzzPageTexts: any input, PageTexts as json.Unmarshal.
func FuzzPageTexts(f *testing.F) {
	for _, in := range pageTextsCases {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) { checkPageTexts(t, in) })
}

// TestPageTextsFromPostgreSQL: the texts PostgreSQL gives of the strings
// it holds (every escape it writes, Hangul, an astral character) come back
// as stored.
func TestPageTextsFromPostgreSQL(t *testing.T) {
	d := dbtest.New(t)
	texts := []string{"갑구 1\n", "\"quoted\" \\ back/slash \b\f\n\r\t \x01\x1f end", "", "\U0001F600 표제부  \n\f"}
	in, _ := json.Marshal(texts)
	var got db.PageTexts
	if err := d.Bun.NewRaw(`SELECT jsonb_path_query_array(?::jsonb, '$[*] ? (@.type() == "string")')`, string(in)).
		Scan(context.Background(), &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual([]string(got), texts) {
		t.Fatalf("got %q, want %q", got, texts)
	}
}
