package httpapi

import (
	"net/http"
	"time"

	"github.com/dungji/dungji/db"
	"github.com/dungji/dungji/jobs/core"
	"github.com/dungji/dungji/jobs/watch"
	"github.com/dungji/dungji/jobs/watcher"
)

// The REST paths of verifyCopy: an uploaded copy checked against the
// registry.
const (
	restVerifyPath = "/nests/{nestId}/analysis/registry/verify"
	restVerifyItem = "/nests/{nestId}/analysis/registry/verify/{verificationId}"
)

// restVerifyBody is POST …/verify's body.
type restVerifyBody struct {
	FileID string `json:"file_id"`
}

// restVerification answers POST …/verify and GET …/verify/{id}.
type restVerification struct {
	VerificationID    string             `json:"verification_id"`
	FileID            string             `json:"file_id"`
	Status            string             `json:"status"`
	IssuanceTaskID    string             `json:"issuance_task_id"`
	OfficialOCRTaskID *string            `json:"official_ocr_task_id"`
	Differences       []watch.Difference `json:"differences"`
	Message           *string            `json:"message"`
	Reused            *bool              `json:"reused,omitempty"`
	CreatedAt         time.Time          `json:"created_at"`
	FinishedAt        *time.Time         `json:"finished_at"`
}

func toRESTVerification(v *db.CopyVerification) restVerification {
	return restVerification{VerificationID: v.ID, FileID: v.FileID, Status: v.Status, IssuanceTaskID: v.IssuanceTaskID,
		OfficialOCRTaskID: v.OfficialOCRTaskID, Differences: watcher.VerificationDifferences(v), Message: v.Message,
		CreatedAt: v.CreatedAt, FinishedAt: v.FinishedAt}
}

func (a *API) verifyRESTRoutes(mux *http.ServeMux, wrap func(map[string]http.HandlerFunc) http.Handler) {
	mux.Handle(restVerifyPath, wrap(map[string]http.HandlerFunc{http.MethodPost: a.restVerifyCopy}))
	mux.Handle(restVerifyItem, wrap(map[string]http.HandlerFunc{http.MethodGet: a.restGetVerification}))
}

// restVerifyCopy starts the check of the nest's uploaded copy file_id
// against the registry: 202 with the check, or 200 with the one already
// running for it (reused).
func (a *API) restVerifyCopy(w http.ResponseWriter, r *http.Request) {
	var b restVerifyBody
	if err := decodeBody(w, r, &b); err != nil {
		a.restFail(w, r, err)
		return
	}
	if b.FileID == "" {
		a.restFail(w, r, core.InvalidInput("file_id", "file_id is required: the uploaded copy to verify"))
		return
	}
	nestID, err := core.ParseID("nestId", r.PathValue("nestId"))
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	res, err := a.Service.VerifyCopy(r.Context(), nestID, b.FileID)
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	out := toRESTVerification(res.Verification)
	out.Reused = &res.Reused
	status := http.StatusAccepted
	if res.Reused {
		status = http.StatusOK
	}
	writeJSON(w, status, out)
}

func (a *API) restGetVerification(w http.ResponseWriter, r *http.Request) {
	// A path's nest id that is no id is the client's mistake, said as
	// such: it was "verification not found in this nest".
	if _, err := core.ParseID("nestId", r.PathValue("nestId")); err != nil {
		a.restFail(w, r, err)
		return
	}
	v, err := a.Service.CopyVerification(r.Context(), r.PathValue("verificationId"))
	if err == nil && v.NestID != r.PathValue("nestId") {
		err = core.Errorf(core.CodeNotFound, "verification not found in this nest")
	}
	if err != nil {
		a.restFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toRESTVerification(v))
}
