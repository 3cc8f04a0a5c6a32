package io.jdbcrepl.capture.locking;

import io.jdbcrepl.capture.CaptureException;
import io.jdbcrepl.capture.CaptureSettings;
import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.LoggedColumns;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.lcr.CommandType;
import io.jdbcrepl.sql.MultiTableDml;
import io.jdbcrepl.sql.MultiTableDml.JoinedTable;
import io.jdbcrepl.sql.MultiTableDml.TableAssignment;

import java.util.ArrayList;
import java.util.List;

/** Plans the capture of a MySQL/MariaDB multi-table UPDATE or DELETE (see {@link MultiTablePlan}). */
public final class MultiTablePlanner {

    /**
     * A replicated table the statement changes, with its metadata and configuration.
     *
     * @param joined   the table as the statement's join names it
     */
    public record Replicated(JoinedTable joined, TableInfo table, CaptureSettings settings) {
    }

    private final Dialect dialect;
    private final LockingSql locking;
    private final int pageSize;

    public MultiTablePlanner(Dialect dialect) {
        this(dialect, LockingPlanner.DEFAULT_PAGE_SIZE);
    }

    public MultiTablePlanner(Dialect dialect, int pageSize) {
        this.dialect = dialect;
        this.locking = dialect.part(LockingSql.class);
        this.pageSize = pageSize;
    }

    /**
     * @param replicated the replicated tables among those it changes ({@link MultiTableDml#changed}
     *                   order), at least one
     */
    public MultiTablePlan plan(MultiTableDml dml, List<Replicated> replicated) throws CaptureException {
        if (replicated.isEmpty()) throw new IllegalArgumentException("no replicated table to capture");
        List<MultiTablePlan.Target> targets = new ArrayList<>();
        SqlBuilder read = new SqlBuilder().sql("SELECT ");
        int column = 1;
        for (Replicated r : replicated) {
            check(dml, r, replicated);
            TableInfo table = r.table();
            String ref = reference(r.joined());
            LoggedColumns logged = dml.command() == CommandType.DELETE ? LoggedColumns.forDelete(table)
                    : LoggedColumns.forUpdate(table, assigned(dml, r), r.settings());
            List<String> readColumns = new ArrayList<>(table.key());
            logged.oldColumns().stream().filter(c -> !table.key().contains(c)).forEach(readColumns::add);
            for (String c : readColumns) {
                read.sql(column > 1 ? ", " : "").sql(ref + "." + dialect.quote(c));
                column++;
            }
            List<String> back = new ArrayList<>(table.key());
            back.addAll(logged.newColumns());
            String from = r.joined().table().sqlText() + (r.joined().table().alias() != null ? " AS " + ref : "");
            PlannedSql readBack = new PlannedSql("SELECT " + String.join(", ", back.stream()
                    .map(c -> ref + "." + dialect.quote(c)).toList()) + " FROM " + from + " WHERE ", List.of());
            targets.add(new MultiTablePlan.Target(table, ref, logged, LogRowShape.of(dml.command(), table, logged, dialect),
                    readColumns, column - readColumns.size(), readBack));
        }
        read.sql(" FROM ").fragment(dml.join());
        if (dml.where() != null) read.sql(" WHERE (").fragment(dml.where()).sql("\n)");
        read.sql(" FOR UPDATE");

        SqlBuilder change = new SqlBuilder();
        if (replicated.stream().anyMatch(r -> timestamp(r) != null)) change.append(updateWithTimestamps(dml, replicated));
        else change.fragment(dml.head());
        if (dml.where() != null) change.sql(" WHERE (").fragment(dml.where()).sql("\n) AND ");
        else change.sql(" WHERE ");
        // pages of keys when one table changes; else each row of one table could meet rows of another in several pages
        boolean paged = dml.changed().size() == 1;
        return new MultiTablePlan(dml.command(), dml.ignore(), targets, read.build(), change.build(), paged, pageSize, dialect);
    }

    /** What the capture cannot make exact: refused, saying how to write it instead. */
    private void check(MultiTableDml dml, Replicated r, List<Replicated> replicated) throws CaptureException {
        TableInfo table = r.table();
        if (r.joined().nullable()) {
            throw unsupported(dml, table, "on the outer side of a LEFT or RIGHT JOIN: which of its rows the join"
                    + " pairs can change while it runs", dml.command() == CommandType.DELETE
                    ? "delete from it in a statement of its own (DELETE FROM " + table.name() + " WHERE … IN (SELECT …))"
                    : "join it with an inner JOIN, or update it in a statement of its own (UPDATE " + table.name()
                            + " SET … WHERE … IN (SELECT …))");
        }
        if (table.keyless()) {
            throw unsupported(dml, table, "without a key: its rows cannot be told apart by key", "give it a primary key,"
                    + " or name one with repl.key." + table.name() + ", or change it in a single-table statement");
        }
        for (String c : assigned(dml, r)) {
            if (table.key().contains(c)) {
                throw unsupported(dml, table, "an assignment to its key column " + c, "update the key in a single-table"
                        + " UPDATE (UPDATE " + table.name() + " SET " + c + " = … WHERE …)");
            }
        }
        for (Replicated other : replicated) {
            if (other != r && other.table().qualifiedName().equals(table.qualifiedName())) {
                throw unsupported(dml, table, "changes through two of its names in the join", "change it through one");
            }
        }
    }

    /** The stored names of the columns the statement assigns in {@code r}'s table. */
    private List<String> assigned(MultiTableDml dml, Replicated r) {
        List<String> out = new ArrayList<>();
        for (TableAssignment a : dml.assignments()) {
            if (a.table().equals(r.joined())) out.add(r.table().storedName(a.column().folded(dialect)));
        }
        return out;
    }

    private static String timestamp(Replicated r) {
        return r.settings().timestampColumn() == null ? null : r.table().storedName(r.settings().timestampColumn());
    }

    /**
     * The UPDATE rebuilt so that each changed row's timestamp column gets the next timestamp (SPEC
     * 5.6): assigned by the application, the driver's value replaces it; else assigned last.
     */
    private PlannedSql updateWithTimestamps(MultiTableDml dml, List<Replicated> replicated) {
        SqlBuilder sql = new SqlBuilder().sql(dml.ignore() ? "UPDATE IGNORE " : "UPDATE ").fragment(dml.join()).sql(" SET ");
        List<TableAssignment> assignments = dml.assignments();
        for (int i = 0; i < assignments.size(); i++) {
            TableAssignment a = assignments.get(i);
            Replicated r = replicated.stream().filter(x -> x.joined().equals(a.table())).findFirst().orElse(null);
            String ref = reference(a.table());
            String column = r == null ? a.column().folded(dialect) : r.table().storedName(a.column().folded(dialect));
            sql.sql(i > 0 ? ", " : "").sql(ref + "." + dialect.quote(column) + " = ");
            if (r != null && column.equals(timestamp(r))) overriding(sql, a, r, ref);
            else sql.fragment(a.value());
        }
        for (Replicated r : replicated) {
            String ts = timestamp(r);
            if (ts == null || assigned(dml, r).contains(ts)) continue;
            String ref = reference(r.joined());
            ColumnInfo info = r.table().column(ts).orElseThrow();
            sql.sql(", " + ref + "." + dialect.quote(ts) + " = " + LockingPlanner.nextTimestamp(locking, info, ref + "." + dialect.quote(ts)));
        }
        return sql.build();
    }

    private void overriding(SqlBuilder sql, TableAssignment a, Replicated r, String ref) {
        String ts = timestamp(r);
        LockingPlanner.overriding(sql, a.value(), LockingPlanner.nextTimestamp(locking,
                r.table().column(ts).orElseThrow(), ref + "." + dialect.quote(ts)));
    }

    /** What the statement's SQL calls a table: its alias, quoted, else its name as written. */
    private String reference(JoinedTable t) {
        return t.table().alias() != null ? dialect.quote(t.table().alias()) : t.table().sqlText();
    }

    private static CaptureException unsupported(MultiTableDml dml, TableInfo table, String what, String instead) {
        return new CaptureException("Multi-table " + dml.command() + " changing " + table.qualifiedName() + " "
                + what + " cannot be captured: " + instead + ", or set repl.unsupported=passthrough to run it uncaptured");
    }
}
