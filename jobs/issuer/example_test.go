package issuer_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/dungji/dungji/jobs/issuer"
)

// The simulator served over the HTTP contract, called through the adapter a
// real bot service would be called with.
func ExampleNewHTTPIssuer() {
	sim, err := issuer.NewSimulator(issuer.SimulatorOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := httptest.NewServer(issuer.NewHandler(sim))
	defer srv.Close()
	bot := issuer.NewHTTPIssuer(srv.URL, srv.Client())

	req := issuer.Request{
		IdempotencyKey: "task-1",
		NestID:         "nest-1",
		UniqueNo:       "11462010012345",
		Address:        "서울특별시 강남구 테헤란로 152, 103동 1502호",
	}
	doc, err := bot.Issue(context.Background(), req)
	if err != nil {
		fmt.Println(err)
		return
	}
	reg := issuer.Content(req.NestID, req.UniqueNo, req.Address)
	fmt.Println(string(doc.PDF[:5]), doc.Pages == reg.Pages, reg.FormattedUniqueNo())

	// A retry of the same task that fails after paying, then succeeds: one payment.
	sim.FailNextAfterPayment(req.UniqueNo, 1)
	req.IdempotencyKey = "task-2"
	_, err = bot.Issue(context.Background(), req)
	cause, _ := issuer.CauseOf(err)
	fmt.Println(cause)
	_, err = bot.Issue(context.Background(), req)
	fmt.Println(err, sim.PaymentCount("task-2"))

	// Output:
	// %PDF- true 1146-2010-012345
	// TRANSIENT
	// <nil> 1
}

func ExampleParseFailureRates() {
	rates, err := issuer.ParseFailureRates("start_failed=0.1,transient=0.05")
	fmt.Println(rates[issuer.CauseStartFailed], rates[issuer.CauseTransient], err)

	_, err = issuer.ParseFailureRates("timeout=0.1")
	fmt.Println(err)

	// Output:
	// 0.1 0.05 <nil>
	// issuer: unknown failure cause "timeout" (want one of start_failed, transient, permanent, duplicate_payment, no_document)
}
