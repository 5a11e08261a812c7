package main

import (
	"context"
	"strings"
	"testing"

	"github.com/dungji/dungji/jobs/ocr"
)

// TestOCRTextFromPageTexts: a task's text is read from its pages' texts
// alone (core.WithPageTexts) where the stored result holds one string per
// page, and from the whole result otherwise; either way it is the text of
// the pages the same answer gives (ocr.FullText), in GraphQL and REST. The
// rows are results an engine might store: ordinary pages, trailing blanks
// and form feeds, a page without text, an empty page list, and a page
// count that disagrees with the pages.
func TestOCRTextFromPageTexts(t *testing.T) {
	t.Parallel()
	a := startApp(t, map[string]string{"ROLE": "api"})
	tok := a.token(t, "reader", false)
	tasks := seedReadGraph(t, a.db.Pool, "reader", 6)
	ctx := context.Background()
	for i, tc := range []struct {
		name, result string
		pageCount    int
	}{
		{"two pages", `{"pages":[{"page":1,"text":"갑구 1\n"},{"page":2,"text":"을구 2"}]}`, 2},
		{"trailing blanks and form feeds", `{"pages":[{"page":1,"text":"표제부  \n\n\f"},{"page":2,"text":" \t"},{"page":3,"text":"끝\r\n"}]}`, 3},
		{"a page without text", `{"pages":[{"page":1,"text":"첫 쪽"},{"page":2},{"page":3,"text":"셋째 쪽"}]}`, 3},
		{"no pages", `{"pages":[]}`, 0},
		{"a page count that disagrees", `{"pages":[{"page":1,"text":"하나"},{"page":2,"text":"둘"}]}`, 5},
		{"a text that is not a string", `{"pages":[{"page":1,"text":"하나"},{"page":2,"text":null}]}`, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ocrID, nestID string
			if err := a.db.Pool.QueryRow(ctx, `UPDATE ocr_tasks SET result = $2::jsonb, page_count = $3
				WHERE issuance_task_id = $1 RETURNING id, nest_id`, tasks[i], tc.result, tc.pageCount).Scan(&ocrID, &nestID); err != nil {
				t.Fatal(err)
			}
			// From a list (the loader selects the pages' texts), and
			// alone (the task read by id).
			r := a.gql(t, tok, `query($id: ID!) { issuanceTask(id: $id) { ocrTask { text pages { text } } } }`, map[string]any{"id": tasks[i]})
			if len(r.Errors) > 0 {
				t.Fatalf("errors: %v", r.Errors)
			}
			var texts []string
			pages, _ := dig(r.Data, "issuanceTask", "ocrTask", "pages").([]any)
			for _, p := range pages {
				s, _ := dig(p, "text").(string)
				texts = append(texts, s)
			}
			want := ocr.JoinPageTexts(texts)
			if got := dig(r.Data, "issuanceTask", "ocrTask", "text"); got != want {
				t.Errorf("issuanceTask.ocrTask.text = %q, want %q", got, want)
			}
			r = a.gql(t, tok, `query($id: ID!) { ocrTask(id: $id) { text } }`, map[string]any{"id": ocrID})
			if got := dig(r.Data, "ocrTask", "text"); got != want {
				t.Errorf("ocrTask.text = %q (%v), want %q", got, r.Errors, want)
			}
			path := strings.NewReplacer("{nestId}", nestID, "{taskId}", ocrID).Replace("/nests/{nestId}/analysis/registry/ocr/{taskId}")
			res, body := a.rest(t, "GET", path, tok, nil)
			if res.StatusCode != 200 || body["text"] != want {
				t.Errorf("REST %s: %d, text %q; want 200, %q", path, res.StatusCode, body["text"], want)
			}
		})
	}
}
