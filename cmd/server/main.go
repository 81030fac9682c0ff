// Command server runs the AINB editor: a web page that opens, edits and saves AINB files,
// and the API behind it.
//
//	server [-addr 127.0.0.1:8080] [-data ./data] [-max-upload 16MiB] ...
//
// Every flag has an environment variable twin (-addr is AINB_ADDR, -max-upload is
// AINB_MAX_UPLOAD); run `server -h` for the list. Shares are kept in the data directory, or
// with -store postgres://... in a PostgreSQL database that several servers share. The server
// stops gracefully on SIGINT or SIGTERM.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"ainbeditor/internal/server"
)

func main() {
	cfg, err := server.ParseConfig(os.Args[1:], os.Getenv, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		os.Exit(2)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := server.Run(ctx, cfg, log, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "ainb server:", err)
		os.Exit(1)
	}
}
