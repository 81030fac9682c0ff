// Package web holds the server's HTML pages as templ components: the editor's shell page
// (with a share's link-preview tags, and read-only for embedding) and the page for a share
// that does not exist.
//
// The pages carry no inline script or style: the Content-Security-Policy forbids both. The
// editor itself is the ES modules of package static, started by the shell page; the page only
// passes it what it needs through data attributes of #app. Generate the Go code with
// `templ generate ./web` after editing a .templ file; the generated files are committed.
package web
