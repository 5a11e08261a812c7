package blob

import (
	"bytes"
	"io"
	"sync"

	"github.com/johannesboyne/gofakes3"
)

// lockedBolt wraps gofakes3's bbolt backend, whose GetObject hands back
// an object whose body and hash still point into bbolt's memory map after
// its read transaction has ended. bbolt reuses those pages in a later write,
// so an object read while another was written could come back with
// another's bytes (seen as "checksum did not match" on a Get beside
// parallel Puts). Here reads copy the object out under a read lock, and
// writes wait for them.
type lockedBolt struct {
	gofakes3.Backend
	mu sync.RWMutex
}

// forceDeleter is the optional interface gofakes3 looks for on a backend.
type forceDeleter interface {
	ForceDeleteBucket(name string) error
}

func (l *lockedBolt) GetObject(bucket, key string, rng *gofakes3.ObjectRangeRequest) (*gofakes3.Object, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return detach(l.Backend.GetObject(bucket, key, rng))
}

func (l *lockedBolt) HeadObject(bucket, key string) (*gofakes3.Object, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return detach(l.Backend.HeadObject(bucket, key))
}

func (l *lockedBolt) ListBuckets() ([]gofakes3.BucketInfo, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.Backend.ListBuckets()
}

func (l *lockedBolt) ListBucket(name string, prefix *gofakes3.Prefix, page gofakes3.ListBucketPage) (*gofakes3.ObjectList, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.Backend.ListBucket(name, prefix, page)
}

func (l *lockedBolt) BucketExists(name string) (bool, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.Backend.BucketExists(name)
}

func (l *lockedBolt) CreateBucket(name string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.Backend.CreateBucket(name)
}

func (l *lockedBolt) DeleteBucket(name string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.Backend.DeleteBucket(name)
}

func (l *lockedBolt) ForceDeleteBucket(name string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.Backend.(forceDeleter).ForceDeleteBucket(name)
}

func (l *lockedBolt) PutObject(bucket, key string, meta map[string]string, input io.Reader, size int64, cond *gofakes3.PutConditions) (gofakes3.PutObjectResult, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.Backend.PutObject(bucket, key, meta, input, size, cond)
}

func (l *lockedBolt) CopyObject(srcBucket, srcKey, dstBucket, dstKey string, meta map[string]string) (gofakes3.CopyObjectResult, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.Backend.CopyObject(srcBucket, srcKey, dstBucket, dstKey, meta)
}

func (l *lockedBolt) DeleteObject(bucket, key string) (gofakes3.ObjectDeleteResult, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.Backend.DeleteObject(bucket, key)
}

func (l *lockedBolt) DeleteMulti(bucket string, keys ...string) (gofakes3.MultiDeleteResult, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.Backend.DeleteMulti(bucket, keys...)
}

// detach copies an object's body and hash out of bbolt's memory.
func detach(obj *gofakes3.Object, err error) (*gofakes3.Object, error) {
	if err != nil || obj == nil {
		return obj, err
	}
	obj.Hash = bytes.Clone(obj.Hash)
	if obj.Contents != nil {
		body, err := io.ReadAll(obj.Contents)
		obj.Contents.Close()
		if err != nil {
			return nil, err
		}
		obj.Contents = io.NopCloser(bytes.NewReader(body))
	}
	return obj, nil
}
