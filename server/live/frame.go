package live

import (
	"encoding/binary"
	"unicode/utf8"
)

// WebSocket framing (RFC 6455, the server's side): frames from a client
// are masked; frames to it are not. The transport reads whatever bytes the
// socket has, parses the complete frames among them and keeps the rest, so
// a client that sends half a frame holds no goroutine while it waits.

// Opcodes.
const (
	opContinuation = 0x0
	opText         = 0x1
	opBinary       = 0x2
	opClose        = 0x8
	opPing         = 0x9
	opPong         = 0xA
)

// WebSocket close codes of RFC 6455 the transport sends.
const (
	closeNormal        = 1000
	closeProtocol      = 1002
	closeInvalidData   = 1007
	closeMessageTooBig = 1009
)

// frame is one parsed frame; payload aliases the read buffer.
type frame struct {
	fin     bool
	op      byte
	payload []byte
}

// frameError is a framing violation: the connection closes with code.
type frameError struct {
	code   int
	reason string
}

// nextFrame parses the first frame of b. n is 0 when b holds only part of
// a frame (read more); otherwise n bytes were consumed and the payload is
// unmasked in place. limit bounds a data frame's payload.
func nextFrame(b []byte, limit int64) (f frame, n int, err *frameError) {
	if len(b) < 2 {
		return f, 0, nil
	}
	f.fin = b[0]&0x80 != 0
	if b[0]&0x70 != 0 {
		return f, 0, &frameError{closeProtocol, "reserved bits set"}
	}
	f.op = b[0] & 0x0f
	switch f.op {
	case opContinuation, opText, opBinary, opClose, opPing, opPong:
	default:
		return f, 0, &frameError{closeProtocol, "reserved opcode"}
	}
	if b[1]&0x80 == 0 {
		return f, 0, &frameError{closeProtocol, "client frames must be masked"}
	}
	length := int64(b[1] & 0x7f)
	pos := 2
	switch length {
	case 126:
		if len(b) < 4 {
			return f, 0, nil
		}
		length = int64(binary.BigEndian.Uint16(b[2:]))
		pos = 4
	case 127:
		if len(b) < 10 {
			return f, 0, nil
		}
		u := binary.BigEndian.Uint64(b[2:])
		if u > 1<<62 {
			return f, 0, &frameError{closeMessageTooBig, "frame too large"}
		}
		length = int64(u)
		pos = 10
	}
	if f.op >= opClose {
		if length > 125 || !f.fin {
			return f, 0, &frameError{closeProtocol, "invalid control frame"}
		}
	} else if length > limit {
		return f, 0, &frameError{closeMessageTooBig, "message too big"}
	}
	if int64(len(b)-pos) < 4+length {
		return f, 0, nil
	}
	var mask [4]byte
	copy(mask[:], b[pos:pos+4])
	pos += 4
	f.payload = b[pos : pos+int(length)]
	for i := range f.payload {
		f.payload[i] ^= mask[i&3]
	}
	return f, pos + int(length), nil
}

// appendFrame appends an unmasked, final frame to dst.
func appendFrame(dst []byte, op byte, payload []byte) []byte {
	dst = append(dst, 0x80|op)
	switch n := len(payload); {
	case n < 126:
		dst = append(dst, byte(n))
	case n < 1<<16:
		dst = append(dst, 126, byte(n>>8), byte(n))
	default:
		dst = append(dst, 127)
		dst = binary.BigEndian.AppendUint64(dst, uint64(n))
	}
	return append(dst, payload...)
}

// closePayload is a close frame's body: the code and a reason cut to fit
// the 125 bytes a control frame holds.
func closePayload(code int, reason string) []byte {
	reason = truncate(reason, 123)
	b := make([]byte, 2, 2+len(reason))
	binary.BigEndian.PutUint16(b, uint16(code))
	return append(b, reason...)
}

// parseClose reads a close frame's body: its code (1005 when none) or a
// framing error for a malformed one.
func parseClose(p []byte) (int, *frameError) {
	switch {
	case len(p) == 0:
		return 1005, nil
	case len(p) == 1:
		return 0, &frameError{closeProtocol, "malformed close frame"}
	}
	code := int(binary.BigEndian.Uint16(p))
	if !utf8.Valid(p[2:]) {
		return 0, &frameError{closeInvalidData, "close reason is not UTF-8"}
	}
	switch {
	case code < 1000, code == 1004, code == 1005, code == 1006, code == 1015, code >= 1016 && code < 3000, code >= 5000:
		return 0, &frameError{closeProtocol, "invalid close code"}
	}
	return code, nil
}
