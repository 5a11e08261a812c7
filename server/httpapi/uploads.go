package httpapi

import (
	"net/http"
	"strconv"
	"sync"

	"github.com/dungji/dungji/jobs/core"
)

// Uploads in flight. Each holds its body (up to 21 MiB) and what is made of
// it (a decoded image, a PDF) in memory until it is answered, about 45 MiB
// at the worst: 30 sent at once by one user took the process from 145 MB
// to 1.4 GB, all of them refused files, which cost no rate limit token. So
// a user may have MaxUploadsPerUser uploads in flight and the process
// MaxUploads; one more is refused at once, before its body is read, with
// 429 RATE_LIMITED and Retry-After. Requests with no signed-in user share
// one user's slots (they are refused as UNAUTHENTICATED once read).
const (
	MaxUploadsPerUser = 2
	MaxUploads        = 8
	uploadRetryAfter  = 5 // seconds
)

// UploadSlots counts the uploads in flight of one API.
type UploadSlots struct {
	mu      sync.Mutex
	total   int
	perUser map[string]int
}

// admit takes a slot for user's upload, or says why not; release gives it
// back.
func (u *UploadSlots) admit(user string) (release func(), refusal string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	switch {
	case u.perUser[user] >= MaxUploadsPerUser:
		return nil, "you have " + strconv.Itoa(MaxUploadsPerUser) + " uploads being received: send this one when one of them has been answered"
	case u.total >= MaxUploads:
		return nil, "the server is receiving " + strconv.Itoa(MaxUploads) + " uploads: send this one again in a few seconds"
	}
	if u.perUser == nil {
		u.perUser = map[string]int{}
	}
	u.perUser[user]++
	u.total++
	var once sync.Once
	return func() {
		once.Do(func() {
			u.mu.Lock()
			defer u.mu.Unlock()
			u.total--
			if u.perUser[user]--; u.perUser[user] == 0 {
				delete(u.perUser, user)
			}
		})
	}, ""
}

// admitUpload takes an upload slot for the request's user before its body
// is read, or answers it (in the path's error shape, by fail) and reports
// false. The connection is closed after a refusal: the body is not read.
func (u *UploadSlots) admitUpload(w http.ResponseWriter, r *http.Request, fail func(msg string)) (release func(), ok bool) {
	actor, _ := core.ActorFrom(r.Context())
	release, refusal := u.admit(actor.UserID)
	if refusal != "" {
		w.Header().Set("Connection", "close")
		w.Header().Set("Retry-After", strconv.Itoa(uploadRetryAfter))
		fail(refusal)
		return nil, false
	}
	return release, true
}
