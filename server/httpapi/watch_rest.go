package httpapi

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/watcher"
)

// The registry watch's REST paths, in the legacy style (snake_case fields,
// the restError shape). They call the same jobs methods as GraphQL.
const (
	restWatchPath       = "/nests/{nestId}/watch"
	restNestAlertsPath  = "/nests/{nestId}/alerts"
	restAlertsPath      = "/alerts"
	restAlertAckPath    = "/alerts/{alertId}/ack"
	restBudgetPath      = "/watch/budget"
	restEndpointsPath   = "/webhooks/endpoints"
	restEndpointPath    = "/webhooks/endpoints/{endpointId}"
	restRotatePath      = "/webhooks/endpoints/{endpointId}/rotate"
	restDeliveriesPath  = "/webhooks/deliveries"
	restReplayPath      = "/webhooks/deliveries/{deliveryId}/replay"
	maxWatchRequestBody = 16 << 10
)

func (a *API) watchRESTRoutes(mux *http.ServeMux, wrap func(map[string]http.HandlerFunc) http.Handler) {
	mux.Handle(restWatchPath, wrap(map[string]http.HandlerFunc{http.MethodGet: a.restGetWatch, http.MethodPut: a.restPutWatch,
		http.MethodDelete: a.restDeleteWatch}))
	mux.Handle(restNestAlertsPath, wrap(map[string]http.HandlerFunc{http.MethodGet: a.restAlerts}))
	mux.Handle(restAlertsPath, wrap(map[string]http.HandlerFunc{http.MethodGet: a.restAlerts}))
	mux.Handle(restAlertAckPath, wrap(map[string]http.HandlerFunc{http.MethodPost: a.restAckAlert}))
	mux.Handle(restBudgetPath, wrap(map[string]http.HandlerFunc{http.MethodGet: a.restBudget}))
	mux.Handle(restEndpointsPath, wrap(map[string]http.HandlerFunc{http.MethodGet: a.restEndpoints, http.MethodPost: a.restRegisterEndpoint}))
	mux.Handle(restEndpointPath, wrap(map[string]http.HandlerFunc{http.MethodDelete: a.restDeleteEndpoint, http.MethodPatch: a.restPatchEndpoint}))
	mux.Handle(restRotatePath, wrap(map[string]http.HandlerFunc{http.MethodPost: a.restRotateSecret}))
	mux.Handle(restDeliveriesPath, wrap(map[string]http.HandlerFunc{http.MethodGet: a.restDeliveries}))
	mux.Handle(restReplayPath, wrap(map[string]http.HandlerFunc{http.MethodPost: a.restReplay}))
}

type restWatchBody struct {
	ContractDate *string `json:"contract_date"`
	BalanceDate  *string `json:"balance_date"`
	MoveInDate   *string `json:"move_in_date"`
	EveryDays    *int    `json:"every_days"`
	Until        *string `json:"until"`
}

type restWatchCheck struct {
	CheckID        string    `json:"check_id"`
	Purpose        string    `json:"purpose"`
	Date           string    `json:"date"`
	RunAt          time.Time `json:"run_at"`
	Status         string    `json:"status"`
	IssuanceTaskID *string   `json:"issuance_task_id"`
	Note           *string   `json:"note"`
}

type restWatch struct {
	NestID string `json:"nest_id"`
	restWatchBody
	Checks []restWatchCheck `json:"checks"`
}

func dateOf(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.Format(time.DateOnly)
	return &s
}

func (a *API) writeWatch(w http.ResponseWriter, status int, nestID string, nw *watcher.NestWatch) {
	out := restWatch{NestID: nestID, Checks: []restWatchCheck{}}
	if nw.Watch != nil {
		out.NestID = nw.Watch.NestID
		out.ContractDate, out.BalanceDate, out.MoveInDate = dateOf(nw.Watch.ContractDate), dateOf(nw.Watch.BalanceDate), dateOf(nw.Watch.MoveInDate)
		out.EveryDays, out.Until = nw.Watch.EveryDays, dateOf(nw.Watch.UntilDate)
	}
	for _, c := range nw.Checks {
		out.Checks = append(out.Checks, restWatchCheck{CheckID: c.ID, Purpose: c.Purpose, Date: c.CheckDate.Format(time.DateOnly),
			RunAt: c.RunAt, Status: c.Status, IssuanceTaskID: c.IssuanceTaskID, Note: c.Note})
	}
	writeJSON(w, status, out)
}

// decodeBody reads a small JSON body; unknown fields are refused.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) error {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		// curl -d sends a form's type, a browser's form text/plain: what
		// the body is said to be is what it must be.
		return core.InvalidInput("body", "the body is JSON: send it with Content-Type: application/json, not %s",
			cmp.Or(r.Header.Get("Content-Type"), "none"))
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxWatchRequestBody))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return core.InvalidInput("body", "the body is larger than %d bytes", maxWatchRequestBody)
	case err != nil:
		return core.InvalidInput("body", "the body could not be read")
	case textProblem(body) != "":
		return core.InvalidInput("body", "the body is not text: %s", textProblem(body))
	}
	if err := checkKeys(body, jsonNames(v)); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return core.InvalidInput("body", "the body is not the expected JSON object: %s", jsonProblem(err))
	}
	// One object and nothing after it: a second value or trailing bytes
	// mean the client sent something else than it thinks.
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return core.InvalidInput("body", "the body has data after its JSON object")
	}
	return nil
}

// checkKeys reads body's top-level keys, as JSON spells them once
// unescaped: each must be one of known, spelled as it is (Go's decoder
// takes "URL" for url), and given once (with two, Go's decoder keeps the
// last, and a proxy or a log reading the first sees another request). A
// body that is not an object is left to the decoder, but null, which it
// takes for an empty object.
func checkKeys(body []byte, known map[string]bool) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	tok, err := dec.Token()
	switch {
	case err == nil && tok == nil:
		return core.InvalidInput("body", "the body is not the expected JSON object: it must be an object, not null")
	case err != nil || tok != json.Delim('{'):
		return nil
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil // the decoder says what is wrong
		}
		k, _ := tok.(string)
		switch {
		case !known[k]:
			return core.InvalidInput("body", "the body has an unknown field %s (the fields are %s)", strconv.QuoteToASCII(k), strings.Join(slices.Sorted(maps.Keys(known)), ", "))
		case seen[k]:
			return core.InvalidInput("body", "the body gives %s twice: give each field once", k)
		}
		seen[k] = true
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil
		}
	}
	return nil
}

// jsonNames are the JSON names of the fields of the struct v points to.
func jsonNames(v any) map[string]bool {
	names := map[string]bool{}
	t := reflect.TypeOf(v).Elem()
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			names[name] = true
		}
	}
	return names
}

// jsonProblem says what is wrong with a body in JSON's words: encoding/json
// names Go's types and struct fields ("cannot unmarshal number into Go
// struct field .url of type string").
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te) && te.Field != "" && strings.HasPrefix(te.Value, "number ") && goKindInJSON(te.Type) == "a whole number":
		// 7.5, 1e1 and 1e30 alike: the literal says which.
		return fmt.Sprintf("%q must be a whole number written in digits, within range, not %s", te.Field, strings.TrimPrefix(te.Value, "number "))
	case errors.As(err, &te) && te.Field != "":
		return fmt.Sprintf("%q must be %s, not %s", te.Field, goKindInJSON(te.Type), jsonKind(te.Value))
	case errors.As(err, &te):
		return fmt.Sprintf("it must be an object, not %s", jsonKind(te.Value))
	case errors.As(err, &se):
		return fmt.Sprintf("not valid JSON at byte %d", se.Offset)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "it ends before its object does"
	}
	if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return "unknown field " + f
	}
	return "not valid JSON"
}

// goKindInJSON names a Go type as JSON calls its values.
func goKindInJSON(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	}
	return "an object"
}

func (a *API) restGetWatch(w http.ResponseWriter, r *http.Request) {
	nw, err := a.Service.NestWatch(r.Context(), r.PathValue("nestId"))
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	a.writeWatch(w, http.StatusOK, r.PathValue("nestId"), nw)
}

func (a *API) restPutWatch(w http.ResponseWriter, r *http.Request) {
	var b restWatchBody
	if err := decodeBody(w, r, &b); err != nil {
		a.restFail(w, r, err)
		return
	}
	nw, err := a.Service.SetWatch(r.Context(), r.PathValue("nestId"), watcher.WatchInput{ContractDate: b.ContractDate,
		BalanceDate: b.BalanceDate, MoveInDate: b.MoveInDate, EveryDays: b.EveryDays, Until: b.Until})
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	a.writeWatch(w, http.StatusOK, r.PathValue("nestId"), nw)
}

func (a *API) restDeleteWatch(w http.ResponseWriter, r *http.Request) {
	nw, err := a.Service.CancelWatch(r.Context(), r.PathValue("nestId"))
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	a.writeWatch(w, http.StatusOK, r.PathValue("nestId"), nw)
}

// restAlert is an alert as REST answers it: the model's own json tags,
// with an empty JSON column written as null.
func restAlert(x *db.Alert) *db.Alert {
	a := *x
	a.BeforeEntry, a.AfterEntry, a.Reasons = nullJSON(x.BeforeEntry), nullJSON(x.AfterEntry), nullJSON(x.Reasons)
	return &a
}

func nullJSON(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("null")
	}
	return b
}

// queryParam is the query parameter name, nil when absent. A parameter given
// twice, or given empty, is a client's mistake said back (BAD_USER_INPUT),
// not one of its values taken or the parameter ignored.
func queryParam(r *http.Request, name string) (*string, error) {
	// url.Values drops what it cannot parse (a ";", a bad escape) and the
	// rest is read as if it had not been sent: ?month=2025-01;x=1 was this
	// month, ?unacknowledged=true; every alert.
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, core.InvalidInput(name, "the query string cannot be read (%s): separate parameters with & and escape %% as %%25", queryFault(err))
	}
	vs, ok := q[name]
	switch {
	case !ok:
		return nil, nil
	case len(vs) > 1:
		return nil, core.InvalidInput(name, "%s is given %d times: give it once", name, len(vs))
	case vs[0] == "":
		return nil, core.InvalidInput(name, "%s is empty: give a value or leave it out", name)
	}
	return &vs[0], nil
}

// queryFault is what url.ParseQuery found wrong, without Go's words.
func queryFault(err error) string {
	if strings.Contains(err.Error(), "semicolon") {
		return "a semicolon"
	}
	return "a bad %-escape"
}

// strictBool is true or false as the docs spell them; strconv.ParseBool
// also took 1, t, TRUE and True.
func strictBool(s string) (bool, error) {
	switch s {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, errors.New("not true or false")
}

// restAlerts lists alerts, newest first: ?unacknowledged=true, ?after=<next_cursor>.
func (a *API) restAlerts(w http.ResponseWriter, r *http.Request) {
	var f watcher.AlertFilter
	unack, err := queryParam(r, "unacknowledged")
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	if unack != nil {
		v, err := strictBool(*unack)
		if err != nil {
			a.restFail(w, r, core.InvalidInput("unacknowledged", "unacknowledged must be true or false"))
			return
		}
		f.Unacknowledged = v
	}
	if id := r.PathValue("nestId"); id != "" {
		f.NestID = &id
	}
	after, err := queryParam(r, "after")
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	page, err := a.Service.Alerts(r.Context(), f, core.PageArgs{After: after})
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	out := struct {
		Alerts     []*db.Alert `json:"alerts"`
		NextCursor *string     `json:"next_cursor"`
	}{Alerts: []*db.Alert{}}
	for _, x := range page.Items {
		out.Alerts = append(out.Alerts, restAlert(x))
	}
	if page.HasNextPage {
		c := page.EndCursor()
		out.NextCursor = &c
	}
	writeJSON(w, http.StatusOK, out)
}

func (a *API) restAckAlert(w http.ResponseWriter, r *http.Request) {
	x, err := a.Service.AcknowledgeAlert(r.Context(), r.PathValue("alertId"))
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, restAlert(x))
}

func (a *API) restBudget(w http.ResponseWriter, r *http.Request) {
	month, err := queryParam(r, "month")
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	b, err := a.Service.WatchBudget(r.Context(), month)
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"month": b.Month, "limit": b.Limit, "used": b.Used, "remaining": max(b.Limit-b.Used, 0),
		"verification_limit": b.VerificationLimit, "verifications_used": b.VerificationsUsed, "verifications_remaining": b.VerificationsRemaining()})
}

// restEndpoint is an endpoint as REST answers it: the model's json tags,
// whether it is disabled, and its secret only when it was just made.
type restEndpoint struct {
	*db.WebhookEndpoint
	Secret   string `json:"secret,omitempty"`
	Disabled bool   `json:"disabled"`
}

func toRESTEndpoint(ep *db.WebhookEndpoint, secret string) restEndpoint {
	return restEndpoint{WebhookEndpoint: ep, Secret: secret, Disabled: ep.DisabledAt != nil}
}

func (a *API) restRegisterEndpoint(w http.ResponseWriter, r *http.Request) {
	var b struct {
		URL string `json:"url"`
	}
	if err := decodeBody(w, r, &b); err != nil {
		a.restFail(w, r, err)
		return
	}
	res, err := a.Service.RegisterWebhookEndpoint(r.Context(), b.URL)
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, toRESTEndpoint(res.Endpoint, res.Secret))
}

func (a *API) restEndpoints(w http.ResponseWriter, r *http.Request) {
	eps, err := a.Service.WebhookEndpoints(r.Context())
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	out := []restEndpoint{}
	for _, ep := range eps {
		out = append(out, toRESTEndpoint(ep, ""))
	}
	writeJSON(w, http.StatusOK, map[string]any{"endpoints": out})
}

func (a *API) restRotateSecret(w http.ResponseWriter, r *http.Request) {
	res, err := a.Service.RotateWebhookSecret(r.Context(), r.PathValue("endpointId"))
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toRESTEndpoint(res.Endpoint, res.Secret))
}

// restPatchEndpoint turns an endpoint's deliveries off or on again
// ({"disabled": true|false}, the field an endpoint is shown with), as
// enableWebhookEndpoint does: an endpoint disabled after its failures could
// only be re-enabled over GraphQL.
func (a *API) restPatchEndpoint(w http.ResponseWriter, r *http.Request) {
	var b struct {
		Disabled *bool `json:"disabled"`
	}
	if err := decodeBody(w, r, &b); err != nil {
		a.restFail(w, r, err)
		return
	}
	if b.Disabled == nil {
		a.restFail(w, r, core.InvalidInput("disabled", "say whether the endpoint is disabled: {\"disabled\": false} enables it again"))
		return
	}
	ep, err := a.Service.EnableWebhookEndpoint(r.Context(), r.PathValue("endpointId"), !*b.Disabled)
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toRESTEndpoint(ep, ""))
}

func (a *API) restDeleteEndpoint(w http.ResponseWriter, r *http.Request) {
	if err := a.Service.DeleteWebhookEndpoint(r.Context(), r.PathValue("endpointId")); err != nil {
		a.restFail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// restDelivery is a delivery as REST answers it: the model's json tags,
// the webhook-id its messages carry, and its attempts when listed.
type restDelivery struct {
	*db.WebhookDelivery
	WebhookID string               `json:"webhook_id"`
	Log       []*db.WebhookAttempt `json:"log,omitempty"`
}

// restDeliveries is the delivery log (an admin's of every endpoint):
// ?endpoint_id=, ?after=<next_cursor>; each with its attempts.
func (a *API) restDeliveries(w http.ResponseWriter, r *http.Request) {
	ep, err := queryParam(r, "endpoint_id")
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	after, err := queryParam(r, "after")
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	page, err := a.Service.WebhookDeliveries(r.Context(), ep, core.PageArgs{After: after})
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	out := struct {
		Deliveries []restDelivery `json:"deliveries"`
		NextCursor *string        `json:"next_cursor"`
	}{Deliveries: []restDelivery{}}
	for _, d := range page.Items {
		log, err := a.Service.WebhookAttempts(r.Context(), d.ID)
		if err != nil {
			a.restFail(w, r, err)
			return
		}
		out.Deliveries = append(out.Deliveries, toRESTDelivery(d, log))
	}
	if page.HasNextPage {
		c := page.EndCursor()
		out.NextCursor = &c
	}
	writeJSON(w, http.StatusOK, out)
}

func toRESTDelivery(d *db.WebhookDelivery, log []*db.WebhookAttempt) restDelivery {
	return restDelivery{WebhookDelivery: d, WebhookID: d.MessageID(), Log: log}
}

func (a *API) restReplay(w http.ResponseWriter, r *http.Request) {
	d, err := a.Service.ReplayWebhookDelivery(r.Context(), r.PathValue("deliveryId"))
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, toRESTDelivery(d, nil))
}
