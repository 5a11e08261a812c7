package issuer

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/uuid"
)

// BenchmarkSimulatorIssue measures what the simulator's rendering of one
// text-layer registry document costs (no latency, no failures): a real bot
// puts no such cost on our cores, so BenchmarkPipeline pre-renders its
// documents (Simulator.Prerender) before its timed phase.
//
//	ms/doc   wall time per document, one goroutine
func BenchmarkSimulatorIssue(b *testing.B) {
	sim, err := NewSimulator(SimulatorOptions{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		req := Request{IdempotencyKey: fmt.Sprint("k", i), NestID: uuid.NewString(),
			UniqueNo: fmt.Sprintf("1101%010d", i), Address: "서울특별시 마포구"}
		if _, err := sim.Issue(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/doc")
}
