// Package server is the editor's HTTP server: the editor page and its assets, the conversion
// API that turns AINB files into editor documents and back, and shared links.
//
//	GET  /                  the editor (web.Editor); the JavaScript builds the UI in #app
//	GET  /static/*          the editor's assets (package static), revalidated by ETag
//	POST /api/parse         an .ainb or zstd-compressed .ainb.zs, raw or as the multipart
//	                        field "file" (with "zsdic", the game's ZsDic.pack.zs, before it
//	                        for TotK's dictionaries) -> 200 the document JSON (graph.Document)
//	POST /api/build         a document JSON -> 200 the .ainb file as an attachment; ?zstd=ID
//	                        compresses it, with a multipart body of "document" and "zsdic"
//	                        for a dictionary of the game's
//	POST /api/layout        a document JSON -> 200 {"positions"} laid out again (?reset=1: pinned too; ?aspect=w/h of the canvas)
//	POST /api/diff          {"a","b"} documents -> 200 {"changes"}: what changed from a to b (internal/diff)
//	POST /api/merge         {"base","ours","theirs","prefer"?} -> 200 {"document","conflicts"}: the three-way merge
//	POST /api/shares        {"document": ..., "view": {...}} -> 201 {"id", "url", "embed"}
//	GET  /api/shares/{id}   the share's JSON, exactly as stored
//	GET  /s/{id}            the editor opened on a share (data-share on #app), with the
//	                        share's OpenGraph and Twitter card tags
//	GET  /s/{id}/preview.png  the picture of the shared view, 1200x630, cacheable for good
//	GET  /e/{id}            the share read-only (data-readonly), framable by any site
//	GET  /healthz           200 {"status":"ok"}, or 503 when the share store cannot write
//	GET  /metrics           Prometheus metrics of this server (requests by route pattern, ...)
//
// Every error is JSON, {"error": message, "detail": value or null}: 400 for a malformed
// request, 403 for a POST a browser sent from another site's page, 404, 405 (with Allow), 413
// past a size limit, 415 for a content type the endpoint does not take, 422 for a well-formed
// request whose file or document the codec refuses (detail.problems lists validation problems
// by node and path), 429 with Retry-After past a client's rate of share creations or
// conversions, 503 with Retry-After when the server-wide budget of request bodies stays full
// or the share store cannot write or be reached, 507 when its quota or disk is full
// (detail.reason says which), 500 revealing nothing.
//
// The server keeps no per-user editing state: a conversion is computed from the request and
// forgotten, and the only thing kept between requests is a share, in a share.Store, and in
// memory, up to a byte cap, the previews made of shares (they never change).
//
// It must never use a client-supplied value as a filesystem path, never let a request body or
// a decompressed upload grow past its configured limit, never read a body it has not reserved
// in the body budget, never label a metric with a client-supplied value, and never send a
// client stack traces or internal error text: error bodies carry only the codec's own
// messages, written for users.
package server
