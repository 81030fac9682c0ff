package server

import (
	"encoding/json"
	"net/http"
	"testing"
)

// /api/expression converts one function between readable code and its listing; a text that
// does not compile answers 422 with its line, column and message; a malformed request 400.
func TestExpressionConvert(t *testing.T) {
	s := newTestServer(t, nil)
	post := func(body string) (int, map[string]any) {
		t.Helper()
		rec := do(s, "POST", "/api/expression", "application/json", []byte(body))
		var out map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatalf("%s: answer %q is not JSON", body, rec.Body.String())
		}
		return rec.Code, out
	}
	const code = ".input INT\n.output INT\nOut = In * 2\n"
	const listing = ".input INT\n.output INT\n.main\n0x0000  STR int Out[0x0], int In[0x0]\n0x0008  MUL int Out[0x0], int 2\n0x0010  END\n"
	req, _ := json.Marshal(map[string]any{"version": 3, "text": code, "to": "listing"})
	if st, out := post(string(req)); st != 200 || out["text"] != listing {
		t.Errorf("code to listing: %d %v", st, out)
	}
	req, _ = json.Marshal(map[string]any{"version": 3, "text": listing, "to": "code"})
	if st, out := post(string(req)); st != 200 || out["text"] != code {
		t.Errorf("listing to code: %d %v", st, out)
	}
	req, _ = json.Marshal(map[string]any{"version": 3, "text": ".input INT\n.output INT\nOut = In +\n", "to": "listing"})
	st, out := post(string(req))
	detail, _ := out["detail"].(map[string]any)
	if st != http.StatusUnprocessableEntity || out["error"] != "line 3:11: expected a value, found end of line" ||
		detail["line"] != float64(3) || detail["column"] != float64(11) || detail["message"] != "expected a value, found end of line" {
		t.Errorf("an error: %d %v", st, out)
	}
	if st, out := post(`{"version": 9, "text": "Out = 1", "to": "code"}`); st != 422 || out["error"] != "exb: unsupported version 9 (want 1, 2 or 3)" {
		t.Errorf("version 9: %d %v", st, out)
	}
	for _, bad := range []string{`{"version": 3, "text": "Out = 1", "to": "asm"}`, `{"version": 3, "text": "Out = 1", "to": "code", "x": 1}`, `[1]`, `{"version": 3} {}`} {
		if st, out := post(bad); st != http.StatusBadRequest {
			t.Errorf("%s: %d %v", bad, st, out)
		}
	}
	if rec := do(s, "POST", "/api/expression", "text/plain", []byte(code)); rec.Code != http.StatusUnsupportedMediaType {
		t.Errorf("text/plain: %d", rec.Code)
	}
}
