package io.jdbcrepl.node;

import io.jdbcrepl.logging.DriverLog;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

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

    StagedLoad(Connection raw, Connection application, java.util.List<String> createSql, String loadSql,
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
