package share

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Postgres is a Store in a PostgreSQL database, for several servers behind one address: each
// sees every share the others store, and the quota holds across all of them.
//
// A share is one row keyed by its id's 16 bytes. The total of the sizes is kept in a
// one-row table by a trigger, and Put locks that row in the insert transaction before
// comparing it with the quota, so concurrent Puts (from any server) cannot together pass it;
// the cost is that share creations commit one at a time.
type Postgres struct {
	pool   *pgxpool.Pool
	lim    Limits
	health healthCache
}

// IsPostgresURL reports whether s names a PostgreSQL database (postgres:// or postgresql://)
// rather than a directory.
func IsPostgresURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// OpenPostgres connects to the database at url (a postgres:// URL, with any libpq
// parameters) and creates or migrates the schema. Close it when done.
func OpenPostgres(ctx context.Context, url string, lim Limits) (*Postgres, error) {
	if err := lim.check(); err != nil {
		return nil, err
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's message may quote the URL, password included: say only what kind of fault.
		return nil, errors.New("share: the PostgreSQL URL does not parse")
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("share: %w", err)
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, err
	}
	return &Postgres{pool: pool, lim: lim}, nil
}

// Close closes the connections.
func (p *Postgres) Close() { p.pool.Close() }

// migrationLock is the advisory lock key taken while the schema is checked and changed, so
// servers starting together migrate one after the other ("ainbshar" in ASCII).
const migrationLock = 0x61696e6273686172

// migrations[i] takes the schema from version i to i+1. Only ever append: a database records
// the versions it has in schema_version.
var migrations = []string{
	`CREATE TABLE shares (
		id         bytea PRIMARY KEY CHECK (octet_length(id) = 16),
		created_at timestamptz NOT NULL DEFAULT now(),
		size       bigint NOT NULL CHECK (size >= 0),
		data       bytea NOT NULL
	);
	CREATE TABLE share_usage (
		one   boolean PRIMARY KEY DEFAULT true CHECK (one),
		bytes bigint NOT NULL CHECK (bytes >= 0)
	);
	INSERT INTO share_usage (one, bytes) VALUES (true, 0);
	-- The total follows every insert and delete, an operator's manual clean-up included.
	CREATE FUNCTION share_usage_follow() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		IF TG_OP = 'INSERT' THEN
			UPDATE share_usage SET bytes = bytes + NEW.size;
		ELSE
			UPDATE share_usage SET bytes = bytes - OLD.size;
		END IF;
		RETURN NULL;
	END $$;
	CREATE TRIGGER share_usage_follow AFTER INSERT OR DELETE ON shares
		FOR EACH ROW EXECUTE FUNCTION share_usage_follow();`,
}

// SchemaVersion is the schema version this code creates and expects.
var SchemaVersion = len(migrations)

// migrate brings the schema to SchemaVersion in one transaction under the advisory lock:
// idempotent, and safe when several servers start at once.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	// A schema already current needs no write, so a server starts on a read-only database
	// (a standby) too, and serves the shares it has.
	var exists bool
	if err := pool.QueryRow(ctx, "SELECT to_regclass('schema_version') IS NOT NULL").Scan(&exists); err != nil {
		return pgErr(err)
	}
	if exists {
		var have int
		if err := pool.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM schema_version").Scan(&have); err != nil {
			return pgErr(err)
		}
		if have == len(migrations) {
			return nil
		}
	}
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(migrationLock)); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
			version    integer PRIMARY KEY,
			applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
			return err
		}
		var have int
		if err := tx.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM schema_version").Scan(&have); err != nil {
			return err
		}
		if have > len(migrations) {
			return fmt.Errorf("the database's schema is version %d, newer than this server's %d: run a newer server", have, len(migrations))
		}
		for v := have; v < len(migrations); v++ {
			if _, err := tx.Exec(ctx, migrations[v]); err != nil {
				return fmt.Errorf("migrating to version %d: %w", v+1, err)
			}
			if _, err := tx.Exec(ctx, "INSERT INTO schema_version (version) VALUES ($1)", v+1); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return pgErr(err)
	}
	return nil
}

// key is the primary key of a valid id: its 16 bytes.
func key(id string) []byte {
	b, _ := idEncoding.DecodeString(id)
	return b
}

// Put implements Store.
func (p *Postgres) Put(ctx context.Context, data []byte) (string, error) {
	if int64(len(data)) > p.lim.MaxSize {
		return "", ErrTooLarge
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	n := int64(len(data))
	if data == nil {
		data = []byte{} // nil would be NULL
	}
	var id string
	err := pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		// The lock on the total is held to the commit: a concurrent Put waits here and then
		// reads the total with this share in it.
		var used int64
		if err := tx.QueryRow(ctx, "SELECT bytes FROM share_usage FOR UPDATE").Scan(&used); err != nil {
			return err
		}
		if p.lim.Quota > 0 && used+n > p.lim.Quota {
			return ErrQuota
		}
		for range 3 {
			id = NewID()
			// DO NOTHING rather than an error on a repeated id, so the transaction survives
			// to try another: a share is never overwritten.
			tag, err := tx.Exec(ctx, "INSERT INTO shares (id, size, data) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING",
				key(id), n, data)
			if err != nil {
				return err
			}
			if tag.RowsAffected() == 1 {
				return nil
			}
		}
		return errors.New("share: could not find a free id")
	})
	if err != nil {
		if errors.Is(err, ErrQuota) {
			return "", ErrQuota
		}
		err = pgErr(err)
		if errors.Is(err, ErrReadOnly) || errors.Is(err, ErrFull) || errors.Is(err, ErrUnavailable) {
			p.health.set(time.Now(), err)
		}
		return "", err
	}
	return id, nil
}

// Get implements Store.
func (p *Postgres) Get(ctx context.Context, id string) ([]byte, error) {
	if !ValidID(id) {
		return nil, ErrNotFound
	}
	var data []byte
	err := p.pool.QueryRow(ctx, "SELECT data FROM shares WHERE id = $1", key(id)).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, pgErr(err)
	}
	return data, nil
}

// Stat implements Store: the data column is not read.
func (p *Postgres) Stat(ctx context.Context, id string) (Info, error) {
	if !ValidID(id) {
		return Info{}, ErrNotFound
	}
	var info Info
	err := p.pool.QueryRow(ctx, "SELECT size, created_at FROM shares WHERE id = $1", key(id)).Scan(&info.Size, &info.Created)
	if errors.Is(err, pgx.ErrNoRows) {
		return Info{}, ErrNotFound
	}
	if err != nil {
		return Info{}, pgErr(err)
	}
	return info, nil
}

// Used returns the bytes of all shares, as the quota counts them.
func (p *Postgres) Used(ctx context.Context) (int64, error) {
	var used int64
	if err := p.pool.QueryRow(ctx, "SELECT bytes FROM share_usage").Scan(&used); err != nil {
		return 0, pgErr(err)
	}
	return used, nil
}

// Writable implements Store: the database answers, and takes writes (it is not a standby or
// set read-only), at most once per healthTTL. A failed Put also updates the answer.
func (p *Postgres) Writable(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return p.health.get(time.Now(), func() error {
		var readOnly string
		err := p.pool.QueryRow(ctx, "SELECT current_setting('transaction_read_only')").Scan(&readOnly)
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				return writeErr(ErrUnavailable, err)
			}
			return pgErr(err)
		}
		if readOnly == "on" {
			return writeErr(ErrReadOnly, errors.New("transactions are read-only"))
		}
		return nil
	})
}

// pgErr marks an error from the database with what it means for the store.
func pgErr(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return writeErr(ErrUnavailable, err)
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "53100": // disk_full
			return writeErr(ErrFull, err)
		case "25006": // read_only_sql_transaction: a standby, or default_transaction_read_only
			return writeErr(ErrReadOnly, err)
		case "57P01", "57P02", "57P03", "53300": // shutdown, crash, starting up, too many connections
			return writeErr(ErrUnavailable, err)
		}
		return fmt.Errorf("share: %w", err)
	}
	// No answer from the server at all: the connection broke or could not be made.
	return writeErr(ErrUnavailable, err)
}
