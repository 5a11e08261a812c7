package live

import (
	"bytes"
	"testing"
)

// mask builds a masked client frame.
func clientFrame(fin bool, op byte, payload []byte) []byte {
	b0 := op
	if fin {
		b0 |= 0x80
	}
	out := []byte{b0}
	switch n := len(payload); {
	case n < 126:
		out = append(out, 0x80|byte(n))
	case n < 1<<16:
		out = append(out, 0x80|126, byte(n>>8), byte(n))
	default:
		out = append(out, 0x80|127, 0, 0, 0, 0, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	}
	key := []byte{0x11, 0x22, 0x33, 0x44}
	out = append(out, key...)
	for i, c := range payload {
		out = append(out, c^key[i%4])
	}
	return out
}

func TestNextFrame(t *testing.T) {
	long := bytes.Repeat([]byte("x"), 300)
	cases := []struct {
		name    string
		in      []byte
		limit   int64
		n       int // 0: incomplete
		op      byte
		payload []byte
		code    int // a framing error's close code
	}{
		{"text", clientFrame(true, opText, []byte("hi")), 100, 8, opText, []byte("hi"), 0},
		{"16-bit length", clientFrame(true, opText, long), 1000, 308, opText, long, 0},
		{"one byte", []byte{0x81}, 100, 0, 0, nil, 0},
		{"header without mask key", clientFrame(true, opText, []byte("hi"))[:4], 100, 0, 0, nil, 0},
		{"half the payload", clientFrame(true, opText, long)[:100], 1000, 0, 0, nil, 0},
		{"over the limit", clientFrame(true, opText, long), 299, 0, 0, nil, closeMessageTooBig},
		{"64-bit length over 2^62", []byte{0x81, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4}, 100, 0, 0, nil, closeMessageTooBig},
		{"unmasked", []byte{0x81, 0x02, 'h', 'i'}, 100, 0, 0, nil, closeProtocol},
		{"reserved bit", append([]byte{0xc1}, clientFrame(true, opText, nil)[1:]...), 100, 0, 0, nil, closeProtocol},
		{"reserved opcode", clientFrame(true, 0x3, nil), 100, 0, 0, nil, closeProtocol},
		{"fragmented ping", clientFrame(false, opPing, nil), 100, 0, 0, nil, closeProtocol},
		{"ping over 125 bytes", clientFrame(true, opPing, long), 1000, 0, 0, nil, closeProtocol},
		{"control frames ignore the data limit", clientFrame(true, opPing, []byte("abc")), 1, 9, opPing, []byte("abc"), 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, n, err := nextFrame(append([]byte(nil), tc.in...), tc.limit)
			if tc.code != 0 {
				if err == nil || err.code != tc.code {
					t.Fatalf("err %v, want close %d", err, tc.code)
				}
				return
			}
			if err != nil || n != tc.n {
				t.Fatalf("n %d err %v, want n %d", n, err, tc.n)
			}
			if n > 0 && (f.op != tc.op || !bytes.Equal(f.payload, tc.payload)) {
				t.Fatalf("frame %d %q", f.op, f.payload)
			}
		})
	}
}

func TestParseClose(t *testing.T) {
	for _, tc := range []struct {
		in   []byte
		code int
		bad  bool
	}{
		{nil, 1005, false},
		{[]byte{0x03}, 0, true},
		{[]byte{0x03, 0xe8}, 1000, false},
		{[]byte{0x11, 0x93, 'o', 'k'}, 4499, false},
		{[]byte{0x03, 0xed}, 0, true},       // 1005 may not be sent
		{[]byte{0x03, 0xe8, 0xff}, 0, true}, // reason not UTF-8
		{[]byte{0x00, 0x10}, 0, true},       // below 1000
		{[]byte{0x13, 0x88}, 0, true},       // 5000
	} {
		code, err := parseClose(tc.in)
		if (err != nil) != tc.bad || (!tc.bad && code != tc.code) {
			t.Errorf("%x: code %d err %v", tc.in, code, err)
		}
	}
}

// FuzzNextFrame: any bytes parse to a frame, "need more" or a framing
// error, never a panic or a frame longer than its input.
func FuzzNextFrame(f *testing.F) {
	f.Add(clientFrame(true, opText, []byte(`{"type":"ping"}`)))
	f.Add([]byte{0x81, 0xfe, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		_, n, _ := nextFrame(b, 1<<16)
		if n > len(b) {
			t.Fatalf("consumed %d of %d bytes", n, len(b))
		}
	})
}

func TestAppendFrame(t *testing.T) {
	for _, n := range []int{0, 125, 126, 65535, 65536} {
		b := appendFrame(nil, opText, bytes.Repeat([]byte("a"), n))
		hdr := len(b) - n
		want := map[bool]int{true: 2}[n < 126]
		if n >= 126 && n < 1<<16 {
			want = 4
		} else if n >= 1<<16 {
			want = 10
		}
		if hdr != want || b[0] != 0x81 {
			t.Errorf("%d bytes: header %d, want %d", n, hdr, want)
		}
	}
}

func TestSelectSubprotocol(t *testing.T) {
	for _, tc := range []struct {
		offered []string
		want    string
	}{
		{nil, ""},
		{[]string{"graphql-sse"}, ""},
		{[]string{"graphql-ws"}, SubprotocolLegacy},
		{[]string{"graphql-ws", "graphql-transport-ws"}, SubprotocolTransportWS},
		{[]string{"graphql-ws, graphql-transport-ws"}, SubprotocolTransportWS},
		{[]string{"GRAPHQL-TRANSPORT-WS"}, ""}, // tokens are case-sensitive
	} {
		if got := selectSubprotocol(tc.offered); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.offered, got, tc.want)
		}
	}
}
