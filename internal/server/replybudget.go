package server

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"ainbeditor/internal/jsontext"
)

// Every reply that grows with its input (the editor document of /api/parse, the tree JSON
// of /api/tree and /api/tree/from-yaml, the YAML of /api/tree/yaml, the listing of
// /api/pack) is written into a buffer within a budget, checked as it is written: a reply
// past it stops there, a 422 that says where it stopped, and the request holds at most the
// budget (plus one part) however far the file would expand. The budget is the least of:
//
//   - MaxReplyBase plus MaxReplyRatio times the input (decompressed), as checkReply has it;
//   - for a compressed upload, MaxReplyBase plus MaxReplyWrappedRatio times the bytes sent:
//     a few hundred bytes of zstd decompress to megabytes, and the reply is held to what
//     was uploaded, not to what the upload was made to expand to;
//   - -max-document: no reply is larger than the largest document the server takes back.
//
// Honest files are far inside it. The game's files answer at most 3.7 times their
// decompressed size (a TotK BYML's JSON), and at most 30 times their compressed size (a
// 93 KB TotK rstbl BYML, whose 2.7 MB JSON is inside the base anyway); TotK's 2 MB packs
// and files compress 5 to 12 times and answer 1.3 to 3.7 times their decompressed size.

// MaxReplyWrappedRatio bounds a reply to a compressed upload by the bytes sent (see above):
// twice the most the game's files need.
const MaxReplyWrappedRatio = 64

// replyLimit is the budget of a reply to an input of n bytes that came compressed in
// wrapped bytes (0: it came as it is).
func (s *Server) replyLimit(n, wrapped int) int {
	limit := min(s.replyBudget(n), s.cfg.MaxDocument)
	if wrapped > 0 {
		limit = min(limit, s.replyBase+MaxReplyWrappedRatio*int64(wrapped))
	}
	return int(limit)
}

// replyError turns a writer stopping at its budget into the 422 the client sees, naming the
// budget, what it was computed from and where the writer stopped; other errors are the
// writer's own (a value the text form cannot hold), which other words for the client.
func (s *Server) replyError(err error, what string, n, wrapped int, other func(error) *apiError) *apiError {
	var tl *jsontext.TooLargeError
	if !errors.As(err, &tl) {
		return other(err)
	}
	from := fmt.Sprintf("a %d-byte file", n)
	if wrapped > 0 {
		from = fmt.Sprintf("a %d-byte file compressed in %d bytes", n, wrapped)
	}
	where, at := "", tl.Where
	if at != "" {
		where = " at " + quoteCut(at)
	}
	if len(at) > 200 {
		// A path of long keys, or a member's name, may be most of the file.
		at = strings.ToValidUTF8(at[:200], "") + "..."
	}
	return &apiError{http.StatusUnprocessableEntity,
		fmt.Sprintf("%s passes the %d bytes allowed for %s%s: the file would expand without bound (a reply may be %d MiB and %d times the file, %d times what was uploaded compressed, and at most -max-document)",
			what, tl.Limit, from, where, s.replyBase>>20, s.replyRatio, MaxReplyWrappedRatio),
		map[string]any{"limit": tl.Limit, "at": at}}
}
