package io.jdbcrepl.capture.locking;

import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.SessionZone;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.TypedValue;
import io.jdbcrepl.lcr.ValueType;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;

/**
 * One execution of a locking capture, as its executor sees it: the connection and the
 * application's parameters, the change log the LCRs go to, and what a failure undoes.
 */
final class LockingRun {

    private final Connection connection;
    private final PlannedSqlBinder binder;
    private final boolean ownTransaction;
    private final ChangeLogWriter log;
    private final StatementUndo undo;
    private final LockingCapabilities capabilities;
    private final TableInfo table;
    private final Dialect dialect;
    /** MariaDB: the session's time zone, read before any result is open, when the table has a TIMESTAMP column; else null. */
    private final ZoneId sessionZone;

    LockingRun(Connection connection, PlannedSqlBinder binder, boolean ownTransaction, ChangeLogWriter log,
            LockingTransaction transaction, Dialect dialect, List<TableInfo> tables) throws SQLException {
        this.connection = connection;
        this.binder = binder;
        this.ownTransaction = ownTransaction;
        this.log = log;
        this.undo = new StatementUndo(connection, transaction, ownTransaction);
        this.capabilities = dialect.part(LockingSql.class).capabilities();
        this.table = tables.get(0);
        this.dialect = dialect;
        boolean instants = capabilities.sessionZoneTimestamps() && tables.stream()
                .anyMatch(t -> t.columns().stream().anyMatch(c -> c.holdsInstant(dialect)));
        this.sessionZone = instants ? dialect.part(SessionZone.class).of(connection) : null;
    }

    Connection connection() {
        return connection;
    }

    boolean ownTransaction() {
        return ownTransaction;
    }

    LockingCapabilities capabilities() {
        return capabilities;
    }

    StatementUndo undo() {
        return undo;
    }

    /** The change log writer; in a transaction of its own its last LCRs are left pending for the commit. */
    ChangeLogWriter log() {
        return log;
    }

    PreparedStatement prepare(PlannedSql sql, List<TypedValue> driverValues) throws SQLException {
        return binder.prepare(connection, sql, driverValues);
    }

    /** @param scrollable its result can be read again ({@code beforeFirst}) */
    PreparedStatement prepare(PlannedSql sql, List<TypedValue> driverValues, boolean scrollable) throws SQLException {
        return binder.prepare(connection, sql, driverValues, scrollable);
    }

    /** One LCR of the statement's shape; an image is null when the command has none. */
    void logChange(RowImage old, RowImage now) throws SQLException {
        log.add(json(old, table), json(now, table));
    }

    /** One LCR of another shape than the statement's (an upsert's INSERT or UPDATE). */
    void logChange(LogRowShape shape, RowImage old, RowImage now) throws SQLException {
        logChange(shape, table, old, now);
    }

    /** One LCR of another table than the statement's first (a multi-table statement's). */
    void logChange(LogRowShape shape, TableInfo of, RowImage old, RowImage now) throws SQLException {
        log.add(shape, json(old, of), json(now, of));
    }

    /**
     * The statement's end: in the application's transaction its LCRs are written now; in a
     * transaction of its own the last ones stay pending, to go with the commit.
     */
    void endStatement() throws SQLException {
        if (!ownTransaction) log.flush();
    }

    /**
     * Where results stream (see {@link LockingCapabilities#streamsResults}): the statement's result
     * read as the server sends it, its LCRs held back until {@link ChangeLogWriter#endReading}.
     */
    void stream(PreparedStatement ps) throws SQLException {
        ps.setFetchSize(ChangeLogWriter.ROWS_PER_INSERT);
        log.beginReading();
    }

    /** Columns {@code names} of the current row, from result column {@code first} on. */
    RowImage read(ResultSet rs, int first, List<String> names) throws SQLException {
        return read(rs, first, names, table);
    }

    /** Columns {@code names} of table {@code of} in the current row, from result column {@code first} on. */
    RowImage read(ResultSet rs, int first, List<String> names, TableInfo of) throws SQLException {
        RowImage image = new RowImage();
        for (int i = 0; i < names.size(); i++) {
            ColumnInfo c = of.column(names.get(i)).orElseThrow();
            image.put(c.name(), c.type(), c.type().read(rs, first + i));
        }
        return image;
    }

    /** The image restricted to {@code columns}, in their order (table order). */
    static RowImage image(RowImage row, List<String> columns) {
        RowImage out = new RowImage();
        for (String c : columns) out.put(c, row.get(c));
        return out;
    }

    /**
     * The rows of a {@code DELETE/INSERT ... RETURNING}: through {@code execute()}, since MySQL
     * Connector/J refuses {@code executeQuery()} for a statement that does not start with SELECT.
     */
    static ResultSet resultOf(PreparedStatement ps) throws SQLException {
        if (!ps.execute()) throw SqlState.REFUSED.exception("The capture statement returned no rows: RETURNING needs MariaDB 10.5+");
        return ps.getResultSet();
    }

    /**
     * A row image as the change log's JSON (null for none): a MariaDB TIMESTAMP, read as the wall
     * time of the session's zone, as the instant it holds (in UTC).
     */
    private String json(RowImage row, TableInfo table) throws SQLException {
        if (row == null) return null;
        if (sessionZone == null) return row.valuesJson();
        RowImage out = new RowImage();
        for (var e : row.asMap().entrySet()) {
            TypedValue v = e.getValue();
            ColumnInfo c = table.column(e.getKey()).orElseThrow();
            if (c.holdsInstant(dialect) && v.value() instanceof LocalDateTime wall) {
                out.put(e.getKey(), ValueType.TIMESTAMPTZ, SessionZone.instant(wall, sessionZone));
            } else {
                out.put(e.getKey(), v);
            }
        }
        return out.valuesJson();
    }
}
