package blob_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/dungji/dungji/jobs/blob"
)

// The embedded server is the development default; against S3 the same code runs
// with a Config naming the real endpoint and bucket.
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "blob-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	emb, err := blob.StartEmbedded(ctx, dir, "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	defer emb.Close()

	store, err := blob.New(ctx, emb.Config("registry"))
	if err != nil {
		log.Fatal(err)
	}
	if err := store.EnsureBucket(ctx); err != nil {
		log.Fatal(err)
	}
	obj, err := store.Put(ctx, "nests/n1/issuance/t1.pdf", []byte("%PDF-1.7"), "application/pdf")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(obj.Key, obj.Size, obj.SHA256[:12])

	if _, err := store.PresignGet(ctx, obj.Key, 15*time.Minute); err != nil {
		log.Fatal(err)
	}
	// Output: nests/n1/issuance/t1.pdf 8 86edbaa24831
}
