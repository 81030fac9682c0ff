package pgtest

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestStart starts a cluster, uses a database of its own, and checks that stopping removes
// everything.
func TestStart(t *testing.T) {
	c, err := start(t)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	url := c.NewDatabase(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	var db, listen string
	if err := conn.QueryRow(ctx, "SELECT current_database(), current_setting('listen_addresses')").Scan(&db, &listen); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)
	if len(db) != len("test_")+12 || listen != "" {
		t.Fatalf("database %q, listen_addresses %q; want a test_ database and no network address", db, listen)
	}
	c.Stop()
	if _, err := os.Stat(c.Dir()); !os.IsNotExist(err) {
		t.Fatalf("cluster directory left after Stop: %v", err)
	}
	if _, err := pgx.Connect(ctx, url); err == nil {
		t.Fatal("the server still answers after Stop")
	}
	c.Stop() // a second Stop does nothing
}
