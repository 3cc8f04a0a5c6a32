package io.jdbcrepl.mview;

import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.mview.MviewCommand.Name;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A log's table ({@code MLOG$_…}) and the row triggers on its master that fill it. Triggers, not
 * the driver's capture, write the log: every change reaches it in the changing transaction, those
 * of the apply side's plain connections and of statements the capture cannot rewrite included, and
 * nothing of it reaches the replication log.
 *
 * <p>Rows, as the seed shows them: INSERT gives {@code I/N} (new values), DELETE {@code D/O} (old
 * values), UPDATE {@code U/U} with the old values, or with INCLUDING NEW VALUES {@code U/O} and
 * {@code U/N}; an UPDATE that changes the primary key gives {@code D/O} and {@code I/N}.
 * CHANGE_VECTOR$$ has bit {@code n % 8} of byte {@code n / 8} set for the master's column at
 * position n (1-based, Oracle's layout): every column for INSERT and DELETE, the columns whose
 * value changed for UPDATE.
 */
final class LogTables {

    private final Dialect dialect;
    private final MviewSql sql;

    LogTables(Dialect dialect) {
        this.dialect = dialect;
        this.sql = dialect.part(MviewSql.class);
    }

    private String q(String name) {
        return Sql.quote(dialect, name);
    }

    private String col(String upper) {
        return q(Sql.column(dialect, upper));
    }

    /** Creates the table and the triggers. */
    void create(Connection raw, LogDefinition log, TableInfo master) throws SQLException {
        String table = Sql.quote(dialect, new Name(log.master().schema(), log.logTable()));
        List<String> defs = new ArrayList<>();
        if (log.rowid()) defs.add(col("M_ROW$$") + " VARCHAR(255)");
        if (log.sequence()) defs.add(col("SEQUENCE$$") + " " + sql.sequenceType());
        defs.add(col("SNAPTIME$$") + " " + sql.timestampType() + " DEFAULT " + Sql.timestamp(Sql.NOT_REFRESHED) + " NOT NULL");
        defs.add(col("DMLTYPE$$") + " VARCHAR(1)");
        defs.add(col("OLD_NEW$$") + " VARCHAR(1)");
        defs.add(col("CHANGE_VECTOR$$") + " " + sql.binaryType());
        List<String> columns = log.columns();
        if (columns.isEmpty()) {
            Sql.execute(raw, "CREATE TABLE " + table + " (" + String.join(", ", defs) + ")" + sql.tableOptions());
        } else {
            // the master's own column types, without its constraints and defaults
            Sql.execute(raw, "CREATE TABLE " + table + " AS SELECT " + quoted(columns) + " FROM "
                    + Sql.quote(dialect, log.master()) + " WHERE 1 = 0");
            for (String def : defs) Sql.execute(raw, "ALTER TABLE " + table + " " + sql.addColumn() + def);
        }
        Sql.execute(raw, "CREATE INDEX " + q(log.logTable() + "$snap") + " ON " + table + " (" + col("SNAPTIME$$") + ")");
        for (String trigger : sql.createTriggers(new LogTrigger(dialect, log, master))) Sql.execute(raw, trigger);
    }

    /** Drops the triggers and the table. */
    void drop(Connection raw, LogDefinition log) throws SQLException {
        for (String s : sql.dropTriggers(new LogTrigger(dialect, log, null))) Sql.execute(raw, s);
        Sql.execute(raw, "DROP TABLE IF EXISTS " + Sql.quote(dialect, new Name(log.master().schema(), log.logTable())));
    }

    private String quoted(List<String> columns) {
        return columns.stream().map(this::q).collect(Collectors.joining(", "));
    }
}
