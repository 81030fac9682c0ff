// Package static holds the browser editor: plain ES modules and CSS, embedded into the server
// binary. It must never need a bundler or a build step.
package static

import "embed"

// FS holds the editor's assets, served under /static/.
//
//go:embed *.js *.css *.svg
var FS embed.FS
