package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dungji/dungji/db/dbtest"
)

// wireCounter is a TCP proxy in front of PostgreSQL that counts what the
// app sends, message by message, in the frontend protocol: statements run
// (Query, or Execute of the extended protocol), statements prepared (Parse)
// and round trips (Query or Sync, each of which the client then waits on).
// It reads the wire rather than hooking a driver, so every layer's
// statements are counted, River's and pgx's own included, whatever the
// query exec mode.
type wireCounter struct {
	ln                        net.Listener
	target                    string
	statements, parses, syncs atomic.Int64
	wg                        sync.WaitGroup
}

// wireCounts is a snapshot of a wireCounter.
type wireCounts struct{ Statements, Parses, RoundTrips int64 }

func (c wireCounts) sub(o wireCounts) wireCounts {
	return wireCounts{c.Statements - o.Statements, c.Parses - o.Parses, c.RoundTrips - o.RoundTrips}
}

// newWireCounter proxies dbURL's host and returns the counter and dbURL
// rewritten to go through it.
func newWireCounter(t testing.TB, dbURL string) (*wireCounter, string) {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &wireCounter{ln: ln, target: u.Host}
	c.wg.Add(1)
	go c.accept()
	t.Cleanup(func() { _ = ln.Close(); c.wg.Wait() })
	u.Host = ln.Addr().String()
	return c, u.String()
}

func (c *wireCounter) accept() {
	defer c.wg.Done()
	for {
		client, err := c.ln.Accept()
		if err != nil {
			return
		}
		server, err := net.Dial("tcp", c.target)
		if err != nil {
			_ = client.Close()
			continue
		}
		c.wg.Add(2)
		go func() {
			defer c.wg.Done()
			_, _ = io.Copy(client, server)
			_ = client.Close()
		}()
		go func() {
			defer c.wg.Done()
			_ = c.frontend(client, server)
			_ = server.Close()
		}()
	}
}

// frontend copies the client's messages to the server, counting them. The
// startup message has no type byte; every later message is type, length.
func (c *wireCounter) frontend(client, server net.Conn) error {
	r := bufio.NewReaderSize(client, 64<<10)
	var hdr [5]byte
	if _, err := io.ReadFull(r, hdr[:4]); err != nil {
		return err
	}
	n := int64(binary.BigEndian.Uint32(hdr[:4]))
	if _, err := server.Write(hdr[:4]); err != nil {
		return err
	}
	if _, err := io.CopyN(server, r, n-4); err != nil {
		return err
	}
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return err
		}
		switch hdr[0] {
		case 'Q':
			c.statements.Add(1)
			c.syncs.Add(1)
		case 'E':
			c.statements.Add(1)
		case 'P':
			c.parses.Add(1)
		case 'S':
			c.syncs.Add(1)
		}
		n := int64(binary.BigEndian.Uint32(hdr[1:]))
		if n < 4 {
			return errors.New("wire counter: bad message length")
		}
		if _, err := server.Write(hdr[:]); err != nil {
			return err
		}
		body := make([]byte, n-4)
		if _, err := io.ReadFull(r, body); err != nil {
			return err
		}
		if (hdr[0] == 'Q' || hdr[0] == 'P') && os.Getenv("WIRE_DEBUG") != "" && c.statements.Load() > 0 {
			fmt.Fprintf(os.Stderr, "WIRE %c %.150q\n", hdr[0], body)
		}
		if _, err := server.Write(body); err != nil {
			return err
		}
	}
}

func (c *wireCounter) counts() wireCounts {
	return wireCounts{c.statements.Load(), c.parses.Load(), c.syncs.Load()}
}

// TestRequestIssuanceStatements counts, on the wire, what one
// requestIssuance sends to PostgreSQL beside the raw-SQL baseline of
// BenchmarkRequestIssuance, and holds the count to its budget.
func TestRequestIssuanceStatements(t *testing.T) {
	counter, url := newWireCounter(t, dbtest.NewURL(t))
	if m := os.Getenv("EXEC_MODE"); m != "" {
		url += "&default_query_exec_mode=" + m
	}
	a := startAppB(t, map[string]string{"ROLE": "api", "RATE_LIMIT": "off", "DATABASE_URL": url})
	tok, _ := a.tokens.Issue("bench", false, time.Hour)
	const n = 20
	nests := seedNests(t, a.db.Pool, "bench", 2*n)
	client := &http.Client{}
	issue := func(nest string) {
		body := `{"query":"mutation($id: ID!) { requestIssuance(nestId: $id) { reused task { id status } } }","variables":{"id":"` + nest + `"}}`
		req, _ := http.NewRequest(http.MethodPost, a.base+"/graphql", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(out), `"errors"`) {
			t.Fatalf("requestIssuance: %s", out)
		}
	}
	issue(nests[0]) // warm: prepared statements, River's first insert
	before := counter.counts()
	for _, nest := range nests[1:n] {
		issue(nest)
	}
	gql := counter.counts().sub(before)
	rawPool := newRawPool(t, a)
	if err := rawRequestIssuance(context.Background(), rawPool, nests[n]); err != nil { // warm
		t.Fatal(err)
	}
	before = counter.counts()
	for _, nest := range nests[n+1:] {
		if err := rawRequestIssuance(context.Background(), rawPool, nest); err != nil {
			t.Fatal(err)
		}
	}
	raw := counter.counts().sub(before)
	per := func(c wireCounts) string {
		return fmt.Sprintf("%.1f statements, %.1f parses, %.1f round trips", float64(c.Statements)/(n-1), float64(c.Parses)/(n-1), float64(c.RoundTrips)/(n-1))
	}
	t.Logf("requestIssuance per request: %s; raw SQL: %s", per(gql), per(raw))
	// The transaction's 8 statements (begin, nest lock, latest active task,
	// River's insert and its notification, task, event, commit) and, after
	// the commit, the event tail's wake-up and read; one round trip each.
	if gql.Statements > 12*(n-1) || gql.RoundTrips > gql.Statements+(n-1) {
		t.Errorf("requestIssuance sends %s; budget: 12 statements, one round trip each", per(gql))
	}
}
