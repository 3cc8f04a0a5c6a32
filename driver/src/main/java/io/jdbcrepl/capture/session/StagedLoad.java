package io.jdbcrepl.capture.session;

import io.jdbcrepl.sql.CopyFrom;
import io.jdbcrepl.sql.LoadData;
import io.jdbcrepl.logging.DriverLog;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bulk load into a replicated table (PostgreSQL {@code COPY … FROM}, MariaDB {@code LOAD DATA}), captured
 * exactly: the rows are loaded as the application wrote it, but into a temporary table whose columns have
 * the table's types, then inserted into the table with {@code INSERT … SELECT} through the application's
 * connection, which captures them like any INSERT (LCRs in the same transaction, the rows as stored,
 * defaults and generated keys included). The staging table is dropped after it.
 */
public final class StagedLoad {

    private static final DriverLog LOG = DriverLog.of(StagedLoad.class);

    private final Connection raw;
    private final Connection application;
    private final String loadSql;
    private final String insertSql;
    private final String dropSql;
    private boolean done;

    private StagedLoad(Connection raw, Connection application, List<String> createSql, String loadSql,
            String insertSql, String dropSql) throws SQLException {
        this.raw = raw;
        this.application = application;
        this.loadSql = loadSql;
        this.insertSql = insertSql;
        this.dropSql = dropSql;
        try (Statement s = raw.createStatement()) {
            for (String sql : createSql) s.execute(sql); // past capture: a session's own table, never replicated
        }
    }

    /** Names staging tables apart within a session (a load in a transaction keeps its table until the end). */
    private static final AtomicLong STAGING_TABLES = new AtomicLong();

    /** PostgreSQL: {@code copy} into {@code target}'s {@code columns} (stored names), staged in pg_temp. */
    static StagedLoad copy(Connection raw, Connection application, CopyFrom copy, String target, List<String> columns)
            throws SQLException {
        String staging = "pg_temp.repl_load_" + STAGING_TABLES.incrementAndGet();
        List<String> quoted = columns.stream().map(StagedLoad::quote).toList();
        String list = String.join(", ", quoted);
        // the rows keep the file's order (ctid order need not be: COPY may extend the file by several pages)
        return new StagedLoad(raw, application, List.of(
                "CREATE TEMP TABLE " + staging + " AS SELECT " + list + " FROM " + target + " WITH NO DATA",
                "ALTER TABLE " + staging + " ADD COLUMN repl_load_row bigint GENERATED ALWAYS AS IDENTITY"),
                copy.into(staging, quoted),
                "INSERT INTO " + target + " (" + list + ") SELECT " + list + " FROM " + staging + " ORDER BY repl_load_row",
                "DROP TABLE IF EXISTS " + staging);
    }

    /** MariaDB: {@code load} into {@code target}'s {@code columns} (stored names), staged in a temporary table. */
    static StagedLoad loadData(Connection raw, Connection application, LoadData load, String target, List<String> columns)
            throws SQLException {
        String staging = "repl_load_" + STAGING_TABLES.incrementAndGet();
        String list = String.join(", ", columns.stream().map(StagedLoad::backquote).toList());
        // LOCAL: the server cannot stop the client's file midway, so duplicate keys skip rows as with IGNORE
        boolean ignore = load.local() || load.duplicates().equals("IGNORE");
        // InnoDB keeps a table without a key in insertion order: the INSERT reads the rows in the file's order
        return new StagedLoad(raw, application,
                List.of("CREATE TEMPORARY TABLE " + staging + " ENGINE=InnoDB AS SELECT " + list + " FROM " + target
                        + " LIMIT 0"),
                load.into(staging),
                "INSERT " + (ignore ? "IGNORE " : "") + "INTO " + target + " (" + list + ") SELECT " + list + " FROM " + staging,
                "DROP TEMPORARY TABLE IF EXISTS " + staging);
    }

    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    static String backquote(String identifier) {
        return '`' + identifier.replace("`", "``") + '`';
    }

    /** The application's load, into the staging table: run it on the real connection. */
    public String loadSql() {
        return loadSql;
    }

    /** After the load: inserts the staged rows, captured, drops the staging table; the rows inserted. */
    public long finish() throws SQLException {
        done = true;
        long rows;
        try (Statement s = application.createStatement()) {
            rows = s.executeLargeUpdate(insertSql);
        } catch (SQLException e) {
            dropQuietly(e);
            throw e;
        }
        try (Statement s = raw.createStatement()) {
            s.execute(dropSql);
        }
        return rows;
    }

    /** The load failed or was cancelled: drops the staging table when the connection still can. */
    public void abandon(Throwable cause) {
        if (done) return;
        done = true;
        dropQuietly(cause);
    }

    private void dropQuietly(Throwable cause) {
        try (Statement s = raw.createStatement()) {
            s.execute(dropSql);
        } catch (SQLException e) {
            // an aborted transaction: its rollback removes the table
            if (cause != null) cause.addSuppressed(e);
            LOG.debug("Staging table not dropped (" + e.getMessage() + "): " + dropSql);
        }
    }
}
