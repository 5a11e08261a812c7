// Command wsload is the load client of the subscription benchmark
// (server/subscription_bench_test.go). It runs in a process of its own, so
// that the server's memory and goroutine figures count the server only.
//
// In -mode sub it opens -n WebSocket connections to /graphql speaking
// graphql-transport-ws, one issuanceTaskUpdated subscription each, spread
// over the task ids of -tasks (connection i follows task i mod len). Once
// every subscription has sent its snapshot it prints "ready …" on stdout and
// records, for each later "next" message, the receive time and the version.
//
// In -mode poll it runs -n goroutines that each POST the issuanceTask query
// for their task every -interval (starts jittered over one interval),
// recording the version seen and when.
//
// Both modes stop when stdin closes, write one line per message or poll to
// -out and print "done …" on stdout:
//
//	sub:  conn task version recvUnixNano
//	poll: conn task version sentUnixNano recvUnixNano   (version -1: failed)
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/coder/websocket"
)

const subscription = `subscription($id: ID!) { issuanceTaskUpdated(id: $id) { id status version updatedAt } }`

const pollQuery = `query($id: ID!) { issuanceTask(id: $id) { id status version updatedAt } }`

func main() {
	mode := flag.String("mode", "sub", "sub (WebSocket subscriptions) or poll (issuanceTask every interval)")
	base := flag.String("url", "", "the server's base URL, e.g. http://127.0.0.1:8080")
	token := flag.String("token", "", "bearer token")
	tasksFile := flag.String("tasks", "", "file with one task id per line")
	n := flag.Int("n", 1000, "connections (sub) or polling clients (poll)")
	out := flag.String("out", "", "results file (required)")
	dialers := flag.Int("dialers", 64, "connections opened at once (sub)")
	interval := flag.Duration("interval", time.Second, "poll interval (poll)")
	flag.Parse()
	if *base == "" || *tasksFile == "" || *out == "" || *n < 1 {
		fmt.Fprintln(os.Stderr, "wsload: -url, -tasks, -out and -n are required")
		os.Exit(2)
	}
	tasks, err := readTasks(*tasksFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wsload:", err)
		os.Exit(1)
	}
	if err := raiseFileLimit(uint64(*n) + 1024); err != nil {
		fmt.Fprintln(os.Stderr, "wsload:", err)
		os.Exit(1)
	}
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wsload:", err)
		os.Exit(1)
	}
	stop := make(chan struct{})
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); close(stop) }()
	w := bufio.NewWriterSize(f, 1<<20)
	var summary string
	switch *mode {
	case "sub":
		summary, err = runSubscriptions(*base, *token, tasks, *n, *dialers, stop, w)
	case "poll":
		summary, err = runPolling(*base, *token, tasks, *n, *interval, stop, w)
	default:
		err = fmt.Errorf("unknown -mode %q", *mode)
	}
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "wsload:", err)
		os.Exit(1)
	}
	fmt.Println("done " + summary)
}

func readTasks(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var tasks []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			tasks = append(tasks, l)
		}
	}
	if len(tasks) == 0 {
		return nil, fmt.Errorf("%s: no task ids", path)
	}
	return tasks, nil
}

// raiseFileLimit raises RLIMIT_NOFILE to at least need (10,000 sockets need
// 10,000 descriptors here and as many in the server), up to the hard limit
// unless the process may raise that too.
func raiseFileLimit(need uint64) error {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return err
	}
	if lim.Cur >= need {
		return nil
	}
	want := lim
	want.Cur = need
	if want.Max < need {
		want.Max = need
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &want); err == nil {
		return nil
	}
	lim.Cur = lim.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return err
	}
	if lim.Cur < need {
		return fmt.Errorf("file descriptor limit %d is below the %d needed (hard limit; run as root or raise ulimit -Hn)", lim.Cur, need)
	}
	return nil
}

// message is one graphql-transport-ws message, with the payload decoded
// later according to its type.
type message struct {
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

type nextPayload struct {
	Data struct {
		Task *struct {
			Version int64 `json:"version"`
		} `json:"issuanceTaskUpdated"`
	} `json:"data"`
	Errors []json.RawMessage `json:"errors"`
}

// received is one "next" message as the client saw it.
type received struct {
	version int64
	at      int64 // unix nanoseconds
}

// subConn is one connection with its one subscription.
type subConn struct {
	idx  int
	task int
	conn *websocket.Conn
	got  []received
	err  error // why the stream ended early, if it did
}

func runSubscriptions(base, token string, tasks []string, n, dialers int, stop <-chan struct{}, w *bufio.Writer) (string, error) {
	wsURL := "ws" + strings.TrimPrefix(base, "http") + "/graphql"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	conns := make([]*subConn, n)
	var (
		failed   atomic.Int64
		firstErr atomic.Value
		wg       sync.WaitGroup
		next     atomic.Int64
	)
	start := time.Now()
	for range dialers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				c, err := subscribe(ctx, wsURL, token, i, i%len(tasks), tasks[i%len(tasks)])
				if err != nil {
					failed.Add(1)
					firstErr.CompareAndSwap(nil, fmt.Sprintf("conn %d: %v", i, err))
					continue
				}
				conns[i] = c
			}
		}()
	}
	wg.Wait()
	msg, _ := firstErr.Load().(string)
	fmt.Printf("ready connected=%d failed=%d seconds=%.1f first_error=%q\n", int64(n)-failed.Load(), failed.Load(), time.Since(start).Seconds(), msg)

	var (
		readers  sync.WaitGroup
		stopping atomic.Bool // set before the connections are closed: their errors are expected
	)
	for _, c := range conns {
		if c == nil {
			continue
		}
		readers.Add(1)
		go func() { defer readers.Done(); c.read(ctx, &stopping) }()
	}
	<-stop
	stopping.Store(true)
	for _, c := range conns {
		if c != nil {
			_ = c.conn.CloseNow()
		}
	}
	cancel()
	readers.Wait()

	var (
		msgs, ended int
		endErr      string
	)
	buf := make([]byte, 0, 64)
	for _, c := range conns {
		if c == nil {
			continue
		}
		if c.err != nil {
			if ended == 0 {
				endErr = c.err.Error()
			}
			ended++
		}
		for _, r := range c.got {
			msgs++
			buf = strconv.AppendInt(buf[:0], int64(c.idx), 10)
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(c.task), 10)
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, r.version, 10)
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, r.at, 10)
			buf = append(buf, '\n')
			if _, err := w.Write(buf); err != nil {
				return "", err
			}
		}
	}
	return fmt.Sprintf("msgs=%d connected=%d failed=%d ended_early=%d first_end=%q", msgs, n-int(failed.Load()), failed.Load(), ended, endErr), nil
}

// subscribe dials, authenticates, subscribes to task and waits for its
// snapshot.
func subscribe(ctx context.Context, wsURL, token string, idx, taskIdx int, task string) (*subConn, error) {
	dctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(dctx, wsURL, &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		return nil, fmt.Errorf("dial: %w", err)
	}
	conn.SetReadLimit(1 << 20)
	c := &subConn{idx: idx, task: taskIdx, conn: conn}
	fail := func(err error) (*subConn, error) { _ = conn.CloseNow(); return nil, err }
	if err := c.send(dctx, message{Type: "connection_init", Payload: mustJSON(map[string]string{"Authorization": "Bearer " + token})}); err != nil {
		return fail(err)
	}
	if m, err := c.readMessage(dctx); err != nil || m.Type != "connection_ack" {
		return fail(fmt.Errorf("want connection_ack, got %q %s (%v)", m.Type, m.Payload, err))
	}
	if err := c.send(dctx, message{ID: "1", Type: "subscribe", Payload: mustJSON(map[string]any{"query": subscription, "variables": map[string]string{"id": task}})}); err != nil {
		return fail(err)
	}
	m, err := c.readMessage(dctx)
	if err != nil {
		return fail(err)
	}
	if _, err := c.record(m, time.Now().UnixNano()); err != nil {
		return fail(fmt.Errorf("snapshot: %w", err))
	}
	return c, nil
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func (c *subConn) send(ctx context.Context, m message) error {
	b, _ := json.Marshal(m)
	return c.conn.Write(ctx, websocket.MessageText, b)
}

// readMessage reads the next message, answering pings.
func (c *subConn) readMessage(ctx context.Context) (message, error) {
	for {
		_, b, err := c.conn.Read(ctx)
		if err != nil {
			return message{}, err
		}
		var m message
		if err := json.Unmarshal(b, &m); err != nil {
			return m, err
		}
		if m.Type == "ping" {
			if err := c.send(ctx, message{Type: "pong"}); err != nil {
				return m, err
			}
			continue
		}
		if m.Type == "pong" {
			continue
		}
		return m, nil
	}
}

// record keeps a "next" message; anything else ends the subscription.
func (c *subConn) record(m message, at int64) (bool, error) {
	switch m.Type {
	case "next":
		var p nextPayload
		if err := json.Unmarshal(m.Payload, &p); err != nil {
			return false, err
		}
		if len(p.Errors) > 0 || p.Data.Task == nil {
			return false, fmt.Errorf("errors in next: %s", m.Payload)
		}
		c.got = append(c.got, received{version: p.Data.Task.Version, at: at})
		return true, nil
	case "complete":
		return false, errors.New("subscription completed")
	default:
		return false, fmt.Errorf("unexpected %s %s", m.Type, m.Payload)
	}
}

// read records every message until the connection closes. The receive time
// is taken as soon as the frame is read, before any decoding.
func (c *subConn) read(ctx context.Context, stopping *atomic.Bool) {
	for {
		_, b, err := c.conn.Read(ctx)
		at := time.Now().UnixNano()
		if err != nil {
			if !stopping.Load() {
				c.err = err
			}
			return
		}
		var m message
		if err := json.Unmarshal(b, &m); err != nil {
			c.err = err
			return
		}
		switch m.Type {
		case "ping":
			if err := c.send(ctx, message{Type: "pong"}); err != nil && !stopping.Load() {
				c.err = err
				return
			}
			continue
		case "pong":
			continue
		}
		if ok, err := c.record(m, at); !ok {
			c.err = err
			return
		}
	}
}

// poll is one issuanceTask answer.
type poll struct {
	version    int64 // -1 when the request failed
	sent, recv int64
}

func runPolling(base, token string, tasks []string, n int, interval time.Duration, stop <-chan struct{}, w *bufio.Writer) (string, error) {
	tr := &http.Transport{
		MaxIdleConns:        n,
		MaxIdleConnsPerHost: n,
		IdleConnTimeout:     time.Minute,
		DialContext:         (&net.Dialer{Timeout: 30 * time.Second}).DialContext,
	}
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	ctx, cancel := context.WithCancel(context.Background())
	results := make([][]poll, n)
	var (
		wg     sync.WaitGroup
		failed atomic.Int64
		errMsg atomic.Value
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			task := tasks[i%len(tasks)]
			body := []byte(`{"query":` + strconv.Quote(pollQuery) + `,"variables":{"id":"` + task + `"}}`)
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Duration(rand.Int64N(int64(interval)))):
			}
			t := time.NewTicker(interval)
			defer t.Stop()
			for {
				p := poll{version: -1, sent: time.Now().UnixNano()}
				v, err := pollOnce(ctx, client, base, token, body)
				p.recv = time.Now().UnixNano()
				if err == nil {
					p.version = v
				} else if ctx.Err() == nil {
					failed.Add(1)
					errMsg.CompareAndSwap(nil, err.Error())
				}
				if ctx.Err() != nil {
					return
				}
				results[i] = append(results[i], p)
				select {
				case <-ctx.Done():
					return
				case <-t.C:
				}
			}
		}()
	}
	fmt.Println("ready")
	<-stop
	cancel()
	wg.Wait()
	tr.CloseIdleConnections()
	var polls int
	buf := make([]byte, 0, 80)
	for i, rs := range results {
		for _, p := range rs {
			polls++
			buf = strconv.AppendInt(buf[:0], int64(i), 10)
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(i%len(tasks)), 10)
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, p.version, 10)
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, p.sent, 10)
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, p.recv, 10)
			buf = append(buf, '\n')
			if _, err := w.Write(buf); err != nil {
				return "", err
			}
		}
	}
	msg, _ := errMsg.Load().(string)
	return fmt.Sprintf("polls=%d failed=%d first_error=%q", polls, failed.Load(), msg), nil
}

func pollOnce(ctx context.Context, client *http.Client, base, token string, body []byte) (int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/graphql", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var out struct {
		Data struct {
			Task *struct {
				Version int64 `json:"version"`
			} `json:"issuanceTask"`
		} `json:"data"`
		Errors []json.RawMessage `json:"errors"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return 0, fmt.Errorf("status %d: %w", resp.StatusCode, err)
	}
	if len(out.Errors) > 0 || out.Data.Task == nil {
		return 0, fmt.Errorf("status %d: errors %s", resp.StatusCode, out.Errors)
	}
	return out.Data.Task.Version, nil
}
