package share

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"ainbeditor/internal/share/pgtest"
)

func openPostgres(t *testing.T, url string, lim Limits) *Postgres {
	t.Helper()
	p, err := OpenPostgres(context.Background(), url, lim)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// query runs one query returning one row in a connection of its own.
func query(t *testing.T, url, sql string, dest ...any) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if err := conn.QueryRow(ctx, sql).Scan(dest...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// TestMigrateConcurrently starts eight stores at once on an empty database, as servers
// starting together would: the advisory lock makes one create the schema and the others
// find it, and opening again changes nothing.
func TestMigrateConcurrently(t *testing.T) {
	url := pgtest.Shared(t).NewDatabase(t)
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			p, err := OpenPostgres(context.Background(), url, Limits{MaxSize: 10})
			if err == nil {
				p.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("store %d: %v", i, err)
		}
	}
	openPostgres(t, url, Limits{MaxSize: 10})
	var versions string
	query(t, url, "SELECT string_agg(version::text, ',' ORDER BY version) FROM schema_version", &versions)
	if versions != "1" || SchemaVersion != 1 {
		t.Fatalf("schema_version holds %q (code at %d), want exactly 1", versions, SchemaVersion)
	}
	var tables int
	query(t, url, "SELECT count(*) FROM pg_tables WHERE tablename IN ('shares', 'share_usage', 'schema_version')", &tables)
	if tables != 3 {
		t.Fatalf("%d of the 3 tables exist", tables)
	}
}

func TestMigrateNewerSchema(t *testing.T) {
	url := pgtest.Shared(t).NewDatabase(t)
	openPostgres(t, url, Limits{MaxSize: 10})
	pgtest.Shared(t).Exec(t, dbName(url), "INSERT INTO schema_version (version) VALUES (99)")
	_, err := OpenPostgres(context.Background(), url, Limits{MaxSize: 10})
	if err == nil || !strings.Contains(err.Error(), "the database's schema is version 99, newer than this server's 1") {
		t.Fatalf("a newer schema: %v", err)
	}
}

// dbName is the database of a pgtest URL.
func dbName(url string) string {
	name, _, _ := strings.Cut(strings.TrimPrefix(url, "postgres://postgres@/"), "?")
	return name
}

// TestPostgresRows checks what a share is in the database: keyed by the id's 16 bytes, with
// its size, and the total following inserts and deletes, an operator's included.
func TestPostgresRows(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Shared(t).NewDatabase(t)
	p := openPostgres(t, url, Limits{MaxSize: 100, Quota: 30})
	id, err := p.Put(ctx, []byte("0123456789"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Put(ctx, make([]byte, 20)); err != nil {
		t.Fatal(err)
	}
	var keyLen, size, used int64
	query(t, url, "SELECT octet_length(id), size FROM shares WHERE id = decode('"+hexKey(id)+"', 'hex')", &keyLen, &size)
	if keyLen != 16 || size != 10 {
		t.Fatalf("row: key of %d bytes, size %d; want 16, 10", keyLen, size)
	}
	if used, err = p.Used(ctx); err != nil || used != 30 {
		t.Fatalf("Used = %d, %v; want 30", used, err)
	}
	if _, err := p.Put(ctx, []byte("x")); !errors.Is(err, ErrQuota) {
		t.Fatalf("Put at a full quota: %v", err)
	}
	// An operator deletes a share by hand: the room comes back.
	pgtest.Shared(t).Exec(t, dbName(url), "DELETE FROM shares WHERE size = 10")
	if used, err = p.Used(ctx); err != nil || used != 20 {
		t.Fatalf("Used after a delete = %d, %v; want 20", used, err)
	}
	if _, err := p.Put(ctx, make([]byte, 10)); err != nil {
		t.Fatalf("Put after the delete: %v", err)
	}
}

func hexKey(id string) string {
	const digits = "0123456789abcdef"
	var b strings.Builder
	for _, c := range key(id) {
		b.WriteByte(digits[c>>4])
		b.WriteByte(digits[c&15])
	}
	return b.String()
}

// TestPostgresReadOnly makes the database read-only, as a standby or an operator would: a
// Put is ErrReadOnly, the health check says so, and shares still read.
func TestPostgresReadOnly(t *testing.T) {
	ctx := context.Background()
	c := pgtest.Shared(t)
	url := c.NewDatabase(t)
	id, err := openPostgres(t, url, Limits{MaxSize: 100}).Put(ctx, []byte("kept"))
	if err != nil {
		t.Fatal(err)
	}
	c.Exec(t, "postgres", "ALTER DATABASE "+dbName(url)+" SET default_transaction_read_only = on")
	p := openPostgres(t, url, Limits{MaxSize: 100})
	if _, err := p.Put(ctx, []byte("x")); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("Put: %v, want ErrReadOnly", err)
	}
	p.health.set(p.health.at.Add(-healthTTL), nil) // expire
	if err := p.Writable(ctx); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("Writable: %v, want ErrReadOnly", err)
	}
	if got, err := p.Get(ctx, id); err != nil || string(got) != "kept" {
		t.Fatalf("Get on a read-only database: %q, %v", got, err)
	}
}

// TestPostgresUnavailable closes the database to connections under a running store.
func TestPostgresUnavailable(t *testing.T) {
	ctx := context.Background()
	c := pgtest.Shared(t)
	url := c.NewDatabase(t)
	p := openPostgres(t, url, Limits{MaxSize: 100})
	if err := p.Writable(ctx); err != nil {
		t.Fatal(err)
	}
	name := dbName(url)
	c.Exec(t, "postgres", "ALTER DATABASE "+name+" ALLOW_CONNECTIONS false")
	c.Exec(t, "postgres", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"+name+"'")
	p.pool.Reset() // drop connections the pool has not yet noticed are gone
	if _, err := p.Put(ctx, []byte("x")); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Put: %v, want ErrUnavailable", err)
	}
	if err := p.Writable(ctx); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Writable right after: %v, want ErrUnavailable", err)
	}
	if _, err := p.Stat(ctx, NewID()); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Stat: %v, want ErrUnavailable", err)
	}
	if _, err := OpenPostgres(ctx, url, Limits{MaxSize: 100}); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("OpenPostgres: %v, want ErrUnavailable", err)
	}
}

func TestOpenPostgresBadURL(t *testing.T) {
	_, err := OpenPostgres(context.Background(), "postgres://user:hunter2@host:notaport/db", Limits{MaxSize: 10})
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("bad URL: %v; want an error without the password", err)
	}
	if _, err := OpenPostgres(context.Background(), "postgres:///db", Limits{}); err == nil {
		t.Fatal("a zero size cap was accepted")
	}
	for s, want := range map[string]bool{"postgres://h/db": true, "postgresql://h/db": true, "./data": false, "/srv/postgres://x": false} {
		if IsPostgresURL(s) != want {
			t.Errorf("IsPostgresURL(%q) = %v", s, !want)
		}
	}
}
