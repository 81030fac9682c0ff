package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// idleUpload starts a request on a connection of its own, sends head and then nothing.
func idleUpload(t *testing.T, addr, head string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := io.WriteString(c, head); err != nil {
		t.Fatal(err)
	}
	return c
}

// waitReserved waits until the budget holds want bytes; the uploads are read by other
// goroutines, at their own pace.
func waitReserved(t *testing.T, s *Server, want int64) {
	t.Helper()
	for start := time.Now(); s.budget.reserved.Load() != want; time.Sleep(5 * time.Millisecond) {
		if time.Since(start) > 10*time.Second {
			t.Fatalf("reserved %d bytes, want %d", s.budget.reserved.Load(), want)
		}
	}
}

// TestIdleUploads replays the attack of issue 27: three chunked tree uploads and one parse
// announcing 13 MB, sending a few bytes each, once held the whole 256 MiB budget for the
// read timeout. Now they hold a grain each, an honest upload beside them is served, and each
// is cut with 408 once it has sent nothing for the idle timeout.
func TestIdleUploads(t *testing.T) {
	const idle = 300 * time.Millisecond
	s := newTestServer(t, func(c *Config) { c.BodyIdleTimeout = idle })
	ts := httptest.NewServer(s)
	defer ts.Close()
	addr := ts.Listener.Addr().String()

	tree := "POST /api/tree HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: multipart/form-data; boundary=x\r\n" +
		"Transfer-Encoding: chunked\r\n\r\n" + fmt.Sprintf("%x\r\n%s\r\n", len(formHead), formHead)
	parse := "POST /api/parse HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/octet-stream\r\n" +
		"Content-Length: 13000000\r\n\r\n" + strings.Repeat("A", 20)
	conns := []net.Conn{idleUpload(t, addr, tree), idleUpload(t, addr, tree), idleUpload(t, addr, tree), idleUpload(t, addr, parse)}
	waitReserved(t, s, 4*bodyGrain)

	small := corpusFile(t, smallFile)
	resp, err := http.Post(ts.URL+"/api/parse?name=x.ainb", "application/octet-stream", strings.NewReader(string(small)))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("honest upload beside the idle ones: %d", resp.StatusCode)
	}

	for i, c := range conns {
		received := len(formHead)
		if i == 3 {
			received = 20
		}
		c.SetReadDeadline(time.Now().Add(10 * time.Second)) // a guard against a hang, not a measure
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("idle upload %d: %v", i, err)
		}
		var e errorBody
		err = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("idle upload %d: %v", i, err)
		}
		want := fmt.Sprintf("the request body stopped arriving: nothing came for 300ms after byte %d; send it again", received)
		if resp.StatusCode != http.StatusRequestTimeout || e.Error != want {
			t.Errorf("idle upload %d: %d %q, want 408 %q", i, resp.StatusCode, e.Error, want)
		}
		if d, _ := e.Detail.(map[string]any); d["received"] != float64(received) || d["idleTimeout"] != idle.Seconds() {
			t.Errorf("idle upload %d: detail %v", i, e.Detail)
		}
		if !resp.Close {
			t.Errorf("idle upload %d: the answer does not say the connection closes", i)
		}
	}
	waitReserved(t, s, 0)
}

// TestIdleAfterBody checks the body's deadlines end with the body: a handler working longer
// than the idle and read timeouts once the body is read keeps its request (net/http cancels
// a request whose connection's read deadline passes while it watches for the next one).
func TestIdleAfterBody(t *testing.T) {
	const idle = 100 * time.Millisecond
	s := newTestServer(t, func(c *Config) {
		c.BodyIdleTimeout = idle
		c.ReadTimeout = 2 * idle
	})
	h := s.budgeted(1<<20, 1<<20)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := io.Copy(io.Discard, r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		time.Sleep(3 * idle) // a conversion
		if err := r.Context().Err(); err != nil {
			http.Error(w, "cancelled: "+err.Error(), http.StatusInternalServerError)
			return
		}
		fmt.Fprint(w, n)
	}))
	ts := httptest.NewServer(h)
	defer ts.Close()
	for _, chunked := range []bool{false, true} {
		body := io.Reader(strings.NewReader(strings.Repeat("x", 1000)))
		if chunked {
			body = io.MultiReader(body) // hides the length
		}
		resp, err := http.Post(ts.URL, "application/octet-stream", body)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || string(got) != "1000" {
			t.Errorf("chunked %v: %d %s", chunked, resp.StatusCode, got)
		}
	}
}

// BenchmarkBodyMetering uploads 16 MiB through the body budget's metering (a reservation
// that doubles, a read deadline set before every read) and without it, read in the 4 KiB
// reads of a multipart reader, to measure what the metering costs an upload.
func BenchmarkBodyMetering(b *testing.B) {
	const size = 16 << 20
	s := newTestServer(b, nil)
	read := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		buf := make([]byte, 4<<10)
		n, err := io.CopyBuffer(io.Discard, struct{ io.Reader }{r.Body}, buf)
		if err != nil || n != size {
			http.Error(w, fmt.Sprint(n, err), http.StatusBadRequest)
		}
	})
	body := make([]byte, size)
	for _, c := range []struct {
		name string
		h    http.Handler
	}{{"plain", read}, {"metered", s.budgeted(size, size)(read)}} {
		b.Run(c.name, func(b *testing.B) {
			ts := httptest.NewServer(c.h)
			defer ts.Close()
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				resp, err := http.Post(ts.URL, "application/octet-stream", bytes.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Fatal(resp.Status)
				}
			}
		})
	}
}

func TestBodyIdleTimeoutConfig(t *testing.T) {
	if got := DefaultConfig().BodyIdleTimeout; got != 10*time.Second {
		t.Errorf("default %v, want 10s", got)
	}
	c, err := ParseConfig([]string{"-body-idle-timeout", "1500ms"}, func(k string) string {
		return map[string]string{"AINB_BODY_IDLE_TIMEOUT": "3s"}[k]
	}, io.Discard)
	if err != nil || c.BodyIdleTimeout != 1500*time.Millisecond {
		t.Errorf("the flag over the environment: %v %v", c.BodyIdleTimeout, err)
	}
	_, err = ParseConfig(nil, func(k string) string { return map[string]string{"AINB_BODY_IDLE_TIMEOUT": "-1s"}[k] }, io.Discard)
	if err == nil || err.Error() != "body-idle-timeout: must be positive" {
		t.Errorf("negative: %v", err)
	}
}

// TestBodyReadTimeout checks a body still arriving at the read timeout is cut with 408
// saying so, the idle timeout being longer.
func TestBodyReadTimeout(t *testing.T) {
	s := newTestServer(t, func(c *Config) { c.ReadTimeout = 300 * time.Millisecond })
	ts := httptest.NewServer(s)
	defer ts.Close()
	addr := ts.Listener.Addr().String()
	c := idleUpload(t, addr, "POST /api/parse HTTP/1.1\r\nHost: "+addr+"\r\nContent-Type: application/octet-stream\r\n"+
		"Content-Length: 1000\r\n\r\n"+strings.Repeat("A", 20))
	c.SetReadDeadline(time.Now().Add(10 * time.Second)) // a guard against a hang, not a measure
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	var e errorBody
	err = json.NewDecoder(resp.Body).Decode(&e)
	resp.Body.Close()
	const want = "the request body took too long: it was not complete after 300ms (byte 20)"
	if err != nil || resp.StatusCode != http.StatusRequestTimeout || e.Error != want {
		t.Errorf("%d %q (%v), want 408 %q", resp.StatusCode, e.Error, err, want)
	}
	waitReserved(t, s, 0)
}
